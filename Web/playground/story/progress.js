// The child's progress through the story (docs/playground.md, "The story"), kept in the browser
// (localStorage) and exportable as a small JSON file:
//   { version: 1, won: [page ids won in this round], finished: [page ids ever finished],
//     best: most sweaters ever held (unlocks the loot), drawings: piles toppled,
//     lang, subtitles, volume }
// One sweater per page won in the round; the tenth topples the pile, gives a drawing and starts
// a new round (won empties; finished, best and drawings stay).
export const STORAGE_KEY = "quintet.playground.story";
export const SWEATERS_PER_PILE = 10;

export const PAGES = ["wake", "carworld", "puzzle", "balloons", "shipworld", "colouring", "shapes", "fishworld", "bells", "stars"];
/** Bonus pages and the sweaters that unlock each (the most ever held, `best`). */
export const LOOT = [
  { id: "bubbles", sweaters: 3 },
  { id: "garden", sweaters: 6 },
  { id: "busytown", sweaters: 10 },
];
export const LANGUAGES = ["it", "en", "fr"];

export function fresh(lang = "en") {
  return { version: 1, won: [], finished: [], best: 0, drawings: 0, lang, subtitles: false, volume: 0.8 };
}

/** A progress object from untrusted JSON (storage or an imported file): unknown pages dropped,
 *  numbers clamped; throws an Error with a message for something that is not progress at all. */
export function validate(data) {
  if (!data || typeof data !== "object" || data.version !== 1) throw new Error("not a Playground progress file (version 1)");
  const pages = (list) => (Array.isArray(list) ? [...new Set(list.filter((id) => PAGES.includes(id)))] : []);
  const out = fresh(LANGUAGES.includes(data.lang) ? data.lang : "en");
  out.won = pages(data.won).slice(0, SWEATERS_PER_PILE - 1);
  out.finished = pages(data.finished);
  for (const id of out.won) if (!out.finished.includes(id)) out.finished.push(id);
  const whole = (v, hi) => (Number.isInteger(v) ? Math.max(0, Math.min(hi, v)) : 0);
  out.best = Math.max(whole(data.best, SWEATERS_PER_PILE), out.won.length);
  out.drawings = whole(data.drawings, 1e6);
  out.subtitles = data.subtitles === true;
  out.volume = typeof data.volume === "number" && data.volume >= 0 && data.volume <= 1 ? data.volume : 0.8;
  return out;
}

export function load(defaultLang) {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    if (text) return validate(JSON.parse(text));
  } catch (_) { /* unreadable: start afresh */ }
  return fresh(defaultLang);
}

export function save(progress) {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(progress)); } catch (_) { /* not kept */ }
}

/** Page id is unlocked: the first always, each next one once the page before was finished. */
export function unlocked(progress, id) {
  const i = PAGES.indexOf(id);
  return i === 0 || (i > 0 && progress.finished.includes(PAGES[i - 1]));
}

export function lootUnlocked(progress, id) {
  const entry = LOOT.find((l) => l.id === id);
  return !!entry && progress.best >= entry.sweaters;
}

/** Records page id won. Returns what happened: { sweater: bool, sweaters (now), toppled: bool,
 *  newLoot: [ids unlocked now] }. A page already won in this round gives no second sweater. */
export function win(progress, id) {
  if (!PAGES.includes(id)) return { sweater: false, sweaters: progress.won.length, toppled: false, newLoot: [] };
  if (!progress.finished.includes(id)) progress.finished.push(id);
  if (progress.won.includes(id)) return { sweater: false, sweaters: progress.won.length, toppled: false, newLoot: [] };
  const before = new Set(LOOT.filter((l) => progress.best >= l.sweaters).map((l) => l.id));
  progress.won.push(id);
  const sweaters = progress.won.length;
  progress.best = Math.max(progress.best, sweaters);
  const newLoot = LOOT.filter((l) => progress.best >= l.sweaters && !before.has(l.id)).map((l) => l.id);
  const toppled = sweaters >= SWEATERS_PER_PILE;
  if (toppled) {
    progress.drawings += 1;
    progress.won = [];
  }
  return { sweater: true, sweaters, toppled, newLoot };
}
