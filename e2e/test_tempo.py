"""Tempo through the real binary and the real server: WAV and MP3 files made here."""

from __future__ import annotations

import json
import math
import shutil
import struct
import subprocess
import wave
from pathlib import Path

import pytest
import requests

from conftest import quintet_binary


def click_track(path: Path, bpm: float, seconds: float = 15.0, rate: int = 44100) -> Path:
    """Writes a mono 16-bit WAV of decaying 1 kHz clicks every beat."""
    frames = [0.0] * int(seconds * rate)
    t = 0.0
    while t < seconds:
        start = int(t * rate)
        for i in range(400):
            if start + i < len(frames):
                frames[start + i] += 0.8 * math.sin(2 * math.pi * 1000 * i / rate) * math.exp(-i / 80)
        t += 60.0 / bpm
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1, min(1, x)) * 32767)) for x in frames))
    return path


@pytest.fixture(scope="module")
def songs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("songs")
    wav = click_track(folder / "clicks 100.wav", 100)
    mp3 = folder / "clicks 100.mp3"
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-loglevel", "error", "-i", str(wav), str(mp3)], check=True)
    broken = folder / "broken.mp3"
    broken.write_bytes(b"this is not an mp3 at all")
    return {"wav": wav, "mp3": mp3, "broken": broken}


def test_cli_prints_json_lines_and_reports_failures(songs):
    result = subprocess.run(
        [str(quintet_binary()), "tempo", "--json", str(songs["wav"]), str(songs["broken"]), str(songs["mp3"])],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1, "a failed file makes the exit status non-zero"
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(songs["wav"]), str(songs["broken"]), str(songs["mp3"])]
    good = [lines[0], lines[2]]
    for line in good:
        assert abs(line["bpm"] - 100) < 1, line
        assert line["method"] == "default" and 0 <= line["confidence"] <= 1 and line["seconds"] >= 0
    assert "error" in lines[1] and "bpm" not in lines[1]
    assert "1 of 3 files failed" in result.stderr


def test_cli_scheirer_method_and_plain_output(songs):
    result = subprocess.run(
        [str(quintet_binary()), "tempo", "--method", "scheirer", str(songs["wav"])],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    name, rest = result.stdout.strip().split("\t")
    assert name == str(songs["wav"]) and rest.endswith(")") and "BPM" in rest
    assert abs(float(rest.split()[0]) - 100) < 1


def test_server_estimates_an_uploaded_mp3(server, songs):
    response = requests.post(server.url("/api/tempo"), data=songs["mp3"].read_bytes(),
                             headers={"Content-Type": "audio/mpeg"}, timeout=60)
    assert response.status_code == 200, response.text
    body = response.json()
    assert abs(body["bpm"] - 100) < 1 and body["candidates"][0]["bpm"] == body["bpm"]
    bad = requests.post(server.url("/api/tempo"), data=b"garbage bytes", timeout=60)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "unreadable_audio"
    assert requests.get(server.url("/healthz"), timeout=5).status_code == 200, "the server survives bad input"


def test_runner_page_measures_a_chosen_song(server, browser, songs):
    from selenium.webdriver.common.by import By

    from conftest import open_page, severe_console_entries, wait

    open_page(browser, server.url("/runner/"))
    browser.find_element(By.CSS_SELECTOR, "#tempo-file").send_keys(str(songs["mp3"]))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#tempo-result").is_displayed(), "no tempo shown", timeout=60)
    assert abs(float(browser.find_element(By.CSS_SELECTOR, "#tempo-bpm").text) - 100) < 1
    assert severe_console_entries(browser) == []
