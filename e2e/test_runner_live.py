"""`/api/runner/live` over a real WebSocket (websocket-client) against `quintet serve`:
samples in, a cadence a second and the demo library's songs out."""

from __future__ import annotations

import base64
import json
import math
import random

import pytest
import requests
import websocket

GRAVITY = 9.80665


@pytest.fixture(scope="module")
def library(server):
    """The demo library, scanned (its songs carry BPM tags)."""
    return server.wait_for_library()


def ws_url(server) -> str:
    return server.url("/api/runner/live").replace("http://", "ws://")


def basic(server) -> str:
    name, password = server.admin
    return "Authorization: Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()


def connect(server) -> websocket.WebSocket:
    return websocket.create_connection(ws_url(server), header=[basic(server)], timeout=10)


def receive(ws) -> dict:
    return json.loads(ws.recv())


def step_batches(spm: float, seconds: int, start: float = 0.0, rate: float = 100.0, seed: int = 1):
    """One message a second of a phone on an armband: heel strikes at `spm` with 3 % jitter,
    gravity in a random direction, m/s², a clock that starts at an arbitrary epoch."""
    rng = random.Random(seed)
    tilt = [rng.gauss(0, 1) for _ in range(3)]
    norm = math.sqrt(sum(v * v for v in tilt))
    up = [v / norm for v in tilt]
    steps, t = [], 0.0
    while t < start + seconds + 1:
        steps.append(t)
        t += 60 / spm * (1 + 0.03 * rng.gauss(0, 1))
    epoch = 1_764_000_000.0
    k = 0
    for second in range(seconds):
        rows = []
        for i in range(int(rate)):
            t = start + second + i / rate
            while k + 1 < len(steps) and steps[k + 1] <= t:
                k += 1
            tau = t - steps[k]
            vertical = 1.2 * math.exp(-0.5 * ((tau - 0.03) / 0.02) ** 2) + 0.4 * math.cos(2 * math.pi * tau * spm / 60)
            a = (1 + vertical) * GRAVITY
            noise = [0.1 * rng.gauss(0, 1) for _ in range(3)]
            rows.append([round(epoch + t, 4)] + [round(a * u + n, 4) for u, n in zip(up, noise)])
        yield {"type": "samples", "samples": rows}


def test_without_a_user_the_socket_says_so_and_plain_http_is_told_to_upgrade(server, library):
    ws = websocket.create_connection(ws_url(server), timeout=10)
    try:
        answer = receive(ws)
        assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
        opcode, frame = ws.recv_data_frame(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE
        assert int.from_bytes(frame.data[:2], "big") == 1008  # policy violation
    finally:
        ws.close()
    wrong = websocket.create_connection(ws_url(server), timeout=10, header=["Authorization: Basic " + base64.b64encode(b"admin:wrong").decode()])
    try:
        assert receive(wrong)["code"] == "unauthorized"
    finally:
        wrong.close()
    response = requests.get(server.url("/api/runner/live"), timeout=10)
    assert response.status_code == 401
    response = requests.get(server.url("/api/runner/live"), auth=server.admin, timeout=10)
    assert response.status_code == 426
    assert response.json()["error"]["code"] == "websocket_required"


def test_a_run_over_the_socket(server, library):
    ws = connect(server)
    try:
        ready = receive(ws)
        assert ready["type"] == "ready" and ready["state"] == "idle" and ready["songs"] >= 20
        assert ready["settings"] == {"mode": "nearest", "sprint": False, "auto_switch": True, "units": "auto"}

        cadences = []
        for batch in step_batches(168, 14):
            ws.send(json.dumps(batch))
        while len(cadences) < 10:
            message = receive(ws)
            assert message["type"] == "cadence", message
            cadences.append(message)
        times = [c["t"] for c in cadences]
        assert times == sorted(times) and times[0] == 2 and all(b - a == 1 for a, b in zip(times, times[1:]))
        moving = [c["spm"] for c in cadences if c["spm"] is not None]
        assert len(moving) >= 8 and all(abs(spm - 168) <= 4 for spm in moving), cadences
        assert cadences[-1]["state"] == "running" and cadences[-1]["steps"] > 15

        ws.send(json.dumps({"type": "start"}))
        assert receive(ws) == {"type": "state", "state": "running"}
        song = receive(ws)
        assert song["type"] == "song" and song["cause"] == "start" and song["random"] is False
        assert abs(song["cadence"] - 168) <= 4
        first = song["song"]
        assert first["bpm"] and first["stream_url"] == f"/api/library/songs/{first['id']}/stream"
        # The tempo heard against the steps is the song's, doubled or halved.
        assert song["effective_bpm"] in (first["bpm"], first["bpm"] * 2, first["bpm"] / 2)
        stream = requests.get(server.url(first["stream_url"]), auth=server.admin, timeout=30)
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("audio/")

        ws.send(json.dumps({"type": "next"}))
        second = receive(ws)
        assert second["cause"] == "next" and second["song"]["id"] != first["id"]

        # A message that cannot be taken is answered, and the run goes on.
        ws.send("this is not json")
        assert receive(ws)["code"] == "invalid_message"
        ws.send(json.dumps({"type": "samples", "samples": [[1, 2, 3]]}))
        assert receive(ws)["code"] == "invalid_samples"

        ws.send(json.dumps({"type": "pause"}))
        assert receive(ws) == {"type": "state", "state": "paused"}
        ws.send(json.dumps({"type": "resume"}))
        assert receive(ws) == {"type": "state", "state": "running"}
        ws.send(json.dumps({"type": "stop"}))
        assert receive(ws) == {"type": "state", "state": "stopped"}
        # The server closes the conversation after a stop.
        opcode, data = ws.recv_data(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE
    finally:
        ws.close()


def test_an_oversized_message_closes_the_socket_and_the_server_carries_on(server, library):
    ws = connect(server)
    try:
        assert receive(ws)["type"] == "ready"
        try:
            ws.send(json.dumps({"type": "samples", "samples": [[0, 0, 0, 1]] * 100_000}))  # ~1.2 MB
            answer = ws.recv()  # '' once the server's close frame arrives
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            answer = ""
        assert answer == "", f"an answer to an oversized message: {answer[:200]}"
    finally:
        ws.close()
    assert requests.get(server.url("/healthz"), timeout=5).status_code == 200
    # A new conversation works.
    again = connect(server)
    try:
        assert receive(again)["type"] == "ready"
    finally:
        again.close()
