// The sounds of /playground/, synthesised with Web Audio (no sound files). Each game has a
// sound table: the module asks for sound i of its game's list with an event of kind 1
// (docs/playground.md, "Events"). Sounds are for ages 2–5: short, soft, never a bang; every
// voice peaks well under full scale (e2e/test_playground_page.py renders each one and checks).
//
//   const sound = new Sound(); sound.unlock();  // on a touch: browsers start audio on a gesture
//   sound.play(SOUNDS.carworld, 0);

/** A note of frequency hz from start for length seconds: attack, then an exponential decay. */
export function tone(ctx, out, { type = "sine", hz, start, length, peak, attack = 0.01, glideTo }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(hz, start);
  if (glideTo) osc.frequency.exponentialRampToValueAtTime(glideTo, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(peak, start + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(out);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short rising chime: two bell-like notes, the second a fifth up (a point collected). */
function chime(ctx, out, at) {
  tone(ctx, out, { hz: 659.25, start: at, length: 0.18, peak: 0.12 });
  tone(ctx, out, { hz: 987.77, start: at + 0.08, length: 0.3, peak: 0.12 });
  return 0.4;
}

/** A soft "puff": noise through a low-pass that closes, with a slow attack (a crash: a
 *  cloud, not a bang). */
function puff(ctx, out, at) {
  const length = 0.45;
  const frames = Math.ceil(ctx.sampleRate * length);
  const noise = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = noise.getChannelData(0);
  let seed = 12345; // a fixed pattern: the same puff every time
  for (let i = 0; i < frames; i += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = seed / 0x80000000 - 1;
  }
  const source = ctx.createBufferSource();
  source.buffer = noise;
  const filter = ctx.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.setValueAtTime(900, at);
  filter.frequency.exponentialRampToValueAtTime(200, at + length);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.18, at + 0.06);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(filter).connect(gain).connect(out);
  source.start(at);
  source.stop(at + length);
  return length;
}

/** A short happy arpeggio, C E G C, on a soft triangle wave (the game is won). */
function arpeggio(ctx, out, at) {
  [523.25, 659.25, 783.99, 1046.5].forEach((hz, i) => {
    tone(ctx, out, { type: "triangle", hz, start: at + i * 0.11, length: i === 3 ? 0.5 : 0.2, peak: 0.14 });
  });
  return 0.85;
}

/** A soft two-note toy horn, "pa-pam" (a car stopped or started). */
function horn(ctx, out, at) {
  tone(ctx, out, { type: "triangle", hz: 392, start: at, length: 0.09, peak: 0.1 });
  tone(ctx, out, { type: "triangle", hz: 523.25, start: at + 0.1, length: 0.14, peak: 0.1 });
  return 0.26;
}

/** A bubbly chime: a quick rising "bloop" then a bell note a sixth up (a fish came home). */
function homeChime(ctx, out, at) {
  tone(ctx, out, { hz: 420, glideTo: 780, start: at, length: 0.12, peak: 0.1 });
  tone(ctx, out, { hz: 880, start: at + 0.1, length: 0.32, peak: 0.12 });
  tone(ctx, out, { hz: 1318.5, start: at + 0.18, length: 0.3, peak: 0.06 });
  return 0.5;
}

/** A soft "blip", a short upward glide (fish dart toward the finger). */
function blip(ctx, out, at) {
  tone(ctx, out, { hz: 520, glideTo: 900, start: at, length: 0.1, peak: 0.09 });
  return 0.12;
}

/** A happy rising run, G A B D G, on a soft triangle, and a bubble on top (every fish home). */
function happyRun(ctx, out, at) {
  [392, 440, 493.88, 587.33, 783.99].forEach((hz, i) => {
    tone(ctx, out, { type: "triangle", hz, start: at + i * 0.1, length: i === 4 ? 0.45 : 0.16, peak: 0.13 });
  });
  tone(ctx, out, { hz: 600, glideTo: 1200, start: at + 0.55, length: 0.15, peak: 0.06 });
  return 0.9;
}

/** A low, soft "boop" gliding down (a fish bounced off a reef of another colour). */
function boop(ctx, out, at) {
  tone(ctx, out, { hz: 330, glideTo: 220, start: at, length: 0.18, peak: 0.1, attack: 0.02 });
  return 0.2;
}

/** A gentle whoosh of bubbles: three quick rising blips (a new round, the fish swim out). */
function bubbles(ctx, out, at) {
  [0, 0.09, 0.17].forEach((delay, i) => {
    tone(ctx, out, { hz: 380 + 90 * i, glideTo: 760 + 120 * i, start: at + delay, length: 0.11, peak: 0.08 });
  });
  return 0.3;
}

/** A soft "plop": a low sine sliding down (a sweater lands on the pile). */
function plop(ctx, out, at) {
  tone(ctx, out, { hz: 330, glideTo: 165, start: at, length: 0.16, peak: 0.16 });
  return 0.18;
}

/** A little "boing": a sine sliding up and a quieter octave (a touched sweater hops). */
function boing(ctx, out, at) {
  tone(ctx, out, { hz: 260, glideTo: 520, start: at, length: 0.22, peak: 0.12 });
  tone(ctx, out, { hz: 520, glideTo: 1040, start: at + 0.02, length: 0.18, peak: 0.05 });
  return 0.24;
}

/** A tumble: five triangle notes running down, G5 to C4 (the pile topples). */
function tumble(ctx, out, at) {
  [783.99, 659.25, 523.25, 392, 261.63].forEach((hz, i) => {
    tone(ctx, out, { type: "triangle", hz, start: at + i * 0.09, length: i === 4 ? 0.4 : 0.14, peak: 0.12 });
  });
  return 0.8;
}

/** A soft water "bloop": a sine sliding down (ShipWorld: the boat bumped a bank or a log). */
function bloop(ctx, out, at) {
  tone(ctx, out, { hz: 330, glideTo: 170, start: at, length: 0.28, peak: 0.16, attack: 0.02 });
  return 0.3;
}

/** A gentle "quack-quack": two short falling triangle notes (ShipWorld: the boat bumped a duck). */
function quack(ctx, out, at) {
  tone(ctx, out, { type: "triangle", hz: 520, glideTo: 380, start: at, length: 0.12, peak: 0.1 });
  tone(ctx, out, { type: "triangle", hz: 520, glideTo: 380, start: at + 0.16, length: 0.14, peak: 0.1 });
  return 0.32;
}

/** The harbour's bell, ding-dong, then a rising G C E (ShipWorld: in the harbour, won). */
function harbourBell(ctx, out, at) {
  tone(ctx, out, { hz: 880, start: at, length: 0.4, peak: 0.12 });
  tone(ctx, out, { hz: 659.25, start: at + 0.2, length: 0.4, peak: 0.12 });
  [392, 523.25, 659.25].forEach((hz, i) => {
    tone(ctx, out, { type: "triangle", hz, start: at + 0.45 + i * 0.1, length: i === 2 ? 0.4 : 0.15, peak: 0.12 });
  });
  return 0.9;
}

/** A soft boat's toot, rising a little (ShipWorld: a new trip from the start). */
function toot(ctx, out, at) {
  tone(ctx, out, { type: "triangle", hz: 294, glideTo: 349, start: at, length: 0.35, peak: 0.12, attack: 0.04 });
  return 0.37;
}

/** Each game's sound list, by the index its module sends. */
export const SOUNDS = {
  carworld: [chime, puff, arpeggio, horn], // 0 point collected, 1 crash, 2 won, 3 car stopped/started
  // 0 a fish home, 1 fish dart to a touch, 2 won, 3 a wrong reef pushes a fish out, 4 a new round
  fishworld: [homeChime, blip, happyRun, boop, bubbles],
  sweaters: [plop, boing, tumble], // 0 a sweater lands, 1 a touched sweater hops, 2 the pile topples
  shipworld: [bloop, quack, harbourBell, toot], // 0 bump, 1 duck bumped, 2 won (harbour), 3 new trip
};

/** Plays voice (a function of SOUNDS) on ctx now; returns its length in seconds. */
export function render(ctx, voice, destination = ctx.destination) {
  return voice(ctx, destination, ctx.currentTime);
}

/** The page's sound: one AudioContext, made and resumed on the first gesture, muted by a flag. */
export class Sound {
  constructor() {
    this.ctx = null;
    this.on = true;
  }

  /** Makes or resumes the audio context: call from a touch, click or key handler. */
  unlock() {
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return;
    if (!this.ctx) {
      this.ctx = new Context();
      this.master = this.ctx.createGain();
      this.master.gain.value = 0.8;
      this.master.connect(this.ctx.destination);
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
  }

  /** Plays sound index of table (a game's SOUNDS list), if sound is on and audio unlocked;
   *  an index the table lacks is ignored (returns false). */
  play(table, index) {
    const voice = table && table[index];
    if (!voice || !this.on || !this.ctx || this.ctx.state !== "running") return false;
    render(this.ctx, voice, this.master);
    return true;
  }
}
