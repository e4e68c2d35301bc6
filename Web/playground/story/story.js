// /playground/story/: the story around the games (docs/playground.md, "The story"). A splash,
// then the chest of drawers — Story (the ten pages in order), Sweaters (the pile won so far),
// Loot (bonus pages unlocked by sweaters), Credits (links and settings behind a grown-up gate).
// Each page opens with a sound effect, then the narrator's line, then its main animation; a page
// finished gives a sweater and opens the next. Progress is kept in the browser (progress.js).
//
// ?speed=N (1–8) runs the games N frames per animation frame (tests, demonstrations);
// #page=<id> opens a page directly when it is unlocked.
import { $ } from "/common/dom.js";
import { Sound } from "../sound.js";
import { Narrator } from "./narrator.js";
import { GameRunner } from "./runner.js";
import { EFFECTS, Music, effect } from "./story-sound.js";
import * as Progress from "./progress.js";

const story = $("#story");

/** The games of the story's pages: page id → the module's game name. */
const GAME_PAGES = { carworld: "carworld", shipworld: "shipworld", fishworld: "fishworld", busytown: "carworld-crowded" };
const SOUND_KEY = "quintet.playground.sound";

/** The frame's own words (names for screen readers, the grown-ups' screens): Italian, English,
 *  French. Children need none of them to play. */
const WORDS = {
  en: {
    story: "Story", sweaters: "Sweaters", loot: "Loot", credits: "Credits", cat: "The cat", lamp: "The lamp",
    plant: "The plant", language: "Language", menu: "The chest of drawers", sound: "Sound", back: "Back", next: "Next",
    creditsTitle: "Credits", grownUps: "For grown-ups", settingsTitle: "Settings", volume: "Volume",
    subtitles: "Subtitles", export: "Save progress to a file", import: "Load progress from a file",
    reset: "Start again from nothing", undoReset: "Undo", home: "Quintet home", games: "The games alone",
    swift: "Made with Swift", gateHold: "Grown-ups: hold the button for three seconds.",
    creditsBody: "Quintet Playground: a story-game for children aged 2 to 5, after the iPad book \u201cLana!\u201d. Written in Swift by the Quintet developers; pictures, sounds and music made by the project; the narrator's voice by eSpeak NG.",
    exported: "The progress file was saved.", imported: "Progress loaded.", wasReset: "Everything starts again. Undo brings it back.",
    badFile: "That file is not Playground progress: nothing was changed.", locked: "Not yet", page: "Page {n}",
    error: "The page could not open: {detail}",
    up: "Steer up", left: "Steer left", right: "Steer right", down: "Steer down",
  },
  it: {
    story: "Storia", sweaters: "Maglioni", loot: "Bottino", credits: "Crediti", cat: "Il gatto", lamp: "La lampada",
    plant: "La pianta", language: "Lingua", menu: "Il cassettone", sound: "Suono", back: "Indietro", next: "Avanti",
    creditsTitle: "Crediti", grownUps: "Per i grandi", settingsTitle: "Impostazioni", volume: "Volume",
    subtitles: "Sottotitoli", export: "Salva i progressi in un file", import: "Carica i progressi da un file",
    reset: "Ricomincia da zero", undoReset: "Annulla", home: "Quintet", games: "Solo i giochi",
    swift: "Fatto con Swift", gateHold: "Grandi: tenete premuto il pulsante per tre secondi.",
    creditsBody: "Quintet Playground: una storia-gioco per bambini dai 2 ai 5 anni, dal libro per iPad \u00abLana!\u00bb. Scritto in Swift dagli sviluppatori di Quintet; disegni, suoni e musica fatti dal progetto; la voce narrante di eSpeak NG.",
    exported: "Il file dei progressi \u00e8 stato salvato.", imported: "Progressi caricati.", wasReset: "Si ricomincia da capo. Annulla li riporta.",
    badFile: "Questo file non contiene progressi di Playground: non \u00e8 cambiato nulla.", locked: "Non ancora", page: "Pagina {n}",
    error: "La pagina non si \u00e8 potuta aprire: {detail}",
    up: "Vai su", left: "Vai a sinistra", right: "Vai a destra", down: "Vai gi\u00f9",
  },
  fr: {
    story: "Histoire", sweaters: "Pulls", loot: "Tr\u00e9sor", credits: "Cr\u00e9dits", cat: "Le chat", lamp: "La lampe",
    plant: "La plante", language: "Langue", menu: "La commode", sound: "Son", back: "Retour", next: "Suivant",
    creditsTitle: "Cr\u00e9dits", grownUps: "Pour les grands", settingsTitle: "R\u00e9glages", volume: "Volume",
    subtitles: "Sous-titres", export: "Enregistrer la progression", import: "Charger une progression",
    reset: "Tout recommencer", undoReset: "Annuler", home: "Quintet", games: "Les jeux seuls",
    swift: "Fait avec Swift", gateHold: "Les grands : gardez le bouton appuy\u00e9 trois secondes.",
    creditsBody: "Quintet Playground : une histoire-jeu pour les enfants de 2 \u00e0 5 ans, d'apr\u00e8s le livre pour iPad \u00ab Lana! \u00bb. \u00c9crit en Swift par les d\u00e9veloppeurs de Quintet ; dessins, sons et musique faits par le projet ; la voix du narrateur par eSpeak NG.",
    exported: "La progression a \u00e9t\u00e9 enregistr\u00e9e.", imported: "Progression charg\u00e9e.", wasReset: "Tout recommence. Annuler la rend.",
    badFile: "Ce fichier n'est pas une progression de Playground : rien n'a chang\u00e9.", locked: "Pas encore", page: "Page {n}",
    error: "La page n'a pas pu s'ouvrir : {detail}",
    up: "Vers le haut", left: "Vers la gauche", right: "Vers la droite", down: "Vers le bas",
  },
};

