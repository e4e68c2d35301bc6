// The embeddable player (/radio/embed/?episode=N or ?show=N, issue 24 §2): what oEmbed's
// iframe and the twitter:player card load. It reads the public radio API, plays the episode's
// file and links back to the show's page; no site chrome, so it fits another site's frame.
import { api } from "/common/api.js";
import { $ } from "/common/dom.js";
import { duration } from "/common/format.js";
import { applyTranslations, t } from "/common/i18n.js";

const params = new URLSearchParams(location.search);
const ui = { main: $("main"), cover: $("#embed-cover"), title: $("#embed-title"), show: $("#embed-show"),
  play: $("#embed-play"), progress: $("#embed-progress"), time: $("#embed-time"), link: $("#embed-link"),
  error: $("#embed-error"), audio: $("#embed-audio") };
window.quintetEmbed = ui;

function fail(key) {
  ui.main.dataset.state = "error";
  ui.title.textContent = t("radio.embed.unavailable");
  ui.error.textContent = t(key);
  ui.error.hidden = false;
}

/** A positive integer id from the query, or null. */
function id(name) {
  const text = params.get(name);
  return text && /^[1-9][0-9]{0,15}$/.test(text) ? text : null;
}

async function load() {
  applyTranslations();
  const episodeID = id("episode"), showID = id("show");
  let episode = null;
  try {
    if (episodeID) {
      episode = await api(`/api/radio/episodes/${episodeID}`);
    } else if (showID) {
      const list = await api(`/api/radio/episodes?show=${showID}&limit=1`);
      episode = list[0] || null;
      if (!episode) { fail("radio.embed.noEpisodes"); return; }
    } else {
      fail("radio.embed.badLink");
      return;
    }
  } catch (_) {
    fail("radio.embed.notFound");
    return;
  }
  const show = await api(`/api/radio/shows/${episode.show_id}`).catch(() => null);
  const page = `/radio/show/?id=${episode.show_id}`;
  ui.title.textContent = episode.title;
  ui.title.href = `/radio/e/${episode.id}`;
  ui.show.textContent = episode.show_title;
  ui.link.href = page;
  if (show && show.cover_url) {
    ui.cover.src = show.cover_url;
    ui.cover.alt = t("radio.embed.cover", { show: episode.show_title });
    ui.cover.hidden = false;
  }
  ui.audio.src = episode.audio_url;
  ui.progress.max = String(Math.max(1, Math.round(episode.duration)));
  ui.time.textContent = `0:00 / ${duration(episode.duration)}`;
  ui.play.disabled = false;
  ui.progress.disabled = false;
  ui.main.dataset.state = "ready";
  ui.main.dataset.episode = String(episode.id);
}

function showPlaying(playing) {
  ui.play.querySelector(".icon").textContent = playing ? "❚❚" : "▶";
  ui.play.setAttribute("aria-label", t(playing ? "radio.embed.pause" : "radio.embed.play"));
  ui.main.dataset.state = playing ? "playing" : "ready";
}

ui.play.addEventListener("click", () => {
  if (ui.audio.paused) {
    ui.audio.play().catch((err) => { ui.error.textContent = err.message; ui.error.hidden = false; });
  } else {
    ui.audio.pause();
  }
});
ui.audio.addEventListener("play", () => showPlaying(true));
ui.audio.addEventListener("pause", () => showPlaying(false));
ui.audio.addEventListener("ended", () => showPlaying(false));
ui.audio.addEventListener("timeupdate", () => {
  const total = Number.isFinite(ui.audio.duration) ? ui.audio.duration : Number(ui.progress.max);
  if (document.activeElement !== ui.progress) ui.progress.value = String(Math.floor(ui.audio.currentTime));
  ui.time.textContent = `${duration(ui.audio.currentTime)} / ${duration(total)}`;
});
ui.progress.addEventListener("change", () => { ui.audio.currentTime = Number(ui.progress.value); });

load();
