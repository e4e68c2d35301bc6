"""The score a style builder fills in, and the MIDI file written from it.

A `Score` holds notes in felt beats. `write_midi` turns it into a type-1 MIDI file with
humanised timing (a few ms of Gaussian jitter per note) and velocity variation, so the
rendered audio is not machine-exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import random

import mido

from .music import Chord, Key, Meter

PPQ = 960
DRUM_CHANNEL = 9
VELOCITY = {"X": 115, "x": 92, "-": 68, "g": 42, "o": 92}


def hits(pattern: str, bar_beats: float) -> list[tuple[float, str]]:
    """Onsets of a rhythm string spread evenly over a bar: (offset in beats, symbol).
    '.' is silence; any other character is a hit (see VELOCITY for loudness)."""
    step = bar_beats / len(pattern)
    return [(i * step, c) for i, c in enumerate(pattern) if c != "."]


@dataclass
class Context:
    """What every part of one piece shares: tempo, meter, key, harmony and form."""
    rng: random.Random
    key: Key
    meter: Meter
    bpm: float
    bars: int
    chords: list[Chord]
    beats_per_chord: float
    swing: bool = False
    drums_from: int = 0
    fill_every: int = 0

    @property
    def bar_beats(self) -> int:
        return self.meter.beats

    @property
    def total_beats(self) -> float:
        return self.bars * self.meter.beats

    def chord_at(self, beat: float) -> Chord:
        """The chord sounding at a beat."""
        return self.chords[min(int(beat // self.beats_per_chord + 1e-9), len(self.chords) - 1)]

    def next_chord(self, beat: float) -> Chord:
        """The chord that follows the one sounding at a beat."""
        return self.chord_at(beat + self.beats_per_chord)

    def is_fill_bar(self, bar: int) -> bool:
        """True for the last bar of each phrase (when fills are on) and the bar before
        the drums enter."""
        if bar == self.drums_from - 1:
            return True
        return bool(self.fill_every) and bar >= self.drums_from and bar % self.fill_every == self.fill_every - 1


@dataclass
class Part:
    """One instrument: a General MIDI program on a channel, its mix level and pan."""
    channel: int
    program: int
    volume: int = 100
    pan: int = 64
    legato: bool = False


@dataclass
class Score:
    """Notes per part, in felt beats: (beat, duration, pitch, velocity)."""
    parts: dict[str, Part] = field(default_factory=dict)
    notes: dict[str, list[tuple[float, float, int, int]]] = field(default_factory=dict)

    def part(self, name: str, program: int, volume: int = 100, pan: int = 64,
             legato: bool = False, drums: bool = False) -> str:
        """Declares a part; channels are assigned in order, drums always on channel 10."""
        melodic = [p.channel for p in self.parts.values() if p.channel != DRUM_CHANNEL]
        channel = DRUM_CHANNEL if drums else len(melodic)
        self.parts[name] = Part(channel, program, volume, pan, legato)
        self.notes[name] = []
        return name

    def add(self, part: str, beat: float, dur: float, pitch: int, vel: int) -> None:
        """Adds one note; pitches and velocities are clamped to the MIDI range."""
        self.notes[part].append((beat, dur, max(0, min(127, pitch)), max(1, min(127, vel))))


def write_midi(score: Score, ctx: Context, path: str, jitter_ms: float, seed: int) -> None:
    """Writes the score as a MIDI file. Each onset moves by N(0, jitter_ms) (clamped to
    ±2.5 σ), each velocity by N(0, 6); the tempo map holds one constant tempo."""
    rng = random.Random(seed)
    meter = ctx.meter
    ticks_per_beat = PPQ * meter.beat_q
    beats_per_second = ctx.bpm / 60.0
    midi = mido.MidiFile(type=1, ticks_per_beat=PPQ)
    conductor = mido.MidiTrack()
    num, den = meter.signature
    conductor.append(mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(ctx.bpm * meter.beat_q)))
    conductor.append(mido.MetaMessage("time_signature", numerator=num, denominator=den))
    midi.tracks.append(conductor)
    for name, part in score.parts.items():
        spans = []
        for beat, dur, pitch, vel in score.notes[name]:
            shift = max(-2.5, min(2.5, rng.gauss(0, 1))) * jitter_ms / 1000 * beats_per_second
            start = max(0.0, beat + shift)
            length = dur * (1.04 if part.legato else 0.92)
            on = round(start * ticks_per_beat)
            off = max(on + 10, round((start + length) * ticks_per_beat))
            spans.append([on, off, pitch, max(1, min(127, round(vel + rng.gauss(0, 6))))])
        spans.sort()
        last_on: dict[int, list[int]] = {}
        for span in reversed(spans):  # a note ends before the next one of the same pitch
            later = last_on.get(span[2])
            if later is not None:
                span[1] = max(span[0] + 1, min(span[1], later[0]))
            last_on[span[2]] = span
        events = []
        for on, off, pitch, v in spans:
            events.append((on, 1, mido.Message("note_on", channel=part.channel, note=pitch, velocity=v)))
            events.append((off, 0, mido.Message("note_off", channel=part.channel, note=pitch, velocity=0)))
        track = mido.MidiTrack()
        track.append(mido.MetaMessage("track_name", name=name))
        if part.channel != DRUM_CHANNEL:
            track.append(mido.Message("program_change", channel=part.channel, program=part.program))
        track.append(mido.Message("control_change", channel=part.channel, control=7, value=part.volume))
        track.append(mido.Message("control_change", channel=part.channel, control=10, value=part.pan))
        now = 0
        for tick, _, message in sorted(events, key=lambda e: (e[0], e[1])):
            track.append(message.copy(time=tick - now))
            now = tick
        midi.tracks.append(track)
    midi.save(path)
