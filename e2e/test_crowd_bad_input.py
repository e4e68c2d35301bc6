"""Crowd: bad input is refused with 400 naming the field (413 for a huge body), and changes
nothing — on SQLite and on PostGIS.

Every bad report is sent by a device that already stands in a location, for a valid place
600 m away: had any part of it been applied, that device would have left its location (the
counts drop) or a new location would appear there. Before and after each request the test
reads a wide search and the details (with comments) of the existing locations; they must be
identical. Afterwards the server is still healthy, and plain text with `&`, quotes and emoji
comes back exactly as sent.
"""

from __future__ import annotations

import json
import math
import socket
import time
from urllib.parse import urlsplit

import pytest
import requests

from crowd_oracle import EARTH_RADIUS, LONG_EXPIRY, CrowdServer

CENTRE = (48.137154, 11.576124)  # Munich, Marienplatz


def offset(lat: float, lon: float, metres: float, bearing: float) -> tuple[float, float]:
    """The point `metres` from (lat, lon) towards `bearing` (radians) on the sphere."""
    phi1, lambda1 = math.radians(lat), math.radians(lon)
    delta = metres / EARTH_RADIUS
    phi2 = math.asin(math.sin(phi1) * math.cos(delta) + math.cos(phi1) * math.sin(delta) * math.cos(bearing))
    lambda2 = lambda1 + math.atan2(math.sin(bearing) * math.sin(delta) * math.cos(phi1),
                                   math.cos(delta) - math.sin(phi1) * math.sin(phi2))
    return math.degrees(phi2), math.degrees(lambda2)


FAR = offset(*CENTRE, 600, 1.0)
VALID = {"device": "alice", "lat": FAR[0], "lon": FAR[1], "age": 30, "sex": "f",
         "comment": "moved?", "radius": 200, "min": 1, "max": 20, "limit": 50}
MISSING = object()


class Raw:
    """A value written into the JSON text as is (e.g. `1e999`, which json.dumps cannot write)."""

    def __init__(self, text: str):
        self.text = text


class World:
    """The server of this module and the state it was given."""

    def __init__(self, server: CrowdServer):
        self.server = server
        self.session = requests.Session()
        self.ids: list[int] = []

    def url(self, path: str) -> str:
        return self.server.url(path)

    def snapshot(self):
        """What anyone can see: a wide search and every known location's details."""
        search = self.session.get(self.url("/api/crowd/locations"), timeout=30, params={
            "lat": CENTRE[0], "lon": CENTRE[1], "radius": 2000, "min": 1, "max": 100, "limit": 20000})
        assert search.status_code == 200, search.text
        details = []
        for location_id in self.ids:
            response = self.session.get(self.url(f"/api/crowd/locations/{location_id}"), timeout=30)
            details.append((response.status_code, response.json() if response.status_code == 200 else None))
        return search.json(), details


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request, tmp_path_factory):
    server = CrowdServer(request.param, tmp_path_factory.mktemp(f"crowd-bad-{request.param}"), "bad-input", 1,
                         LONG_EXPIRY)
    try:
        server.start()
        world = World(server)
        people = [("alice", CENTRE, 30, "f", "hello"), ("bob", offset(*CENTRE, 3, 0.3), 41, "m", None),
                  ("carol", offset(*CENTRE, 5, 2.0), None, "f", "nice & quiet"),
                  ("dave", offset(*CENTRE, 150, 4.0), 25, None, "over here")]
        for token, (lat, lon), age, sex, comment in people:
            body = {"device": token, "lat": lat, "lon": lon}
            body.update({k: v for k, v in (("age", age), ("sex", sex), ("comment", comment)) if v is not None})
            response = world.session.post(server.url("/api/crowd/reports"), json=body, timeout=30)
            assert response.status_code == 200, response.text
            location_id = response.json()["location"]["id"]
            if location_id not in world.ids:
                world.ids.append(location_id)
        assert len(world.ids) == 2
        search, details = world.snapshot()
        assert [e["people"] for e in search["locations"]] == [3, 1]
        assert [c["text"] for c in details[0][1]["comments"]] == ["nice & quiet", "hello"]
        yield world
    finally:
        server.close()


