"""The story's narrator and drawing as `make wasm` builds them (scripts/build-voice,
docs/playground.md, "Narrator and voices"): every line of Web/playground/story/lines.json has an
MP3 in every language that ffprobe decodes, lasts 0.5–12 s and is not silent, and the server
serves it as audio; index.json matches the files and the texts; the drawing to print is an A4
page at 300 dpi, mostly white paper; and the whole playground (module, atlases, voice, story)
stays under 15 MB."""

from __future__ import annotations

import hashlib
import json
import re
import struct
import subprocess

import pytest
import requests

from conftest import REPO

PLAYGROUND = REPO / "Web" / "playground"
LINES = PLAYGROUND / "story" / "lines.json"
VOICE = PLAYGROUND / "voice"
DRAWING = PLAYGROUND / "story" / "drawing.png"
LANGUAGES = ["it", "en", "fr"]
# The IDs the story frame plays (docs/playground.md, "Narrator and voices").
STORY_IDS = {"welcome", "wake", "carworld", "puzzle", "balloons", "shipworld", "colouring", "shapes", "fishworld",
             "bells", "stars", "bubbles", "garden", "busytown", "sweater", "topple", "loot", "credits"}
BUDGET = 15 * 1000 * 1000  # bytes: the "whole playground under 15 MB"


def lines() -> dict:
    return json.loads(LINES.read_text(encoding="utf-8"))


def voice_file(lang: str, key: str):
    path = VOICE / lang / f"{key}.mp3"
    assert path.is_file(), f"{path} is missing: build it with `make wasm` (scripts/build-voice)"
    return path


def probe(path) -> dict:
    result = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=codec_name,channels,sample_rate",
                             "-of", "json", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, f"ffprobe cannot read {path}: {result.stderr}"
    return json.loads(result.stdout)


def max_volume(path) -> float:
    """ffmpeg's volumedetect: the loudest sample in dBFS, the whole file decoded."""
    result = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", str(path), "-af", "volumedetect", "-f", "null", "-"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, f"ffmpeg cannot decode {path}: {result.stderr[-500:]}"
    found = re.search(r"max_volume: (-?[\d.]+|-inf) dB", result.stderr)
    assert found, result.stderr[-500:]
    return float(found.group(1))


def test_every_line_is_written_in_every_language_and_short():
    table = lines()
    assert set(table) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(table[lang]) == STORY_IDS, f"{lang}: missing {STORY_IDS - set(table[lang])}, extra {set(table[lang]) - STORY_IDS}"
        for key, text in table[lang].items():
            words = [w for w in text.split() if any(c.isalnum() for c in w)]
            assert 1 <= len(words) <= 20, f"{lang}.{key} has {len(words)} words: {text}"
            assert len(re.findall(r"[.!?](\s|$)", text)) <= 2, f"{lang}.{key} has more than two sentences: {text}"
    # Three translations, not one text copied: the same line differs between languages.
    for key in STORY_IDS:
        assert len({table[lang][key] for lang in LANGUAGES}) == 3, key


def test_every_line_has_a_decodable_audible_file_in_every_language():
    table = lines()
    for lang in LANGUAGES:
        for key in sorted(table[lang]):
            path = voice_file(lang, key)
            info = probe(path)
            stream = info["streams"][0]
            assert stream["codec_name"] == "mp3" and stream["channels"] == 1, (path, stream)
            assert stream["sample_rate"] in ("22050", "24000"), (path, stream)
            seconds = float(info["format"]["duration"])
            assert 0.5 <= seconds <= 12, f"{path} lasts {seconds:.2f} s"
            loudest = max_volume(path)
            assert loudest > -30, f"{path} is silent (max {loudest} dB)"
    extra = {p.stem for lang in LANGUAGES for p in (VOICE / lang).glob("*.mp3")} - set(table["en"])
    assert not extra, f"voice files of no line: {extra}"


def test_the_index_gives_each_files_duration_and_its_texts_hash():
    table = lines()
    index_path = VOICE / "index.json"
    assert index_path.is_file(), f"{index_path} is missing: build it with `make wasm`"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    assert index["engine"].startswith("eSpeak NG"), index["engine"]
    for lang in LANGUAGES:
        assert set(index[lang]) == set(table[lang])
        for key, entry in index[lang].items():
            assert entry["hash"] == hashlib.sha256(table[lang][key].strip().encode()).hexdigest()[:16], \
                f"{lang}.{key}: the file says an older text (run `make wasm`)"
            seconds = float(probe(voice_file(lang, key))["format"]["duration"])
            assert abs(entry["ms"] - seconds * 1000) <= 1, (lang, key, entry, seconds)


