"""Quintet as the master of a real Debian icecast2 relay (issue 24 §4): ffmpeg feeds a live
mount, icecast2 (its own process, own config, a free port) relays it with `<relay>`, a listener
on the relay gets MP3 audio and the ICY title set on Quintet, Quintet's /status-json.xsl and
/api/radio/live count the relay apart from listeners, and the relay comes back by itself after
the source drops (past the grace period) and returns."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
import requests

from conftest import free_port, wait
from test_radio_live import create_show, live_entry, make_mp3, need_ffmpeg, start_source, wait_live

TITLE = "E2E Relay Artist - Relayed Title"


def relay_config(folder: Path, port: int, master_port: int, mount: str) -> Path:
    """An icecast.xml with one `<relay>` of `mount` (the block docs/radio.md documents)."""
    security = ""
    if os.geteuid() == 0:
        # icecast2 refuses to run as root: it drops to Debian's icecast2 user once bound.
        shutil.chown(folder / "log", "icecast2", "icecast")
        security = ("<security><chroot>0</chroot><changeowner><user>icecast2</user>"
                    "<group>icecast</group></changeowner></security>")
    config = folder / "icecast.xml"
    config.write_text(f"""<icecast>
  <location>e2e</location><admin>e2e@localhost</admin><hostname>127.0.0.1</hostname>
  <limits><clients>20</clients><sources>4</sources><source-timeout>10</source-timeout></limits>
  <authentication><source-password>e2e-source</source-password><relay-password>e2e-relay</relay-password>
    <admin-user>admin</admin-user><admin-password>e2e-admin</admin-password></authentication>
  <listen-socket><port>{port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <master-update-interval>1</master-update-interval>
  <relay>
    <server>127.0.0.1</server>
    <port>{master_port}</port>
    <mount>{mount}</mount>
    <local-mount>/relay.mp3</local-mount>
    <on-demand>0</on-demand>
    <relay-shoutcast-metadata>1</relay-shoutcast-metadata>
  </relay>
  <fileserve>1</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>{folder}/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  {security}
</icecast>
""")
    return config


def relay_source(port: int) -> dict | None:
    """The relay's /relay.mp3 in its own /status-json.xsl, or None while it is not relaying."""
    try:
        stats = requests.get(f"http://127.0.0.1:{port}/status-json.xsl", timeout=3).json()["icestats"]
    except (requests.RequestException, ValueError):
        return None
    sources = stats.get("source", [])
    return next((s for s in (sources if isinstance(sources, list) else [sources])
                 if s.get("listenurl", "").endswith("/relay.mp3")), None)


def read_relay_stream(port: int, want_title: str | None, timeout: float = 12) -> tuple[bytes, list[str]]:
    """Listens on the relay with `Icy-MetaData: 1` until `want_title` arrives in a metadata block
    (None: for three blocks); returns the audio read and the titles seen."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(b"GET /relay.mp3 HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"the relay closed before its head: {data!r}"
        data += chunk
    head, _, pending = data.partition(b"\r\n\r\n")
    lines = head.decode(errors="replace").split("\r\n")
    assert lines[0].endswith("200 OK"), lines
    metaint = int(next(line.split(":", 1)[1] for line in lines if line.lower().startswith("icy-metaint:")))
    audio, titles = b"", []

    def block(sock) -> bool:
        nonlocal pending, audio
        while len(pending) < metaint + 1 + 255 * 16:
            chunk = sock.recv(65536)
            if not chunk:
                break
            pending += chunk
        assert len(pending) > metaint, "the relay's stream ended"
        audio += pending[:metaint]
        length = pending[metaint] * 16
        if length:
            titles.append(pending[metaint + 1:metaint + 1 + length].rstrip(b"\0").decode(errors="replace"))
        pending = pending[metaint + 1 + length:]
        return any(want_title in t for t in titles) if want_title else len(audio) >= 3 * metaint

    try:
        wait(sock, block, lambda: f"the relay's listener did not get the title: {titles}", timeout=timeout, interval=0)
    finally:
        sock.close()
    return audio, titles


def mp3_frames(audio: bytes) -> int:
    """The longest run of MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417/418 bytes each) found
    from a sync word in the first 4 KB."""
    def run(i: int) -> int:
        count = 0
        while i <= len(audio) - 4 and audio[i] == 0xFF and audio[i + 1] == 0xFB:
            i += 144 * 128000 // 44100 + ((audio[i + 2] >> 1) & 1)
            count += 1
        return count
    return max((run(i) for i in range(min(4096, len(audio))) if audio[i] == 0xFF), default=0)


def test_icecast2_relay_pulls_a_live_mount(server, tmp_path):
    need_ffmpeg()
    if shutil.which("icecast2") is None:
        pytest.fail("icecast2 is missing: run `bash scripts/bootstrap.sh`")
    show = create_show(server, "E2E Relay")
    mount = show["mount"]
    mp3 = make_mp3(tmp_path / "relay.mp3", 6, 500)
    again = make_mp3(tmp_path / "again.mp3", 6, 700)
    source = start_source(server, show, mp3)
    folder = Path(tempfile.mkdtemp(prefix="quintet-relay-"))
    os.chmod(folder, 0o755)
    (folder / "log").mkdir()
    port = free_port()
    master_port = int(server.base_url.rsplit(":", 1)[1])
    icecast = subprocess.Popen(["icecast2", "-c", str(relay_config(folder, port, master_port, mount))],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    returned = None
    try:
        wait_live(server, mount)
        relayed = wait(port, relay_source, lambda: f"icecast2 did not relay {mount}: {relay_log(folder)}", timeout=10)
        assert relayed["server_type"] == "audio/mpeg" and relayed["server_name"] == "E2E Live"

        # Quintet counts the relay apart from listeners.
        entry = wait(server, lambda s: (e := live_entry(s, mount)) and e.get("relays") == 1 and e,
                     lambda: f"Quintet did not count the relay: {live_entry(server, mount)}", timeout=5)
        assert entry["listeners"] == 0
        live = requests.get(server.url("/api/radio/live"), timeout=5).json()["mounts"]
        assert next(m for m in live if m["mount"] == mount)["relays"] == 1

        # The title set on Quintet reaches the relay's listeners and its status.
        answer = requests.post(server.url("/api/radio/metadata"), auth=("source", show["key"]), timeout=5,
                               json={"mount": mount, "title": TITLE})
        assert answer.status_code == 200, answer.text
        audio, titles = read_relay_stream(port, TITLE)
        assert mp3_frames(audio) >= 30, "no run of MP3 frames in the relay's audio"
        wait(port, lambda p: (relay_source(p) or {}).get("title") == TITLE,
             lambda: f"the relay's status has no title: {relay_source(port)}", timeout=5)

        # The source ends; past Quintet's grace period (10 s) the mount ends and the relay loses
        # it; a returning source starts a new broadcast and the relay comes back by itself.
        _, err = source.communicate(timeout=20)
        assert source.returncode == 0, err.decode(errors="replace")
        wait(server, lambda s: live_entry(s, mount) is None, f"{mount} did not end", timeout=14, interval=0.2)
        returned = start_source(server, show, again)
        wait_live(server, mount)
        back = wait(port, lambda p: (s := relay_source(p)) and s["stream_start"] != relayed["stream_start"] and s,
                    lambda: f"the relay did not reconnect: {relay_log(folder)}", timeout=8, interval=0.2)
        assert back["server_name"] == "E2E Live"
        wait(server, lambda s: (live_entry(s, mount) or {}).get("relays") == 1,
             "Quintet did not count the returning relay", timeout=5)
        audio, _ = read_relay_stream(port, None, timeout=6)
        assert mp3_frames(audio) >= 30
    finally:
        icecast.terminate()
        try:
            icecast.wait(timeout=10)
        except subprocess.TimeoutExpired:
            icecast.kill()
            icecast.wait()
        for process in (source, returned):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def relay_log(folder: Path) -> str:
    log = folder / "log" / "error.log"
    return log.read_text(errors="replace")[-2000:] if log.exists() else "(no icecast log)"
