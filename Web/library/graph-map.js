// The whole-library map: every artist, album and song of the catalog as a point, every link as
// a faint line, drawn with WebGL from the binary block of GET /api/library/graph/map
// (docs/graph.md, "Whole-library map"). Pan with a drag (mouse, pen or one finger), zoom with
// the wheel or a pinch, arrows and +/- on the keyboard; zoomed in far enough, the names of the
// nodes nearest the middle appear (artists first, then albums). A tap or click on a node calls onPick.
//
//   import { parseMap, mountMap } from "./graph-map.js";
//   const map = parseMap(await api("/api/library/graph/map", { binary: true }));
//   const handle = mountMap(canvas, map, { onPick: (node) => console.log(node.key), names: fetchNames });
//
// Plain WebGL 1 shaders (a WebGL 2 context when there is one, else WebGL 1 with 32-bit indices),
// so phones and iPad Safari draw it too.

export const KINDS = ["artist", "album", "song"];
/** Point colours by kind, as RGBA 0–1: artists blue, albums amber, songs green. */
export const COLOURS = [[0.17, 0.42, 0.83, 1], [0.88, 0.54, 0.12, 1], [0.18, 0.62, 0.29, 1]];
const EDGE_COLOUR = [0.45, 0.47, 0.5];
const PICK_RADIUS_PX = 14;
const TAP_SLOP_PX = 6;
const LABEL_MAX = 40;
/** Labels appear once at most this many nodes are in view. */
const LABEL_VISIBLE_LIMIT = 600;
const LABEL_DELAY_MS = 120;

/** Decodes the map block: {nodeCount, edgeCount, synthetic, incremental, bounds, xy, ids, kinds,
 *  edges, edgeKinds} with typed arrays over the same buffer (no copies). Throws on a bad block. */
export function parseMap(buffer) {
  const view = new DataView(buffer);
  if (buffer.byteLength < 32 || view.getUint32(0, false) !== 0x51474d31) throw new Error("not a map block (QGM1)");
  const flags = view.getUint32(4, true);
  const n = view.getUint32(8, true);
  const e = view.getUint32(12, true);
  const kindsAt = 32 + 12 * n;
  const edgesAt = Math.ceil((kindsAt + n) / 4) * 4;
  if (buffer.byteLength < edgesAt + 9 * e) throw new Error("the map block is shorter than its counts");
  return {
    nodeCount: n, edgeCount: e, synthetic: (flags & 1) !== 0, incremental: (flags & 2) !== 0,
    bounds: [view.getFloat32(16, true), view.getFloat32(20, true), view.getFloat32(24, true), view.getFloat32(28, true)],
    xy: new Float32Array(buffer, 32, 2 * n),
    ids: new Uint32Array(buffer, 32 + 8 * n, n),
    kinds: new Uint8Array(buffer, kindsAt, n),
    edges: new Uint32Array(buffer, edgesAt, 2 * e),
    edgeKinds: new Uint8Array(buffer, edgesAt + 8 * e, e),
  };
}

/** A node of the map as onPick and names() see it. */
export function nodeAt(map, index) {
  const kind = KINDS[map.kinds[index]];
  const id = map.ids[index];
  return { index, kind, id, key: `${kind}:${id}`, x: map.xy[2 * index], y: map.xy[2 * index + 1] };
}

const POINT_VS = `
attribute vec2 a_pos; attribute float a_kind;
uniform vec2 u_centre; uniform vec2 u_scale; uniform float u_size;
varying float v_kind;
void main() {
  gl_Position = vec4((a_pos - u_centre) * u_scale, 0.0, 1.0);
  gl_PointSize = u_size * (a_kind < 0.5 ? 1.7 : (a_kind < 1.5 ? 1.35 : 1.0));
  v_kind = a_kind;
}`;
const POINT_FS = `
precision mediump float;
varying float v_kind; uniform vec4 u_colours[3];
void main() {
  vec2 d = gl_PointCoord - 0.5;
  if (dot(d, d) > 0.25) discard;
  gl_FragColor = v_kind < 0.5 ? u_colours[0] : (v_kind < 1.5 ? u_colours[1] : u_colours[2]);
}`;
const LINE_VS = `
attribute vec2 a_pos; uniform vec2 u_centre; uniform vec2 u_scale;
void main() { gl_Position = vec4((a_pos - u_centre) * u_scale, 0.0, 1.0); }`;
const LINE_FS = `
precision mediump float; uniform vec4 u_colour;
void main() { gl_FragColor = u_colour; }`;

