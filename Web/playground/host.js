// The host side of a game module (docs/playground.md, "Host protocol" and "The page"): loads
// and checks the WebAssembly module, gives it the few imports the host knows, and wraps its
// exports. The page (playground.js) runs the frame loop; tests load modules built by hand.
//
//   const game = await GameModule.load("/playground/playground.wasm");
//   game.start(0, seed); game.frame(16);
//   const { buffer, ptr, size } = game.drawList();
import { api } from "/common/api.js";
import { readEvents } from "./draw.js";

export const MODULE_URL = "/playground/playground.wasm";

/** The exports the host calls: a module without one of them is not a game module. */
export const REQUIRED_EXPORTS = {
  memory: "memory", pg_start: "function", pg_stage_width: "function", pg_stage_height: "function",
  pg_input: "function", pg_frame: "function", pg_draw_list: "function", pg_draw_list_size: "function",
  pg_events: "function", pg_events_count: "function",
};

/** Why a game could not be loaded or stopped; code is one of missing (no module or atlas on
 *  the server), network, invalid (not WebAssembly), imports, exports, game (pg_start refused
 *  it), trap (the module failed while running), drawing. The page shows the message of code. */
export class HostError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "HostError";
    this.code = code;
  }
}

/** The imports the host can give, by "module.name": a module may import any of them and
 *  nothing else. putchar is how Embedded Swift writes a fatal error's message; the host
 *  collects it into lines on the console (and into the error shown when the module traps). */
function hostImports(output) {
  let line = [];
  const flush = () => {
    if (!line.length) return;
    const text = new TextDecoder().decode(new Uint8Array(line));
    line = [];
    output.push(text);
    console.warn(`playground module: ${text}`);
  };
  return {
    flush,
    table: {
      "env.putchar": { kind: "function", value: (c) => { if (c === 10) flush(); else line.push(c & 0xff); return c; } },
    },
  };
}

/** A failed request for a file of the game as a HostError. */
function fileError(err, what, path) {
  if (err && err.status === 404) return new HostError("missing", `${what} ${path} is not on the server (404)`);
  if (err && err.status === 0) return new HostError("network", `${what} ${path} could not be fetched: ${err.message}`);
  return new HostError("missing", `${what} ${path} could not be fetched: ${err && err.message}`);
}

/** The bytes of the module at path (through common/api.js, as every request of the pages). */
export async function fetchModuleBytes(path = MODULE_URL) {
  try {
    return await api(path, { binary: true, headers: { Accept: "application/wasm" } });
  } catch (err) {
    throw fileError(err, "the game module", path);
  }
}

/** A game module, instantiated; its methods call the exports. Memory views are made again on
 *  every read, so a memory that grew (a new ArrayBuffer) is always the one read. */