function word(key, values = {}) {
  const text = (WORDS[progress.lang] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** The language a new player starts in: the browser's, if it is one of the story's. */
function defaultLanguage() {
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return Progress.LANGUAGES.includes(browser) ? browser : "en";
}

const progress = Progress.load(defaultLanguage());
const sound = new Sound();
const music = new Music(sound);
const narrator = new Narrator($("#subtitle"));
// ?speed=N (1–8): the games run N frames per animation frame, the narrator speaks N times faster
// and the pauses between a page's steps are N times shorter (tests; the page is otherwise the same).
const speed = Math.max(1, Math.min(8, Math.floor(Number(new URLSearchParams(location.search).get("speed")) || 1)));
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;

let screen = "splash";
let current = null; // { id, bonus, runner?, touch?, finished }
let pile = null; // the GameRunner of the sweater pile
let openToken = 0; // bumps on every screen change: late awaits of an older screen give up
let welcomed = false;
let gateTimer = null;
let undoProgress = null;

// --- The box and the screens ----------------------------------------------------------------

function fitBox() {
  const scale = Math.min(innerWidth / 1024, innerHeight / 768);
  const left = (innerWidth - 1024 * scale) / 2, top = (innerHeight - 768 * scale) / 2;
  story.style.transform = `translate(${left}px, ${top}px) scale(${scale})`;
  if (current && current.runner) current.runner.fit();
  if (pile) pile.fit();
}

function translate() {
  document.documentElement.lang = progress.lang;
  for (const el of story.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", word(el.dataset.i18nLabel));
  for (const el of story.querySelectorAll("[data-i18n-text]")) el.textContent = word(el.dataset.i18nText);
  for (const button of story.querySelectorAll(".lang")) button.setAttribute("aria-pressed", String(button.dataset.lang === progress.lang));
  $("#setting-lang").value = progress.lang;
}

function leaveScreen() {
  openToken += 1;
  narrator.stop();
  music.stop();
  if (current) {
    if (current.runner) current.runner.stop();
    if (current.touch) current.touch.destroy();
    current = null;
  }
  if (pile) { pile.stop(); pile = null; }
  $("#story-page-root").replaceChildren();
  $("#pg-canvas").hidden = true;
  $("#page-start").hidden = true;
  $("#reward").hidden = true;
  $("#gate").hidden = true;
  clearInterval(gateTimer);
}

function show(name) {
  leaveScreen();
  screen = name;
  story.dataset.screen = name;
  for (const section of story.querySelectorAll(".screen")) section.hidden = section.id !== name;
  $("#story-error").hidden = true;
  $("#btn-next").disabled = true;
}

function showError(err) {
  console.error(err);
  const box = $("#story-error");
  box.textContent = word("error", { detail: err && err.message ? err.message : String(err) });
  box.hidden = false;
}

// --- The chest of drawers ---------------------------------------------------------------------

function openChest() {
  show("chest");
  $("#sweater-count").textContent = String(progress.won.length);
  music.start();
  if (!welcomed) {
    welcomed = true;
    narrator.say(progress.lang, "welcome");
  }
}

for (const drawer of story.querySelectorAll(".drawer")) {
  drawer.addEventListener("click", () => {
    effect(sound, "drawer");
    drawer.classList.add("opening");
    setTimeout(() => drawer.classList.remove("opening"), 300);
    const open = { story: openIndex, sweaters: () => openSweaters(false), loot: openLoot, credits: openCredits }[drawer.dataset.drawer];
    open();
  });
}

for (const toy of story.querySelectorAll(".toy")) {
  toy.addEventListener("click", () => {
    const kind = toy.dataset.toy;
    toy.classList.remove("wiggle", "hop");
    void toy.offsetWidth; // restart the animation
    if (kind === "cat") { toy.classList.add("hop"); effect(sound, "pop"); }
    if (kind === "plant") { toy.classList.add("wiggle"); effect(sound, "whoosh"); }
    if (kind === "lamp") { toy.classList.toggle("lit"); effect(sound, toy.classList.contains("lit") ? "sparkle" : "snap"); }
  });
}

for (const button of story.querySelectorAll(".lang")) {
  button.addEventListener("click", () => setLanguage(button.dataset.lang));
}

function setLanguage(lang) {
  if (!Progress.LANGUAGES.includes(lang)) return;
  progress.lang = lang;
  Progress.save(progress);
  translate();
  if (screen === "chest") narrator.say(lang, "welcome");
}

// --- Story: the page path ------------------------------------------------------------------------

/** A small picture for each page on the path (the same style as the pages). */
const ICONS = {
  wake: '<circle cx="50" cy="56" r="30" fill="#f4a95c" stroke="#8a5a2b" stroke-width="5"/><path d="M36 54 q6 5 12 0 M54 54 q6 5 12 0" stroke="#8a5a2b" stroke-width="4" fill="none"/><text x="74" y="30" font-size="22" fill="#3f8fb5">z</text>',
  carworld: '<rect x="16" y="40" width="68" height="30" rx="10" fill="#e86f6f" stroke="#8a5a2b" stroke-width="5"/><circle cx="34" cy="72" r="9" fill="#4a3624"/><circle cx="68" cy="72" r="9" fill="#4a3624"/>',
  puzzle: '<path d="M20 20 h26 q0 -10 10 -10 q10 0 10 10 h14 v60 h-60z" fill="#7cc6e8" stroke="#8a5a2b" stroke-width="5" stroke-linejoin="round"/>',
  balloons: '<ellipse cx="40" cy="40" rx="18" ry="22" fill="#e86f6f" stroke="#8a5a2b" stroke-width="4"/><ellipse cx="64" cy="34" rx="16" ry="20" fill="#ffe07a" stroke="#8a5a2b" stroke-width="4"/><path d="M40 62 q4 14 -2 28 M64 54 q-4 16 2 36" stroke="#8a5a2b" stroke-width="3" fill="none"/>',
  shipworld: '<path d="M14 58 h72 l-12 20 h-48z" fill="#c98b52" stroke="#8a5a2b" stroke-width="5" stroke-linejoin="round"/><path d="M50 16 v40 h-26z" fill="#fff7ea" stroke="#8a5a2b" stroke-width="4" stroke-linejoin="round"/><path d="M6 86 q12 -8 22 0 t22 0 t22 0 t22 0" stroke="#3f8fb5" stroke-width="5" fill="none"/>',
  colouring: '<rect x="40" y="10" width="18" height="60" rx="4" fill="#e86f6f" stroke="#8a5a2b" stroke-width="4" transform="rotate(30 49 40)"/><path d="M14 84 q20 -20 40 0 t36 -6" stroke="#7cc47f" stroke-width="8" fill="none" stroke-linecap="round"/>',
  shapes: '<circle cx="30" cy="32" r="16" fill="#e86f6f" stroke="#8a5a2b" stroke-width="4"/><rect x="56" y="16" width="30" height="30" rx="4" fill="#7cc6e8" stroke="#8a5a2b" stroke-width="4"/><path d="M30 58 l18 30 h-36z" fill="#ffe07a" stroke="#8a5a2b" stroke-width="4" stroke-linejoin="round"/><path d="M70 56 l6 12 13 2 -9 9 2 13 -12 -6 -12 6 2 -13 -9 -9 13 -2z" fill="#7cc47f" stroke="#8a5a2b" stroke-width="3" stroke-linejoin="round"/>',
  fishworld: '<path d="M20 50 q30 -30 56 0 q-26 30 -56 0z" fill="#f2b84b" stroke="#8a5a2b" stroke-width="5"/><path d="M76 50 l16 -14 v28z" fill="#f2b84b" stroke="#8a5a2b" stroke-width="5" stroke-linejoin="round"/><circle cx="36" cy="46" r="4" fill="#4a3624"/>',
  bells: '<path d="M30 70 q0 -44 20 -48 q20 4 20 48z" fill="#ffe07a" stroke="#8a5a2b" stroke-width="5" stroke-linejoin="round"/><circle cx="50" cy="78" r="7" fill="#8a5a2b"/>',
  stars: '<path d="M50 12 l11 22 24 4 -17 17 4 24 -22 -11 -22 11 4 -24 -17 -17 24 -4z" fill="#ffe07a" stroke="#8a5a2b" stroke-width="5" stroke-linejoin="round"/>',
  bubbles: '<circle cx="36" cy="56" r="20" fill="#cfe8f7" stroke="#3f8fb5" stroke-width="4"/><circle cx="66" cy="34" r="14" fill="#cfe8f7" stroke="#3f8fb5" stroke-width="4"/><circle cx="70" cy="72" r="9" fill="#cfe8f7" stroke="#3f8fb5" stroke-width="4"/>',
  garden: '<circle cx="50" cy="40" r="12" fill="#ffe07a" stroke="#8a5a2b" stroke-width="4"/><circle cx="50" cy="22" r="10" fill="#e86f6f"/><circle cx="68" cy="40" r="10" fill="#e86f6f"/><circle cx="32" cy="40" r="10" fill="#e86f6f"/><path d="M50 54 v34" stroke="#3e7d41" stroke-width="6"/>',
  busytown: '<rect x="12" y="30" width="34" height="20" rx="6" fill="#7cc6e8" stroke="#8a5a2b" stroke-width="4"/><rect x="54" y="56" width="34" height="20" rx="6" fill="#e86f6f" stroke="#8a5a2b" stroke-width="4"/><rect x="30" y="66" width="20" height="14" rx="4" fill="#ffe07a" stroke="#8a5a2b" stroke-width="3"/>',
};
const SWEATER_MARK = '<svg class="won-mark" viewBox="0 0 120 100" aria-hidden="true"><path d="M38 14 l-26 14 8 22 12 -4 v40 h56 v-40 l12 4 8 -22 -26 -14 q-22 16 -44 0z" fill="#e86f6f" stroke="#8a5a2b" stroke-width="6" stroke-linejoin="round"/></svg>';

function icon(id) {
  return `<svg viewBox="0 0 100 100" aria-hidden="true">${ICONS[id] || ""}</svg>`;
}

/** The first page of the round not yet won and already open: where the path pulses. */
function nextPageToPlay() {
  return Progress.PAGES.find((id) => !progress.won.includes(id) && Progress.unlocked(progress, id)) || Progress.PAGES[0];
}

function openIndex() {
  show("index");
  const list = $("#page-path");
  list.replaceChildren();
  const next = nextPageToPlay();
  Progress.PAGES.forEach((id, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.target = `page-${id}`;
    button.dataset.page = id;
    button.innerHTML = icon(id) + (progress.won.includes(id) ? SWEATER_MARK : "");
    const open = Progress.unlocked(progress, id);
    button.disabled = !open;
    button.setAttribute("aria-label", open ? word("page", { n: i + 1 }) : `${word("page", { n: i + 1 })}: ${word("locked")}`);
    if (id === next) button.classList.add("next-page");
    button.addEventListener("click", () => openPage(id));
    item.append(button);
    list.append(item);
  });
}

// --- A page -----------------------------------------------------------------------------------------

/** A pause of the story's own (shortened by ?speed=). */
function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms / speed));
}

