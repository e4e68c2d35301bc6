"""The held-out oracle of the Crowd system: issue 7's semantics in plain Python.

Written from the issue text and the lead's decisions only (never from the Swift or PL/pgSQL
code), brute force on purpose: every search looks at every location. The replay tests
(`test_crowd_oracle.py`) feed the same reports to this model and to the server through the
HTTP API and compare every answer field by field.

The model's clock is the one its caller passes (`now`, seconds); the server uses its own, so
replays run with a long expiry and expiry is tested on its own with real sleeps and margins.

Location ids: the model numbers locations 1, 2, 3… in founding order. The issue fixes only
that ids are never reused and that ties go to the lowest id, so the tests learn the server's
id of every location when it is founded and check that those ids strictly increase.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

EARTH_RADIUS = 6_371_008.8  # metres, the sphere of every distance
JOIN_DISTANCE = 10.0         # metres, inclusive
COMMENTS_SHOWN = 10
DEFAULT_RADIUS, DEFAULT_MIN, DEFAULT_MAX, DEFAULT_LIMIT = 200, 1, 20, 500
RADIANS_PER_DEGREE = math.pi / 180


def distance(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Haversine great-circle distance in metres on a sphere of radius 6,371,008.8 m:
    a = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2), d = 2R·asin(min(1, √a)), in doubles."""
    phi1 = lat1 * RADIANS_PER_DEGREE
    phi2 = lat2 * RADIANS_PER_DEGREE
    d_phi = (lat2 - lat1) * RADIANS_PER_DEGREE
    d_lambda = (lon2 - lon1) * RADIANS_PER_DEGREE
    s1 = math.sin(d_phi / 2)
    s2 = math.sin(d_lambda / 2)
    a = s1 * s1 + math.cos(phi1) * math.cos(phi2) * s2 * s2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(a)))


def distance_variants(lat1: float, lon1: float, lat2: float, lon2: float) -> list[float]:
    """The same haversine written the other ways the issue's words allow (Δφ as a difference of
    radians, radians as degrees·π/180 rather than degrees·(π/180)). They differ only in the
    last bits; a test that depends on which side of a boundary a point falls uses points on
    which all of them agree."""
    out = [distance(lat1, lon1, lat2, lon2)]
    for to_rad in (lambda x: x * RADIANS_PER_DEGREE, lambda x: x * math.pi / 180):
        for diff_first in (True, False):
            phi1, phi2 = to_rad(lat1), to_rad(lat2)
            if diff_first:
                d_phi, d_lambda = to_rad(lat2 - lat1), to_rad(lon2 - lon1)
            else:
                d_phi, d_lambda = phi2 - phi1, to_rad(lon2) - to_rad(lon1)
            a = math.sin(d_phi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(d_lambda / 2) ** 2
            out.append(2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(a))))
    return out


@dataclass
class Device:
    location: int
    last: float
    age: int | None
    sex: str | None


@dataclass
class Location:
    id: int
    lat: float
    lon: float
    members: set = field(default_factory=set)
    comments: list = field(default_factory=list)  # (text, time) oldest first


