#!/usr/bin/env python3
"""The score-corpus tempo set: real scores, kept unseen by tuning (docs/tempo-bench-notes.md,
"The score corpus").

    .bench/corpus-venv/bin/python scripts/tempo_corpus.py build [--out DIR] [--limit N]

Builds DIR (default .bench/tempo-songs/corpus/) from music21's bundled corpus — scores written by
people, not by our composer: Irish and Scottish dance tunes (Ryan's Mammoth Collection, O'Neill's
1850), German folk songs (the Essen collection), Bach chorales, and classical and ragtime
movements (Beethoven, Mozart, Haydn, Schumann, Joplin, …). Only pieces whose notated beat is the
one a listener taps are taken (docs explain the rule):

- one time signature throughout, 2/4, 3/4 or 4/4 (beat: the quarter) or 6/8 (the dotted quarter);
- no reels in 4/4 or 2/2, hornpipes, strathspeys or slip jigs (their felt beat is not the notated one);
- a tempo drawn in a range that keeps the notated beat the natural one for the style (a jig's
  dotted quarter 100–124, a chorale's quarter 66–96, …), replacing the score's own marks.

Each piece is rendered by fluidsynth with Debian's FluidR3 General MIDI soundfont at its first
30 s (pieces of at least 12 s), instruments drawn per piece; a third of the dance and folk tunes
get a drum part that follows the metre (kick on the downbeat, snare on the backbeat, hats on the
subdivision), the rest stay solo. The manifest (manifest.json) has tempo_bench's format:
{"set", "pieces": [{"file", "bpm", "style", "meter", "drums", "source", …}]}.

Needs music21 and mido (the venv `scripts/bench-tempo corpus` makes), fluidsynth, ffmpeg.
"""
from __future__ import annotations

import argparse
import functools
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
SAMPLE_RATE = 44100
CLIP_S = 30.0
MIN_S = 12.0
SEED = 20261127

# The notated beat in quarter notes, by time signature.
BEAT = {"2/4": 1.0, "3/4": 1.0, "4/4": 1.0, "6/8": 1.5}
BEATS_PER_BAR = {"2/4": 2, "3/4": 3, "4/4": 4, "6/8": 2}

# Tempo ranges (notated beats per minute) by style and metre.
RANGES = {
    ("jig", "6/8"): (100, 124), ("march", "6/8"): (100, 120), ("march", "2/4"): (104, 126),
    ("march", "4/4"): (100, 120), ("polka", "2/4"): (100, 126), ("reel", "2/4"): (100, 120),
    ("waltz", "3/4"): (96, 144), ("air", "3/4"): (72, 110), ("air", "4/4"): (66, 96),
    ("air", "2/4"): (72, 104), ("air", "6/8"): (56, 84),
    ("folk", "2/4"): (80, 120), ("folk", "3/4"): (90, 140), ("folk", "4/4"): (76, 116), ("folk", "6/8"): (60, 100),
    ("chorale", "4/4"): (66, 96), ("chorale", "3/4"): (72, 104),
    ("classical", "2/4"): (72, 120), ("classical", "3/4"): (84, 140), ("classical", "4/4"): (66, 120),
    ("classical", "6/8"): (54, 96), ("ragtime", "2/4"): (88, 112), ("ragtime", "4/4"): (80, 104),
}

SOLO = [0, 40, 73, 21, 24, 71, 46, 22, 68, 105, 11, 25, 65, 56]   # GM programs for a melody
STRINGS = [40, 40, 41, 42, 43]
KEYS = [0, 2, 4, 5, 19, 48, 52]                                    # piano, e-piano, organ, strings, choir


def dance_style(name: str) -> str | None:
    """The style of a dance-tune collection's piece from its title, or None to leave it out."""
    lower = name.lower()
    for word in ("slipjig", "slip jig", "hornpipe", "strathspey", "clog", "schottische", "reel"):
        if word in lower:
            return "reel" if word == "reel" else None
    for word, style in (("jig", "jig"), ("waltz", "waltz"), ("march", "march"), ("polka", "polka"),
                        ("air", "air"), ("lament", "air"), ("song", "air")):
        if word in lower:
            return style
    return None


def candidates(rng: random.Random) -> list[tuple[str, str, int | None]]:
    """(corpus path, style, opus index or None) to try, in a fixed shuffled order per source."""
    from music21 import corpus
    paths = [str(p) for p in corpus.getPaths()]
    rel = [p.split("/corpus/")[1] for p in paths]
    out: list[tuple[str, str, int | None]] = []
    ryans = [r for r in rel if r.startswith("ryansMammoth/")]
    rng.shuffle(ryans)
    out += [(r, s, None) for r in ryans if (s := dance_style(Path(r).stem)) is not None][:90]
    for collection, count in (("oneills1850/", 3), ("essenFolksong/", 8)):
        files = sorted(r for r in rel if r.startswith(collection))
        rng.shuffle(files)
        for f in files[:count]:
            for i in rng.sample(range(0, 40), 6):
                out.append((f, "jig" if collection.startswith("oneills") else "folk", i))
    chorales = sorted(r for r in rel if r.startswith("bach/bwv") and r.endswith((".mxl", ".xml", ".musicxml")))
    rng.shuffle(chorales)
    out += [(c, "chorale", None) for c in chorales[:45]]
    classical = sorted(r for r in rel if r.split("/")[0] in (
        "beethoven", "mozart", "haydn", "schumann_robert", "schumann_clara", "chopin", "handel", "schubert",
        "corelli", "cpebach", "weber", "verdi", "beach", "liliuokalani", "johnson_j_r", "joplin"))
    rng.shuffle(classical)
    out += [(c, "ragtime" if c.startswith(("joplin", "johnson_j_r")) else "classical", None) for c in classical]
    return out


