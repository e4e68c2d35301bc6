// A small slippy map of our own for the crowd page: Web Mercator, pan by drag or touch, zoom by
// wheel, pinch, keys or buttons. Under everything a coordinate grid (lines every round number of
// degrees, labelled) with a scale bar, so the map works offline; raster tiles from a URL
// template ("https://tile.example.org/{z}/{x}/{y}.png") go on top when one is configured, and a
// tile that fails to load is hidden, so the grid shows through; when every tile of the first view
// fails (the tile server is down or unreachable) tiles are turned off for the visit and the map
// is the grid alone, saying so in its corner. Pins are <button>s (tappable,
// focusable, labelled); the head-count circles and the search radius are SVG.
//
// Nothing from the server is ever inserted as HTML: labels are attributes and text nodes.
import { el, svg } from "/common/dom.js";

const TILE = 256; // px of a tile at its own zoom
const MERCATOR_RADIUS = 6378137; // m, the sphere of Web Mercator (EPSG:3857)
const MAX_LAT = 85.0511287798; // Web Mercator's square world
const MIN_ZOOM = 1;
const MAX_ZOOM = 21;
const MAX_TILE_ZOOM = 19;
const DRAG_THRESHOLD = 4; // px a pointer moves before a press becomes a drag (so taps stay taps)

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

/** The world's size in px at a (fractional) zoom. */
export function worldSize(zoom) { return TILE * 2 ** zoom; }

