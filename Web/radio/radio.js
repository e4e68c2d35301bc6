// The radio page: what is live now (GET /api/radio/live, refreshed every 10 s), recent
// episodes (GET /api/radio/episodes) and the shows with their RSS feeds (GET /api/radio/shows),
// with one <audio> player for a live mount (/live/…) or an episode (/radio/episodes/{id}.mp3,
// served with Range, so seeking works), and beside it the chat (chat.js): the live show's, or
// the replayed episode's. Titles come from broadcasters: they are only ever
// set as text (textContent / text nodes), never as HTML.
import { api } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { duration, lang, number, plural } from "/common/format.js";
import { t } from "/common/i18n.js";
import { playIcon } from "/common/icons.js";
import { attachPlayer, openEpisodeChat, openLiveChat, renderChat } from "/radio/chat.js";

const audio = $("#audio");
attachPlayer(audio);

const LIVE_REFRESH_MS = 10_000;
const EPISODE_LIMIT = 20;

const state = {
  live: null, // last GET /api/radio/live mounts, or null before the first answer
  episodes: null,
  shows: null,
  playing: null, // {kind: "live", mount, show, title} or {kind: "episode", id, title, show}
  liveKey: "", // the mounts and episodes live at the last refresh, to notice broadcasts ending
  episodesPendingUntil: 0, // until when the episodes are refreshed with the live list (ms)
  timer: 0,
};

// --- Helpers --------------------------------------------------------------------------------

function timeElement(iso, options) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return el("span", {}, "—");
  return el("time", { datetime: date.toISOString(), title: date.toLocaleString(lang()) },
    date.toLocaleString(lang(), options));
}