class CrowdOracle:
    """Devices, locations and comments after the issue's rules, with minimum group `min_group`
    (k) and `expiry` seconds judged on the `now` each call is given."""

    def __init__(self, min_group: int = 3, expiry: float = 30 * 60):
        self.min_group = min_group
        self.expiry = expiry
        self.devices: dict[str, Device] = {}
        self.locations: dict[int, Location] = {}
        self.next_id = 1

    # -- state changes ---------------------------------------------------------------------

    def expire(self, now: float) -> None:
        """Devices whose last report is older than `expiry` (strictly) leave their location."""
        for token in [t for t, d in self.devices.items() if now - d.last > self.expiry]:
            self._leave(token)

    def _leave(self, token: str) -> None:
        device = self.devices.pop(token)
        location = self.locations[device.location]
        location.members.discard(token)
        if not location.members:
            del self.locations[location.id]  # with its comments; its id is never used again

    def nearest_within(self, lat: float, lon: float) -> Location | None:
        """The nearest location whose centre is within 10 m (inclusive), ties to the lowest id."""
        best = None
        for location in self.locations.values():
            d = distance(lat, lon, location.lat, location.lon)
            if d <= JOIN_DISTANCE and (best is None or (d, location.id) < best[0]):
                best = ((d, location.id), location)
        return best[1] if best else None

    def report(self, token: str, lat: float, lon: float, age: int | None = None, sex: str | None = None,
               comment: str | None = None, radius: int = DEFAULT_RADIUS, min: int = DEFAULT_MIN,
               max: int = DEFAULT_MAX, limit: int = DEFAULT_LIMIT, *, now: float) -> dict:
        """Applies one report and answers it as `POST /api/crowd/reports` does."""
        self.expire(now)
        device = self.devices.get(token)
        if device is not None:
            current = self.locations[device.location]
            if distance(current.lat, current.lon, lat, lon) > JOIN_DISTANCE:
                self._leave(token)
                device = None
        if device is None:
            location = self.nearest_within(lat, lon)
            if location is None:
                location = Location(self.next_id, lat, lon)
                self.next_id += 1
                self.locations[location.id] = location
            location.members.add(token)
            device = Device(location.id, now, age, sex)
            self.devices[token] = device
        device.last, device.age, device.sex = now, age, sex
        location = self.locations[device.location]
        if comment is not None:
            location.comments.append((comment, now))
        people = len(location.members)
        own = {"id": location.id, "lat": location.lat, "lon": location.lon,
               "people": people if people >= self.min_group else None}
        answer = self._search(lat, lon, radius, min, max, limit)
        answer["location"] = own
        return answer

    # -- questions -------------------------------------------------------------------------

    def stats(self, location: Location) -> dict:
        members = [self.devices[t] for t in location.members]
        ages = [d.age for d in members if d.age is not None]
        return {
            "id": location.id, "lat": location.lat, "lon": location.lon,
            "people": len(members),
            "avg_age": sum(ages) / len(ages) if ages else None,
            "men": sum(1 for d in members if d.sex == "m"),
            "women": sum(1 for d in members if d.sex == "f"),
        }

    def search(self, lat: float, lon: float, radius: int = DEFAULT_RADIUS, min: int = DEFAULT_MIN,
               max: int = DEFAULT_MAX, limit: int = DEFAULT_LIMIT, *, now: float) -> dict:
        """`GET /api/crowd/locations`: {"locations": [...], "truncated": bool}."""
        self.expire(now)
        return self._search(lat, lon, radius, min, max, limit)

    def _search(self, lat, lon, radius, min_people, max_people, limit) -> dict:
        floor = builtin_max(min_people, self.min_group)
        found = []
        for location in self.locations.values():
            d = distance(lat, lon, location.lat, location.lon)
            if d <= radius and floor <= len(location.members) <= max_people:
                entry = self.stats(location)
                entry["distance_m"] = d
                found.append(entry)
        truncated = len(found) > limit
        if truncated:
            found.sort(key=lambda e: (-e["people"], e["distance_m"], e["id"]))
            found = found[:limit]
        found.sort(key=lambda e: (e["distance_m"], e["id"]))
        return {"locations": found, "truncated": truncated}

    def location(self, location_id: int, *, now: float) -> dict | None:
        """`GET /api/crowd/locations/{id}`: statistics and the latest 10 comments newest first;
        None (404) when there is no such location or it has fewer than k people."""
        self.expire(now)
        location = self.locations.get(location_id)
        if location is None or len(location.members) < self.min_group:
            return None
        detail = self.stats(location)
        detail["comments"] = [{"text": text, "time": time}
                              for text, time in reversed(location.comments[-COMMENTS_SHOWN:])]
        return detail

    # -- helpers for test generators -------------------------------------------------------

    def near_boundary(self, lat: float, lon: float, radii: tuple[float, ...], margin: float = 1e-7) -> bool:
        """Whether (lat, lon) lies within `margin` metres of the 10 m circle of any location or of
        any of `radii` around any centre: a point whose fate depends on the last bits."""
        for location in self.locations.values():
            d = distance(lat, lon, location.lat, location.lon)
            if abs(d - JOIN_DISTANCE) < margin or any(abs(d - r) < margin for r in radii):
                return True
        return False


builtin_max = max


# -- plumbing shared by the Crowd e2e tests: a server on SQLite or on PostGIS ---------------
# (kept apart from the model above; the model imports nothing of it)

import os
import re
import subprocess
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import requests

from conftest import ARTIFACTS, start_server, stop_server

REPO = Path(__file__).resolve().parent.parent
LONG_EXPIRY = "24h"  # replays: nobody expires while they run (the server keeps its own clock)


