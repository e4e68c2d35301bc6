// The radio page's discovery (docs/radio.md, "Community: follow, discovery and search"):
// tabs Near you / Popular / Favourites / Activity over GET /api/radio/discover/shows and
// /episodes and GET /api/radio/activity, a Follow button on each show (PUT/DELETE
// /api/radio/shows/{id}/follow) and a search box with results as you type (debounced,
// GET /api/radio/search). "Near you" asks the browser for the position only when the listener
// presses "Use my position" (navigator.geolocation, their consent), or takes a point picked on
// the small map (an equirectangular grid: x = longitude, y = latitude) or typed in the fields;
// a signed-in listener whose profile has a position starts from it (they gave it on their
// account page). The position is only sent as the lat/lon of the list's request, never stored.
// Broadcasters' texts are only ever set as text, never as HTML.
import { api } from "/common/api.js";
import { $, announce, el, svg } from "/common/dom.js";
import { lang, number, plural } from "/common/format.js";
import { t } from "/common/i18n.js";
import { playIcon } from "/common/icons.js";

const SEARCH_DELAY_MS = 250;
const LIST_LIMIT = 20;

const state = {
  tab: "popular",
  position: null, // {lat, lon} chosen by the listener
  profileAsked: false, // whether the profile's position was looked for (once per sign-in)
  shows: null,
  episodes: null,
  events: null,
  signedIn: false,
  needsSignIn: false,
  searchTimer: 0,
  searchAbort: null,
  request: 0,
};

function showError(text) {
  const line = $("#discover-error");
  line.textContent = text || "";
  line.hidden = !text;
}

const message = (err) => (err && err.message ? err.message : String(err));

// --- Tabs -----------------------------------------------------------------------------------

function selectTab(tab, focus = false, quiet = false) {
  state.tab = tab;
  for (const button of document.querySelectorAll("#discover-tabs [role=tab]")) {
    const selected = button.dataset.tab === tab;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    if (selected && focus) button.focus();
  }
  $("#discover-panel").setAttribute("aria-labelledby", `tab-${tab}`);
  $("#near-position").hidden = tab !== "near";
  load(quiet);
}

$("#discover-tabs").addEventListener("click", (event) => {
  const button = event.target.closest("[role=tab]");
  if (button) selectTab(button.dataset.tab);
});
$("#discover-tabs").addEventListener("keydown", (event) => {
  const tabs = [...document.querySelectorAll("#discover-tabs [role=tab]")];
  const i = tabs.findIndex((b) => b.dataset.tab === state.tab);
  const step = { ArrowRight: 1, ArrowLeft: -1, Home: -i, End: tabs.length - 1 - i }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  selectTab(tabs[(i + step + tabs.length) % tabs.length].dataset.tab, true);
});

// --- Loading the lists ----------------------------------------------------------------------

/** Loads the tab's lists; `quiet` for the page's first answer, which is what the page shows, not a
 * change to announce (the live list's rule too). */
async function load(quiet = false) {
  const request = ++state.request;
  const tab = state.tab;
  showError("");
  state.needsSignIn = false;
  state.shows = state.episodes = state.events = null;
  if (tab === "near" && !state.position && !state.profileAsked) {
    state.profileAsked = true;
    const position = await profilePosition();
    if (request !== state.request) return;
    if (position) { choose(position.lat, position.lon, quiet); return; }
  }
  if (tab === "near" && !state.position) { $("#discover-panel").setAttribute("aria-busy", "false"); render(); return; }
  $("#discover-panel").setAttribute("aria-busy", "true");
  try {
    if (tab === "activity") {
      const events = await api(`/api/radio/activity?limit=${LIST_LIMIT}`);
      if (request !== state.request) return;
      state.events = events;
    } else {
      let query = `order=${tab}&limit=${LIST_LIMIT}`;
      if (tab === "near") query += `&lat=${state.position.lat}&lon=${state.position.lon}`;
      const [shows, episodes] = await Promise.all([
        api(`/api/radio/discover/shows?${query}`), api(`/api/radio/discover/episodes?${query}`)]);
      if (request !== state.request) return;
      state.shows = shows;
      state.episodes = episodes;
    }
  } catch (err) {
    if (request !== state.request) return;
    if (err.status === 401) state.needsSignIn = true;
    else showError(t("radio.discover.failed", { message: message(err) }));
  }
  $("#discover-panel").setAttribute("aria-busy", "false");
  render();
  const count = (state.shows || []).length + (state.episodes || []).length + (state.events || []).length;
  if (!state.needsSignIn && !quiet) announce(plural("radio.discover.results", count));
}

