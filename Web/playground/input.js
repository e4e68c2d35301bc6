// Input of /playground/: touches and the mouse on the canvas as the module's touches, the
// device's tilt, and the recorder of the input log (docs/playground.md, "Input log").
//
//   const stop = attachTouches(canvas, () => stage, (id, phase, x, y) => game.input(1, id, phase, x, y));
//   const log = new InputLog("carworld", seed); log.touch(1, 0, 412.5, 300.125); log.frame(16);

export const BEGAN = 0, MOVED = 1, ENDED = 3, CANCELLED = 4;
export const TOUCH = 1, TILT = 2;
const GRAVITY = 9.81; // m/s², the contract's g

/** v rounded to 1/8 (the contract's touch precision: exact in f32 and in a log's decimals). */
export const toEighth = (v) => Math.round(v * 8) / 8;

/** v in g rounded to 1/1024 g: exact in f32 and printed exactly in the log (10 decimals at
 *  most), finer than any phone's accelerometer. */
export const toTilt = (v) => Math.round(v * 1024) / 1024;

/** The point of a client position in stage points, given the canvas's box and the stage's
 *  size, rounded to 1/8 point. */
export function stagePoint(clientX, clientY, rect, stage) {
  return {
    x: toEighth(((clientX - rect.left) / rect.width) * stage.width),
    y: toEighth(((clientY - rect.top) / rect.height) * stage.height),
  };
}

/** Forwards the pointers on canvas as touches: each finger (or pen) its own id from 1 up, the
 *  smallest free one, kept until it lifts; the mouse is touch 0 while a button is down.
 *  Phases began, moved, ended and cancelled (stationary is the module's own). send(id, phase,
 *  x, y) gets stage points; gesture() runs on every press (audio and motion permissions need
 *  one). Returns a function that detaches the listeners. */
export function attachTouches(canvas, stage, send, gesture = () => {}) {
  const ids = new Map(); // pointerId -> touch id
  const idFor = (event) => {
    if (event.pointerType === "mouse") return 0;
    const used = new Set(ids.values());
    let id = 1;
    while (used.has(id)) id += 1;
    return id;
  };
  const forward = (event, phase) => {
    const id = ids.get(event.pointerId);
    if (id === undefined) return;
    const { x, y } = stagePoint(event.clientX, event.clientY, canvas.getBoundingClientRect(), stage());
    send(id, phase, x, y);
    if (phase === ENDED || phase === CANCELLED) ids.delete(event.pointerId);
  };
  const listeners = {
    pointerdown: (event) => {
      if (ids.has(event.pointerId)) return;
      if (event.pointerType === "mouse" && event.button !== 0) return;
      gesture();
      ids.set(event.pointerId, idFor(event));
      try { canvas.setPointerCapture(event.pointerId); } catch (_) { /* a synthetic pointer */ }
      event.preventDefault();
      forward(event, BEGAN);
    },
    pointermove: (event) => forward(event, MOVED),
    pointerup: (event) => forward(event, ENDED),
    pointercancel: (event) => forward(event, CANCELLED),
    contextmenu: (event) => event.preventDefault(),
  };
  for (const [type, listener] of Object.entries(listeners)) canvas.addEventListener(type, listener);
  return () => { for (const [type, listener] of Object.entries(listeners)) canvas.removeEventListener(type, listener); };
}

/** The acceleration including gravity, in g and device axes, of a deviceorientation's angles
 *  (degrees): what devicemotion would say for a device at rest, for browsers that give
 *  orientation only. With the device's frame R = Rz(alpha)·Rx(beta)·Ry(gamma), gravity's
 *  reaction (0, 0, 1) in device axes is (-cos β sin γ, sin β, cos β cos γ). */
export function tiltOfOrientation(beta, gamma) {
  const b = (beta * Math.PI) / 180, g = (gamma * Math.PI) / 180;
  return { x: -Math.cos(b) * Math.sin(g), y: Math.sin(b), z: Math.cos(b) * Math.cos(g) };
}

/** How far the screen is turned from the device's natural orientation, degrees (90: a phone on
 *  its side, top to the left). */
function screenAngle() {
  const angle = globalThis.screen?.orientation?.angle ?? globalThis.orientation ?? 0;
  return Number(angle) || 0;
}

/** A reading (x, y in g, device axes: x along the natural orientation's width, y up it) in the
 *  axes of a screen turned angle degrees: x along the screen's width as shown, y up it. A tablet
 *  held in landscape (90) reads x = -device y, y = device x. */
export function screenAxes(x, y, angle) {
  const a = (angle * Math.PI) / 180, c = Math.round(Math.cos(a) * 1e9) / 1e9, s = Math.round(Math.sin(a) * 1e9) / 1e9;
  return { x: x * c - y * s + 0, y: x * s + y * c + 0 };
}

/** The device's tilt, from devicemotion (preferred) or deviceorientation: latest() is the
 *  last reading in g rounded to 1/1024 g, or null before any. permit() asks iOS for the
 *  sensors (it must run in a touch or click handler; elsewhere it does nothing). */
