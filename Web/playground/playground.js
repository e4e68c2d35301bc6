// /playground/: loads the game module and its atlases, runs it once per animation frame,
// draws what it leaves in memory, forwards touches and tilt, plays its sounds and shows its
// score (docs/playground.md, "The page (host)").
//
// ?seed=N starts from seed N (else a random one), ?game=NAME picks a game (carworld).
import { $, announce } from "/common/dom.js";
import { applyTranslations, t } from "/common/i18n.js";
import { drawList, listImages } from "./draw.js";
import { GAMES, SOUND_EVENT, gameNamed } from "./games.js";
import { GameModule, HostError, loadAtlas } from "./host.js";
import { InputLog, TILT, TOUCH, Tilt, TiltPad, attachTouches } from "./input.js";
import { Sound } from "./sound.js";

const MAX_DT = 100; // ms: the contract's clamp; a longer pause (a hidden tab) counts as 100
const SOUND_KEY = "quintet.playground.sound";
const FPS_KEY = "quintet.playground.fps";

const page = $("main.playground");
const canvas = $("#pg-canvas");
const ctx = canvas.getContext("2d");
const sound = new Sound();
const tilt = new Tilt();

let game = null; // the GAMES entry
let module = null; // the GameModule
let stage = { width: 1024, height: 768 };
let atlases = [];
let scale = 1; // canvas pixels per stage point
let seed = 0;
let log = null; // the InputLog while recording
let lastTilt = null;
let score = null;
let running = false;
let soundsPlayed = 0;
let frames = 0; // pg_frame calls since the page loaded
const recentEvents = []; // the last EVENTS_KEPT events, for tests
const EVENTS_KEPT = 500;

/** What tests and the screenshot script read of the running page. */
window.quintetPlayground = {
  /** The sounds played so far (asked for by the module while sound was on and unlocked). */
  soundsPlayed: () => soundsPlayed,
  /** The frames run since the page loaded. */
  frames: () => frames,
  /** The seed of the game running now. */
  seed: () => seed,
  /** The module's last events (up to 500), oldest first. */
  events: () => recentEvents.slice(),
  /** The images of the last frame and where they are in stage points (draw.js's listImages). */
  images: () => {
    if (!module) return [];
    const { buffer, ptr, size } = module.drawList();
    return listImages(buffer, ptr, size);
  },
};

/** Shows the page's state: loading, running or error (with the error's message). */
function setState(state, detail = "") {
  page.dataset.state = state;
  $("#pg-state").hidden = state === "running";
  const heading = $("#pg-state-heading");
  heading.dataset.i18n = state === "error" ? "playground.error.heading" : "playground.loading";
  heading.textContent = t(heading.dataset.i18n);
  $("#pg-state-body").textContent = detail;
}

/** The message of an error that stopped the game, in the page's language, then the detail. */
function describe(err) {
  const code = err instanceof HostError ? err.code : "drawing";
  const key = `playground.error.${code}`;
  const text = t(key);
  return `${text === key ? t("playground.error.drawing") : text} (${err.message})`;
}

function fail(err) {
  running = false;
  console.error(err);
  setState("error", describe(err));
}

/** Sizes the canvas to the largest box of the stage's aspect that fits its container, in
 *  device pixels; the rest of the container is the letterbox. */
function fit() {
  const box = $("#pg-stage");
  const fitScale = Math.min(box.clientWidth / stage.width, box.clientHeight / stage.height);
  if (!(fitScale > 0)) return;
  const dpr = window.devicePixelRatio || 1;
  const cssWidth = stage.width * fitScale, cssHeight = stage.height * fitScale;
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  canvas.width = Math.max(1, Math.round(cssWidth * dpr));
  canvas.height = Math.max(1, Math.round(cssHeight * dpr));
  scale = canvas.width / stage.width;
  if (module && running) draw();
}

function draw() {
  const { buffer, ptr, size } = module.drawList();
  drawList(ctx, buffer, ptr, size, { scale, atlases });
}

let won = false;

function showScore(value) {
  score = value;
  const text = t("playground.score", { score: value });
  $("#pg-score").textContent = won ? `${text} · ${t("playground.won")}` : text;
}

/** Acts on the last frame's events: sounds, the score, the win. */
function handleEvents() {
  for (const event of module.events()) {
    recentEvents.push(event);
    if (recentEvents.length > EVENTS_KEPT) recentEvents.shift();
    if (event.kind === SOUND_EVENT) {
      if (sound.play(game.sounds, event.subject)) soundsPlayed += 1;
      continue;
    }
    if (game.won(event)) { won = true; announce(t("playground.won")); }
    const value = game.score(event);
    if (value === 0) won = false; // a new round
    if (value !== null) showScore(value);
  }
}

function sendTouch(id, phase, x, y) {
  if (!running) return;
  try {
    module.input(TOUCH, id, phase, x, y, 0);
    if (log) log.touch(id, phase, x, y);
  } catch (err) { fail(err); }
}

function sendTilt(reading) {
  module.input(TILT, 0, 0, reading.x, reading.y, reading.z);
  if (log) log.tilt(reading.x, reading.y, reading.z);
  lastTilt = reading;
}

// Arrow keys and the on-screen pad, for games steered by tilt (games.js `tiltPad`; input.js
// TiltPad): the held directions become tilt readings, sent and logged like the sensor's.
const steer = new TiltPad();

function attachPad() {
  steer.attach($("#pg-stage"), { label: (d) => t(`playground.pad.${d}`), gesture: () => tilt.permit() });
}

