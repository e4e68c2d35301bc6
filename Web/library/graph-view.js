// The graph explorer on /library/#graph: the library as a graph you grow by tapping, on a
// canvas laid over the whole screen with the search bar, the queue panel, the selected
// node's card and the playback bar over it (docs/graph.md, "The explorer").
//
// library.js calls showExplorer() when the hash is #graph (or #graph/song/12: that song as
// the first seed) and hideExplorer() when it leaves it.
import { api } from "/common/api.js";
import { announce, el } from "/common/dom.js";
import { plural } from "/common/format.js";
import { t } from "/common/i18n.js";
import { ExplorerGraph, nodeKey } from "/library/graph-model.js";
import { albumCoverURL, GraphRenderer } from "/library/graph-render.js";
import { attachGestures } from "/library/graph-gestures.js";
import { PlayQueue, queuePanel } from "/library/graph-queue.js";
import { playbackBar } from "/library/graph-player.js";
import { membersEditor } from "/library/graph-members.js";
import { searchBar } from "/library/graph-search.js";
import { seedSynthetic } from "/library/graph-synthetic.js";

const RELAX_FRAMES = 40;
const STATS_KEPT = 1200;
const DEFAULT_PATH = 12;
const MEMBER_WAIT_MS = 5000; // how long a changed member link may take to reach the graph (rechecked every 2 s)
const MEMBER_ASK_MS = 400;

let explorer = null;

/** Shows the explorer in `section` (built on first use); `route` is what follows "graph/". */
export function showExplorer(section, route = "") {
  if (!explorer) explorer = new Explorer(section);
  explorer.show(route);
  return explorer;
}

export function hideExplorer() {
  if (explorer) explorer.hide();
}

