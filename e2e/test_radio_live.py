"""The radio's live side with real clients: ffmpeg as the Icecast source (PUT and legacy
SOURCE, MP3 and browser-style WebM/Opus), ffmpeg/ffprobe as listeners, a raw-socket ICY
listener following a title update, a refused second source, and a source that drops and comes
back within the grace period. Shows are made with `quintet radio create-show` on the running
server's data folder."""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests

from conftest import wait
from test_cli import quintet

LISTENERS = 50  # the acceptance figure


def need_ffmpeg() -> None:
    if shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None:
        pytest.fail("ffmpeg/ffprobe are missing: run `bash scripts/bootstrap.sh`")


def create_show(server, title: str) -> dict:
    made = quintet("radio", "create-show", "--data", str(server.data_dir), "--title", title, "--json")
    assert made.returncode == 0, made.stderr
    return json.loads(made.stdout.strip().splitlines()[-1])


def source_url(server, show: dict) -> str:
    host_port = server.base_url.removeprefix("http://")
    return f"icecast://source:{show['key']}@{host_port}{show['mount']}"


def make_mp3(path: Path, seconds: float, frequency: int = 440) -> Path:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"sine=frequency={frequency}:duration={seconds}", "-ac", "2", "-c:a", "libmp3lame",
                    "-b:a", "128k", str(path)], check=True, timeout=60)
    return path


def start_source(server, show: dict, mp3: Path, *extra: str) -> subprocess.Popen:
    """ffmpeg streaming `mp3` in real time to the show's mount (PUT unless `extra` says)."""
    return subprocess.Popen(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-i", str(mp3), "-c:a", "copy",
         "-content_type", "audio/mpeg", "-ice_name", "E2E Live", "-ice_genre", "Test", *extra,
         "-f", "mp3", source_url(server, show)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)


def live_entry(server, mount: str) -> dict | None:
    """`mount`'s entry in /status-json.xsl, or None while it is not live."""
    stats = requests.get(server.url("/status-json.xsl"), timeout=5).json()["icestats"]
    sources = stats.get("source", [])
    return next((e for e in (sources if isinstance(sources, list) else [sources]) if e["listenurl"].endswith(mount)), None)


def wait_live(server, mount: str, timeout: float = 10) -> dict:
    """Waits until /status-json.xsl lists `mount`; returns its entry."""
    return wait(server, lambda s: live_entry(s, mount), f"{mount} did not go live", timeout=timeout)


def wait_audio(server, mount: str, timeout: float = 10) -> dict:
    """Waits until the mount has read its stream's first frames, which `icy-br` in a listener's
    head comes from (the sources here send no Ice-Bitrate); returns that head."""
    def head_with_bitrate(s):
        with requests.get(s.url(mount), stream=True, timeout=10) as answer:
            return answer.headers if answer.status_code == 200 and "icy-br" in answer.headers else None
    return wait(server, head_with_bitrate, f"{mount} sent no audio frames", timeout=timeout)


def episodes_of(server, show: dict) -> list[dict]:
    listed = quintet("radio", "episodes", "--data", str(server.data_dir), "--json")
    assert listed.returncode == 0, listed.stderr
    return [e for e in json.loads(listed.stdout) if e["show_id"] == show["id"]]


def wait_episode_done(server, show: dict, timeout: float = 30) -> list[dict]:
    def done(s):
        episodes = episodes_of(s, show)
        return episodes if episodes and all(e["state"] != "live" for e in episodes) else None
    return wait(server, done, lambda: f"the episode of {show['mount']} did not end: {episodes_of(server, show)}",
                timeout=timeout, interval=0.3)


def decode_listener(url: str, seconds: float) -> subprocess.Popen:
    """ffmpeg decoding `seconds` of the stream to 8 kHz mono PCM on stdout."""
    return subprocess.Popen(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", url, "-t", str(seconds),
                             "-ac", "1", "-ar", "8000", "-f", "s16le", "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)


def raw_get(server, mount: str, icy: bool) -> tuple[socket.socket, bytes, bytes]:
    """A raw listener: returns the socket, the response head and the bytes after it."""
    port = int(server.base_url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET {mount} HTTP/1.0\r\n{'Icy-MetaData: 1' + chr(13) + chr(10) if icy else ''}\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return sock, head, rest


def test_put_source_fifty_listeners_decode(server, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Live PUT")
    mp3 = make_mp3(tmp_path / "put.mp3", 14)
    source = start_source(server, show, mp3)
    try:
        entry = wait_live(server, show["mount"])
        assert entry["server_name"] == "E2E Live" and entry["genre"] == "Test"
        assert entry["server_type"] == "audio/mpeg"
        url = server.url(show["mount"])
        head = wait_audio(server, show["mount"])
        assert head["Content-Type"] == "audio/mpeg"
        assert head["icy-name"] == "E2E Live" and "icy-metaint" not in head
        assert head["icy-br"] == "128"  # from the stream's frames: ffmpeg sends no Ice-Bitrate
        listeners = [decode_listener(url, 5) for _ in range(LISTENERS)]
        for listener in listeners:
            out, err = listener.communicate(timeout=30)
            assert listener.returncode == 0, err.decode(errors="replace")
            assert len(out) >= 0.95 * 5 * 8000 * 2, len(out)  # 5 s decoded
            assert max(abs(int.from_bytes(out[i:i + 2], "little", signed=True)) for i in range(0, 8000, 2)) > 1000
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels",
                                "-of", "json", url], capture_output=True, text=True, timeout=30)
        stream = json.loads(probe.stdout)["streams"][0]
        assert stream["codec_name"] == "mp3" and stream["sample_rate"] == "44100" and stream["channels"] == 2
        # A second source on the busy mount is refused; the first keeps streaming.
        second = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-i", str(mp3),
                                 "-c:a", "copy", "-content_type", "audio/mpeg", "-f", "mp3", source_url(server, show)],
                                capture_output=True, text=True, timeout=30)
        assert second.returncode != 0 and "403" in second.stderr, second.stderr
        assert source.poll() is None
    finally:
        _, err = source.communicate(timeout=30)
    assert source.returncode == 0, err.decode(errors="replace")
    episodes = wait_episode_done(server, show)
    assert len(episodes) == 1
    assert abs(episodes[0]["duration"] - 14) < 0.5, episodes[0]
    assert episodes[0]["listens"] >= LISTENERS + 2


