"""Accompaniment and melody parts: bass lines, chord comping, arpeggios, pads, melodies
and chorales, all following the harmony in the `Context`."""
from __future__ import annotations

from .music import melody_pitches, melody_rhythm, pitch_near, voicing
from .score import Context, Score, VELOCITY, hits


def _bars(ctx: Context, start_bar: int, end_bar: int | None):
    return range(start_bar, ctx.bars if end_bar is None else min(end_bar, ctx.bars))


def bass_line(ctx: Context, score: Score, part: str, pattern: str, start_bar: int = 0,
              center: int = 40) -> None:
    """A bass riff repeated every bar. Symbols: 'x'/'X' root, '5' fifth, 'o' octave,
    'a' approach note (a semitone below the next chord's root), 'g' ghost root.
    Each note lasts until the next one."""
    for bar in _bars(ctx, start_bar, None):
        origin = bar * ctx.bar_beats
        onsets = hits(pattern, ctx.bar_beats)
        for i, (offset, symbol) in enumerate(onsets):
            beat = origin + offset
            nxt = onsets[i + 1][0] if i + 1 < len(onsets) else ctx.bar_beats
            chord = ctx.chord_at(beat)
            root = pitch_near(chord.root, center)
            if symbol == "5":
                pitch = root + 7 if root + 7 <= center + 9 else root - 5
            elif symbol == "o":
                pitch = root + 12
            elif symbol == "a":
                pitch = pitch_near(ctx.next_chord(beat).root, center) - 1
            else:
                pitch = root
            vel = {"X": 110, "g": 55}.get(symbol, 95)
            score.add(part, beat, (nxt - offset) * 0.95, pitch, vel)


def walking_bass(ctx: Context, score: Score, part: str, start_bar: int = 0) -> None:
    """Quarter-note walking bass: root on the chord's first beat, chord and scale tones
    after, a chromatic approach into the next chord."""
    scale = ctx.key.scale_pitches(28, 55)
    pitch = pitch_near(ctx.chords[0].root, 38)
    for beat in range(start_bar * ctx.bar_beats, int(ctx.total_beats)):
        chord = ctx.chord_at(beat)
        into_next = (beat + 1) % ctx.beats_per_chord < 1e-6
        if beat % ctx.beats_per_chord < 1e-6:
            pitch = pitch_near(chord.root, 38)
        elif into_next:
            target = pitch_near(ctx.next_chord(beat).root, 38)
            pitch = target + ctx.rng.choice((-1, 1))
        else:
            tones = [p for p in scale if p % 12 in chord.pcs and p != pitch]
            pitch = min(tones, key=lambda p: abs(p - pitch) + ctx.rng.random() * 5)
        score.add(part, beat, 0.95, pitch, 90 + ctx.rng.randrange(-8, 9))


def comp(ctx: Context, score: Score, part: str, pattern: str, center: int = 62,
         size: int = 3, start_bar: int = 0, end_bar: int | None = None,
         staccato: bool = False, bass_note: bool = False) -> None:
    """Block chords on the hits of a one-bar rhythm string, voice-led from chord to
    chord; held to the next hit unless `staccato`. `bass_note` adds the root an octave
    below the voicing (a pianist's left hand)."""
    previous = None
    for bar in _bars(ctx, start_bar, end_bar):
        origin = bar * ctx.bar_beats
        onsets = hits(pattern, ctx.bar_beats)
        for i, (offset, symbol) in enumerate(onsets):
            beat = origin + offset
            nxt = onsets[i + 1][0] if i + 1 < len(onsets) else ctx.bar_beats
            chord = ctx.chord_at(beat)
            notes = voicing(chord, center, previous, size)
            previous = notes
            dur = min(0.3, nxt - offset) if staccato else (nxt - offset)
            if bass_note:
                notes = [pitch_near(chord.root, min(notes) - 12)] + notes
            for pitch in notes:
                score.add(part, beat, dur, pitch, VELOCITY.get(symbol, 85) - 10)


