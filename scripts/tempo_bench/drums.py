"""Drum grooves, fills and intros, written as rhythm strings (one character per step).

A groove maps a General MIDI drum name to a string spread evenly over one bar:
'X' accent, 'x' normal, '-' soft, 'g' ghost note, 'o' (hi-hat row) open hi-hat.
"""
from __future__ import annotations

from .score import Context, Score, VELOCITY, hits

GM_DRUMS = {"kick": 36, "rim": 37, "snare": 38, "clap": 39, "hat": 42, "pedal": 44, "open": 46,
            "crash": 49, "ride": 51, "bell": 53, "tamb": 54, "cowbell": 56, "shaker": 70,
            "tom_hi": 50, "tom_mid": 47, "tom_low": 45, "tom_floor": 41}

GROOVES: dict[str, list[dict[str, str]]] = {
    "rock": [  # 4/4, sixteenth grid
        {"kick": "x.......x.x.....", "snare": "....X.......X...", "hat": "X.x.X.x.X.x.X.x."},
        {"kick": "x.....x...x.....", "snare": "....X.......X...", "hat": "X.x.X.x.X.x.X.x."},
        {"kick": "x.x.....x.x...x.", "snare": "....X.......X...", "hat": "x.x.x.x.x.x.x.x."},
    ],
    "rock_fast": [  # 4/4 above ~165 BPM: quarter-note cymbals, two-beat kick
        {"kick": "x.......x.......", "snare": "....X.......X...", "hat": "x...x...x...x..."},
        {"kick": "x.....x.x.......", "snare": "....X.......X...", "ride": "x...x...x...x..."},
    ],
    "pop": [  # four on the floor
        {"kick": "x...x...x...x...", "clap": "....X.......X...", "hat": "x.o.x.o.x.o.x.o."},
        {"kick": "x...x...x...x...", "snare": "....X.......X...", "hat": "xxxxxxxxxxxxxxxx",
         "tamb": "....x.......x..."},
    ],
    "funk": [
        {"kick": "x..x..x...x..x..", "snare": "....X..g.g..X..g", "hat": "XxxxXxxxXxxxXxxx"},
        {"kick": "x.x...x..x.x....", "snare": "....X.g....gX.g.", "hat": "X-x-X-x-X-x-X-o-"},
    ],
    "halftime": [  # snare on beat 3, eighth-note hats keep the quarter pulse
        {"kick": "x.........x.....", "snare": "........X.......", "hat": "X.x.X.x.X.x.X.x."},
        {"kick": "x.....x...x.....", "snare": "........X.......", "hat": "x.x.x.x.x.x.x.o."},
    ],
    "swing": [  # 4/4, triplet grid: spang-a-lang ride, hi-hat foot on 2 and 4
        {"ride": "X..x.xX..x.x", "pedal": "...x.....x..", "kick": "g..g..g..g.."},
        {"ride": "x..x.xx..x.x", "pedal": "...x.....x..", "kick": "-.........-."},
    ],
    "waltz": [  # 3/4
        {"kick": "x...........", "snare": "....x...x...", "hat": "x.x.x.x.x.x."},
        {"kick": "x.....x.....", "snare": "........X...", "hat": "X.x.x.x.x.x."},
        {"ride": "X..x.xx..", "kick": "x........", "pedal": "...x..x.."},  # jazz waltz
    ],
    "six_eight": [  # 2 dotted-quarter beats, eighth grid
        {"kick": "x.....", "snare": "...X..", "hat": "Xxxxxx"},
        {"kick": "x....x", "snare": "...X..", "ride": "Xx-Xx-"},
    ],
    "twelve_eight": [  # 4 dotted-quarter beats, eighth grid (slow blues, shuffle)
        {"kick": "x.....x.....", "snare": "...X.....X..", "hat": "XxxXxxXxxXxx"},
        {"kick": "x..x..x..x..", "snare": "...X.....X..", "ride": "X.xX.xX.xX.x"},
    ],
    "five_four": [  # 5/4 split 3+2
        {"kick": "x.......x...x.......", "snare": "....X...........X...",
         "hat": "X.x.x.x.x.x.X.x.x.x."},
        {"kick": "x.....x.....x.......", "snare": "....X.......x...X...",
         "ride": "x.x.x.x.x.x.x.x.x.x."},
    ],
    "march": [  # 2/4 polka / march
        {"kick": "x...x...", "snare": "..x...x.", "hat": "..x...x."},
        {"kick": "x...x...", "snare": "x.xxx.x."},
    ],
}


