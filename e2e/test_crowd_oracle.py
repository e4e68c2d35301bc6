"""Crowd acceptance: the held-out oracle (`crowd_oracle.py`) against the server, on SQLite and
on PostGIS.

Seeded random replays of thousands of reports (a few hundred devices clustered around spots
in a ~500 m area, so that joins, moves, points just inside and just outside 10 m, emptied
locations, comments, age/sex changes and clears all happen), interleaved with searches and
location details, go through the HTTP API; every answer is compared field by field with the
oracle's. Then: a replay across a restart, expiry with real sleeps, k = 3 hiding, truncation,
the exact 10 m boundary and distance ties.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from crowd_oracle import (EARTH_RADIUS, LONG_EXPIRY, CrowdOracle, CrowdServer, distance, distance_variants,
                          parse_time)

REL = 1e-9     # relative tolerance of avg_age and distance_m
COORD = 1e-12  # degrees: a centre is the reporter's position, so it comes back as sent
CENTRE = (52.52083, 13.40944)  # the area the replays use (Berlin, Alexanderplatz)


# -- servers --------------------------------------------------------------------------------

@pytest.fixture(params=["sqlite", "postgres"])
def backend(request):
    return request.param


@pytest.fixture
def crowd(backend, tmp_path):
    """A factory of crowd servers on `backend`; all are stopped (and their databases dropped)
    at the end."""
    made = []

    def make(name: str, min_group: int = 1, expiry: str = LONG_EXPIRY) -> CrowdServer:
        server = CrowdServer(backend, tmp_path / f"data-{name}", name, min_group, expiry)
        made.append(server)
        return server.start()

    yield make
    for server in made:
        server.close()


# -- comparing answers ----------------------------------------------------------------------

def close(a: float, b: float, rel: float = REL) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-9


class Mismatch(AssertionError):
    pass


class Checker:
    """Compares server answers with the oracle's. Learns the server's id of each location when a
    report founds it (the oracle numbers 1, 2, 3…) and checks those ids strictly increase."""

    def __init__(self):
        self.server_id: dict[int, int] = {}   # oracle id -> server id
        self.oracle_id: dict[int, int] = {}   # server id -> oracle id
        self.highest = None
        self.context = ""

    def fail(self, what: str):
        raise Mismatch(f"{self.context}: {what}")

    def learn(self, oracle_id: int, server_id) -> None:
        if not isinstance(server_id, int) or isinstance(server_id, bool):
            self.fail(f"location id {server_id!r} is not an integer")
        if oracle_id in self.server_id:
            if self.server_id[oracle_id] != server_id:
                self.fail(f"expected location {self.server_id[oracle_id]} (oracle {oracle_id}), got {server_id}")
            return
        if server_id in self.oracle_id:
            self.fail(f"the server answered location {server_id} (already used for oracle location "
                      f"{self.oracle_id[server_id]}) where the oracle founded a new one ({oracle_id}): "
                      "a join where a new location was due, or an id reused")
        if self.highest is not None and server_id <= self.highest:
            self.fail(f"new location got id {server_id}, not above the highest so far ({self.highest})")
        self.server_id[oracle_id] = server_id
        self.oracle_id[server_id] = oracle_id
        self.highest = server_id

    def mapped(self, oracle_id: int) -> int:
        if oracle_id not in self.server_id:
            self.fail(f"oracle location {oracle_id} was never seen founded")
        return self.server_id[oracle_id]

    def number(self, label, got, expected, rel=REL):
        if expected is None:
            if got is not None:
                self.fail(f"{label}: expected null, got {got!r}")
            return
        if not isinstance(got, (int, float)) or isinstance(got, bool) or not close(float(got), expected, rel):
            self.fail(f"{label}: expected {expected!r}, got {got!r}")

    def exact(self, label, got, expected):
        if got != expected or type(got) is bool and type(expected) is not bool:
            self.fail(f"{label}: expected {expected!r}, got {got!r}")

    def coordinates(self, label, got: dict, expected: dict):
        for key in ("lat", "lon"):
            value = got.get(key)
            if not isinstance(value, (int, float)) or abs(value - expected[key]) > COORD:
                self.fail(f"{label}.{key}: expected {expected[key]!r}, got {value!r}")

    def stats(self, label, got: dict, expected: dict, with_distance: bool):
        if not isinstance(got, dict):
            self.fail(f"{label}: expected an object, got {got!r}")
        self.exact(f"{label}.id", got.get("id"), self.mapped(expected["id"]))
        self.coordinates(label, got, expected)
        self.exact(f"{label}.people", got.get("people"), expected["people"])
        self.number(f"{label}.avg_age", got.get("avg_age", "missing"), expected["avg_age"])
        self.exact(f"{label}.men", got.get("men"), expected["men"])
        self.exact(f"{label}.women", got.get("women"), expected["women"])
        if with_distance:
            self.number(f"{label}.distance_m", got.get("distance_m"), expected["distance_m"])

    def feature(self, label: str, feature) -> dict:
        """A GeoJSON Feature's properties, after checking it is a Point at the properties' lat/lon
        with the location's id."""
        if not isinstance(feature, dict) or feature.get("type") != "Feature":
            self.fail(f"{label}: not a GeoJSON Feature: {feature!r}")
        properties = feature.get("properties")
        geometry = feature.get("geometry") or {}
        if not isinstance(properties, dict) or geometry.get("type") != "Point":
            self.fail(f"{label}: a Feature needs Point geometry and properties: {feature!r}")
        if geometry.get("coordinates") != [properties.get("lon"), properties.get("lat")]:
            self.fail(f"{label}: coordinates {geometry.get('coordinates')} are not [lon, lat] of {properties}")
        if feature.get("id", properties.get("id")) != properties.get("id"):
            self.fail(f"{label}: Feature id {feature.get('id')} is not the location's {properties.get('id')}")
        return properties

    def geojson(self, got: dict) -> dict:
        """A FeatureCollection answer as the plain JSON answer it stands for."""
        if got.get("type") != "FeatureCollection" or not isinstance(got.get("features"), list):
            self.fail(f"not a GeoJSON FeatureCollection: {str(got)[:300]}")
        plain = {k: v for k, v in got.items() if k not in ("type", "features")}
        plain["locations"] = [self.feature(f"features[{i}]", f) for i, f in enumerate(got["features"])]
        return plain

    def search(self, got: dict, expected: dict):
        locations = got.get("locations")
        if not isinstance(locations, list):
            self.fail(f"no locations list in {got!r}")
        wanted = expected["locations"]
        got_ids = [e.get("id") for e in locations]
        want_ids = [self.mapped(e["id"]) for e in wanted]
        if got_ids != want_ids:
            self.fail(f"locations listed: expected ids {want_ids}, got {got_ids}")
        for i, (g, e) in enumerate(zip(locations, wanted)):
            self.stats(f"locations[{i}]", g, e, with_distance=True)
        self.exact("truncated", got.get("truncated"), expected["truncated"])

    def report(self, got: dict, expected: dict):
        own = got.get("location")
        if not isinstance(own, dict):
            self.fail(f"no location object in {got!r}")
        self.learn(expected["location"]["id"], own.get("id"))
        self.coordinates("location", own, expected["location"])
        self.exact("location.people", own.get("people"), expected["location"]["people"])
        self.search(got, expected)

    def detail(self, response: requests.Response, expected: dict | None, geojson: bool = False):
        if expected is None:
            if response.status_code != 404:
                self.fail(f"expected 404, got {response.status_code}: {response.text[:300]}")
            return
        if response.status_code != 200:
            self.fail(f"expected 200, got {response.status_code}: {response.text[:300]}")
        got = self.feature("detail", response.json()) if geojson else response.json()
        self.stats("detail", got, expected, with_distance=False)
        comments = got.get("comments")
        if not isinstance(comments, list):
            self.fail(f"no comments list in {got!r}")
        texts = [c.get("text") for c in comments]
        want = [c["text"] for c in expected["comments"]]
        if texts != want:
            self.fail(f"comments: expected {want}, got {texts}")
        for i, (g, e) in enumerate(zip(comments, expected["comments"])):
            try:
                when = parse_time(g.get("time"))
            except (ValueError, TypeError) as error:
                self.fail(f"comments[{i}].time {g.get('time')!r}: {error}")
            if abs(when - e["time"]) > 2.5:
                self.fail(f"comments[{i}].time {g.get('time')!r} is not the time it was posted ({e['time']})")