/** One frame: the newest tilt (when it changed: the sensor's, else the keys' or pad's; before
 *  the pad's first reading a level one, which the game takes as level), then dt ms of game,
 *  its draw list, its events. */
function step(dt) {
  for (const reading of steer.readings(tilt.latest(), lastTilt)) sendTilt(reading);
  module.frame(dt);
  frames += 1;
  if (log) log.frame(dt);
  draw();
  handleEvents();
}

// The frame clock: whole milliseconds, the fractions carried to the next frame so that the
// game's time follows the wall clock without drift.
let last = null;
let carry = 0;
let fpsFrames = 0;
let fpsSince = 0;

function tick(now) {
  if (!running) return;
  if (last === null) { // the clock starts here: start() has run the game's frame 0
    last = fpsSince = now;
    requestAnimationFrame(tick);
    return;
  }
  carry += Math.max(0, now - last);
  last = now;
  let dt = Math.floor(carry);
  carry -= dt;
  if (dt > MAX_DT) { dt = MAX_DT; carry = 0; }
  try {
    step(dt);
  } catch (err) {
    fail(err);
    return;
  }
  fpsFrames += 1;
  if (now - fpsSince >= 500) {
    if (!$("#pg-fps").hidden) $("#pg-fps").textContent = t("playground.fps", { fps: Math.round((fpsFrames * 1000) / (now - fpsSince)) });
    fpsFrames = 0;
    fpsSince = now;
  }
  requestAnimationFrame(tick);
}

/** Starts the game from a seed, with a new input log when record (else none). */
function start(newSeed, record = false) {
  seed = newSeed >>> 0;
  stage = module.start(game.index, seed);
  log = record ? new InputLog(game.name, seed) : null;
  if (!(stage.width > 0 && stage.height > 0)) throw new HostError("game", `the stage is ${stage.width} × ${stage.height} points`);
  lastTilt = null;
  $("#pg-score").textContent = "";
  score = null;
  won = false;
  if (game.startScore !== undefined) showScore(game.startScore);
  fit();
  step(0);
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

function chosenSeed() {
  const asked = new URLSearchParams(location.search).get("seed");
  return asked !== null && /^\d+$/.test(asked) ? Number(asked) >>> 0 : randomSeed();
}

// --- The overlay: sound, recording, frame rate -------------------------------------------

function setPressed(button, on) {
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

function readFlag(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === "on";
  } catch (_) { return fallback; }
}

function storeFlag(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch (_) { /* not kept */ }
}

sound.on = readFlag(SOUND_KEY, true);
setPressed($("#pg-sound"), sound.on);
$("#pg-sound").addEventListener("click", () => {
  sound.on = !sound.on;
  sound.unlock();
  storeFlag(SOUND_KEY, sound.on);
  setPressed($("#pg-sound"), sound.on);
});

const fpsShown = readFlag(FPS_KEY, false);
setPressed($("#pg-fps-toggle"), fpsShown);
$("#pg-fps").hidden = !fpsShown;
$("#pg-fps-toggle").addEventListener("click", () => {
  const on = $("#pg-fps").hidden;
  $("#pg-fps").hidden = !on;
  $("#pg-fps").textContent = "";
  storeFlag(FPS_KEY, on);
  setPressed($("#pg-fps-toggle"), on);
});

let download = null; // the object URL of the last log

/** Recording on: the game starts again (a log replays from pg_start) and every input and
 *  frame is logged. Off: the log is offered as a file. */
$("#pg-record").addEventListener("click", () => {
  if (!running) return;
  const link = $("#pg-download");
  try {
    if (!log) {
      start(chosenSeed(), true);
      link.hidden = true;
      setPressed($("#pg-record"), true);
      announce(t("playground.record.started"));
    } else {
      if (download) URL.revokeObjectURL(download);
      download = URL.createObjectURL(new Blob([log.text()], { type: "text/plain" }));
      link.href = download;
      link.download = `${game.name}-seed-${seed}.log`;
      link.textContent = t("playground.record.download", { frames: log.frames });
      link.hidden = false;
      log = null;
      setPressed($("#pg-record"), false);
      announce(t("playground.record.ready"));
    }
  } catch (err) { fail(err); }
});

// --- Loading -------------------------------------------------------------------------------

async function main() {
  setState("loading");
  const name = new URLSearchParams(location.search).get("game") || GAMES[0].name;
  game = gameNamed(name);
  if (!game) throw new HostError("game", `no game named ${name}`);
  $("#pg-game").textContent = t(game.titleKey);
  $("#pg-game").dataset.i18n = game.titleKey;
  const [loaded, ...pictures] = await Promise.all([GameModule.load(), ...game.atlases.map(loadAtlas)]);
  module = loaded;
  atlases = pictures;
  attachTouches(canvas, () => stage, sendTouch, () => tilt.permit());
  if (game.tiltPad) attachPad();
  new ResizeObserver(fit).observe($("#pg-stage"));
  start(chosenSeed());
  running = true;
  setState("running");
  requestAnimationFrame(tick);
}

// The language picker re-translates data-i18n texts; the score's text has a number in it.
$("#language")?.addEventListener("change", () => {
  applyTranslations();
  if (score !== null) showScore(score);
});
// Browsers start audio only from a gesture: the first touch, click or key anywhere.
addEventListener("pointerdown", () => sound.unlock());
addEventListener("keydown", () => sound.unlock());

main().catch(fail);
