// The explorer's two graphs, as in the original app: the memory graph (every node and link
// the server has told us about) and the screen graph (what the user has expanded so far).
// A node key is "kind:id" (artist:3, album:5, song:12), the server's own naming.
//
//   const graph = new ExplorerGraph();
//   const node = graph.addNode({ kind: "song", id: 12, name: "Glass River" }, null);
//   graph.remember(answer);              // GET /api/library/graph/expand's answer
//   graph.reveal(node, answer);          // the next group of hidden neighbours, placed around it

/** Edge kinds by reveal stage: a tap shows the first stage that still has hidden neighbours
 *  (structure first, then covers/identical/members, then tempo), as the original showed an
 *  artist's albums first and its band links on the next tap. */
export const STAGES = [
  ["album_of", "song_of", "performed_by"],
  ["cover", "identical", "member_of"],
  ["tempo"],
];
const STAGE_OF = new Map(STAGES.flatMap((kinds, stage) => kinds.map((k) => [k, stage])));

/** World-space sizes: node radius (album: half the cover's side) and the placement rings. */
export const RADIUS = { artist: 16, album: 20, song: 11 };
const RING = 95; // first placement ring around a parent
const GAP = 46; // the least distance between two node centres a placement accepts
const CELL = 64; // spatial grid cell for placement queries

export const nodeKey = (kind, id) => `${kind}:${id}`;
const edgeKey = (a, b, edge) => (a < b ? `${a}|${b}|${edge}` : `${b}|${a}|${edge}`);

export class ExplorerGraph {
  constructor() {
    this.clear();
  }

  /** Forgets everything: both graphs. */
  clear() {
    this.nodes = new Map(); // key -> node on screen
    this.edges = new Map(); // edge key -> {a, b, edge} on screen (a, b node objects)
    this.memory = new Map(); // key -> Map(other key -> Set(edge kinds)) of every link told so far
    this.info = new Map(); // key -> the latest fields the server gave for a node
    this.answers = new Map(); // key -> expand answer
    this.version = 0; // bumps on every change of the screen graph
    this.grid = null;
  }

  /** Records an expand answer in the memory graph: the node's and each neighbour's fields,
   *  among them `links`, how many distinct nodes each is linked to (docs/graph.md). */
  remember(answer) {
    const self = answer.node;
    const key = nodeKey(self.kind, self.id);
    this.answers.set(key, answer);
    // An answer without `lookup` clears an earlier failure (a retry that worked).
    this.learn({ lookup: undefined, ...self });
    for (const n of answer.neighbours) {
      this.link(key, nodeKey(n.kind, n.id), n.edge);
      // Without `links`, the neighbour has at least its link here and the `more` beyond.
      this.learn(typeof n.links === "number" ? { lookup: undefined, ...n } : { lookup: undefined, ...n, links: Math.max(this.info.get(nodeKey(n.kind, n.id))?.links || 0, (n.more || 0) + 1) });
    }
    if (typeof self.links !== "number") this.learn({ kind: self.kind, id: self.id, links: new Set(answer.neighbours.map((n) => nodeKey(n.kind, n.id))).size });
    this.version++;
  }

  learn(fields) {
    const key = nodeKey(fields.kind, fields.id);
    const info = Object.assign(this.info.get(key) || {}, fields);
    this.info.set(key, info);
    const node = this.nodes.get(key);
    if (node) this.applyInfo(node, info);
  }

  link(a, b, edge) {
    for (const [from, to] of [[a, b], [b, a]]) {
      if (!this.memory.has(from)) this.memory.set(from, new Map());
      const kinds = this.memory.get(from);
      if (!kinds.has(to)) kinds.set(to, new Set());
      kinds.get(to).add(edge);
    }
  }

  applyInfo(node, info) {
    node.name = info.name ?? node.name;
    node.links = info.links ?? node.links;
    node.lookupFailed = info.lookup === "failed";
    node.info = info;
  }

  /** Adds a node to the screen (or returns the one there), placed around parent (a node or
   *  null: then near `at`, a world point, or at the origin). */
  addNode(fields, parent, at = null) {
    const key = nodeKey(fields.kind, fields.id);
    let node = this.nodes.get(key);
    if (node) return node;
    this.learn(fields);
    node = {
      key, kind: fields.kind, id: fields.id, name: fields.name || "", x: 0, y: 0,
      parent: parent ? parent.key : null, children: new Set(), edges: new Set(), linked: new Map(), links: 0, lookupFailed: false,
      info: null, stage: 0, labelWidth: 0, born: performance.now(),
    };
    this.applyInfo(node, this.info.get(key));
    const spot = this.freeSpot(parent, at);
    node.x = spot.x;
    node.y = spot.y;
    this.nodes.set(key, node);
    if (parent) parent.children.add(key);
    this.gridAdd(node);
    // Links the memory graph knows to nodes already on screen are drawn at once.
    const known = this.memory.get(key);
    if (known) for (const [other, kinds] of known) if (this.nodes.has(other)) for (const k of kinds) this.addEdge(key, other, k);
    this.version++;
    return node;
  }

