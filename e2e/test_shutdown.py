"""SIGTERM in the middle of the server's long work (issue 17, section 1, "Must show").

Four moments, each on a real `quintet serve` with its own data folder:
- during the BPM analysis of a 20,000-song library (the first scan finished, the queue at work);
- during the first scan of that library;
- during a live broadcast (ffmpeg as the Icecast source, one listener connected);
- during a crowd load (reports posted from many threads at once).

Each time the server must exit with code 0 within STOP_BUDGET (2 s) of the signal, having
closed its database cleanly ("database closed cleanly" in its log), and every SQLite database
in the data folder (`*.sqlite`) must pass `PRAGMA integrity_check`. Then the next start on the
same data folder must carry on: the BPM queue with the songs still unanalysed (nothing analysed
before is lost), the scan to all the songs, the recording so far kept as an episode (radio
recovery), every crowd report that got a 2xx answer present.

The library is made in a temporary folder by the shared yardstick's generator,
`../shared/library-bench/make_big.sh N --out DIR` (beside the repository, read-only in CI),
once per session. Generating 20,000 files costs about 9 CPU-seconds (0.43 CPU-s per 1,000
files measured, plus ffmpeg's five templates), so the 20,000-song cases run in `make test`
itself; no `long` split was needed.

A test does not stop at its first broken promise: it goes on through the restart and lists
every one at the end (stop time, exit code, clean close, integrity, what the restart found),
so one run shows the whole picture.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from conftest import ARTIFACTS, REPO, Server, start_server, stop_server, tail, wait
from crowd_oracle import LONG_EXPIRY, CrowdServer
from test_cli import quintet
from test_radio_live import create_show, make_mp3, need_ffmpeg, raw_get, start_source, wait_live

STOP_BUDGET = 2.0       # seconds from SIGTERM to exit (the figure)
GIVE_UP_AFTER = 30.0    # seconds after SIGTERM before a hung server is killed (to report how long it took)
SONGS = 20_000          # the library size
LIBRARY_BENCH = REPO.parent / "shared" / "library-bench"
MAKE_BIG = LIBRARY_BENCH / "make_big.sh"
ANALYSED_BEFORE_STOP = 10  # songs the BPM queue must have finished before the SIGTERM


# -- helpers ---------------------------------------------------------------------------------


@dataclass
class Findings:
    """Broken promises collected along a test, reported together at its end."""

    items: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.items.append(text)

    def note(self, text: str) -> None:
        self.notes.append(text)
        print(text)

    def check(self) -> None:
        assert not self.items, "\n".join(self.items + ["(notes: " + "; ".join(self.notes) + ")"])


def until(what: str, probe, timeout: float, interval: float = 0.1):
    """conftest's `wait` for a probe that takes no subject: returns what `probe` gives once it
    is truthy, or fails naming `what`."""
    return wait(None, lambda _: probe(), f"{what}: not reached", timeout=timeout, interval=interval)


def sigterm(server: Server, findings: Findings, moment: str) -> float:
    """Sends SIGTERM and waits for the exit; records a stop slower than STOP_BUDGET, a non-zero
    exit code or a missing clean close. Returns the seconds from the signal to the exit."""
    process = server.process
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=GIVE_UP_AFTER)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        findings.add(f"SIGTERM {moment}: still running {GIVE_UP_AFTER:.0f} s after the signal (killed):\n"
                     f"{tail(server.log())}")
        return GIVE_UP_AFTER
    took = time.monotonic() - sent
    findings.note(f"SIGTERM {moment}: exited with {code} after {took:.2f} s")
    log = server.log()
    if took > STOP_BUDGET:
        findings.add(f"SIGTERM {moment}: the server took {took:.2f} s to exit (budget {STOP_BUDGET} s); "
                     f"log tail:\n{tail(log, 12)}")
    if code != 0:
        findings.add(f"SIGTERM {moment}: exit code {code}; log tail:\n{tail(log, 12)}")
    if "database closed cleanly" not in log:
        findings.add(f"SIGTERM {moment}: no 'database closed cleanly' in the log; log tail:\n{tail(log, 12)}")
    return took


def check_integrity(data: Path, findings: Findings, moment: str) -> list[Path]:
    """`PRAGMA integrity_check` on every `*.sqlite` under the data folder; returns them."""
    databases = sorted(data.rglob("*.sqlite"))
    if not databases:
        findings.add(f"after SIGTERM {moment}: no *.sqlite in {data}")
    for path in databases:
        try:
            with sqlite3.connect(path, timeout=10) as db:
                rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
        except sqlite3.Error as error:
            rows = [f"cannot open: {error}"]
        if rows != ["ok"]:
            findings.add(f"after SIGTERM {moment}: {path.relative_to(data)} fails integrity_check: {rows[:10]}")
    findings.note(f"integrity_check after SIGTERM {moment}: {[p.name for p in databases]}")
    return databases


def query(data: Path, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(data / "quintet.sqlite", timeout=10) as db:
        return db.execute(sql, args).fetchall()


def get_json(server: Server, path: str) -> dict:
    answer = requests.get(server.url(path), auth=server.admin, timeout=10)
    assert answer.status_code == 200, f"GET {path}: {answer.status_code} {answer.text[:300]}"
    return answer.json()


def kill_quietly(server: Server) -> None:
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


# -- the library -----------------------------------------------------------------------------


def generate_library(songs: int, out: Path) -> Path:
    """`make_big.sh songs --out out` (its own pinned venv beside it); where the shared folder is
    read-only and holds no venv yet, the same generator under this venv's Python (the same pinned
    mutagen, e2e/requirements.txt). Returns the music folder."""
    if not MAKE_BIG.is_file():
        pytest.fail(f"{MAKE_BIG} is missing: the shared folder must lie beside the repository (REPO/../shared)")
    if (LIBRARY_BENCH / ".venv" / "bin" / "python").exists() or os.access(LIBRARY_BENCH, os.W_OK):
        command = ["bash", str(MAKE_BIG), str(songs), "--out", str(out)]
    else:
        command = [sys.executable, str(LIBRARY_BENCH / "make_big.py"), str(songs), "--out", str(out)]
    started = time.monotonic()
    made = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert made.returncode == 0, f"{' '.join(command)} failed:\n{made.stdout}\n{made.stderr}"
    expected = json.loads((out / "expected.json").read_text())
    assert expected["n"] == songs and len(expected["files"]) == songs
    print(f"library of {songs} songs made in {time.monotonic() - started:.1f} s: {made.stdout.strip()}")
    return out / "music"


@pytest.fixture(scope="session")
def big_library(tmp_path_factory) -> Path:
    """The music folder of a SONGS-song library (`make_big.sh`), made once per session, or the
    one QUINTET_SHUTDOWN_LIBRARY names (a folder `make_big.sh 20000 --out DIR` made: DIR), to
    run the tests again without generating it each time."""
    given = os.environ.get("QUINTET_SHUTDOWN_LIBRARY")
    if given:
        expected = json.loads((Path(given) / "expected.json").read_text())
        assert expected["n"] == SONGS, f"{given} holds {expected['n']} songs, not {SONGS}"
        return Path(given) / "music"
    return generate_library(SONGS, tmp_path_factory.mktemp("big-library"))


def bpm_rows(data: Path) -> tuple[dict[int, float], set[int]]:
    """Songs with a BPM from analysis (id → bpm) and songs the analyser failed on."""
    analysed = dict(query(data, "SELECT id, bpm FROM library_song WHERE bpm IS NOT NULL AND bpm_source = 'analysis'"))
    failed = {row[0] for row in query(data, "SELECT id FROM library_song WHERE bpm IS NULL AND bpm_failed_mtime = mtime")}
    return analysed, failed


def library_args(music: Path) -> tuple[str, ...]:
    return ("--library", str(music))


# -- 1. during the BPM analysis --------------------------------------------------------------


def test_sigterm_during_bpm_analysis(big_library, tmp_path):
    """20,000 songs scanned, the BPM queue at work: SIGTERM stops the server within 2 s, the
    databases are intact, and the next start goes on with the songs still unanalysed."""
    findings = Findings()
    data = tmp_path / "data"
    first = start_server(data, ARTIFACTS / "shutdown-bpm-1.log", library_args(big_library))
    try:
        scanned = first.wait_for_library(timeout=180)
        assert scanned["songs"] == SONGS, scanned
        status = until("the BPM queue at work after the first scan",
                       lambda: (lambda s: s if s["analyzed"] >= ANALYSED_BEFORE_STOP and s["state"] == "analyzing"
                                else None)(get_json(first, "/api/library/bpm")),
                       timeout=120, interval=0.05)
        findings.note(f"BPM queue before SIGTERM: {status}")
    except BaseException:
        kill_quietly(first)
        raise
    sigterm(first, findings, "during the BPM analysis")
    check_integrity(data, findings, "during the BPM analysis")

    before, failed_before = bpm_rows(data)
    findings.note(f"after the stop: {len(before)} songs analysed, {len(failed_before)} failed, "
                  f"{SONGS - len(before) - len(failed_before)} pending")
    # The generated songs are 1.5 s long: most have no tempo to find, and the analyser records
    # them as failed (retried only when the file changes). Both are work done and kept.
    done_before = set(before) | failed_before
    assert ANALYSED_BEFORE_STOP <= len(done_before) < SONGS, "the analysis was not under way when the signal came"
    pending_at_stop = SONGS - len(before) - len(failed_before)

    second = start_server(data, ARTIFACTS / "shutdown-bpm-2.log", library_args(big_library))
    try:
        rescanned = second.wait_for_library(timeout=180)
        if rescanned["songs"] != SONGS:
            findings.add(f"the restart's scan ended with {rescanned['songs']} songs, not {SONGS}")
        resumed = get_json(second, "/api/library/bpm")
        findings.note(f"BPM queue after the restart's scan: {resumed}")
        if resumed["pending"] > pending_at_stop:
            findings.add(f"the restart forgot analysed songs: {resumed['pending']} pending after its scan, "
                         f"{pending_at_stop} when the first server stopped")
        # The queue carries on: the count of analysed songs grows past where it stopped.
        grown = until("the BPM analysis going on after the restart",
                      lambda: (lambda s: s if SONGS - s["pending"] > len(done_before)
                               else None)(get_json(second, "/api/library/bpm")),
                      timeout=60, interval=0.1)
        findings.note(f"BPM queue going on: {grown}")
    finally:
        if second.process.poll() is None:
            sigterm(second, findings, "during the resumed BPM analysis")
    after, failed_after = bpm_rows(data)
    lost = [song for song in before if song not in after] + [song for song in failed_before if song not in failed_after]
    changed = [song for song in before if song in after and after[song] != before[song]]
    if lost:
        findings.add(f"{len(lost)} songs analysed before the SIGTERM lost their BPM or failure mark after the restart, e.g. {lost[:5]}")
    if changed:
        findings.add(f"{len(changed)} songs analysed before the SIGTERM have another BPM after it, e.g. {changed[:5]}")
    if len(set(after) | failed_after) <= len(done_before):
        findings.add(f"the restart analysed nothing new: {len(done_before)} songs done before, "
                     f"{len(set(after) | failed_after)} after")
    findings.check()


# -- 2. during the first scan ----------------------------------------------------------------


def test_sigterm_during_first_scan(big_library, tmp_path):
    """SIGTERM while the first scan of 20,000 songs reads and writes: exit within 2 s, intact
    databases, and the next start scans again and ends with every song."""
    findings = Findings()
    data = tmp_path / "data"
    first = start_server(data, ARTIFACTS / "shutdown-scan-1.log", library_args(big_library))
    try:
        def reading():
            status = get_json(first, "/api/library/scan")
            if status["state"] == "idle" and status.get("last_scan"):
                pytest.fail(f"the first scan ended before the test could interrupt it: {status}")
            return status if status["state"] == "scanning" and status["files_read"] > 0 else None

        status = until("the first scan reading files", reading, timeout=60, interval=0.02)
        findings.note(f"scan at SIGTERM: phase {status['phase']}, {status['files_read']}/{status['files_to_read']} "
                      f"read, {status['songs']} songs")
    except BaseException:
        kill_quietly(first)
        raise
    sigterm(first, findings, "during the first scan")
    check_integrity(data, findings, "during the first scan")
    stored = query(data, "SELECT COUNT(*) FROM library_song")[0][0]
    findings.note(f"songs stored when the first server stopped: {stored} of {SONGS}")

    second = start_server(data, ARTIFACTS / "shutdown-scan-2.log", library_args(big_library))
    try:
        rescanned = second.wait_for_library(timeout=180)
        findings.note(f"the restart's scan: {rescanned['last_scan']}")
        if rescanned["songs"] != SONGS:
            findings.add(f"the restart's scan ended with {rescanned['songs']} songs, not {SONGS}")
        if rescanned.get("failure"):
            findings.add(f"the restart's scan failed: {rescanned['failure']}")
    finally:
        stop_server(second)
    count = query(data, "SELECT COUNT(*) FROM library_song")[0][0]
    if count != SONGS:
        findings.add(f"the catalog holds {count} songs after the restart, not {SONGS}")
    findings.check()


# -- 3. during a live broadcast --------------------------------------------------------------

BYTES_PER_SECOND = 128_000 // 8      # the source's MP3 bitrate
STREAMED_BEFORE_STOP = 4.0           # seconds of audio the listener must have heard (sent in real time)


class Listener(threading.Thread):
    """A raw Icecast listener counting the bytes it receives until the connection closes."""

    def __init__(self, server: Server, mount: str):
        super().__init__(daemon=True)
        self.sock, head, body = raw_get(server, mount, icy=False)
        assert head.startswith(b"HTTP/1.0 200 OK"), head
        self.received = len(body)
        self.closed_at: float | None = None

    def run(self):
        self.sock.settimeout(60)
        try:
            while chunk := self.sock.recv(65536):
                self.received += len(chunk)
        except OSError:
            pass
        self.closed_at = time.monotonic()
        self.sock.close()


def test_sigterm_during_live_broadcast(tmp_path):
    """ffmpeg streaming to a mount, a listener connected: SIGTERM stops the server within 2 s,
    the databases are intact, and the recording so far is an episode after the next start."""
    need_ffmpeg()
    findings = Findings()
    data = tmp_path / "data"
    library = tmp_path / "empty-library"
    library.mkdir()
    first = start_server(data, ARTIFACTS / "shutdown-radio-1.log", library_args(library))
    source = None
    try:
        show = create_show(first, "E2E Shutdown")
        mp3 = make_mp3(tmp_path / "long.mp3", 60)
        source = start_source(first, show, mp3)
        wait_live(first, show["mount"])
        live_seen = time.monotonic()
        listener = Listener(first, show["mount"])
        listener.start()
        until("the listener hearing the broadcast",
              lambda: listener.received >= STREAMED_BEFORE_STOP * BYTES_PER_SECOND,
              timeout=30, interval=0.05)
        listed = quintet("radio", "episodes", "--data", str(data), "--json")
        assert listed.returncode == 0, listed.stderr
        live = [e for e in json.loads(listed.stdout) if e["show_id"] == show["id"]]
        assert len(live) == 1 and live[0]["state"] == "live", live
        episode_id = live[0]["id"]
    except BaseException:
        kill_quietly(first)
        if source:
            source.kill()
        raise
    signalled = time.monotonic()
    streamed = signalled - live_seen  # at least what the server had received by then
    sigterm(first, findings, "during a live broadcast")
    try:
        source.wait(timeout=10)
    except subprocess.TimeoutExpired:
        findings.add("the ffmpeg source was still running 10 s after the server stopped")
        source.kill()
        source.wait()
    listener.join(timeout=10)
    if listener.closed_at is None:
        findings.add("the listener's connection stayed open after the server stopped")
    check_integrity(data, findings, "during a live broadcast")
    row = query(data, "SELECT state, duration, size FROM radio_episodes WHERE id = ?", episode_id)
    findings.note(f"episode {episode_id} when the server stopped: {row}; streamed ≥ {streamed:.1f} s")

    second = start_server(data, ARTIFACTS / "shutdown-radio-2.log", library_args(library))
    try:
        def finished():
            answer = requests.get(second.url(f"/api/radio/episodes/{episode_id}"), auth=second.admin, timeout=10)
            if answer.status_code != 200:
                pytest.fail(f"the episode of the cut broadcast is gone after the restart: "
                            f"{answer.status_code} {answer.text[:300]}")
            episode = answer.json()
            episode = episode.get("episode", episode)
            return episode if episode["state"] != "live" else None

        episode = until("the cut broadcast finalised as an episode", finished, timeout=30, interval=0.2)
        findings.note(f"episode after the restart: state {episode['state']}, {episode['duration']:.2f} s, "
                      f"{episode['size']} bytes")
        # Nothing the server had received is lost beyond about the last second (as after kill -9).
        if episode["duration"] < streamed - 1.3:
            findings.add(f"the episode keeps {episode['duration']:.2f} s of a broadcast that had sent at least "
                         f"{streamed:.2f} s when the signal came")
        download = requests.get(second.url(f"/radio/episodes/{episode_id}.mp3"), auth=second.admin, timeout=10)
        if download.status_code != 200 or len(download.content) != episode["size"]:
            findings.add(f"the episode's file: {download.status_code}, {len(download.content)} bytes, "
                         f"the episode says {episode['size']}")
    finally:
        stop_server(second)
    findings.check()


# -- 4. during a crowd load ------------------------------------------------------------------

CENTRE = (48.137154, 11.576124)
SPACING = 25.0            # metres between two reports' places: more than the 10 m join distance
GRID = 160                # places per row: 160 × 25 m, a 4 km square of 25,600 places
THREADS = 16
ACKED_BEFORE_STOP = 300   # reports answered before the SIGTERM


def place(index: int) -> tuple[float, float]:
    """The index-th place of a square grid around CENTRE, SPACING metres apart."""
    row, column = divmod(index, GRID)
    north = (row - GRID / 2) * SPACING
    east = (column - GRID / 2) * SPACING
    lat = CENTRE[0] + north / 111_195.0
    lon = CENTRE[1] + east / (111_195.0 * math.cos(math.radians(CENTRE[0])))
    return lat, lon


class CrowdLoad:
    """THREADS threads posting reports, each from a device of its own at a place of its own,
    until told to stop; remembers every report answered 2xx."""

    def __init__(self, server: CrowdServer):
        self.url = server.url("/api/crowd/reports")
        self.numbers = itertools.count()
        self.acked: dict[int, int] = {}  # report number → location id
        self.refused: list[str] = []
        self.errors = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(THREADS)]

    def start(self):
        for thread in self.threads:
            thread.start()

    def run(self):
        session = requests.Session()
        while not self.stopping.is_set():
            number = next(self.numbers)
            if number >= GRID * GRID:
                return
            lat, lon = place(number)
            body = {"device": f"shutdown-{number}", "lat": lat, "lon": lon, "comment": f"report {number}",
                    "radius": 15, "limit": 1}
            try:
                answer = session.post(self.url, json=body, timeout=30)
            except requests.RequestException:
                with self.lock:
                    self.errors += 1
                time.sleep(0.01)  # a back-off before the next report, not a wait for a state
                continue
            with self.lock:
                if 200 <= answer.status_code < 300:
                    self.acked[number] = answer.json()["location"]["id"]
                else:
                    self.refused.append(f"{answer.status_code} {answer.text[:100]}")

    def count(self) -> int:
        with self.lock:
            return len(self.acked)

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=60)


def test_sigterm_during_crowd_load(tmp_path):
    """Reports posted from 16 threads at once: SIGTERM stops the server within 2 s, the crowd's
    database is intact, and every report that was answered 2xx is there after the restart."""
    findings = Findings()
    crowd = CrowdServer("sqlite", tmp_path / "data", "shutdown", 1, LONG_EXPIRY)
    crowd.start()
    load = CrowdLoad(crowd)
    try:
        load.start()
        until("the crowd load under way", lambda: load.count() >= ACKED_BEFORE_STOP, timeout=60, interval=0.02)
    except BaseException:
        load.stop()
        crowd.kill()
        raise
    server, crowd.server = crowd.server, None
    in_flight_at_signal = load.count()
    sigterm(server, findings, "during a crowd load")
    load.stop()
    findings.note(f"crowd load: {in_flight_at_signal} reports answered at the signal, {load.count()} in all, "
                  f"{load.errors} connection errors, {len(load.refused)} refused")
    if load.refused:
        findings.note(f"refused answers (not acknowledged), e.g. {load.refused[:3]}")
    check_integrity(crowd.data_dir, findings, "during a crowd load")

    crowd.start()
    try:
        session_local = threading.local()

        def missing(item: tuple[int, int]) -> str | None:
            number, location_id = item
            session = getattr(session_local, "session", None) or requests.Session()
            session_local.session = session
            answer = session.get(crowd.url(f"/api/crowd/locations/{location_id}"), timeout=30)
            if answer.status_code != 200:
                return f"report {number}: location {location_id} answers {answer.status_code}"
            detail = answer.json()
            texts = [comment["text"] for comment in detail.get("comments", [])]
            if f"report {number}" not in texts or detail.get("people") != 1:
                return f"report {number}: location {location_id} reads {json.dumps(detail)[:200]}"
            return None

        with ThreadPoolExecutor(8) as pool:
            lost = [text for text in pool.map(missing, sorted(load.acked.items())) if text]
        if lost:
            findings.add(f"{len(lost)} of {len(load.acked)} acknowledged reports are missing after the restart, "
                         f"e.g. {lost[:5]}")
    finally:
        crowd.close()
    findings.check()