let touchPages = null;
async function touchPage(id) {
  if (!touchPages) touchPages = (await import("./pages/index.js")).TOUCH_PAGES;
  const page = touchPages[id];
  if (!page) throw new Error(`no page ${id}`);
  return page;
}

/** Opens page id (one of the ten, or a bonus page when bonus). */
async function openPage(id, { bonus = false } = {}) {
  if (!bonus && !Progress.unlocked(progress, id)) return;
  if (bonus && !Progress.lootUnlocked(progress, id)) return;
  show("page");
  const token = openToken;
  const page = { id, bonus, finished: false, started: false };
  current = page;
  location.hash = `page=${id}`;
  updateNext();
  try {
    if (GAME_PAGES[id]) {
      const canvas = $("#pg-canvas");
      canvas.hidden = false;
      page.runner = new GameRunner(canvas, {
        sound, speed,
        onEvent: (event) => { if (event.kind === 3) finishPage(page); },
        onError: showError,
        padLabel: (direction) => word(direction),
      });
      await page.runner.load(GAME_PAGES[id]);
      if (token !== openToken) return;
      page.runner.start(crypto.getRandomValues(new Uint32Array(1))[0]);
    } else {
      const module = await touchPage(id);
      if (token !== openToken) return;
      page.touch = module.mount($("#story-page-root"), {
        finish: () => finishPage(page),
        sound: (name) => effect(sound, name),
        reducedMotion,
      });
    }
  } catch (err) {
    if (token === openToken) showError(err);
    return;
  }
  // The opening: a sound effect, then the narrator (a tap skips it), then the animation.
  const skip = $("#page-start");
  skip.hidden = false;
  const skipper = () => narrator.skip();
  skip.addEventListener("pointerdown", skipper);
  effect(sound, "page");
  await wait(reducedMotion ? 200 : 700);
  if (token !== openToken) return;
  await narrator.say(progress.lang, id);
  skip.removeEventListener("pointerdown", skipper);
  if (token !== openToken) return;
  skip.hidden = true;
  page.started = true;
  if (page.runner) page.runner.resume();
  if (page.touch) page.touch.start();
}

