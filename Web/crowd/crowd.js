// The crowd page: where groups of people are right now, anonymously. The browser's position
// (navigator.geolocation) is sent with POST /api/crowd/reports — the report and the search in
// one call — and the groups found are pinned on the map (map.js) with circles of 2 × people + 1 m.
// A pin opens a location panel (GET /api/crowd/locations/{id}): distance, people, average age,
// men and women, the latest comments; a comment goes with a report to the location the device
// is in, so the comment box opens only on that location. When the server has a reverse geocoder
// (<meta name="crowd-geocoder" content="on">, written by `serve --crowd-geocoder`), the panel also
// shows the location's place name, asked of this server (GET /api/crowd/place), never of the
// geocoder itself: the geocoder sees neither this device's address nor its token.
//
// The position is asked for once, on the first visit, with one button (a permission prompt should
// follow a gesture and say why); after a position was had, later visits use it at once. The
// Permissions API tells a blocked position apart, so the page says how to allow it.
//
// The device token is random (crypto.randomUUID), made once and kept in localStorage; it is
// never shown. Options (age, sex, pin colour, circles) are kept in localStorage too. Server
// strings (comments, error messages) are only ever set as text, never as HTML.
import { api } from "/common/api.js";
import { $, el } from "/common/dom.js";
import { lang, number, plural } from "/common/format.js";
import { t } from "/common/i18n.js";
import { CrowdMap } from "/crowd/map.js";

const DEVICE_KEY = "quintet.crowd.device";
const OPTIONS_KEY = "quintet.crowd.options";
const LOCATE_KEY = "quintet.crowd.locate"; // "auto" once a position was had: later visits locate at once
const GEOCODER = (() => { const meta = $('meta[name="crowd-geocoder"]'); return !!meta && meta.content === "on"; })();
const EARTH_RADIUS = 6371008.8; // m, the sphere of the server's haversine
const START_SPAN = 500; // m across the map's smaller side at the first fix
const LIMITS = { radius: [15, 2000], people: [1, 100], age: [0, 150], comment: 200 };
const DEFAULT_OPTIONS = { age: null, sex: "", colour: "#c2185b", circles: true };
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f<>]/u; // the server refuses these in comments

const state = {
  position: null, // {lat, lon, accuracy}
  watching: false,
  own: null, // the `location` of the last report's answer: the location this device is in
  locations: [], // the last search's list
  truncated: false,
  panel: null, // {location, detail} of the open panel
  options: { ...DEFAULT_OPTIONS },
  busy: false,
  reports: 0,
};

// --- Small helpers ---------------------------------------------------------------------------

/** "42 m", "1.25 km". */
function distance(metres) {
  if (!Number.isFinite(metres)) return "—";
  if (metres < 1000) return t("crowd.unit.m", { value: number(Math.round(metres)) });
  const km = metres / 1000;
  return t("crowd.unit.km", { value: number(km, km < 10 ? (Number.isInteger(km) ? 0 : 2) : 1) });
}