def error_of(response: requests.Response) -> dict:
    try:
        body = response.json()
    except ValueError:
        pytest.fail(f"the error answer is not JSON: {response.status_code} {response.text[:200]!r}")
    error = body.get("error") if isinstance(body, dict) else None
    assert isinstance(error, dict), f"no error object: {body!r}"
    assert isinstance(error.get("code"), (str, int)) and error.get("message"), f"an error needs a code and a message: {body!r}"
    return error


def check_refused(world: World, send, fields: set, statuses: tuple[int, ...] = (400,)):
    """Sends one bad request between two snapshots: refused, naming a field in `fields`, and
    nothing changed."""
    before = world.snapshot()
    response = send()
    assert response.status_code in statuses, f"expected {statuses}, got {response.status_code}: {response.text[:300]}"
    if response.status_code == 400:
        error = error_of(response)
        assert error.get("field") in fields, f"expected the field to be one of {sorted(map(str, fields))}, got {error!r}"
    after = world.snapshot()
    assert after == before, "a refused request changed the state"
    return response


def report_body(**changes) -> str:
    body = dict(VALID)
    raw = {}
    for key, value in changes.items():
        if value is MISSING:
            body.pop(key, None)
        elif isinstance(value, Raw):
            body[key] = f"@raw{len(raw)}@"
            raw[f'"@raw{len(raw)}@"'] = value.text
        else:
            body[key] = value
    text = json.dumps(body, allow_nan=True, ensure_ascii=False)  # NaN/Infinity come out as bare tokens
    for placeholder, value in raw.items():
        text = text.replace(placeholder, value)
    return text


NOT_JSON = {"lat", "body", None}  # a body that is not JSON cannot always name the field it broke