/** The page after id in the story, or null after the last. */
function pageAfter(id) {
  const i = Progress.PAGES.indexOf(id);
  return i >= 0 && i + 1 < Progress.PAGES.length ? Progress.PAGES[i + 1] : null;
}

function updateNext() {
  const next = current && !current.bonus ? pageAfter(current.id) : null;
  $("#btn-next").disabled = !(next && Progress.unlocked(progress, next));
}

/** A page's game or toy is done: a sweater (once per page and round), then the next page. */
async function finishPage(page) {
  if (page.finished || page !== current) return;
  page.finished = true;
  const token = openToken;
  if (page.bonus) {
    effect(sound, "sparkle");
    await wait(2500);
    if (token === openToken) openLoot();
    return;
  }
  const result = Progress.win(progress, page.id);
  Progress.save(progress);
  updateNext();
  finishedPages.push(page.id);
  await wait(900); // the page's own happy animation first
  if (token !== openToken) return;
  if (result.sweater) {
    $("#reward").hidden = false;
    effect(sound, "sweater");
    await narrator.say(progress.lang, "sweater");
    if (token !== openToken) return;
    await wait(reducedMotion ? 200 : 800);
    if (token !== openToken) return;
    $("#reward").hidden = true;
  }
  if (result.newLoot.length && !result.toppled) {
    await narrator.say(progress.lang, "loot");
    if (token !== openToken) return;
  }
  if (result.toppled) { openSweaters(true, result.newLoot.length > 0); return; }
  const next = pageAfter(page.id);
  if (next) openPage(next); else openIndex();
}
const finishedPages = [];

