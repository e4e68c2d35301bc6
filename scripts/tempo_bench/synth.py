"""Instruments synthesised in numpy for the metrical-level sets (issue 21).

Nothing here uses a soundfont or MIDI: plucked strings are Karplus-Strong, keys and
brass are FM, bowed strings, reeds, organ, flute and voice are additive (with vibrato
and breath noise), and the drums are noise and sine models. So these sets share no
sound with the fluidsynth-rendered `dev`/`test` sets the estimator was first tuned on.

Every function returns a float64 array at RATE for one note (or hit), `velocity` in
[0, 1] scaling its level; the caller adds it into the track.
"""
from __future__ import annotations

import numpy as np

RATE = 44100


def midi_hz(pitch: float) -> float:
    return 440.0 * 2 ** ((pitch - 69) / 12)


def _t(seconds: float) -> np.ndarray:
    return np.arange(max(1, int(seconds * RATE))) / RATE


def _adsr(n: int, attack: float, release: float, gate: float) -> np.ndarray:
    """Linear attack, sustain until `gate` seconds, then an exponential release."""
    t = np.arange(n) / RATE
    env = np.minimum(1.0, t / max(attack, 1e-4))
    after = t > gate
    env[after] *= np.exp(-(t[after] - gate) / max(release, 1e-3))
    return env


def pluck(pitch: float, dur: float, velocity: float, rng: np.random.Generator,
          bright: float = 0.5, decay: float = 0.996) -> np.ndarray:
    """Karplus-Strong plucked string: a noise burst circulating in a delay line with an
    averaging low-pass, computed one period (block) at a time."""
    period = max(2, int(round(RATE / midi_hz(pitch))))
    length = int(min(dur + 0.3, 2.5) * RATE)
    blocks = length // period + 2
    y = np.zeros(blocks * period)
    burst = rng.uniform(-1, 1, period)
    # Brightness: smooth the excitation for a duller pluck.
    if bright < 1:
        k = max(1, int((1 - bright) * 6))
        burst = np.convolve(burst, np.ones(k) / k, mode="same")
    y[:period] = burst
    for b in range(1, blocks):
        prev = y[(b - 1) * period: b * period]
        shifted = np.concatenate(([y[(b - 1) * period - 1] if b > 1 else 0.0], prev[:-1]))
        y[b * period:(b + 1) * period] = decay * 0.5 * (prev + shifted)
    y = y[:length]
    gate = int(min(dur + 0.05, length / RATE) * RATE)
    if gate < length:  # damped when the note ends
        y[gate:] *= np.exp(-np.arange(length - gate) / (0.03 * RATE))
    return velocity * y / (np.abs(y).max() + 1e-9)


def fm(pitch: float, dur: float, velocity: float, ratio: float = 1.0, index: float = 2.0,
       index_decay: float = 8.0, decay: float = 2.0, attack: float = 0.003,
       release: float = 0.08) -> np.ndarray:
    """Two-operator FM with a decaying modulation index (electric piano, bass, bell, brass)."""
    f = midi_hz(pitch)
    t = _t(min(dur + release * 4, 3.0))
    idx = index * np.exp(-t * index_decay)
    y = np.sin(2 * np.pi * f * t + idx * np.sin(2 * np.pi * f * ratio * t))
    env = _adsr(len(t), attack, release, dur) * np.exp(-t * decay)
    return velocity * y * env


def brass(pitch: float, dur: float, velocity: float) -> np.ndarray:
    """FM brass: the index follows the envelope, so the tone brightens as it swells."""
    f = midi_hz(pitch)
    t = _t(min(dur + 0.3, 3.0))
    env = _adsr(len(t), 0.04, 0.07, dur)
    y = np.sin(2 * np.pi * f * t + 3.0 * env * np.sin(2 * np.pi * f * t))
    return velocity * y * env