class Explorer {
  constructor(section) {
    this.section = section;
    this.graph = new ExplorerGraph();
    this.queue = new PlayQueue();
    this.songs = new Map(); // song id -> full song JSON (/api/library/songs/{id})
    this.fresh = []; // nodes still settling after placement
    this.relaxLeft = 0;
    this.dirty = true;
    this.frame = 0;
    this.interacting = 0; // pointers down on the canvas
    this.stats = { intervals: [], draws: [], lastTime: 0, recent: [] };
    this.build();
    const webgl = new URLSearchParams(location.search).get("explorer-webgl") !== "off";
    this.renderer = new GraphRenderer(this.canvas, this.graph, webgl ? this.edgeCanvas : null);
    this.renderer.onCoverLoad = () => this.redraw();
    attachGestures(this.canvas, this.renderer, this.graph, {
      tap: (node) => this.tap(node),
      doubleTap: (node) => this.pick(node),
      background: () => this.select(null),
      changed: () => this.redraw(),
      moved: () => {},
      dragEnd: () => this.redraw(),
      focused: () => this.graph.nodes.get(this.renderer.state.focused) || null,
      focus: (node) => this.focus(node),
      expandKey: (node) => this.expand(node),
      playKey: (node) => this.pick(node),
    });
    this.canvas.addEventListener("pointerdown", () => { this.interacting++; this.redraw(); });
    for (const type of ["pointerup", "pointercancel"]) {
      this.canvas.addEventListener(type, () => { this.interacting = Math.max(0, this.interacting - 1); });
    }
    this.canvas.addEventListener("focus", () => {
      if (!this.renderer.state.focused && this.graph.nodes.size) this.focus(this.nearestToCentre());
    });
    new ResizeObserver(() => { this.renderer.resize(); this.redraw(); }).observe(this.canvas);
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { this.renderer.readColours(); this.redraw(); });
    document.addEventListener("change", (event) => { if (event.target && event.target.id === "language") this.translate(); });
    // Only one player sounds at a time: the tables' player pauses when the explorer plays.
    this.player.audio.addEventListener("play", () => { const other = document.querySelector("#audio"); if (other) other.pause(); });
    const tables = document.querySelector("#audio");
    if (tables) tables.addEventListener("play", () => this.player.audio.pause());
    this.queue.addEventListener("change", () => { this.updateMarks(); this.renderCard(); });
    this.player.audio.addEventListener("play", () => this.updateMarks());
    this.player.audio.addEventListener("ended", () => this.updateMarks());
    this.exposeHooks();
    this.translate();
  }

  // --- The page around the canvas -------------------------------------------------------------

  build() {
    this.edgeCanvas = el("canvas", { class: "graph-canvas graph-edges", "aria-hidden": "true" });
    this.canvas = el("canvas", { id: "graph-canvas", class: "graph-canvas", tabindex: "0", role: "application",
      "aria-describedby": "graph-focus-text graph-keys" });
    this.focusText = el("p", { id: "graph-focus-text", class: "visually-hidden", role: "status" });
    this.keysText = el("p", { id: "graph-keys", class: "visually-hidden" });
    this.readout = el("span", { id: "graph-readout", class: "graph-readout" });
    this.queueToggle = el("button", { type: "button", id: "graph-queue-toggle", "aria-controls": "graph-queue", "aria-expanded": "false" });
    this.tablesLink = el("a", { href: "#", class: "graph-tables", id: "graph-tables" });
    this.fitButton = el("button", { type: "button", id: "graph-fit", class: "icon" }, "⤢");
    this.status = el("p", { id: "graph-status", class: "graph-status", role: "status", hidden: true });
    this.emptyHint = el("p", { class: "graph-empty", id: "graph-empty" });
    this.search = searchBar({
      call: (path) => api(path),
      add: (kind, item) => this.addSeed(kind, item),
      hidden: () => {},
    });
    this.queuePanel = queuePanel(this.queue, {
      play: (i) => this.player.playIndex(i),
      clearAll: () => this.clearAll(),
      save: async (name, songs) => (await api("/api/library/playlists", { method: "POST", body: { name, songs } })).playlist,
      announce: (text) => announce(text),
      close: () => this.toggleQueue(false),
    });
    this.player = playbackBar(this.queue, {
      changed: () => this.updateMarks(),
      failed: (message) => this.message(message, "error"),
      albumCover: (id) => albumCoverURL(this.graph.info.get(nodeKey("album", id)), id),
    });
    this.card = el("div", { id: "graph-card", class: "graph-card", hidden: true });
    this.members = membersEditor({
      call: (path, options) => api(path, options),
      changed: (artist, other, linked) => this.memberChanged(artist, other, linked),
      message: (text, kind) => this.message(text, kind),
      announce: (text) => announce(text),
    });
    this.queueToggle.addEventListener("click", () => this.toggleQueue());
    this.fitButton.addEventListener("click", () => { this.renderer.fit(); this.redraw(); });
    const toolbar = el("div", { class: "graph-toolbar" }, this.tablesLink, this.fitButton, this.queueToggle, this.readout);
    // The stage (canvas and the panels over it) takes what the playback bar leaves.
    const stage = el("div", { class: "graph-stage" }, this.edgeCanvas, this.canvas, this.focusText, this.keysText, this.emptyHint,
      el("div", { class: "graph-search-area" }, this.search.bar, this.search.show), toolbar,
      this.status, this.card, this.queuePanel.panel);
    this.section.replaceChildren(stage, this.player.bar);
  }

  translate() {
    this.canvas.setAttribute("aria-label", t("library.graph.canvas"));
    this.canvas.setAttribute("aria-roledescription", t("library.graph.roledescription"));
    this.keysText.textContent = t("library.graph.keys");
    this.tablesLink.textContent = t("library.graph.tables");
    this.fitButton.setAttribute("aria-label", t("library.graph.fit"));
    this.fitButton.title = t("library.graph.fit");
    this.emptyHint.textContent = t("library.graph.empty");
    this.renderer && (this.renderer.state.lookupFailedText = t("library.graph.lookupFailed"));
    this.search.render();
    this.queuePanel.render();
    this.player.render();
    this.members.render();
    this.renderQueueToggle();
    this.renderCard();
    this.redraw();
  }

  renderQueueToggle() {
    this.queueToggle.textContent = t("library.graph.queue.toggle", { count: this.queue.songs.length });
  }

  toggleQueue(open = this.queuePanel.panel.hidden) {
    this.queuePanel.panel.hidden = !open;
    this.queueToggle.setAttribute("aria-expanded", String(open));
    this.section.classList.toggle("queue-open", open);
    if (open) this.queuePanel.panel.querySelector("h2").focus?.();
  }

  message(text, kind = "info") {
    this.status.textContent = text || "";
    this.status.dataset.state = kind;
    this.status.hidden = !text;
    clearTimeout(this.messageTimer);
    if (text && kind !== "error") this.messageTimer = setTimeout(() => { this.status.hidden = true; }, 4000);
  }

  show(route) {
    this.section.hidden = false;
    document.documentElement.classList.add("graph-open");
    this.renderer.resize();
    const synthetic = Number(new URLSearchParams(location.search).get("explorer-synthetic"));
    if (synthetic > 0 && !this.graph.nodes.size) {
      seedSynthetic(this.graph, this.renderer, Math.min(synthetic, 20000));
      this.renderer.fit(20);
    }
    const seed = /^(artist|album|song)\/(\d+)$/.exec(route || "");
    if (seed) this.addSeed(seed[1], { id: Number(seed[2]) });
    this.redraw();
  }

  hide() {
    this.section.hidden = true;
    document.documentElement.classList.remove("graph-open");
  }

  // --- Growing the graph ------------------------------------------------------------------------

  async fetchAnswer(node, fresh = false) {
    if (!fresh && this.graph.answers.has(node.key)) return this.graph.answers.get(node.key);
    this.inflight = (this.inflight || 0) + 1;
    try {
      const answer = await api(`/api/library/graph/expand?node=${encodeURIComponent(node.key)}`);
      this.graph.remember(answer);
      return answer;
    } finally {
      this.inflight--;
    }
  }

  /** Adds a search result (or a seed from the address) and shows its first ring of links. */
  async addSeed(kind, item) {
    const fields = { kind, id: item.id, name: item.name || item.title || "" };
    if (kind === "album") Object.assign(fields, { has_cover: item.has_cover, cover_url: item.cover_url });
    if (kind === "song") this.songs.set(item.id, item.title ? item : this.songs.get(item.id));
    const had = this.graph.nodes.get(nodeKey(kind, item.id));
    const node = had || this.graph.addNode(fields, null);
    this.settle([node]);
    this.select(node);
    this.centreOn(node);
    if (!had) await this.expand(node);
    this.redraw();
    return node;
  }

  /** A single tap: an artist whose member lookup failed retries it; any node shows the next
   *  group of its hidden links (the first tap fetches them from the server). */
  async tap(node) {
    this.select(node);
    if (node.lookupFailed) { await this.retryLookup(node); return; }
    // An artist's member lookup runs on the server after it is first shown: a later tap asks
    // again, so a lookup that failed meanwhile shows its mark (and members found, their links).
    await this.expand(node, node.kind === "artist");
  }

  async expand(node, fresh = false) {
    try {
      await this.fetchAnswer(node, fresh);
    } catch (err) {
      this.message(t("library.graph.expandFailed", { name: node.name, message: err.message }), "error");
      return [];
    }
    const added = this.graph.reveal(node);
    this.settle(added);
    if (added.length) announce(t("library.graph.added", { count: added.length, name: node.name }));
    else if (!this.graph.hasMore(node)) announce(t("library.graph.nothingMore", { name: node.name }));
    this.renderCard();
    this.redraw();
    return added;
  }

  async retryLookup(node) {
    this.message(t("library.graph.lookupRetrying", { name: node.name }));
    this.looking = true;
    try {
      await api(`/api/library/members/lookup?artist=${encodeURIComponent(node.id)}`, { method: "POST" });
      await this.fetchAnswer(node, true);
    } catch (err) {
      this.message(t("library.graph.lookupRetryFailed", { name: node.name, message: err.message }), "error");
      this.redraw();
      return;
    } finally {
      this.looking = false;
    }
    this.message(node.lookupFailed ? t("library.graph.lookupStillFailed", { name: node.name }) : t("library.graph.lookupDone", { name: node.name }));
    await this.expand(node);
  }

  settle(nodes) {
    if (!nodes.length) return;
    this.fresh = [...this.fresh.filter((n) => this.graph.nodes.has(n.key)), ...nodes];
    this.relaxLeft = RELAX_FRAMES;
    this.redraw();
  }

  clearAll() {
    this.graph.clear();
    this.fresh = [];
    this.queue.clear();
    this.player.stop();
    this.renderer.state.focused = this.renderer.state.selected = null;
    this.renderer.camera = { x: 0, y: 0, scale: 1 };
    this.renderCard();
    this.message(t("library.graph.cleared"));
    this.redraw();
  }

  // --- Playing ----------------------------------------------------------------------------------

  async song(id) {
    const known = this.songs.get(id);
    if (known && known.stream_url) return known;
    const song = await api(`/api/library/songs/${id}`);
    this.songs.set(id, song);
    return song;
  }

  /** A double tap (or Space): plays a song as the queue mode says. Album mode queues the
   *  song's album from that song on; Playlist mode adds it at the end and plays it only when
   *  nothing is playing. Other nodes: nothing to play. */
  async pick(node) {
    if (node.kind !== "song") { this.select(node); return; }
    this.select(node);
    try {
      const song = await this.song(node.id);
      if (this.queue.mode === "album") {
        const { songs } = await api(`/api/library/albums/${song.album_id}`);
        songs.sort((a, b) => (a.disc ?? 1) - (b.disc ?? 1) || (a.track ?? 0) - (b.track ?? 0));
        for (const s of songs) this.songs.set(s.id, s);
        const from = Math.max(0, songs.findIndex((s) => s.id === song.id));
        this.queue.replace(songs.slice(from), 0);
        this.player.playIndex(0);
      } else {
        const index = this.queue.append(song);
        const idle = !this.queue.current || this.player.audio.paused || this.player.audio.ended;
        if (idle) this.player.playIndex(index);
        else announce(t("library.graph.queued", { title: song.title }));
      }
    } catch (err) {
      this.message(t("library.error", { message: err.message }), "error");
    }
  }

  async playPath(node, count) {
    try {
      const { songs } = await api(`/api/library/graph/walk?seed=${encodeURIComponent(node.key)}&count=${count}`);
      for (const s of songs) this.songs.set(s.id, s);
      this.queue.replace(songs, 0);
      if (songs.length) this.player.playIndex(0);
      this.message(t("library.graph.pathReady", { count: songs.length }));
    } catch (err) {
      this.message(t("library.graph.pathFailed", { message: err.message }), "error");
    }
  }

  updateMarks() {
    const st = this.renderer.state;
    const current = this.queue.current;
    st.playing = current && this.player.audio.getAttribute("src") && !this.player.audio.ended ? nodeKey("song", current.id) : null;
    st.queued = new Set(this.queue.songs.map((s) => nodeKey("song", s.id)));
    this.renderQueueToggle();
    this.redraw();
  }

  // --- Selection, focus and the card --------------------------------------------------------------

  select(node) {
    this.renderer.state.selected = node ? node.key : null;
    if (node) this.renderer.state.focused = node.key;
    this.renderCard();
    this.redraw();
  }

  focus(node) {
    if (!node) return;
    this.renderer.state.focused = node.key;
    this.renderer.state.selected = node.key;
    this.focusText.textContent = this.describe(node);
    // Keep the focused node in view.
    const p = this.renderer.toScreen(node.x, node.y);
    if (p.x < 40 || p.y < 40 || p.x > this.renderer.width - 40 || p.y > this.renderer.height - 40) this.centreOn(node);
    this.renderCard();
    this.redraw();
  }

  describe(node) {
    const parts = [node.name, t(`library.graph.kind.${node.kind}`)];
    const linked = this.graph.neighbours(node).length;
    parts.push(plural("library.graph.links", linked));
    if (this.graph.hasMore(node)) parts.push(t("library.graph.more"));
    if (this.renderer.state.playing === node.key) parts.push(t("library.graph.playing"));
    else if (this.renderer.state.queued.has(node.key)) parts.push(t("library.graph.queuedMark"));
    if (node.lookupFailed) parts.push(t("library.graph.lookupFailed"));
    return parts.join(", ");
  }

  centreOn(node) {
    this.renderer.camera.x = node.x;
    this.renderer.camera.y = node.y;
    this.redraw();
  }

  nearestToCentre() {
    let best = null, bestD = Infinity;
    const c = this.renderer.camera;
    for (const n of this.graph.nodes.values()) {
      const d = (n.x - c.x) ** 2 + (n.y - c.y) ** 2;
      if (d < bestD) { best = n; bestD = d; }
    }
    return best;
  }

  /** The selected node's card: its name and what can be done with it, for touch, mouse and
   *  keyboard alike (expand, play, add to the queue, play a path, retry a failed lookup). */
  renderCard() {
    const node = this.graph.nodes.get(this.renderer.state.selected);
    this.card.hidden = !node;
    if (!node) { this.card.replaceChildren(); return; }
    const button = (id, text, action, extra = {}) => el("button", { type: "button", id, onclick: action, ...extra }, text);
    const actions = [];
    if (this.graph.hasMore(node) || !this.graph.answers.has(node.key)) {
      actions.push(button("graph-card-expand", t("library.graph.card.expand"), () => this.expand(node)));
    }
    if (node.lookupFailed) actions.push(button("graph-card-retry", t("library.graph.card.retry"), () => this.retryLookup(node)));
    if (node.kind === "song") {
      actions.push(button("graph-card-play", t("library.graph.card.play"), () => this.pick(node), { class: "primary" }));
      const length = el("input", { type: "number", id: "graph-path-length", min: "2", max: "100", value: String(this.pathLength || DEFAULT_PATH),
        inputmode: "numeric" });
      // Kept as it is typed, so a card drawn again (the queue changed) keeps the length.
      length.addEventListener("input", () => { this.pathLength = Number(length.value) || DEFAULT_PATH; });
      actions.push(el("span", { class: "graph-path" },
        el("label", { for: "graph-path-length" }, t("library.graph.card.pathLength")), length,
        button("graph-card-path", t("library.graph.card.path"), () => {
          const count = Math.max(2, Math.min(100, Math.round(Number(length.value)) || DEFAULT_PATH));
          this.pathLength = count;
          this.playPath(node, count);
        })));
    }
    const close = el("button", { type: "button", class: "icon graph-card-close", "aria-label": t("library.graph.card.close"),
      title: t("library.graph.card.close"), onclick: () => this.select(null) }, "×");
    this.card.replaceChildren(...[
      el("div", { class: "graph-card-head" },
        el("span", { class: `graph-card-kind ${node.kind}` }, t(`library.graph.kind.${node.kind}`)),
        el("strong", { class: "graph-card-name" }, node.name), close),
      node.lookupFailed ? el("p", { class: "graph-card-warning" }, t("library.graph.lookupFailed")) : null,
      el("div", { class: "graph-card-actions" }, actions),
      node.kind === "artist" ? this.members.part : null].filter(Boolean));
    if (node.kind === "artist") this.members.show(node);
  }

  /** A member link of `artist` to `other` was added (linked) or removed through the card: asks
   *  the artist's neighbourhood again until the server's graph shows the change (it notices
   *  within about 2 s) or MEMBER_WAIT_MS pass, then draws or drops the blue edge. */
  async memberChanged(artist, other, linked) {
    const otherKey = nodeKey("artist", other.id);
    const has = (answer) => answer.neighbours.some((n) => n.edge === "member_of" && n.kind === "artist" && n.id === other.id);
    const until = performance.now() + MEMBER_WAIT_MS;
    this.memberWaiting = (this.memberWaiting || 0) + 1;
    try {
      for (;;) {
        let answer = null;
        try {
          answer = await this.fetchAnswer(artist, true);
        } catch (err) {
          this.message(t("library.graph.expandFailed", { name: artist.name, message: err.message }), "error");
          return;
        }
        if (has(answer) === linked) break;
        if (performance.now() > until) { this.message(t("library.graph.members.notYet", { name: artist.name }), "error"); break; }
        await new Promise((resolve) => setTimeout(resolve, MEMBER_ASK_MS));
      }
      if (!this.graph.nodes.has(artist.key)) return;
      if (linked) {
        const answer = this.graph.answers.get(artist.key);
        const fields = answer.neighbours.find((n) => n.kind === "artist" && n.id === other.id) || { kind: "artist", id: other.id, name: other.name };
        const had = this.graph.nodes.has(otherKey);
        const node = this.graph.addNode(fields, artist);
        if (!had) this.settle([node]);
        this.graph.addEdge(artist.key, otherKey, "member_of");
      } else {
        this.graph.forgetLink(artist.key, otherKey, "member_of");
      }
      await this.expand(artist);
    } finally {
      this.memberWaiting--;
    }
  }

  // --- The frame loop ----------------------------------------------------------------------------------

  redraw() {
    this.dirty = true;
    if (!this.frame && !this.section.hidden) this.frame = requestAnimationFrame((time) => this.tick(time));
  }

  tick(time) {
    this.frame = 0;
    if (this.section.hidden) return;
    if (this.relaxLeft > 0) {
      this.relaxLeft--;
      if (!this.graph.relax(this.fresh) || this.relaxLeft === 0) { this.relaxLeft = 0; this.fresh = []; }
      this.dirty = true;
    }
    if (this.dirty || this.interacting) {
      this.dirty = false;
      const ms = this.renderer.draw();
      this.record(time, ms);
      this.emptyHint.hidden = this.graph.nodes.size > 0;
    }
    if (this.dirty || this.relaxLeft > 0 || this.interacting) this.frame = requestAnimationFrame((t2) => this.tick(t2));
    else this.stats.lastTime = 0;
  }

  /** Frame statistics: the rAF interval between consecutive drawn frames (the frame rate the
   *  user sees) and the time the draw itself took (what the machine could reach). */
  record(time, ms) {
    const s = this.stats;
    if (s.lastTime) s.intervals.push(time - s.lastTime);
    s.lastTime = time;
    s.draws.push(ms);
    s.recent.push(time);
    if (s.intervals.length > STATS_KEPT) s.intervals.splice(0, s.intervals.length - STATS_KEPT);
    if (s.draws.length > STATS_KEPT) s.draws.splice(0, s.draws.length - STATS_KEPT);
    while (s.recent.length && s.recent[0] < time - 1000) s.recent.shift();
    if (!this.readoutAt || time - this.readoutAt > 250) {
      this.readoutAt = time;
      const fps = s.recent.length > 1 ? Math.round(((s.recent.length - 1) * 1000) / (s.recent[s.recent.length - 1] - s.recent[0])) : null;
      this.readout.textContent = `${plural("library.graph.nodes", this.graph.nodes.size)} · ${fps ? t("library.graph.fps", { fps }) : t("library.graph.idle")}`;
    }
  }

  // --- Test hooks: where nodes are on screen, so tests can aim taps ----------------------------------

  exposeHooks() {
    const view = this;
    window.quintetGraph = {
      /** Nodes with their screen position (CSS px in the viewport) and marks. */
      nodes() {
        const box = view.canvas.getBoundingClientRect();
        return [...view.graph.nodes.values()].map((n) => {
          const p = view.renderer.toScreen(n.x, n.y);
          return { key: n.key, kind: n.kind, id: n.id, name: n.name, x: box.left + p.x, y: box.top + p.y,
            r: view.renderer.screenRadius(n), wx: n.x, wy: n.y, parent: n.parent, more: view.graph.hasMore(n),
            lookupFailed: n.lookupFailed, playing: view.renderer.state.playing === n.key,
            queued: view.renderer.state.queued.has(n.key) };
        });
      },
      /** Labels drawn in the last frame (viewport CSS px): a tap there counts as its node's. */
      labels() {
        const box = view.canvas.getBoundingClientRect();
        return view.renderer.labels.map((r) => ({ key: r.node.key, x: box.left + r.x, y: box.top + r.y, w: r.w, h: r.h }));
      },
      edges: () => [...view.graph.edges.values()].map((e) => ({ a: e.a.key, b: e.b.key, edge: e.edge })),
      camera: () => ({ ...view.renderer.camera }),
      renderer: () => (view.renderer.edgeLayer ? "webgl-edges" : "canvas2d"),
      focused: () => view.renderer.state.focused,
      /** Centres the view on a node (tests use it when a panel covers the node). */
      centre: (key) => { const n = view.graph.nodes.get(key); if (n) view.centreOn(n); },
      settled: () => view.relaxLeft === 0 && !view.frame,
      /** Nothing pending: no tap waiting for its 250 ms, no expansion or lookup in flight. */
      idle: () => view.relaxLeft === 0 && !view.frame && !view.renderer.state.tapPending && !view.inflight && !view.looking
        && !view.memberWaiting,
      stats: () => ({ intervals: view.stats.intervals.slice(), draws: view.stats.draws.slice() }),
      resetStats: () => { view.stats.intervals = []; view.stats.draws = []; view.stats.lastTime = 0; },
    };
  }
}
