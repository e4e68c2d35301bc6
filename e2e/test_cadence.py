"""`quintet cadence` on accelerometer logs written here with pure-Python math (no numpy)."""

from __future__ import annotations

import json
import math
import random
import subprocess
from pathlib import Path

from conftest import quintet_binary

GRAVITY = 9.80665


def rotation(rng: random.Random) -> list[list[float]]:
    """A random rotation matrix (a random unit quaternion), so gravity points anywhere."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    q0, q1, q2, q3 = a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2), b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3)
    return [[1 - 2 * (q2 * q2 + q3 * q3), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)],
            [2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1 * q1 + q3 * q3), 2 * (q2 * q3 - q0 * q1)],
            [2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1 * q1 + q2 * q2)]]


def write_log(path: Path, still: float = 10, running: float = 30, spm: float = 172, rate: float = 100) -> None:
    """Sensor Logger style CSV (epoch ns, seconds_elapsed, z, y, x in m/s²): standing, then running."""
    rng = random.Random(5)
    steps, t = [], still
    while t < still + running:
        steps.append(t)
        t += 60 / spm * (1 + 0.03 * rng.gauss(0, 1))
    r = rotation(rng)
    lines = ["time,seconds_elapsed,z,y,x"]
    t, k = 0.0, 0
    while t < still + running:
        while k + 1 < len(steps) and steps[k + 1] <= t:
            k += 1
        vertical = 0.0
        if steps and steps[k] <= t < steps[k] + 0.5:
            tau = t - steps[k]
            phase = tau / (60 / spm)
            vertical = 1.5 * math.exp(-0.5 * ((tau - 0.02) / 0.012) ** 2) + 0.6 * math.cos(2 * math.pi * phase)
        world = (0.02 * rng.gauss(0, 1), 0.02 * rng.gauss(0, 1), 1 + vertical + 0.02 * rng.gauss(0, 1))
        x, y, z = (sum(r[i][j] * world[j] for j in range(3)) * GRAVITY for i in range(3))
        lines.append(f"{1_714_557_600_000_000_000 + int(t * 1e9)},{t:.6f},{z:.5f},{y:.5f},{x:.5f}")
        t += (1 + 0.2 * (2 * rng.random() - 1)) / rate
    path.write_text("\n".join(lines) + "\n")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(quintet_binary()), "cadence", *args], capture_output=True, text=True, timeout=60)


def test_json_timeline_of_a_run_after_standing(tmp_path):
    log = tmp_path / "Accelerometer.csv"
    write_log(log)
    result = run("--json", str(log))
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert set(doc) == {"cadence", "timeline"}
    assert abs(doc["cadence"] - 172) < 2, doc["cadence"]
    timeline = doc["timeline"]
    assert [entry["t"] for entry in timeline] == list(range(len(timeline))) and len(timeline) in (39, 40)
    for entry in timeline:
        assert set(entry) == {"t", "spm", "confidence", "state"}
        assert 0 <= entry["confidence"] <= 1 and entry["state"] in ("still", "walking", "running")
        assert (entry["spm"] is None) == (entry["state"] == "still")
    still = [e for e in timeline if e["t"] <= 7]
    assert all(e["spm"] is None for e in still), still
    running = [e for e in timeline if 13 <= e["t"] <= 37]
    assert all(e["state"] == "running" and abs(e["spm"] - 172) < 4 for e in running), running


def test_thesis_method_and_text_output(tmp_path):
    log = tmp_path / "run.csv"
    write_log(log, still=0, running=20)
    thesis = json.loads(run("--json", "--method", "thesis", str(log)).stdout)
    assert thesis["cadence"] is not None and len(thesis["timeline"]) in (19, 20)
    text = run(str(log))
    assert text.returncode == 0 and "spm" in text.stdout


def test_json_lines_and_a_bad_line(tmp_path):
    good = tmp_path / "walk.jsonl"
    good.write_text("".join(
        json.dumps({"t": i / 50, "x": 0.0, "y": 0.0, "z": 1 + 0.3 * math.cos(2 * math.pi * 1.8 * i / 50)}) + "\n"
        for i in range(50 * 20)))
    doc = json.loads(run("--json", str(good)).stdout)
    assert abs(doc["cadence"] - 108) < 1.5, doc["cadence"]
    bad = tmp_path / "bad.csv"
    bad.write_text("timestamp_ms,ax,ay,az\n0,0,0,9.8\n10,0,oops,9.8\n")
    result = run("--json", str(bad))
    assert result.returncode == 1 and "line 3" in result.stderr and result.stdout == ""


def test_runner_pick_from_a_scanned_library(tmp_path):
    """`quintet runner pick`: a tiny library made by ffmpeg with TBPM tags, scanned, then picked from."""
    binary = str(quintet_binary())
    data, music = tmp_path / "data", tmp_path / "music"
    music.mkdir()

    def pick(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([binary, "runner", "pick", "--data", str(data), *args], capture_output=True, text=True, timeout=60)

    empty = pick("--cadence", "170")
    assert empty.returncode == 1 and "no songs" in empty.stderr
    for bpm in (85, 128, 176):
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                        "-c:a", "libmp3lame", "-id3v2_version", "3", "-metadata", f"title=Song {bpm}",
                        "-metadata", "artist=Tester", "-metadata", f"TBPM={bpm}", str(music / f"s{bpm}.mp3")], check=True)
    scan = subprocess.run([binary, "scan", str(music), "--data", str(data)], capture_output=True, text=True, timeout=60)
    assert scan.returncode == 0, scan.stderr
    half = json.loads(pick("--cadence", "170", "--json").stdout)
    assert half["song"]["path"] == "s85.mp3" and half["effective_bpm"] == 170 and half["fallback"] is False
    assert "reason" not in half
    sprint = json.loads(pick("--cadence", "168", "--sprint", "--json").stdout)
    assert sprint["song"]["bpm"] == 176 and sprint["target_bpm"] == 176.4
    fallback = json.loads(pick("--cadence", "150", "--mode", "ranges", "--json").stdout)
    assert fallback["fallback"] is True and "140–160" in fallback["reason"]
    text = pick("--cadence", "128")
    assert text.returncode == 0 and "Song 128" in text.stdout
    bad = pick("--cadence", "500")
    assert bad.returncode == 1 and "30 to 300" in bad.stderr