export class Tilt {
  constructor() {
    this.reading = null;
    this.fromMotion = false;
    this.asked = false;
    addEventListener("devicemotion", (event) => {
      const a = event.accelerationIncludingGravity;
      if (!a || a.x === null || a.y === null || a.z === null) return;
      this.fromMotion = true;
      this.set(a.x / GRAVITY, a.y / GRAVITY, a.z / GRAVITY);
    });
    addEventListener("deviceorientation", (event) => {
      if (this.fromMotion || event.beta === null || event.gamma === null) return;
      const { x, y, z } = tiltOfOrientation(event.beta, event.gamma);
      this.set(x, y, z);
    });
  }

  /** Keeps a reading, turned from the device's axes into the screen's as it is turned now
   *  (screenAxes), so "x" is always along the screen's width. */
  set(x, y, z) {
    const turned = screenAxes(x, y, screenAngle());
    this.reading = { x: toTilt(turned.x), y: toTilt(turned.y), z: toTilt(z) };
  }

  latest() {
    return this.reading;
  }

  permit() {
    if (this.asked) return;
    this.asked = true;
    for (const Kind of [globalThis.DeviceMotionEvent, globalThis.DeviceOrientationEvent]) {
      if (Kind && typeof Kind.requestPermission === "function") Kind.requestPermission().catch(() => {});
    }
  }
}

/** The tilt the arrow keys and the on-screen pad stand for, for games steered by tilt
 *  (games.js `tiltPad`): held directions dx, dy (each -1, 0 or 1; dy = 1 is down the screen)
 *  become the reading of a device tipped 0.5 g that way, as a ball would roll (the right edge
 *  lowered reads x < 0, the top edge lowered y < 0), rounded to 1/1024 g; nothing held is
 *  level, (0, 0, 1). */
export function padTilt(dx, dy) {
  const size = Math.hypot(dx, dy);
  if (size === 0) return { x: 0, y: 0, z: 1 };
  const x = toTilt((-0.5 * dx) / size), y = toTilt((0.5 * dy) / size);
  return { x: x + 0, y: y + 0, z: toTilt(Math.sqrt(1 - x * x - y * y)) };
}

/** Arrow keys and an on-screen pad standing in for the tilt sensor, for games steered by tilt
 *  (games.js `tiltPad`), on the game page and on the story's pages. The held directions become
 *  readings (padTilt), sent and logged like the sensor's; the pad shows until a real sensor reads.
 *  A sensor that starts after the keys or pad were used (iOS grants it on the first touch, which
 *  may be on the pad) would find the game's level taken from the pad: its readings are then
 *  made relative to its own first one, so the way the child holds the device is level again.
 *
 *    const steer = new TiltPad(); steer.attach(container, label);  // keys + pad buttons
 *    for (const reading of steer.readings(tilt.latest(), lastSent)) send(reading);  // each frame
 */
export class TiltPad {
  constructor() {
    this.held = { left: false, right: false, up: false, down: false };
    this.padReading = null; // null until a key or the pad is first used
    this.sensorBase = null;
    this.pad = null;
    this.detachers = [];
  }

  setHeld(direction, on) {
    if (this.held[direction] === on) return;
    this.held[direction] = on;
    const h = this.held;
    this.padReading = padTilt(Number(h.right) - Number(h.left), Number(h.down) - Number(h.up));
  }

  levelled(reading) {
    if (!reading || !this.padReading) return reading;
    if (!this.sensorBase) this.sensorBase = reading;
    const x = toTilt(reading.x - this.sensorBase.x), y = toTilt(reading.y - this.sensorBase.y);
    return { x: x + 0, y: y + 0, z: toTilt(Math.sqrt(Math.max(0, 1 - x * x - y * y))) };
  }

  /** Listens to the arrow keys and puts the pad (four 80-point buttons, `id`) into container;
   *  label(direction) names each button; gesture() runs on a press (the sensors' permission). */
  attach(container, { id = "pg-pad", className = "pg-pad", label = (d) => d, gesture = () => {} } = {}) {
    const KEYS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
    const listen = (target, type, listener) => {
      target.addEventListener(type, listener);
      this.detachers.push(() => target.removeEventListener(type, listener));
    };
    listen(globalThis, "keydown", (event) => {
      if (!KEYS[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      this.setHeld(KEYS[event.key], true);
    });
    listen(globalThis, "keyup", (event) => { if (KEYS[event.key]) this.setHeld(KEYS[event.key], false); });
    listen(globalThis, "blur", () => { for (const d of Object.keys(this.held)) this.setHeld(d, false); });
    const pad = document.createElement("div");
    pad.id = id;
    pad.className = className;
    for (const direction of ["up", "left", "right", "down"]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `pg-pad-${direction}`;
      button.dataset.direction = direction;
      button.dataset.target = `pad-${direction}`;
      button.dataset.i18nAttr = `aria-label:playground.pad.${direction}`;
      button.setAttribute("aria-label", label(direction));
      const release = () => this.setHeld(direction, false);
      button.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        gesture();
        this.setHeld(direction, true);
      });
      for (const type of ["pointerup", "pointercancel", "pointerleave"]) button.addEventListener(type, release);
      button.addEventListener("contextmenu", (event) => event.preventDefault());
      pad.append(button);
    }
    container.append(pad);
    this.pad = pad;
    return pad;
  }

