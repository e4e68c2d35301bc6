// A music deck of the studio: a song from the user's Quintet library (searched with
// GET /api/library/songs?q=), played by an <audio> element whose output goes into the studio's
// Web Audio graph (not to the speakers), its waveform (GET /api/library/songs/{id}/peaks)
// drawn with a cursor that can be clicked, dragged or moved with the arrow keys to start
// anywhere, and play/stop.
import { api } from "/common/api.js";
import { $, el } from "/common/dom.js";
import { clock } from "/common/format.js";
import { applyTranslations, t } from "/common/i18n.js";

const BUCKETS = 600;

export class Deck {
  /** `root`: the deck's element; `connect(audioElement)` returns the GainNode the deck plays into
   *  (called once, on the first load, inside a user gesture). */
  constructor(root, name, connect) {
    // The deck's controls come from the page's <template id="deck-template">, named for this deck.
    root.append(document.querySelector("#deck-template").content.cloneNode(true));
    $(".deck-name", root).textContent = t(`studio.deck.${name}`);
    $(".deck-name", root).dataset.i18n = `studio.deck.${name}`;
    $("canvas", root).dataset.i18nAttr = `aria-label:studio.deck.cursor${name.toUpperCase()}`;
    $("canvas", root).setAttribute("aria-label", t(`studio.deck.cursor${name.toUpperCase()}`));
    applyTranslations(root);
    this.root = root;
    this.name = name;
    this.connect = connect;
    this.audio = new Audio();
    this.audio.preload = "auto";
    this.song = null;
    this.peaks = null;
    this.node = null;
    this.search = $(".deck-search", root);
    this.query = $("input[type=search]", root);
    this.results = $(".deck-results", root);
    this.title = $(".deck-title", root);
    this.canvas = $("canvas", root);
    this.play = $(".deck-play", root);
    this.time = $(".deck-time", root);
    this.status = $(".deck-status", root);
    this.search.addEventListener("submit", (event) => { event.preventDefault(); this.find(); });
    this.play.addEventListener("click", () => this.toggle());
    this.audio.addEventListener("timeupdate", () => this.draw());
    this.audio.addEventListener("ended", () => this.showPlaying());
    this.audio.addEventListener("error", () => this.say(t("studio.deck.failed", { title: this.song ? this.song.title : "" })));
    this.wireCursor();
    this.showPlaying();
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  say(text) {
    this.status.textContent = text || "";
    this.status.hidden = !text;
  }

  async find() {
    const q = this.query.value.trim();
    this.say("");
    try {
      const answer = await api(`/api/library/songs?${new URLSearchParams({ q, limit: "20" })}`);
      const songs = answer && Array.isArray(answer.songs) ? answer.songs : [];
      this.results.replaceChildren(...songs.map((song) => {
        const button = el("button", { type: "button", class: "deck-result" },
          `${song.title} — ${song.artist || ""}`);
        button.addEventListener("click", () => this.load(song));
        return el("li", {}, button);
      }));
      if (songs.length === 0) this.say(t("studio.deck.none"));
    } catch (err) {
      this.say(t("studio.deck.searchFailed", { message: err.message }));
    }
  }

  async load(song) {
    if (!this.node) this.node = this.connect(this.audio);
    this.audio.pause();
    this.song = song;
    this.peaks = null;
    this.results.replaceChildren();
    this.title.textContent = `${song.title} — ${song.artist || ""}`;
    this.root.dataset.song = String(song.id);
    this.audio.src = `/api/library/songs/${song.id}/stream`;
    this.audio.load();
    this.showPlaying();
    this.draw();
    try {
      this.peaks = await api(`/api/library/songs/${song.id}/peaks?buckets=${BUCKETS}`);
      this.root.dataset.peaks = "ready";
    } catch (err) {
      this.say(t("studio.deck.peaksFailed", { message: err.message }));
    }
    this.draw();
  }

  get duration() {
    return Number.isFinite(this.audio.duration) ? this.audio.duration : (this.peaks ? this.peaks.duration : 0);
  }

  async toggle() {
    if (!this.song) return;
    if (this.audio.paused) {
      try {
        await this.audio.play();
      } catch (err) {
        this.say(t("studio.deck.failed", { title: this.song.title }));
      }
    } else {
      this.audio.pause();
    }
    this.showPlaying();
  }

  showPlaying() {
    const playing = !this.audio.paused;
    this.play.textContent = t(playing ? "studio.deck.stop" : "studio.deck.play");
    this.play.setAttribute("aria-pressed", String(playing));
    this.play.disabled = !this.song;
    this.root.dataset.playing = String(playing);
  }

  seek(seconds) {
    const duration = this.duration;
    if (!this.song || !duration) return;
    this.audio.currentTime = Math.max(0, Math.min(duration - 0.05, seconds));
    this.draw();
  }

  wireCursor() {
    const at = (event) => {
      const box = this.canvas.getBoundingClientRect();
      return ((event.clientX - box.left) / box.width) * this.duration;
    };
    let dragging = false;
    this.canvas.addEventListener("pointerdown", (event) => {
      dragging = true;
      this.canvas.setPointerCapture(event.pointerId);
      this.seek(at(event));
    });
    this.canvas.addEventListener("pointermove", (event) => { if (dragging) this.seek(at(event)); });
    this.canvas.addEventListener("pointerup", () => { dragging = false; });
    this.canvas.addEventListener("keydown", (event) => {
      const step = event.shiftKey ? 30 : 5;
      if (event.key === "ArrowRight") this.seek(this.audio.currentTime + step);
      else if (event.key === "ArrowLeft") this.seek(this.audio.currentTime - step);
      else if (event.key === "Home") this.seek(0);
      else return;
      event.preventDefault();
    });
  }

  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    const g = canvas.getContext("2d");
    const style = getComputedStyle(this.root);
    g.clearRect(0, 0, width, height);
    const duration = this.duration;
    const position = duration ? this.audio.currentTime / duration : 0;
    if (this.peaks && this.peaks.maxima.length) {
      const n = this.peaks.maxima.length;
      for (let x = 0; x < width; x += 1) {
        const i = Math.min(n - 1, Math.floor((x / width) * n));
        const top = (1 - this.peaks.maxima[i]) * height / 2;
        const bottom = (1 - this.peaks.minima[i]) * height / 2;
        g.fillStyle = x / width < position ? style.getPropertyValue("--system") || "#b0174f" : "#888";
        g.fillRect(x, top, 1, Math.max(1, bottom - top));
      }
    }
    g.fillStyle = style.getPropertyValue("--fg") || "#000";
    g.fillRect(Math.round(position * width), 0, Math.max(1, ratio * 2), height);
    canvas.setAttribute("aria-valuemax", String(Math.round(duration)));
    canvas.setAttribute("aria-valuenow", String(Math.round(this.audio.currentTime)));
    canvas.setAttribute("aria-valuetext", `${clock(this.audio.currentTime)} / ${clock(duration)}`);
    this.time.textContent = `${clock(this.audio.currentTime)} / ${clock(duration)}`;
  }
}