# -- the replay -----------------------------------------------------------------------------

TEXTS = ["here!", "great music", "Tom & Jerry's \"bar\"", "ça va? 🎉", "queue 20 min", "free beer",
         "too loud", "«quiet» corner", "meet at the fountain", "ünïcödé ✓", "a' OR 1=1 --", "%s %d {}"]
RADII = [15, 30, 50, 100, 150, 200, 300, 500, 800, 1000, 2000]


def offset(lat: float, lon: float, metres: float, bearing: float) -> tuple[float, float]:
    """The point `metres` away from (lat, lon) towards `bearing` (radians) on the sphere."""
    phi1, lambda1 = math.radians(lat), math.radians(lon)
    delta = metres / EARTH_RADIUS
    phi2 = math.asin(math.sin(phi1) * math.cos(delta) + math.cos(phi1) * math.sin(delta) * math.cos(bearing))
    lambda2 = lambda1 + math.atan2(math.sin(bearing) * math.sin(delta) * math.cos(phi1),
                                   math.cos(delta) - math.sin(phi1) * math.sin(phi2))
    return math.degrees(phi2), math.degrees(lambda2)


class Replay:
    """Seeded random reports, searches and details, sent to a server and to the oracle."""

    def __init__(self, server: CrowdServer, oracle: CrowdOracle, checker: Checker, seed: int,
                 devices: int = 300, spots: int = 40, centre: tuple[float, float] = CENTRE,
                 max_radius: int = 2000):
        self.server = server
        self.centre = centre
        self.max_radius = max_radius
        self.oracle = oracle
        self.checker = checker
        self.rng = random.Random(seed)
        self.format_rng = random.Random(seed + 1)  # a quarter of the requests ask for GeoJSON
        rng = self.rng
        self.spots = [offset(*centre, rng.uniform(0, 250), rng.uniform(0, 2 * math.pi)) for _ in range(spots)]
        self.tokens = [f"dev-{seed}-{i}-{rng.getrandbits(32):08x}" for i in range(devices)]
        # a 64-character token, a non-ASCII one and a 1-character one (each replay its own)
        self.tokens[:3] = [("ü" * 64)[:64 - len(str(seed))] + str(seed), f"設備-🎧-{seed}", chr(0x41 + seed % 26)]
        self.profiles = {t: (rng.choice([None, rng.randint(14, 80)]), rng.choice([None, "m", "f", "m", "f"]))
                         for t in self.tokens}
        self.regulars = [f"regular-{seed}-{i}" for i in range(6)]  # stay at the first spot and chat
        self.profiles.update({t: (rng.randint(18, 60), rng.choice(["m", "f"])) for t in self.regulars})
        self.position: dict[str, tuple[float, float]] = {}
        self.steps = 0
        self.counts: dict[str, int] = {}

    def count(self, what: str, n: int = 1):
        self.counts[what] = self.counts.get(what, 0) + n

    def where(self, token: str) -> tuple[float, float]:
        rng = self.rng
        here = self.position.get(token)
        while True:
            kind = rng.random()
            if here and kind < 0.30:
                point = offset(*here, rng.uniform(0, 4), rng.uniform(0, 2 * math.pi))          # stay around
            elif kind < 0.60:
                spot = rng.choice(self.spots)
                point = offset(*spot, rng.uniform(0, 7), rng.uniform(0, 2 * math.pi))         # to a spot
            elif kind < 0.75 and self.oracle.locations:
                location = rng.choice(list(self.oracle.locations.values()))
                point = offset(location.lat, location.lon, rng.uniform(9.9, 10.1),
                               rng.uniform(0, 2 * math.pi))                                      # at a 10 m edge
            elif here and kind < 0.85:
                point = offset(*here, rng.uniform(8, 16), rng.uniform(0, 2 * math.pi))        # a step away
            else:
                point = offset(*self.centre, rng.uniform(0, 300), rng.uniform(0, 2 * math.pi)) # anywhere
            return point

    def search_params(self, body: dict):
        rng = self.rng
        if rng.random() < 0.15 and self.max_radius >= 200:
            return {}, {}
        radius = rng.choice(RADII) if rng.random() < 0.7 else rng.randint(15, 2000)
        radius = min(radius, self.max_radius)
        low = rng.choice([1, 1, 1, 2, 3, 4])
        high = rng.choice([low, low + 1, 5, 10, 20, 100, rng.randint(low, 100)])
        high = max(low, min(high, 100))
        params = {"radius": radius, "min": low, "max": high}
        if rng.random() < 0.12:
            params["limit"] = rng.randint(1, 8)
        return params, {"radius": radius, "min": low, "max": high, **({"limit": params["limit"]} if "limit" in params else {})}

    def step_report(self):
        rng = self.rng
        regular = rng.random() < 0.08
        token = rng.choice(self.regulars if regular else self.tokens)
        params, oracle_params = self.search_params({})
        radius = oracle_params.get("radius", 200)
        for _ in range(100):
            lat, lon = offset(*self.spots[0], rng.uniform(0, 3), rng.uniform(0, 2 * math.pi)) if regular \
                else self.where(token)
            if not self.oracle.near_boundary(lat, lon, (radius,)):
                break
            self.count("regenerated")
        age, sex = self.profiles[token]
        roll = rng.random()
        if roll < 0.10:
            age = rng.randint(0, 150)
            self.profiles[token] = (age, sex)
            self.count("age changed")
        elif roll < 0.18:
            age, sex = None, None
            self.count("age and sex cleared")
        elif roll < 0.23:
            sex = {"m": "f", "f": "m", None: "m"}[sex]
            self.profiles[token] = (age, sex)
        body = {"device": token, "lat": lat, "lon": lon, **params}
        if age is not None:
            body["age"] = age
        if sex is not None:
            body["sex"] = sex
        comment = None
        if rng.random() < (0.5 if regular else 0.12):
            comment = f"#{self.steps} {rng.choice(TEXTS)}"
            body["comment"] = comment
            self.count("comments")
        before = self.oracle.devices.get(token)
        before_location = before.location if before else None
        next_before = self.oracle.next_id
        geojson = self.geojson()
        now = time.time()
        response = self.server.post_report(body, geojson)
        expected = self.oracle.report(token, lat, lon, age, sex, comment, now=now, **oracle_params)
        after = self.oracle.devices[token].location
        if before_location is None:
            self.count("first reports")
        elif before_location == after:
            self.count("stayed")
        else:
            self.count("moved")
            if before_location not in self.oracle.locations:
                self.count("emptied")
        self.count("founded" if self.oracle.next_id > next_before else "joined or stayed")
        if expected["truncated"]:
            self.count("truncated")
        if expected["location"]["people"] is None:
            self.count("own count hidden")
        self.position[token] = (lat, lon)
        self.checker.context = f"step {self.steps}: POST /api/crowd/reports {body}{' (GeoJSON)' if geojson else ''}"
        if response.status_code != 200:
            self.checker.fail(f"expected 200, got {response.status_code}: {response.text[:300]}")
        got = response.json()
        self.checker.report(self.checker.geojson(got) if geojson else got, expected)

    def step_search(self):
        rng = self.rng
        params, oracle_params = self.search_params({})
        radius = oracle_params.get("radius", 200)
        while True:
            lat, lon = offset(*self.centre, rng.uniform(0, 400), rng.uniform(0, 2 * math.pi))
            if not self.oracle.near_boundary(lat, lon, (radius,)):
                break
        query = {"lat": repr(lat), "lon": repr(lon), **params}
        geojson = self.geojson()
        now = time.time()
        response = self.server.get_search(query, geojson)
        expected = self.oracle.search(lat, lon, now=now, **oracle_params)
        self.count("searches")
        self.checker.context = f"step {self.steps}: GET /api/crowd/locations {query}{' (GeoJSON)' if geojson else ''}"
        if response.status_code != 200:
            self.checker.fail(f"expected 200, got {response.status_code}: {response.text[:300]}")
        got = response.json()
        self.checker.search(self.checker.geojson(got) if geojson else got, expected)

    def step_detail(self):
        if not self.checker.server_id:
            return
        oracle_id = self.rng.randint(1, self.oracle.next_id - 1)
        roll = self.rng.random()
        if roll < 0.5 and self.oracle.locations:
            oracle_id = self.rng.choice(list(self.oracle.locations))
        elif roll < 0.7 and self.regulars[0] in self.oracle.devices:
            oracle_id = self.oracle.devices[self.regulars[0]].location  # the chatty one
        server_id = self.checker.server_id.get(oracle_id)
        if server_id is None:
            return
        geojson = self.geojson()
        now = time.time()
        response = self.server.get_location(server_id, geojson)
        expected = self.oracle.location(oracle_id, now=now)
        self.count("details" if expected else "details 404")
        if expected and len(expected["comments"]) == 10 and len(self.oracle.locations[oracle_id].comments) > 10:
            self.count("details with more than 10 comments")
        self.checker.context = f"step {self.steps}: GET /api/crowd/locations/{server_id} (oracle {oracle_id})" \
                               f"{' (GeoJSON)' if geojson else ''}"
        self.checker.detail(response, expected, geojson)

    def geojson(self) -> bool:
        if self.format_rng.random() < 0.25:
            self.count("GeoJSON answers")
            return True
        return False

    def run(self, steps: int):
        for _ in range(steps):
            self.steps += 1
            roll = self.rng.random()
            if roll < 0.08:
                self.step_search()
            elif roll < 0.16:
                self.step_detail()
            else:
                self.step_report()
        return self


