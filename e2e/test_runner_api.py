"""The runner's library API against a real `quintet serve` and its demo library: a BPM set by
hand (`PUT /api/library/songs/{id}/bpm`) shows in the song, in Subsonic's `getSong` and in the
matcher's pick; hostile bodies change nothing; the never-while-running list round-trips and the
matcher honours it. Every change is undone at the end (the server is shared by the session)."""

from __future__ import annotations

import pytest
import requests


@pytest.fixture(scope="module")
def library(server):
    return server.wait_for_library()


def song_id(server, title: str) -> int:
    found = requests.get(server.url("/api/library/songs"), params={"q": title}, auth=server.admin, timeout=10).json()
    return next(s["id"] for s in found["songs"] if s["title"] == title)


def song(server, ident: int) -> dict:
    response = requests.get(server.url(f"/api/library/songs/{ident}"), auth=server.admin, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def put_bpm(server, ident: int, body, raw: bool = False) -> requests.Response:
    kwargs = {"data": body, "headers": {"Content-Type": "application/json"}} if raw else {"json": body}
    return requests.put(server.url(f"/api/library/songs/{ident}/bpm"), auth=server.admin, timeout=30, **kwargs)


def subsonic_bpm(server, ident: int) -> int:
    name, password = server.admin
    params = {"u": name, "p": password, "v": "1.16.1", "c": "e2e", "f": "json", "id": f"tr-{ident}"}
    answer = requests.get(server.url("/rest/getSong"), params=params, timeout=10).json()["subsonic-response"]
    assert answer["status"] == "ok", answer
    return answer["song"]["bpm"]


def pick(server, cadence: float) -> dict:
    response = requests.get(server.url("/api/runner/next"), params={"cadence": cadence}, auth=server.admin, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def test_an_override_shows_everywhere_and_null_returns_to_the_tag(server, library):
    slow_thaw = song_id(server, "Slow Thaw")  # tagged 72 BPM; no song of the demo is at 199
    assert song(server, slow_thaw)["bpm"] == 72
    try:
        answer = put_bpm(server, slow_thaw, {"bpm": 199})
        assert answer.status_code == 200, answer.text
        assert answer.json()["bpm"] == 199 and answer.json()["bpm_source"] == "override"
        shown = song(server, slow_thaw)
        assert (shown["bpm"], shown["bpm_source"], shown["analysed_bpm"]) == (199, "override", 72)
        assert subsonic_bpm(server, slow_thaw) == 199
        chosen = pick(server, 199)
        assert chosen["song"]["id"] == slow_thaw and chosen["song"]["bpm"] == 199 and not chosen["fallback"], chosen
        listed = requests.get(server.url("/api/runner/songs"), params={"sort": "bpm", "order": "desc"},
                              auth=server.admin, timeout=10).json()["songs"]
        assert listed[0]["id"] == slow_thaw and listed[0]["bpm_source"] == "override"
        assert [s["bpm"] for s in listed] == sorted((s["bpm"] for s in listed), reverse=True)

        hostile = [('{"bpm":"fast"}', 400), ('{"bpm":1e309}', 400), ("[]", 400), ('{"bpm":29.9}', 400),
                   ('{"bpm":300.1}', 400), ('{"bpm":true}', 400), ("{", 400), ("", 400),
                   ('{"bpm":150,"pad":"' + "x" * 1_000_000 + '"}', 413)]
        for body, status in hostile:
            refused = put_bpm(server, slow_thaw, body, raw=True)
            assert refused.status_code == status, (body[:40], refused.status_code, refused.text[:200])
            assert refused.json()["error"]["message"], refused.text[:200]
        assert song(server, slow_thaw)["bpm"] == 199  # nothing changed
        assert requests.put(server.url(f"/api/library/songs/{slow_thaw}/bpm"), json={"bpm": 150}, timeout=10).status_code == 401

        reset = put_bpm(server, slow_thaw, {"bpm": None})
        assert reset.status_code == 200 and reset.json()["bpm"] == 72 and reset.json()["bpm_source"] == "tag"
        assert subsonic_bpm(server, slow_thaw) == 72
    finally:
        put_bpm(server, slow_thaw, {"bpm": None})


def test_the_never_list_round_trips_and_the_matcher_honours_it(server, library):
    thermal = song_id(server, "Thermal")  # 174 BPM: the pick for 174 spm (Updraft, 180, is the next nearest)
    never_url = server.url(f"/api/runner/never/{thermal}")
    try:
        assert pick(server, 174)["song"]["id"] == thermal
        for _ in range(2):  # idempotent
            assert requests.put(never_url, auth=server.admin, timeout=10).status_code == 204
        listed = requests.get(server.url("/api/runner/never"), auth=server.admin, timeout=10).json()["songs"]
        assert [s["id"] for s in listed] == [thermal] and listed[0]["title"] == "Thermal"
        songs = requests.get(server.url("/api/runner/songs"), auth=server.admin, timeout=10).json()["songs"]
        assert [s["id"] for s in songs if s["never"]] == [thermal]
        assert pick(server, 174)["song"]["id"] != thermal
        assert requests.get(server.url("/api/runner/never"), timeout=10).status_code == 401
        assert requests.put(server.url("/api/runner/never/999999999"), auth=server.admin, timeout=10).status_code == 404

        assert requests.delete(never_url, auth=server.admin, timeout=10).status_code == 204  # the undo
        assert requests.get(server.url("/api/runner/never"), auth=server.admin, timeout=10).json()["songs"] == []
        assert pick(server, 174)["song"]["id"] == thermal
    finally:
        requests.delete(never_url, auth=server.admin, timeout=10)
