// The library page: sign-in, scan status, a searchable browser of artists, albums and
// songs, related songs (covers, identical recordings) and an audio player.
// Every view lives in the URL hash (#artist/3, #album/5, #song/12, #search/glass), so
// reloading and the back button work; the graph explorer reuses these routes.
import { api, APIError } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { duration, plural } from "/common/format.js";
import { t } from "/common/i18n.js";
import { playIcon } from "/common/icons.js";
import { mapView } from "./graph-map-view.js";

const status = $("#library-status");
const signin = { section: $("#signin"), form: $("#signin-form"), name: $("#signin-name"),
  password: $("#signin-password"), submit: $("#signin-submit") };
const app = $("#library-app");
const view = $("#view");
const crumbs = $("#crumbs ol");
const search = $("#search");
const audio = $("#audio");

const SCAN_POLL_MS = 1000;
const BPM_POLL_MS = 3000;
const SEARCH_DELAY_MS = 250;
const THUMB = 120;
const COVER = 300;

const state = {
  user: null,
  scan: null, // last GET /api/library/scan
  bpm: null, // last GET /api/library/bpm
  scanTimer: 0,
  bpmTimer: 0,
  renderToken: 0,
  albums: new Map(), // album id -> album, for covers of songs played outside their album
  queue: [], // songs the player steps through
  index: -1,
};

// --- Requests and messages ----------------------------------------------------------------

/** The JSON API as the page uses it: no Basic prompt, and a 401 means "sign in again". */
async function call(path, options = {}) {
  try {
    return await api(path, options);
  } catch (err) {
    if (err instanceof APIError && err.status === 401 && state.user && !path.startsWith("/api/session")) {
      showSignIn();
      showMessage(t("library.signin.expired"), "error");
    }
    throw err;
  }
}

/** Shows text in the status area; state "error" colours it, an empty text hides it. */
function showMessage(text, kind = "info") {
  status.textContent = text || "";
  status.dataset.state = kind;
  status.hidden = !text;
}

function showError(err) {
  if (err && err.name === "AbortError") return;
  showMessage(t("library.error", { message: err && err.message ? err.message : String(err) }), "error");
}

function clearError() {
  if (status.dataset.state === "error") showMessage("");
}

// --- Small helpers ------------------------------------------------------------------------

/** A short time in seconds with two significant digits below ten (0.072 → "0.07"). */
function seconds(value) {
  value = Math.max(value, 0.001);
  if (value >= 10) return String(Math.round(value));
  return value.toPrecision(value >= 1 ? 2 : 1);
}

function withSize(url, size) {
  return `${url}${url.includes("?") ? "&" : "?"}size=${size}`;
}

/** A cover image (lazy, with alt text) or a placeholder when there is none. */
function coverImage(url, size, alt, className = "cover") {
  if (!url) return el("div", { class: `${className} placeholder`, "aria-hidden": "true" }, "♪");
  return el("img", { class: className, src: withSize(url, size), alt, width: size, height: size, loading: "lazy",
    decoding: "async" });
}

// --- Sign-in ------------------------------------------------------------------------------

// GET /api/session answers {"user": null} when nobody is signed in (not a 401, which the
// browser would log as a console error), so the page always asks.
async function boot() {
  try {
    const session = await call("/api/session");
    if (session.user) signedIn(session.user);
    else showSignIn();
  } catch (err) {
    if (err instanceof APIError && err.status === 401) showSignIn();
    else showError(err);
  }
}

function showSignIn() {
  state.user = null;
  stopPolling();
  stopPlayer();
  app.hidden = true;
  signin.section.hidden = false;
  signin.password.value = "";
  signin.submit.disabled = false;
  (signin.name.value ? signin.password : signin.name).focus();
}

function signedIn(user) {
  state.user = user;
  signin.section.hidden = true;
  app.hidden = false;
  $("#account-name").textContent = user.name;
  refreshScan();
  render();
}

