"""The studio's WebSocket ingest (`/api/radio/ingest`, issue 22) with a real WebSocket client:
a WebM/Opus stream made by ffmpeg sent in MediaRecorder-sized binary messages at real-time
pace reaches listeners as MP3 and becomes one episode; a socket that drops and comes back
within the grace period continues that episode; refusals say why and close with 1008."""

from __future__ import annotations

import base64
import json
import subprocess
import time
from pathlib import Path

import requests
import websocket

from test_cli import quintet
from test_radio_live import create_show, decode_listener, need_ffmpeg, wait_audio, wait_episode_done, wait_live


def make_webm(path: Path, seconds: float, frequency: int = 440) -> Path:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"sine=frequency={frequency}:duration={seconds}", "-c:a", "libopus", "-b:a", "64k",
                    "-f", "webm", "-cluster_time_limit", "250", str(path)], check=True, timeout=60)
    return path


def ingest_url(server, mount: str, **query: str) -> str:
    params = "&".join(f"{k}={requests.utils.quote(v, safe='')}" for k, v in {"mount": mount, **query}.items())
    return server.base_url.replace("http://", "ws://") + "/api/radio/ingest?" + params


def connect(url: str, **options) -> tuple[websocket.WebSocket, dict]:
    socket = websocket.create_connection(url, timeout=10, **options)
    return socket, json.loads(socket.recv())


def send_paced(socket: websocket.WebSocket, data: bytes, seconds: float, parts: int) -> None:
    """Sends `data` as `parts` binary messages spread over `seconds` (MediaRecorder's timeslice)."""
    size = -(-len(data) // parts)
    start = time.monotonic()
    for i in range(parts):
        socket.send_binary(data[i * size:(i + 1) * size])
        delay = start + (i + 1) * seconds / parts - time.monotonic()
        if delay > 0:
            time.sleep(delay)


def test_ingest_streams_webm_to_mp3_listeners_and_one_episode(server, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Studio")
    webm = make_webm(tmp_path / "mix.webm", 8).read_bytes()
    socket, ready = connect(ingest_url(server, show["mount"], key=show["key"]))
    assert ready["type"] == "ready" and ready["mount"] == show["mount"] and ready["resumed"] is False, ready
    assert ready["graceSeconds"] == 10 and isinstance(ready["episode"], int)
    try:
        # The first two seconds of the stream, then a listener decodes while the rest arrives.
        send_paced(socket, webm[:len(webm) // 4], 2, 8)
        entry = wait_live(server, show["mount"])
        assert entry["server_type"] == "audio/mpeg"
        wait_audio(server, show["mount"])
        listener = decode_listener(server.url(show["mount"]), 3)
        send_paced(socket, webm[len(webm) // 4:], 6, 24)
        out, err = listener.communicate(timeout=30)
        assert listener.returncode == 0, err.decode(errors="replace")
        assert len(out) >= 0.9 * 3 * 8000 * 2
        # The stats message: what the server received.
        socket.settimeout(5)
        stats = json.loads(socket.recv())
        assert stats["type"] == "stats" and 0 < stats["bytes"] <= len(webm), stats
    finally:
        socket.close()
    episodes = wait_episode_done(server, show, timeout=40)
    assert len(episodes) == 1 and episodes[0]["file"].endswith(".mp3"), episodes
    assert abs(episodes[0]["duration"] - 8) < 1.0, episodes[0]


def refusal(url: str, **options) -> tuple[dict, int | None]:
    socket, message = connect(url, **options)
    try:
        socket.settimeout(5)
        opcode, data = socket.recv_data(control_frame=True)
        code = int.from_bytes(data[:2], "big") if opcode == websocket.ABNF.OPCODE_CLOSE and len(data) >= 2 else None
    except websocket.WebSocketConnectionClosedException:
        code = None
    finally:
        socket.close()
    return message, code


def test_ingest_refusals_say_why(server, tmp_path):
    show = create_show(server, "E2E Studio Refusals")
    # Nobody signed in, no key.
    message, code = refusal(ingest_url(server, show["mount"]))
    assert message["type"] == "error" and message["code"] == "unauthorized" and code == 1008, (message, code)
    # A wrong key.
    message, code = refusal(ingest_url(server, show["mount"], key="not-the-key"))
    assert message["code"] == "forbidden" and code == 1008
    # A signed-in user who does not own the show (the admin owns it).
    data = str(server.data_dir)
    added = quintet("users", "add", "listener1", "--data", data, stdin="listener-pass-1\n")
    assert added.returncode == 0, added.stderr
    session = requests.post(server.url("/api/session"), json={"name": "listener1", "password": "listener-pass-1"}, timeout=10)
    assert session.status_code in (200, 201), session.text
    cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
    message, code = refusal(ingest_url(server, show["mount"]), cookie=cookie)
    assert message["code"] == "forbidden" and code == 1008, message
    # The owner, signed in with Basic auth, may; an unknown mount and a type that is not audio may not.
    basic = "Basic " + base64.b64encode(":".join(server.admin).encode()).decode()
    message, code = refusal(ingest_url(server, "/live/nobody-here.mp3"), header=[f"Authorization: {basic}"])
    assert message["code"] == "unknown_mount" and code == 1008
    message, code = refusal(ingest_url(server, show["mount"], type="text/html"), header=[f"Authorization: {basic}"])
    assert message["code"] == "unsupported_type" and code == 1008
    owner, ready = connect(ingest_url(server, show["mount"]), header=[f"Authorization: {basic}"])
    try:
        assert ready["type"] == "ready", ready
        # While it is live a second source is refused.
        message, code = refusal(ingest_url(server, show["mount"], key=show["key"]))
        assert message["code"] == "mount_in_use" and code == 1008
    finally:
        owner.close()
    # Not a WebSocket handshake: 426 in JSON.
    plain = requests.get(server.url("/api/radio/ingest"), timeout=10)
    assert plain.status_code == 426 and plain.json()["error"]["code"] == "websocket_required", plain.text