export class GameModule {
  /** Compiles bytes, checks the module's imports and exports, instantiates it. */
  static async fromBytes(bytes) {
    let module;
    try {
      module = await WebAssembly.compile(bytes);
    } catch (err) {
      throw new HostError("invalid", `the game module is not valid WebAssembly: ${err.message}`);
    }
    const output = [];
    const { table, flush } = hostImports(output);
    const wanted = WebAssembly.Module.imports(module);
    const unknown = wanted.filter((i) => !table[`${i.module}.${i.name}`] || table[`${i.module}.${i.name}`].kind !== i.kind);
    if (unknown.length) {
      const names = unknown.map((i) => `${i.module}.${i.name} (${i.kind})`).join(", ");
      throw new HostError("imports", `the game module needs imports the page does not give: ${names}`);
    }
    const exported = Object.fromEntries(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
    const missing = Object.entries(REQUIRED_EXPORTS).filter(([name, kind]) => exported[name] !== kind).map(([name]) => name);
    if (missing.length) {
      throw new HostError("exports", `the game module lacks the exports ${missing.join(", ")}`);
    }
    const imports = {};
    for (const i of wanted) (imports[i.module] ??= {})[i.name] = table[`${i.module}.${i.name}`].value;
    let instance;
    try {
      instance = await WebAssembly.instantiate(module, imports);
    } catch (err) {
      throw new HostError("invalid", `the game module could not be instantiated: ${err.message}`);
    }
    return new GameModule(instance, output, flush);
  }

  /** Fetches and instantiates the module at path. */
  static async load(path = MODULE_URL) {
    return GameModule.fromBytes(await fetchModuleBytes(path));
  }

  constructor(instance, output = [], flush = () => {}) {
    this.exports = instance.exports;
    this.output = output;
    this.flush = flush;
  }

  /** Runs call(); a trap (unreachable, out of bounds…) becomes a HostError with what the
   *  module printed before it. */
  guard(what, call) {
    try {
      return call();
    } catch (err) {
      this.flush();
      const said = this.output.length ? ` (${this.output.join(" / ")})` : "";
      throw new HostError("trap", `the game module failed in ${what}: ${err.message}${said}`);
    }
  }

  /** Starts game index from seed (u32). */
  start(game, seed) {
    const answer = this.guard("pg_start", () => this.exports.pg_start(game, seed >>> 0));
    if (answer !== 0) throw new HostError("game", `the game module has no game ${game} (pg_start answered ${answer})`);
    return this.stageSize();
  }

  /** The stage in points: { width, height }. */
  stageSize() {
    return { width: this.exports.pg_stage_width(), height: this.exports.pg_stage_height() };
  }

  /** Queues an input for the next frame (kind 1 touch, 2 tilt). */
  input(kind, id, phase, x, y, z = 0) {
    this.guard("pg_input", () => this.exports.pg_input(kind, id, phase, x, y, z));
  }

  /** Advances the game by dt whole milliseconds. */
  frame(dt) {
    this.guard("pg_frame", () => this.exports.pg_frame(dt));
  }

  /** The last frame's draw list: the memory's current buffer, its offset and size. */
  drawList() {
    return { buffer: this.exports.memory.buffer, ptr: this.exports.pg_draw_list() >>> 0, size: this.exports.pg_draw_list_size() };
  }

  /** The last frame's events (draw.js's readEvents records). */
  events() {
    return readEvents(this.exports.memory.buffer, this.exports.pg_events() >>> 0, this.exports.pg_events_count());
  }
}

/** Runs a parsed input log (input.js's parseInputLog) on module as game index from the log's
 *  seed, as `quintet playground replay` does natively: { game, seed, frames, milliseconds,
 *  events } with every frame's events in order (the native replay's JSON has the same fields).
 *  Numbers go to the module as JavaScript numbers (doubles) that the call rounds to f32; the
 *  native parser reads the text straight to f32: the two agree on everything the page's
 *  recorder writes (1/8 point, 1/1024 g), and for a hand-written decimal except in the rare
 *  case where rounding twice differs from rounding once. */
export function replay(module, log, index) {
  module.start(index, log.seed);
  const out = { game: log.game, seed: log.seed, frames: 0, milliseconds: 0, events: [] };
  for (const item of log.items) {
    if (item.kind === "frame") {
      module.frame(item.ms);
      out.frames += 1;
      out.milliseconds += item.ms;
      out.events.push(...module.events());
    } else if (item.kind === "touch") {
      module.input(1, item.id, item.phase, item.x, item.y, 0);
    } else {
      module.input(2, 0, 1, item.x, item.y, item.z);
    }
  }
  return out;
}

/** The regions of an atlas JSON: an array of {x, y, w, h} by region index, or an object
 *  holding one under "regions", or an object keyed by the region numbers. */
export function atlasRegions(json) {
  const source = Array.isArray(json) ? json : Array.isArray(json && json.regions) ? json.regions : null;
  const regions = [];
  if (source) source.forEach((r, i) => { regions[i] = r; });
  else if (json && typeof json === "object") {
    for (const [key, r] of Object.entries(json.regions && typeof json.regions === "object" ? json.regions : json)) {
      if (/^\d+$/.test(key)) regions[Number(key)] = r;
    }
  }
  for (const [i, r] of regions.entries()) {
    if (r && !["x", "y", "w", "h"].every((k) => Number.isFinite(r[k]))) {
      throw new HostError("invalid", `atlas region ${i} is not {x, y, w, h}: ${JSON.stringify(r)}`);
    }
  }
  return regions;
}

/** Loads atlas name: /playground/atlas/NAME.json and NAME.png, as { image, regions }. */
export async function loadAtlas(name) {
  const json = `/playground/atlas/${name}.json`;
  const png = `/playground/atlas/${name}.png`;
  let regions;
  try {
    regions = atlasRegions(await api(json));
  } catch (err) {
    if (err instanceof HostError) throw err;
    throw fileError(err, "the atlas", json);
  }
  const image = new Image();
  image.src = png;
  try {
    await image.decode();
  } catch (_) {
    throw new HostError("missing", `the atlas image ${png} could not be loaded`);
  }
  return { image, regions };
}