def test_the_server_serves_the_voice_files_as_audio(server):
    table = lines()
    for lang in LANGUAGES:
        for key in ("welcome", "topple", sorted(table[lang])[-1]):
            response = requests.get(server.url(f"/playground/voice/{lang}/{key}.mp3"), timeout=10)
            assert response.status_code == 200, (lang, key, response.status_code)
            assert response.headers["Content-Type"].split(";")[0].strip().startswith("audio/"), response.headers["Content-Type"]
            assert response.content == voice_file(lang, key).read_bytes()
    response = requests.get(server.url("/playground/story/lines.json"), timeout=10)
    assert response.status_code == 200 and response.json() == table


def test_the_service_worker_keeps_the_voice_and_the_story_offline():
    precache = json.loads((REPO / "Web" / "precache.json").read_text())
    listed = set(precache["files"])
    for lang in LANGUAGES:
        for key in lines()[lang]:
            assert f"/playground/voice/{lang}/{key}.mp3" in listed, (lang, key)
    for path in (PLAYGROUND / "story").rglob("*"):
        if path.is_file():
            url = "/" + str(path.relative_to(REPO / "Web"))
            if url.endswith("/index.html"):
                url = url[: -len("index.html")]  # a folder's page is listed as its folder
            assert url in listed, path
    assert "/playground/voice/index.json" in listed and "/playground/playground.wasm" in listed


def png_dpi(path) -> int | None:
    """The dots per inch of a PNG's pHYs chunk (None without one)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is no PNG"
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"pHYs":
            ppm_x, _, unit = struct.unpack(">IIB", data[at + 8:at + 17])
            return round(ppm_x * 0.0254) if unit == 1 else None
        at += 12 + length
    return None


def grey(path, width: int, height: int) -> bytes:
    """The picture decoded by ffmpeg as 8-bit grey pixels, scaled (area average) to width × height."""
    result = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(path), "-vf",
                             f"scale={width}:{height}:flags=area,format=gray", "-f", "rawvideo", "-"],
                            capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    assert len(result.stdout) == width * height
    return result.stdout


def test_the_drawing_to_print_is_an_a4_page_of_line_art():
    assert DRAWING.is_file(), f"{DRAWING} is missing: build it with `make wasm` (scripts/build-voice)"
    stream = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "json",
                                        str(DRAWING)], capture_output=True, text=True, timeout=30).stdout)["streams"][0]
    assert (stream["width"], stream["height"], png_dpi(DRAWING)) == (2480, 3508, 300)
    # At full size: mostly white paper, with real black lines on it.
    pixels = grey(DRAWING, 2480, 3508)
    white = sum(1 for v in pixels[::7] if v >= 240) / len(pixels[::7])
    dark = sum(1 for v in pixels[::7] if v < 64) / len(pixels[::7])
    assert white > 0.85, f"only {white:.1%} white"
    assert dark > 0.01, f"only {dark:.1%} of lines: nothing to colour"
    # Line art, nothing filled: averaged over 40 × 40 pixel cells (3.4 mm), no cell is dark (a
    # 16-pixel line across a cell leaves it at least half white; a filled shape would not).
    cells = grey(DRAWING, 62, 88)
    darkest = min(cells)
    assert darkest > 64, f"a filled area at cell {cells.index(darkest) % 62}, {cells.index(darkest) // 62}"


def test_the_whole_playground_stays_under_15_mb():
    for needed in (PLAYGROUND / "playground.wasm", VOICE / "index.json", DRAWING):
        assert needed.is_file(), f"{needed} is missing: build it with `make wasm`"
    parts: dict[str, int] = {}
    for path in PLAYGROUND.rglob("*"):
        if path.is_file():
            inside = path.relative_to(PLAYGROUND).parts
            name = inside[0] if len(inside) > 1 else "(top files)"
            parts[name] = parts.get(name, 0) + path.stat().st_size
    total = sum(parts.values())
    print(f"\nWeb/playground: {total / 1e6:.2f} MB (" +
          ", ".join(f"{name} {size / 1e6:.2f}" for name, size in sorted(parts.items())) + ")")
    assert total < BUDGET, f"the playground is {total / 1e6:.2f} MB, over 15 MB"