def assert_exercised(replay: Replay, *names: str):
    missing = [name for name in names if replay.counts.get(name, 0) == 0]
    assert not missing, f"the replay never exercised {missing}: {replay.counts}"


# -- tests ----------------------------------------------------------------------------------

def test_replay_matches_the_oracle(crowd, backend):
    """Thousands of reports with k = 1 (the original app's behaviour): every answer as the oracle's."""
    server = crowd("replay", min_group=1)
    replay = Replay(server, CrowdOracle(min_group=1, expiry=86400), Checker(), seed=7).run(2500)
    assert_exercised(replay, "first reports", "stayed", "moved", "emptied", "comments", "age changed",
                     "age and sex cleared", "truncated", "searches", "details", "details 404",
                     "details with more than 10 comments", "GeoJSON answers")
    # and the replay ends with locations of many sizes
    sizes = {len(location.members) for location in replay.oracle.locations.values()}
    assert max(sizes) >= 5 and 1 in sizes, sizes
    print(f"\n{backend}: {replay.counts}")


def test_replay_with_minimum_group_3(crowd, backend):
    """The default k = 3: smaller locations are hidden from searches and details, and the own
    count is null below k."""
    server = crowd("k3", min_group=3)
    oracle = CrowdOracle(min_group=3, expiry=86400)
    replay = Replay(server, oracle, Checker(), seed=33, devices=120, spots=15).run(1000)
    assert_exercised(replay, "own count hidden", "details", "details 404", "moved", "emptied")
    hidden = sum(1 for location in oracle.locations.values() if len(location.members) < 3)
    shown = sum(1 for location in oracle.locations.values() if len(location.members) >= 3)
    assert hidden and shown, (hidden, shown)


