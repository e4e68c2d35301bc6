"""Resumable episode uploads (issue 22: the studio's "record here, publish later"): a WebM/Opus
recording sent in pieces, broken off mid-way and resumed from the offset the server reports,
becomes one complete episode; refusals say why."""

from __future__ import annotations

import base64
import socket
import subprocess
import time

import requests

from test_cli import quintet
from test_radio_live import create_show, need_ffmpeg
from test_radio_studio import integrated_lufs


def test_a_broken_upload_resumes_and_becomes_a_complete_episode(server, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Record Here")
    webm = tmp_path / "here.webm"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "aevalsrc='0.05*sin(2*PI*330*t)*gt(sin(2*PI*1.5*t),0)':s=48000:d=12",
                    "-c:a", "libopus", "-b:a", "64k", "-f", "webm", str(webm)], check=True, timeout=60)
    data = webm.read_bytes()
    started = requests.post(server.url(f"/api/radio/shows/{show['id']}/uploads"),
                            json={"type": "audio/webm", "title": "Recorded at the market"}, auth=server.admin, timeout=10)
    assert started.status_code == 201, started.text
    upload = started.json()
    assert upload["offset"] == 0 and upload["title"] == "Recorded at the market"
    url = server.url(f"/api/radio/uploads/{upload['id']}")
    third = len(data) // 3
    assert requests.put(url, params={"offset": 0}, data=data[:third], auth=server.admin, timeout=30).json() == {"offset": third}
    # The connection breaks in the middle of the second piece: the server keeps what arrived.
    port = int(server.base_url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    piece = data[third:2 * third]
    token = base64.b64encode(":".join(server.admin).encode()).decode()
    sock.sendall((f"PUT /api/radio/uploads/{upload['id']}?offset={third} HTTP/1.1\r\nHost: x\r\n"
                  f"Authorization: Basic {token}\r\nContent-Length: {len(piece)}\r\n\r\n").encode() + piece[:len(piece) // 2])
    sock.close()
    # Where to go on: the server says; a piece from the wrong place is refused and changes nothing.
    def held() -> int:
        return requests.get(url, auth=server.admin, timeout=10).json()["offset"]
    deadline = time.monotonic() + 10
    while held() == third and time.monotonic() < deadline:
        time.sleep(0.1)  # the server is still reading the broken request
    offset = held()
    assert third <= offset <= third + len(piece) // 2
    wrong = requests.put(url, params={"offset": 0}, data=data[:10], auth=server.admin, timeout=10)
    assert wrong.status_code == 409 and wrong.json()["error"]["code"] == "offset_mismatch"
    assert held() == offset
    done = requests.put(url, params={"offset": offset}, data=data[offset:], auth=server.admin, timeout=30)
    assert done.json() == {"offset": len(data)}
    finished = requests.post(url + "/finish", auth=server.admin, timeout=120)
    assert finished.status_code == 201, finished.text
    episode = finished.json()
    assert episode["title"] == "Recorded at the market" and abs(episode["duration"] - 12) < 0.2, episode
    # The episode is complete and normalised; the upload is gone.
    mp3 = requests.get(server.url(f"/radio/episodes/{episode['id']}.mp3"), auth=server.admin, timeout=30)
    assert mp3.status_code == 200
    (tmp_path / "episode.mp3").write_bytes(mp3.content)
    assert abs(integrated_lufs(tmp_path / "episode.mp3") + 16) < 1.0
    assert requests.get(url, auth=server.admin, timeout=10).status_code == 404


def test_upload_refusals(server, tmp_path):
    show = create_show(server, "E2E Record Here Refusals")
    assert requests.post(server.url(f"/api/radio/shows/{show['id']}/uploads"), json={}, timeout=10).status_code == 401
    assert quintet("users", "add", "uploader2", "--data", str(server.data_dir), stdin="uploader-pass-2\n").returncode == 0
    other = ("uploader2", "uploader-pass-2")
    refused = requests.post(server.url(f"/api/radio/shows/{show['id']}/uploads"), json={}, auth=other, timeout=10)
    assert refused.status_code == 403
    assert requests.post(server.url("/api/radio/shows/999999/uploads"), json={}, auth=server.admin, timeout=10).status_code == 404
    upload = requests.post(server.url(f"/api/radio/shows/{show['id']}/uploads"), json={"title": "\u202e<i>x</i>"},
                           auth=server.admin, timeout=10).json()
    assert upload["title"] == "<i>x</i>"
    url = server.url(f"/api/radio/uploads/{upload['id']}")
    assert requests.get(url, auth=other, timeout=10).status_code == 404  # someone else's upload
    assert requests.put(url, data=b"x", auth=server.admin, timeout=10).status_code == 400  # no offset
    assert requests.post(url + "/finish", auth=server.admin, timeout=10).status_code == 400  # nothing yet
    requests.put(url, params={"offset": 0}, data=b"this is not audio" * 1000, auth=server.admin, timeout=10)
    not_audio = requests.post(url + "/finish", auth=server.admin, timeout=60)
    assert not_audio.status_code == 422 and not_audio.json()["error"]["code"] == "not_audio", not_audio.text
    assert requests.delete(url, auth=server.admin, timeout=10).status_code == 204
    assert requests.get(url, auth=server.admin, timeout=10).status_code == 404
    assert requests.get(server.url("/api/radio/uploads/not-an-id"), auth=server.admin, timeout=10).status_code == 404