def test_legacy_source_icy_listener_follows_title(server, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Live Legacy")
    mp3 = make_mp3(tmp_path / "legacy.mp3", 12, 550)
    source = start_source(server, show, mp3, "-legacy_icecast", "1")
    try:
        wait_live(server, show["mount"])
        sock, head, body = raw_get(server, show["mount"], icy=True)
        lines = head.decode().split("\r\n")
        assert lines[0] == "HTTP/1.0 200 OK" and "icy-metaint:16000" in lines
        auth = ("source", show["key"])
        answer = requests.get(server.url("/admin/metadata"), auth=auth, timeout=10,
                              params={"mount": show["mount"], "mode": "updinfo", "song": "E2E Artist - Live Title"})
        assert answer.status_code == 200 and "<return>1</return>" in answer.text
        wrong = requests.get(server.url("/admin/metadata"), auth=("source", "wrong"), timeout=10,
                             params={"mount": show["mount"], "mode": "updinfo", "song": "x"})
        assert wrong.status_code == 401
        # Parse the ICY stream: audio, then a length byte and L*16 bytes of metadata.
        titles: list[str] = []
        pending = body

        def next_block_shows_the_title(sock) -> bool:
            """Reads one audio block and its metadata; true once the new title came (or the stream ended)."""
            nonlocal pending
            while len(pending) < 16001 + 255 * 16:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                pending += chunk
            if len(pending) < 16001:
                return True  # the stream ended: the asserts below say what was missing
            length = pending[16000] * 16
            if length:
                titles.append(pending[16001:16001 + length].rstrip(b"\0").decode()
                              .removeprefix("StreamTitle='").removesuffix("';"))
            pending = pending[16001 + length:]
            return "E2E Artist - Live Title" in titles

        wait(sock, next_block_shows_the_title, lambda: f"the new title did not arrive: {titles}", timeout=12, interval=0)
        sock.close()
        assert titles and titles[0] in ("", "E2E Artist - Live Title"), titles
        assert titles[-1] == "E2E Artist - Live Title", titles
        status = wait_live(server, show["mount"])
        assert status["title"] == "E2E Artist - Live Title"
    finally:
        _, err = source.communicate(timeout=30)
    assert source.returncode == 0, err.decode(errors="replace")
    # Source gone: listeners are closed after the grace period and the mount is 404.
    assert len(wait_episode_done(server, show)) == 1
    assert requests.get(server.url(show["mount"]), timeout=10).status_code == 404


def test_source_drops_and_returns_within_grace_keeps_one_episode(server, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Live Reconnect")
    first = make_mp3(tmp_path / "first.mp3", 4, 440)
    second = make_mp3(tmp_path / "second.mp3", 4, 660)
    source = start_source(server, show, first)
    wait_live(server, show["mount"])
    sock, head, body = raw_get(server, show["mount"], icy=False)
    assert head.startswith(b"HTTP/1.0 200 OK")
    source.communicate(timeout=30)
    assert source.returncode == 0
    # Not a wait for a state: the 2 s without a source are the scenario (within the 10 s grace
    # period); the listener hears silence meanwhile and the episode gets both parts.
    time.sleep(2)
    again = start_source(server, show, second, "-legacy_icecast", "1")
    _, err = again.communicate(timeout=30)
    assert again.returncode == 0, err.decode(errors="replace")
    # The listener got both broadcasts on one connection, then EOF after the grace period.
    sock.settimeout(20)
    received = len(body)
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += len(chunk)
    sock.close()
    assert received > 8 * 16000  # 8 s of audio at 128 kbit/s, plus the silence between
    episodes = wait_episode_done(server, show)
    assert len(episodes) == 1, episodes
    assert abs(episodes[0]["duration"] - 8) < 0.6, episodes[0]


def test_webm_opus_source_is_transcoded_to_mp3(server, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Live WebM")
    source = subprocess.Popen(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=440:duration=10",
         "-c:a", "libopus", "-b:a", "64k", "-content_type", "audio/webm", "-f", "webm", "-cluster_time_limit", "200",
         source_url(server, show)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        entry = wait_live(server, show["mount"])
        assert entry["server_type"] == "audio/mpeg"
        wait_audio(server, show["mount"])  # the transcoder's first MP3 frames
        url = server.url(show["mount"])
        listener = decode_listener(url, 4)
        out, err = listener.communicate(timeout=30)
        assert listener.returncode == 0, err.decode(errors="replace")
        assert len(out) >= 0.9 * 4 * 8000 * 2
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,bit_rate", "-of", "json",
                                url], capture_output=True, text=True, timeout=30)
        assert json.loads(probe.stdout)["streams"][0]["codec_name"] == "mp3"
    finally:
        _, err = source.communicate(timeout=30)
    assert source.returncode == 0, err.decode(errors="replace")
    episodes = wait_episode_done(server, show)
    assert len(episodes) == 1 and episodes[0]["file"].endswith(".mp3")
    assert episodes[0]["duration"] > 8, episodes[0]