def arpeggio(ctx: Context, score: Score, part: str, per_beat: int, shape: str = "up",
             center: int = 60, start_bar: int = 0, vel: int = 78) -> None:
    """Broken chords: `per_beat` notes per beat walking through the chord tones.
    Shapes: 'up', 'updown', 'alberti' (low, high, middle, high)."""
    step = 1 / per_beat
    n = int(round((ctx.bars - start_bar) * ctx.bar_beats * per_beat))
    for i in range(n):
        beat = start_bar * ctx.bar_beats + i * step
        chord = ctx.chord_at(beat)
        tones = voicing(chord, center, None, 3)
        tones = tones + [tones[0] + 12]
        k = int(round((beat % ctx.beats_per_chord) * per_beat))
        if shape == "alberti":
            pitch = tones[(0, 2, 1, 2)[k % 4]]
        elif shape == "updown":
            cycle = list(range(len(tones))) + list(range(len(tones) - 2, 0, -1))
            pitch = tones[cycle[k % len(cycle)]]
        else:
            pitch = tones[k % len(tones)]
        accent = 12 if abs(beat - round(beat)) < 1e-6 else 0
        score.add(part, beat, step * 1.6, pitch, vel + accent)


def pad(ctx: Context, score: Score, part: str, center: int = 60, size: int = 4,
        start_bar: int = 0, vel: int = 70) -> None:
    """Sustained chords, one per chord change, voice-led."""
    previous = None
    beat = start_bar * ctx.bar_beats
    while beat < ctx.total_beats - 1e-6:
        notes = voicing(ctx.chord_at(beat), center, previous, size)
        previous = notes
        for pitch in notes:
            score.add(part, beat, ctx.beats_per_chord, pitch, vel)
        beat += ctx.beats_per_chord


def melody(ctx: Context, score: Score, part: str, low: int = 62, high: int = 81,
           start_bar: int = 0, vel: int = 96, rest_chance: float = 0.12) -> None:
    """A tune in 4-bar phrases built from two 2-bar rhythm motifs (A B, then A B'),
    chord tones on the beats, a long note at each phrase end."""
    motif_a = melody_rhythm(ctx.rng, ctx.meter, ctx.bpm, 2, ctx.swing, rest_chance)
    pitch = None
    phrase_beats = 4 * ctx.bar_beats
    for phrase_start in range(start_bar, ctx.bars, 4):
        motif_b = melody_rhythm(ctx.rng, ctx.meter, ctx.bpm, 2, ctx.swing, rest_chance)
        origin = phrase_start * ctx.bar_beats
        rhythm = motif_a + [(o + 2 * ctx.bar_beats, d) for o, d in motif_b]
        final = phrase_beats - (ctx.bar_beats / 2 if ctx.bar_beats % 2 == 0 else ctx.bar_beats)
        rhythm = [(o, min(d, final - o)) for o, d in rhythm if o < final - 1e-6]
        rhythm.append((final, (phrase_beats - final) * 0.75))
        onsets = [origin + o for o, _ in rhythm if origin + o < ctx.total_beats]
        pitches = melody_pitches(ctx.rng, ctx.key, ctx.chord_at, onsets, low, high, pitch)
        for beat, (offset, dur), p in zip(onsets, rhythm, pitches):
            accent = 8 if abs(beat % ctx.bar_beats) < 1e-6 else 0
            score.add(part, beat, dur, p, vel + accent)
            pitch = p


def chorale(ctx: Context, score: Score, part: str, beats_per_chord: float = 1.0,
            center: int = 60, vel: int = 80, bass_part: str | None = None) -> None:
    """Homophonic four-part writing: every voice moves together once per
    `beats_per_chord`, a fresh inversion each time so the texture keeps moving."""
    previous = None
    beat = 0.0
    while beat < ctx.total_beats - 1e-6:
        chord = ctx.chord_at(beat)
        shift = ctx.rng.choice((-4, 0, 3, 5)) if beat % ctx.beats_per_chord else 0
        notes = voicing(chord, center + shift, previous, 3)
        previous = notes
        accent = 10 if beat % ctx.bar_beats < 1e-6 else 0
        for pitch in notes:
            score.add(part, beat, beats_per_chord, pitch, vel + accent)
        bass = pitch_near(chord.root, center - 19)
        score.add(bass_part or part, beat, beats_per_chord, bass, vel + accent)
        beat += beats_per_chord