def postgres_base_url() -> str:
    """The URL of the test PostgreSQL with PostGIS, installed and started by
    `scripts/postgres-test.sh ensure` (it prints the URL as its last line)."""
    script = REPO / "scripts" / "postgres-test.sh"
    result = subprocess.run(["bash", str(script), "ensure"], capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"{script} ensure failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    lines = [line.strip() for line in result.stdout.splitlines() if re.match(r"^\s*postgres(ql)?://", line)]
    if not lines:
        raise RuntimeError(f"{script} ensure printed no postgres:// URL:\n{result.stdout}")
    return lines[-1]


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def psql(url: str, sql: str) -> str:
    result = subprocess.run(["psql", "-X", url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql],
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"psql {sql!r} failed:\n{result.stderr}")
    return result.stdout


def psql_superuser(database: str, sql: str) -> str:
    """psql as the cluster's superuser `postgres` over its Unix socket (inside the cluster
    folder of scripts/postgres-test.sh): `CREATE EXTENSION postgis` needs a superuser."""
    folder = os.environ.get("QUINTET_PG_DIR", "/tmp/quintet-pg")
    port = os.environ.get("QUINTET_PG_PORT", "55432")
    command = ["psql", "-X", "-h", f"{folder}/run", "-p", port, "-U", "postgres", "-d", database,
               "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"psql (superuser) {sql!r} failed:\n{result.stderr}")
    return result.stdout


def create_postgres_database() -> str:
    """A fresh, empty database with PostGIS on the test server, owned by the test role; returns
    its URL. (Each server gets its own: nothing left by another test can leak into a replay.)"""
    base = postgres_base_url()
    role = urlsplit(base).username
    name = "quintet_oracle_" + uuid.uuid4().hex[:12]
    psql_superuser("postgres", f'CREATE DATABASE "{name}" OWNER "{role}"')
    psql_superuser(name, "CREATE EXTENSION IF NOT EXISTS postgis")
    url = with_database(base, name)
    psql(url, "SELECT 1")  # the test role can connect to it
    return url


def drop_postgres_database(url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    try:
        psql_superuser("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except RuntimeError:
        pass  # leaving a test database behind is untidy, not wrong


def parse_time(value) -> float:
    """A comment's time as the server writes it (ISO 8601, or seconds/milliseconds since 1970)."""
    from datetime import datetime, timezone
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value / 1000 if value > 1e11 else float(value)
    if isinstance(value, str):
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        return parsed.timestamp()
    raise ValueError(f"not a time: {value!r}")


class CrowdServer:
    """A `quintet serve` with the crowd flags, on SQLite (its data folder) or on a fresh PostGIS
    database; restartable on the same state."""

    def __init__(self, backend: str, data_dir, name: str, min_group: int | None, expiry: str):
        """`min_group` None leaves the flag out (the server's default)."""
        self.backend = backend
        self.data_dir = data_dir
        self.name = name
        library = Path(data_dir).parent / (Path(data_dir).name + "-library")
        library.mkdir(parents=True, exist_ok=True)  # empty: no demo library to write and scan meanwhile
        self.args = ["--library", str(library), "--crowd-expiry", expiry, "--crowd-rate-limit", "0"]
        if min_group is not None:
            self.args += ["--crowd-min-group", str(min_group)]
        self.database = create_postgres_database() if backend == "postgres" else None
        if self.database:
            self.args += ["--crowd-database", self.database]
        self.runs = 0
        self.server = None
        self.session = requests.Session()

    def start(self):
        self.runs += 1
        log = ARTIFACTS / f"crowd-{self.name}-{self.backend}-{self.runs}.log"
        self.server = start_server(self.data_dir, log, tuple(self.args))
        return self

    def stop(self):
        if self.server:
            server, self.server = self.server, None
            stop_server(server)

    def close(self):
        try:
            self.stop()
        finally:
            if self.database:
                drop_postgres_database(self.database)

    def url(self, path: str) -> str:
        return self.server.url(path)

    def kill(self):
        """SIGKILL, no goodbye: what was acknowledged must be on disk."""
        if self.server:
            server, self.server = self.server, None
            server.process.kill()
            server.process.wait()

    @staticmethod
    def headers(geojson: bool) -> dict:
        return {"Accept": "application/geo+json"} if geojson else {}

    def post_report(self, body: dict, geojson: bool = False) -> requests.Response:
        return self.session.post(self.url("/api/crowd/reports"), json=body, timeout=30, headers=self.headers(geojson))

    def get_search(self, params: dict, geojson: bool = False) -> requests.Response:
        return self.session.get(self.url("/api/crowd/locations"), params=params, timeout=30,
                                headers=self.headers(geojson))

    def get_location(self, location_id: int, geojson: bool = False) -> requests.Response:
        return self.session.get(self.url(f"/api/crowd/locations/{location_id}"), timeout=30,
                                headers=self.headers(geojson))
