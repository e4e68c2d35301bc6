"""The styles of the test set: for each, whether it has drums, its meters, its tempo
range (felt beats per minute) and a builder that writes its parts into a `Score`.

General MIDI programs are 0-based (0 grand piano, 33 fingered bass, 48 strings, ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import parts
from .drums import play_drums
from .score import Context, Score


@dataclass(frozen=True)
class Style:
    """A kind of piece: drums or not, meters to choose from, tempo range, builder."""
    name: str
    has_drums: bool
    meters: tuple[str, ...]
    bpm: tuple[float, float]
    build: Callable[[Context, Score], None]


def grid(ctx: Context, cell_simple: str, cell_compound: str | None = None) -> str:
    """A one-bar rhythm string repeating a one-beat cell (simple or compound meter)."""
    cell = cell_compound if ctx.meter.sub == 3 and cell_compound else cell_simple
    return cell * ctx.bar_beats


def pick(ctx: Context, *options):
    """One of the options, drawn from the piece's random generator."""
    return ctx.rng.choice(options)


def _lead(ctx: Context, s: Score, programs: tuple[int, ...], start_bar: int, **kw) -> None:
    if ctx.rng.random() < 0.8:
        lead = s.part("lead", pick(ctx, *programs), volume=92, pan=70)
        parts.melody(ctx, s, lead, start_bar=start_bar, **kw)


# --- styles with drums ---------------------------------------------------------------

def rock(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "rock", ctx.rng.randrange(3), _intro(ctx))
    bass = s.part("bass", pick(ctx, 33, 34), volume=105)
    parts.bass_line(ctx, s, bass, pick(ctx, "x.x.x.x.x.x.x.a.", "x.......x.x...5.", "x.x.x.x.x.x.o.x."))
    if ctx.rng.random() < 0.6:
        gtr = s.part("guitar", pick(ctx, 29, 30), volume=78, pan=40)
        parts.comp(ctx, s, gtr, pick(ctx, "x.x.x.x.x.x.x.x.", "x..x..x...x..x.."), center=55)
    else:
        keys = s.part("piano", pick(ctx, 0, 1, 16), volume=80, pan=40)
        parts.comp(ctx, s, keys, "x...x...x...x...", center=62)
    _lead(ctx, s, (65, 56, 81, 29, 73), ctx.drums_from)


def pop(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "pop", ctx.rng.randrange(2), _intro(ctx))
    bass = s.part("bass", pick(ctx, 38, 33, 39), volume=100)
    parts.bass_line(ctx, s, bass, pick(ctx, "x..x..x...x..x..", "x.o.x.o.x.o.x.o."))
    keys = s.part("keys", pick(ctx, 4, 0, 5), volume=78, pan=44)
    parts.comp(ctx, s, keys, pick(ctx, "x..x..x...x.x...", "..x...x...x...x."), center=64)
    if ctx.rng.random() < 0.5:
        parts.pad(ctx, s, s.part("pad", pick(ctx, 48, 89, 50), volume=60), vel=60)
    _lead(ctx, s, (80, 73, 11, 81), ctx.drums_from)


def swing(ctx: Context, s: Score) -> None:
    ctx.swing = True
    play_drums(ctx, s, "swing", ctx.rng.randrange(2), _intro(ctx))
    parts.walking_bass(ctx, s, s.part("bass", 32, volume=110))
    if ctx.rng.random() < 0.6:
        piano = s.part("piano", 0, volume=76, pan=44)
        parts.comp(ctx, s, piano, pick(ctx, "x....x......", "...x.....x..", "x....x...x.."), size=4)
    else:
        gtr = s.part("guitar", 25, volume=70, pan=44)
        parts.comp(ctx, s, gtr, "x..x..x..x..", center=58, size=4, staccato=True)
    _lead(ctx, s, (65, 66, 56, 11, 57), ctx.drums_from)


def funk(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "funk", ctx.rng.randrange(2), _intro(ctx))
    bass = s.part("bass", pick(ctx, 36, 33, 37), volume=105)
    parts.bass_line(ctx, s, bass, pick(ctx, "x..x..o.x.g..xa.", "x.gx..x.o..x.xg."))
    gtr = s.part("guitar", pick(ctx, 27, 28), volume=70, pan=36)
    parts.comp(ctx, s, gtr, pick(ctx, "..x..x...x.x..x.", ".x.x..x..x.x.x.."), center=64, staccato=True)
    if ctx.rng.random() < 0.5:
        brass = s.part("brass", 61, volume=80, pan=90)
        parts.comp(ctx, s, brass, "....x.......x..x", center=67, staccato=True)
    else:
        parts.comp(ctx, s, s.part("keys", 4, volume=70, pan=90), "x.......x.......", center=60)
    _lead(ctx, s, (65, 80, 56), ctx.drums_from)


def halftime(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "halftime", ctx.rng.randrange(2), _intro(ctx))
    bass = s.part("bass", pick(ctx, 38, 33), volume=100)
    parts.bass_line(ctx, s, bass, pick(ctx, "x.........x.....", "x.....x...x.....", "x.x.x.x.x.x.x.x."))
    parts.comp(ctx, s, s.part("piano", pick(ctx, 0, 4), volume=76), "x.......x.......", center=60)
    parts.pad(ctx, s, s.part("pad", pick(ctx, 89, 48, 91), volume=62), vel=60)
    _lead(ctx, s, (81, 85, 65, 29), ctx.drums_from)


