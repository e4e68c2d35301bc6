"""Listen-free checks of a rendered set's ground truth.

For each piece, the onset-strength envelope (librosa, 44.1 kHz, hop 128 ≈ 2.9 ms) is
autocorrelated and the strongest peak within ±6 % of the true beat period is refined by
parabolic interpolation. If the MIDI timing or the rendering were off, that local peak
would sit away from the truth; humanised timing moves it by well under 1 %.
Also reports the audio's duration and level.

    python -m tempo_bench.checks dev        (from scripts/, in the bench venv)
"""
from __future__ import annotations

import json
from pathlib import Path
import sys

import librosa
import numpy as np

from .tools import REPO

HOP = 128


def local_tempo(path: Path, truth: float) -> tuple[float, float]:
    """(refined BPM near the truth, its autocorrelation relative to lag 0)."""
    y, sr = librosa.load(path, sr=None, mono=True)
    env = librosa.onset.onset_strength(y=y, sr=sr, hop_length=HOP)
    env = env - env.mean()
    acf = np.correlate(env, env, mode="full")[len(env) - 1:]
    acf /= acf[0]
    frames_per_s = sr / HOP
    period = 60.0 / truth * frames_per_s
    lo, hi = int(period * 0.94), int(np.ceil(period * 1.06))
    k = lo + int(np.argmax(acf[lo:hi + 1]))
    a, b, c = acf[k - 1], acf[k], acf[k + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
    return 60.0 * frames_per_s / (k + shift), float(b)


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "smoke"
    folder = REPO / ".bench/tempo-songs" / name
    manifest = json.loads((folder / "manifest.json").read_text())
    worst = 0.0
    print("| file | truth | local peak | deviation | acf | seconds | rms dB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for piece in manifest["pieces"]:
        path = folder / piece["file"]
        bpm, strength = local_tempo(path, piece["bpm"])
        deviation = bpm / piece["bpm"] - 1
        worst = max(worst, abs(deviation))
        seconds = librosa.get_duration(path=path)
        print(f'| {piece["file"]} | {piece["bpm"]:.1f} | {bpm:.2f} | {100 * deviation:+.2f} % | '
              f'{strength:.2f} | {seconds:.3f} | {piece.get("rms_db", "")} |')
    print(f"\nlargest deviation: {100 * worst:.2f} %")


if __name__ == "__main__":
    main()
