// The story's own sounds (docs/playground.md, "The story"): effects for the pages and the frame,
// and a music-box tune on the chest of drawers, synthesised with Web Audio like the games' sounds
// (sound.js) — no sound files besides the narrator's voice. Soft for ages 2–5: every voice peaks
// at most 0.35 of full scale. One volume for everything: the Sound's master gain (the narrator's
// audio element takes the same volume).
import { tone } from "../sound.js";

// C major pentatonic, C5 up: the bells' notes and the tune's.
export const NOTES = [523.25, 587.33, 659.25, 783.99, 880.0, 1046.5, 1174.66, 1318.51];

function noise(ctx, out, at, { length, from, to, peak }) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 777;
  for (let i = 0; i < frames; i += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = seed / 0x80000000 - 1;
  }
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.setValueAtTime(from, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + length);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + length * 0.4);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(filter).connect(gain).connect(out);
  source.start(at);
  source.stop(at + length);
}

/** The effects by name (the touch pages' api.sound(name) and the frame's). */
export const EFFECTS = {
  pop: (ctx, out, at) => tone(ctx, out, { hz: 420, glideTo: 880, start: at, length: 0.12, peak: 0.2 }),
  chime: (ctx, out, at) => {
    tone(ctx, out, { hz: 783.99, start: at, length: 0.25, peak: 0.12 });
    tone(ctx, out, { hz: 1174.66, start: at + 0.09, length: 0.4, peak: 0.12 });
  },
  snap: (ctx, out, at) => tone(ctx, out, { type: "triangle", hz: 330, glideTo: 220, start: at, length: 0.09, peak: 0.22 }),
  whoosh: (ctx, out, at) => noise(ctx, out, at, { length: 0.5, from: 300, to: 2400, peak: 0.16 }),
  sparkle: (ctx, out, at) => {
    [1318.51, 1567.98, 2093.0].forEach((hz, i) => tone(ctx, out, { hz, start: at + i * 0.07, length: 0.3, peak: 0.08 }));
  },
  /** A page opens: a page-turn whoosh and a little two-note chime. */
  page: (ctx, out, at) => {
    noise(ctx, out, at, { length: 0.35, from: 500, to: 2000, peak: 0.1 });
    tone(ctx, out, { hz: 659.25, start: at + 0.25, length: 0.3, peak: 0.1 });
    tone(ctx, out, { hz: 987.77, start: at + 0.35, length: 0.4, peak: 0.1 });
  },
  /** A sweater won: a soft rising arpeggio. */
  sweater: (ctx, out, at) => {
    [523.25, 659.25, 783.99, 1046.5, 1318.51].forEach((hz, i) =>
      tone(ctx, out, { type: "triangle", hz, start: at + i * 0.09, length: 0.35, peak: 0.12 }));
  },
  /** A drawer opens (wood sliding). */
  drawer: (ctx, out, at) => noise(ctx, out, at, { length: 0.3, from: 180, to: 420, peak: 0.14 }),
};
for (let i = 0; i < NOTES.length; i += 1) {
  EFFECTS[`note${i}`] = (ctx, out, at) => {
    tone(ctx, out, { hz: NOTES[i], start: at, length: 0.9, peak: 0.14, attack: 0.005 });
    tone(ctx, out, { hz: NOTES[i] * 2, start: at, length: 0.5, peak: 0.04, attack: 0.005 });
  };
}

/** The chest's tune: a music box, eight bars of the pentatonic, then again, while it plays. */
const TUNE = [0, 2, 4, 2, 3, 1, 0, -1, 2, 4, 5, 4, 3, 2, 1, -1];

export class Music {
  constructor(sound) {
    this.sound = sound;
    this.timer = null;
    this.step = 0;
  }

  start() {
    if (this.timer) return;
    const beat = () => {
      const { ctx } = this.sound;
      if (ctx && ctx.state === "running" && this.sound.on) {
        const note = TUNE[this.step % TUNE.length];
        if (note >= 0) tone(ctx, this.sound.master, { hz: NOTES[note] / 2, start: ctx.currentTime + 0.02, length: 0.7, peak: 0.05, attack: 0.005 });
      }
      this.step += 1;
    };
    this.timer = setInterval(beat, 420);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}

/** Plays effect name through sound (muted, locked or unknown: nothing); true if it played. */
export function effect(sound, name) {
  const voice = EFFECTS[name];
  if (!voice || !sound.on || !sound.ctx || sound.ctx.state !== "running") return false;
  voice(sound.ctx, sound.master, sound.ctx.currentTime + 0.01);
  return true;
}