/** Great-circle distance in metres on the server's sphere (for a panel opened without a list entry). */
function haversine(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Texts that are re-made when the language changes: element → () => string. */
const texts = new Map();

function say(selector, make) {
  const node = $(selector);
  if (!make) {
    texts.delete(node);
    node.textContent = "";
    if (node.classList.contains("error")) node.hidden = true;
    return;
  }
  texts.set(node, make);
  node.textContent = make();
  node.hidden = false;
}

const showError = say;

function storage() {
  try { return window.localStorage; } catch (_) { return null; }
}

/** The device token: random, made once, kept in this browser. Never shown. */
function deviceToken() {
  const store = storage();
  let token = store && store.getItem(DEVICE_KEY);
  if (token && token.length >= 1 && token.length <= 64) return token;
  if (crypto.randomUUID) token = crypto.randomUUID();
  else token = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  try { store && store.setItem(DEVICE_KEY, token); } catch (_) { /* kept for this visit only */ }
  return token;
}
const device = deviceToken();

/** A readable line for a failed request (an APIError). */
function problem(err) {
  if (err.status === 0) return t("crowd.error.network");
  if (err.status === 429) return t("crowd.error.rate", { message: err.message });
  if (err.field) return t("crowd.error.field", { message: err.message, field: err.field });
  return t("crowd.error.other", { message: err.message || String(err) });
}

// --- The map ---------------------------------------------------------------------------------

function mapLabels() {
  return {
    map: t("crowd.map.label"),
    roleDescription: t("crowd.map.heading"),
    zoomIn: t("crowd.map.zoomIn"),
    zoomOut: t("crowd.map.zoomOut"),
    recenter: t("crowd.map.recenter"),
    self: t("crowd.map.self"),
    grid: t("crowd.map.grid"),
    tiles: tileAttribution,
    tilesFailed: t("crowd.map.tilesFailed"),
    pin: (l) => (l.people === null || l.people === undefined
      ? t("crowd.map.pinHidden", { id: l.id })
      : plural("crowd.map.pin", l.people, { id: l.id, distance: distance(l.distance_m) })),
  };
}

/** A URL template's origin if it is an http(s) template with {z}, {x} and {y}, else null. */
function templateOrigin(template) {
  if (!/\{z\}/.test(template) || !/\{x\}/.test(template) || !/\{y\}/.test(template)) return null;
  try {
    const url = new URL(template.replace(/\{[zxys]\}/g, "0"), location.href);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch (_) {
    return null;
  }
}

/** The tile URL template: <meta name="crowd-tiles"> (the admin's), or ?tiles= in the page's
 *  URL (none turns tiles off). A tile server learns which area is looked at, so a link may only
 *  pick tiles from this server or from the admin's tile server: another origin in ?tiles= is
 *  ignored (else a crafted link could send the user's surroundings to anyone). */
function tileTemplate() {
  const query = new URLSearchParams(location.search).get("tiles");
  const meta = $('meta[name="crowd-tiles"]');
  const configured = meta && templateOrigin(meta.content) ? meta.content : "";
  if (query === null) return { template: configured, ignored: false };
  if (query === "" || query === "none") return { template: "", ignored: false };
  const origin = templateOrigin(query);
  const allowed = origin !== null && (origin === location.origin || (configured && origin === templateOrigin(configured)));
  return allowed ? { template: query, ignored: false } : { template: configured, ignored: true };
}

const { template: tiles, ignored: tilesIgnored } = tileTemplate();
const tileHost = (() => {
  try { return tiles ? new URL(tiles.replace(/\{[zxys]\}/g, "0"), location.href).host : ""; } catch (_) { return ""; }
})();
const tileAttribution = (() => {
  if (!tiles) return "";
  const meta = $('meta[name="crowd-tiles-attribution"]');
  const credit = meta && meta.content ? meta.content : "";
  return [credit, tileHost].filter(Boolean).join(" · ");
})();

const map = new CrowdMap($("#map"), {
  tiles,
  labels: mapLabels(),
  formatDistance: distance,
  onSelect: (location) => openPanel(location),
  onTilesFailed: () => say("#map-privacy", () => `${t("crowd.map.tilesFailedNote", { host: tileHost })} ${t("crowd.map.tilesPrivacy", { host: tileHost })}`),
});
window.crowdMap = map; // for the e2e test and for poking around in the console
if (tilesIgnored) say("#map-note", () => t("crowd.map.tilesIgnored"));
// A tile server learns which area is looked at, roughly where the user is: the page says so.
if (tiles) say("#map-privacy", () => t("crowd.map.tilesPrivacy", { host: tileHost }));

// --- Geolocation -----------------------------------------------------------------------------

function located(position) {
  const first = state.position === null;
  const c = position.coords;
  state.position = { lat: c.latitude, lon: c.longitude, accuracy: c.accuracy };
  map.setSelf(state.position);
  map.setSearchRadius(readSearch().radius || 0);
  say("#geo-status", () => t("crowd.geo.located", {
    lat: number(state.position.lat, 5), lon: number(state.position.lon, 5),
    accuracy: distance(state.position.accuracy) }));
  $("#geo-problem").hidden = true;
  $("#send-button").disabled = state.busy;
  $("main").dataset.located = "yes";
  if (first) {
    rememberLocating();
    map.fitSpan(state.position.lat, state.position.lon, START_SPAN);
    search();
  }
  if (!state.watching && navigator.geolocation.watchPosition) {
    state.watching = true;
    navigator.geolocation.watchPosition(located, (err) => {
      if (err.code === 1) { state.watching = false; notLocated(err); } // permission withdrawn
    }, { enableHighAccuracy: true, maximumAge: 10_000 });
  }
}

function notLocated(err) {
  const key = !err ? "crowd.geo.unsupported"
    : err.code === 1 ? "crowd.geo.denied"
      : err.code === 3 ? "crowd.geo.timeout" : "crowd.geo.unavailable";
  $("main").dataset.located = "no";
  say("#geo-status", () => t("crowd.geo.none"));
  say("#geo-error", () => (window.isSecureContext === false ? `${t(key)} ${t("crowd.geo.insecure")}` : t(key)));
  $("#geo-problem").hidden = false;
  $("#geo-problem").dataset.reason = !err ? "unsupported" : err.code === 1 ? "denied" : err.code === 3 ? "timeout" : "unavailable";
  if (state.position === null) $("#send-button").disabled = true;
}

function locate() {
  $("#geo-start").hidden = true;
  if (!("geolocation" in navigator)) { notLocated(null); return; }
  say("#geo-status", () => t("crowd.geo.waiting"));
  navigator.geolocation.getCurrentPosition(located, notLocated,
    { enableHighAccuracy: true, timeout: 20_000, maximumAge: 30_000 });
}

$("#geo-retry").addEventListener("click", () => { $("#geo-problem").hidden = true; locate(); });
$("#geo-locate").addEventListener("click", locate);

/** The browser's geolocation permission ("granted", "prompt" or "denied"), or null where the
 *  Permissions API cannot tell (older Safari). */
async function geolocationPermission() {
  try {
    if (!navigator.permissions || !navigator.permissions.query) return null;
    return (await navigator.permissions.query({ name: "geolocation" })).state;
  } catch (_) {
    return null;
  }
}

/** The first visit asks for the position only when the user presses "Find my position" (a
 *  permission prompt should follow a gesture and say why); once a position was had, later
 *  visits locate at once, unless the browser now blocks the position: then the page says how
 *  to allow it instead of asking in vain. A blocked position on a first visit keeps the button
 *  (pressing it says what to do) with the same advice. */
async function startLocating() {
  const store = storage();
  let auto = false;
  try { auto = !!store && store.getItem(LOCATE_KEY) === "auto"; } catch (_) { auto = false; }
  const permission = await geolocationPermission();
  $("main").dataset.permission = permission || "unknown";
  if (auto && permission === "denied") { notLocated({ code: 1 }); return; }
  if (auto) { locate(); return; }
  say("#geo-status", () => (permission === "denied" ? `${t("crowd.geo.why")} ${t("crowd.geo.blocked")}` : t("crowd.geo.why")));
  $("#geo-start").hidden = false;
}

/** Remembers that this browser chose to share its position: later visits use it at once. The
 *  choice is kept when the browser later blocks the position (the page then says how to allow
 *  it, and uses the position again at once once it is allowed). */
function rememberLocating() {
  const store = storage();
  try { if (store) store.setItem(LOCATE_KEY, "auto"); } catch (_) { /* asks again next time */ }
}

// --- The search settings -------------------------------------------------------------------

const radiusInput = $("#radius"), minInput = $("#min-people"), maxInput = $("#max-people");

function integerIn(input, [low, high]) {
  const value = Number(input.value);
  return input.value.trim() !== "" && Number.isInteger(value) && value >= low && value <= high ? value : null;
}

function readSearch() {
  return {
    radius: integerIn(radiusInput, LIMITS.radius),
    min: integerIn(minInput, LIMITS.people),
    max: integerIn(maxInput, LIMITS.people),
  };
}

function showRadius() {
  const radius = Number(radiusInput.value);
  $("#radius-value").textContent = distance(radius);
  map.setSearchRadius(state.position ? radius : 0);
}

/** Keeps min ≤ max: the one just changed wins, the other follows. */
function keepOrder(changed) {
  for (const input of [minInput, maxInput]) {
    const value = Number(input.value);
    if (input.value.trim() !== "" && Number.isFinite(value)) {
      input.value = String(Math.min(LIMITS.people[1], Math.max(LIMITS.people[0], Math.round(value))));
    }
  }
  const min = Number(minInput.value), max = Number(maxInput.value);
  if (minInput.value !== "" && maxInput.value !== "" && min > max) {
    if (changed === minInput) maxInput.value = String(min);
    else minInput.value = String(max);
  }
  maxInput.min = minInput.value || "1";
  minInput.max = maxInput.value || "100";
}

radiusInput.addEventListener("input", showRadius);
minInput.addEventListener("change", () => keepOrder(minInput));
maxInput.addEventListener("change", () => keepOrder(maxInput));

// --- Reports and searches ----------------------------------------------------------------------

/** Checks a comment as the server would; an error line or null. */
function commentProblem(text) {
  const length = [...text].length;
  if (length < 1) return t("crowd.comment.empty");
  if (length > LIMITS.comment) return t("crowd.comment.long", { max: LIMITS.comment, length });
  if (FORBIDDEN.test(text)) return t("crowd.comment.plain");
  return null;
}

/** The report body: position, options and search settings (+ a comment). */
function reportBody(comment) {
  const s = readSearch();
  const body = { device, lat: state.position.lat, lon: state.position.lon, radius: s.radius, min: s.min, max: s.max };
  if (Number.isInteger(state.options.age)) body.age = state.options.age;
  if (state.options.sex === "m" || state.options.sex === "f") body.sex = state.options.sex;
  if (comment) body.comment = comment;
  return body;
}

function searchProblem() {
  const s = readSearch();
  if (s.radius === null) return t("crowd.send.badRadius", { min: LIMITS.radius[0], max: LIMITS.radius[1] });
  if (s.min === null || s.max === null) return t("crowd.send.badPeople", { min: LIMITS.people[0], max: LIMITS.people[1] });
  if (s.min > s.max) return t("crowd.send.badOrder");
  return null;
}

/** Shows a search's answer: pins, the list, the panel refreshed. */
function showLocations(answer) {
  state.locations = Array.isArray(answer && answer.locations) ? answer.locations : [];
  state.truncated = !!(answer && answer.truncated);
  map.setLocations(state.locations);
  renderResults();
  if (state.panel) {
    const fresh = state.locations.find((l) => l.id === state.panel.location.id);
    if (fresh) state.panel.location = fresh;
  }
}

function foundText() {
  const s = readSearch();
  const count = state.locations.length;
  const found = plural("crowd.send.found", count, { radius: distance(s.radius) });
  return state.truncated ? `${found} ${t("crowd.send.truncated")}` : found;
}

/** The search alone, at the first fix: what is around before anything is sent. */
async function search() {
  if (!state.position || searchProblem()) return;
  const s = readSearch();
  const query = new URLSearchParams({ lat: state.position.lat, lon: state.position.lon, radius: s.radius, min: s.min, max: s.max });
  try {
    const answer = await api(`/api/crowd/locations?${query}`);
    if (state.reports > 0) return; // a report answered meanwhile: its list is newer
    showLocations(answer);
    say("#send-status", () => `${foundText()} ${t("crowd.send.notCounted")}`);
  } catch (err) {
    showError("#send-error", () => problem(err));
  }
}

/** Sends a report (with a comment, if any); resolves to the answer or throws. */
async function report(comment) {
  const answer = await api("/api/crowd/reports", { method: "POST", body: reportBody(comment) });
  state.reports += 1;
  state.own = answer && answer.location ? answer.location : null;
  $("main").dataset.reports = String(state.reports);
  showLocations(answer);
  return answer;
}

function ownText() {
  if (!state.own) return "";
  return state.own.people === null || state.own.people === undefined
    ? t("crowd.send.ownHidden", { id: state.own.id })
    : plural("crowd.send.own", state.own.people, { id: state.own.id });
}

function setBusy(busy) {
  state.busy = busy;
  $("#send-button").disabled = busy || !state.position;
  $("#comment-button").disabled = busy;
}

$("#send-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.position || state.busy) return;
  keepOrder(null);
  showError("#send-error", null);
  const bad = searchProblem();
  if (bad) { showError("#send-error", () => bad); return; }
  const comment = $("#send-comment").value;
  if (comment.trim() !== "") {
    const wrong = commentProblem(comment);
    if (wrong) { showError("#send-error", () => wrong); return; }
  }
  setBusy(true);
  say("#send-status", () => t("crowd.send.sending"));
  try {
    await report(comment.trim() !== "" ? comment : undefined);
    $("#send-comment").value = "";
    say("#send-status", () => [foundText(), ownText()].filter(Boolean).join(" "));
    fitRadius();
    if (state.panel) refreshPanel();
  } catch (err) {
    say("#send-status", null);
    showError("#send-error", () => problem(err));
  } finally {
    setBusy(false);
  }
});

/** Zooms out if the search circle does not fit on the map. */
function fitRadius() {
  const radius = readSearch().radius;
  const { width, height } = map.size();
  const across = Math.min(width, height) * (40075016.686 * Math.cos((state.position.lat * Math.PI) / 180)) / (256 * 2 ** map.zoom);
  if (across < 2 * radius) map.fitSpan(state.position.lat, state.position.lon, 2.2 * radius);
  else map.setView(state.position.lat, state.position.lon);
}

// --- The results list (the map's accessible twin) ----------------------------------------------

function renderResults() {
  const list = $("#results-list");
  $("#results-empty").hidden = state.locations.length > 0;
  list.replaceChildren(...state.locations.map((l) => {
    const own = !!(state.own && state.own.id === l.id);
    const people = l.people === null || l.people === undefined ? t("crowd.results.hidden") : plural("crowd.people", l.people);
    let label = t("crowd.results.item", { id: l.id, people, distance: distance(l.distance_m) });
    if (own) label += ` · ${t("crowd.results.here")}`;
    return el("li", {}, el("button", { type: "button", "data-location-id": l.id, class: own ? "own" : "",
      onclick: () => { map.select(l.id); openPanel(l); } }, label));
  }));
}

// --- The location panel ------------------------------------------------------------------------

function openPanel(location) {
  state.panel = { location, detail: null };
  map.select(location.id);
  say("#comment-status", null);
  showError("#comment-error", null);
  $("#comment-text").value = "";
  renderPanel();
  showPlace(state.panel);
  $("#panel").hidden = false;
  if (window.matchMedia && window.matchMedia("(max-width: 899px)").matches) {
    $("#panel").scrollIntoView({ behavior: "smooth", block: "start" });
  }
  refreshPanel();
}

async function refreshPanel() {
  const panel = state.panel;
  if (!panel) return;
  const id = panel.location.id;
  $("#panel").setAttribute("aria-busy", "true");
  try {
    const detail = await api(`/api/crowd/locations/${encodeURIComponent(id)}`);
    if (state.panel !== panel) return;
    panel.detail = detail;
    showError("#panel-error", null);
  } catch (err) {
    if (state.panel !== panel) return;
    panel.detail = null;
    showError("#panel-error", () => (err.status === 404 ? t("crowd.panel.gone") : problem(err)));
  } finally {
    if (state.panel === panel) { $("#panel").setAttribute("aria-busy", "false"); renderPanel(); }
  }
}

/** Place names already asked for this visit: "lat,lon,lang" (0.001°, as the server rounds) →
 *  {name, source, licence}, or null where there is none. */
const places = new Map();

function placeKey(l) {
  return `${Number(l.lat).toFixed(3)},${Number(l.lon).toFixed(3)},${lang().slice(0, 2)}`;
}

/** Asks this server for the place name of the panel's location (when it has a geocoder). */
async function showPlace(panel) {
  const l = panel.location;
  if (!GEOCODER || !Number.isFinite(l.lat) || !Number.isFinite(l.lon)) return;
  const key = placeKey(l);
  if (!places.has(key)) {
    const query = new URLSearchParams({ lat: l.lat, lon: l.lon, lang: lang().slice(0, 2) });
    try {
      places.set(key, await api(`/api/crowd/place?${query}`));
    } catch (err) {
      // No name there (404) is kept for the visit; busy or unavailable (503) is asked again next time.
      if (err.status === 404) places.set(key, null);
    }
  }
  if (state.panel === panel) renderPanel();
}

function renderPlace(l) {
  const node = $("#panel-place");
  const place = GEOCODER && Number.isFinite(l.lat) ? places.get(placeKey(l)) : null;
  node.hidden = !place;
  if (!place) { node.replaceChildren(); return; }
  node.replaceChildren(
    el("span", { class: "place-name" }, String(place.name)),
    el("small", { class: "place-source" }, t("crowd.panel.placeSource", { source: String(place.licence || place.source) })));
}

function renderPanel() {
  const panel = state.panel;
  if (!panel) return;
  const l = { ...panel.location, ...(panel.detail || {}) };
  $("#panel").dataset.locationId = l.id;
  $("#panel-heading").textContent = t("crowd.panel.heading", { id: l.id });
  renderPlace(l);
  const metres = Number.isFinite(panel.location.distance_m) ? panel.location.distance_m
    : state.position && Number.isFinite(l.lat) ? haversine(state.position, l) : NaN;
  $("#panel-distance").textContent = distance(metres);
  const known = (v) => (v === null || v === undefined ? "—" : number(v));
  $("#panel-people").textContent = known(l.people);
  $("#panel-age").textContent = l.avg_age === null || l.avg_age === undefined ? "—" : number(l.avg_age, 1);
  $("#panel-men").textContent = known(l.men);
  $("#panel-women").textContent = known(l.women);

  const comments = panel.detail && Array.isArray(panel.detail.comments) ? panel.detail.comments : [];
  $("#panel-no-comments").hidden = !panel.detail || comments.length > 0;
  $("#panel-comments").replaceChildren(...comments.map((c) => {
    const date = new Date(c.time);
    const valid = !Number.isNaN(date.getTime());
    return el("li", {},
      el("p", { class: "comment-text" }, String(c.text)), // plain text, never HTML
      el("time", { datetime: valid ? date.toISOString() : null },
        valid ? date.toLocaleString(lang(), { hour: "2-digit", minute: "2-digit", day: "numeric", month: "short" }) : null));
  }));

  const here = !!(state.own && state.own.id === l.id);
  $("#comment-form").hidden = !here;
  say("#comment-rule", () => (here ? t("crowd.panel.ruleHere") : t("crowd.panel.ruleElsewhere")));
}

$("#panel-close").addEventListener("click", () => {
  state.panel = null;
  $("#panel").hidden = true;
  map.select(null);
});

$("#comment-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.panel || !state.position || state.busy) return;
  showError("#comment-error", null);
  say("#comment-status", null);
  const text = $("#comment-text").value;
  const wrong = commentProblem(text);
  if (wrong) { showError("#comment-error", () => wrong); return; }
  const bad = searchProblem();
  if (bad) { showError("#comment-error", () => bad); return; }
  const target = state.panel.location.id;
  setBusy(true);
  try {
    await report(text);
    $("#comment-text").value = "";
    say("#send-status", () => [foundText(), ownText()].filter(Boolean).join(" "));
    const landed = state.own ? state.own.id : null;
    if (landed !== null && landed !== target) {
      // The device moved more than 10 m since: the comment went to the location it is in now.
      const there = state.locations.find((l) => l.id === landed) || { ...state.own, distance_m: 0 };
      openPanel(there);
      say("#comment-status", () => t("crowd.panel.moved", { id: landed }));
    } else {
      say("#comment-status", () => t("crowd.panel.posted"));
      await refreshPanel();
    }
  } catch (err) {
    showError("#comment-error", () => problem(err));
  } finally {
    setBusy(false);
  }
});

