// Quintet's service worker (scope /): keeps the apps' shells — the pages, scripts, styles,
// manifests and favicon that Web/precache.json lists — so an installed app opens when the
// server cannot be reached; the page then says so (common/pwa.js).
//
// Only the files of that list are ever cached: never API answers (/api/, /healthz, Subsonic's
// /rest/), live streams (/live/), podcast episodes, covers, feeds, library audio or the trust
// page. Every other request is left to the browser, untouched.
//
// Network first: online, a listed file comes from the server (and refreshes its copy), so a
// new version shows at once; the copy is used when the server does not answer within
// NETWORK_TIMEOUT_MS or the connection fails. Each page opened online checks the list's
// version and fetches every file again when it changed, so the copies stay one version.
// CACHE names the layout of the cache: change it when that layout changes (activate deletes
// the other quintet-* caches).

const CACHE = "quintet-shell-v1";
const LIST = "/precache.json";
const NETWORK_TIMEOUT_MS = 5000;
const UNREACHABLE_MS = 10000; // after a failed page load, its files come from the copies at once
const NEVER = ["/api/", "/rest/", "/live/", "/tls/", "/radio/episodes/", "/radio/feeds/",
  "/radio/covers/", "/podcasts", "/healthz", "/metrics", "/status-json.xsl", LIST];

let listed = null; // a promise of the Set of listed paths, read from the cache
let unreachableUntil = 0;

/** The paths of the list in the cache (an empty set before the first precache). */
function listedPaths() {
  listed ??= caches.open(CACHE)
    .then((cache) => cache.match(LIST))
    .then((response) => (response ? response.json() : { files: [] }))
    .then((list) => new Set(list.files))
    .catch(() => new Set());
  return listed;
}

/** Fetches the list from the server and, when its version differs from the cached one (or
 *  force), every file on it; the new list is stored last, so an interrupted refresh is
 *  done again next time. A file that fails keeps its old copy. */
async function refresh(force = false) {
  const response = await fetch(LIST, { cache: "no-store" });
  if (!response.ok) return; // no list (scripts/web-assets.sh not run): nothing to keep
  const list = await response.clone().json();
  const cache = await caches.open(CACHE);
  const stored = await cache.match(LIST);
  if (!force && stored && (await stored.json()).version === list.version) return;
  await Promise.allSettled(list.files.map(async (path) => {
    const answer = await fetch(path, { cache: "no-cache" });
    if (cacheable(answer)) await cache.put(path, answer);
  }));
  await cache.put(LIST, response);
  listed = null;
}

/** Whether a server answer may be kept: a plain 200 from this origin. */
function cacheable(response) {
  return response.ok && response.status === 200 && response.type === "basic";
}

/** Whether a request could be a listed file (decided at once, before the list is read). */
function candidate(request, url) {
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  if (request.headers.has("range")) return false;
  return !NEVER.some((prefix) => url.pathname.startsWith(prefix));
}

/** The network's answer, or a rejection after ms milliseconds. */
function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); });
  });
}

/** A listed file: from the network (refreshing the copy), else from the copy. */
async function networkFirst(event, path) {
  const cache = await caches.open(CACHE);
  const copy = await cache.match(path);
  if (!copy) return fetch(event.request);
  const page = event.request.mode === "navigate";
  if (!page && Date.now() < unreachableUntil) return copy;
  try {
    const response = await withTimeout(fetch(event.request), NETWORK_TIMEOUT_MS);
    unreachableUntil = 0;
    if (cacheable(response)) {
      event.waitUntil(cache.put(path, response.clone()));
      if (page) event.waitUntil(refresh().catch(() => {}));
    }
    return response;
  } catch (_) {
    unreachableUntil = Date.now() + UNREACHABLE_MS;
    return copy;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(refresh(true).catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("quintet-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (!candidate(event.request, url)) return;
  event.respondWith(listedPaths().then((paths) =>
    paths.has(url.pathname) ? networkFirst(event, url.pathname) : fetch(event.request)));
});