BAD_REPORTS = [
    # coordinates: NaN and infinities as bare tokens (not JSON), overflow, out of range, wrong types
    ("lat NaN", {"lat": math.nan}, NOT_JSON),
    ("lat Infinity", {"lat": math.inf}, NOT_JSON),
    ("lat -Infinity", {"lat": -math.inf}, NOT_JSON),
    ("lon NaN", {"lon": math.nan}, NOT_JSON | {"lon"}),
    ("lon -Infinity", {"lon": -math.inf}, NOT_JSON | {"lon"}),
    ("lat 1e999", {"lat": Raw("1e999")}, {"lat", "body"}),
    ("lon -1e400", {"lon": Raw("-1e400")}, {"lon", "body"}),
    ("lat 90.000001", {"lat": 90.000001}, {"lat"}),
    ("lat -90.5", {"lat": -90.5}, {"lat"}),
    ("lat 1000", {"lat": 1000}, {"lat"}),
    ("lon 180.0000001", {"lon": 180.0000001}, {"lon"}),
    ("lon -180.5", {"lon": -180.5}, {"lon"}),
    ("lon 361", {"lon": 361}, {"lon"}),
    ("lat as a string", {"lat": "48.1"}, {"lat"}),
    ("lat null", {"lat": None}, {"lat"}),
    ("lat true", {"lat": True}, {"lat"}),
    ("lat list", {"lat": [48.1]}, {"lat"}),
    ("lat missing", {"lat": MISSING}, {"lat"}),
    ("lon missing", {"lon": MISSING}, {"lon"}),
    # the device token
    ("device missing", {"device": MISSING}, {"device"}),
    ("device empty", {"device": ""}, {"device"}),
    ("device 65 characters", {"device": "a" * 65}, {"device"}),
    ("device 65 emoji", {"device": "😀" * 65}, {"device"}),
    ("device a number", {"device": 12345}, {"device"}),
    ("device null", {"device": None}, {"device"}),
    # age and sex
    ("age -1", {"age": -1}, {"age"}),
    ("age 151", {"age": 151}, {"age"}),
    ("age 30.5", {"age": 30.5}, {"age"}),
    ("age a string", {"age": "30"}, {"age"}),
    ("age true", {"age": True}, {"age"}),
    ("sex x", {"sex": "x"}, {"sex"}),
    ("sex M", {"sex": "M"}, {"sex"}),
    ("sex empty", {"sex": ""}, {"sex"}),
    ("sex male", {"sex": "male"}, {"sex"}),
    ("sex a number", {"sex": 1}, {"sex"}),
    # comments: plain text, 1 to 200 characters
    ("comment empty", {"comment": ""}, {"comment"}),
    ("comment 201 characters", {"comment": "x" * 201}, {"comment"}),
    ("comment 201 emoji", {"comment": "🎉" * 201}, {"comment"}),
    ("comment script tag", {"comment": "<script>alert(1)</script>"}, {"comment"}),
    ("comment img tag", {"comment": "<img src=x onerror=alert(1)>"}, {"comment"}),
    ("comment less-than", {"comment": "a < b"}, {"comment"}),
    ("comment greater-than", {"comment": "a > b"}, {"comment"}),
    ("comment NUL", {"comment": "a\u0000b"}, {"comment"}),
    ("comment BEL", {"comment": "ring\u0007"}, {"comment"}),
    ("comment newline", {"comment": "two\nlines"}, {"comment"}),
    ("comment tab", {"comment": "a\tb"}, {"comment"}),
    ("comment carriage return", {"comment": "a\rb"}, {"comment"}),
    ("comment DEL", {"comment": "a\u007fb"}, {"comment"}),
    ("comment C1 NEL", {"comment": "a\u0085b"}, {"comment"}),
    ("comment escape", {"comment": "\u001b[31mred"}, {"comment"}),
    ("comment a number", {"comment": 42}, {"comment"}),
    # the search
    ("radius 0", {"radius": 0}, {"radius"}),
    ("radius 1e9", {"radius": 10 ** 9}, {"radius"}),
    ("radius 14", {"radius": 14}, {"radius"}),
    ("radius 2001", {"radius": 2001}, {"radius"}),
    ("radius -200", {"radius": -200}, {"radius"}),
    ("radius 200.5", {"radius": 200.5}, {"radius"}),
    ("radius a string", {"radius": "200"}, {"radius"}),
    ("radius NaN", {"radius": math.nan}, NOT_JSON | {"radius"}),
    ("radius 1e999", {"radius": Raw("1e999")}, {"radius", "body"}),
    ("age 1e20", {"age": Raw("1e20")}, {"age", "body"}),
    ("min 0", {"min": 0}, {"min"}),
    ("min 101", {"min": 101, "max": 100}, {"min"}),
    ("min 2.5", {"min": 2.5}, {"min"}),
    ("max 0", {"max": 0, "min": 1}, {"max", "min"}),
    ("max 101", {"max": 101}, {"max"}),
    ("min greater than max", {"min": 5, "max": 4}, {"min", "max"}),
    ("limit 0", {"limit": 0}, {"limit"}),
    ("limit 20001", {"limit": 20001}, {"limit"}),
    ("limit -1", {"limit": -1}, {"limit"}),
]


@pytest.mark.parametrize("name,changes,fields", BAD_REPORTS, ids=[case[0] for case in BAD_REPORTS])
def test_bad_report_is_refused_and_changes_nothing(world, name, changes, fields):
    body = report_body(**changes).encode()
    check_refused(world, lambda: world.session.post(world.url("/api/crowd/reports"), data=body, timeout=30,
                                                     headers={"Content-Type": "application/json"}), fields)


def test_a_one_megabyte_comment_is_refused(world):
    body = report_body(comment="x" * (1 << 20)).encode()
    response = check_refused(world, lambda: world.session.post(
        world.url("/api/crowd/reports"), data=body, timeout=60, headers={"Content-Type": "application/json"}),
        {"comment"}, (400, 413))
    print(f"1 MB comment: {response.status_code}")


NOT_JSON_BODIES = [
    ("plain text", b"hello"),
    ("empty", b""),
    ("an array", b"[]"),
    ("null", b"null"),
    ("a number", b"42"),
    ("cut short", b'{"device": "alice", "lat": 48.1'),
    ("trailing garbage", json.dumps(VALID).encode() + b" }"),
    ("single quotes", b"{'device': 'alice', 'lat': 48.1, 'lon': 11.5}"),
    ("not UTF-8", b'{"device": "\xff\xfe", "lat": 48.1, "lon": 11.5}'),
]


