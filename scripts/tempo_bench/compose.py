"""Composes the pieces of a set: which styles, how many, their seeds and tempos.

`compose_piece` is deterministic in its seed: the same seed gives the same MIDI file.
Tempos are stratified within each style (piece k of n draws from the k-th n-th of the
style's range), so every set spreads over ballads to fast pieces.
"""
from __future__ import annotations

from dataclasses import dataclass
import math
import random

from .music import METERS, PROGRESSIONS, Key
from .score import Context, Score, write_midi
from .styles import COMPOUND_BPM, STYLES

DURATION_S = 40.0
SOUNDFONTS = {"TimGM6mb": "/usr/share/sounds/sf2/TimGM6mb.sf2",
              "FluidR3_GM": "/usr/share/sounds/sf2/FluidR3_GM.sf2"}

DRUM_RECIPE = [("rock", 7), ("pop", 3), ("swing", 5), ("funk", 4), ("halftime", 4),
               ("waltz", 5), ("six_eight", 4), ("twelve_eight", 3), ("five_four", 3),
               ("march", 2)]
NO_DRUM_RECIPE = [("piano_chords", 3), ("piano_arpeggio", 3), ("piano_melody", 2),
                  ("strings_legato", 3), ("strings_pad", 2), ("choir", 3), ("pizzicato", 2),
                  ("organ", 2)]
SMOKE_RECIPE = [("rock", 1), ("swing", 1), ("waltz", 1), ("six_eight", 1),
                ("piano_arpeggio", 1), ("choir", 1)]


@dataclass(frozen=True)
class SetSpec:
    """A named test set: its base seed, the soundfont that renders it, its recipe."""
    name: str
    seed: int
    synth: str
    recipe: list[tuple[str, int]]


SETS = {
    "smoke": SetSpec("smoke", 3000, "TimGM6mb", SMOKE_RECIPE),
    "dev": SetSpec("dev", 1000, "TimGM6mb", DRUM_RECIPE + NO_DRUM_RECIPE),
    "test": SetSpec("test", 2000, "FluidR3_GM", DRUM_RECIPE + NO_DRUM_RECIPE),
}


@dataclass
class PieceSpec:
    """One piece to compose: its file stem, style, seed and tempo stratum (k of n)."""
    stem: str
    style: str
    seed: int
    stratum: int
    strata: int


def pieces(spec: SetSpec) -> list[PieceSpec]:
    """The pieces of a set, in a fixed order."""
    out = []
    for style, count in spec.recipe:
        for k in range(count):
            index = len(out)
            out.append(PieceSpec(f"{index:03d}-{style}", style, spec.seed * 1000 + index, k, count))
    return out


def compose_piece(piece: PieceSpec, midi_path: str) -> dict:
    """Composes one piece, writes its MIDI file and returns its manifest entry
    (without the audio file name and synth, which the renderer adds)."""
    rng = random.Random(piece.seed)
    style = STYLES[piece.style]
    meter = METERS[rng.choice(style.meters)]
    low, high = COMPOUND_BPM if meter.sub == 3 else style.bpm
    strata = list(range(piece.strata))
    random.Random(piece.seed - piece.stratum).shuffle(strata)  # same shuffle per style
    fraction = (strata[piece.stratum] + rng.random()) / piece.strata
    bpm = round(low + fraction * (high - low), 1)
    bar_s = meter.beats * 60.0 / bpm
    mode = "minor" if rng.random() < 0.4 else "major"
    key = Key(rng.randrange(12), mode)
    progression = rng.choice(PROGRESSIONS[mode])
    beats_per_chord = float(meter.beats)
    if bar_s < 1.4 and rng.random() < 0.5:
        beats_per_chord *= 2
    elif bar_s > 3.2 and meter.beats == 4 and rng.random() < 0.5:
        beats_per_chord /= 2
    bars = math.ceil((DURATION_S + 1.0) / bar_s) + 1
    n_chords = math.ceil(bars * meter.beats / beats_per_chord) + 2
    seventh = piece.style in ("swing", "five_four") or rng.random() < 0.15
    chords = [key.chord(progression[i % len(progression)], seventh) for i in range(n_chords)]
    drums_from = 0
    if style.has_drums and rng.random() < 0.35:
        drums_from = rng.choice((1, 2, 4)) if bar_s < 2.5 else rng.choice((1, 2))
    fill_every = rng.choice((0, 4, 4, 8, 8))
    ctx = Context(rng, key, meter, bpm, bars, chords, beats_per_chord,
                  drums_from=drums_from, fill_every=fill_every)
    score = Score()
    style.build(ctx, score)
    jitter_ms = round(rng.uniform(2.0, 8.0), 1)
    write_midi(score, ctx, midi_path, jitter_ms, piece.seed + 1)
    return {"bpm": bpm, "meter": meter.name, "has_drums": style.has_drums, "style": piece.style,
            "seed": piece.seed, "key": f"{key.tonic} {key.mode}", "drums_from_bar": drums_from,
            "fill_every": fill_every, "jitter_ms": jitter_ms, "swing": ctx.swing,
            "parts": {name: part.program for name, part in score.parts.items()}}