  addEdge(a, b, edge) {
    const key = edgeKey(a, b, edge);
    if (this.edges.has(key)) return;
    const na = this.nodes.get(a), nb = this.nodes.get(b);
    if (!na || !nb || a === b) return;
    this.edges.set(key, { a: na, b: nb, edge, key });
    na.edges.add(key);
    nb.edges.add(key);
    // Distinct linked nodes (a pair may be joined by more than one kind of link).
    na.linked.set(b, (na.linked.get(b) || 0) + 1);
    nb.linked.set(a, (nb.linked.get(a) || 0) + 1);
    this.version++;
  }

  /** Forgets one link both ways (a band ↔ member relation a user removed): from the memory
   *  graph, from the screen, and from the answers that told it (so a later reveal does not
   *  draw it again). */
  forgetLink(a, b, edge) {
    for (const [from, to] of [[a, b], [b, a]]) {
      const kinds = this.memory.get(from)?.get(to);
      if (kinds) { kinds.delete(edge); if (!kinds.size) this.memory.get(from).delete(to); }
      const answer = this.answers.get(from);
      if (answer) {
        const [kind, id] = [to.slice(0, to.indexOf(":")), Number(to.slice(to.indexOf(":") + 1))];
        answer.neighbours = answer.neighbours.filter((n) => !(n.kind === kind && n.id === id && n.edge === edge));
      }
    }
    const key = edgeKey(a, b, edge);
    const e = this.edges.get(key) || this.edges.get(edgeKey(b, a, edge));
    if (!e) return;
    this.edges.delete(e.key);
    e.a.edges.delete(e.key);
    e.b.edges.delete(e.key);
    for (const [x, y] of [[e.a, e.b], [e.b, e.a]]) {
      const left = (x.linked.get(y.key) || 1) - 1;
      if (left) x.linked.set(y.key, left); else x.linked.delete(y.key);
    }
    this.version++;
  }

  /** Whether the node has links the screen does not show (the "more links" mark): more
   *  linked nodes than those linked to it on screen. */
  hasMore(node) {
    return (node.links || 0) > node.linked.size;
  }

  /** The neighbours of a node in its answer that are not on screen yet, grouped by stage;
   *  the first non-empty group, or [] when everything is shown. */
  hiddenNeighbours(node) {
    const answer = this.answers.get(node.key);
    if (!answer) return [];
    const groups = STAGES.map(() => []);
    for (const n of answer.neighbours) {
      const other = nodeKey(n.kind, n.id);
      if (!this.nodes.has(other)) groups[STAGE_OF.get(n.edge) ?? STAGES.length - 1].push(n);
    }
    return groups.find((g) => g.length) || [];
  }

  /** Shows the next stage of a node's hidden neighbours (its answer must be remembered) and
   *  every link of the answer between nodes on screen; returns the nodes added. */
  reveal(node) {
    const added = [];
    const seen = new Set();
    for (const n of this.hiddenNeighbours(node)) {
      const key = nodeKey(n.kind, n.id);
      if (seen.has(key)) continue;
      seen.add(key);
      added.push(this.addNode(n, node));
    }
    const answer = this.answers.get(node.key);
    if (answer) for (const n of answer.neighbours) this.addEdge(node.key, nodeKey(n.kind, n.id), n.edge);
    node.stage++;
    return added;
  }

  /** The node and every node it brought on screen, recursively (what a drag moves). */
  subtree(node) {
    const out = [];
    const stack = [node];
    const seen = new Set();
    while (stack.length) {
      const n = stack.pop();
      if (seen.has(n.key)) continue;
      seen.add(n.key);
      out.push(n);
      for (const k of n.children) {
        const child = this.nodes.get(k);
        if (child) stack.push(child);
      }
    }
    return out;
  }

  /** The nodes linked on screen to a node. */
  neighbours(node) {
    const out = [];
    for (const k of node.edges) {
      const e = this.edges.get(k);
      if (e) out.push(e.a === node ? e.b : e.a);
    }
    return out;
  }

  // --- Placement: a free spot within a radius of the parent (the original's own method) ----