function program(gl, vs, fs) {
  const p = gl.createProgram();
  for (const [type, text] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, text);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`map shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`map shader: ${gl.getProgramInfoLog(p)}`);
  return p;
}

/** A uniform grid over the nodes, for picking and for finding the nodes in view. */
function buildGrid(map) {
  const [x0, y0, x1, y1] = map.bounds;
  const n = map.nodeCount;
  const side = Math.max(1, Math.min(1024, Math.ceil(Math.sqrt(n / 4))));
  const w = Math.max(x1 - x0, 1e-6) / side, h = Math.max(y1 - y0, 1e-6) / side;
  const cellOf = new Uint32Array(n);
  const start = new Uint32Array(side * side + 1);
  for (let i = 0; i < n; i++) {
    const cx = Math.min(side - 1, Math.max(0, Math.floor((map.xy[2 * i] - x0) / w)));
    const cy = Math.min(side - 1, Math.max(0, Math.floor((map.xy[2 * i + 1] - y0) / h)));
    cellOf[i] = cy * side + cx;
    start[cellOf[i] + 1]++;
  }
  for (let c = 0; c < side * side; c++) start[c + 1] += start[c];
  const fill = start.slice(0, side * side);
  const items = new Uint32Array(n);
  for (let i = 0; i < n; i++) items[fill[cellOf[i]]++] = i;
  /** Calls visit(i) for the nodes in cells that overlap the box; stops when visit returns false. */
  function each(ax, ay, bx, by, visit) {
    const c0 = Math.max(0, Math.floor((ax - x0) / w)), c1 = Math.min(side - 1, Math.floor((bx - x0) / w));
    const r0 = Math.max(0, Math.floor((ay - y0) / h)), r1 = Math.min(side - 1, Math.floor((by - y0) / h));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * side + c;
        for (let k = start[cell]; k < start[cell + 1]; k++) if (visit(items[k]) === false) return;
      }
    }
  }
  return { each };
}

/** Draws `map` on `canvas` and handles its gestures. Options: onPick(node) on a tap or click,
 *  names(keys) → Promise<Map<key, name>> for labels, startedAt (a performance.now() time: the
 *  first frame's delay from it is kept in canvas.dataset.firstFrameMs). Returns {map, view,
 *  pick, setView, redraw, destroy, toScreen}. */
export function mountMap(canvas, map, { onPick = () => {}, names = null, startedAt = performance.now() } = {}) {
  const options = { antialias: true, preserveDrawingBuffer: true, alpha: false };
  let gl = canvas.getContext("webgl2", options);
  if (!gl) {
    gl = canvas.getContext("webgl", options);
    if (!gl) throw new Error("WebGL is not available");
    if (!gl.getExtension("OES_element_index_uint")) throw new Error("WebGL without 32-bit indices");
  }
  const points = program(gl, POINT_VS, POINT_FS);
  const lines = program(gl, LINE_VS, LINE_FS);
  const positionBuffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, positionBuffer);
  gl.bufferData(gl.ARRAY_BUFFER, map.xy, gl.STATIC_DRAW);
  const kindBuffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, kindBuffer);
  gl.bufferData(gl.ARRAY_BUFFER, map.kinds, gl.STATIC_DRAW);
  const edgeBuffer = gl.createBuffer();
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, edgeBuffer);
  gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, map.edges, gl.STATIC_DRAW);
  const u = (p, name) => gl.getUniformLocation(p, name);
  const at = { pos: gl.getAttribLocation(points, "a_pos"), kind: gl.getAttribLocation(points, "a_kind"),
    linePos: gl.getAttribLocation(lines, "a_pos") };
  const grid = buildGrid(map);

  const labelLayer = document.createElement("div");
  labelLayer.className = "map-labels";
  labelLayer.setAttribute("aria-hidden", "true");
  canvas.after(labelLayer);

  const [bx0, by0, bx1, by1] = map.bounds;
  const view = { x: (bx0 + bx1) / 2, y: (by0 + by1) / 2, scale: 1, fit: 1 };
  let width = 0, height = 0, dpr = 1, fitted = false, frame = 0, drawn = false, destroyed = false;
  let labelled = []; // [{i, span}]
  const nameCache = new Map();

  function fit() {
    const span = Math.max(bx1 - bx0, by1 - by0, 1e-6);
    view.fit = Math.min(width, height) / span * 0.95;
    view.scale = view.fit;
    view.x = (bx0 + bx1) / 2;
    view.y = (by0 + by1) / 2;
  }

  function resize() {
    dpr = window.devicePixelRatio || 1;
    width = canvas.clientWidth;
    height = canvas.clientHeight;
    if (width === 0 || height === 0) return;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    if (!fitted) { fit(); fitted = true; }
    redraw();
  }

  function redraw() {
    if (!frame && !destroyed) frame = requestAnimationFrame(draw);
  }

  function draw() {
    frame = 0;
    if (destroyed || width === 0) return;
    if (!canvas.isConnected) { destroy(); return; }
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(1, 1, 1, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    const sx = 2 * view.scale / width, sy = 2 * view.scale / height;
    const zoom = view.scale / view.fit;
    // Edges: faint at the whole-library view, clearer zoomed in.
    gl.useProgram(lines);
    gl.uniform2f(u(lines, "u_centre"), view.x, view.y);
    gl.uniform2f(u(lines, "u_scale"), sx, sy);
    gl.uniform4f(u(lines, "u_colour"), ...EDGE_COLOUR, Math.min(0.5, 0.06 + 0.03 * Math.log2(1 + zoom)));
    gl.bindBuffer(gl.ARRAY_BUFFER, positionBuffer);
    gl.enableVertexAttribArray(at.linePos);
    gl.vertexAttribPointer(at.linePos, 2, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, edgeBuffer);
    if (map.edgeCount > 0) gl.drawElements(gl.LINES, 2 * map.edgeCount, gl.UNSIGNED_INT, 0);
    gl.disableVertexAttribArray(at.linePos);
    // Points.
    gl.useProgram(points);
    gl.uniform2f(u(points, "u_centre"), view.x, view.y);
    gl.uniform2f(u(points, "u_scale"), sx, sy);
    gl.uniform1f(u(points, "u_size"), Math.min(14, 2 * Math.sqrt(zoom)) * dpr);
    gl.uniform4fv(u(points, "u_colours"), COLOURS.flat());
    gl.bindBuffer(gl.ARRAY_BUFFER, positionBuffer);
    gl.enableVertexAttribArray(at.pos);
    gl.vertexAttribPointer(at.pos, 2, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, kindBuffer);
    gl.enableVertexAttribArray(at.kind);
    gl.vertexAttribPointer(at.kind, 1, gl.UNSIGNED_BYTE, false, 0, 0);
    gl.drawArrays(gl.POINTS, 0, map.nodeCount);
    gl.disableVertexAttribArray(at.pos);
    gl.disableVertexAttribArray(at.kind);
    placeLabels();
    if (!drawn) {
      drawn = true;
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4)); // waits for the frame
      canvas.dataset.firstFrameMs = String(Math.round(performance.now() - startedAt));
      canvas.dataset.state = "drawn";
    }
    canvas.dataset.zoom = zoom.toFixed(3);
    scheduleLabels();
  }

  // --- coordinates, picking, labels ----------------------------------------------------------

  const toScreen = (x, y) => [(x - view.x) * view.scale + width / 2, height / 2 - (y - view.y) * view.scale];
  const toWorld = (px, py) => [view.x + (px - width / 2) / view.scale, view.y - (py - height / 2) / view.scale];

  /** The node nearest the canvas point (CSS pixels) within the pick radius, or null. */
  function pick(px, py) {
    const [wx, wy] = toWorld(px, py);
    const r = PICK_RADIUS_PX / view.scale;
    let best = -1, bestD = r * r;
    grid.each(wx - r, wy - r, wx + r, wy + r, (i) => {
      const dx = map.xy[2 * i] - wx, dy = map.xy[2 * i + 1] - wy;
      const d = dx * dx + dy * dy;
      if (d <= bestD) { bestD = d; best = i; }
    });
    return best < 0 ? null : nodeAt(map, best);
  }

  function placeLabels() {
    for (const { i, span } of labelled) {
      const [sx, sy] = toScreen(map.xy[2 * i], map.xy[2 * i + 1]);
      span.style.transform = `translate(${Math.round(sx)}px, ${Math.round(sy)}px)`;
    }
  }

  let labelTimer = 0, labelToken = 0;
  function scheduleLabels() {
    clearTimeout(labelTimer);
    labelTimer = setTimeout(updateLabels, LABEL_DELAY_MS);
  }

  /** Labels for the nodes nearest the middle, once few enough nodes are in view. */
  async function updateLabels() {
    if (destroyed || !names) return;
    const token = ++labelToken;
    const [ax, ay] = toWorld(0, height), [bx, by] = toWorld(width, 0);
    const inView = [];
    let tooMany = false;
    grid.each(ax, ay, bx, by, (i) => {
      const x = map.xy[2 * i], y = map.xy[2 * i + 1];
      if (x < ax || x > bx || y < ay || y > by) return true;
      inView.push(i);
      if (inView.length > LABEL_VISIBLE_LIMIT) { tooMany = true; return false; }
      return true;
    });
    if (tooMany) { setLabels([]); canvas.dataset.labels = "0"; return; }
    inView.sort((a, b) => distanceToMiddle(a) - distanceToMiddle(b));
    const chosen = inView.slice(0, LABEL_MAX).map((i) => nodeAt(map, i));
    const missing = chosen.filter((node) => !nameCache.has(node.key)).map((node) => node.key);
    if (missing.length) {
      try {
        const found = await names(missing);
        for (const key of missing) nameCache.set(key, found.get(key) ?? "");
      } catch (_) { return; } // labels are a nicety: the next view change asks again
    }
    if (token !== labelToken || destroyed) return;
    setLabels(chosen.filter((node) => nameCache.get(node.key)));
  }

  /** Distance to the middle of the view, shortened for artists and albums so their names come first. */
  function distanceToMiddle(i) {
    const dx = map.xy[2 * i] - view.x, dy = map.xy[2 * i + 1] - view.y;
    return (dx * dx + dy * dy) * [0.1, 0.3, 1][map.kinds[i]];
  }

  function setLabels(nodes) {
    labelled = nodes.map((node) => {
      const span = document.createElement("span");
      span.className = `map-label map-label-${node.kind}`;
      span.textContent = nameCache.get(node.key);
      return { i: node.index, span };
    });
    labelLayer.replaceChildren(...labelled.map((l) => l.span));
    canvas.dataset.labels = String(labelled.length);
    placeLabels();
  }

  // --- gestures ------------------------------------------------------------------------------

  function zoomAt(px, py, factor) {
    const [wx, wy] = toWorld(px, py);
    view.scale = Math.min(view.fit * 4000, Math.max(view.fit * 0.5, view.scale * factor));
    // Keep the world point under the finger or cursor where it was.
    view.x = wx - (px - width / 2) / view.scale;
    view.y = wy + (py - height / 2) / view.scale;
    redraw();
  }

  function panBy(dx, dy) {
    view.x -= dx / view.scale;
    view.y += dy / view.scale;
    redraw();
  }

  const pointers = new Map(); // pointerId → {x, y}
  let tap = null; // {id, x, y} while a single pointer has not moved beyond the slop
  const local = (event) => {
    const r = canvas.getBoundingClientRect();
    return { x: event.clientX - r.left, y: event.clientY - r.top };
  };
  const spread = () => {
    const [a, b] = [...pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };

  function onDown(event) {
    canvas.setPointerCapture?.(event.pointerId);
    const p = local(event);
    pointers.set(event.pointerId, p);
    tap = pointers.size === 1 ? { id: event.pointerId, x: p.x, y: p.y } : null;
    event.preventDefault();
  }

  function onMove(event) {
    const before = pointers.get(event.pointerId);
    if (!before) return;
    const p = local(event);
    if (pointers.size === 2) {
      const a = spread();
      pointers.set(event.pointerId, p);
      const b = spread();
      if (a.d > 0 && b.d > 0) zoomAt(b.x, b.y, b.d / a.d);
      panBy(b.x - a.x, b.y - a.y);
    } else {
      pointers.set(event.pointerId, p);
      panBy(p.x - before.x, p.y - before.y);
    }
    if (tap && Math.hypot(p.x - tap.x, p.y - tap.y) > TAP_SLOP_PX) tap = null;
  }

  function onUp(event) {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (event.type === "pointerup" && tap && tap.id === event.pointerId) {
      const node = pick(tap.x, tap.y);
      if (node) onPick(node);
    }
    tap = null;
  }

  function onWheel(event) {
    event.preventDefault();
    const p = local(event);
    const lines = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    zoomAt(p.x, p.y, Math.exp(-lines * 0.002));
  }

  function onKey(event) {
    const step = 60;
    const keys = { ArrowLeft: () => panBy(step, 0), ArrowRight: () => panBy(-step, 0), ArrowUp: () => panBy(0, step),
      ArrowDown: () => panBy(0, -step), "+": () => zoomAt(width / 2, height / 2, 1.25), "=": () => zoomAt(width / 2, height / 2, 1.25),
      "-": () => zoomAt(width / 2, height / 2, 0.8), "0": () => { fit(); redraw(); } };
    if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
  }

  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onUp);
  canvas.addEventListener("wheel", onWheel, { passive: false });
  canvas.addEventListener("keydown", onKey);
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);
  resize();

  function destroy() {
    if (destroyed) return;
    destroyed = true;
    observer.disconnect();
    clearTimeout(labelTimer);
    if (frame) cancelAnimationFrame(frame);
    labelLayer.remove();
    gl.getExtension("WEBGL_lose_context")?.loseContext();
  }

  function setView({ x = view.x, y = view.y, zoom } = {}) {
    view.x = x; view.y = y;
    if (zoom !== undefined) view.scale = view.fit * zoom;
    redraw();
  }

  return { map, view, pick, setView, redraw, destroy, toScreen };
}