// --- Sweaters, loot, credits -------------------------------------------------------------------

/** The pile: the module's sweater game from the number of sweaters (10 when toppling). */
async function openSweaters(toppling, lootNews = false) {
  show("sweaters");
  const token = openToken;
  const count = toppling ? Progress.SWEATERS_PER_PILE : progress.won.length;
  $("#drawing").hidden = !(progress.drawings > 0 && !toppling);
  const runner = new GameRunner($("#pile-canvas"), {
    sound, speed: 1,
    onEvent: async (event) => {
      if (event.kind !== 3 || !toppling || token !== openToken) return;
      $("#drawing").hidden = false;
      effect(sound, "sparkle");
      await narrator.say(progress.lang, "topple");
      if (lootNews && token === openToken) narrator.say(progress.lang, "loot");
    },
    onError: showError,
  });
  pile = runner;
  try {
    await runner.load("sweaters");
    if (token !== openToken) return;
    runner.start(count);
    runner.resume();
    pileState.count = count;
    pileState.toppling = toppling;
  } catch (err) {
    if (token === openToken) showError(err);
  }
}
const pileState = { count: 0, toppling: false };

function openLoot() {
  show("loot");
  const list = $("#loot-list");
  list.replaceChildren();
  for (const { id, sweaters } of Progress.LOOT) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.target = `loot-${id}`;
    button.dataset.page = id;
    const open = Progress.lootUnlocked(progress, id);
    button.disabled = !open;
    button.innerHTML = icon(id) + (open ? "" : `<span class="need">${'<svg viewBox="0 0 120 100" aria-hidden="true"><path d="M38 14 l-26 14 8 22 12 -4 v40 h56 v-40 l12 4 8 -22 -26 -14 q-22 16 -44 0z" fill="#e86f6f"/></svg>'.repeat(sweaters)}</span>`);
    button.setAttribute("aria-label", open ? id : `${word("locked")} (${sweaters})`);
    button.addEventListener("click", () => openPage(id, { bonus: true }));
    list.append(button);
  }
}