def additive(pitch: float, dur: float, velocity: float, amps: list[float], attack: float,
             release: float, vibrato: float = 0.0, rng: np.random.Generator | None = None,
             decay: float = 0.0, breath: float = 0.0, inharmonic: float = 0.0) -> np.ndarray:
    """A sum of partials with an envelope, optional vibrato (in semitones, ~5.5 Hz),
    per-partial decay (higher partials faster), breath noise and stretched partials."""
    f = midi_hz(pitch)
    t = _t(min(dur + release * 4, 3.0))
    phase_mod = 0.0
    if vibrato:
        rate = 5.0 + (rng.uniform(0, 1.5) if rng is not None else 0.5)
        depth = f * (2 ** (vibrato / 12) - 1)
        phase_mod = depth / rate * np.sin(2 * np.pi * rate * t) * np.minimum(1, t / 0.3)
    y = np.zeros(len(t))
    for k, a in enumerate(amps, 1):
        fk = f * k * np.sqrt(1 + inharmonic * k * k)
        if fk > RATE / 2.2:
            break
        part = a * np.sin(2 * np.pi * (fk * t + k * phase_mod))
        if decay:
            part *= np.exp(-t * decay * (1 + 0.4 * k))
        y += part
    if breath and rng is not None:
        noise = rng.standard_normal(len(t))
        noise = np.convolve(noise, np.ones(8) / 8, mode="same")
        y += breath * noise
    env = _adsr(len(t), attack, release, dur)
    return velocity * y * env / (sum(amps) + 1e-9)


SAW = [1 / k for k in range(1, 13)]
SQUARE = [1 / k if k % 2 else 0.05 / k for k in range(1, 12)]


def piano(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, [1, 0.6, 0.35, 0.25, 0.15, 0.1, 0.06], 0.002, 0.12,
                    decay=1.2, inharmonic=0.0004)


def epiano(pitch, dur, velocity, rng):
    return fm(pitch, dur, velocity, ratio=1.0, index=1.8 + velocity, index_decay=6.0, decay=1.5)


def bell(pitch, dur, velocity, rng):
    return fm(pitch, dur, velocity, ratio=3.5, index=2.5, index_decay=3.0, decay=3.0)


def marimba(pitch, dur, velocity, rng):
    return fm(pitch, min(dur, 0.3), velocity, ratio=4.0, index=1.2, index_decay=20.0, decay=7.0)


def organ(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, [1, 0.8, 0.5, 0.6, 0.0, 0.3, 0, 0.25], 0.01, 0.05)


def accordion(pitch, dur, velocity, rng):
    a = additive(pitch, dur, velocity, SQUARE, 0.02, 0.05)
    b = additive(pitch + 0.08, dur, velocity, SQUARE, 0.02, 0.05)
    return 0.5 * (a + b)


def strings(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, SAW, rng.uniform(0.08, 0.2), 0.25, vibrato=0.12, rng=rng)


def fiddle(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, SAW, 0.025, 0.06, vibrato=0.1, rng=rng, breath=0.02)


def flute(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, [1, 0.3, 0.12, 0.05], 0.04, 0.06, vibrato=0.1, rng=rng,
                    breath=0.08)


def clarinet(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, [1, 0.02, 0.5, 0.02, 0.3, 0.02, 0.15], 0.03, 0.05,
                    vibrato=0.04, rng=rng)


def voice(pitch, dur, velocity, rng):
    return additive(pitch, dur, velocity, [1, 0.5, 0.7, 0.3, 0.1, 0.15, 0.05], 0.06, 0.12,
                    vibrato=0.2, rng=rng)


def guitar(pitch, dur, velocity, rng):
    return pluck(pitch, dur, velocity, rng, bright=0.6, decay=0.997)


def banjo(pitch, dur, velocity, rng):
    return pluck(pitch, min(dur, 0.4), velocity, rng, bright=1.0, decay=0.99)


def harp(pitch, dur, velocity, rng):
    return pluck(pitch, dur, velocity, rng, bright=0.3, decay=0.998)


def bass(pitch, dur, velocity, rng):
    return fm(pitch, dur, velocity, ratio=1.0, index=1.2, index_decay=10.0, decay=1.0, release=0.04)


def pluck_bass(pitch, dur, velocity, rng):
    return pluck(pitch, dur, velocity, rng, bright=0.2, decay=0.998)


def tuba(pitch, dur, velocity, rng):
    return brass(pitch, min(dur, 0.35), velocity)


def horn(pitch, dur, velocity, rng):
    return brass(pitch, dur, velocity)


# Drums: (velocity, rng) -> samples.
def kick(velocity, rng, tight=1.0):
    t = _t(0.35)
    phase = 2 * np.pi * np.cumsum(45 + 110 * np.exp(-t * 35 * tight)) / RATE
    click = rng.standard_normal(len(t)) * np.exp(-t * 400) * 0.3
    return velocity * (np.sin(phase) * np.exp(-t * 9 * tight) + click)


def _noise(rng, seconds, smooth=1):
    n = rng.standard_normal(int(seconds * RATE))
    if smooth > 1:
        n = np.convolve(n, np.ones(smooth) / smooth, mode="same")
    return n