def test_default_minimum_group_is_3(backend, tmp_path):
    """Without --crowd-min-group, two people at one spot are hidden and three are shown."""
    server = CrowdServer(backend, tmp_path / "data", "default-k", None, LONG_EXPIRY)
    try:
        server.start()
        oracle, checker = CrowdOracle(min_group=3, expiry=86400), Checker()
        lat, lon = CENTRE
        for n, token in enumerate(["a", "b", "c", "d"]):
            point = offset(lat, lon, 2.0 * n, 1.0)
            now = time.time()
            response = server.post_report({"device": token, "lat": point[0], "lon": point[1], "comment": f"hi {n}"})
            expected = oracle.report(token, *point, comment=f"hi {n}", now=now)
            checker.context = f"report {token}"
            assert response.status_code == 200, response.text
            checker.report(response.json(), expected)
            checker.context = f"detail after {token}"
            checker.detail(server.get_location(checker.mapped(1)), oracle.location(1, now=time.time()))
        assert response.json()["location"]["people"] == 4
    finally:
        server.close()


def test_replay_survives_a_restart(crowd, backend):
    """State (devices, locations, comments, the id counter) survives a restart on the same data."""
    server = crowd("restart", min_group=1)
    oracle, checker = CrowdOracle(min_group=1, expiry=86400), Checker()
    replay = Replay(server, oracle, checker, seed=99, devices=150, spots=20).run(600)
    server.stop()
    server.start()
    # every live location reads back the same, with its comments
    for oracle_id in sorted(oracle.locations):
        checker.context = f"after restart: GET /api/crowd/locations/{checker.server_id[oracle_id]}"
        checker.detail(server.get_location(checker.server_id[oracle_id]), oracle.location(oracle_id, now=time.time()))
    replay.run(600)  # the same devices carry on: stays, moves, new ids above the old ones
    assert_exercised(replay, "stayed", "moved", "emptied")