signin.form.addEventListener("submit", async (event) => {
  event.preventDefault();
  signin.submit.disabled = true;
  showMessage(t("library.signin.working"));
  try {
    const answer = await call("/api/session", { method: "POST",
      body: { name: signin.name.value.trim(), password: signin.password.value } });
    showMessage("");
    signin.password.value = "";
    signedIn(answer.user);
  } catch (err) {
    signin.submit.disabled = false;
    showMessage(t("library.signin.failed", { message: err.message }), "error");
    signin.password.select();
    signin.password.focus();
  }
});

$("#signout").addEventListener("click", async () => {
  try {
    await call("/api/session", { method: "DELETE" });
    showMessage(t("library.signin.signedOut"));
    showSignIn();
  } catch (err) {
    showError(err);
  }
});

// --- Scan and BPM status ------------------------------------------------------------------

function stopPolling() {
  clearTimeout(state.scanTimer);
  clearTimeout(state.bpmTimer);
  state.scanTimer = state.bpmTimer = 0;
}

async function refreshScan() {
  clearTimeout(state.scanTimer);
  const wasScanning = state.scan && state.scan.state === "scanning";
  let scan;
  try {
    scan = await call("/api/library/scan");
  } catch (err) {
    if (!state.user) return;
    showError(err);
    state.scanTimer = setTimeout(refreshScan, SCAN_POLL_MS * 5);
    return;
  }
  if (!state.user) return;
  state.scan = scan;
  renderScan();
  if (scan.state === "scanning") {
    state.scanTimer = setTimeout(refreshScan, SCAN_POLL_MS);
  } else if (wasScanning) {
    render(); // the catalog changed: show what the scan found
  }
  refreshBPM();
}

async function refreshBPM() {
  clearTimeout(state.bpmTimer);
  try {
    state.bpm = await call("/api/library/bpm");
  } catch (err) {
    if (state.user) showError(err);
    return;
  }
  if (!state.user) return;
  renderBPM();
  if (state.bpm.pending > 0) state.bpmTimer = setTimeout(refreshBPM, BPM_POLL_MS);
}

function phaseText(phase) {
  const demo = /^writing demo library(?: \((\d+)\/(\d+)\))?$/.exec(phase || "");
  if (demo) return t("library.scan.phase.demo", { done: demo[1] ?? 0, total: demo[2] ?? "…" });
  const known = ["starting", "walking", "reading", "finishing", "done"];
  return known.includes(phase) ? t(`library.scan.phase.${phase}`) : phase;
}

function renderScan() {
  const scan = state.scan;
  if (!scan) return;
  const scanning = scan.state === "scanning";
  // A scan counts songs from zero as it goes; until it has some, the last scan's count stands.
  const songs = scanning && !scan.songs && scan.last_scan ? scan.last_scan.songs : scan.songs;
  const summary = [plural("library.count.songs", songs)];
  if (scan.demo) summary.push(t("library.scan.demo"));
  if (!scanning && scan.last_scan) {
    summary.push(t("library.scan.last", { files: scan.last_scan.files, seconds: seconds(scan.last_scan.seconds) }));
  }
  $("#scan-summary").textContent = summary.join(" · ");
  $("#scan").dataset.state = scan.state;
  $("#rescan").disabled = scanning;

  $("#scan-progress").hidden = !scanning;
  if (scanning) {
    const bar = $("#scan-bar");
    let text = phaseText(scan.phase);
    if (scan.files_to_read > 0) {
      text += " — " + t("library.scan.progress", { read: scan.files_read, total: scan.files_to_read,
        rate: Math.round(scan.files_per_second || 0) });
      bar.max = scan.files_to_read;
      bar.value = scan.files_read;
    } else {
      bar.removeAttribute("value"); // indeterminate while walking or writing the demo
    }
    $("#scan-phase").textContent = text;
  }

  if (scan.failure) showMessage(t("library.scan.failed", { message: scan.failure }), "error");

  const errors = scan.errors && scan.errors.length ? scan.errors : (scan.last_scan ? scan.last_scan.errors : []);
  const details = $("#scan-errors");
  details.hidden = errors.length === 0;
  $("#scan-errors-summary").textContent = plural("library.scan.errors", errors.length);
  $("#scan-errors-list").replaceChildren(...errors.map((e) =>
    el("li", {}, el("code", {}, e.path), " — ", e.reason)));
}