  /** Marks the placement grid stale (after nodes moved). */
  moved() {
    this.grid = null;
  }

  gridAdd(node) {
    if (!this.grid) return;
    const k = `${Math.floor(node.x / CELL)},${Math.floor(node.y / CELL)}`;
    if (!this.grid.has(k)) this.grid.set(k, []);
    this.grid.get(k).push(node);
  }

  ensureGrid() {
    if (this.grid) return;
    this.grid = new Map();
    for (const n of this.nodes.values()) this.gridAdd(n);
  }

  isFree(x, y, gap = GAP) {
    const cx = Math.floor(x / CELL), cy = Math.floor(y / CELL), reach = Math.ceil(gap / CELL);
    for (let i = cx - reach; i <= cx + reach; i++) {
      for (let j = cy - reach; j <= cy + reach; j++) {
        const cell = this.grid.get(`${i},${j}`);
        if (!cell) continue;
        for (const n of cell) if ((n.x - x) ** 2 + (n.y - y) ** 2 < gap * gap) return false;
      }
    }
    return true;
  }

  freeSpot(parent, at) {
    this.ensureGrid();
    const origin = parent ? { x: parent.x, y: parent.y } : at || this.emptyArea();
    if (!parent && this.isFree(origin.x, origin.y, GAP * 2)) return origin;
    // Children fan out away from the parent's own parent.
    let base = Math.random() * Math.PI * 2;
    const grand = parent && parent.parent ? this.nodes.get(parent.parent) : null;
    if (grand) base = Math.atan2(parent.y - grand.y, parent.x - grand.x);
    for (let ring = 0; ring < 40; ring++) {
      const radius = (parent ? RING : GAP * 3) + ring * GAP * 0.8;
      const steps = Math.max(8, Math.floor((2 * Math.PI * radius) / GAP));
      for (let s = 0; s < steps; s++) {
        // 0, +1, -1, +2, -2 … steps from the preferred direction
        const offset = s % 2 ? (s + 1) / 2 : -s / 2;
        const angle = base + (offset * 2 * Math.PI) / steps;
        const x = origin.x + Math.cos(angle) * radius, y = origin.y + Math.sin(angle) * radius;
        if (this.isFree(x, y)) return { x, y };
      }
    }
    return { x: origin.x + (Math.random() - 0.5) * RING, y: origin.y + (Math.random() - 0.5) * RING };
  }

  /** A spot for a new seed with no parent: right of everything on screen (disconnected parts
   *  sit side by side), or the origin on an empty screen. */
  emptyArea() {
    if (!this.nodes.size) return { x: 0, y: 0 };
    let maxX = -Infinity, sumY = 0;
    for (const n of this.nodes.values()) { maxX = Math.max(maxX, n.x); sumY += n.y; }
    return { x: maxX + RING * 2.5, y: sumY / this.nodes.size };
  }

  /** A light relaxation of freshly placed nodes: each step pushes them from close nodes and
   *  pulls them toward their parent's ring; older nodes stay where the user left them.
   *  Returns whether anything moved more than half a unit. */
  relax(fresh) {
    if (!fresh.length) return false;
    this.ensureGrid();
    let moved = false;
    for (const node of fresh) {
      let fx = 0, fy = 0;
      const cx = Math.floor(node.x / CELL), cy = Math.floor(node.y / CELL);
      for (let i = cx - 1; i <= cx + 1; i++) {
        for (let j = cy - 1; j <= cy + 1; j++) {
          const cell = this.grid.get(`${i},${j}`);
          if (!cell) continue;
          for (const o of cell) {
            if (o === node) continue;
            const dx = node.x - o.x, dy = node.y - o.y, d2 = dx * dx + dy * dy;
            if (d2 > CELL * CELL || d2 < 1e-6) continue;
            const d = Math.sqrt(d2), push = (CELL - d) / CELL;
            fx += (dx / d) * push * 6;
            fy += (dy / d) * push * 6;
          }
        }
      }
      const parent = node.parent ? this.nodes.get(node.parent) : null;
      if (parent) {
        const dx = node.x - parent.x, dy = node.y - parent.y, d = Math.hypot(dx, dy) || 1;
        const pull = (d - RING) * 0.08;
        fx -= (dx / d) * pull;
        fy -= (dy / d) * pull;
      }
      if (Math.abs(fx) + Math.abs(fy) > 0.5) moved = true;
      node.x += Math.max(-8, Math.min(8, fx));
      node.y += Math.max(-8, Math.min(8, fy));
    }
    this.grid = null;
    return moved;
  }
}