def test_acknowledged_reports_survive_kill_9(crowd, backend):
    """SIGKILL right after a burst of reports: every answered report is in the state read back."""
    server = crowd("kill9", min_group=1)
    oracle, checker = CrowdOracle(min_group=1, expiry=86400), Checker()
    replay = Replay(server, oracle, checker, seed=1234, devices=120, spots=15).run(400)
    server.kill()
    server.start()
    for oracle_id in range(1, oracle.next_id):
        server_id = checker.server_id.get(oracle_id)
        if server_id is not None:
            checker.context = f"after kill -9: GET /api/crowd/locations/{server_id}"
            checker.detail(server.get_location(server_id), oracle.location(oracle_id, now=time.time()))
    replay.run(200)


class ThreadClient:
    """The server's three calls on a session of one's own (a requests.Session per thread)."""

    def __init__(self, server: CrowdServer):
        self.server = server
        self.session = requests.Session()

    def post_report(self, body, geojson=False):
        return self.session.post(self.server.url("/api/crowd/reports"), json=body, timeout=60,
                                 headers=CrowdServer.headers(geojson))

    def get_search(self, params, geojson=False):
        return self.session.get(self.server.url("/api/crowd/locations"), params=params, timeout=60,
                                headers=CrowdServer.headers(geojson))

    def get_location(self, location_id, geojson=False):
        return self.session.get(self.server.url(f"/api/crowd/locations/{location_id}"), timeout=60,
                                headers=CrowdServer.headers(geojson))


