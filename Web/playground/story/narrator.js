// The narrator (docs/playground.md, "The story"): each line is a file made at build time by
// espeak-ng and ffmpeg (scripts/build-voice), /playground/voice/<lang>/<id>.mp3, with its text
// in /playground/story/lines.json shown as a subtitle when subtitles are on. say() resolves when
// the line has been spoken (or skipped by a tap, or could not play: then after the time a reader
// needs when subtitles show, else at once). Hidden page: the line pauses, and goes on when the
// page shows again.
import { api } from "/common/api.js";

export class Narrator {
  constructor(subtitle) {
    this.audio = new Audio();
    this.audio.preload = "auto";
    this.subtitle = subtitle;
    this.lines = null;
    this.durations = {};
    this.volume = 0.8;
    this.muted = false;
    this.subtitles = false;
    this.current = null; // { id, lang, done }
    this.spoken = 0;
    this.history = []; // the last 100 lines said: { lang, id, src, subtitle, shown } (tests)
    this.rate = 1; // the story's ?speed=: lines play this many times faster (tests)
  }

  async load() {
    const [lines, index] = await Promise.all([
      api("/playground/story/lines.json").catch(() => ({})),
      api("/playground/voice/index.json").catch(() => ({})),
    ]);
    this.lines = lines;
    this.durations = index;
  }

  text(lang, id) {
    return (this.lines && this.lines[lang] && this.lines[lang][id]) || "";
  }

  /** The line's length in ms from voice/index.json (a guess from its words when missing). */
  duration(lang, id) {
    const entry = this.durations && this.durations[lang] && this.durations[lang][id];
    const ms = typeof entry === "number" ? entry : entry && entry.ms;
    if (typeof ms === "number" && ms > 0) return ms;
    return 600 + 380 * this.text(lang, id).split(/\s+/).length;
  }

  /** Speaks line id in lang; resolves when done. A newer say() or stop() ends the older one. */
  say(lang, id) {
    this.stop();
    const text = this.text(lang, id);
    this.subtitle.textContent = text;
    this.subtitle.lang = lang;
    this.subtitle.hidden = !this.subtitles || !text;
    this.subtitle.dataset.line = id;
    this.spoken += 1;
    this.history.push({ lang, id, src: this.muted ? "" : `/playground/voice/${lang}/${id}.mp3`, subtitle: text, shown: !this.subtitle.hidden });
    if (this.history.length > 100) this.history.shift();
    return new Promise((resolve) => {
      const current = { id, lang, done: null, timer: null };
      const finish = () => {
        if (this.current !== current) return;
        clearTimeout(current.timer);
        this.current = null;
        this.audio.onended = null;
        this.subtitle.hidden = true;
        resolve();
      };
      current.done = finish;
      this.current = current;
      const readTime = this.subtitles && text ? this.duration(lang, id) / this.rate + 400 : 300;
      if (this.muted) { current.timer = setTimeout(finish, readTime); return; }
      this.audio.src = `/playground/voice/${lang}/${id}.mp3`;
      this.audio.volume = this.volume;
      this.audio.playbackRate = this.rate;
      this.audio.defaultPlaybackRate = this.rate;
      this.audio.onended = finish;
      // The longest a line may take (a stalled file must not hold the page).
      current.timer = setTimeout(finish, this.duration(lang, id) / this.rate + 2500);
      this.audio.play().catch(() => {
        // Not allowed yet (no gesture) or no file: the subtitle's time, then go on.
        clearTimeout(current.timer);
        current.timer = setTimeout(finish, readTime);
      });
    });
  }

  /** Ends the line now (a tap skips it). */
  skip() {
    if (this.current) { this.audio.pause(); this.current.done(); }
  }

  stop() {
    this.skip();
  }

  pause() {
    if (this.current && !this.audio.paused) { this.audio.pause(); this.pausedLine = this.current; }
  }

  resume() {
    if (this.pausedLine && this.pausedLine === this.current) this.audio.play().catch(() => this.skip());
    this.pausedLine = null;
  }

  /** The language and line now playing (tests), or null. */
  playing() {
    return this.current ? { lang: this.current.lang, id: this.current.id, src: this.audio.src } : null;
  }
}
