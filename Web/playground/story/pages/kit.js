// The touch pages' shared kit (docs/playground.md, "Touch pages"): the scene (one inline SVG
// filling the 1024×768 box), client px → stage units, timers and tweens that destroy() ends,
// drags with pointer capture, one-shot animations that respect reduced motion, the finish guard
// and the happy burst. Every page module builds on `createPage`.
import { svg as svgNode } from "/common/dom.js";

export const STAGE_W = 1024;
export const STAGE_H = 768;
export const FINISH_DELAY = 1200; // ms of happy animation before api.finish() (200 with reduced motion)

let serial = 0;

/** Loads pages.css once per document (the story frame may link it itself). */
function ensureStyles() {
  const href = new URL("../pages.css", import.meta.url).href;
  for (const link of document.querySelectorAll("link[rel=stylesheet]")) if (link.href === href) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

/** The soft palette of Web/playground/art/carworld/*.svg, shared by every page. */
export const C = {
  sky: "#a8d8ee", skyLight: "#d5eef8", night: "#3b4170", nightLight: "#555c92",
  meadow: "#bfe3a6", meadowKnit: "#a8d28e", leaf: "#7fbf6e", leafLight: "#a6da93",
  cream: "#f6e3c8", creamLight: "#fffaf0", roof: "#e89a8c", wood: "#b98a63", woodLight: "#d4ab85",
  red: "#e8766c", redLight: "#f4a59c", blue: "#7ea7d8", blueLight: "#b3cdee",
  yellow: "#ffd45c", yellowLight: "#fff3b0", purple: "#a98bc9", purpleLight: "#cdb8e4",
  orange: "#f2a65a", orangeLight: "#f8c994", pink: "#f2a7c3", pinkLight: "#f8cde0",
  grey: "#c9c9d6", greyLight: "#e6e6ee", ink: "#4a4e69", white: "#ffffff", wool: "#f4f4f8",
};

/** A dashed "stitch" ring (the knitted look) for a circle. */
export function stitchCircle(cx, cy, r, colour, width = 2.2) {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-dasharray="5 5" stroke-linecap="round"/>`;
}

/** A dashed stitch just inside a rounded rectangle. */
export function stitchRect(x, y, w, h, rx, colour, inset = 5, width = 2.2) {
  return `<rect x="${x + inset}" y="${y + inset}" width="${w - 2 * inset}" height="${h - 2 * inset}" rx="${Math.max(0, rx - inset)}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-dasharray="5 5" stroke-linecap="round"/>`;
}

/** A woolly cloud centred on (x, y), `s` its scale. */
export function cloud(x, y, s = 1, fill = C.wool, line = "#d9d9e6") {
  return `<g transform="translate(${x} ${y}) scale(${s})">
    <g fill="${fill}" stroke="${line}" stroke-width="2">
      <circle cx="-40" cy="8" r="30"/><circle cx="0" cy="-10" r="38"/><circle cx="40" cy="8" r="30"/><circle cx="0" cy="18" r="28"/>
    </g>
    <g fill="${fill}"><circle cx="-40" cy="8" r="28"/><circle cx="0" cy="-10" r="36"/><circle cx="40" cy="8" r="28"/><circle cx="0" cy="18" r="26"/></g>
    <path d="M-46 2 Q-34 -10 -22 0 M-8 -26 Q6 -34 14 -20" fill="none" stroke="#ffffff" stroke-width="4" stroke-linecap="round"/>
  </g>`;
}

/** A simple five-pointed star path centred on (0, 0). */
export function starPath(outer, inner = outer * 0.48, points = 5) {
  const parts = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    parts.push(`${(r * Math.cos(a)).toFixed(1)} ${(r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${parts.join(" L")} Z`;
}

/** A heart path centred on (0, 0), about 2s wide. */
export function heartPath(s) {
  return `M0 ${s * 0.9} C${-s * 1.4} ${-s * 0.1} ${-s * 0.7} ${-s * 1.1} 0 ${-s * 0.35} C${s * 0.7} ${-s * 1.1} ${s * 1.4} ${-s * 0.1} 0 ${s * 0.9} Z`;
}

/**
 * Mounts a page's scene in `root` and returns the kit: `svg`, `uid` (a prefix for ids in
 * the document), `$`/`$$` (queries in the scene), `toStage(event)`, `after`, `every`, `tween`,
 * `play` (Web Animations, skipped with reduced motion), `listen`, `onTap`, `draggable`,
 * `done(el)`, `finish()`, `start()` and `destroy()`.
 */
export function createPage(root, api, id, { background = C.sky } = {}) {
  ensureStyles();
  const uid = `qp${++serial}`;
  const reduced = Boolean(api.reducedMotion);
  const svg = svgNode("svg");
  svg.setAttribute("viewBox", `0 0 ${STAGE_W} ${STAGE_H}`);
  svg.setAttribute("width", String(STAGE_W));
  svg.setAttribute("height", String(STAGE_H));
  svg.setAttribute("class", `qp-page qp-${id}${reduced ? " qp-reduced" : ""}`);
  svg.setAttribute("data-page", id);
  svg.style.cssText = `position:absolute;left:0;top:0;width:${STAGE_W}px;height:${STAGE_H}px;touch-action:none;` +
    `user-select:none;-webkit-user-select:none;-webkit-touch-callout:none;background:${background}`;
  root.append(svg);

  const timers = new Set();
  const frames = new Set();
  const listeners = [];
  const animations = new Set();
  let finished = false;
  let destroyed = false;

  const kit = {
    svg, uid, reduced, api,
    $: (selector) => svg.querySelector(selector),
    $$: (selector) => [...svg.querySelectorAll(selector)],

    /** Client pixels of a pointer event → stage units of the box (whatever CSS transform scales it). */
    toStage(event) {
      const r = svg.getBoundingClientRect();
      return { x: ((event.clientX - r.left) * STAGE_W) / r.width, y: ((event.clientY - r.top) * STAGE_H) / r.height };
    },

    after(ms, fn) {
      const handle = setTimeout(() => { timers.delete(handle); if (!destroyed) fn(); }, ms);
      timers.add(handle);
      return handle;
    },

    every(ms, fn) {
      const handle = setInterval(() => { if (!destroyed) fn(); }, ms);
      timers.add(handle);
      return handle;
    },

    /** Calls step(t) each animation frame for `ms` (t from 0 to 1, eased), then done(). */
    tween(ms, step, done, ease = (t) => 1 - (1 - t) ** 3) {
      const duration = reduced ? 0 : ms;
      const begin = performance.now();
      let handle = 0;
      const tick = (now) => {
        frames.delete(handle);
        if (destroyed) return;
        const t = duration <= 0 ? 1 : Math.min(1, (now - begin) / duration);
        step(ease(t));
        if (t < 1) { handle = requestAnimationFrame(tick); frames.add(handle); } else if (done) done();
      };
      if (duration <= 0) { step(1); if (done) done(); return { cancel() {} }; }
      handle = requestAnimationFrame(tick);
      frames.add(handle);
      return { cancel() { cancelAnimationFrame(handle); frames.delete(handle); } };
    },

    /** A per-frame loop (dt in seconds, at most 0.1), until destroy(). */
    loop(fn) {
      let last = performance.now();
      let handle = 0;
      const tick = (now) => {
        frames.delete(handle);
        if (destroyed) return;
        fn(Math.min(0.1, (now - last) / 1000));
        last = now;
        handle = requestAnimationFrame(tick);
        frames.add(handle);
      };
      handle = requestAnimationFrame(tick);
      frames.add(handle);
    },

    /** A one-shot animation of `el` (an element without a transform attribute), about its own
     * centre or `origin`; with reduced motion it is skipped (the end state is the caller's). */
    play(el, keyframes, ms, { origin = "center", easing = "ease-out", iterations = 1 } = {}) {
      if (reduced || destroyed || !el.animate) return null;
      el.style.transformBox = "fill-box";
      el.style.transformOrigin = origin;
      const animation = el.animate(keyframes, { duration: ms, easing, iterations });
      animations.add(animation);
      animation.onfinish = () => animations.delete(animation);
      return animation;
    },

    listen(target, type, fn, options) {
      target.addEventListener(type, fn, options);
      listeners.push([target, type, fn, options]);
    },

    /** Calls fn(el, point) when a pointer goes down on an element matching `selector`. */
    onTap(selector, fn) {
      kit.listen(svg, "pointerdown", (event) => {
        const el = event.target.closest && event.target.closest(selector);
        if (!el || !svg.contains(el)) return;
        event.preventDefault();
        fn(el, kit.toStage(event), event);
      });
    },

    /**
     * Makes `el` (a <g> drawn about its own origin) draggable; `state` = {x, y, home: {x, y}}.
     * onDrop(state, point) returns a place {x, y} to snap to (then `onSnapped` runs after the snap)
     * or null: the piece floats back home. `locked(state)` stops further drags.
     */
    draggable(el, state, { onDrop, onSnapped, onReturned, locked = () => false, lift = 1.1 }) {
      const place = (x, y, s = 1) => {
        state.x = x; state.y = y;
        el.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${s})`);
      };
      place(state.x, state.y);
      state.place = place;
      state.el = el;
      drags.set(el, { state, onDrop, onSnapped, onReturned, locked, lift });
      return state;
    },

    /** Marks `el` as counted towards the page's goal (tests read [data-done]). */
    done(el) { el.setAttribute("data-done", "true"); },

    /** The goal is met: marks the page finished at once ([data-finished]), then after `delay` ms
     * (the last reaction) the happy burst and a sparkle, and api.finish() FINISH_DELAY later —
     * once, whatever calls it again. */
    finish(delay = 0) {
      if (finished || destroyed) return;
      finished = true;
      svg.setAttribute("data-finished", "true");
      kit.after(reduced ? 0 : delay, () => {
        api.sound("sparkle");
        celebrate(kit);
        kit.after(reduced ? 200 : FINISH_DELAY, () => api.finish());
      });
    },

    get finished() { return finished; },

    start() { if (!destroyed) svg.classList.add("qp-running"); },

    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const handle of timers) { clearTimeout(handle); clearInterval(handle); }
      timers.clear();
      for (const handle of frames) cancelAnimationFrame(handle);
      frames.clear();
      for (const animation of animations) animation.cancel();
      animations.clear();
      for (const [target, type, fn, options] of listeners) target.removeEventListener(type, fn, options);
      listeners.length = 0;
      for (const pointer of [...active.keys()]) { try { svg.releasePointerCapture(pointer); } catch { /* gone */ } }
      active.clear();
      svg.remove();
    },
  };

  // Drags: one per pointer (two fingers may drag two pieces), captured by the scene's <svg>
  // (which never moves in the DOM, so raising a piece keeps the capture).
  const drags = new Map(); // element → options
  const active = new Map(); // pointerId → { entry, dx, dy }
  kit.listen(svg, "pointerdown", (event) => {
    const el = event.target.closest && event.target.closest("[data-target]");
    const entry = el && drags.get(el);
    if (!entry || entry.locked(entry.state) || entry.state.busy) return;
    if ([...active.values()].some((a) => a.entry === entry)) return;
    event.preventDefault();
    const p = kit.toStage(event);
    el.parentNode.append(el); // on top of the other pieces
    try { svg.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ }
    active.set(event.pointerId, { entry, dx: p.x - entry.state.x, dy: p.y - entry.state.y });
    entry.state.place(entry.state.x, entry.state.y, entry.lift);
    el.classList.add("qp-held");
    api.sound("pop");
  });
  kit.listen(svg, "pointermove", (event) => {
    const drag = active.get(event.pointerId);
    if (!drag) return;
    event.preventDefault();
    const p = kit.toStage(event);
    const x = Math.max(0, Math.min(STAGE_W, p.x - drag.dx));
    const y = Math.max(0, Math.min(STAGE_H, p.y - drag.dy));
    drag.entry.state.place(x, y, drag.entry.lift);
  });
  const release = (event, cancelled) => {
    const drag = active.get(event.pointerId);
    if (!drag) return;
    active.delete(event.pointerId);
    const { entry } = drag;
    const { state } = entry;
    state.el.classList.remove("qp-held");
    const point = kit.toStage(event);
    const target = cancelled ? null : entry.onDrop(state, point);
    const from = { x: state.x, y: state.y };
    const to = target || state.home;
    state.busy = true;
    if (!target && Math.hypot(from.x - state.home.x, from.y - state.home.y) > 12) api.sound("whoosh");
    kit.tween(target ? (target.ms || 180) : 650, (t) => state.place(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t,
      entry.lift + (1 - entry.lift) * t), () => {
      state.busy = false;
      if (target) { if (entry.onSnapped) entry.onSnapped(state, target); } else if (entry.onReturned) entry.onReturned(state);
    }, target && !target.ms ? undefined : (t) => 0.5 - Math.cos(Math.PI * t) / 2);
  };
  kit.listen(svg, "pointerup", (event) => release(event, false));
  kit.listen(svg, "pointercancel", (event) => release(event, true));
  kit.listen(svg, "lostpointercapture", (event) => release(event, true));
  kit.listen(svg, "contextmenu", (event) => event.preventDefault());
  return kit;
}

/** Hearts and stars fly up from the bottom and fade: the happy burst of a finished page. */
function celebrate(kit) {
  const layer = svgNode("g");
  layer.setAttribute("class", "qp-burst");
  layer.setAttribute("pointer-events", "none");
  kit.svg.append(layer);
  const colours = [C.red, C.yellow, C.pink, C.blue, C.purple, C.orange, C.leaf];
  const count = kit.reduced ? 7 : 18;
  for (let i = 0; i < count; i++) {
    const x = 70 + ((i * 5) % count) * (884 / (count - 1));
    const y = kit.reduced ? 120 + ((i * 137) % 300) : 820;
    const colour = colours[i % colours.length];
    const g = svgNode("g");
    g.setAttribute("transform", `translate(${x} ${y})`);
    const inner = svgNode("path");
    inner.setAttribute("d", i % 2 ? starPath(26) : heartPath(22));
    inner.setAttribute("fill", colour);
    inner.setAttribute("stroke", "#ffffff");
    inner.setAttribute("stroke-width", "3");
    inner.setAttribute("stroke-dasharray", "4 4");
    inner.setAttribute("stroke-linecap", "round");
    g.append(inner);
    layer.append(g);
    const rise = 420 + ((i * 71) % 300);
    kit.play(inner, [
      { transform: "translate(0, 0) scale(0.4) rotate(0deg)", opacity: 1 },
      { transform: `translate(${((i % 5) - 2) * 30}px, ${-rise}px) scale(1.3) rotate(${(i % 2 ? 1 : -1) * 40}deg)`, opacity: 1, offset: 0.75 },
      { transform: `translate(${((i % 5) - 2) * 40}px, ${-rise - 80}px) scale(1.1) rotate(${(i % 2 ? 1 : -1) * 60}deg)`, opacity: 0 },
    ], 1300 + (i % 4) * 150, { easing: "cubic-bezier(.2,.7,.3,1)" });
  }
  kit.after(kit.reduced ? 1500 : 2200, () => layer.remove());
}