def test_concurrent_replays_in_separate_areas(crowd, backend):
    """Four replays at once, each in its own area 5 km from the others with searches of at most
    300 m (so none sees another's locations): each matches its own oracle, answer by answer,
    while the server handles them concurrently (group commit, locks)."""
    server = crowd("concurrent", min_group=1)
    areas = [offset(*CENTRE, 5000 * i, 1.3 * i) for i in range(4)]
    replays = [Replay(ThreadClient(server), CrowdOracle(min_group=1, expiry=86400), Checker(), seed=500 + i,
                      devices=80, spots=12, centre=area, max_radius=300) for i, area in enumerate(areas)]
    with ThreadPoolExecutor(max_workers=len(replays)) as pool:
        futures = [pool.submit(replay.run, 400) for replay in replays]
        for future in futures:
            future.result()  # raises the first mismatch of that replay
    # new ids, taken in turns by four clients, still never repeat
    ids = [i for replay in replays for i in replay.checker.server_id.values()]
    assert len(ids) == len(set(ids))
    for replay in replays:
        assert_exercised(replay, "moved", "stayed", "emptied", "searches", "details")


def test_expiry(crowd, backend):
    """--crowd-expiry 2s: a device silent for more than 2 s no longer counts; an emptied location
    is deleted with its comments; ids are not reused. Margins of ≥ 0.5 s on the server's clock."""
    server = crowd("expiry", min_group=1, expiry="2s")
    oracle, checker = CrowdOracle(min_group=1, expiry=2.0), Checker()
    p = CENTRE
    q = offset(*CENTRE, 60, 0.5)
    start = time.monotonic()

    def clock():
        return time.monotonic() - start

    def report(token, point, **extra):
        now = clock()
        response = server.post_report({"device": token, "lat": point[0], "lon": point[1], **extra})
        expected = oracle.report(token, point[0], point[1], age=extra.get("age"), sex=extra.get("sex"),
                                 comment=extra.get("comment"), now=now)
        checker.context = f"t={now:.2f} report {token} {extra}"
        assert response.status_code == 200, response.text
        checker.report(response.json(), expected)

    def check(at: str):
        now = clock()
        query = {"lat": p[0], "lon": p[1], "radius": 500, "min": 1, "max": 100}
        got = server.get_search(query).json()
        checker.context = f"t={now:.2f} {at}: search"
        checker.search(got, oracle.search(p[0], p[1], 500, 1, 100, now=now))
        for oracle_id in range(1, oracle.next_id):
            checker.context = f"t={now:.2f} {at}: detail of oracle {oracle_id}"
            checker.detail(server.get_location(checker.server_id[oracle_id]), oracle.location(oracle_id, now=clock()))

    report("a", p, age=20, sex="m")
    report("b", offset(*p, 3, 1), age=40, sex="f")
    report("c", q, comment="lonely")
    # Not waits for a state: real time passing is what this test checks (expiry after 2 s).
    time.sleep(1.2)
    report("a", offset(*p, 1, 2), age=30, sex="m")   # a stays and is refreshed
    time.sleep(1.3)                                   # b and c are 2.5 s old, a 1.3 s
    check("b and c expired")
    assert [len(l.members) for l in oracle.locations.values()] == [1], "the oracle should keep only a"
    report("c", q)                                    # c founds a new location: not its old id
    report("b", p)                                    # b joins a again
    check("b and c back")
    time.sleep(2.7)                                   # real time again: everyone is past the expiry
    check("all expired")
    assert not oracle.locations
    report("a", p)
    check("a again")
    assert oracle.next_id == 5


