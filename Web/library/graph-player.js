// The explorer's playback bar (the original's): cover, title and artist, previous, play/pause,
// next, a seek slider that shows progress, elapsed and remaining time. It appears when
// playback first starts; songs follow one another through the queue. "Previous" restarts the
// song after 3 s of it, else goes back one song (the original left that rule open).
import { el, svg } from "/common/dom.js";
import { duration } from "/common/format.js";
import { t } from "/common/i18n.js";

const RESTART_AFTER_S = 3;

const icon = (d) => svg("svg", { viewBox: "0 0 24 24", width: "22", height: "22", "aria-hidden": "true", focusable: "false" },
  svg("path", { fill: "currentColor", d }));
const PLAY = "M7 4v16l13-8z";
const PAUSE = "M6 4h4v16H6zM14 4h4v16h-4z";

/** Builds the bar around its own audio element. `hooks`: changed() (the graph's marks),
 *  failed(message), albumCover(albumID) → URL or null. Returns {bar, audio, playIndex(i), render()}. */
export function playbackBar(queue, hooks) {
  const audio = el("audio", { id: "graph-audio", preload: "none" });
  const cover = el("img", { class: "graph-player-cover", alt: "", width: "56", height: "56", hidden: true });
  const coverNone = el("div", { class: "graph-player-cover placeholder", "aria-hidden": "true" }, "♪");
  const title = el("p", { class: "graph-player-title", id: "graph-player-title" });
  const artist = el("p", { class: "graph-player-artist", id: "graph-player-artist" });
  const prev = el("button", { type: "button", class: "icon", id: "graph-prev" }, icon("M6 5h2.5v14H6zM19 5v14L9 12z"));
  const playPause = el("button", { type: "button", class: "icon primary", id: "graph-play" }, icon(PLAY));
  const next = el("button", { type: "button", class: "icon", id: "graph-next" }, icon("M15.5 5H18v14h-2.5zM5 5v14l10-7z"));
  const elapsed = el("span", { class: "graph-time", id: "graph-elapsed" }, "0:00");
  const remaining = el("span", { class: "graph-time", id: "graph-remaining" }, "-0:00");
  const seek = el("input", { type: "range", id: "graph-seek", min: "0", max: "1", step: "0.1", value: "0" });
  const bar = el("section", { id: "graph-player", class: "graph-player", "aria-labelledby": "graph-player-title", hidden: true },
    cover, coverNone,
    el("div", { class: "graph-player-info" }, title, artist),
    el("div", { class: "graph-player-controls" }, prev, playPause, next),
    el("div", { class: "graph-player-seek" }, elapsed, seek, remaining),
    audio);
  let seeking = false;
  let loaded = null; // the song whose file the audio element holds

  const start = () => {
    const song = queue.current;
    if (!song) { stop(); return; }
    bar.hidden = false;
    if (!loaded || loaded.id !== song.id) {
      loaded = song;
      audio.src = song.stream_url || `/api/library/songs/${song.id}/stream`;
    }
    const started = audio.play();
    if (started) started.catch((err) => { if (err.name !== "AbortError") hooks.failed(err.message); });
    render();
    hooks.changed();
  };

  const stop = () => {
    audio.pause();
    audio.removeAttribute("src");
    audio.load();
    loaded = null;
    bar.hidden = true;
    hooks.changed();
  };

  const playIndex = (i) => {
    if (i < 0 || i >= queue.songs.length) return;
    const again = loaded && queue.songs[i].id === loaded.id && queue.index === i;
    queue.index = i;
    queue.changed();
    if (again) audio.currentTime = 0; // the same song picked again starts over
    start();
  };

  prev.addEventListener("click", () => {
    if (audio.currentTime > RESTART_AFTER_S || queue.index <= 0) { audio.currentTime = 0; if (audio.paused) start(); }
    else playIndex(queue.index - 1);
  });
  next.addEventListener("click", () => playIndex(queue.index + 1));
  playPause.addEventListener("click", () => {
    if (!queue.current) return;
    if (audio.paused) start(); else audio.pause();
  });
  seek.addEventListener("input", () => { seeking = true; elapsed.textContent = duration(Number(seek.value)); });
  seek.addEventListener("change", () => { audio.currentTime = Number(seek.value); seeking = false; });
  audio.addEventListener("ended", () => {
    if (queue.index < queue.songs.length - 1) playIndex(queue.index + 1);
    else { render(); hooks.changed(); }
  });
  for (const type of ["play", "pause", "timeupdate", "durationchange", "loadedmetadata"]) audio.addEventListener(type, () => times());
  audio.addEventListener("error", () => {
    if (!audio.getAttribute("src")) return;
    hooks.failed(t("library.player.failed", { title: queue.current ? queue.current.title : "", message: audio.error ? audio.error.message || audio.error.code : "" }));
  });

  const times = () => {
    const total = Number.isFinite(audio.duration) ? audio.duration : (queue.current && queue.current.duration) || 0;
    const now = audio.currentTime || 0;
    seek.max = String(Math.max(total, 0.1));
    if (!seeking) { seek.value = String(now); elapsed.textContent = duration(now); }
    remaining.textContent = `-${duration(Math.max(0, total - now))}`;
    playPause.replaceChildren(icon(audio.paused ? PLAY : PAUSE));
    const label = t(audio.paused ? "library.graph.player.play" : "library.graph.player.pause");
    playPause.setAttribute("aria-label", label);
    playPause.title = label;
  };

  const render = () => {
    const song = queue.current;
    prev.setAttribute("aria-label", t("library.player.previous"));
    prev.title = t("library.graph.player.previousHint");
    next.setAttribute("aria-label", t("library.player.next"));
    next.title = t("library.player.next");
    seek.setAttribute("aria-label", t("library.graph.player.seek"));
    next.disabled = !song || queue.index >= queue.songs.length - 1;
    prev.disabled = !song;
    if (!song) return;
    title.textContent = song.title;
    artist.textContent = [song.artist, song.album].filter(Boolean).join(" — ");
    const url = song.cover_url || hooks.albumCover(song.album_id);
    cover.hidden = !url;
    coverNone.hidden = !!url;
    if (url) {
      cover.onerror = () => { cover.hidden = true; coverNone.hidden = false; };
      cover.src = `${url}?size=128`;
      cover.alt = t("library.album.coverAlt", { album: song.album || "" });
    }
    times();
  };

  queue.addEventListener("change", () => {
    // The loaded song left the queue (removed, or a new queue): what took its place plays
    // if something was playing; an empty queue stops.
    if (loaded && !queue.songs.some((s) => s.id === loaded.id)) {
      if (!queue.current) stop();
      else if (!audio.paused) start();
    }
    render();
  });
  return { bar, audio, playIndex, render, stop };
}
