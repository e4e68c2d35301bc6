"""Music-theory helpers for the tempo test set: meters, keys, chords, voicings, melodies.

Everything is measured in *felt beats* (the beat a listener taps: the quarter note in
2/4 3/4 4/4 5/4, the dotted quarter in 6/8 and 12/8). The MIDI writer converts felt
beats to quarter notes with `Meter.beat_q`.
"""
from __future__ import annotations

from dataclasses import dataclass
import random

MAJOR = (0, 2, 4, 5, 7, 9, 11)
MINOR = (0, 2, 3, 5, 7, 8, 10)


@dataclass(frozen=True)
class Meter:
    """A time signature: `beats` felt beats per bar, each `beat_q` quarter notes long,
    naturally divided into `sub` parts (2 in simple meters, 3 in compound ones)."""
    name: str
    beats: int
    beat_q: float
    sub: int

    @property
    def signature(self) -> tuple[int, int]:
        """(numerator, denominator) for the MIDI time_signature meta message."""
        num, den = self.name.split("/")
        return int(num), int(den)


METERS = {
    "2/4": Meter("2/4", 2, 1.0, 2),
    "3/4": Meter("3/4", 3, 1.0, 2),
    "4/4": Meter("4/4", 4, 1.0, 2),
    "5/4": Meter("5/4", 5, 1.0, 2),
    "6/8": Meter("6/8", 2, 1.5, 3),
    "12/8": Meter("12/8", 4, 1.5, 3),
}

# Chord progressions as 0-based scale degrees, one chord per harmonic step.
PROGRESSIONS = {
    "major": [(0, 4, 5, 3), (5, 3, 0, 4), (0, 5, 3, 4), (0, 3, 4, 3), (1, 4, 0, 0),
              (0, 3, 0, 4), (0, 2, 3, 4), (0, 5, 1, 4, 0, 5, 3, 4), (3, 0, 4, 5)],
    "minor": [(0, 5, 2, 6), (0, 3, 4, 0), (0, 6, 5, 4), (0, 5, 3, 4), (0, 3, 6, 2),
              (0, 0, 3, 4)],
}


@dataclass(frozen=True)
class Chord:
    """A chord as pitch classes, root first (then third, fifth, and seventh if any)."""
    root: int
    pcs: tuple[int, ...]


@dataclass(frozen=True)
class Key:
    """A tonic pitch class and a mode ("major" or "minor")."""
    tonic: int
    mode: str

    @property
    def scale(self) -> tuple[int, ...]:
        return MAJOR if self.mode == "major" else MINOR

    def chord(self, degree: int, seventh: bool = False) -> Chord:
        """The diatonic triad (or seventh chord) on a scale degree; V is major in minor."""
        scale = self.scale
        steps = (0, 2, 4, 6) if seventh else (0, 2, 4)
        pcs = [(self.tonic + scale[(degree + s) % 7]) % 12 for s in steps]
        if self.mode == "minor" and degree == 4:
            pcs[1] = (pcs[1] + 1) % 12  # harmonic-minor leading tone
        return Chord(pcs[0], tuple(pcs))

    def scale_pitches(self, low: int, high: int) -> list[int]:
        """All MIDI pitches of the scale within [low, high]."""
        pcs = {(self.tonic + s) % 12 for s in self.scale}
        return [p for p in range(low, high + 1) if p % 12 in pcs]


def pitch_near(pc: int, target: int) -> int:
    """The MIDI pitch of pitch class `pc` closest to `target`."""
    base = target - ((target - pc) % 12)
    return base if target - base <= 6 else base + 12


def voicing(chord: Chord, center: int, previous: list[int] | None = None,
            size: int = 3) -> list[int]:
    """A close voicing of `size` notes around `center`; with `previous`, the inversion
    that moves the voices least (simple voice leading)."""
    pcs = list(chord.pcs)
    while len(pcs) < size:
        pcs.append(pcs[0])
    options = []
    for inversion in range(len(pcs)):
        order = pcs[inversion:] + pcs[:inversion]
        notes = [pitch_near(order[0], center - 5)]
        for pc in order[1:size]:
            notes.append(notes[-1] + ((pc - notes[-1]) % 12 or 12))
        options.append(notes)
    if previous:
        return min(options, key=lambda v: sum(abs(a - b) for a, b in zip(v, sorted(previous))))
    return min(options, key=lambda v: abs(sum(v) / len(v) - center))


def melody_cells(meter: Meter, bpm: float, swing: bool) -> list[list[tuple[float, float]]]:
    """Rhythm cells that fill one felt beat: lists of (offset, duration) in beats.
    Slow tempos get busier cells, fast ones plainer ones."""
    if meter.sub == 3 or swing:
        cells = [[(0, 1)], [(0, 2 / 3), (2 / 3, 1 / 3)], [(0, 1 / 3), (1 / 3, 1 / 3), (2 / 3, 1 / 3)]]
        if meter.sub == 3 and bpm < 80:
            cells.append([(0, 1 / 3), (1 / 3, 2 / 3)])
        return cells
    cells = [[(0, 1)], [(0, 0.5), (0.5, 0.5)], [(0, 0.75), (0.75, 0.25)]]
    if bpm < 110:
        cells += [[(0, 0.25), (0.25, 0.25), (0.5, 0.5)], [(0, 0.5), (0.5, 0.25), (0.75, 0.25)]]
    if bpm > 150:
        cells += [[(0, 1)], [(0, 1)]]  # weight plain quarter notes up at fast tempos
    return cells


def melody_rhythm(rng: random.Random, meter: Meter, bpm: float, bars: int,
                  swing: bool = False, rest_chance: float = 0.12) -> list[tuple[float, float]]:
    """A rhythm motif `bars` bars long: (onset, duration) in beats from the motif start.
    Some beats are tied over (a held note) or left as rests, like a sung line."""
    cells = melody_cells(meter, bpm, swing)
    out: list[tuple[float, float]] = []
    for beat in range(bars * meter.beats):
        roll = rng.random()
        if out and roll < 0.18 and out[-1][0] + out[-1][1] >= beat - 1e-6:
            onset, dur = out[-1]
            out[-1] = (onset, dur + 1)  # hold the previous note through this beat
        elif roll < 0.18 + rest_chance and beat % meter.beats != 0:
            continue
        else:
            out += [(beat + o, d) for o, d in rng.choice(cells)]
    return out


def melody_pitches(rng: random.Random, key: Key, chord_at, onsets: list[float],
                   low: int, high: int, start: int | None = None) -> list[int]:
    """Pitches for a melody: a chord tone (from `chord_at(beat)`) on every beat, mostly
    stepwise scale motion in between, starting near `start`."""
    scale = key.scale_pitches(low, high)
    pitch = start if start is not None else scale[len(scale) // 2]
    out = []
    for onset in onsets:
        if abs(onset - round(onset)) < 1e-6:
            chord = chord_at(onset)
            tones = [p for p in range(low, high + 1) if p % 12 in chord.pcs]
            pitch = min(tones, key=lambda p: abs(p - pitch) + rng.random() * 4)
        else:
            i = min(range(len(scale)), key=lambda j: abs(scale[j] - pitch))
            i = max(0, min(len(scale) - 1, i + rng.choice((-2, -1, -1, 1, 1, 2))))
            pitch = scale[i]
        out.append(pitch)
    return out