def test_truncation_keeps_the_most_crowded(crowd, backend):
    """More matches than `limit`: the most crowded are kept (ties nearer first, then lower id),
    listed by distance then id, with truncated: true."""
    server = crowd("truncation", min_group=1)
    oracle, checker = CrowdOracle(min_group=1, expiry=86400), Checker()
    rng = random.Random(5)
    sizes = [1, 3, 2, 3, 5, 1, 2, 4, 3, 2, 1, 5, 3]
    n = 0
    for i, size in enumerate(sizes):
        spot = offset(*CENTRE, 25 + 12 * i, 2.4 * i)
        for _ in range(size):
            n += 1
            point = offset(*spot, rng.uniform(0, 3), rng.uniform(0, 6.3))
            now = time.time()
            response = server.post_report({"device": f"t{n}", "lat": point[0], "lon": point[1]})
            checker.context = f"truncation setup {n}"
            checker.report(response.json(), oracle.report(f"t{n}", *point, now=now))
    assert len(oracle.locations) == len(sizes)
    for limit in (1, 2, 3, 4, 5, 7, 12, 13, 14):
        for min_people, max_people in ((1, 100), (2, 4), (3, 3)):
            query = {"lat": CENTRE[0], "lon": CENTRE[1], "radius": 1000, "min": min_people,
                     "max": max_people, "limit": limit}
            expected = oracle.search(CENTRE[0], CENTRE[1], 1000, min_people, max_people, limit, now=time.time())
            checker.context = f"GET /api/crowd/locations {query}"
            checker.search(server.get_search(query).json(), expected)
    # the report answers are cut the same way
    now = time.time()
    point = offset(*CENTRE, 1, 0)
    response = server.post_report({"device": "last", "lat": point[0], "lon": point[1], "radius": 1000, "limit": 4})
    expected = oracle.report("last", *point, radius=1000, limit=4, now=now)
    assert expected["truncated"]
    checker.context = "report with limit 4"
    checker.report(response.json(), expected)


def boundary_pair(lat0: float, lon0: float, metres: float, north: bool = True) -> tuple[float, float]:
    """Latitudes (inside, outside) along the meridian of (lat0, lon0): the farthest double whose
    haversine distance from (lat0, lon0) is ≤ `metres` and the next double, > `metres` — with
    every reading of the formula agreeing on both."""
    sign = 1 if north else -1
    guess = lat0 + sign * math.degrees(metres / EARTH_RADIUS)
    step = (lambda x: math.nextafter(x, math.inf)) if north else (lambda x: math.nextafter(x, -math.inf))
    back = (lambda x: math.nextafter(x, -math.inf)) if north else (lambda x: math.nextafter(x, math.inf))
    lat = guess
    while distance(lat0, lon0, lat, lon0) > metres:
        lat = back(lat)
    while distance(lat0, lon0, step(lat), lon0) <= metres:
        lat = step(lat)
    inside, outside = lat, step(lat)
    while not all(d <= metres for d in distance_variants(lat0, lon0, inside, lon0)):
        inside = back(inside)
    while not all(d > metres for d in distance_variants(lat0, lon0, outside, lon0)):
        outside = step(outside)
    assert abs(inside - guess) < 1e-12 and abs(outside - guess) < 1e-12
    return inside, outside


