"""`quintet demo-library` writes real, tagged files that MediaTags and Tempo read back."""

from __future__ import annotations

import json
import subprocess

from conftest import quintet_binary


def test_demo_library_is_tagged_and_playable(tmp_path):
    root = tmp_path / "demo"
    made = subprocess.run([str(quintet_binary()), "demo-library", str(root)], capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr
    assert "wrote 30 songs" in made.stdout
    files = sorted(str(p) for p in root.rglob("*") if p.is_file())
    assert len(files) == 30
    listing = tmp_path / "files.txt"
    listing.write_text("\n".join(files))
    read = subprocess.run([str(quintet_binary()), "tags", "--json", "--files-from", str(listing)],
                          capture_output=True, text=True, timeout=120)
    assert read.returncode == 0, read.stderr
    songs = [json.loads(line) for line in read.stdout.splitlines()]
    assert {s["format"] for s in songs} == {"mp3", "flac", "mp4", "ogg"}
    assert len({s["tags"]["artists"][0] for s in songs}) == 5
    assert len({s["tags"]["album"] for s in songs}) == 6
    sampler = [s for s in songs if s["tags"]["compilation"]]
    assert len(sampler) == 4 and all(s["tags"]["albumArtists"] == ["Various Artists"] for s in sampler)
    assert all(abs(s["stream"]["duration"] - 24) < 2.2 for s in songs)
    assert sum(1 for s in songs if s["pictures"]) >= 20, "covers are attached where the container carries them"
    # A second run keeps what is there.
    again = subprocess.run([str(quintet_binary()), "demo-library", str(root)], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "wrote 0 songs" in again.stdout
    # The tempo of a song at its planned BPM.
    lanterns = next(f for f in files if f.endswith("01 - Lanterns.flac"))
    tempo = subprocess.run([str(quintet_binary()), "tempo", "--json", lanterns], capture_output=True, text=True, timeout=120)
    assert abs(json.loads(tempo.stdout)["bpm"] - 84) < 84 * 0.04