function renderBPM() {
  const bpm = state.bpm;
  const line = $("#bpm-status");
  line.hidden = !bpm || bpm.pending === 0;
  if (!line.hidden) line.textContent = t("library.bpm.queue", { pending: bpm.pending, analyzed: bpm.analyzed });
}

$("#rescan").addEventListener("click", async () => {
  try {
    state.scan = await call("/api/library/scan", { method: "POST" });
    clearError();
    renderScan();
    state.scanTimer = setTimeout(refreshScan, SCAN_POLL_MS);
  } catch (err) {
    showError(err);
    refreshScan();
  }
});

// --- Routes -------------------------------------------------------------------------------

/** The view named by the hash: {kind: "home"|"artist"|"album"|"song"|"graph", id, q, rest}. */
function currentRoute() {
  let hash = location.hash.replace(/^#/, "");
  try { hash = decodeURIComponent(hash); } catch (_) { /* a stray % in a typed address: use it as it is */ }
  if (hash === "graph" || hash.startsWith("graph/")) return { kind: "graph", rest: hash.slice("graph/".length) };
  const match = /^(artist|album|song)\/(\d+)$/.exec(hash);
  if (match) return { kind: match[1], id: Number(match[2]) };
  if (hash.startsWith("search/")) return { kind: "home", q: hash.slice("search/".length) };
  if (hash === "map") return { kind: "map" };
  return { kind: "home", q: "" };
}

function searchHash(q) {
  return q ? `#search/${encodeURIComponent(q)}` : "";
}

let searchDelay = 0;

function applySearch() {
  clearTimeout(searchDelay);
  const q = search.value.trim();
  const route = currentRoute();
  if (route.kind === "home") {
    if ((route.q || "") === q) return;
    history.replaceState(null, "", location.pathname + location.search + searchHash(q));
    render();
  } else if (q) {
    location.hash = searchHash(q); // a new history entry: back returns to the album
  }
}

search.addEventListener("input", () => {
  clearTimeout(searchDelay);
  searchDelay = setTimeout(applySearch, SEARCH_DELAY_MS);
});
$("#search-form").addEventListener("submit", (event) => { event.preventDefault(); applySearch(); });

window.addEventListener("hashchange", () => render({ focus: true }));

/** Shows the view of the current hash; a newer render makes an older one's answers moot.
 *  The view is no live region: a search announces its counts, a followed link moves focus. */
async function render({ focus = false } = {}) {
  if (!state.user) return;
  const token = ++state.renderToken;
  const route = currentRoute();
  if (await showGraphView(route)) return;
  if (document.activeElement !== search) search.value = route.q || ""; // the box shows the search of the view
  view.setAttribute("aria-busy", "true");
  try {
    let content;
    if (route.kind === "artist") content = await artistView(route.id);
    else if (route.kind === "album") content = await albumView(route.id);
    else if (route.kind === "song") content = await songView(route.id);
    else if (route.kind === "map") content = await mapView({ home: home(), isCurrent: () => currentRoute().kind === "map" });
    else content = await homeView(route.q || "");
    if (token !== state.renderToken) return;
    crumbs.replaceChildren(...content.crumbs.map((c, i, all) => el("li", {},
      i === all.length - 1 ? el("span", { "aria-current": "page" }, c.label) : el("a", { href: c.href }, c.label))));
    view.replaceChildren(...content.nodes);
    view.dataset.view = route.kind;
    markPlaying();
    clearError();
    if (content.found) announce(content.found);
    if (focus && route.kind !== "home") {
      const heading = view.querySelector("#related-heading") || view.querySelector("h2");
      if (heading) { heading.tabIndex = -1; heading.focus({ preventScroll: false }); }
    }
  } catch (err) {
    if (token !== state.renderToken) return;
    if (err instanceof APIError && err.status === 401) return; // showSignIn has run
    showError(err);
    crumbs.replaceChildren(el("li", {}, el("a", { href: "#" }, t("library.crumbs.home"))));
    view.replaceChildren();
  } finally {
    if (token === state.renderToken) view.removeAttribute("aria-busy");
  }
}

/** The graph explorer (graph-view.js, loaded on first use) on #graph, the tables elsewhere;
 *  true when the explorer is shown. */
async function showGraphView(route) {
  const graph = route.kind === "graph";
  $("#browse").hidden = graph;
  if (!graph && !$("#explorer").hidden) (await import("/library/graph-view.js")).hideExplorer();
  if (graph) (await import("/library/graph-view.js")).showExplorer($("#explorer"), route.rest);
  return graph;
}

const home = () => ({ label: t("library.crumbs.home"), href: "#" });

async function homeView(q) {
  if (!q) {
    const { artists } = await call("/api/library/artists");
    return { crumbs: [home()], nodes: [artistSection(artists, t("library.artists.heading"), 2, t("library.artists.empty"))] };
  }
  const query = encodeURIComponent(q);
  const [artists, albums, songs] = await Promise.all([
    call(`/api/library/artists?q=${query}`),
    call(`/api/library/albums?q=${query}`),
    call(`/api/library/songs?q=${query}`),
  ]);
  const nodes = [
    el("h2", { class: "view-heading" }, t("library.search.results", { q })),
    artistSection(artists.artists, t("library.artists.heading"), 3),
  ];
  if (albums.albums.length) nodes.push(albumSection(albums.albums, t("library.albums.heading"), 3));
  nodes.push(el("section", { id: "song-results", "aria-labelledby": "song-results-heading" },
    el("h3", { id: "song-results-heading" }, t("library.songs.matching")),
    songs.songs.length ? songTable(songs.songs, { album: true }) : el("p", { class: "empty" }, t("library.songs.none"))));
  const found = t("library.search.found", { artists: plural("library.count.artists", artists.artists.length),
    albums: plural("library.count.albums", albums.albums.length), songs: plural("library.count.songs", songs.songs.length) });
  return { crumbs: [home(), { label: t("library.crumbs.search", { q }) }], nodes, found };
}

function artistSection(artists, heading, level = 2, empty = t("library.artists.none")) {
  const list = artists.length
    ? el("ul", { id: "artists", class: "artists" }, artists.map((a) => el("li", {},
      el("a", { href: `#artist/${a.id}` }, a.name),
      el("span", { class: "meta" }, `${plural("library.count.albums", a.album_count)} · ${plural("library.count.songs", a.song_count)}`))))
    : el("p", { class: "empty" }, empty);
  return el("section", { class: "artists-section", "aria-labelledby": "artists-heading" },
    el(`h${level}`, { id: "artists-heading" }, heading), list);
}

function albumSection(albums, heading, level = 3) {
  albums.forEach(rememberAlbum);
  return el("section", { class: "albums-section", "aria-labelledby": "albums-heading" },
    el(`h${level}`, { id: "albums-heading" }, heading),
    el("ul", { id: "albums", class: "albums" }, albums.map((a) => el("li", {},
      el("a", { href: `#album/${a.id}` },
        coverImage(a.cover_url, THUMB, t("library.album.coverAlt", { album: a.title })),
        el("span", { class: "album-title" }, a.title),
        el("span", { class: "meta" }, [a.artist, a.year].filter(Boolean).join(" · ")))))));
}

function rememberAlbum(album) {
  state.albums.set(album.id, album);
}

async function artistView(id) {
  const { artist, albums, songs } = await call(`/api/library/artists/${id}`);
  const nodes = [el("h2", { class: "view-heading" }, artist.name),
    el("p", { class: "meta" }, `${plural("library.count.albums", artist.album_count)} · ${plural("library.count.songs", artist.song_count)}`)];
  if (albums.length) nodes.push(albumSection(albums, t("library.albums.heading")));
  const elsewhere = songs.filter((s) => s.album_artist_id !== id);
  if (elsewhere.length) {
    nodes.push(el("section", { class: "elsewhere", "aria-labelledby": "elsewhere-heading" },
      el("h3", { id: "elsewhere-heading" }, t("library.artist.appearsOn")), songTable(elsewhere, { album: true })));
  }
  return { crumbs: [home(), { label: artist.name }], nodes };
}

async function albumView(id, selected = null) {
  const { album, songs } = await call(`/api/library/albums/${id}`);
  rememberAlbum(album);
  songs.sort((a, b) => (a.disc ?? 1) - (b.disc ?? 1) || (a.track ?? 0) - (b.track ?? 0));
  const meta = [album.artist, album.year, album.genre, plural("library.count.songs", album.song_count), duration(album.duration)]
    .filter((x) => x !== null && x !== undefined && x !== "");
  const header = el("div", { class: "album-header" },
    coverImage(album.cover_url, COVER, t("library.album.coverAlt", { album: album.title }), "cover large"),
    el("div", {},
      el("h2", { class: "view-heading" }, album.title),
      el("p", { class: "meta" }, el("a", { href: `#artist/${album.artist_id}` }, album.artist),
        " · ", meta.slice(1).join(" · ")),
      el("button", { type: "button", class: "primary", onclick: () => play(songs, 0) }, t("library.album.playAll"))));
  const main = el("div", { class: "album-main" }, header, songTable(songs, { selected: selected && selected.id }));
  const nodes = [selected ? el("div", { class: "album-layout" }, main, await relatedSection(selected)) : main];
  const crumbsList = [home(), { label: album.artist, href: `#artist/${album.artist_id}` },
    selected ? { label: album.title, href: `#album/${album.id}` } : { label: album.title }];
  if (selected) crumbsList.push({ label: selected.title });
  return { crumbs: crumbsList, nodes };
}

async function songView(id) {
  const song = await call(`/api/library/songs/${id}`);
  return albumView(song.album_id, song);
}

async function relatedSection(song) {
  const related = await call(`/api/library/songs/${song.id}/related`);
  const group = (key, songs) => el("section", { class: `related-group ${key}` },
    el("h4", {}, t(`library.related.${key}`)),
    songs.length
      ? el("ul", {}, songs.map((s) => el("li", {},
        playButton(s, () => play([s], 0)),
        el("div", { class: "related-song" },
          el("a", { href: `#song/${s.id}` }, s.title),
          el("span", { class: "meta" }, [s.artist, s.album, s.year].filter(Boolean).join(" · "), " · ", duration(s.duration))))))
      : el("p", { class: "empty" }, t(`library.related.${key}.none`)));
  return el("section", { id: "related", class: "related", "aria-labelledby": "related-heading" },
    el("h3", { id: "related-heading" }, t("library.related.heading", { title: song.title })),
    group("covers", related.covers), group("identical", related.identical));
}

function playButton(song, action) {
  return el("button", { type: "button", class: "play icon", "data-play": song.id, onclick: action,
    "aria-label": t("library.song.play", { title: song.title }), title: t("library.song.play", { title: song.title }) },
    playIcon());
}

/** A table of songs with a play button each; the queue of a play is the whole table. */
function songTable(songs, { album = false, selected = null } = {}) {
  const head = el("tr", {},
    el("th", { scope: "col", class: "play-col" }, el("span", { class: "visually-hidden" }, t("library.song.play.column"))),
    el("th", { scope: "col", class: "track" }, t("library.song.track")),
    el("th", { scope: "col", class: "title" }, t("library.song.title")),
    el("th", { scope: "col", class: "artist" }, t("library.song.artist")),
    album ? el("th", { scope: "col", class: "album" }, t("library.song.album")) : null,
    el("th", { scope: "col", class: "duration" }, t("library.song.duration")),
    el("th", { scope: "col", class: "bpm" }, t("library.song.bpm")));
  const rows = songs.map((s, index) => el("tr", { "data-song-id": s.id, class: s.id === selected ? "selected" : null,
    "aria-current": s.id === selected ? "true" : null },
    el("td", { class: "play-col" }, playButton(s, () => play(songs, index))),
    el("td", { class: "track" }, s.track ?? ""),
    el("td", { class: "title" }, el("a", { href: `#song/${s.id}`, title: t("library.song.related") }, s.title),
      el("span", { class: "sub" }, s.artist)),
    el("td", { class: "artist" }, s.artist_id ? el("a", { href: `#artist/${s.artist_id}` }, s.artist) : s.artist),
    album ? el("td", { class: "album" }, el("a", { href: `#album/${s.album_id}` }, s.album)) : null,
    el("td", { class: "duration" }, duration(s.duration)),
    el("td", { class: "bpm" }, bpmCell(s))));
  return el("table", { class: "songs" }, el("thead", {}, head), el("tbody", {}, rows));
}

function bpmCell(song) {
  if (song.bpm === null || song.bpm === undefined) {
    return el("span", { class: "hint", title: t("library.bpm.pendingHint") }, "—");
  }
  const value = Number.isInteger(song.bpm) ? String(song.bpm) : song.bpm.toFixed(1);
  const source = song.bpm_source === "tag" ? "tag" : song.bpm_source === "analysis" ? "analysis" : null;
  return [el("span", { class: "value" }, value), source ? " " : null,
    source ? el("span", { class: "hint", title: t(`library.bpm.${source}.title`) }, t(`library.bpm.${source}`)) : null];
}

// --- Player -------------------------------------------------------------------------------

function play(queue, index) {
  state.queue = queue.slice();
  state.index = index;
  startCurrent();
}

function startCurrent() {
  const song = state.queue[state.index];
  if (!song) return;
  $("#player").hidden = false;
  audio.src = song.stream_url;
  const started = audio.play();
  if (started) started.catch((err) => { if (err.name !== "AbortError") showError(err); });
  const title = $("#player-title");
  title.textContent = song.title;
  title.href = `#song/${song.id}`;
  $("#player-artist").textContent = `${song.artist} — ${song.album}`;
  $("#player-prev").disabled = state.index <= 0;
  $("#player-next").disabled = state.index >= state.queue.length - 1;
  showPlayerCover(song);
  markPlaying();
}

async function showPlayerCover(song) {
  const img = $("#player-cover");
  const none = $("#player-cover-none");
  let url = song.has_picture ? song.cover_url : null;
  if (!url) {
    let album = state.albums.get(song.album_id);
    if (!album) {
      try { album = (await call(`/api/library/albums/${song.album_id}`)).album; rememberAlbum(album); } catch (_) { album = null; }
    }
    if (state.queue[state.index] !== song) return; // another song started meanwhile
    url = album && album.has_cover ? album.cover_url : null;
  }
  img.hidden = !url;
  none.hidden = !!url;
  if (url) {
    img.src = withSize(url, 128);
    img.alt = t("library.album.coverAlt", { album: song.album });
  } else {
    img.removeAttribute("src");
  }
}

function stopPlayer() {
  audio.pause();
  audio.removeAttribute("src");
  audio.load();
  state.queue = [];
  state.index = -1;
  $("#player").hidden = true;
}

function markPlaying() {
  const song = state.queue[state.index];
  for (const row of view.querySelectorAll("tr[data-song-id]")) {
    const playing = !!song && Number(row.dataset.songId) === song.id;
    row.classList.toggle("playing", playing);
  }
}

function step(delta) {
  const next = state.index + delta;
  if (next < 0 || next >= state.queue.length) return;
  state.index = next;
  startCurrent();
}

$("#player-prev").addEventListener("click", () => step(-1));
$("#player-next").addEventListener("click", () => step(1));
audio.addEventListener("ended", () => { if (state.index < state.queue.length - 1) step(1); });
audio.addEventListener("error", () => {
  if (!audio.getAttribute("src")) return;
  const song = state.queue[state.index];
  showMessage(t("library.player.failed", { title: song ? song.title : "", message: audio.error ? audio.error.message || audio.error.code : "" }), "error");
});

// --- Language changes: re-render what was built with t() ---------------------------------------

document.addEventListener("change", (event) => {
  if (event.target && event.target.id === "language" && state.user) {
    renderScan();
    renderBPM();
    render();
  }
});

boot();