/** {x, y} in world px at a zoom (x east, y south, origin at 180° W, 85° N). */
export function project(lat, lon, zoom) {
  const size = worldSize(zoom);
  const phi = (clamp(lat, -MAX_LAT, MAX_LAT) * Math.PI) / 180;
  return {
    x: ((lon + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size,
  };
}

/** The inverse of project: {lat, lon} of a world px. */
export function unproject(x, y, zoom) {
  const size = worldSize(zoom);
  const n = Math.PI * (1 - (2 * y) / size);
  return { lat: (Math.atan(Math.sinh(n)) * 180) / Math.PI, lon: (x / size) * 360 - 180 };
}

/** Metres one screen px covers at a latitude and zoom (Mercator stretches by 1/cos φ). */
export function metresPerPixel(lat, zoom) {
  return (2 * Math.PI * MERCATOR_RADIUS * Math.cos((lat * Math.PI) / 180)) / worldSize(zoom);
}

/** The largest "nice" number (1, 2 or 5 × 10^k) not above value. */
export function niceBelow(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  const mantissa = value / power;
  return (mantissa >= 5 ? 5 : mantissa >= 2 ? 2 : 1) * power;
}

/** The smallest "nice" number (1, 2 or 5 × 10^k) not below value. */
export function niceAbove(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  const mantissa = value / power;
  return (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * power;
}

/** Fills a URL template's {z}, {x}, {y} (and {s} with "a", for the old subdomain style). */
export function tileURL(template, z, x, y) {
  return template.replace(/\{z\}/g, z).replace(/\{x\}/g, x).replace(/\{y\}/g, y).replace(/\{s\}/g, "a");
}

/** A map in `container` (which must have a size). Options:
 *  tiles: a URL template or "" for the grid only; labels: {zoomIn, zoomOut, recenter, map, grid,
 *  tiles, tilesFailed, pin(location)}; formatDistance(m): the scale bar's text; onSelect(location):
 *  a pin was tapped; onTilesFailed(): every tile of the first view failed and tiles were turned off. */
export class CrowdMap {
  constructor(container, { tiles = "", labels = {}, formatDistance = (m) => `${m} m`, onSelect = () => {},
    onTilesFailed = () => {} } = {}) {
    this.container = container;
    this.tiles = tiles;
    this.labels = labels;
    this.formatDistance = formatDistance;
    this.onSelect = onSelect;
    this.onTilesFailed = onTilesFailed;
    this.center = { lat: 0, lon: 0 };
    this.zoom = 2;
    this.self = null; // {lat, lon, accuracy}
    this.searchRadius = 0; // m, drawn around self when > 0
    this.locations = [];
    this.selected = null;
    this.colour = "#c2185b";
    this.circles = true;
    this.tileFailures = 0;
    this.tilesLoaded = 0;
    this.tilesDown = false; // every tile of the first view failed: the grid alone from then on
    this.tileImages = new Map(); // "z/x/y" → <img>
    this.pointers = new Map(); // pointerId → {x, y}
    this.frame = 0;
    this.build();
    this.listen();
    this.render();
  }

  // --- Public ----------------------------------------------------------------------------------

  /** Centres on a point at a zoom (kept if omitted). */
  setView(lat, lon, zoom = this.zoom) {
    this.center = { lat: clamp(lat, -MAX_LAT, MAX_LAT), lon: clamp(lon, -180, 180) };
    this.zoom = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
    this.schedule();
  }

  /** Centres on a point with `metres` across the smaller side of the map. */
  fitSpan(lat, lon, metres) {
    const { width, height } = this.size();
    const px = Math.max(64, Math.min(width, height) - 24);
    const zoomForOneMetrePerPx = Math.log2((2 * Math.PI * MERCATOR_RADIUS * Math.cos((lat * Math.PI) / 180)) / TILE);
    this.setView(lat, lon, zoomForOneMetrePerPx - Math.log2(metres / px));
  }

  /** Marks the user's position (null hides it); accuracy in m draws a faint circle. */
  setSelf(position) { this.self = position; this.schedule(); }

  /** The search radius drawn around the user's position (0 for none). */
  setSearchRadius(metres) { this.searchRadius = metres; this.schedule(); }

  /** The locations to pin: [{id, lat, lon, people, ...}]. */
  setLocations(locations) {
    this.locations = Array.isArray(locations) ? locations : [];
    if (this.selected !== null && !this.locations.some((l) => l.id === this.selected)) this.selected = null;
    this.schedule();
  }

  /** Pin colour (a CSS colour) and whether head-count circles are drawn. */
  setStyle({ colour, circles }) {
    if (colour) this.colour = colour;
    if (circles !== undefined) this.circles = !!circles;
    this.schedule();
  }

  /** Highlights one pin (an id, or null). */
  select(id) { this.selected = id; this.schedule(); }

  /** Zooms by `delta` levels around the centre. */
  zoomBy(delta) {
    const { width, height } = this.size();
    this.zoomAt(this.zoom + delta, width / 2, height / 2);
  }

  /** Re-reads the labels (after a language change). */
  setLabels(labels) { this.labels = labels; this.applyLabels(); this.schedule(); }

  // --- Building ----------------------------------------------------------------------------------

  build() {
    const c = this.container;
    c.classList.add("crowd-map");
    c.tabIndex = 0;
    c.setAttribute("role", "application");
    this.tileLayer = el("div", { class: "map-tiles" });
    this.canvas = el("canvas", { class: "map-grid", "aria-hidden": "true" });
    this.svg = svg("svg", { class: "map-shapes", "aria-hidden": "true" });
    this.pinLayer = el("div", { class: "map-pins" });
    this.selfMarker = el("div", { class: "map-self", hidden: true });
    this.scaleBar = el("div", { class: "map-scale", "aria-hidden": "true" }, el("span"));
    this.attribution = el("div", { class: "map-attribution" });
    this.controls = el("div", { class: "map-controls" });
    const button = (cls, text, action) => el("button", { type: "button", class: cls,
      onclick: (event) => { event.stopPropagation(); action(); },
      onpointerdown: (event) => event.stopPropagation() }, text);
    this.zoomInButton = button("zoom-in", "+", () => this.zoomBy(1));
    this.zoomOutButton = button("zoom-out", "−", () => this.zoomBy(-1));
    this.recenterButton = button("recenter", "◎", () => {
      if (this.self) this.setView(this.self.lat, this.self.lon);
    });
    this.controls.append(this.zoomInButton, this.zoomOutButton, this.recenterButton);
    c.replaceChildren(this.canvas, this.tileLayer, this.svg, this.pinLayer, this.selfMarker,
      this.controls, this.scaleBar, this.attribution);
    this.applyLabels();
  }

  applyLabels() {
    const l = this.labels;
    if (l.map) this.container.setAttribute("aria-label", l.map);
    if (l.roleDescription) this.container.setAttribute("aria-roledescription", l.roleDescription);
    if (l.zoomIn) this.zoomInButton.setAttribute("aria-label", l.zoomIn), (this.zoomInButton.title = l.zoomIn);
    if (l.zoomOut) this.zoomOutButton.setAttribute("aria-label", l.zoomOut), (this.zoomOutButton.title = l.zoomOut);
    if (l.recenter) this.recenterButton.setAttribute("aria-label", l.recenter), (this.recenterButton.title = l.recenter);
    if (l.self) this.selfMarker.title = l.self;
    this.attribution.textContent = !this.tiles ? (l.grid || "") : this.tilesDown ? (l.tilesFailed || l.grid || "") : (l.tiles || "");
    this.container.dataset.tiles = !this.tiles ? "off" : this.tilesDown ? "failed" : "on";
  }

  listen() {
    const c = this.container;
    c.addEventListener("pointerdown", (e) => this.pointerDown(e));
    c.addEventListener("pointermove", (e) => this.pointerMove(e));
    c.addEventListener("pointerup", (e) => this.pointerUp(e));
    c.addEventListener("pointercancel", (e) => this.pointerUp(e));
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      const unit = e.deltaMode === 1 ? 0.05 : e.deltaMode === 2 ? 1 : 0.002;
      this.zoomAt(this.zoom - clamp(e.deltaY * unit, -1, 1), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    c.addEventListener("click", (e) => {
      if (this.suppressClick) { e.stopPropagation(); e.preventDefault(); this.suppressClick = false; }
    }, true);
    c.addEventListener("keydown", (e) => {
      if (e.target !== c) return;
      const step = 64;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[e.key]) { this.panBy(...moves[e.key]); e.preventDefault(); }
      else if (e.key === "+" || e.key === "=") { this.zoomBy(1); e.preventDefault(); }
      else if (e.key === "-" || e.key === "_") { this.zoomBy(-1); e.preventDefault(); }
    });
    if (typeof ResizeObserver === "function") new ResizeObserver(() => this.schedule()).observe(c);
    else window.addEventListener("resize", () => this.schedule());
  }

  // --- Gestures ----------------------------------------------------------------------------------

  local(e) {
    const r = this.container.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  pointerDown(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const p = this.local(e);
    this.pointers.set(e.pointerId, { ...p, startX: p.x, startY: p.y });
    this.dragging = this.pointers.size > 1 ? true : false;
    this.pinch = null;
    if (this.pointers.size > 1) this.capture();
  }

  capture() {
    for (const id of this.pointers.keys()) {
      try { this.container.setPointerCapture(id); } catch (_) { /* the pointer is gone */ }
    }
  }

  pointerMove(e) {
    const previous = this.pointers.get(e.pointerId);
    if (!previous) return;
    const p = this.local(e);
    if (!this.dragging) {
      if (Math.hypot(p.x - previous.startX, p.y - previous.startY) < DRAG_THRESHOLD) return;
      this.dragging = true;
      this.capture();
    }
    if (this.pointers.size === 1) {
      this.panBy(previous.x - p.x, previous.y - p.y);
      this.pointers.set(e.pointerId, { ...previous, x: p.x, y: p.y });
    } else {
      this.pointers.set(e.pointerId, { ...previous, x: p.x, y: p.y });
      const [a, b] = [...this.pointers.values()];
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const distance = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
      if (this.pinch) {
        this.zoomAt(this.zoom + Math.log2(distance / this.pinch.distance), mid.x, mid.y);
        this.panBy(this.pinch.mid.x - mid.x, this.pinch.mid.y - mid.y);
      }
      this.pinch = { mid, distance };
    }
    e.preventDefault();
  }

  pointerUp(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.delete(e.pointerId);
    if (this.dragging) this.suppressClick = true;
    this.pinch = null;
    if (this.pointers.size === 0) {
      this.dragging = false;
      // A click only follows a pointerup that ended a tap; forget the suppression afterwards.
      setTimeout(() => { this.suppressClick = false; }, 0);
    }
  }

  panBy(dx, dy) {
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const size = worldSize(this.zoom);
    const next = unproject(((c.x + dx) % size + size) % size, clamp(c.y + dy, 0, size), this.zoom);
    this.center = next;
    this.schedule();
  }

  /** Zooms to `zoom` keeping the point under screen (x, y) where it is. */
  zoomAt(zoom, x, y) {
    const target = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
    const { width, height } = this.size();
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const under = unproject(c.x + x - width / 2, c.y + y - height / 2, this.zoom);
    const p = project(under.lat, under.lon, target);
    this.zoom = target;
    this.center = unproject(p.x - (x - width / 2), p.y - (y - height / 2), target);
    this.schedule();
  }

  // --- Drawing -----------------------------------------------------------------------------------

  size() {
    return { width: this.container.clientWidth || 320, height: this.container.clientHeight || 320 };
  }

  /** Screen px of a point. */
  toScreen(lat, lon) {
    const { width, height } = this.size();
    const c = project(this.center.lat, this.center.lon, this.zoom);
    const p = project(lat, lon, this.zoom);
    return { x: p.x - c.x + width / 2, y: p.y - c.y + height / 2 };
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  render() {
    this.drawGrid();
    this.drawTiles();
    this.drawShapes();
    this.drawPins();
    this.drawScale();
    this.container.dataset.zoom = this.zoom.toFixed(2);
  }

  drawGrid() {
    const { width, height } = this.size();
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(this.container);
    const lineColour = style.getPropertyValue("--map-grid").trim() || "#c9c6bd";
    const labelColour = style.getPropertyValue("--map-label").trim() || "#5b5b63";
    g.clearRect(0, 0, width, height);

    const c = project(this.center.lat, this.center.lon, this.zoom);
    const topLeft = unproject(c.x - width / 2, c.y - height / 2, this.zoom);
    const bottomRight = unproject(c.x + width / 2, c.y + height / 2, this.zoom);
    // One step for both directions: a round number of degrees at least ~90 px apart either way.
    const pxPerDegLon = width / Math.max(1e-9, bottomRight.lon - topLeft.lon);
    const pxPerDegLat = height / Math.max(1e-9, topLeft.lat - bottomRight.lat);
    const step = Math.min(30, niceAbove(90 / Math.min(pxPerDegLon, pxPerDegLat)));
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const format = (v) => (Math.abs(v) < step / 2 ? 0 : v).toFixed(decimals);

    g.lineWidth = 1;
    g.strokeStyle = lineColour;
    g.fillStyle = labelColour;
    g.font = "11px system-ui, sans-serif";
    g.beginPath();
    const lonStart = Math.ceil(topLeft.lon / step) * step;
    const lons = [];
    for (let lon = lonStart; lon <= bottomRight.lon && lons.length < 200; lon += step) lons.push(lon);
    for (const lon of lons) {
      const x = Math.round(this.toScreen(this.center.lat, lon).x) + 0.5;
      g.moveTo(x, 0);
      g.lineTo(x, height);
    }
    const latStart = Math.ceil(bottomRight.lat / step) * step;
    const lats = [];
    for (let lat = latStart; lat <= topLeft.lat && lats.length < 200; lat += step) lats.push(lat);
    for (const lat of lats) {
      const y = Math.round(this.toScreen(lat, this.center.lon).y) + 0.5;
      g.moveTo(0, y);
      g.lineTo(width, y);
    }
    g.stroke();
    g.textBaseline = "top";
    for (const lon of lons) {
      const x = this.toScreen(this.center.lat, lon).x;
      g.fillText(`${format(lon)}°`, x + 3, 3);
    }
    g.textBaseline = "bottom";
    for (const lat of lats) {
      const y = this.toScreen(lat, this.center.lon).y;
      if (y > height - 44) continue; // the scale bar's corner
      g.fillText(`${format(lat)}°`, 3, y - 2);
    }
    this.container.dataset.gridStep = String(step);
  }

  drawTiles() {
    if (!this.tiles || this.tilesDown) { this.tileLayer.hidden = true; return; }
    this.tileLayer.hidden = false;
    const { width, height } = this.size();
    const z = clamp(Math.round(this.zoom), 0, MAX_TILE_ZOOM);
    const scale = 2 ** (this.zoom - z);
    const shown = TILE * scale;
    const c = project(this.center.lat, this.center.lon, z);
    const left = c.x - width / 2 / scale;
    const top = c.y - height / 2 / scale;
    const count = 2 ** z;
    const wanted = new Set();
    const firstX = Math.floor(left / TILE), lastX = Math.floor((left + width / scale) / TILE);
    const firstY = Math.max(0, Math.floor(top / TILE)), lastY = Math.min(count - 1, Math.floor((top + height / scale) / TILE));
    for (let ty = firstY; ty <= lastY; ty++) {
      for (let tx = firstX; tx <= lastX; tx++) {
        const wrapped = ((tx % count) + count) % count;
        const key = `${z}/${tx}/${ty}`;
        wanted.add(key);
        let img = this.tileImages.get(key);
        if (!img) {
          img = document.createElement("img");
          img.alt = "";
          img.draggable = false;
          img.decoding = "async";
          img.referrerPolicy = "no-referrer";
          img.addEventListener("load", () => {
            this.tilesLoaded += 1;
            this.container.dataset.tilesLoaded = String(this.tilesLoaded);
          });
          img.addEventListener("error", () => {
            img.classList.add("failed");
            this.tileFailures += 1;
            this.container.dataset.tileFailures = String(this.tileFailures);
            this.checkTilesDown();
          });
          img.src = tileURL(this.tiles, z, wrapped, ty);
          this.tileImages.set(key, img);
          this.tileLayer.append(img);
        }
        img.style.width = img.style.height = `${shown + 0.5}px`;
        img.style.transform = `translate(${(tx * TILE - left) * scale}px, ${(ty * TILE - top) * scale}px)`;
      }
    }
    for (const [key, img] of this.tileImages) {
      if (!wanted.has(key)) { img.remove(); this.tileImages.delete(key); }
    }
  }

  /** Turns tiles off when not one has loaded and every tile asked for so far failed: a tile
   *  server that is down or unreachable leaves the grid, not a map of holes (and no stream of
   *  failing requests while panning). */
  checkTilesDown() {
    if (this.tilesDown || this.tilesLoaded > 0) return;
    if (![...this.tileImages.values()].every((img) => img.classList.contains("failed"))) return;
    this.tilesDown = true;
    for (const img of this.tileImages.values()) img.remove();
    this.tileImages.clear();
    this.tileLayer.hidden = true;
    this.applyLabels();
    this.onTilesFailed();
  }

  drawShapes() {
    const { width, height } = this.size();
    this.svg.setAttribute("width", width);
    this.svg.setAttribute("height", height);
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const shapes = [];
    const circle = (x, y, r, cls, colour) => {
      const node = svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: Math.max(0, r).toFixed(1), class: cls });
      if (colour) node.style.setProperty("--pin", colour);
      return node;
    };
    if (this.self) {
      const s = this.toScreen(this.self.lat, this.self.lon);
      const mpp = metresPerPixel(this.self.lat, this.zoom);
      if (this.searchRadius > 0) shapes.push(circle(s.x, s.y, this.searchRadius / mpp, "search-radius"));
      if (this.self.accuracy > 0) shapes.push(circle(s.x, s.y, this.self.accuracy / mpp, "accuracy"));
    }
    if (this.circles) {
      for (const location of this.locations) {
        const p = this.toScreen(location.lat, location.lon);
        const r = (2 * (Number(location.people) || 0) + 1) / metresPerPixel(location.lat, this.zoom);
        if (p.x + r < 0 || p.y + r < 0 || p.x - r > width || p.y - r > height) continue;
        const node = circle(p.x, p.y, r, "people", this.colour);
        node.dataset.locationId = location.id;
        shapes.push(node);
      }
    }
    this.svg.replaceChildren(...shapes);
  }

  drawPins() {
    const { width, height } = this.size();
    const existing = new Map([...this.pinLayer.children].map((b) => [Number(b.dataset.locationId), b]));
    const keep = new Set();
    for (const location of this.locations) {
      let pin = existing.get(location.id);
      if (!pin) {
        pin = el("button", { type: "button", class: "crowd-pin", "data-location-id": location.id }, el("span"));
        pin.addEventListener("click", () => {
          const current = this.locations.find((l) => l.id === Number(pin.dataset.locationId));
          if (current) { this.select(current.id); this.onSelect(current); }
        });
        this.pinLayer.append(pin);
      }
      keep.add(location.id);
      const p = this.toScreen(location.lat, location.lon);
      const outside = p.x < -40 || p.y < -40 || p.x > width + 40 || p.y > height + 40;
      pin.classList.toggle("offscreen", outside);
      pin.classList.toggle("selected", location.id === this.selected);
      pin.style.translate = `${p.x.toFixed(1)}px ${p.y.toFixed(1)}px`; // the translate property goes before the CSS rotate
      pin.style.setProperty("--pin", this.colour);
      pin.firstChild.textContent = location.people === null || location.people === undefined ? "?" : String(location.people);
      const label = this.labels.pin ? this.labels.pin(location) : String(location.id);
      if (pin.getAttribute("aria-label") !== label) pin.setAttribute("aria-label", label);
      pin.setAttribute("aria-pressed", location.id === this.selected ? "true" : "false");
    }
    for (const [id, pin] of existing) if (!keep.has(id)) pin.remove();

    if (this.self) {
      const s = this.toScreen(this.self.lat, this.self.lon);
      this.selfMarker.hidden = false;
      this.selfMarker.style.transform = `translate(${s.x.toFixed(1)}px, ${s.y.toFixed(1)}px)`;
    } else {
      this.selfMarker.hidden = true;
    }
  }

  drawScale() {
    const mpp = metresPerPixel(this.center.lat, this.zoom);
    const metres = niceBelow(120 * mpp);
    const px = metres / mpp;
    this.scaleBar.style.width = `${px.toFixed(1)}px`;
    this.scaleBar.firstChild.textContent = this.formatDistance(metres);
    this.scaleBar.dataset.metres = String(metres);
  }
}
