"""Recording survives a crash: ffmpeg broadcasts in real time, the server is killed with
SIGKILL in the middle, and the restarted server finalises the interrupted recording into an
episode that lacks at most about the last second (issue 6, "Recording")."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import requests

from conftest import start_server, stop_server, wait
from test_cli import quintet
from test_radio_live import create_show, make_mp3, need_ffmpeg, start_source, wait_live

STREAMED_BEFORE_KILL = 8.0  # seconds of real-time audio sent before the kill


def test_kill_9_loses_at_most_the_last_second(tmp_path):
    need_ffmpeg()
    data = tmp_path / "data"
    first = start_server(data, tmp_path / "first.log")
    show = create_show(first, "E2E Crash")
    mp3 = make_mp3(tmp_path / "long.mp3", 30)
    source = start_source(first, show, mp3)
    try:
        wait_live(first, show["mount"])
        live_seen = time.monotonic()  # the source was sending by then (maybe a little before)
        # Not a wait for a state: the real-time audio streamed before the kill is the scenario.
        time.sleep(STREAMED_BEFORE_KILL)
        first.process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        first.process.wait(timeout=10)
    finally:
        source.kill()
        source.wait(timeout=10)
    streamed = killed - live_seen  # a lower bound of the audio the server had received

    # The crashed server left the episode "live" with its file on disk.
    listed = quintet("radio", "episodes", "--data", str(data), "--json")
    assert listed.returncode == 0, listed.stderr
    before = [e for e in json.loads(listed.stdout) if e["show_id"] == show["id"]]
    assert len(before) == 1 and before[0]["state"] == "live", before

    second = start_server(data, tmp_path / "second.log")
    try:
        def recovered(server):
            answer = requests.get(server.url(f"/api/radio/episodes/{before[0]['id']}"), auth=server.admin, timeout=5)
            assert answer.status_code == 200, answer.text
            episode = answer.json()
            episode = episode.get("episode", episode)
            return episode if episode["state"] != "live" else None

        episode = wait(second, recovered, "the interrupted episode was not finalised", timeout=30)
        # At most about the last second is lost (0.3 s of slack for the polling above);
        # never more than what ffmpeg could have sent in real time (plus its read-ahead).
        assert episode["duration"] >= streamed - 1.3, (episode, streamed)
        assert episode["duration"] <= streamed + 3.0, (episode, streamed)
        download = requests.get(second.url(f"/radio/episodes/{episode['id']}.mp3"), auth=second.admin, timeout=10)
        assert download.status_code == 200 and len(download.content) == episode["size"]
        saved = tmp_path / "recovered.mp3"
        saved.write_bytes(download.content)
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", str(saved)],
                               capture_output=True, text=True, timeout=30)
        assert probe.returncode == 0, probe.stderr
        assert abs(float(json.loads(probe.stdout)["format"]["duration"]) - episode["duration"]) < 0.2
    finally:
        stop_server(second)