function render() {
  $("#discover-signin").hidden = !state.needsSignIn;
  const near = state.tab === "near" && !state.position;
  $("#discover-empty").hidden = near || state.needsSignIn || state.shows === null && state.events === null
    || (state.shows || []).length + (state.episodes || []).length + (state.events || []).length > 0;
  $("#discover-empty").textContent = t(state.tab === "favourites" ? "radio.discover.noFavourites" : "radio.discover.empty");
  $("#discover-lists").hidden = state.shows === null;
  $("#discover-shows").replaceChildren(...(state.shows || []).map(showItem));
  $("#discover-episodes").replaceChildren(...(state.episodes || []).map(episodeItem));
  $("#discover-activity").hidden = state.events === null;
  $("#discover-activity").replaceChildren(...(state.events || []).map(eventItem));
}

function distance(item) {
  return state.tab === "near" && item.distance_km !== null && item.distance_km !== undefined
    ? t("radio.discover.km", { km: number(item.distance_km) }) : null;
}

function showItem(s) {
  const following = !!s.followed_by_you;
  const facts = [distance(s), state.tab === "popular" ? plural("radio.discover.recentListens", s.recent_listens) : null,
    s.owner, s.live ? t("radio.player.live") : null].filter(Boolean).join(" · ");
  return el("li", { "data-show-id": s.id },
    el("a", { class: "show-title", href: s.url }, s.title),
    el("span", { class: "meta" }, facts),
    el("button", { type: "button", class: "follow", "data-follow-show": s.id, "aria-pressed": String(following),
      "aria-label": t(following ? "radio.discover.unfollowShow" : "radio.discover.followShow", { show: s.title }),
      onclick: () => follow(s) }, t(following ? "radio.discover.following" : "radio.discover.follow")));
}

function episodeItem(e) {
  const facts = [distance(e), state.tab === "popular" ? plural("radio.discover.recentListens", e.recent_listens) : null,
    new Date(e.last_activity).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" })]
    .filter(Boolean).join(" · ");
  return el("li", { "data-episode-id": e.id },
    e.state === "published" ? el("button", { type: "button", class: "play icon", "aria-label": t("radio.episodes.play", { title: e.title }),
      onclick: () => document.dispatchEvent(new CustomEvent("radio:play-episode", { detail: e })) }, playIcon()) : null,
    el("span", { class: "episode-title" }, e.title), " ",
    el("a", { class: "sub", href: e.show_url }, e.show_title),
    el("span", { class: "meta" }, facts));
}

function eventItem(event) {
  const when = new Date(event.at).toLocaleString(lang(), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  return el("li", { "data-kind": event.kind },
    el("span", { class: "meta" }, when), " ",
    t(`radio.discover.event.${event.kind}`, { author: event.author, episode: event.episode_title || "" }), " ",
    el("a", { href: event.show_url }, event.show_title));
}

async function follow(show) {
  const following = !!show.followed_by_you;
  try {
    await api(`/api/radio/shows/${encodeURIComponent(show.id)}/follow`, { method: following ? "DELETE" : "PUT" });
    show.followed_by_you = !following;
    render();
    const again = document.querySelector(`[data-follow-show="${CSS.escape(String(show.id))}"]`);
    if (again) again.focus();
    announce(t(following ? "radio.discover.unfollowed" : "radio.discover.followed", { show: show.title }));
  } catch (err) {
    if (err.status === 401) { state.needsSignIn = true; render(); $("#discover-name").focus(); }
    else showError(t("radio.discover.failed", { message: message(err) }));
  }
}

$("#discover-signin").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    await api("/api/session", { method: "POST", body: { name: $("#discover-name").value.trim(), password: $("#discover-password").value } });
    $("#discover-password").value = "";
    state.profileAsked = false;
    load();
  } catch (err) {
    showError(t("library.signin.failed", { message: message(err) }));
  }
});

// --- Near you: the position -----------------------------------------------------------------

