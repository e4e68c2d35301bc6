"""`GET /api/library/songs/{id}/peaks` (issue 22: the studio's decks draw a song's waveform):
peaks of the whole song as ffmpeg decodes it, the bucket count checked, sign-in required."""

from __future__ import annotations

import pytest
import requests


@pytest.fixture(scope="module")
def library(server):
    return server.wait_for_library()


def test_a_songs_peaks_cover_the_whole_song(server, library):
    songs = requests.get(server.url("/api/library/songs"), params={"limit": 5}, auth=server.admin, timeout=10).json()["songs"]
    assert songs, "the e2e library has songs"
    song = next(s for s in songs if s.get("duration"))
    answer = requests.get(server.url(f"/api/library/songs/{song['id']}/peaks"), params={"buckets": 200},
                          auth=server.admin, timeout=60)
    assert answer.status_code == 200, answer.text
    peaks = answer.json()
    assert peaks["buckets"] == 200 and len(peaks["minima"]) == 200 and len(peaks["maxima"]) == 200
    assert abs(peaks["duration"] - song["duration"]) < 0.5, (peaks["duration"], song["duration"])
    assert all(-1.01 <= lo <= hi <= 1.01 for lo, hi in zip(peaks["minima"], peaks["maxima"]))
    assert max(peaks["maxima"]) > 0.01, "a song is not silence"
    # The second answer comes from the cache and is the same.
    again = requests.get(server.url(f"/api/library/songs/{song['id']}/peaks"), params={"buckets": 200},
                         auth=server.admin, timeout=60).json()
    assert again == peaks


def test_peaks_refuse_bad_requests(server, library):
    songs = requests.get(server.url("/api/library/songs"), params={"limit": 1}, auth=server.admin, timeout=10).json()["songs"]
    url = server.url(f"/api/library/songs/{songs[0]['id']}/peaks")
    assert requests.get(url, timeout=10).status_code == 401
    for bad in ("5", "5000", "many"):
        answer = requests.get(url, params={"buckets": bad}, auth=server.admin, timeout=10)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_input", answer.text
    missing = requests.get(server.url("/api/library/songs/999999999/peaks"), auth=server.admin, timeout=10)
    assert missing.status_code == 404