@functools.lru_cache(maxsize=2)
def parse(path: str):
    """music21's parse of a corpus file (an opus of many tunes is read once for all of them)."""
    from music21 import corpus
    return corpus.parse(path)


def prepare(path: str, style: str, index: int | None, rng: random.Random):
    """The score ready to write (tempo, instruments) and its label, or None with a reason."""
    from music21 import duration, instrument, meter, stream, tempo
    parsed = parse(path)
    if isinstance(parsed, stream.Opus):
        if index is None or index >= len(parsed.scores):
            return None, "no such tune in the opus"
        score = parsed.scores[index]
    else:
        score = parsed
    signatures = {t.ratioString for t in score.recurse().getElementsByClass(meter.TimeSignature)}
    if len(signatures) != 1:
        return None, f"time signatures {sorted(signatures)}"
    signature = signatures.pop()
    if signature not in BEAT:
        return None, f"time signature {signature}"
    if style == "reel" and signature != "2/4":
        return None, "a reel not in 2/4"
    key = (style, signature)
    if key not in RANGES:
        return None, f"no tempo range for {style} in {signature}"
    low, high = RANGES[key]
    bpm = round(rng.uniform(low, high), 1)
    for mark in list(score.recurse().getElementsByClass(tempo.TempoIndication)):
        mark.activeSite.remove(mark)
    parts = list(score.parts) if score.parts else [score]
    for part in parts:
        for old in list(part.recurse().getElementsByClass(instrument.Instrument)):
            old.activeSite.remove(old)
    if style == "chorale" or (len(parts) >= 3 and style == "classical" and rng.random() < 0.5):
        programs = [rng.choice(KEYS)] * len(parts) if rng.random() < 0.5 else [rng.choice(STRINGS) for _ in parts]
    elif len(parts) == 1:
        programs = [rng.choice(SOLO)]
    else:
        programs = [rng.choice(KEYS if style in ("classical", "ragtime") else SOLO)] * len(parts)
    for part, program in zip(parts, programs):
        part.insert(0, instrument.instrumentFromMidiProgram(program))
    parts[0].insert(0, tempo.MetronomeMark(number=bpm, referent=duration.Duration(BEAT[signature])))
    seconds_per_quarter = 60.0 / bpm / BEAT[signature]
    total_s = float(score.highestTime) * seconds_per_quarter
    if total_s < MIN_S:
        return None, f"{total_s:.1f} s long"
    # Where the first full bar starts (a pickup bar is shorter), in quarters.
    first = parts[0].getElementsByClass(stream.Measure)
    pickup = float(first[0].paddingLeft) if first else 0.0
    bar = BEATS_PER_BAR[signature] * BEAT[signature]
    label = {"bpm": bpm, "style": style, "meter": signature, "source": path + ("" if index is None else f"#{index}"),
             "programs": programs, "pickup_quarters": (bar - pickup) % bar if pickup else 0.0,
             "seconds_per_quarter": seconds_per_quarter}
    return score, label