/** The signed-in listener's profile position, or null (signed out, or none given). */
async function profilePosition() {
  try {
    const { user } = await api("/api/session");
    if (!user) return null;
    const me = await api("/api/radio/profile");
    return me.latitude == null || me.longitude == null ? null : { lat: me.latitude, lon: me.longitude };
  } catch (_) {
    return null;
  }
}

function choose(lat, lon, quiet = false) {
  lat = Math.round(lat * 100) / 100;
  lon = Math.round(lon * 100) / 100;
  if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) { showError(t("radio.discover.badPosition")); return; }
  state.position = { lat, lon };
  $("#near-lat").value = String(lat);
  $("#near-lon").value = String(lon);
  const marker = $("#near-marker");
  marker.setAttribute("cx", String(lon + 180));
  marker.setAttribute("cy", String(90 - lat));
  marker.setAttribute("visibility", "visible");
  load(quiet);
}

function buildMap() {
  const map = $("#near-map");
  const lines = [];
  for (let lon = 30; lon < 360; lon += 30) lines.push(svg("line", { x1: lon, y1: 0, x2: lon, y2: 180, class: "grid" }));
  for (let lat = 30; lat < 180; lat += 30) lines.push(svg("line", { x1: 0, y1: lat, x2: 360, y2: lat, class: lat === 90 ? "equator" : "grid" }));
  map.replaceChildren(svg("rect", { x: 0, y: 0, width: 360, height: 180, class: "sea" }), ...lines,
    svg("circle", { id: "near-marker", r: 4, cx: 0, cy: 0, visibility: "hidden" }));
  map.addEventListener("click", (event) => {
    const box = map.getBoundingClientRect();
    choose(90 - ((event.clientY - box.top) / box.height) * 180, ((event.clientX - box.left) / box.width) * 360 - 180);
  });
}

$("#near-locate").addEventListener("click", () => {
  if (!navigator.geolocation) { showError(t("radio.discover.noGeolocation")); return; }
  navigator.geolocation.getCurrentPosition(
    (found) => choose(found.coords.latitude, found.coords.longitude),
    (err) => showError(t("radio.discover.geolocationFailed", { message: err.message || String(err.code) })),
    { maximumAge: 600_000, timeout: 15_000 });
});

$("#near-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const lat = Number($("#near-lat").value), lon = Number($("#near-lon").value);
  if ($("#near-lat").value.trim() === "" || $("#near-lon").value.trim() === "") { showError(t("radio.discover.badPosition")); return; }
  choose(lat, lon);
});

// --- Search ---------------------------------------------------------------------------------

async function search() {
  const q = $("#search-q").value.trim();
  const kind = $("#search-kind").value;
  if (state.searchAbort) state.searchAbort.abort();
  if (!q) { $("#search-results").replaceChildren(); $("#search-results").hidden = true; return; }
  const abort = new AbortController();
  state.searchAbort = abort;
  try {
    const hits = await api(`/api/radio/search?q=${encodeURIComponent(q)}&kind=${kind}&limit=10`, { signal: abort.signal });
    $("#search-results").hidden = false;
    $("#search-results").replaceChildren(...(hits.length ? hits.map((hit) => el("li", { "data-kind": hit.kind, "data-id": hit.id },
      el("a", { href: hit.url }, hit.title), hit.detail || hit.show_title
        ? el("span", { class: "meta" }, [hit.show_title, hit.detail].filter(Boolean).join(" · ").slice(0, 140)) : null))
      : [el("li", { class: "empty" }, t("radio.discover.noResults"))]));
    announce(plural("radio.discover.results", hits.length));
  } catch (err) {
    if (err.name !== "AbortError") showError(t("radio.discover.failed", { message: message(err) }));
  }
}

function searchSoon() {
  clearTimeout(state.searchTimer);
  state.searchTimer = setTimeout(search, SEARCH_DELAY_MS);
}

$("#search-q").addEventListener("input", searchSoon);
$("#search-kind").addEventListener("change", search);
$("#search-form").addEventListener("submit", (event) => { event.preventDefault(); clearTimeout(state.searchTimer); search(); });

document.addEventListener("change", (event) => {
  if (event.target && event.target.id === "language") render();
});

buildMap();
selectTab("popular", false, true);
