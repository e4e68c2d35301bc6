// The runner page's song lists: the songs played in this run (with their BPM and the cadence
// each was chosen for) and the songs the runner mode uses (GET /api/runner/songs, sortable).
// On each song: "never play this while running" (PUT/DELETE /api/runner/never/{id}, per user)
// and the BPM, set by hand or back to the analysed one (PUT /api/library/songs/{id}/bpm).
import { api } from "/common/api.js";
import { $, el } from "/common/dom.js";
import { number, plural } from "/common/format.js";
import { t } from "/common/i18n.js";

const ui = {
  played: $("#run-played"), playedList: $("#run-played-list"),
  library: $("#run-library"), libraryStatus: $("#run-library-status"), libraryBody: $("#run-library-body"),
  libraryTable: $("#run-library-table"), libraryMore: $("#run-library-more"),
};

const SHOW_AT_MOST = 1000;      // rows of the runner songs list drawn at once

/** What the page knows of each song it shows: id → {id, title, artist, bpm, bpm_source, never}. */
const known = new Map();
/** This run's songs, in order: {id, cadence, at} (cadence null: chosen before one was known). */
let played = [];
let sort = { key: "bpm", order: "asc" };
let hooks = { onNever: () => {} };

export function songHooks(value) { hooks = { ...hooks, ...value }; }

function remember(song) {
  const old = known.get(song.id) || {};
  const merged = { ...old, ...song };
  known.set(song.id, merged);
  return merged;
}

// --- This run's songs --------------------------------------------------------------------------

/** A new run: the list starts empty. */
export function newRun() {
  played = [];
  drawPlayed();
}

/** A song the live socket chose: `choice` is its "song" message. */
export function songPlayed(choice, elapsedSeconds) {
  if (!choice.song) return;
  const { id, title, artist, bpm } = choice.song;
  remember({ id, title, artist, bpm, ...(choice.song.bpm_source !== undefined ? { bpm_source: choice.song.bpm_source } : {}) });
  played.push({ id: choice.song.id, cadence: choice.cadence ?? null, at: elapsedSeconds });
  drawPlayed();
}

function drawPlayed() {
  ui.played.hidden = played.length === 0;
  ui.playedList.replaceChildren(...played.map((entry, index) => {
    const song = known.get(entry.id);
    const cadence = entry.cadence === null ? t("run.played.noCadence")
      : t("run.played.cadence", { spm: number(entry.cadence) });
    return el("li", { class: "song-row", "data-song-id": entry.id, "data-index": index },
      el("div", { class: "song-what" },
        el("strong", { class: "song-title" }, song.title), " — ", el("span", { class: "song-artist" }, song.artist)),
      el("div", { class: "song-facts" },
        el("span", { class: "song-bpm" }, bpmText(song)), " · ", el("span", { class: "song-cadence" }, cadence)),
      el("div", { class: "song-actions" }, neverButton(song), bpmEditor(song)));
  }));
}

function bpmText(song) {
  if (song.bpm === null || song.bpm === undefined) return t("run.songs.noBpm");
  const value = t("run.songs.bpm", { bpm: number(song.bpm, Number.isInteger(song.bpm) ? 0 : 1) });
  return song.bpm_source === "override" ? `${value} (${t("run.songs.byYou")})` : value;
}

// --- Never while running ----------------------------------------------------------------------

function neverButton(song) {
  const button = el("button", { type: "button", class: "never", "aria-pressed": song.never ? "true" : "false",
    "aria-label": t(song.never ? "run.never.undoLabel" : "run.never.label", { title: song.title }) },
    t(song.never ? "run.never.undo" : "run.never"));
  button.addEventListener("click", () => setNever(song.id, !known.get(song.id).never, button));
  return button;
}

async function setNever(id, never, button) {
  button.disabled = true;
  try {
    await api(`/api/runner/never/${id}`, { method: never ? "PUT" : "DELETE" });
  } catch (err) {
    button.disabled = false;
    say(t("run.songs.failed", { message: err.message }));
    return;
  }
  remember({ id, never });
  redraw(id);
  if (never) hooks.onNever(id);
  // The undo button takes the focus the pressed button had (it was redrawn).
  document.querySelector(`#run-played [data-song-id="${id}"] button.never, #run-library-body [data-song-id="${id}"] button.never`)?.focus();
}