def _highpass(x):
    return np.diff(x, prepend=0.0)


def snare(velocity, rng):
    t = _t(0.25)
    body = np.sin(2 * np.pi * 185 * t) * np.exp(-t * 25) + 0.5 * np.sin(2 * np.pi * 330 * t) * np.exp(-t * 30)
    rattle = _highpass(_noise(rng, 0.25, 2)) * np.exp(-t * 14)
    return velocity * (0.5 * body + 0.7 * rattle)


def rim(velocity, rng):
    t = _t(0.06)
    return velocity * (np.sin(2 * np.pi * 1700 * t) + 0.6 * np.sin(2 * np.pi * 820 * t)) * np.exp(-t * 90)


def clap(velocity, rng):
    t = _t(0.2)
    env = np.zeros(len(t))
    for d in (0.0, 0.011, 0.022):
        env += np.where(t >= d, np.exp(-(t - d) * 120), 0)
    env += np.exp(-t * 18) * 0.3
    return velocity * _highpass(_noise(rng, 0.2, 3)) * env


def hat(velocity, rng, open_=False):
    """Six detuned square waves (the classic metallic cymbal model), high-passed."""
    seconds = 0.35 if open_ else 0.05
    t = _t(seconds)
    freqs = np.array([205.3, 304.4, 369.6, 522.7, 540.0, 800.0]) * 1.7
    metal = sum(np.sign(np.sin(2 * np.pi * f * t)) for f in freqs)
    metal = _highpass(_highpass(metal + 2 * _noise(rng, seconds)))
    return velocity * 0.35 * metal * np.exp(-t * (7 if open_ else 70))


def ride(velocity, rng):
    t = _t(0.6)
    freqs = np.array([3000.0, 4325.0, 5120.0, 6600.0])
    metal = sum(np.sin(2 * np.pi * f * t + rng.uniform(0, 6)) for f in freqs)
    ping = np.sin(2 * np.pi * 2450 * t) * np.exp(-t * 25)
    return velocity * 0.35 * (metal * np.exp(-t * 4) + ping + 0.3 * _highpass(_noise(rng, 0.6)) * np.exp(-t * 6))


def shaker(velocity, rng):
    t = _t(0.07)
    env = np.sin(np.pi * np.minimum(1, t / 0.07)) ** 2
    return velocity * 0.4 * _highpass(_noise(rng, 0.07)) * env


def brush(velocity, rng):
    t = _t(0.18)
    env = np.minimum(1, t / 0.03) * np.exp(-t * 15)
    return velocity * 0.4 * _noise(rng, 0.18, 3) * env


def tom(velocity, rng, pitch_hz=110):
    t = _t(0.4)
    phase = 2 * np.pi * np.cumsum(pitch_hz * (1 + 0.5 * np.exp(-t * 30))) / RATE
    return velocity * np.sin(phase) * np.exp(-t * 8)


def bodhran(velocity, rng):
    t = _t(0.3)
    phase = 2 * np.pi * np.cumsum(85 * (1 + 0.3 * np.exp(-t * 40))) / RATE
    return velocity * (np.sin(phase) * np.exp(-t * 12) + 0.2 * _noise(rng, 0.3, 6) * np.exp(-t * 40))


def tambourine(velocity, rng):
    t = _t(0.15)
    jingle = sum(np.sin(2 * np.pi * f * t) for f in (5200.0, 6900.0, 8100.0))
    return velocity * 0.3 * (jingle + _highpass(_noise(rng, 0.15))) * np.exp(-t * 30)


PITCHED = {name: fn for name, fn in [
    ("piano", piano), ("epiano", epiano), ("bell", bell), ("marimba", marimba), ("organ", organ),
    ("accordion", accordion), ("strings", strings), ("fiddle", fiddle), ("flute", flute),
    ("clarinet", clarinet), ("voice", voice), ("guitar", guitar), ("banjo", banjo), ("harp", harp),
    ("bass", bass), ("pluck_bass", pluck_bass), ("tuba", tuba), ("horn", horn)]}

DRUMS = {"kick": kick, "snare": snare, "rim": rim, "clap": clap, "hat": hat,
         "ohat": lambda v, r: hat(v, r, open_=True), "ride": ride, "shaker": shaker, "brush": brush,
         "tom": tom, "ftom": lambda v, r: tom(v, r, 75), "bodhran": bodhran, "tamb": tambourine}
