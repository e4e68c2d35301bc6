"""The metrical-level sets of issue 21: `levels-tuned` and `levels-unseen`.

Pieces are written as scores here (grid patterns per bar, chord progressions, melodies
from rhythm motifs) in 14 styles, each with three variants, and synthesised in numpy
(`synth.py`: Karplus-Strong, FM, additive, noise drums) — no MIDI, no soundfont, no
fluidsynth, unlike the `dev`/`test` sets. The label is the notated beat: the quarter note
in 2/4, 3/4 and 4/4, the dotted quarter in 6/8.

The split is a fixed rule, documented in docs/tempo-bench-notes.md:
- `levels-tuned`: variants A and B of every style, seeds 50,000 + i (four per variant);
- `levels-unseen`: variants A and B with seeds 90,000 + i (two per variant) and variant C
  of every style (three pieces), which never appears in the tuned set.
Only the tuned set may be used to choose or fit anything (`scripts/tempo-level-train`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
import hashlib
import json
import math
from pathlib import Path
import sys

import numpy as np
import soundfile as sf

from . import synth

DURATION_S = 30.0
RATE = synth.RATE
PEAK = 10 ** (-1 / 20)

METERS = {"2/4": (2, 4), "3/4": (3, 4), "4/4": (4, 4), "6/8": (2, 6)}  # beats per bar, steps per beat
MAJOR = [0, 2, 4, 5, 7, 9, 11]
MINOR = [0, 2, 3, 5, 7, 8, 10]
PROGRESSIONS = [[0, 3, 4, 0], [0, 5, 3, 4], [0, 4, 5, 3], [0, 3, 0, 4], [5, 3, 0, 4], [0, 1, 4, 0],
                [0, 5, 1, 4]]


@dataclass
class Part:
    kind: str            # drum, bass, comp, arp, melody, pad
    inst: str
    pat: str = ""        # one bar on the step grid
    gain_db: float = 0.0
    octave: int = 0
    density: float = 0.5  # melody: how busy
    grid: int = 2        # melody: finest step used (in grid steps)
    strum: bool = False
    order: str = "up"    # arp: up, updown, alberti


@dataclass
class Variant:
    meter: str
    bpm: tuple[float, float]
    parts: list[Part]
    swing: tuple[float, float] = (0.5, 0.5)
    chords_per_bar: float = 1.0
    rubato: float = 0.0
    jitter_ms: tuple[float, float] = (2.0, 9.0)
    fills: bool = False


@dataclass
class Style:
    name: str
    has_drums: bool
    variants: dict[str, Variant] = field(default_factory=dict)


P = Part


def _styles() -> dict[str, Style]:
    s: dict[str, Style] = {}
    s["classical_strings"] = Style("classical_strings", False, {
        "A": Variant("4/4", (60, 132), [P("bass", "strings", "R-------5-------", -2, -2),
                                         P("comp", "strings", "x---x---x---x---", -6, 0),
                                         P("melody", "fiddle", density=0.45, grid=2)], rubato=0.02,
                     jitter_ms=(5, 14)),
        "B": Variant("3/4", (72, 150), [P("bass", "strings", "R---5---5---", -3, -2),
                                         P("comp", "strings", "....x---x---", -7, 0),
                                         P("melody", "fiddle", density=0.5, grid=2)], rubato=0.02,
                     jitter_ms=(5, 14)),
        "C": Variant("4/4", (56, 112), [P("bass", "strings", "R---R---5---5---", -3, -2),
                                         P("arp", "strings", "x.x.x.x.x.x.x.x.", -6, 0, order="updown"),
                                         P("melody", "fiddle", density=0.3, grid=4)], rubato=0.02,
                     jitter_ms=(5, 14)),
    })
    s["piano_classical"] = Style("piano_classical", False, {
        "A": Variant("4/4", (60, 140), [P("arp", "piano", "x.x.x.x.x.x.x.x.", -6, -1, order="alberti"),
                                         P("melody", "piano", density=0.45, grid=2)], rubato=0.02),
        "B": Variant("3/4", (60, 150), [P("arp", "piano", "x.x.x.x.x.x.", -6, -1, order="updown"),
                                         P("melody", "piano", density=0.4, grid=2)], rubato=0.02),
        "C": Variant("2/4", (60, 100), [P("arp", "piano", "xxxxxxxx", -7, -1, order="updown"),
                                         P("melody", "piano", density=0.5, grid=2)], rubato=0.02),
    })
    s["chorale"] = Style("chorale", False, {
        "A": Variant("4/4", (56, 100), [P("comp", "organ", "x---x---x---x---", -3, 0),
                                         P("bass", "organ", "R---R---R---R---", -3, -1),
                                         P("melody", "organ", density=0.2, grid=4)], chords_per_bar=4),
        "B": Variant("3/4", (56, 100), [P("comp", "voice", "x---x---x---", -3, 0),
                                         P("bass", "voice", "R---R---R---", -3, -1),
                                         P("melody", "voice", density=0.2, grid=4)], chords_per_bar=3),
        "C": Variant("4/4", (56, 96), [P("comp", "horn", "x---x---x---x---", -4, 0),
                                        P("bass", "tuba", "R---R---R---R---", -3, -1),
                                        P("melody", "horn", density=0.2, grid=4)], chords_per_bar=4),
    })
    s["solo"] = Style("solo", False, {
        "A": Variant("4/4", (60, 130), [P("melody", "flute", density=0.55, grid=2)], rubato=0.02,
                     jitter_ms=(5, 15)),
        "B": Variant("3/4", (70, 150), [P("melody", "fiddle", density=0.6, grid=2)], rubato=0.02,
                     jitter_ms=(5, 15)),
        "C": Variant("6/8", (50, 90), [P("arp", "guitar", "x.x.x.x.x.x.", -2, -1, order="updown")],
                     rubato=0.02, jitter_ms=(5, 15)),
    })
    s["waltz"] = Style("waltz", False, {
        "A": Variant("3/4", (84, 180), [P("bass", "piano", "R---........", -2, -2),
                                         P("comp", "piano", "....x---x---", -7, 0),
                                         P("melody", "piano", density=0.45, grid=2)]),
        "B": Variant("3/4", (84, 180), [P("bass", "pluck_bass", "R---........", -1, -2),
                                         P("comp", "accordion", "....x---x---", -9, 0),
                                         P("melody", "accordion", density=0.45, grid=2)]),
        "C": Variant("3/4", (140, 195), [P("bass", "strings", "R-----------", -3, -2),
                                          P("comp", "strings", "....x...x...", -8, 0),
                                          P("melody", "fiddle", density=0.4, grid=4)]),
    })
    s["jig"] = Style("jig", False, {
        "A": Variant("6/8", (90, 130), [P("melody", "fiddle", density=0.9, grid=2),
                                         P("comp", "guitar", "x...x.x...x.", -6, 0, strum=True),
                                         P("bass", "pluck_bass", "R.....5.....", -3, -2)]),
        "B": Variant("6/8", (85, 125), [P("melody", "flute", density=0.85, grid=2),
                                         P("comp", "guitar", "x...x.x...x.", -7, 0, strum=True),
                                         P("drum", "bodhran", "X...x.X...x.", -4)]),
        "C": Variant("6/8", (48, 76), [P("arp", "harp", "x.x.x.x.x.x.", -5, -1, order="updown"),
                                        P("melody", "voice", density=0.3, grid=2)], rubato=0.02),
    })
    s["ragtime"] = Style("ragtime", False, {
        "A": Variant("2/4", (70, 110), [P("bass", "piano", "R...5...", -2, -2),
                                         P("comp", "piano", "..x...x.", -6, 0),
                                         P("melody", "piano", density=0.7, grid=1)]),
        "B": Variant("2/4", (70, 110), [P("bass", "pluck_bass", "R...5...", -1, -2),
                                         P("comp", "banjo", "..x...x.", -5, 0, strum=True),
                                         P("melody", "piano", density=0.7, grid=1)]),
        "C": Variant("2/4", (75, 115), [P("bass", "tuba", "R...5...", -2, -2),
                                         P("comp", "banjo", "..x...x.", -5, 0, strum=True),
                                         P("melody", "clarinet", density=0.6, grid=1)]),
    })
    s["folk_strum"] = Style("folk_strum", False, {
        "A": Variant("4/4", (76, 140), [P("comp", "guitar", "X.x.x.xxX.x.x.xx", -4, 0, strum=True),
                                         P("melody", "voice", density=0.4, grid=2)]),
        "B": Variant("3/4", (84, 170), [P("comp", "guitar", "X...x.x.x.x.", -4, 0, strum=True),
                                         P("melody", "voice", density=0.4, grid=2)]),
        "C": Variant("2/4", (100, 140), [P("bass", "accordion", "R...5...", -3, -2),
                                          P("comp", "accordion", "..x...x.", -9, 0),
                                          P("melody", "accordion", density=0.5, grid=2)]),
    })
    s["dance"] = Style("dance", True, {
        "A": Variant("4/4", (115, 132), [P("drum", "kick", "X...X...X...X...", 0),
                                          P("drum", "ohat", "..x...x...x...x.", -8),
                                          P("drum", "clap", "....X.......X...", -5),
                                          P("bass", "bass", "..R...R...R...R.", -3, -2),
                                          P("comp", "organ", "...x..x....x..x.", -10, 0),
                                          P("melody", "bell", density=0.3, grid=2)], fills=False),
        "B": Variant("4/4", (108, 128), [P("drum", "kick", "X...X...X...X...", 0),
                                          P("drum", "hat", "xoxoxoxoxoxoxoxo", -8),
                                          P("drum", "snare", "....X.......X...", -4),
                                          P("bass", "bass", "R.8.R.8.R.8.R.8.", -3, -2),
                                          P("pad", "strings", "x---------------", -10, 0),
                                          P("melody", "epiano", density=0.35, grid=2)], fills=True),
        "C": Variant("4/4", (125, 140), [P("drum", "kick", "X...X...X...X...", 0),
                                          P("drum", "ohat", "..x...x...x...x.", -8),
                                          P("drum", "rim", "..x..x....x..x..", -8),
                                          P("bass", "bass", "..RR..RR..RR..RR", -4, -2),
                                          P("comp", "marimba", "x..x..x...x..x..", -9, 0)]),
    })
    s["reggae"] = Style("reggae", True, {
        "A": Variant("4/4", (64, 92), [P("drum", "kick", "........X.......", 0),
                                        P("drum", "rim", "........X.......", -3),
                                        P("drum", "hat", "x.x.x.x.x.x.x.x.", -9),
                                        P("comp", "guitar", "....x.......x...", -5, 0),
                                        P("comp", "organ", "..x...x...x...x.", -12, 0),
                                        P("bass", "bass", "R.....5.R..R....", -2, -2)], swing=(0.5, 0.62)),
        "B": Variant("4/4", (64, 92), [P("drum", "kick", "X...X...X...X...", 0),
                                        P("drum", "rim", "........X.......", -4),
                                        P("drum", "hat", "..x...x...x...x.", -9),
                                        P("comp", "guitar", "....x.......x...", -5, 0),
                                        P("bass", "bass", "R...R.5.R...8...", -2, -2)], swing=(0.5, 0.6)),
        "C": Variant("4/4", (62, 88), [P("drum", "kick", "........X.......", 0),
                                        P("drum", "snare", "........X.......", -4),
                                        P("drum", "hat", "xoxoxoxoxoxoxoxo", -10),
                                        P("comp", "epiano", "....x.......x...", -6, 0),
                                        P("bass", "bass", "R......5..R.....", -2, -2)], swing=(0.5, 0.6)),
    })
    s["halftime"] = Style("halftime", True, {
        "A": Variant("4/4", (120, 170), [P("drum", "kick", "X.........X.....", 0),
                                          P("drum", "snare", "........X.......", -2),
                                          P("drum", "hat", "x.x.x.x.x.x.x.x.", -9),
                                          P("comp", "guitar", "x-------x-------", -6, -1, strum=True),
                                          P("bass", "pluck_bass", "R-------R-----5-", -3, -2)], fills=True),
        "B": Variant("4/4", (130, 160), [P("drum", "kick", "X......X..X.....", 0),
                                          P("drum", "clap", "........X.......", -3),
                                          P("drum", "hat", "xxxxxxxxxxxxxxxx", -11),
                                          P("bass", "bass", "R------R--R-----", -2, -2),
                                          P("pad", "strings", "x---------------", -12, 0)]),
        "C": Variant("4/4", (120, 165), [P("drum", "kick", "X.....X.......X.", 0),
                                          P("drum", "snare", "........X.......", -2),
                                          P("drum", "ride", "x...x...x...x...", -9),
                                          P("drum", "tom", "......x......x..", -8),
                                          P("bass", "pluck_bass", "R-------5-------", -3, -2),
                                          P("comp", "epiano", "x-------x-------", -9, 0)], fills=True),
    })
    s["breakbeat"] = Style("breakbeat", True, {
        "A": Variant("4/4", (85, 130), [P("drum", "kick", "X.X.......XX....", 0),
                                         P("drum", "snare", "....X..o.o..X..o", -2),
                                         P("drum", "ride", "x.x.x.x.x.x.x.x.", -10),
                                         P("bass", "bass", "R.....R...R.....", -3, -2),
                                         P("comp", "epiano", "x.....x.....x...", -9, 0)], fills=True),
        "B": Variant("4/4", (88, 115), [P("drum", "kick", "X.........X..X..", 0),
                                         P("drum", "snare", "....X..o.o..X...", -2),
                                         P("drum", "hat", "xoxoxoxoxoxoxoxo", -10),
                                         P("bass", "bass", "R..R......R..5..", -3, -2),
                                         P("comp", "guitar", "....x.......x...", -8, 0)], swing=(0.5, 0.58)),
        "C": Variant("4/4", (150, 176), [P("drum", "kick", "X.X.......XX....", 0),
                                          P("drum", "snare", "....X..o.o..X..o", -2),
                                          P("drum", "ride", "x.x.x.x.x.x.x.x.", -11),
                                          P("bass", "bass", "R---------------", -2, -2),
                                          P("pad", "strings", "x---------------", -12, 0)]),
    })
    s["march"] = Style("march", True, {
        "A": Variant("2/4", (104, 128), [P("drum", "kick", "X...X...", 0),
                                          P("drum", "snare", "x.ox.oxo", -5),
                                          P("bass", "tuba", "R...5...", -2, -2),
                                          P("comp", "horn", "..x...x.", -8, 0),
                                          P("melody", "horn", density=0.45, grid=2)], fills=True),
        "B": Variant("2/4", (100, 140), [P("drum", "kick", "X...X...", 0),
                                          P("drum", "snare", "..x...x.", -6),
                                          P("bass", "tuba", "R...5...", -2, -2),
                                          P("comp", "accordion", "..x...x.", -9, 0),
                                          P("melody", "accordion", density=0.5, grid=2)]),
        "C": Variant("6/8", (100, 125), [P("drum", "kick", "X.....X.....", 0),
                                          P("drum", "snare", "x.xx.xx.xx.x", -7),
                                          P("bass", "tuba", "R.....5.....", -2, -2),
                                          P("comp", "horn", "....x.....x.", -8, 0),
                                          P("melody", "clarinet", density=0.5, grid=2)]),
    })
    s["swing"] = Style("swing", True, {
        "A": Variant("4/4", (110, 180), [P("drum", "ride", "X...x.x.X...x.x.", -7),
                                          P("drum", "hat", "....x.......x...", -9),
                                          P("bass", "pluck_bass", "w...w...w...w...", -1, -2),
                                          P("comp", "epiano", "......x.....x...", -9, 0),
                                          P("melody", "clarinet", density=0.35, grid=2)], swing=(0.6, 0.68)),
        "B": Variant("4/4", (60, 92), [P("drum", "brush", "x...x...x...x...", -6),
                                        P("drum", "ride", "x.....x.....x...", -12),
                                        P("bass", "pluck_bass", "R-------5-------", -1, -2),
                                        P("comp", "piano", "x-------x-------", -8, 0),
                                        P("melody", "flute", density=0.35, grid=2)], swing=(0.6, 0.68)),
        "C": Variant("4/4", (185, 230), [P("drum", "ride", "X...x.x.X...x.x.", -7),
                                          P("drum", "hat", "....x.......x...", -9),
                                          P("bass", "pluck_bass", "w...w...w...w...", -1, -2),
                                          P("comp", "piano", "..x.......x.....", -9, 0)], swing=(0.55, 0.62)),
    })
    s["rock"] = Style("rock", True, {
        "A": Variant("4/4", (90, 160), [P("drum", "kick", "X.......X.X.....", 0),
                                         P("drum", "snare", "....X.......X...", -2),
                                         P("drum", "hat", "x.x.x.x.x.x.x.x.", -9),
                                         P("comp", "guitar", "x.x.x.x.x.x.x.x.", -7, -1, strum=True),
                                         P("bass", "pluck_bass", "R.R.R.R.R.R.R.R.", -3, -2)], fills=True),
        "B": Variant("4/4", (80, 150), [P("drum", "kick", "X.....X.X.......", 0),
                                         P("drum", "snare", "....X.......X...", -2),
                                         P("drum", "tamb", "x...x...x...x...", -10),
                                         P("comp", "piano", "x...x...x...x...", -7, 0),
                                         P("bass", "bass", "R.....R.5.......", -3, -2),
                                         P("melody", "voice", density=0.35, grid=2)], fills=True),
        "C": Variant("4/4", (96, 156), [P("drum", "kick", "X..X....X..X....", 0),
                                         P("drum", "snare", "....X.......X...", -2),
                                         P("drum", "shaker", "xoxoxoxoxoxoxoxo", -10),
                                         P("comp", "organ", "x-------x-------", -10, 0),
                                         P("bass", "bass", "R..R....5..5....", -3, -2),
                                         P("melody", "horn", density=0.3, grid=2)]),
    })
    return s


STYLES = _styles()
TUNED_VARIANTS = ("A", "B")
UNSEEN_ONLY = ("C",)


@dataclass(frozen=True)
class PieceSpec:
    stem: str
    style: str
    variant: str
    seed: int
    stratum: int
    strata: int


def set_pieces(name: str) -> list[PieceSpec]:
    """The fixed split (see the module docstring)."""
    out: list[PieceSpec] = []
    if name == "levels-tuned":
        plan, base = [(v, 4) for v in TUNED_VARIANTS], 50_000
    elif name == "levels-unseen":
        plan, base = [(v, 2) for v in TUNED_VARIANTS] + [(v, 3) for v in UNSEEN_ONLY], 90_000
    elif name == "levels-smoke":
        plan, base = [("A", 1)], 70_000
    else:
        raise KeyError(name)
    for style in STYLES:
        for variant, count in plan:
            for k in range(count):
                i = len(out)
                out.append(PieceSpec(f"{i:03d}-{style}-{variant}", style, variant, base + i, k, count))
    return out


# --- composition -------------------------------------------------------------------

def _chord(scale: list[int], tonic: int, degree: int) -> list[int]:
    """A triad on a scale degree, as MIDI pitches around middle C."""
    return [60 + tonic + scale[(degree + k) % 7] + 12 * ((degree + k) // 7) for k in (0, 2, 4)]


def _strength(step: int, spb: int, beats: int) -> float:
    """Metric strength of a grid step: downbeat 1, beats .8, half/third beats .5, else .25."""
    if step == 0:
        return 1.0
    if step % spb == 0:
        return 0.8
    half = spb // 2 if spb == 4 else 2
    return 0.5 if step % half == 0 else 0.25


def _melody_rhythm(rng, steps: int, spb: int, beats: int, density: float, grid: int, bars: int) -> list[list[int]]:
    """Onset steps for `bars` bars: a 2-bar motif repeated, sometimes varied."""
    def motif() -> list[list[int]]:
        out = []
        for _ in range(2):
            hits = []
            for st in range(0, steps, grid):
                p = density * (0.35 + _strength(st, spb, beats))
                if rng.random() < min(0.97, p):
                    hits.append(st)
            if not hits:
                hits = [0]
            out.append(hits)
        return out
    m = motif()
    bars_out: list[list[int]] = []
    while len(bars_out) < bars:
        if rng.random() < 0.3:
            m = motif()
        bars_out.extend(m)
    return bars_out[:bars]


@dataclass
class Note:
    pos: float   # in beats
    dur: float   # in beats
    inst: str
    pitch: float
    vel: float
    part: int
    drum: bool = False


def compose(spec: PieceSpec) -> tuple[list[Note], dict]:
    rng = np.random.default_rng(spec.seed)
    style = STYLES[spec.style]
    v = style.variants[spec.variant]
    beats, spb = METERS[v.meter]
    steps = beats * spb
    lo, hi = v.bpm
    # Tempo stratified within the variant, log-uniform within the stratum.
    frac = (spec.stratum + rng.random()) / spec.strata
    bpm = round(float(math.exp(math.log(lo) + frac * (math.log(hi) - math.log(lo)))), 1)
    bar_s = beats * 60 / bpm
    bars = int(math.ceil((DURATION_S + 1.0) / bar_s)) + 1
    scale = MAJOR if rng.random() < 0.6 else MINOR
    tonic = int(rng.integers(-5, 7))
    prog = PROGRESSIONS[int(rng.integers(len(PROGRESSIONS)))]
    cpb = v.chords_per_bar
    if cpb == 1 and bar_s < 1.3 and rng.random() < 0.6:
        cpb = 0.5
    notes: list[Note] = []
    chord_len = beats / cpb  # beats per chord

    def chord_at(pos: float) -> tuple[list[int], int]:
        idx = int(pos // chord_len)
        if cpb > 1:  # chorale: a new chord every beat, a cadence every bar
            degree = int(rng_chords[idx % len(rng_chords)])
        else:
            degree = prog[idx % len(prog)]
        return _chord(scale, tonic, degree), degree

    rng_chords = rng.choice([0, 1, 2, 3, 4, 5], size=512, p=[0.3, 0.1, 0.1, 0.2, 0.2, 0.1])
    drums_from = 0
    if style.has_drums and rng.random() < 0.3:
        drums_from = int(rng.choice([1, 2])) if bar_s < 2.5 else 1
    fill_every = int(rng.choice([4, 8])) if v.fills else 0

    for pi, part in enumerate(v.parts):
        if part.kind == "melody":
            rhythm = _melody_rhythm(rng, steps, spb, beats, part.density, part.grid, bars)
            pitch_idx = 14 + int(rng.integers(-2, 3))  # scale index, around an octave above C
            for b in range(bars):
                hits = rhythm[b]
                if b % 4 == 3 and rng.random() < 0.5:  # phrase end: hold the first note
                    hits = hits[:1]
                for j, st in enumerate(hits):
                    pos = b * beats + st / spb
                    end = b * beats + (hits[j + 1] / spb if j + 1 < len(hits) else beats)
                    chord, _ = chord_at(pos)
                    if _strength(st, spb, beats) >= 0.8:
                        # chord tone nearest the current pitch
                        target = min(chord, key=lambda c: abs((c % 12) - ((60 + tonic + scale[pitch_idx % 7]) % 12)))
                        pitch = target + 12 * int(round((60 + scale[pitch_idx % 7] + 12 * (pitch_idx // 7) - 84 - target) / 12)) + 12
                        pitch = float(np.clip(pitch, 62 + tonic, 88))
                    else:
                        pitch_idx = int(np.clip(pitch_idx + rng.choice([-2, -1, -1, 1, 1, 2]), 9, 20))
                        pitch = 60 + tonic + scale[pitch_idx % 7] + 12 * (pitch_idx // 7 - 1) + 12
                    vel = 0.55 + 0.35 * _strength(st, spb, beats) + rng.normal(0, 0.05)
                    notes.append(Note(pos, max(0.1, end - pos), part.inst, pitch + 12 * part.octave, vel, pi))
            continue
        pat = part.pat
        assert len(pat) == steps, (spec.style, spec.variant, part.pat)
        arp_i = 0
        for b in range(bars):
            for st, ch in enumerate(pat):
                if ch in ".-":
                    continue
                pos = b * beats + st / spb
                # duration: up to the next non-hold step
                k = st + 1
                while k < steps and pat[k] == "-":
                    k += 1
                dur = (k - st) / spb
                if k < steps or pat[0] != "-":
                    dur = max(dur * 0.9, 0.05)
                vel = {"X": 1.0, "x": 0.75, "o": 0.35}.get(ch, 0.8) + rng.normal(0, 0.06)
                chord, degree = chord_at(pos)
                if part.kind == "drum":
                    if b < drums_from:
                        continue
                    if fill_every and b % fill_every == fill_every - 1 and pos - b * beats >= beats - 1:
                        continue  # the last beat of a fill bar is the fill's
                    notes.append(Note(pos, 0.1, part.inst, 0, vel, pi, drum=True))
                elif part.kind == "bass":
                    root = chord[0] - 12 + 12 * part.octave
                    if ch == "5":
                        pitch = root + 7
                    elif ch == "8":
                        pitch = root + 12
                    elif ch == "w":
                        nxt, _ = chord_at(pos + 1)
                        pitch = root if (st % (spb * 2) == 0) else nxt[0] - 12 + 12 * part.octave + int(rng.choice([-1, 2, -2]))
                    else:
                        pitch = root
                    notes.append(Note(pos, dur, part.inst, pitch, vel, pi))
                elif part.kind in ("comp", "pad"):
                    voicing = [c + 12 * part.octave for c in chord]
                    for j, p in enumerate(voicing):
                        off = j * 0.012 * bpm / 60 if part.strum else 0.0  # 12 ms per string, in beats
                        notes.append(Note(pos + off, dur, part.inst, p, vel * 0.8, pi))
                elif part.kind == "arp":
                    tones = [c + 12 * part.octave for c in chord] + [chord[0] + 12 + 12 * part.octave]
                    if part.order == "alberti":
                        seq = [tones[0], tones[2], tones[1], tones[2]]
                    elif part.order == "updown":
                        seq = tones + tones[-2:0:-1]
                    else:
                        seq = tones
                    p = seq[arp_i % len(seq)]
                    arp_i += 1
                    notes.append(Note(pos, dur, part.inst, p, vel * (1.0 if st % spb == 0 else 0.85), pi))
        if part.kind == "drum" and fill_every and part.inst in ("snare", "kick"):
            for b in range(fill_every - 1, bars, fill_every):
                if b < drums_from:
                    continue
                if part.inst == "snare":
                    n = spb
                    for j in range(n):
                        notes.append(Note(b * beats + beats - 1 + j / n, 0.1, "snare" if j % 2 == 0 else "tom",
                                          0, 0.5 + 0.4 * j / n, pi, drum=True))
                else:
                    notes.append(Note(b * beats + beats - 1, 0.1, "kick", 0, 0.9, pi, drum=True))
    meta = {"bpm": bpm, "meter": v.meter, "has_drums": style.has_drums or any(p.kind == "drum" for p in v.parts),
            "style": spec.style, "variant": spec.variant, "seed": spec.seed, "drums_from_bar": drums_from,
            "fill_every": fill_every}
    return notes, meta


def render(spec: PieceSpec, path: Path) -> dict:
    notes, meta = compose(spec)
    rng = np.random.default_rng(spec.seed + 7)
    v = STYLES[spec.style].variants[spec.variant]
    bpm = meta["bpm"]
    beats, spb = METERS[v.meter]
    swing = float(rng.uniform(*v.swing))
    jitter = float(rng.uniform(*v.jitter_ms)) / 1000
    rubato = v.rubato * float(rng.uniform(0.3, 1.0))
    rub_period = float(rng.uniform(6, 14))  # seconds
    n = int((DURATION_S + 4) * RATE)
    tracks = [np.zeros(n) for _ in v.parts]
    sec_per_beat = 60.0 / bpm

    def seconds(pos: float) -> float:
        if spb == 4 and swing != 0.5:
            whole, frac = divmod(pos, 1.0)
            if frac < 0.5:
                frac = frac / 0.5 * swing
            else:
                frac = swing + (frac - 0.5) / 0.5 * (1 - swing)
            pos = whole + frac
        t = pos * sec_per_beat
        if rubato:  # a slow tempo wave: the mean tempo is the label
            t += rubato * rub_period / (2 * np.pi) * np.sin(2 * np.pi * t / rub_period)
        return t

    for note in notes:
        t0 = seconds(note.pos) + float(np.clip(rng.normal(0, jitter), -2.5 * jitter, 2.5 * jitter))
        if t0 < 0 or t0 >= DURATION_S + 0.5:
            continue
        vel = float(np.clip(note.vel + rng.normal(0, 0.05), 0.05, 1.2))
        if note.drum:
            sound = synth.DRUMS[note.inst](vel, rng)
        else:
            dur = max(0.05, seconds(note.pos + note.dur) - seconds(note.pos))
            sound = synth.PITCHED[note.inst](note.pitch, dur, vel, rng)
        i = int(t0 * RATE)
        m = min(len(sound), n - i)
        if m > 0:
            tracks[note.part][i:i + m] += sound[:m]
    mix = np.zeros(n)
    gains = []
    for part, track in zip(v.parts, tracks):
        g = 10 ** ((part.gain_db + rng.uniform(-3, 3)) / 20)
        gains.append(round(20 * math.log10(g), 1))
        peak = np.abs(track).max()
        if peak > 0:
            mix += g * track / peak
    # Room: exponentially decaying noise as an impulse response.
    wet = float(rng.uniform(0.0, 0.3))
    if wet > 0.01:
        rt = float(rng.uniform(0.4, 1.8))
        ir_n = int(rt * RATE)
        ir = rng.standard_normal(ir_n) * np.exp(-np.arange(ir_n) / RATE * 6.9 / rt)
        ir /= np.sqrt(np.sum(ir ** 2))
        from scipy.signal import fftconvolve
        mix = (1 - wet) * mix + wet * fftconvolve(mix, ir)[:n]
    mix = mix[: int(DURATION_S * RATE)]
    fade = int(0.5 * RATE)
    mix[-fade:] *= np.linspace(1, 0, fade)
    mix += rng.standard_normal(len(mix)) * 1e-4 * np.abs(mix).max()  # a noise floor
    mix *= PEAK / (np.abs(mix).max() + 1e-12)
    sf.write(path, mix.astype(np.float32), RATE, subtype="PCM_16")
    rms_db = round(20 * math.log10(float(np.sqrt(np.mean(mix ** 2))) + 1e-12), 1)
    return {**meta, "swing": round(swing, 3), "jitter_ms": round(jitter * 1000, 1),
            "rubato": round(rubato, 3), "reverb_wet": round(wet, 3), "rms_db": rms_db,
            "instruments": sorted({p.inst for p in v.parts})}


def generator_hash() -> str:
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for name in ("synth.py", "levels.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def _work(args):
    spec, folder = args
    entry = render(spec, Path(folder) / f"{spec.stem}.wav")
    return {"file": f"{spec.stem}.wav", **entry, "synth": "numpy (KS/FM/additive)"}


def build(name: str, root: Path, jobs: int = 2, log=sys.stderr) -> dict:
    """Renders a levels set (unless cached with the same generator) and returns its manifest."""
    folder = root / name
    path = folder / "manifest.json"
    if path.exists():
        manifest = json.loads(path.read_text())
        if manifest.get("generator") == generator_hash() and all((folder / p["file"]).exists() for p in manifest["pieces"]):
            return manifest
    print(f"bench-tempo: composing and synthesising the {name} set in {folder}", file=log, flush=True)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.wav"):
        stale.unlink()
    specs = set_pieces(name)
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pieces = list(pool.map(_work, [(s, str(folder)) for s in specs]))
    manifest = {"set": name, "synth": "numpy (KS/FM/additive)", "generator": generator_hash(),
                "duration_s": DURATION_S, "sample_rate": RATE, "pieces": pieces}
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"bench-tempo: {len(pieces)} pieces ready", file=log, flush=True)
    return manifest


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "levels-smoke"
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(".bench/tempo-songs")
    m = build(name, root)
    for p in m["pieces"]:
        print(f'{p["file"]:34} {p["bpm"]:6.1f} {p["meter"]:4} {p["rms_db"]} dB')