def test_exactly_ten_metres_is_inside(crowd, backend):
    """A point exactly 10 m away along a meridian (the last double at ≤ 10 m) joins; the next
    double founds a new location. The same for a search radius of exactly 15 m."""
    server = crowd("boundary", min_group=1)
    oracle, checker = CrowdOracle(min_group=1, expiry=86400), Checker()

    def report(token, lat, lon, **extra):
        now = time.time()
        response = server.post_report({"device": token, "lat": lat, "lon": lon, **extra})
        expected = oracle.report(token, lat, lon, now=now, **extra)
        checker.context = f"report {token} at ({lat!r}, {lon!r})"
        assert response.status_code == 200, response.text
        checker.report(response.json(), expected)
        return expected

    for n, (lat0, lon0, north) in enumerate([(0.0, 10.0, True), (0.0, -70.0, False), (48.85, 2.35, True)]):
        inside, outside = boundary_pair(lat0, lon0, 10.0, north)
        assert distance(lat0, lon0, inside, lon0) <= 10.0 < distance(lat0, lon0, outside, lon0)
        first = report(f"origin{n}", lat0, lon0)["location"]["id"]
        assert report(f"inside{n}", inside, lon0)["location"] == {"id": first, "lat": lat0, "lon": lon0, "people": 2}
        assert report(f"outside{n}", outside, lon0)["location"]["id"] != first
        # a device standing exactly 10 m from its own centre stays (moves nothing)
        assert report(f"origin{n}", inside, lon0)["location"]["id"] == first

    # the search radius is inclusive as well: exactly 15 m from the search point is listed
    lat0, lon0 = 0.0, 20.0
    centre = report("centre", lat0, lon0)["location"]["id"]
    for north in (True, False):
        inside, outside = boundary_pair(lat0, lon0, 15.0, north)
        for lat, listed in ((inside, True), (outside, False)):
            query = {"lat": lat, "lon": lon0, "radius": 15, "min": 1, "max": 100}
            expected = oracle.search(lat, lon0, 15, 1, 100, now=time.time())
            assert (centre in [e["id"] for e in expected["locations"]]) == listed
            checker.context = f"GET /api/crowd/locations {query}"
            checker.search(server.get_search({k: repr(v) for k, v in query.items()}).json(), expected)


def test_distance_ties_go_to_the_lowest_id(crowd, backend):
    """Two locations exactly as far (east and west on one parallel, lon symmetric about 0): a
    device between them joins the lower id, and searches list the tie by id."""
    server = crowd("ties", min_group=1)
    oracle, checker = CrowdOracle(min_group=1, expiry=86400), Checker()

    def report(token, lat, lon):
        now = time.time()
        response = server.post_report({"device": token, "lat": lat, "lon": lon, "radius": 50})
        expected = oracle.report(token, lat, lon, radius=50, now=now)
        checker.context = f"report {token} at ({lat!r}, {lon!r})"
        assert response.status_code == 200, response.text
        checker.report(response.json(), expected)
        return expected

    for lat, west_first in ((51.5, True), (-33.9, False)):
        delta = math.degrees(7.0 / (EARTH_RADIUS * math.cos(math.radians(lat))))
        west, east = (lat, -delta), (lat, delta)
        assert distance(lat, 0.0, *west) == distance(lat, 0.0, *east) <= 10
        assert distance(*west, *east) > 10
        a, b = (west, east) if west_first else (east, west)
        first = report(f"first{lat}", *a)["location"]["id"]
        second = report(f"second{lat}", *b)["location"]["id"]
        assert first != second
        answer = report(f"between{lat}", lat, 0.0)
        assert answer["location"]["id"] == first
        assert [e["id"] for e in answer["locations"]] == [first, second]
