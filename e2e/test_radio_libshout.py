"""A libshout-based source against the live radio (issue 22 §0): Debian's ezstream with its
default protocol settings (HTTP, TLS "May": libshout probes with `OPTIONS *` and
`GET /admin/!POKE` before its `SOURCE`), streaming an MP3 file that starts with the Info header
frame ffmpeg writes, twice in a row as a looping source does. Listeners must get audio, the
title ezstream sends must arrive, and the recording must be the audio alone with one Info frame
Quintet writes when the episode ends, so ffprobe reads the episode's own length (not the 4.5 s
the source file's Info frame claims)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from conftest import wait
from test_radio_live import (create_show, decode_listener, live_entry, make_mp3, need_ffmpeg, wait_audio,
                             wait_episode_done, wait_live)

FILE_SECONDS = 4.5


def need_ezstream() -> None:
    if shutil.which("ezstream") is None:
        pytest.fail("ezstream is missing: run `bash scripts/bootstrap.sh` (Debian package ezstream)")


def ezstream_config(path: Path, server, show: dict, playlist: Path) -> Path:
    """An ezstream 1.0 configuration with nothing but what it needs: server, mount, format and
    input. Protocol (HTTP), TLS ("May"), user ("source") and everything else stay defaults."""
    host, port = server.base_url.removeprefix("http://").rsplit(":", 1)
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<ezstream>
  <servers><server>
    <hostname>{host}</hostname><port>{port}</port><password>{show['key']}</password>
  </server></servers>
  <streams><stream>
    <mountpoint>{show['mount']}</mountpoint><format>MP3</format>
  </stream></streams>
  <intakes><intake>
    <type>playlist</type><filename>{playlist}</filename><stream_once>Yes</stream_once>
  </intake></intakes>
</ezstream>
""")
    path.chmod(0o600)  # ezstream refuses a configuration with a password that others can read
    return path


def packets(path: Path) -> int:
    """Audio frames ffprobe's demuxer reads (the Info frame is not one)."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "a:0",
                          "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, timeout=30, check=True)
    return int(out.stdout.strip())


def probe_duration(path: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", str(path)],
                         capture_output=True, text=True, timeout=30, check=True)
    return float(json.loads(out.stdout)["format"]["duration"])


def test_ezstream_default_settings_stream_a_looped_file(server, tmp_path):
    need_ffmpeg()
    need_ezstream()
    show = create_show(server, "E2E ezstream")
    tone = make_mp3(tmp_path / "loop.mp3", FILE_SECONDS, 660)
    assert b"Info" in tone.read_bytes()[:512], "ffmpeg wrote no Info frame: the test would prove nothing"
    assert abs(probe_duration(tone) - FILE_SECONDS) < 0.1
    playlist = tmp_path / "twice.m3u"
    playlist.write_text(f"{tone}\n{tone}\n")
    config = ezstream_config(tmp_path / "ezstream.xml", server, show, playlist)
    source = subprocess.Popen(["ezstream", "-c", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL)
    try:
        wait_live(server, show["mount"])
        head = wait_audio(server, show["mount"])
        assert head["Content-Type"] == "audio/mpeg" and head["icy-br"] == "128"
        listener = decode_listener(server.url(show["mount"]), 3)
        out, err = listener.communicate(timeout=30)
        assert listener.returncode == 0, err.decode(errors="replace")
        assert len(out) >= 0.95 * 3 * 8000 * 2, len(out)
        assert max(abs(int.from_bytes(out[i:i + 2], "little", signed=True)) for i in range(0, len(out), 2)) > 1000
        # ezstream sets the title (the file's name without tags) through /admin/metadata.
        entry = wait(server, lambda s: (e := live_entry(s, show["mount"])) and e.get("title") and e,
                     "ezstream's title did not arrive", timeout=10)
        assert entry["title"] == "loop", entry
    finally:
        log, _ = source.communicate(timeout=30)
    assert source.returncode == 0, log.decode(errors="replace")
    episodes = wait_episode_done(server, show)
    assert len(episodes) == 1, episodes
    episode = episodes[0]
    # The audio of the two passes (the episode is re-encoded once by the loudness normalisation,
    # which may add a frame of encoder padding): the Info frames are not recorded.
    frames = 2 * packets(tone)
    assert abs(episode["duration"] - frames * 1152 / 44100) <= 1152 / 44100 + 1e-6, (episode, frames)
    recording = server.data_dir / episode["file"]
    data = recording.read_bytes()
    # One header frame, at the start (written by the re-encode of the loudness normalisation),
    # counting the episode's own frames (its encoder's padding frame aside); none of the source file's.
    assert data[36:40] == b"Info" and abs(int.from_bytes(data[44:48], "big") - packets(recording)) <= 1, data[:48]
    assert data.count(b"Info") == 1 and b"Xing" not in data and b"VBRI" not in data, "a source's header frame was recorded"
    assert abs(packets(recording) - frames) <= 1
    # What players read: the episode's length (9.1 s), not the source file's (4.5 s).
    download = requests.get(server.url(f"/radio/episodes/{episode['id']}.mp3"), timeout=10)
    assert download.status_code == 200 and download.content == data
    assert abs(probe_duration(recording) - episode["duration"]) <= 1152 / 44100 + 0.001, (probe_duration(recording), episode)
