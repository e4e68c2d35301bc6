"""Builds a test set on disk: MIDI from the composer, audio from fluidsynth, checks,
and `manifest.json`. A set is cached under `.bench/tempo-songs/<set>/` and rebuilt only
when missing or when the composer's source code changed (its hash is in the manifest).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import hashlib
import json
import os
from pathlib import Path
import subprocess
import sys

import numpy as np
import soundfile as sf

from .compose import DURATION_S, SETS, SOUNDFONTS, SetSpec, compose_piece, pieces

SAMPLE_RATE = 44100
PEAK = 10 ** (-1 / 20)  # normalise to -1 dBFS
MIN_RMS_DB = -35.0
COMPOSER_FILES = ("music.py", "score.py", "drums.py", "parts.py", "styles.py", "compose.py", "render.py")


def generator_hash() -> str:
    """A short hash of the composer's source: a new one invalidates cached sets."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for name in COMPOSER_FILES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def finish_audio(raw: Path, out: Path) -> dict:
    """Trims fluidsynth's float output to DURATION_S (0.5 s fade-out), normalises the
    peak to -1 dBFS, writes 16-bit stereo WAV and returns level figures for the checks."""
    audio, rate = sf.read(raw, dtype="float64", always_2d=True)
    if rate != SAMPLE_RATE or audio.shape[1] != 2:
        raise RuntimeError(f"{raw}: expected 44.1 kHz stereo, got {rate} Hz x {audio.shape[1]}")
    n = int(DURATION_S * SAMPLE_RATE)
    if len(audio) < n:
        raise RuntimeError(f"{raw}: rendered only {len(audio) / rate:.2f} s, need {DURATION_S} s")
    audio = audio[:n].copy()
    fade = int(0.5 * SAMPLE_RATE)
    audio[-fade:] *= np.linspace(1.0, 0.0, fade)[:, None]
    peak = float(np.abs(audio).max())
    if peak <= 0:
        raise RuntimeError(f"{raw}: silent rendering")
    audio *= PEAK / peak
    sf.write(out, audio, SAMPLE_RATE, subtype="PCM_16")
    return {"rms_db": round(20 * np.log10(np.sqrt(np.mean(audio ** 2)) + 1e-12), 1)}


def render_piece(soundfont: str, midi: Path, wav: Path) -> dict:
    """Renders one MIDI file with fluidsynth (fast, offline) and finishes the audio."""
    raw = wav.with_suffix(".raw.wav")
    command = ["fluidsynth", "-ni", "-q", "-F", str(raw), "-r", str(SAMPLE_RATE), "-O", "float",
               "-T", "wav", "-g", "0.6", soundfont, str(midi)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 or not raw.exists():
        raise RuntimeError(f"fluidsynth failed on {midi}: {result.stderr.strip()[-400:]}")
    try:
        return finish_audio(raw, wav)
    finally:
        raw.unlink(missing_ok=True)


def check_wav(path: Path) -> list[str]:
    """Problems with a finished WAV: wrong format or length, or (nearly) silent."""
    info = sf.info(path)
    problems = []
    if (info.samplerate, info.channels, info.subtype) != (SAMPLE_RATE, 2, "PCM_16"):
        problems.append(f"format {info.samplerate} Hz {info.channels} ch {info.subtype}")
    if abs(info.frames / info.samplerate - DURATION_S) > 1e-3:
        problems.append(f"duration {info.frames / info.samplerate:.3f} s")
    audio, _ = sf.read(path, dtype="float64", always_2d=True)
    mono = audio.mean(axis=1)
    rms = 20 * np.log10(np.sqrt(np.mean(mono ** 2)) + 1e-12)
    if rms < MIN_RMS_DB:
        problems.append(f"level {rms:.1f} dBFS")
    seconds = mono[: len(mono) // SAMPLE_RATE * SAMPLE_RATE].reshape(-1, SAMPLE_RATE)[:-1]
    silent = np.flatnonzero(np.sqrt(np.mean(seconds ** 2, axis=1)) < 10 ** (-55 / 20))
    if silent.size:
        problems.append(f"silent second(s) {silent.tolist()[:5]}")
    return problems


def load_manifest(folder: Path) -> dict | None:
    """The set's manifest if it is complete and made by the current composer."""
    path = folder / "manifest.json"
    if not path.exists():
        return None
    manifest = json.loads(path.read_text())
    if manifest.get("generator") != generator_hash():
        return None
    if not all((folder / p["file"]).exists() for p in manifest["pieces"]):
        return None
    return manifest


def build_set(spec: SetSpec, root: Path, jobs: int = 2, log=sys.stderr) -> dict:
    """Composes and renders every piece of a set (unless cached) and returns the manifest."""
    folder = root / spec.name
    manifest = load_manifest(folder)
    if manifest is not None:
        return manifest
    print(f"bench-tempo: composing and rendering the {spec.name} set ({spec.synth}) in {folder}",
          file=log, flush=True)
    (folder / "midi").mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.wav"):
        stale.unlink()
    soundfont = SOUNDFONTS[spec.synth]
    entries = []
    for piece in pieces(spec):
        midi = folder / "midi" / f"{piece.stem}.mid"
        entry = compose_piece(piece, str(midi))
        entries.append({"file": f"{piece.stem}.wav", **entry, "synth": spec.synth})

    def work(entry: dict) -> dict:
        wav = folder / entry["file"]
        levels = render_piece(soundfont, folder / "midi" / f"{wav.stem}.mid", wav)
        problems = check_wav(wav)
        if problems:
            raise RuntimeError(f"{wav}: " + "; ".join(problems))
        return {**entry, **levels}

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        finished = list(pool.map(work, entries))
    manifest = {"set": spec.name, "synth": spec.synth, "soundfont": soundfont,
                "generator": generator_hash(), "duration_s": DURATION_S,
                "sample_rate": SAMPLE_RATE, "pieces": finished}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"bench-tempo: {len(finished)} pieces ready", file=log, flush=True)
    return manifest


def main() -> None:
    """`python -m tempo_bench.render SET [ROOT]`: builds one set, prints a summary."""
    name = sys.argv[1] if len(sys.argv) > 1 else "smoke"
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(".bench/tempo-songs")
    manifest = build_set(SETS[name], root, jobs=os.cpu_count() or 2)
    for p in manifest["pieces"]:
        print(f'{p["file"]:28} {p["bpm"]:6.1f} {p["meter"]:5} drums={p["has_drums"]!s:5} {p["rms_db"]} dB')


if __name__ == "__main__":
    main()