def add_drums(midi_path: Path, signature: str, pickup: float, length_s: float, spq: float, rng: random.Random):
    """Adds a General MIDI drum part (channel 10) that follows the metre from the first full bar."""
    import mido
    midi = mido.MidiFile(midi_path)
    tpq = midi.ticks_per_beat
    bar = BEATS_PER_BAR[signature] * BEAT[signature]
    step = 0.5                                        # eighths, in quarters
    hits = []                                         # (quarter, note, velocity)
    position = pickup
    end = length_s / spq
    while position < end:
        for k in range(int(round(bar / step))):
            q = position + k * step
            eighth = k
            if signature == "6/8":
                if eighth == 0:
                    hits.append((q, 36, 100))
                if eighth == 3:
                    hits.append((q, 38, 92))
            elif signature == "3/4":
                if eighth == 0:
                    hits.append((q, 36, 100))
                if eighth in (2, 4):
                    hits.append((q, 38, 70))
            else:
                if eighth % 4 == 0:
                    hits.append((q, 36, 100))
                if eighth % 4 == 2:
                    hits.append((q, 38, 92))
            hits.append((q, 42, 60 + (15 if eighth % 2 == 0 else 0) + rng.randint(-6, 6)))
        position += bar
    events = []
    for q, note, velocity in hits:
        tick = int(round(q * tpq))
        events.append((tick, mido.Message("note_on", channel=9, note=note, velocity=max(1, min(127, velocity)))))
        events.append((tick + tpq // 8, mido.Message("note_off", channel=9, note=note, velocity=0)))
    events.sort(key=lambda e: (e[0], e[1].type == "note_on"))
    track = mido.MidiTrack()
    last = 0
    for tick, message in events:
        track.append(message.copy(time=tick - last))
        last = tick
    midi.tracks.append(track)
    midi.save(midi_path)


def truncate(midi_path: Path, seconds: float, spq: float):
    """Cuts the MIDI file at `seconds` (the tempo is constant), ending the notes still sounding:
    fluidsynth then renders only what the clip keeps."""
    import mido
    midi = mido.MidiFile(midi_path)
    limit = int(seconds / spq * midi.ticks_per_beat)
    for t, track in enumerate(midi.tracks):
        kept, sounding, now, last = mido.MidiTrack(), set(), 0, 0
        for message in track:
            now += message.time
            if now > limit:
                break
            if message.type == "end_of_track":
                continue
            kept.append(message.copy(time=now - last))
            last = now
            if message.type == "note_on" and message.velocity > 0:
                sounding.add((message.channel, message.note))
            elif message.type in ("note_off", "note_on"):
                sounding.discard((message.channel, message.note))
        for channel, note in sorted(sounding):
            kept.append(mido.Message("note_off", channel=channel, note=note, velocity=0, time=limit - last))
            last = limit
        kept.append(mido.MetaMessage("end_of_track", time=0))
        midi.tracks[t] = kept
    midi.save(midi_path)


def render(midi: Path, wav: Path) -> float:
    """fluidsynth → the first CLIP_S seconds, mono 44.1 kHz 16-bit, peak-normalised; its length in s."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["fluidsynth", "-ni", "-q", "-g", "0.6", "-r", str(SAMPLE_RATE), "-F", str(raw), SOUNDFONT,
                        str(midi)], check=True, capture_output=True)
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(raw), "-t", str(CLIP_S),
                        "-ac", "1", "-af", "dynaudnorm=p=0.9:m=4", "-ar", str(SAMPLE_RATE), "-sample_fmt", "s16",
                        str(wav)], check=True, capture_output=True)
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(wav)],
                           capture_output=True, text=True, check=True)
    return float(probe.stdout.strip())


def build(out: Path, limit: int | None) -> dict:
    rng = random.Random(SEED)
    out.mkdir(parents=True, exist_ok=True)
    (out / "midi").mkdir(exist_ok=True)
    pieces, skipped = [], {}
    for path, style, index in candidates(rng):
        if limit is not None and len(pieces) >= limit:
            break
        piece_rng = random.Random(f"{SEED}:{path}:{index}")
        try:
            score, label = prepare(path, style, index, piece_rng)
        except Exception as error:        # a score music21 cannot read is left out, and counted
            score, label = None, f"unreadable: {type(error).__name__}"
        if score is None:
            skipped[label] = skipped.get(label, 0) + 1
            continue
        stem = f"{len(pieces):03d}-{style}-" + re.sub(r"[^A-Za-z0-9]+", "-", Path(path).stem)[:40]
        midi = out / "midi" / f"{stem}.mid"
        try:
            score.write("midi", fp=str(midi))
        except Exception as error:
            skipped[f"unwritable: {type(error).__name__}"] = skipped.get(f"unwritable: {type(error).__name__}", 0) + 1
            continue
        truncate(midi, CLIP_S + 1, label["seconds_per_quarter"])
        drums = style in ("jig", "march", "polka", "reel", "waltz", "folk") and piece_rng.random() < 1 / 3
        if drums:
            add_drums(midi, label["meter"], label["pickup_quarters"], CLIP_S + 2, label["seconds_per_quarter"], piece_rng)
        wav = out / f"{stem}.wav"
        length = render(midi, wav)
        if length < MIN_S:
            wav.unlink()
            skipped["rendered too short"] = skipped.get("rendered too short", 0) + 1
            continue
        pieces.append({"file": wav.name, **label, "drums": drums, "duration_s": round(length, 2)})
        print(f"tempo-corpus: {len(pieces):3d} {stem} {label['meter']} {label['bpm']} bpm"
              f"{' drums' if drums else ''}", file=sys.stderr, flush=True)
    manifest = {"set": "corpus", "synth": "fluidsynth FluidR3_GM", "soundfont": SOUNDFONT, "seed": SEED,
                "generator": "scripts/tempo_corpus.py", "pieces": pieces, "skipped": skipped}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tempo_corpus.py", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build"])
    parser.add_argument("--out", default=str(REPO / ".bench/tempo-songs/corpus"))
    parser.add_argument("--limit", type=int)
    args = parser.parse_args(argv)
    manifest = build(Path(args.out), args.limit)
    styles: dict[str, int] = {}
    for p in manifest["pieces"]:
        styles[p["style"]] = styles.get(p["style"], 0) + 1
    print(f"tempo-corpus: {len(manifest['pieces'])} pieces {styles}; left out {manifest['skipped']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