// --- Options -------------------------------------------------------------------------------------

function loadOptions() {
  const store = storage();
  let saved = {};
  try { saved = JSON.parse((store && store.getItem(OPTIONS_KEY)) || "{}") || {}; } catch (_) { saved = {}; }
  const o = { ...DEFAULT_OPTIONS };
  if (Number.isInteger(saved.age) && saved.age >= LIMITS.age[0] && saved.age <= LIMITS.age[1]) o.age = saved.age;
  if (saved.sex === "m" || saved.sex === "f") o.sex = saved.sex;
  if (typeof saved.colour === "string" && /^#[0-9a-f]{6}$/i.test(saved.colour)) o.colour = saved.colour.toLowerCase();
  if (typeof saved.circles === "boolean") o.circles = saved.circles;
  state.options = o;
  $("#opt-age").value = o.age === null ? "" : String(o.age);
  $("#opt-sex").value = o.sex;
  $("#opt-colour").value = o.colour;
  $("#opt-circles").checked = o.circles;
  map.setStyle({ colour: o.colour, circles: o.circles });
}

function saveOptions() {
  showError("#options-error", null);
  const ageText = $("#opt-age").value.trim();
  const age = Number(ageText);
  let ok = true;
  if (ageText === "") state.options.age = null;
  else if (Number.isInteger(age) && age >= LIMITS.age[0] && age <= LIMITS.age[1]) state.options.age = age;
  else { ok = false; showError("#options-error", () => t("crowd.options.badAge", { min: LIMITS.age[0], max: LIMITS.age[1] })); }
  state.options.sex = $("#opt-sex").value;
  state.options.colour = $("#opt-colour").value;
  state.options.circles = $("#opt-circles").checked;
  map.setStyle({ colour: state.options.colour, circles: state.options.circles });
  const store = storage();
  try { store && store.setItem(OPTIONS_KEY, JSON.stringify(state.options)); } catch (_) { /* this visit only */ }
  return ok;
}

for (const id of ["#opt-age", "#opt-sex", "#opt-colour", "#opt-circles"]) {
  $(id).addEventListener("change", saveOptions);
  $(id).addEventListener("input", () => { if (id !== "#opt-age") saveOptions(); });
}
$("#options-form").addEventListener("submit", (event) => { event.preventDefault(); saveOptions(); });

// --- Language changes and start --------------------------------------------------------------------

function retranslate() {
  for (const [node, make] of texts) node.textContent = make();
  map.setLabels(mapLabels());
  showRadius();
  renderResults();
  renderPanel();
  if (state.panel) showPlace(state.panel); // the name in the new language
}

const picker = $("#language");
if (picker) picker.addEventListener("change", retranslate);

loadOptions();
showRadius();
keepOrder(null);
startLocating();