def groove_for(style: str, bpm: float, index: int) -> dict[str, str]:
    """The groove a style uses (fast rock switches to a two-beat feel)."""
    family = "rock_fast" if style == "rock" and bpm > 165 else style
    options = GROOVES[family]
    return options[index % len(options)]


def fill(ctx: Context, score: Score, part: str, bar: int, beats: int) -> None:
    """A fill over the last `beats` beats of a bar: snare and toms on the finest
    natural grid (16ths, or triplets in compound/swing feel), loudening towards the end."""
    per_beat = 3 if (ctx.meter.sub == 3 or ctx.swing) else (4 if ctx.bpm < 150 else 2)
    start = (bar + 1) * ctx.bar_beats - beats
    steps = beats * per_beat
    drums = ["snare", "snare", "tom_hi", "tom_mid", "tom_low", "tom_floor"]
    kind = ctx.rng.random()
    for i in range(steps):
        if kind < 0.3:
            name = "snare"
        else:
            name = drums[min(len(drums) - 1, i * len(drums) // steps)]
        if ctx.rng.random() < 0.15 and i not in (0, steps - 1):
            continue
        vel = 70 + 45 * i // max(1, steps - 1)
        score.add(part, start + i / per_beat, 0.2, GM_DRUMS[name], vel)


def play_drums(ctx: Context, score: Score, style: str, groove_index: int = 0,
               intro_groove: dict[str, str] | None = None) -> str:
    """Writes the drum part: optional intro (silence or `intro_groove`), the main groove
    from bar `ctx.drums_from`, a B-groove for the second half, fills at phrase ends and
    a crash cymbal at each phrase start. Returns the part name."""
    part = score.part("drums", 0, volume=108, drums=True)
    main = groove_for(style, ctx.bpm, groove_index)
    second = groove_for(style, ctx.bpm, groove_index + (1 if ctx.rng.random() < 0.5 else 0))
    phrase = ctx.fill_every or 8
    for bar in range(ctx.bars):
        origin = bar * ctx.bar_beats
        if bar < ctx.drums_from:
            groove = intro_groove
        else:
            groove = main if bar < ctx.bars // 2 else second
        fill_beats = 0
        if ctx.is_fill_bar(bar) and (groove is not None or bar == ctx.drums_from - 1):
            fill_beats = 1 if ctx.rng.random() < 0.6 or ctx.bar_beats < 3 else 2
        for name, pattern in (groove or {}).items():
            for offset, symbol in hits(pattern, ctx.bar_beats):
                if fill_beats and offset >= ctx.bar_beats - fill_beats - 1e-6:
                    continue
                note = GM_DRUMS["open" if symbol == "o" and name == "hat" else name]
                score.add(part, origin + offset, 0.25, note, VELOCITY[symbol])
        if groove is not None and style == "swing" and bar >= ctx.drums_from:
            for step in range(ctx.bar_beats * 3):  # snare "comping" on triplet offbeats
                if step % 3 and ctx.rng.random() < 0.12:
                    score.add(part, origin + step / 3, 0.2, GM_DRUMS["snare"], 40 + ctx.rng.randrange(25))
        if fill_beats:
            fill(ctx, score, part, bar, fill_beats)
        if bar == ctx.drums_from or (bar > ctx.drums_from and (bar - ctx.drums_from) % phrase == 0):
            score.add(part, origin, 1.0, GM_DRUMS["crash"], 105)
            if "kick" not in (groove or {}):
                score.add(part, origin, 0.2, GM_DRUMS["kick"], 100)
    return part
