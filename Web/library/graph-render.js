// Draws the explorer's screen graph on a 2D canvas: edges batched by style, nodes batched by
// colour, album covers, marks, and labels of a constant screen size with the overlapping
// ones left out. Coordinates: world units for nodes, CSS pixels on screen; the backing store
// is devicePixelRatio times larger, so lines and text stay sharp on phones and tablets.
import { EdgeLayer } from "/library/graph-edges-gl.js";
import { RADIUS } from "/library/graph-model.js";

/** Edge styles as the original: structure grey, covers dashed green, identical solid green,
 *  band↔member solid blue; tempo neighbours (beyond the original) a dotted amber line. */
export const EDGE_STYLES = {
  structure: { colour: "rgba(128, 128, 128, 0.55)", width: 1.2, dash: [] },
  cover: { colour: "#2e9e4f", width: 2, dash: [7, 5] },
  identical: { colour: "#2e9e4f", width: 2.4, dash: [] },
  member_of: { colour: "#2f6fd6", width: 2.4, dash: [] },
  tempo: { colour: "#d08a12", width: 2, dash: [1.5, 4.5] },
};
const STYLE_OF = { album_of: "structure", song_of: "structure", performed_by: "structure", cover: "cover",
  identical: "identical", member_of: "member_of", tempo: "tempo" };
export const NODE_COLOURS = { artist: "#2f6fd6", song: "#2e9e4f", album: "#8a8f98" };
const LABEL_FONT = "12px system-ui, -apple-system, 'Segoe UI', sans-serif";
const LABEL_HEIGHT = 16;
const MAX_LABELS = 400;
const LABEL_CELL = 96;

export class GraphRenderer {
  /** `edgeCanvas` (optional) lies under `canvas`: the edges go there through WebGL when the
   *  browser has it, else everything is drawn on `canvas`. */
  constructor(canvas, graph, edgeCanvas = null) {
    this.canvas = canvas;
    this.graph = graph;
    this.edgeLayer = edgeCanvas ? EdgeLayer.create(edgeCanvas) : null;
    this.ctx = canvas.getContext("2d", { alpha: !!this.edgeLayer });
    this.camera = { x: 0, y: 0, scale: 1 };
    this.width = 1;
    this.height = 1;
    this.ratio = 1;
    this.labels = []; // label rectangles drawn last frame: {x, y, w, h, node}
    this.marks = []; // mark rectangles drawn last frame (icons count as their node)
    this.covers = new Map(); // album key -> HTMLImageElement | canvas
    this.state = { playing: null, queued: new Set(), focused: null, selected: null, dragging: null };
    this.colours = { background: "#fafafa", text: "#1b1b1f", halo: "rgba(250, 250, 250, 0.82)", focus: "#6a3fc4" };
    this.onCoverLoad = () => {};
  }

  /** Reads the page's colours (light or dark theme) from CSS custom properties. */
  readColours() {
    const style = getComputedStyle(this.canvas);
    const get = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    this.colours.background = get("--graph-bg", this.colours.background);
    this.colours.text = get("--graph-fg", this.colours.text);
    this.colours.halo = get("--graph-halo", this.colours.halo);
    this.colours.focus = get("--graph-focus", this.colours.focus);
  }

  /** Sizes the backing store to the canvas's CSS box times devicePixelRatio. */
  resize() {
    const box = this.canvas.getBoundingClientRect();
    this.ratio = window.devicePixelRatio || 1;
    this.width = Math.max(1, box.width);
    this.height = Math.max(1, box.height);
    const w = Math.round(this.width * this.ratio), h = Math.round(this.height * this.ratio);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    if (this.edgeLayer) this.edgeLayer.resize(this.width, this.height, this.ratio);
    this.readColours();
  }

  toScreen(x, y) {
    const c = this.camera;
    return { x: (x - c.x) * c.scale + this.width / 2, y: (y - c.y) * c.scale + this.height / 2 };
  }

  toWorld(sx, sy) {
    const c = this.camera;
    return { x: (sx - this.width / 2) / c.scale + c.x, y: (sy - this.height / 2) / c.scale + c.y };
  }