function openCredits() {
  show("credits");
  narrator.say(progress.lang, "credits");
}

// The grown-up gate: hold for three seconds (letting go starts again).
const GATE_MS = 3000;
$("#open-gate").addEventListener("click", () => {
  $("#gate").hidden = false;
});
const hold = $("#gate-hold");
hold.addEventListener("pointerdown", (event) => {
  event.preventDefault();
  const since = performance.now();
  clearInterval(gateTimer);
  gateTimer = setInterval(() => {
    const held = (performance.now() - since) / GATE_MS;
    hold.style.setProperty("--held", String(Math.min(1, held)));
    if (held >= 1) { clearInterval(gateTimer); hold.style.setProperty("--held", "0"); openSettings(); }
  }, 50);
});
for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
  hold.addEventListener(type, () => { clearInterval(gateTimer); hold.style.setProperty("--held", "0"); });
}
$("#gate").addEventListener("click", (event) => { if (event.target === $("#gate")) $("#gate").hidden = true; });

function openSettings() {
  show("settings");
  $("#volume").value = String(progress.volume);
  $("#subtitles").checked = progress.subtitles;
  $("#setting-lang").value = progress.lang;
  $("#settings-message").textContent = "";
  $("#undo-reset").hidden = !undoProgress;
}

function applySettings() {
  narrator.volume = progress.volume;
  narrator.subtitles = progress.subtitles;
  if (sound.master) sound.master.gain.value = progress.volume;
}