// --- BPM by hand ------------------------------------------------------------------------------

function bpmEditor(song) {
  const input = el("input", { type: "number", min: "30", max: "300", step: "0.1", required: true,
    inputmode: "decimal", value: song.bpm ?? "", "aria-label": t("run.bpm.label", { title: song.title }) });
  const save = el("button", { type: "submit" }, t("run.bpm.save"));
  const reset = el("button", { type: "button", class: "bpm-reset" },
    song.analysed_bpm ? t("run.bpm.resetTo", { bpm: number(song.analysed_bpm, Number.isInteger(song.analysed_bpm) ? 0 : 1) })
      : t("run.bpm.reset"));
  reset.hidden = song.bpm_source !== "override";
  const message = el("span", { class: "bpm-message", role: "status" });
  const form = el("form", { class: "bpm-form", novalidate: true }, el("label", {}, el("span", {}, t("run.bpm.field")), input), save, reset, message);
  const details = el("details", { class: "bpm-edit" }, el("summary", {}, t("run.bpm.edit")), form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = Number(input.value);
    if (!input.value || !Number.isFinite(value) || value < 30 || value > 300) {
      message.textContent = t("run.bpm.range");
      return;
    }
    putBPM(song.id, value, message);
  });
  reset.addEventListener("click", () => putBPM(song.id, null, message));
  return details;
}

async function putBPM(id, bpm, message) {
  message.textContent = "";
  let answer;
  try {
    answer = await api(`/api/library/songs/${id}/bpm`, { method: "PUT", body: { bpm } });
  } catch (err) {
    message.textContent = t("run.songs.failed", { message: err.message });
    return;
  }
  remember({ id, bpm: answer.bpm ?? null, bpm_source: answer.bpm_source ?? null, analysed_bpm: answer.analysed_bpm ?? null });
  redraw(id);
}

// --- The songs the runner mode uses -----------------------------------------------------------

/** Loads the runner songs list (after signing in, and when a sort is chosen). */
export async function loadSongs() {
  ui.libraryStatus.textContent = t("run.songs.loading");
  let answer;
  try {
    answer = await api(`/api/runner/songs?sort=${sort.key}&order=${sort.order}`);
  } catch (err) {
    ui.libraryStatus.textContent = t("run.songs.failed", { message: err.message });
    return;
  }
  const songs = answer.songs.map(remember);
  ui.libraryStatus.textContent = songs.length === 0 ? t("run.songs.none") : plural("run.songs.count", songs.length);
  drawSongs(songs.map((s) => s.id));
}

let listed = []; // ids in the order shown

function drawSongs(ids = listed) {
  listed = ids;
  for (const th of ui.libraryTable.querySelectorAll("th[data-sort]")) {
    const key = th.dataset.sort;
    th.setAttribute("aria-sort", key === sort.key ? (sort.order === "asc" ? "ascending" : "descending") : "none");
  }
  const shown = ids.slice(0, SHOW_AT_MOST);
  ui.libraryMore.hidden = ids.length <= SHOW_AT_MOST;
  ui.libraryMore.textContent = t("run.songs.more", { shown: number(shown.length), count: number(ids.length) });
  ui.libraryBody.replaceChildren(...shown.map((id) => {
    const song = known.get(id);
    return el("tr", { class: "song-row", "data-song-id": id },
      el("td", { class: "song-title" }, song.title),
      el("td", { class: "song-artist" }, song.artist),
      el("td", { class: "song-bpm" }, bpmText(song)),
      el("td", { class: "song-do" }, el("div", { class: "song-actions" }, neverButton(song), bpmEditor(song))));
  }));
}

for (const button of document.querySelectorAll("#run-library-table th[data-sort] button")) {
  button.addEventListener("click", () => {
    const key = button.closest("th").dataset.sort;
    sort = key === sort.key ? { key, order: sort.order === "asc" ? "desc" : "asc" } : { key, order: "asc" };
    loadSongs();
  });
}

/** Draws again what shows song `id` (a BPM or never changed); the runner songs list is
 *  fetched again when the order may have changed (sorted by BPM). */
function redraw(id) {
  drawPlayed();
  if (listed.includes(id)) {
    if (sort.key === "bpm") loadSongs(); else drawSongs();
  }
}

function say(text) {
  ui.libraryStatus.textContent = text;
}
