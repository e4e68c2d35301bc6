// The explorer's gestures, with touch, mouse or pen through pointer events: drag a node (the
// nodes it brought on screen follow), pan on the background or with two fingers, pinch and
// wheel zoom, and the original's own tap recogniser: a single tap is decided 250 ms after
// the finger lifts unless a second tap on the same node comes first (a double tap).
// The keyboard works on the focused canvas: arrows move between neighbours, Shift+arrows
// move the node, Enter expands, Space plays, + and − zoom, 0 fits everything.

export const TAP_DELAY_MS = 250; // the original's custom recogniser (iOS's own waits ~0.5 s)
const TAP_MAX_MS = 600; // a press longer than this is no tap
const SLOP = { touch: 12, pen: 8, mouse: 5 }; // px a press may wander and still be a tap
const HIT_SLOP = { touch: 14, pen: 8, mouse: 4 };

/** Wires gestures to the canvas. `actions`: tap(node), doubleTap(node), background(),
 *  changed() (redraw), moved(nodes) (a drag step), dragEnd(node), focus(node), expandKey(node),
 *  playKey(node). Returns a function that removes the listeners. */
export function attachGestures(canvas, renderer, graph, actions) {
  const pointers = new Map(); // pointerId -> {x, y, type}
  let press = null; // {node, x, y, time, type, moved}
  let drag = null; // {node, nodes, last: world point}
  let pinch = null; // {distance, cx, cy}
  let pendingTap = null; // {node, timer, x, y}

  const local = (event) => {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const startPinch = () => {
    const [a, b] = [...pointers.values()];
    pinch = { distance: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2 };
    if (drag) { renderer.state.dragging = null; renderer.endDrag(); actions.dragEnd(drag.node); drag = null; }
    press = null;
  };

  const down = (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    const p = local(event);
    // The first finger of a new touch (or any mouse press) starts afresh: a pointer whose end
    // never arrived (a lost capture, a cancelled touch) must not pair with it in a pinch.
    if (event.isPrimary) { pointers.clear(); pinch = null; drag = null; renderer.endDrag(); }
    pointers.set(event.pointerId, { x: p.x, y: p.y, type: event.pointerType });
    try { canvas.setPointerCapture(event.pointerId); } catch (_) { /* a synthetic pointer */ }
    if (pointers.size === 2) { startPinch(); return; }
    if (pointers.size > 2) return;
    const node = renderer.hit(p.x, p.y, HIT_SLOP[event.pointerType] ?? 6);
    press = { node, x: p.x, y: p.y, time: performance.now(), type: event.pointerType, moved: false };
    event.preventDefault();
  };

  const move = (event) => {
    const known = pointers.get(event.pointerId);
    if (!known) return;
    const p = local(event);
    const dx = p.x - known.x, dy = p.y - known.y;
    known.x = p.x;
    known.y = p.y;
    if (pinch && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
      const cx = (a.x + b.x) / 2, cy = (a.y + b.y) / 2;
      renderer.zoomAt(distance / pinch.distance, pinch.cx, pinch.cy);
      // Two fingers moving together pan the graph.
      renderer.camera.x -= (cx - pinch.cx) / renderer.camera.scale;
      renderer.camera.y -= (cy - pinch.cy) / renderer.camera.scale;
      pinch = { distance, cx, cy };
      actions.changed();
      return;
    }
    if (!press) return;
    if (!press.moved && Math.hypot(p.x - press.x, p.y - press.y) > (SLOP[press.type] ?? 6)) {
      press.moved = true;
      if (press.node) {
        drag = { node: press.node, nodes: graph.subtree(press.node), last: renderer.toWorld(press.x, press.y) };
        renderer.state.dragging = press.node.key;
        renderer.beginDrag(drag.nodes);
      }
    }
    if (!press.moved) return;
    if (drag) {
      // Edges are redrawn on every move, not only when the drag ends (as the original did).
      const w = renderer.toWorld(p.x, p.y);
      const ddx = w.x - drag.last.x, ddy = w.y - drag.last.y;
      for (const n of drag.nodes) { n.x += ddx; n.y += ddy; }
      drag.last = w;
      graph.moved();
      actions.moved(drag.nodes);
    } else {
      renderer.camera.x -= dx / renderer.camera.scale;
      renderer.camera.y -= dy / renderer.camera.scale;
    }
    actions.changed();
  };

  const up = (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (pinch) {
      if (pointers.size < 2) pinch = null;
      return; // lifting after a pinch is no tap, and the other finger does not start a drag
    }
    const ended = press;
    press = null;
    if (drag) {
      renderer.state.dragging = null;
      renderer.endDrag();
      actions.dragEnd(drag.node);
      drag = null;
      actions.changed();
      return;
    }
    if (!ended || ended.moved || event.type === "pointercancel") return;
    if (performance.now() - ended.time > TAP_MAX_MS) return;
    tap(ended.node, ended.x, ended.y);
  };

  const tap = (node, x, y) => {
    if (pendingTap && pendingTap.node === node && Math.hypot(pendingTap.x - x, pendingTap.y - y) < 40) {
      clearTimeout(pendingTap.timer);
      pendingTap = null;
      renderer.state.tapPending = false;
      if (node) actions.doubleTap(node);
      return;
    }
    if (pendingTap) { clearTimeout(pendingTap.timer); fireSingle(pendingTap.node); }
    const entry = { node, x, y, timer: 0 };
    entry.timer = setTimeout(() => {
      if (pendingTap === entry) { pendingTap = null; renderer.state.tapPending = false; }
      fireSingle(node);
    }, TAP_DELAY_MS);
    pendingTap = entry;
    renderer.state.tapPending = true;
  };

  const fireSingle = (node) => {
    if (node) actions.tap(node);
    else actions.background();
  };

  const wheel = (event) => {
    event.preventDefault();
    const p = local(event);
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    renderer.zoomAt(Math.exp((-event.deltaY * unit) / 500), p.x, p.y);
    actions.changed();
  };

  const key = (event) => {
    const focused = actions.focused();
    const step = 40 / renderer.camera.scale;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (arrows[event.key]) {
      event.preventDefault();
      const [ax, ay] = arrows[event.key];
      if (event.shiftKey && focused) { // move the node and what it brought, as a drag does
        const nodes = graph.subtree(focused);
        for (const n of nodes) { n.x += ax * step; n.y += ay * step; }
        graph.moved();
        actions.moved(nodes);
      } else if (event.altKey || !focused) {
        if (focused || !graph.nodes.size) { renderer.camera.x += ax * step; renderer.camera.y += ay * step; }
        else actions.focus(firstNode(graph, renderer));
      } else {
        const next = neighbourToward(graph, focused, ax, ay);
        if (next) actions.focus(next);
      }
      actions.changed();
    } else if (event.key === "Enter") {
      if (focused) { event.preventDefault(); actions.expandKey(focused); }
    } else if (event.key === " " || event.key === "Spacebar") {
      if (focused) { event.preventDefault(); actions.playKey(focused); }
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      renderer.zoomAt(1.25, renderer.width / 2, renderer.height / 2);
      actions.changed();
    } else if (event.key === "-" || event.key === "_") {
      event.preventDefault();
      renderer.zoomAt(0.8, renderer.width / 2, renderer.height / 2);
      actions.changed();
    } else if (event.key === "0") {
      event.preventDefault();
      renderer.fit();
      actions.changed();
    }
  };

  canvas.addEventListener("pointerdown", down);
  canvas.addEventListener("pointermove", move);
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointercancel", up);
  canvas.addEventListener("wheel", wheel, { passive: false });
  canvas.addEventListener("keydown", key);
  // A long press must not open the context menu on touch screens.
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  return () => {
    canvas.removeEventListener("pointerdown", down);
    canvas.removeEventListener("pointermove", move);
    canvas.removeEventListener("pointerup", up);
    canvas.removeEventListener("pointercancel", up);
    canvas.removeEventListener("wheel", wheel);
    canvas.removeEventListener("keydown", key);
  };
}

function firstNode(graph, renderer) {
  // The node nearest the centre of the view.
  let best = null, bestD = Infinity;
  const c = renderer.camera;
  for (const n of graph.nodes.values()) {
    const d = (n.x - c.x) ** 2 + (n.y - c.y) ** 2;
    if (d < bestD) { best = n; bestD = d; }
  }
  return best;
}

/** The linked node most in the direction (ax, ay) from node; failing that, the nearest node
 *  on screen in that direction. Direction counts more than distance. */
export function neighbourToward(graph, node, ax, ay) {
  const score = (o) => {
    const dx = o.x - node.x, dy = o.y - node.y, d = Math.hypot(dx, dy);
    if (d < 1e-6) return Infinity;
    const cos = (dx * ax + dy * ay) / d;
    if (cos <= 0.2) return Infinity; // not that way
    return d * (2 - cos) * (2 - cos);
  };
  const pick = (candidates) => {
    let best = null, bestS = Infinity;
    for (const o of candidates) {
      if (o === node) continue;
      const s = score(o);
      if (s < bestS) { best = o; bestS = s; }
    }
    return best;
  };
  return pick(graph.neighbours(node)) || pick(graph.nodes.values());
}