$("#volume").addEventListener("input", () => {
  progress.volume = Math.max(0, Math.min(1, Number($("#volume").value)));
  Progress.save(progress);
  applySettings();
  effect(sound, "chime");
});
$("#subtitles").addEventListener("change", () => {
  progress.subtitles = $("#subtitles").checked;
  Progress.save(progress);
  applySettings();
});
$("#setting-lang").addEventListener("change", () => setLanguage($("#setting-lang").value));
$("#export").addEventListener("click", () => {
  const blob = new Blob([JSON.stringify(progress, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "playground-progress.json";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  $("#settings-message").textContent = word("exported");
});
$("#import").addEventListener("change", async () => {
  const file = $("#import").files[0];
  $("#import").value = "";
  if (!file) return;
  try {
    if (file.size > 64 * 1024) throw new Error("too large");
    const loaded = Progress.validate(JSON.parse(await file.text()));
    Object.assign(progress, loaded);
    Progress.save(progress);
    applySettings();
    translate();
    $("#settings-message").textContent = word("imported");
  } catch (_) {
    $("#settings-message").textContent = word("badFile");
  }
});
$("#reset").addEventListener("click", () => {
  undoProgress = JSON.parse(JSON.stringify(progress));
  Object.assign(progress, Progress.fresh(progress.lang), { volume: progress.volume, subtitles: progress.subtitles });
  Progress.save(progress);
  $("#undo-reset").hidden = false;
  $("#settings-message").textContent = word("wasReset");
});
$("#undo-reset").addEventListener("click", () => {
  if (!undoProgress) return;
  Object.assign(progress, undoProgress);
  undoProgress = null;
  Progress.save(progress);
  $("#undo-reset").hidden = true;
  $("#settings-message").textContent = "";
});

// --- The round buttons --------------------------------------------------------------------------

$("#btn-menu").addEventListener("click", openChest);
$("#btn-back").addEventListener("click", () => {
  if (screen === "page" && current && !current.bonus) {
    const i = Progress.PAGES.indexOf(current.id);
    if (i > 0) openPage(Progress.PAGES[i - 1]); else openIndex();
  } else if (screen === "page") {
    openLoot();
  } else if (screen === "settings") {
    openCredits();
  } else {
    openChest();
  }
});
$("#btn-next").addEventListener("click", () => {
  const next = current && pageAfter(current.id);
  if (next && Progress.unlocked(progress, next)) openPage(next);
});

function showSound() {
  $("#btn-sound").setAttribute("aria-pressed", String(sound.on));
  narrator.muted = !sound.on;
}
$("#btn-sound").addEventListener("click", () => {
  sound.on = !sound.on;
  sound.unlock();
  try { localStorage.setItem(SOUND_KEY, sound.on ? "on" : "off"); } catch (_) { /* not kept */ }
  if (!sound.on) narrator.skip();
  showSound();
});

// --- Sound needs a gesture; a hidden page is silent and still ------------------------------------

function unlock() {
  sound.unlock();
  applySettings();
}
addEventListener("pointerdown", unlock, true);
addEventListener("keydown", unlock, true);

document.addEventListener("visibilitychange", () => {
  const hidden = document.hidden;
  if (hidden) {
    narrator.pause();
    if (sound.ctx) sound.ctx.suspend().catch(() => {});
    if (current && current.runner && current.started) current.runner.pause();
    if (pile) pile.pause();
  } else {
    if (sound.ctx) sound.ctx.resume().catch(() => {});
    narrator.resume();
    if (current && current.runner && current.started) current.runner.resume();
    if (pile) pile.resume();
  }
});

/** What tests read (e2e/test_playground_story.py). */
window.quintetStory = {
  screen: () => screen,
  page: () => (current ? { id: current.id, bonus: current.bonus, started: current.started, finished: current.finished } : null),
  progress: () => JSON.parse(JSON.stringify(progress)),
  narrator: () => narrator.playing(),
  linesSpoken: () => narrator.spoken,
  lines: () => narrator.history.slice(),
  subtitle: () => ({ text: $("#subtitle").textContent, shown: !$("#subtitle").hidden, lang: $("#subtitle").lang, line: $("#subtitle").dataset.line }),
  finishedPages: () => finishedPages.slice(),
  pile: () => ({ ...pileState }),
  effects: () => Object.keys(EFFECTS),
  soundOn: () => sound.on,
  audioState: () => (sound.ctx ? sound.ctx.state : "none"),
  hidden: () => document.hidden,
};

// --- Start -----------------------------------------------------------------------------------------

async function main() {
  try {
    const stored = localStorage.getItem(SOUND_KEY);
    if (stored) sound.on = stored === "on";
  } catch (_) { /* defaults */ }
  showSound();
  narrator.rate = speed;
  applySettings();
  translate();
  fitBox();
  addEventListener("resize", fitBox);
  await narrator.load();
  const deep = /^#page=([a-z]+)$/.exec(location.hash);
  if (deep && Progress.PAGES.includes(deep[1]) && Progress.unlocked(progress, deep[1])) { openPage(deep[1]); return; }
  // The splash, for a moment or until a tap.
  const splash = $("#splash");
  await Promise.race([wait(1800), new Promise((resolve) => splash.addEventListener("pointerdown", resolve, { once: true }))]);
  if (screen === "splash") openChest();
}

main().catch(showError);
