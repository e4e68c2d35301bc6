"""The radio's podcast side with real clients: `quintet radio` on a running server's data
folder, the RSS feed read by feedparser (what many podcast tools use), and the episode
downloaded with HTTP Range as podcast apps do."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import feedparser
import pytest
import requests

from conftest import wait
from test_cli import quintet


def ffmpeg_tone(path: Path, seconds: float = 3.0) -> Path:
    if shutil.which("ffmpeg") is None:
        pytest.fail("ffmpeg is missing: run `bash scripts/bootstrap.sh`")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"sine=frequency=330:duration={seconds}", "-c:a", "libmp3lame", "-b:a", "128k",
                    str(path)], check=True, timeout=60)
    return path


def ffprobe_duration(path: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
                         check=True, capture_output=True, text=True, timeout=60).stdout
    return float(out.strip())


def create_show(server, *extra: str) -> dict:
    made = quintet("radio", "create-show", "--data", str(server.data_dir), "--public-url", server.base_url,
                   "--json", *extra)
    assert made.returncode == 0, made.stderr
    lines = made.stdout.strip().splitlines()
    assert len(lines) == 1, made.stdout
    return json.loads(lines[0])


def test_cli_show_feed_parses_and_enclosure_downloads_with_range(server, tmp_path):
    show = create_show(server, "--title", "E2E Radio & Friends", "--description", "Talk <and> tunes",
                       "--language", "it-IT", "--explicit")
    assert set(show) == {"id", "mount", "source_url", "key", "feed_url"}
    assert show["mount"].startswith("/live/") and show["mount"].endswith(".mp3")
    assert len(show["key"]) >= 32
    host_port = server.base_url.removeprefix("http://")
    assert show["source_url"] == f"icecast://source:{show['key']}@{host_port}{show['mount']}"
    assert show["feed_url"] == f"{server.base_url}/radio/feeds/{show['id']}.xml"

    # The running server sees the new show at once, and never shows its key.
    answer = requests.get(server.url(f"/api/radio/shows/{show['id']}"), timeout=10)
    assert answer.status_code == 200 and answer.json()["mount"] == show["mount"]
    assert show["key"] not in answer.text

    # An existing recording becomes an episode (the show publishes automatically).
    tone = ffmpeg_tone(tmp_path / "first broadcast.mp3")
    imported = quintet("radio", "import-episode", "--show", str(show["id"]), str(tone), "--title", "Pilot",
                       "--data", str(server.data_dir), "--json")
    assert imported.returncode == 0, imported.stderr
    episode = json.loads(imported.stdout)
    assert episode["state"] == "published" and episode["title"] == "Pilot"
    assert abs(episode["duration"] - ffprobe_duration(tone)) < 1e-5

    feed_response = requests.get(show["feed_url"], timeout=10)
    assert feed_response.status_code == 200
    assert feed_response.headers["Content-Type"].startswith("application/rss+xml")
    feed = feedparser.parse(feed_response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "rss20"
    assert feed.feed.title == "E2E Radio & Friends"
    assert feed.feed.language == "it-IT"
    # Apple's spec writes true/false; feedparser 6 only maps the older yes/clean, so read the XML.
    assert "<itunes:explicit>true</itunes:explicit>" in feed_response.text
    assert len(feed.entries) == 1
    entry = feed.entries[0]
    assert entry.title == "Pilot"
    assert entry.id == episode["guid"]
    assert entry.itunes_duration == "0:00:03"
    enclosure = entry.enclosures[0]
    assert enclosure.type == "audio/mpeg"
    assert enclosure.href == f"{server.base_url}/radio/episodes/{episode['id']}.mp3"
    original = tone.read_bytes()
    assert int(enclosure.length) == len(original)

    # The enclosure, as a podcast app fetches it: a probe, a range, the rest.
    probe = requests.get(enclosure.href, headers={"Range": "bytes=0-1"}, timeout=10)
    assert probe.status_code == 206 and probe.content == original[:2]
    assert probe.headers["Content-Range"] == f"bytes 0-1/{len(original)}"
    assert probe.headers["Accept-Ranges"] == "bytes"
    middle = requests.get(enclosure.href, headers={"Range": "bytes=1000-4999"}, timeout=10)
    assert middle.status_code == 206 and middle.content == original[1000:5000]
    assert middle.headers["Content-Length"] == "4000"
    whole = requests.get(enclosure.href, timeout=10)
    assert whole.status_code == 200 and whole.content == original
    assert whole.headers.get("ETag") and whole.headers.get("Last-Modified")
    past = requests.get(enclosure.href, headers={"Range": f"bytes={len(original)}-"}, timeout=10)
    assert past.status_code == 416 and past.headers["Content-Range"] == f"bytes */{len(original)}"
    downloaded = tmp_path / "downloaded.mp3"
    downloaded.write_bytes(whole.content)
    assert abs(ffprobe_duration(downloaded) - episode["duration"]) < 1e-5

    # One listen: the whole download; the probe and the middle range are not new listens.
    listed = quintet("radio", "episodes", "--show", str(show["id"]), "--json", "--data", str(server.data_dir))
    assert listed.returncode == 0, listed.stderr
    [row] = json.loads(listed.stdout)
    assert row["id"] == episode["id"] and row["listens"] == 1


def test_unpublished_episodes_stay_out_of_the_feed(server, tmp_path):
    show = create_show(server, "--title", "Held Back", "--no-auto-publish", "--max-episode", "1h30m")
    tone = ffmpeg_tone(tmp_path / "draft.mp3", seconds=1.5)
    imported = quintet("radio", "import-episode", "--show", str(show["id"]), str(tone),
                       "--data", str(server.data_dir), "--json")
    assert imported.returncode == 0, imported.stderr
    episode = json.loads(imported.stdout)
    assert episode["state"] == "recorded"
    feed = feedparser.parse(requests.get(show["feed_url"], timeout=10).content)
    assert not feed.bozo and feed.entries == []
    audio = server.url(f"/radio/episodes/{episode['id']}.mp3")
    assert requests.get(audio, timeout=10).status_code == 404
    # The owner (the first admin, as no --owner was given) can still fetch it.
    assert requests.get(audio, auth=server.admin, timeout=10).content == tone.read_bytes()
    shows = json.loads(quintet("radio", "shows", "--json", "--data", str(server.data_dir)).stdout)
    held = next(s for s in shows if s["id"] == show["id"])
    assert held["owner"] == "admin" and held["max_episode_seconds"] == 5400 and not held["publish_automatically"]

    published = quintet("radio", "publish", str(episode["id"]), "--data", str(server.data_dir))
    assert published.returncode == 0, published.stderr
    feed = feedparser.parse(requests.get(show["feed_url"], timeout=10).content)
    assert not feed.bozo and [e.id for e in feed.entries] == [episode["guid"]]
    assert requests.get(audio, timeout=10).status_code == 200


def test_cli_refuses_bad_input(server, tmp_path):
    data = str(server.data_dir)
    assert quintet("radio", "create-show", "--title", "  ", "--data", data).returncode != 0
    bad = quintet("radio", "create-show", "--title", "x", "--max-episode", "forever", "--data", data)
    assert bad.returncode != 0 and "--max-episode" in bad.stderr
    nobody = quintet("radio", "create-show", "--title", "x", "--owner", "nobody", "--data", data)
    assert nobody.returncode != 0 and "no user named 'nobody'" in nobody.stderr
    junk = tmp_path / "junk.mp3"
    junk.write_bytes(b"this is not audio" * 100)
    refused = quintet("radio", "import-episode", "--show", "1", str(junk), "--data", data)
    assert refused.returncode != 0 and "no audio frames" in refused.stderr
    missing = quintet("radio", "import-episode", "--show", "9999", str(junk), "--data", data)
    assert missing.returncode != 0
    # A fresh folder with no admin says how to get one.
    empty = quintet("radio", "create-show", "--title", "x", "--data", str(tmp_path / "fresh"))
    assert empty.returncode != 0 and "quintet users add" in empty.stderr


def test_server_start_recovers_a_cut_recording(tmp_path):
    """A broadcast cut by a crash (its row still `live`, its file ending mid-frame) becomes an
    episode when the server starts again: exact duration and size, published, peaks."""
    import sqlite3
    import uuid

    from conftest import start_server, stop_server

    data = tmp_path / "data"
    first = start_server(data, tmp_path / "first.log")
    try:
        made = quintet("radio", "create-show", "--title", "Crash Test", "--data", str(data), "--json")
        assert made.returncode == 0, made.stderr
        show = json.loads(made.stdout)
    finally:
        stop_server(first)

    # What the live side leaves behind after `kill -9`: a `live` row and a file cut mid-frame.
    stream = tmp_path / "stream.mp3"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "sine=frequency=500:sample_rate=44100:duration=4", "-ac", "2",
                    "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0",
                    "-f", "mp3", str(stream)], check=True, timeout=60)
    packets = int(subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "a:0",
                                  "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", str(stream)],
                                 check=True, capture_output=True, text=True, timeout=60).stdout.strip())
    cut = stream.read_bytes()[:-150]
    with sqlite3.connect(data / "quintet.sqlite") as db:
        cursor = db.execute(
            "INSERT INTO radio_episodes (show_id, title, description, state, started_at, duration, file,"
            " content_type, size, listens, peak_listeners, guid)"
            " VALUES (?, 'Cut', '', 'live', '2026-11-25 10:00:00.000', 0, '', 'audio/mpeg', 0, 3, 9, ?)",
            (show["id"], str(uuid.uuid4())))
        episode_id = cursor.lastrowid
        relative = f"radio/{show['id']}/{episode_id}.mp3"
        db.execute("UPDATE radio_episodes SET file = ? WHERE id = ?", (relative, episode_id))
    (data / relative).parent.mkdir(parents=True, exist_ok=True)
    (data / relative).write_bytes(cut)

    second = start_server(data, tmp_path / "second.log")
    try:
        episode = requests.get(second.url(f"/api/radio/episodes/{episode_id}"), timeout=10).json()
        assert episode["state"] == "published"
        assert abs(episode["duration"] - (packets - 1) * 1152 / 44100) < 1e-9
        # The recording now starts with the Info frame (417 bytes at 128 kbit/s) written when it
        # was finalised: ffprobe reads its exact duration from it.
        stored = (data / relative).read_bytes()
        assert stored[417:] == cut and stored[36:40] == b"Info"
        assert episode["size"] == len(stored)
        probed = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                 str(data / relative)], check=True, capture_output=True, text=True, timeout=60)
        assert abs(float(probed.stdout) - episode["duration"]) < 1e-3
        assert episode["listens"] == 3 and episode["peak_listeners"] == 9
        assert episode["ended_at"] == "2026-11-25T10:00:04Z"  # start + duration, in whole seconds
        def with_peaks(server):
            episode = requests.get(server.url(f"/api/radio/episodes/{episode_id}"), timeout=10).json()
            return episode if "peaks" in episode else None

        episode = wait(second, with_peaks, "the recovered episode got no peaks", timeout=30, interval=0.2)
        assert len(episode["peaks"]["maxima"]) == 1000
        assert "recovered interrupted episode" in second.log()
        feed = feedparser.parse(requests.get(second.url(f"/radio/feeds/{show['id']}.xml"), timeout=10).content)
        assert not feed.bozo and [e.title for e in feed.entries] == ["Cut"]
    finally:
        stop_server(second)