def waltz(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "waltz", ctx.rng.randrange(3), _intro(ctx))
    bass = s.part("bass", pick(ctx, 32, 58, 33), volume=100)
    parts.bass_line(ctx, s, bass, pick(ctx, "x.....", "x...5."))
    chords = s.part("chords", pick(ctx, 0, 21, 24), volume=78, pan=44)
    parts.comp(ctx, s, chords, "..x.x.", center=62, staccato=ctx.rng.random() < 0.5)
    _lead(ctx, s, (40, 73, 21, 71), ctx.drums_from)


def six_eight(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "six_eight", ctx.rng.randrange(2), _intro(ctx))
    parts.bass_line(ctx, s, s.part("bass", pick(ctx, 33, 32), volume=100), pick(ctx, "x..5..", "x....a"))
    if ctx.rng.random() < 0.6:
        arp = s.part("arp", pick(ctx, 25, 0, 24), volume=80, pan=40)
        parts.arpeggio(ctx, s, arp, 3, pick(ctx, "up", "updown"), center=60)
    else:
        parts.comp(ctx, s, s.part("piano", 0, volume=78), "xxxxxx", center=62)
    if ctx.rng.random() < 0.4:
        parts.pad(ctx, s, s.part("pad", 48, volume=58), vel=58)
    _lead(ctx, s, (40, 73, 65, 71), ctx.drums_from)


def twelve_eight(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "twelve_eight", ctx.rng.randrange(2), _intro(ctx))
    bass = s.part("bass", pick(ctx, 33, 34), volume=100)
    parts.bass_line(ctx, s, bass, pick(ctx, "x.5o.5x.5o.a", "x..x..x..x.."))
    keys = s.part("keys", pick(ctx, 0, 16, 17), volume=72, pan=44)
    parts.comp(ctx, s, keys, pick(ctx, "x.xx.xx.xx.x", "xxxxxxxxxxxx"), center=62, size=4)
    _lead(ctx, s, (27, 66, 29, 56), ctx.drums_from)


def five_four(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "five_four", ctx.rng.randrange(2), _intro(ctx))
    bass = s.part("bass", pick(ctx, 32, 33), volume=100)
    parts.bass_line(ctx, s, bass, pick(ctx, "x.......x...x.....a.", "x...5...x...x...5..."))
    piano = s.part("piano", pick(ctx, 0, 4), volume=76, pan=44)
    parts.comp(ctx, s, piano, pick(ctx, "x.....x.....x...x...", "x...x...x.x...x....."), center=62)
    _lead(ctx, s, (65, 66, 73), ctx.drums_from)


def march(ctx: Context, s: Score) -> None:
    play_drums(ctx, s, "march", ctx.rng.randrange(2), _intro(ctx))
    parts.bass_line(ctx, s, s.part("bass", 58, volume=100), "x...5...")
    chords = s.part("chords", pick(ctx, 21, 61, 0), volume=76, pan=44)
    parts.comp(ctx, s, chords, "..x...x.", center=64, staccato=True)
    _lead(ctx, s, (71, 56, 72), ctx.drums_from)


def _intro(ctx: Context) -> dict[str, str] | None:
    """Before the drums enter: silence from the kit, or (sometimes) a bare hi-hat pulse."""
    if ctx.drums_from and ctx.rng.random() < 0.3:
        return {"hat": grid(ctx, "x.", "x..")}
    return None


# --- styles without drums ------------------------------------------------------------

def piano_chords(ctx: Context, s: Score) -> None:
    piano = s.part("piano", pick(ctx, 0, 1, 4), volume=100)
    if ctx.rng.random() < 0.5:
        parts.comp(ctx, s, piano, grid(ctx, "x.", "x.."), center=62, bass_note=True)
    else:
        lh = s.part("left", 0, volume=92)
        parts.bass_line(ctx, s, lh, "x." if ctx.bar_beats % 2 == 0 else "x..", center=43)
        parts.comp(ctx, s, piano, grid(ctx, ".x", ".xx"), center=64)
    if ctx.rng.random() < 0.5:
        parts.melody(ctx, s, s.part("melody", 0, volume=96), low=67, high=86, start_bar=2)


def piano_arpeggio(ctx: Context, s: Score) -> None:
    per_beat = 3 if ctx.meter.sub == 3 else pick(ctx, 2, 4) if ctx.bpm < 110 else 2
    arp = s.part("arp", pick(ctx, 0, 1, 46), volume=96)
    parts.arpeggio(ctx, s, arp, per_beat, pick(ctx, "up", "updown", "alberti"), center=60)
    parts.bass_line(ctx, s, s.part("left", 0, volume=90), "x" + "." * 11, center=40)
    if ctx.rng.random() < 0.5:
        parts.melody(ctx, s, s.part("melody", 0, volume=100), low=69, high=88, start_bar=2)