  detach() {
    for (const undo of this.detachers.splice(0)) undo();
    if (this.pad) this.pad.remove();
    this.pad = null;
  }

  /** The readings to send this frame, in order, given the sensor's latest (or null) and the last
   *  reading sent (or null): before the pad's first reading a level one (which the game takes as
   *  level), then the newest when it changed. Hides the pad once a sensor reads. */
  readings(sensorReading, lastSent) {
    const sensor = this.levelled(sensorReading);
    if (this.pad && this.pad.hidden !== Boolean(sensor)) this.pad.hidden = Boolean(sensor);
    const reading = sensor || this.padReading;
    const out = [];
    if (reading && !sensor && !lastSent) out.push(padTilt(0, 0));
    const last = out.length ? out[out.length - 1] : lastSent;
    if (reading && (!last || reading.x !== last.x || reading.y !== last.y || reading.z !== last.z)) out.push(reading);
    return out;
  }
}

/** The input log of one game from its start: the header, then a line for every input sent
 *  and every frame, in the order the module got them (docs/playground.md, "Input log"). */
export class InputLog {
  constructor(game, seed) {
    this.lines = ["quintet-playground-log 1", `game ${game}`, `seed ${seed >>> 0}`];
    this.frames = 0;
  }

  touch(id, phase, x, y) { this.lines.push(`t ${id} ${phase} ${x} ${y}`); }

  tilt(x, y, z) { this.lines.push(`a ${x} ${y} ${z}`); }

  frame(dt) {
    this.lines.push(`f ${dt}`);
    this.frames += 1;
  }

  text() { return `${this.lines.join("\n")}\n`; }
}

/** A line of an input log that cannot be read: its number (from 1) and what is wrong. */
export class InputLogError extends Error {
  constructor(line, message) {
    super(`line ${line}: ${message}`);
    this.name = "InputLogError";
    this.line = line;
  }
}

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const WHOLE = /^[-+]?\d+$/;

/** Reads an input log (the format InputLog writes and `quintet playground replay` reads, with
 *  the same rules: `#` starts a comment, blank lines are skipped, the first line is
 *  `quintet-playground-log 1`, `game` is required, `seed` defaults to 1, frames are 0…100 ms):
 *  { game, seed, items } where an item is { kind: "touch", id, phase, x, y },
 *  { kind: "tilt", x, y, z } or { kind: "frame", ms }. Throws InputLogError. */
export function parseInputLog(text) {
  let game = null, seed = 1, sawHeader = false;
  const items = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const number = index + 1;
    const words = raw.replace(/#.*/, "").split(/[ \t\r]+/).filter(Boolean);
    if (!words.length) return;
    const fail = (message) => { throw new InputLogError(number, message); };
    const head = words[0];
    if (!sawHeader) {
      if (head !== "quintet-playground-log") fail("not a playground input log (the first line must be `quintet-playground-log 1`)");
      if (words.length !== 2 || words[1] !== "1") fail(`unknown log version ${words.slice(1).join(" ")}`);
      sawHeader = true;
      return;
    }
    const float = (i) => {
      const v = Number(words[i]);
      if (!DECIMAL.test(words[i] ?? "") || !Number.isFinite(v)) fail(`\`${head}\` needs a finite number in field ${i + 1}`);
      return v;
    };
    const int = (i) => {
      const v = Number(words[i]);
      if (!WHOLE.test(words[i] ?? "") || v < -(2 ** 31) || v >= 2 ** 31) fail(`\`${head}\` needs a whole number in field ${i + 1}`);
      return v;
    };
    switch (head) {
      case "game":
        if (words.length !== 2) fail("`game` takes one name");
        game = words[1];
        break;
      case "seed":
        if (words.length !== 2 || !/^\+?\d+$/.test(words[1]) || Number(words[1]) > 0xffffffff) fail("`seed` takes a whole number 0…4294967295");
        seed = Number(words[1]);
        break;
      case "t": {
        if (words.length !== 5) fail("`t` takes: touch id, phase (0–4), x, y");
        const id = int(1), phase = int(2);
        if (phase < 0 || phase > 4) fail(`touch phase ${phase} is not 0–4`);
        items.push({ kind: "touch", id, phase, x: float(3), y: float(4) });
        break;
      }
      case "a":
        if (words.length !== 4) fail("`a` takes: x, y, z");
        items.push({ kind: "tilt", x: float(1), y: float(2), z: float(3) });
        break;
      case "f": {
        if (words.length !== 2) fail("`f` takes the frame's milliseconds");
        const ms = int(1);
        if (ms < 0 || ms > 100) fail(`a frame of ${ms} ms (0–100)`);
        items.push({ kind: "frame", ms });
        break;
      }
      default:
        fail(`unknown line \`${head}\` (expected game, seed, t, a or f)`);
    }
  });
  if (!sawHeader) throw new InputLogError(Math.max(lines.length, 1), "empty log");
  if (game === null) throw new InputLogError(lines.length, "no `game` line");
  return { game, seed, items };
}