@pytest.mark.parametrize("name,body", NOT_JSON_BODIES, ids=[case[0] for case in NOT_JSON_BODIES])
def test_a_body_that_is_not_a_json_object_is_refused(world, name, body):
    check_refused(world, lambda: world.session.post(world.url("/api/crowd/reports"), data=body, timeout=30,
                                                     headers={"Content-Type": "application/json"}),
                  {"body", None, "device"})


def raw_post(url: str, head_json: bytes, padding: int, tail_json: bytes) -> tuple[int, bytes]:
    """POSTs `head_json` + `padding` spaces + `tail_json` over a plain socket, streamed; returns
    the status and the answer, also when the server answers (and stops reading) before the end."""
    parts = urlsplit(url)
    size = len(head_json) + padding + len(tail_json)
    with socket.create_connection((parts.hostname, parts.port), timeout=2) as sock:
        sock.sendall((f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {size}\r\nConnection: close\r\n\r\n").encode())
        try:
            sock.sendall(head_json)
            left = padding
            while left:
                piece = min(left, 1 << 16)
                sock.sendall(b" " * piece)
                left -= piece
            sock.sendall(tail_json)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass  # the server refused before the end (and stopped reading); its answer is in the socket
        answer = b""
        sock.settimeout(10)
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        except (ConnectionResetError, socket.timeout):
            pass
    status_line = answer.split(b"\r\n", 1)[0]
    assert status_line.startswith(b"HTTP/1.1 "), f"no HTTP answer: {answer[:200]!r}"
    return int(status_line.split()[1]), answer


def test_a_huge_body_gets_413(world):
    """A valid report padded with 64 MB of whitespace (still valid JSON): refused as too large."""
    before = world.snapshot()
    head = json.dumps({"device": "alice", "lat": FAR[0], "lon": FAR[1]})[:-1].encode() + b","
    status, answer = raw_post(world.url("/api/crowd/reports"), head, 64 << 20, b'"age": 30}')
    assert status == 413, answer[:300]
    body = answer.split(b"\r\n\r\n", 1)[1]
    error = json.loads(body)["error"]
    assert error.get("field") in ("body", None) and error.get("message"), error
    assert world.snapshot() == before
    assert requests.get(world.url("/healthz"), timeout=5).status_code == 200
    # the same report without the padding is a valid one (so the 413 was for the size alone)
    assert json.loads((head + b'"age": 30}').decode())["device"] == "alice"


BAD_SEARCHES = [
    ("lat NaN", {"lat": "NaN"}, {"lat"}),
    ("lat nan", {"lat": "nan"}, {"lat"}),
    ("lat Infinity", {"lat": "Infinity"}, {"lat"}),
    ("lat -Infinity", {"lat": "-Infinity"}, {"lat"}),
    ("lat inf", {"lat": "inf"}, {"lat"}),
    ("lat 1e999", {"lat": "1e999"}, {"lat"}),
    ("lat 91", {"lat": "91"}, {"lat"}),
    ("lat -90.5", {"lat": "-90.5"}, {"lat"}),
    ("lat words", {"lat": "north"}, {"lat"}),
    ("lat empty", {"lat": ""}, {"lat"}),
    ("lat missing", {"lat": MISSING}, {"lat"}),
    ("lat hex", {"lat": "0x30"}, {"lat"}),
    ("lon NaN", {"lon": "NaN"}, {"lon"}),
    ("lon +Infinity", {"lon": "+Infinity"}, {"lon"}),
    ("lon 181", {"lon": "181"}, {"lon"}),
    ("lon -180.1", {"lon": "-180.1"}, {"lon"}),
    ("lon missing", {"lon": MISSING}, {"lon"}),
    ("radius 0", {"radius": "0"}, {"radius"}),
    ("radius 1e9", {"radius": "1000000000"}, {"radius"}),
    ("radius 14", {"radius": "14"}, {"radius"}),
    ("radius 2001", {"radius": "2001"}, {"radius"}),
    ("radius 200.5", {"radius": "200.5"}, {"radius"}),
    ("radius NaN", {"radius": "NaN"}, {"radius"}),
    ("radius words", {"radius": "far"}, {"radius"}),
    ("min 0", {"min": "0"}, {"min"}),
    ("min 101", {"min": "101", "max": "100"}, {"min"}),
    ("max 101", {"max": "101"}, {"max"}),
    ("max 0", {"max": "0", "min": "1"}, {"max", "min"}),
    ("min greater than max", {"min": "5", "max": "4"}, {"min", "max"}),
    ("limit 0", {"limit": "0"}, {"limit"}),
    ("limit 20001", {"limit": "20001"}, {"limit"}),
    ("limit words", {"limit": "all"}, {"limit"}),
]


@pytest.mark.parametrize("name,changes,fields", BAD_SEARCHES, ids=[case[0] for case in BAD_SEARCHES])
def test_bad_search_is_refused(world, name, changes, fields):
    params = {"lat": repr(CENTRE[0]), "lon": repr(CENTRE[1]), "radius": "200", "min": "1", "max": "20", "limit": "50"}
    for key, value in changes.items():
        if value is MISSING:
            params.pop(key)
        else:
            params[key] = value
    check_refused(world, lambda: world.session.get(world.url("/api/crowd/locations"), params=params, timeout=30),
                  fields)


@pytest.mark.parametrize("location_id", ["abc", "-1", "0", "1.5", "99999999999999999999999", "NaN"])
def test_a_bad_location_id_is_refused_or_not_found(world, location_id):
    check_refused(world, lambda: world.session.get(world.url(f"/api/crowd/locations/{location_id}"), timeout=30),
                  {"id", None}, (400, 404))


def test_plain_text_comes_back_as_sent(world):
    """`&`, quotes, apostrophes, emoji (one scalar and several), accents: stored and returned
    as the same text; exactly 200 characters (scalars) and limits at their ends are accepted."""
    texts = ['Tom & Jerry\'s "bar" — 50% off; a=b&c=d', "🎉👍🏽 café ü ß 漢字 🇩🇪", "&lt;not a tag&gt; &amp;",
             "🎉" * 200, "'; DROP TABLE locations; --"]
    location_id = world.ids[0]
    for n, text in enumerate(texts):
        response = world.session.post(world.url("/api/crowd/reports"), json={
            "device": "alice", "lat": CENTRE[0], "lon": CENTRE[1], "comment": text,
            "age": [0, 150, 30, 1, 99][n], "sex": "f"}, timeout=30)
        assert response.status_code == 200, response.text
        assert response.json()["location"]["id"] == location_id
    detail = world.session.get(world.url(f"/api/crowd/locations/{location_id}"), timeout=30).json()
    assert [c["text"] for c in detail["comments"][:len(texts)]] == texts[::-1]
    # a token of 64 characters (scalars: 64 emoji are 128 UTF-16 units, 256 bytes) is accepted
    for token in ("t" * 64, "😀" * 64):
        response = world.session.post(world.url("/api/crowd/reports"), json={
            "device": token, "lat": CENTRE[0], "lon": CENTRE[1], "radius": 15, "min": 100, "max": 100,
            "limit": 20000}, timeout=30)
        assert response.status_code == 200, response.text
        assert response.json()["location"]["id"] == location_id
    search = world.session.get(world.url("/api/crowd/locations"), timeout=30, params={
        "lat": CENTRE[0], "lon": CENTRE[1], "radius": 2000, "min": 1, "max": 100, "limit": 1}).json()
    assert search["truncated"] is True and [e["id"] for e in search["locations"]] == [location_id]
    assert search["locations"][0]["people"] == 5


def test_the_server_is_still_healthy(world):
    assert requests.get(world.url("/healthz"), timeout=5).status_code == 200
    response = world.session.get(world.url("/api/crowd/locations"), timeout=30, params={
        "lat": CENTRE[0], "lon": CENTRE[1]})
    assert response.status_code == 200 and response.json()["locations"], response.text
