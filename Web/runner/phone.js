// The runner on a phone: the screen kept on during a run (Screen Wake Lock API, so the
// motion sensor keeps reporting) and the song on the lock screen and headphone buttons
// (Media Session API). Both are optional in browsers: without them the page says so or
// simply does without.
import { api } from "/common/api.js";
import { $ } from "/common/dom.js";
import { t } from "/common/i18n.js";

// --- Screen Wake Lock ------------------------------------------------------------------------

const note = $("#run-wakelock");
let wanted = false;   // a run is on: hold the lock, and take it again when the page is shown again
let lock = null;      // the WakeLockSentinel held

/** Shows the wake lock's state: "held" (no note), "missing" or "refused" (a visible note),
 *  "off" (no run). `data-state` carries it for tests and styles. */
function show(state, reason = "") {
  note.dataset.state = state;
  note.hidden = !(state === "missing" || state === "refused");
  if (state === "missing") note.textContent = t("run.wakeLock.missing");
  if (state === "refused") note.textContent = t("run.wakeLock.refused", { reason });
}

async function acquire() {
  if (!wanted) return;
  if (!("wakeLock" in navigator) || typeof navigator.wakeLock?.request !== "function") { show("missing"); return; }
  try {
    const sentinel = await navigator.wakeLock.request("screen");
    if (!wanted) { sentinel.release().catch(() => {}); return; } // the run ended meanwhile
    lock = sentinel;
    show("held");
    // The browser drops the lock when the page is hidden (screen off, other app): say so
    // until it is taken again on return.
    sentinel.addEventListener("release", () => {
      if (lock === sentinel) lock = null;
      if (wanted) note.dataset.state = "lost";
    });
  } catch (err) {
    show("refused", err && err.message ? err.message : String(err));
  }
}

/** Keeps the screen on for a run (call at Start, inside the click). */
export function keepAwake() {
  wanted = true;
  return acquire();
}

/** Lets the screen sleep again (call at Stop or when the run ends). */
export function letSleep() {
  wanted = false;
  const held = lock;
  lock = null;
  if (held) held.release().catch(() => {});
  show("off");
}

document.addEventListener("visibilitychange", () => {
  if (wanted && !lock && document.visibilityState === "visible") acquire();
});

// --- Media Session ---------------------------------------------------------------------------

const media = "mediaSession" in navigator ? navigator.mediaSession : null;
const COVER_SIZES = [96, 256, 512];
let nowPlaying = 0; // the song whose details are being fetched: a later song wins

/** Registers the lock screen's and headphones' buttons: `actions` maps a Media Session
 *  action ("play", "pause", "nexttrack", "stop") to a function. */
export function mediaControls(actions) {
  if (!media) return;
  for (const [action, handler] of Object.entries(actions)) {
    try { media.setActionHandler(action, () => handler()); } catch (_) { /* action unknown to this browser */ }
  }
}

/** Shows a song on the lock screen: title and artist at once, album and cover once the
 *  library has answered. `song` is the live socket's {id, title, artist}; null clears it. */
export async function showSong(song) {
  if (!media) return;
  const ticket = ++nowPlaying;
  if (!song) { media.metadata = null; media.playbackState = "none"; return; }
  media.metadata = new MediaMetadata({ title: song.title, artist: song.artist });
  let details;
  try { details = await api(`/api/library/songs/${song.id}`); } catch (_) { return; } // title and artist stay
  if (ticket !== nowPlaying) return;
  const artwork = details.cover_url
    ? COVER_SIZES.map((size) => ({ src: new URL(`${details.cover_url}?size=${size}`, location.href).href,
                                   sizes: `${size}x${size}`, type: "image/jpeg" }))
    : [];
  media.metadata = new MediaMetadata({ title: details.title, artist: details.artist, album: details.album, artwork });
}

/** "playing", "paused" or "none", as the lock screen should show it. */
export function playbackState(state) {
  if (media) media.playbackState = state;
}