  /** A node's radius on screen: its world size times the zoom, kept between 4 px and three
   *  times its size so that far-out nodes stay visible and near ones do not swamp the view. */
  screenRadius(node) {
    const r = RADIUS[node.kind] || 12;
    return Math.max(4, Math.min(r * 3, r * this.camera.scale));
  }

  /** Zooms by factor around a screen point, which stays where it is. */
  zoomAt(factor, sx, sy) {
    const before = this.toWorld(sx, sy);
    this.camera.scale = Math.max(0.02, Math.min(8, this.camera.scale * factor));
    const after = this.toWorld(sx, sy);
    this.camera.x += before.x - after.x;
    this.camera.y += before.y - after.y;
  }

  /** Centres and scales the camera so every node fits. */
  fit(padding = 60) {
    const nodes = [...this.graph.nodes.values()];
    if (!nodes.length) { this.camera = { x: 0, y: 0, scale: 1 }; return; }
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const n of nodes) {
      minX = Math.min(minX, n.x); maxX = Math.max(maxX, n.x); minY = Math.min(minY, n.y); maxY = Math.max(maxY, n.y);
    }
    const w = Math.max(maxX - minX, 1), h = Math.max(maxY - minY, 1);
    const scale = Math.min((this.width - 2 * padding) / w, (this.height - 2 * padding) / h, 1.6);
    this.camera = { x: (minX + maxX) / 2, y: (minY + maxY) / 2, scale: Math.max(0.02, scale) };
  }

  coverOf(node) {
    if (node.kind !== "album") return null;
    const cached = this.covers.get(node.key);
    if (cached !== undefined) return cached && (cached.complete === undefined || cached.complete) && (cached.naturalWidth !== 0) ? cached : null;
    const url = albumCoverURL(node.info, node.id);
    if (!url) { this.covers.set(node.key, null); return null; }
    const img = new Image();
    img.decoding = "async";
    img.onload = () => { this.coversLoaded = (this.coversLoaded || 0) + 1; this.onCoverLoad(); };
    img.onerror = () => this.covers.set(node.key, null);
    img.src = `${url}${url.includes("?") ? "&" : "?"}size=${Math.min(300, Math.round(64 * this.ratio))}`;
    this.covers.set(node.key, img);
    return null;
  }

  /** Nodes about to move together (a drag): until endDrag(), frames redraw only them and
   *  their edges over a cached picture of everything else, as long as the camera stays. */
  beginDrag(nodes) {
    this.moving = nodes.length <= this.graph.nodes.size / 2 ? new Set(nodes) : null;
    this.cache = null;
  }

  endDrag() {
    this.moving = null;
    this.cache = null;
  }

  /** Draws one frame; returns the milliseconds the draw call took. */
  draw() {
    const started = performance.now();
    if (this.moving && this.drawMoving()) return performance.now() - started;
    this.drawAll(this.ctx, null);
    return performance.now() - started;
  }

  /** Screen positions of the nodes (all, or those of `only`); returns those in view. */
  place(nodes) {
    const margin = 60, w = this.width, h = this.height;
    const c = this.camera, hw = w / 2, hh = h / 2;
    const visible = [];
    for (const n of nodes) {
      n.sx = (n.x - c.x) * c.scale + hw;
      n.sy = (n.y - c.y) * c.scale + hh;
      n.sr = this.screenRadius(n);
      n.shown = n.sx > -margin && n.sx < w + margin && n.sy > -margin && n.sy < h + margin;
      if (n.shown) visible.push(n);
    }
    return visible;
  }

  /** The whole scene on ctx, without the nodes of `skip` and their edges (the cache of a
   *  drag, where ctx is an offscreen canvas and the background stays transparent). */
  drawAll(ctx, skip) {
    const graph = this.graph, w = this.width, h = this.height;
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    if (this.edgeLayer || skip) {
      ctx.clearRect(0, 0, w, h);
    } else {
      ctx.fillStyle = this.colours.background;
      ctx.fillRect(0, 0, w, h);
    }
    let visible = this.place(graph.nodes.values());
    if (skip) visible = visible.filter((n) => !skip.has(n));

    // Edges by style.
    const groups = {};
    for (const e of graph.edges.values()) {
      const a = e.a, b = e.b;
      if (skip && (skip.has(a) || skip.has(b))) continue;
      if (!a.shown && !b.shown && !segmentInView(a, b, w, h)) continue;
      const style = STYLE_OF[e.edge] || "structure";
      (groups[style] ||= []).push(e);
    }
    if (this.edgeLayer && !skip) {
      this.edgeLayer.draw(this.colours.background, Object.entries(groups).map(([style, edges]) => [EDGE_STYLES[style], edges]));
    } else {
      if (this.edgeLayer) this.edgeLayer.draw(this.colours.background, []);
      this.strokeEdges(ctx, groups);
    }
    this.drawNodes(ctx, visible);
    this.marks = this.drawMarks(ctx, visible);
    this.labels = this.drawLabels(ctx, visible);
  }

  /** A drag's frame: the cached rest of the scene, then the moving nodes and their edges.
   *  False when there is no cache to use (then the caller draws everything). */
  drawMoving() {
    const ctx = this.ctx, w = this.width, h = this.height;
    const c = this.camera;
    const key = `${c.x},${c.y},${c.scale},${w},${h},${this.ratio},${this.graph.version},${this.marksKey()}`;
    if (!this.cache || this.cache.key !== key) {
      const canvas = this.cache ? this.cache.canvas : document.createElement("canvas");
      canvas.width = this.canvas.width;
      canvas.height = this.canvas.height;
      this.drawAll(canvas.getContext("2d"), this.moving);
      this.cache = { key, canvas, marks: this.marks, labels: this.labels };
    }
    const moving = [...this.moving];
    const visible = this.place(moving);
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    if (this.edgeLayer) ctx.clearRect(0, 0, w, h);
    else { ctx.fillStyle = this.colours.background; ctx.fillRect(0, 0, w, h); }
    ctx.drawImage(this.cache.canvas, 0, 0, w, h);
    const groups = {};
    const seen = new Set();
    for (const n of moving) {
      for (const k of n.edges) {
        if (seen.has(k)) continue;
        seen.add(k);
        const e = this.graph.edges.get(k);
        if (!e) continue;
        if (!e.a.shown && !e.b.shown && !segmentInView(e.a, e.b, w, h)) continue;
        const style = STYLE_OF[e.edge] || "structure";
        (groups[style] ||= []).push(e);
      }
    }
    this.strokeEdges(ctx, groups);
    this.drawNodes(ctx, visible);
    this.marks = [...this.drawMarks(ctx, visible), ...this.cache.marks];
    this.labels = [...this.drawLabels(ctx, visible), ...this.cache.labels];
    return true;
  }

  /** What the marks depend on besides positions (a cache is stale when it changes). */
  marksKey() {
    const st = this.state;
    return `${st.playing}|${st.focused}|${st.selected}|${st.queued.size}|${this.coversLoaded || 0}`;
  }

  /** Edges as 2D strokes, one per edge (Chromium strokes many short simple paths faster than
   *  one long path of them). */
  strokeEdges(ctx, groups) {
    for (const [style, edges] of Object.entries(groups)) {
      const s = EDGE_STYLES[style];
      ctx.strokeStyle = s.colour;
      ctx.lineWidth = s.width;
      ctx.setLineDash(s.dash);
      ctx.lineCap = style === "tempo" ? "round" : "butt";
      for (const e of edges) { ctx.beginPath(); ctx.moveTo(e.a.sx, e.a.sy); ctx.lineTo(e.b.sx, e.b.sy); ctx.stroke(); }
    }
    ctx.setLineDash([]);
    ctx.lineCap = "butt";
  }

  /** Discs batched by colour; albums as their cover (or a grey tile) with a frame. */
  drawNodes(ctx, visible) {
    for (const kind of ["artist", "song"]) {
      ctx.beginPath();
      for (const n of visible) {
        if (n.kind !== kind) continue;
        ctx.moveTo(n.sx + n.sr, n.sy);
        ctx.arc(n.sx, n.sy, n.sr, 0, Math.PI * 2);
      }
      ctx.fillStyle = NODE_COLOURS[kind];
      ctx.fill();
    }
    const tiles = [];
    for (const n of visible) {
      if (n.kind !== "album") continue;
      const side = n.sr * 2, x = n.sx - n.sr, y = n.sy - n.sr;
      const cover = this.coverOf(n);
      if (cover) ctx.drawImage(cover, x, y, side, side);
      else tiles.push(n);
    }
    if (tiles.length) {
      ctx.beginPath();
      for (const n of tiles) ctx.rect(n.sx - n.sr, n.sy - n.sr, n.sr * 2, n.sr * 2);
      ctx.fillStyle = NODE_COLOURS.album;
      ctx.fill();
    }
    ctx.beginPath();
    for (const n of visible) if (n.kind === "album") ctx.rect(n.sx - n.sr, n.sy - n.sr, n.sr * 2, n.sr * 2);
    ctx.strokeStyle = this.colours.text;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  /** The "more links" (+), "now playing" (ring and ♪), "queued" (Q), "lookup failed" (!) and
   *  focus/selection marks. Each mark's box is kept for hit testing. */
  drawMarks(ctx, visible) {
    const st = this.state, graph = this.graph;
    const marks = [];
    const more = [], failed = [];
    for (const n of visible) {
      if (graph.hasMore(n)) more.push(n);
      if (n.lookupFailed) failed.push(n);
    }
    // More links: a small white "+" in a dark disc at the node's upper right.
    if (more.length) {
      ctx.beginPath();
      for (const n of more) {
        const x = n.sx + n.sr * 0.85 + 3, y = n.sy - n.sr * 0.85 - 3;
        ctx.moveTo(x + 7, y);
        ctx.arc(x, y, 7, 0, Math.PI * 2);
        marks.push({ x: x - 9, y: y - 9, w: 18, h: 18, node: n });
      }
      ctx.fillStyle = this.colours.text;
      ctx.fill();
      ctx.beginPath();
      for (const n of more) { // the "+" as two filled bars (fills are cheaper than strokes)
        const x = n.sx + n.sr * 0.85 + 3, y = n.sy - n.sr * 0.85 - 3;
        ctx.rect(x - 4, y - 1, 8, 2);
        ctx.rect(x - 1, y - 4, 2, 8);
      }
      ctx.fillStyle = this.colours.background;
      ctx.fill();
    }
    // A small disc with a glyph beside a node; a tap on it counts as a tap on the node.
    const badge = (node, x, y, { radius, fill, stroke = null, glyph, size, colour, hit }) => {
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, Math.PI * 2);
      ctx.fillStyle = fill;
      ctx.fill();
      if (stroke) {
        ctx.strokeStyle = stroke;
        ctx.lineWidth = 1.5;
        ctx.stroke();
      }
      ctx.fillStyle = colour;
      ctx.font = `bold ${size}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(glyph, x, y + 0.5);
      marks.push({ x: x - hit / 2, y: y - hit / 2, w: hit, h: hit, node });
    };
    // Lookup failed: a red disc with "!" at the node's upper left.
    for (const n of failed) {
      badge(n, n.sx - n.sr * 0.85 - 3, n.sy - n.sr * 0.85 - 3,
        { radius: 8, fill: "#c62828", glyph: "!", size: 12, colour: "#fff", hit: 20 });
    }
    const ring = (n, colour, width, extra) => {
      ctx.beginPath();
      if (n.kind === "album") ctx.rect(n.sx - n.sr - extra, n.sy - n.sr - extra, 2 * (n.sr + extra), 2 * (n.sr + extra));
      else ctx.arc(n.sx, n.sy, n.sr + extra, 0, Math.PI * 2);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.stroke();
    };
    // Queued: an outlined "Q" badge at the lower right.
    for (const n of visible) {
      if (n.kind !== "song" || !st.queued.has(n.key) || st.playing === n.key) continue;
      badge(n, n.sx + n.sr * 0.85 + 3, n.sy + n.sr * 0.85 + 3, { radius: 7, fill: this.colours.background,
        stroke: NODE_COLOURS.song, glyph: "Q", size: 9, colour: this.colours.text, hit: 18 });
    }
    const inList = (key) => { const n = key ? graph.nodes.get(key) : null; return n && visible.includes(n) ? n : null; };
    const playing = inList(st.playing);
    if (playing && playing.shown) {
      ring(playing, "#e0245e", 3, 4);
      badge(playing, playing.sx - playing.sr * 0.85 - 4, playing.sy + playing.sr * 0.85 + 4,
        { radius: 8, fill: "#e0245e", glyph: "♪", size: 11, colour: "#fff", hit: 20 });
    }
    const selected = inList(st.selected);
    if (selected && selected.shown) ring(selected, this.colours.text, 2, 3);
    const focused = inList(st.focused);
    if (focused && focused.shown) ring(focused, this.colours.focus, 3, 7);
    return marks;
  }

  /** Labels at a constant 12 px under their node, most important first; a label that would
   *  overlap one already placed is left out (a grid of placed boxes keeps this linear). */
  drawLabels(ctx, visible) {
    const st = this.state;
    ctx.font = LABEL_FONT;
    const rank = (n) => {
      if (n.key === st.focused || n.key === st.selected || n.key === st.playing || n.key === st.dragging) return 0;
      if (n.lookupFailed) return 1;
      if (n.kind === "artist") return 2;
      if (n.kind === "album") return 3;
      return n.stage > 0 ? 4 : 5;
    };
    const order = visible.length > 1 ? visible.slice().sort((a, b) => rank(a) - rank(b) || a.sy - b.sy) : visible;
    const placed = new Map();
    const fits = (x, y, wd, ht, discs) => {
      const x0 = Math.floor(x / LABEL_CELL), x1 = Math.floor((x + wd) / LABEL_CELL);
      const y0 = Math.floor(y / LABEL_CELL), y1 = Math.floor((y + ht) / LABEL_CELL);
      for (let i = x0; i <= x1; i++) for (let j = y0; j <= y1; j++) {
        const cell = placed.get(i * 4096 + j);
        if (cell) for (const r of cell) {
          if ((discs || !r.disc) && x < r.x + r.w && x + wd > r.x && y < r.y + r.h && y + ht > r.y) return false;
        }
      }
      return true;
    };
    const put = (r) => {
      const x0 = Math.floor(r.x / LABEL_CELL), x1 = Math.floor((r.x + r.w) / LABEL_CELL);
      const y0 = Math.floor(r.y / LABEL_CELL), y1 = Math.floor((r.y + r.h) / LABEL_CELL);
      for (let i = x0; i <= x1; i++) for (let j = y0; j <= y1; j++) {
        const k = i * 4096 + j;
        if (!placed.has(k)) placed.set(k, []);
        placed.get(k).push(r);
      }
    };
    // Node discs block labels too, so a label never hides a node.
    for (const n of visible) put({ x: n.sx - n.sr, y: n.sy - n.sr, w: n.sr * 2, h: n.sr * 2, node: n, disc: true });
    const chosen = [];
    for (const n of order) {
      if (chosen.length >= MAX_LABELS) break;
      let text = n.name || "";
      if (n.lookupFailed) text += ` — ${st.lookupFailedText || "lookup failed — tap to retry"}`;
      if (n.labelText !== text) { n.labelText = text; n.labelWidth = ctx.measureText(text).width; }
      const wd = Math.min(n.labelWidth, 220) + 8, ht = LABEL_HEIGHT;
      const x = n.sx - wd / 2, y = n.sy + n.sr + 3;
      // Zoomed far out, songs' labels go first, then albums' (the nodes stay).
      if ((rank(n) >= 4 && this.camera.scale < 0.55) || (rank(n) === 3 && this.camera.scale < 0.3)) continue;
      // Artists' and albums' labels may cover song discs; songs' labels never cover a node.
      // (A label starts below its own disc.) The focused, selected and playing always show.
      const r0 = rank(n);
      if (r0 > 0 && !fits(x, y, wd, ht, r0 > 3)) continue;
      const r = { x, y, w: wd, h: ht, node: n };
      put(r);
      chosen.push(r);
    }
    ctx.beginPath();
    for (const r of chosen) ctx.rect(r.x, r.y, r.w, r.h);
    ctx.fillStyle = this.colours.halo;
    ctx.fill();
    ctx.fillStyle = this.colours.text;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const r of chosen) {
      const n = r.node;
      ctx.fillText(n.labelWidth > 220 ? clip(ctx, n.labelText, 212) : n.labelText, r.x + r.w / 2, r.y + r.h / 2 + 0.5);
    }
    return chosen;
  }

  /** The node at a screen point: one of its marks, its label, its disc (with slop for
   *  fingers), or the first 26 px of one of its edges from its end; null on empty space. */
  hit(sx, sy, slop = 6) {
    // What is drawn on top wins: marks and labels (an artist's label may cover a song's
    // disc), then the discs, with slop for fingers.
    for (const r of this.marks) if (sx >= r.x - 2 && sx <= r.x + r.w + 2 && sy >= r.y - 2 && sy <= r.y + r.h + 2) return r.node;
    for (const r of this.labels) if (sx >= r.x && sx <= r.x + r.w && sy >= r.y && sy <= r.y + r.h) return r.node;
    let best = null, bestD = Infinity;
    for (const n of this.graph.nodes.values()) {
      if (!n.shown) continue;
      const d = Math.hypot(n.sx - sx, n.sy - sy) - n.sr;
      if (d <= slop && d < bestD) { best = n; bestD = d; }
    }
    if (best) return best;
    // Edge ends: a point near an edge, within 26 px of the edge's end beyond the node's disc.
    for (const e of this.graph.edges.values()) {
      for (const [from, to] of [[e.a, e.b], [e.b, e.a]]) {
        if (!from.shown) continue;
        const dx = to.sx - from.sx, dy = to.sy - from.sy, len = Math.hypot(dx, dy);
        if (len < 1) continue;
        const t = ((sx - from.sx) * dx + (sy - from.sy) * dy) / len; // distance along the edge
        if (t < 0 || t > from.sr + 26 || t > len / 2) continue;
        const off = Math.abs((sx - from.sx) * dy - (sy - from.sy) * dx) / len;
        if (off <= Math.max(slop, 8)) return from;
      }
    }
    return null;
  }
}

/** An album's cover address from what the server said of it (cover_url, or a has_cover or
 *  cover flag), or null when it has none. */
export function albumCoverURL(info, id) {
  if (!info) return null;
  if (typeof info.cover_url === "string") return info.cover_url;
  if (typeof info.cover === "string") return info.cover;
  return info.has_cover === true || info.cover === true ? `/api/library/albums/${id}/cover` : null;
}

/** Adds the line from (x0, y0) to (x1, y1) to the path as quads of the given width: one quad,
 *  or one per dash of the [on, off] pattern. */
function quadLine(ctx, x0, y0, x1, y1, width, dash) {
  const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy);
  if (len < 0.5) return;
  const ux = dx / len, uy = dy / len, nx = (-uy * width) / 2, ny = (ux * width) / 2;
  const quad = (a, b) => {
    const ax = x0 + ux * a, ay = y0 + uy * a, bx = x0 + ux * b, by = y0 + uy * b;
    ctx.moveTo(ax + nx, ay + ny);
    ctx.lineTo(bx + nx, by + ny);
    ctx.lineTo(bx - nx, by - ny);
    ctx.lineTo(ax - nx, ay - ny);
    ctx.closePath();
  };
  if (!dash.length) { quad(0, len); return; }
  const period = dash[0] + dash[1];
  for (let a = 0; a < len; a += period) quad(a, Math.min(len, a + dash[0]));
}

function clip(ctx, text, width) {
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + "…").width <= width) lo = mid; else hi = mid - 1;
  }
  return text.slice(0, lo) + "…";
}

function segmentInView(a, b, w, h) {
  return !(Math.max(a.sx, b.sx) < 0 || Math.min(a.sx, b.sx) > w || Math.max(a.sy, b.sy) < 0 || Math.min(a.sy, b.sy) > h);
}