def piano_melody(ctx: Context, s: Score) -> None:
    parts.melody(ctx, s, s.part("melody", 0, volume=104), low=64, high=84)
    lh = s.part("left", 0, volume=84)
    pattern = pick(ctx, "x" + "." * 11, grid(ctx, "x.", "x.."))
    parts.comp(ctx, s, lh, pattern, center=52, bass_note=True)


def strings_legato(ctx: Context, s: Score) -> None:
    parts.pad(ctx, s, s.part("strings", pick(ctx, 48, 49), volume=80), center=58, vel=70)
    tune = s.part("violins", pick(ctx, 40, 48, 41), volume=100, legato=True)
    parts.melody(ctx, s, tune, low=67, high=88, rest_chance=0.05)
    cellos = s.part("cellos", pick(ctx, 42, 43), volume=92)
    parts.bass_line(ctx, s, cellos, pick(ctx, "x" + "." * 11, "x." if ctx.bar_beats % 2 == 0 else "x..",
                                         grid(ctx, "x.", "x..")), center=40)


def strings_pad(ctx: Context, s: Score) -> None:
    parts.pad(ctx, s, s.part("pad", pick(ctx, 49, 50, 48), volume=88), center=60, vel=72)
    tune = s.part("tune", pick(ctx, 73, 68, 60, 40), volume=96, legato=True)
    parts.melody(ctx, s, tune, low=65, high=84, rest_chance=0.25, start_bar=1)
    parts.bass_line(ctx, s, s.part("bass", pick(ctx, 42, 43), volume=88),
                    pick(ctx, "x" + "." * 11, grid(ctx, "x.", "x..")), center=40)


def choir(ctx: Context, s: Score) -> None:
    voices = s.part("choir", pick(ctx, 52, 53), volume=100)
    basses = s.part("basses", 52, volume=90)
    parts.chorale(ctx, s, voices, pick(ctx, 1.0, 1.0, 2.0), center=64, bass_part=basses)
    if ctx.rng.random() < 0.4:
        parts.melody(ctx, s, s.part("solo", 53, volume=92, legato=True), low=69, high=84, start_bar=2)


def pizzicato(ctx: Context, s: Score) -> None:
    pizz = s.part("pizz", 45, volume=104)
    parts.arpeggio(ctx, s, pizz, ctx.meter.sub if ctx.bpm < 140 else 1, pick(ctx, "up", "updown"),
                   center=64, vel=88)
    parts.bass_line(ctx, s, s.part("bass", 45, volume=100), grid(ctx, "x.", "x.."), center=43)
    if ctx.rng.random() < 0.5:
        parts.melody(ctx, s, s.part("tune", pick(ctx, 73, 9, 71), volume=90), low=72, high=88)


def organ(ctx: Context, s: Score) -> None:
    if ctx.rng.random() < 0.5:
        church = s.part("organ", 19, volume=96)
        parts.chorale(ctx, s, church, pick(ctx, 1.0, 2.0), center=62,
                      bass_part=s.part("pedal", 19, volume=88))
    else:
        hammond = s.part("organ", pick(ctx, 16, 17), volume=90)
        parts.comp(ctx, s, hammond, grid(ctx, ".x", ".xx"), center=62, size=4)
        parts.bass_line(ctx, s, s.part("bass", 16, volume=90), grid(ctx, "x.", "x.."), center=40)
        if ctx.rng.random() < 0.5:
            parts.melody(ctx, s, s.part("lead", 17, volume=90), low=67, high=84, start_bar=2)


COMPOUND_BPM = (60.0, 100.0)
STYLES = {style.name: style for style in [
    Style("rock", True, ("4/4",), (84, 200), rock),
    Style("pop", True, ("4/4",), (96, 130), pop),
    Style("swing", True, ("4/4",), (100, 200), swing),
    Style("funk", True, ("4/4",), (84, 118), funk),
    Style("halftime", True, ("4/4",), (120, 170), halftime),
    Style("waltz", True, ("3/4",), (84, 190), waltz),
    Style("six_eight", True, ("6/8",), COMPOUND_BPM, six_eight),
    Style("twelve_eight", True, ("12/8",), COMPOUND_BPM, twelve_eight),
    Style("five_four", True, ("5/4",), (100, 176), five_four),
    Style("march", True, ("2/4",), (96, 132), march),
    Style("piano_chords", False, ("4/4", "4/4", "3/4", "6/8"), (60, 140), piano_chords),
    Style("piano_arpeggio", False, ("4/4", "3/4", "6/8", "12/8"), (60, 150), piano_arpeggio),
    Style("piano_melody", False, ("4/4", "3/4", "2/4"), (64, 150), piano_melody),
    Style("strings_legato", False, ("4/4", "3/4", "6/8"), (60, 120), strings_legato),
    Style("strings_pad", False, ("4/4", "3/4"), (60, 110), strings_pad),
    Style("choir", False, ("4/4", "3/4"), (60, 110), choir),
    Style("pizzicato", False, ("4/4", "2/4", "6/8"), (80, 180), pizzicato),
    Style("organ", False, ("4/4", "3/4"), (66, 132), organ),
]}
