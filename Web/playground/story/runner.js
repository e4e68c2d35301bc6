// A game of the module on a story page (docs/playground.md, "The story"): the same host as
// /playground/ (host.js, draw.js, input.js, sound.js) inside the page's 1024 × 768 box, started
// from a seed, one pg_frame per animation frame (`speed` frames per animation frame when the
// page is opened with ?speed=N, 1–8: for tests and demonstrations), its sounds played, its
// events handed to the story (kind 3 = won). While a game runs, `window.quintetPlayground` is the
// same test hook as /playground/'s (images(), events(), frames(), seed(), soundsPlayed()), plus
// play(logText): an input log (`quintet playground winlog`) run on the running module from its
// seed, the way the recorder's logs replay.
import { drawList, listImages } from "../draw.js";
import { gameNamed } from "../games.js";
import { GameModule, HostError, loadAtlas } from "../host.js";
import { TILT, TOUCH, Tilt, TiltPad, attachTouches, parseInputLog } from "../input.js";

const MAX_DT = 100;
const EVENTS_KEPT = 500;
let modulePromise = null;
const atlasCache = new Map();
const tilt = new Tilt();

/** The module, loaded once per page (every game of the story is in it). */
function loadModule() {
  if (!modulePromise) modulePromise = GameModule.load().catch((err) => { modulePromise = null; throw err; });
  return modulePromise;
}

function atlas(name) {
  if (!atlasCache.has(name)) atlasCache.set(name, loadAtlas(name).catch((err) => { atlasCache.delete(name); throw err; }));
  return atlasCache.get(name);
}

export class GameRunner {
  /** canvas: the page's canvas (CSS size 1024 × 768 inside the scaled box); sound: the story's
   *  Sound; onEvent(event): each event of kind other than sound. */
  constructor(canvas, { sound, speed = 1, onEvent = () => {}, onError = () => {}, padLabel }) {
    this.padLabel = padLabel;
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.sound = sound;
    this.speed = Math.max(1, Math.min(8, Math.floor(speed) || 1));
    this.onEvent = onEvent;
    this.onError = onError;
    this.running = false;
    this.paused = false;
    this.frames = 0;
    this.soundsPlayed = 0;
    this.recent = [];
    this.stage = { width: 1024, height: 768 };
    this.detach = null;
    this.steer = new TiltPad();
  }

  /** Loads the module and the game's atlases; the game named name (games.js). */
  async load(name) {
    this.game = gameNamed(name);
    if (!this.game) throw new HostError("game", `no game named ${name}`);
    const [module, ...atlases] = await Promise.all([loadModule(), ...this.game.atlases.map(atlas)]);
    this.module = module;
    this.atlases = atlases;
  }

  /** Starts the game from seed and draws its first picture (frames wait for resume()). */
  start(seed) {
    this.seed = seed >>> 0;
    this.stage = this.module.start(this.game.index, this.seed);
    this.lastTilt = null;
    this.fit();
    this.detach = attachTouches(this.canvas, () => this.stage, (id, phase, x, y) => {
      if (this.running) this.guard(() => this.module.input(TOUCH, id, phase, x, y, 0));
    }, () => { tilt.permit(); this.sound.unlock(); });
    // Games steered by tilt: the arrow keys and a pad stand in where there is no sensor.
    if (this.game.tiltPad) {
      this.steer.attach(this.canvas.parentElement, {
        id: "story-pad", className: "pg-pad story-pad", label: this.padLabel || ((d) => d), gesture: () => tilt.permit(),
      });
    }
    this.running = true;
    this.paused = true;
    this.step(0);
    this.publish();
  }

  /** The canvas's pixels: the box's scale times devicePixelRatio, so the picture stays sharp. */
  fit() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(rect.width * dpr));
    const height = Math.max(1, Math.round(rect.height * dpr));
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.scale = this.canvas.width / this.stage.width;
    if (this.running) this.draw();
  }

  guard(call) {
    try { return call(); } catch (err) { this.fail(err); return undefined; }
  }

  fail(err) {
    this.stop();
    this.onError(err);
  }

  draw() {
    const { buffer, ptr, size } = this.module.drawList();
    drawList(this.ctx, buffer, ptr, size, { scale: this.scale, atlases: this.atlases });
  }

  /** One frame; sensors false when a log gives the inputs. */
  step(dt, sensors = true) {
    if (sensors) {
      for (const reading of this.steer.readings(tilt.latest(), this.lastTilt)) {
        this.module.input(TILT, 0, 0, reading.x, reading.y, reading.z);
        this.lastTilt = reading;
      }
    }
    this.module.frame(dt);
    this.frames += 1;
    this.handleEvents();
  }

  handleEvents() {
    for (const event of this.module.events()) {
      this.recent.push(event);
      if (this.recent.length > EVENTS_KEPT) this.recent.shift();
      if (event.kind === 1) {
        if (this.sound.play(this.game.sounds, event.subject)) this.soundsPlayed += 1;
      } else {
        this.onEvent(event);
      }
    }
  }

  /** Frames follow the clock from here. */
  resume() {
    if (!this.running || !this.paused) return;
    this.paused = false;
    this.last = null;
    this.carry = 0;
    const tick = (now) => {
      if (!this.running || this.paused) return;
      if (this.last !== null) {
        this.carry += Math.max(0, now - this.last);
        let dt = Math.floor(this.carry);
        this.carry -= dt;
        if (dt > MAX_DT) { dt = MAX_DT; this.carry = 0; }
        const ok = this.guard(() => {
          for (let i = 0; i < this.speed && this.running; i += 1) this.step(dt);
          if (this.running) this.draw();
          return true;
        });
        if (!ok) return;
      }
      this.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  /** No frames until resume() (a hidden page, the narrator speaking). */
  pause() {
    this.paused = true;
  }

  stop() {
    this.running = false;
    this.paused = true;
    if (this.detach) this.detach();
    this.detach = null;
    this.steer.detach();
    if (window.quintetPlayground && window.quintetPlayground.runner === this) delete window.quintetPlayground;
  }

  /** Runs an input log of this game on the module: the game starts again from the log's seed,
   *  then every input and frame in order (the page's own frames wait meanwhile). */
  play(text) {
    const log = parseInputLog(text);
    if (log.game !== this.game.name) throw new Error(`the log is of ${log.game}, not ${this.game.name}`);
    const wasPaused = this.paused;
    this.paused = true;
    this.seed = log.seed >>> 0;
    this.stage = this.module.start(this.game.index, this.seed);
    for (const item of log.items) {
      if (!this.running) break;
      if (item.kind === "frame") this.step(item.ms, false);
      else if (item.kind === "touch") this.module.input(TOUCH, item.id, item.phase, item.x, item.y, 0);
      else this.module.input(TILT, 0, 1, item.x, item.y, item.z);
    }
    if (this.running) this.draw();
    if (!wasPaused) this.resume();
    return this.frames;
  }

  /** The test hook, as /playground/'s. */
  publish() {
    const runner = this;
    window.quintetPlayground = {
      runner,
      game: () => runner.game.name,
      soundsPlayed: () => runner.soundsPlayed,
      frames: () => runner.frames,
      seed: () => runner.seed,
      events: () => runner.recent.slice(),
      images: () => {
        if (!runner.running) return [];
        const { buffer, ptr, size } = runner.module.drawList();
        return listImages(buffer, ptr, size);
      },
      play: (text) => runner.play(text),
    };
  }
}