/** A day: just the time when it is today, else the date and time. */
function dayAndTime(iso) {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return timeElement(iso, today ? { hour: "2-digit", minute: "2-digit" }
    : { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** Shows (or clears, with an empty text) a section's error line. */
function showError(selector, text) {
  const line = $(selector);
  line.textContent = text || "";
  line.hidden = !text;
}

function message(err) {
  return err && err.message ? err.message : String(err);
}

// --- Live now -------------------------------------------------------------------------------

async function refreshLive() {
  const known = state.live !== null; // the first answer is what the page shows, not a change
  try {
    const answer = await api("/api/radio/live");
    state.live = Array.isArray(answer && answer.mounts) ? answer.mounts : [];
    showError("#live-error", "");
    $("#live-updated").textContent = t("radio.live.updated", {
      time: new Date().toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit", second: "2-digit" }) });
    // A broadcast that started or ended changes the episodes (a new one is recorded or published).
    const key = state.live.map((m) => `${m.mount}#${m.episode_id}`).join(",");
    // A finished broadcast is published a few seconds after its mount closes (finalising,
    // loudness), so the episodes are asked again at every refresh for a minute after a change.
    if (key !== state.liveKey) state.episodesPendingUntil = Date.now() + 60_000;
    if (state.episodes !== null && (key !== state.liveKey || Date.now() < state.episodesPendingUntil)) {
      refreshEpisodes();
      if (key !== state.liveKey) refreshShows();
    }
    // The list is no live region (it is rebuilt every refresh): a change of what is on air is said.
    if (key !== state.liveKey && known) {
      announce(state.live.length ? plural("radio.live.now", state.live.length) : t("radio.live.empty"));
    }
    state.liveKey = key;
  } catch (err) {
    showError("#live-error", t("radio.live.failed", { message: message(err) }));
  }
  $("#live").setAttribute("aria-busy", "false");
  renderLive();
  followLiveTitle();
}

/** The player shows the live mount's current title (it changes with each song). */
function followLiveTitle() {
  const p = state.playing;
  if (!p || p.kind !== "live" || !state.live) return;
  const mount = state.live.find((m) => m.mount === p.mount);
  if (!mount) return;
  p.title = mount.title || mount.show_title;
  p.listeners = mount.listeners;
  $("#player-title").textContent = p.title;
  showPlayerMeta(p);
}

/** The player's second line: the show, and for a live show its listeners now. */
function showPlayerMeta(item) {
  $("#player-show").textContent = item.kind === "live" && Number.isFinite(item.listeners)
    ? `${item.show} · ${plural("radio.live.listeners", item.listeners)}` : item.show;
}

/** Runs render (which rebuilds a list) and gives focus back to the same play button. */
function keepingFocus(render) {
  const active = document.activeElement;
  const live = active && active.dataset ? active.dataset.playLive : undefined;
  const episode = active && active.dataset ? active.dataset.playEpisode : undefined;
  render();
  const again = live !== undefined
    ? [...document.querySelectorAll("[data-play-live]")].find((b) => b.dataset.playLive === live)
    : episode !== undefined ? document.querySelector(`[data-play-episode="${CSS.escape(episode)}"]`) : null;
  if (again) again.focus();
}

/** Marks the live mount or episode being played. */
function markPlaying() {
  const p = state.playing;
  for (const item of document.querySelectorAll("#live-list li[data-mount]")) {
    item.classList.toggle("playing", !!p && p.kind === "live" && item.dataset.mount === p.mount);
  }
  for (const row of document.querySelectorAll("#episodes-list tr[data-episode-id]")) {
    row.classList.toggle("playing", !!p && p.kind === "episode" && Number(row.dataset.episodeId) === p.id);
  }
}

function renderLive() { keepingFocus(buildLive); }

function buildLive() {
  const list = $("#live-list");
  const mounts = state.live || [];
  $("#live-empty").hidden = state.live === null || mounts.length > 0;
  list.replaceChildren(...mounts.map((m) => {
    const playing = state.playing && state.playing.kind === "live" && state.playing.mount === m.mount;
    return el("li", { "data-mount": m.mount, class: playing ? "playing" : null },
      el("button", { type: "button", class: "play", "data-play-live": m.mount,
        "aria-label": t("radio.live.play", { show: m.show_title }), onclick: () => playLive(m) },
      playIcon(), el("span", {}, t("radio.live.listen"))),
      el("div", { class: "live-info" },
        el("span", { class: "live-show" }, m.show_title),
        m.title ? el("span", { class: "live-title" }, m.title) : null,
        el("span", { class: "meta" },
          plural("radio.live.listeners", m.listeners), " · ",
          m.relays > 0 ? el("span", { class: "live-relays" }, plural("radio.relay.count", m.relays), " · ") : null,
          t("radio.live.since"), " ", dayAndTime(m.started))));
  }));
}

function playLive(mount) {
  start({ kind: "live", mount: mount.mount, show: mount.show_title, title: mount.title || mount.show_title,
    listeners: mount.listeners }, mount.mount);
  openLiveChat(mount.show_id, mount.show_title);
}

// --- Recent episodes ------------------------------------------------------------------------

async function refreshEpisodes() {
  try {
    state.episodes = await api(`/api/radio/episodes?limit=${EPISODE_LIMIT}`);
    if (!Array.isArray(state.episodes)) state.episodes = [];
    showError("#episodes-error", "");
  } catch (err) {
    showError("#episodes-error", t("radio.episodes.failed", { message: message(err) }));
  }
  $("#episodes").setAttribute("aria-busy", "false");
  renderEpisodes();
}

function renderEpisodes() { keepingFocus(buildEpisodes); }

function buildEpisodes() {
  const episodes = state.episodes || [];
  $("#episodes-empty").hidden = state.episodes === null || episodes.length > 0;
  $("#episodes-table").hidden = episodes.length === 0;
  $("#episodes-list").replaceChildren(...episodes.map((e) => {
    const playing = state.playing && state.playing.kind === "episode" && state.playing.id === e.id;
    const notPublished = e.state !== "published";
    return el("tr", { "data-episode-id": e.id, class: playing ? "playing" : null },
      el("td", { class: "play-col" },
        el("button", { type: "button", class: "play icon", "data-play-episode": e.id,
          "aria-label": t("radio.episodes.play", { title: e.title }), title: t("radio.episodes.play", { title: e.title }),
          onclick: () => playEpisode(e) }, playIcon())),
      el("td", { class: "title" }, el("span", { class: "episode-title" }, e.title),
        notPublished ? el("span", { class: "state" }, t(`radio.episodes.state.${e.state}`)) : null,
        el("span", { class: "sub" }, e.show_title)),
      el("td", { class: "show" }, e.show_title),
      el("td", { class: "date" }, dayAndTime(e.published_at || e.ended_at || e.started_at)),
      el("td", { class: "duration" }, duration(e.duration)),
      el("td", { class: "listens" }, number(e.listens || 0)));
  }));
}

function playEpisode(episode) {
  start({ kind: "episode", id: episode.id, show: episode.show_title, title: episode.title }, episode.audio_url);
  openEpisodeChat(episode.id, episode.title);
}

// --- Shows and feeds ------------------------------------------------------------------------

async function refreshShows() {
  try {
    state.shows = await api("/api/radio/shows");
    if (!Array.isArray(state.shows)) state.shows = [];
    showError("#shows-error", "");
  } catch (err) {
    showError("#shows-error", t("radio.shows.failed", { message: message(err) }));
  }
  $("#shows").setAttribute("aria-busy", "false");
  renderShows();
}

function renderShows() {
  const shows = state.shows || [];
  $("#shows-empty").hidden = state.shows === null || shows.length > 0;
  $("#shows-list").replaceChildren(...shows.map((s) => el("li", { "data-show-id": s.id },
    el("a", { class: "show-title", href: `/radio/show/?id=${encodeURIComponent(s.id)}`,
      "aria-label": t("radio.show.open", { show: s.title }) }, s.title),
    el("span", { class: "meta" }, plural("radio.shows.episodes", s.episode_count || 0)),
    el("a", { class: "feed", href: `/radio/feeds/${encodeURIComponent(s.id)}.xml`, type: "application/rss+xml",
      "aria-label": t("radio.shows.feedLabel", { show: s.title }) }, t("radio.shows.feed")))));
}

// --- Player ---------------------------------------------------------------------------------

function start(item, src) {
  state.playing = item;
  showError("#player-error", "");
  $("#player").hidden = false;
  $("#player-live").hidden = item.kind !== "live";
  $("#player-title").textContent = item.title;
  showPlayerMeta(item);
  audio.dataset.kind = item.kind;
  audio.dataset.id = item.kind === "live" ? item.mount : String(item.id);
  audio.src = src;
  const started = audio.play();
  if (started) started.catch((err) => {
    if (err.name !== "AbortError") showError("#player-error", t("radio.player.failed", { title: item.title, message: message(err) }));
  });
  markPlaying();
}

audio.addEventListener("error", () => {
  if (!audio.getAttribute("src") || !state.playing) return;
  const detail = audio.error ? audio.error.message || `code ${audio.error.code}` : "";
  showError("#player-error", t("radio.player.failed", { title: state.playing.title, message: detail }));
});
audio.addEventListener("ended", () => {
  if (state.playing && state.playing.kind === "live") {
    showError("#player-error", t("radio.player.ended", { show: state.playing.show }));
    refreshLive();
  }
});

// --- Start, refresh, language changes -------------------------------------------------------

function schedule() {
  clearInterval(state.timer);
  state.timer = setInterval(() => { if (!document.hidden) refreshLive(); }, LIVE_REFRESH_MS);
}

// discover.js's lists play their episodes in this page's player.
document.addEventListener("radio:play-episode", (event) => playEpisode(event.detail));
document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshLive(); });
document.addEventListener("change", (event) => {
  if (event.target && event.target.id === "language") {
    renderLive();
    renderEpisodes();
    renderShows();
    renderChat();
    if (state.playing) showPlayerMeta(state.playing);
  }
});

refreshLive();
refreshEpisodes();
refreshShows();
schedule();
