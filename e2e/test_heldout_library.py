"""Acceptance: a held-out library made by third-party tools (e2e/heldout_library.py: ffmpeg
audio, mutagen tags) is scanned with every tag and every link right.

(a) `quintet scan DIR --data D --json`: the counts and the exact error list, twice (the
    second, unchanged scan reports the same); (b) `quintet serve --library DIR`: every song's
    tags, credits, album grouping, covers, related links (both ways, and the planted
    non-links absent), search and the scan status, through the HTTP API.

The library is generated once per session into a temporary folder. Each check collects
every mismatch before failing, so one run shows all that is wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import requests

from conftest import ARTIFACTS, quintet_binary, start_server, stop_server, wait
from heldout_library import Manifest, generate, name_key

FORMAT = {"mp3": "mp3", "flac": "flac", "m4a": "mp4", "ogg": "ogg", "opus": "ogg", "wav": "wav"}
CODEC = {"mp3": "mp3", "flac": "flac", "m4a": "aac", "ogg": "vorbis", "opus": "opus"}
AUDIO_SUFFIXES = (".mp3", ".flac", ".m4a", ".ogg", ".opus", ".wav")



def mismatches_report(problems: list[str]) -> str:
    return f"{len(problems)} mismatch(es):\n  " + "\n  ".join(problems)


# ---------------------------------------------------------------------------------------------
# Fixtures

@pytest.fixture(scope="session")
def heldout(tmp_path_factory) -> Manifest:
    return generate(tmp_path_factory.mktemp("heldout"))


def cli_scan(manifest: Manifest, data) -> dict:
    result = subprocess.run([str(quintet_binary()), "scan", str(manifest.root), "--data", str(data), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"quintet scan failed ({result.returncode}):\n{result.stderr[-3000:]}"
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, f"--json must print one line, got:\n{result.stdout}"
    return json.loads(lines[0])


@pytest.fixture(scope="session")
def cli_scans(heldout, tmp_path_factory) -> tuple[dict, dict]:
    """The first scan into an empty catalog, then an unchanged rescan of the same data folder."""
    data = tmp_path_factory.mktemp("heldout-cli-data")
    return cli_scan(heldout, data), cli_scan(heldout, data)


@pytest.fixture(scope="session")
def library_server(heldout, tmp_path_factory):
    running = start_server(tmp_path_factory.mktemp("heldout-serve-data"), ARTIFACTS / "heldout-server.log",
                           ("--library", str(heldout.root)))
    try:
        running.wait_for_library(timeout=300)
        yield running
    finally:
        stop_server(running)


class Catalog:
    """What the HTTP API shows of the catalog, fetched once."""

    def __init__(self, server):
        self.server = server
        body = self.get("/api/library/songs", limit=1000)
        self.songs: dict[str, dict] = {s["path"]: s for s in body["songs"]}
        self.songs_total = body["total"]
        self.by_id = {s["id"]: s for s in self.songs.values()}
        self.albums: list[dict] = self.get("/api/library/albums", limit=10000)["albums"]
        self.artists: list[dict] = self.get("/api/library/artists", limit=10000)["artists"]
        self.credited: dict[int, set[str]] = {s["id"]: set() for s in self.songs.values()}
        self.artist_detail: dict[str, dict] = {}
        for artist in self.artists:
            detail = self.get(f"/api/library/artists/{artist['id']}")
            self.artist_detail[artist["name"]] = detail
            for song in detail["songs"]:
                self.credited.setdefault(song["id"], set()).add(artist["name"])
        self.album_songs = {a["id"]: self.get(f"/api/library/albums/{a['id']}")["songs"] for a in self.albums}

    def get(self, path: str, **params) -> dict:
        response = requests.get(self.server.url(path), params=params, auth=self.server.admin, timeout=30)
        assert response.status_code == 200, f"GET {path} {params}: {response.status_code} {response.text[:300]}"
        return response.json()

    def raw(self, path: str) -> requests.Response:
        return requests.get(self.server.url(path), auth=self.server.admin, timeout=30)

    def album(self, artist: str, title: str) -> dict | None:
        found = [a for a in self.albums if name_key(a["artist"]) == name_key(artist) and name_key(a["title"]) == name_key(title)]
        assert len(found) <= 1, f"album {artist!r} / {title!r} listed {len(found)} times"
        return found[0] if found else None


@pytest.fixture(scope="session")
def catalog(library_server) -> Catalog:
    return Catalog(library_server)


# ---------------------------------------------------------------------------------------------
# (a) the command-line scan

def test_cli_scan_counts(heldout, cli_scans):
    first, _ = cli_scans
    expected = {"files": heldout.files, "songs": len(heldout.songs), "albums": len(heldout.albums),
                "artists": len(heldout.artists)}
    got = {key: first[key] for key in expected}
    assert got == expected, f"scan counts: got {got}, expected {expected}"


def check_errors(errors: list[dict], manifest: Manifest) -> list[str]:
    problems = []
    paths = [e["path"] for e in errors]
    if sorted(paths) != sorted(manifest.errors):
        problems.append(f"error paths: unexpected {sorted(set(paths) - set(manifest.errors))}, "
                        f"missing {sorted(set(manifest.errors) - set(paths))}, got {paths}")
    if len(paths) != len(set(paths)):
        problems.append(f"a path reported twice: {paths}")
    for error in errors:
        reason = error.get("reason") or ""
        if not reason.strip():
            problems.append(f"{error['path']}: empty reason")
        word = manifest.errors.get(error["path"])
        if word and word not in reason.lower():
            problems.append(f"{error['path']}: reason {reason!r} does not say {word!r}")
    return problems


def test_cli_scan_errors(heldout, cli_scans):
    first, _ = cli_scans
    problems = check_errors(first["errors"], heldout)
    assert not problems, mismatches_report(problems)
    for ignored in heldout.ignored:
        assert ignored not in [e["path"] for e in first["errors"]], f"{ignored} is not audio and must be ignored"


def test_cli_rescan_unchanged_reports_the_same(heldout, cli_scans):
    first, second = cli_scans
    for key in ("files", "songs", "albums", "artists"):
        assert second[key] == first[key], f"{key}: first scan {first[key]}, unchanged rescan {second[key]}"
    problems = check_errors(second["errors"], heldout)
    assert not problems, "the rescan (unreadable files are tried again): " + mismatches_report(problems)


def test_unreadable_file_and_folder(heldout, cli_scans):
    if "unreadable file and folder" not in heldout.skipped:
        first, _ = cli_scans
        paths = {e["path"] for e in first["errors"]}
        assert {"Broken/locked.mp3", "Closed"} <= paths, first["errors"]
        return
    # Root reads everything, so the generator could not plant the case: scan a small library
    # with a chmod-000 file and folder as the unprivileged user nobody instead.
    song = next(p for p in sorted(heldout.songs) if p.endswith(".mp3"))
    base = Path(tempfile.mkdtemp(prefix="quintet-locked-", dir="/tmp"))
    try:
        base.chmod(0o755)
        library, data = base / "lib", base / "data"
        for folder in (library / "Broken", library / "Closed", data):
            folder.mkdir(parents=True)
            folder.chmod(0o755)
        library.chmod(0o755)
        for target in ("ok.mp3", "Broken/locked.mp3", "Closed/hidden.mp3"):
            shutil.copyfile(Path(heldout.root) / song, library / target)
            (library / target).chmod(0o644)
        (library / "Broken" / "locked.mp3").chmod(0)
        (library / "Closed").chmod(0)
        os.chown(data, 65534, 65534)
        # A copy of the binary where nobody can reach it (a checkout may sit in a 0700 folder).
        binary = base / "quintet"
        shutil.copy2(quintet_binary(), binary)
        binary.chmod(0o755)
        done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               str(binary), "scan", str(library), "--data", str(data), "--json"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.strip().splitlines()[-1])
        reasons = {e["path"]: e["reason"] for e in result["errors"]}
        assert set(reasons) == {"Broken/locked.mp3", "Closed"}, result
        assert all("ermission" in reason for reason in reasons.values()), reasons
        assert result["songs"] == 1 and result["files"] == 2, result
    finally:
        (base / "lib" / "Closed").chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# (b) the served catalog

def test_scan_status(heldout, library_server, catalog):
    status = catalog.get("/api/library/scan")
    problems = []
    if status["state"] != "idle":
        problems.append(f"state {status['state']!r}")
    if status["files_seen"] != heldout.files:
        problems.append(f"files_seen {status['files_seen']}, expected {heldout.files}")
    if status["songs"] != len(heldout.songs):
        problems.append(f"songs {status['songs']}, expected {len(heldout.songs)}")
    if status.get("demo") is not False:
        problems.append(f"demo {status.get('demo')!r} with --library")
    if os.path.realpath(status["root"]) != os.path.realpath(heldout.root):
        problems.append(f"root {status['root']!r}, expected {heldout.root}")
    problems += check_errors(status["errors"], heldout)
    stats = catalog.get("/api/library/stats")
    for key, want in (("songs", len(heldout.songs)), ("albums", len(heldout.albums)), ("artists", len(heldout.artists))):
        if stats[key] != want:
            problems.append(f"stats.{key} {stats[key]}, expected {want}")
    assert not problems, mismatches_report(problems)


def test_every_audio_file_is_a_song_and_nothing_else(heldout, catalog):
    got, want = set(catalog.songs), set(heldout.songs)
    assert got == want, f"unexpected songs {sorted(got - want)}; missing songs {sorted(want - got)}"
    assert catalog.songs_total == len(want)


def test_song_tags(heldout, catalog):
    problems = []
    for path, want in sorted(heldout.songs.items()):
        song = catalog.songs.get(path)
        if song is None:
            problems.append(f"{path}: missing")
            continue
        expected = {
            "title": want.title, "artist": want.artist_text, "album": want.album, "album_artist": want.album_artist,
            "track": want.track, "disc": want.disc, "year": want.year, "genre": want.genre,
            "composer": want.composer, "compilation": want.compilation, "has_picture": want.picture is not None,
            "format": FORMAT[want.format],
        }
        if want.format in CODEC:
            expected["codec"] = CODEC[want.format]
        for key, value in expected.items():
            if song.get(key) != value:
                problems.append(f"{path} [{want.tagger}]: {key} = {song.get(key)!r}, expected {value!r}")
        if want.bpm is not None:
            if song.get("bpm") != want.bpm or song.get("bpm_source") != "tag":
                problems.append(f"{path}: bpm {song.get('bpm')!r} ({song.get('bpm_source')}), expected {want.bpm} from the tag")
        elif song.get("bpm_source") == "tag":
            problems.append(f"{path}: bpm {song.get('bpm')!r} from a tag the file does not have")
        if want.duration is not None and (song.get("duration") is None or abs(song["duration"] - want.duration) > 0.06):
            problems.append(f"{path}: duration {song.get('duration')!r}, mutagen says {want.duration:.3f}")
    assert not problems, mismatches_report(problems)


def test_song_detail_route_matches_the_list(heldout, catalog):
    problems = []
    for path, song in sorted(catalog.songs.items()):
        detail = catalog.get(f"/api/library/songs/{song['id']}")
        for key in ("path", "title", "artist", "album", "album_artist", "track", "disc", "year", "genre", "composer", "duration"):
            if detail.get(key) != song.get(key):
                problems.append(f"{path}: /songs/{song['id']} {key} = {detail.get(key)!r}, list says {song.get(key)!r}")
    assert not problems, mismatches_report(problems)


def test_credited_artists(heldout, catalog):
    """Multi-valued tags, "feat."/"ft."/"featuring" and "(feat. X)" in titles; "Kite & Crane",
    "Salt/Pepper" stay whole (also in an ID3v2.3 TPE1, since the library knows it whole); an
    ID3v2.3 TPE1 "A/B" credits A and B; NFD names are one artist with the NFC one."""
    problems = []
    for path, want in sorted(heldout.songs.items()):
        song = catalog.songs.get(path)
        if song is None:
            continue
        if not want.credited:
            continue  # an untagged song: whether it is credited to "Unknown Artist" is not specified
        got = catalog.credited.get(song["id"], set())
        if {name_key(n) for n in got} != {name_key(n) for n in want.credited}:
            problems.append(f"{path}: credited {sorted(got)}, expected {sorted(want.credited)}")
        first = next((a for a in catalog.artists if a["id"] == song.get("artist_id")), None)
        if first is None or name_key(first["name"]) != name_key(want.credited[0]):
            problems.append(f"{path}: artist_id names {first and first['name']!r}, expected the first credit {want.credited[0]!r}")
    names = {a["name"] for a in catalog.artists}
    if names != heldout.artists:
        problems.append(f"artists: unexpected {sorted(names - heldout.artists)}, missing {sorted(heldout.artists - names)}")
    assert not problems, mismatches_report(problems)


def test_albums(heldout, catalog):
    """Grouping by (album artist, album title key), year (earliest), disc count, compilation."""
    problems = []
    if len(catalog.albums) != len(heldout.albums):
        listed = sorted((a["artist"], a["title"]) for a in catalog.albums)
        problems.append(f"{len(catalog.albums)} albums listed, expected {len(heldout.albums)}: {listed}")
    for want in heldout.albums.values():
        album = catalog.album(want.artist, want.title)
        if album is None:
            problems.append(f"album {want.artist!r} / {want.title!r} missing")
            continue
        label = f"album {want.artist} / {want.title!r}"
        for key, value in (("title", want.title), ("artist", want.artist), ("year", want.year),
                           ("disc_count", want.disc_count), ("compilation", want.compilation),
                           ("song_count", len(want.song_paths)), ("has_cover", want.cover is not None)):
            if album.get(key) != value:
                problems.append(f"{label}: {key} = {album.get(key)!r}, expected {value!r}")
        paths = sorted(s["path"] for s in catalog.album_songs.get(album["id"], []))
        if paths != sorted(want.song_paths):
            problems.append(f"{label}: songs {paths}, expected {sorted(want.song_paths)}")
        for path in want.song_paths:
            song = catalog.songs.get(path)
            if song and (song["album_id"] != album["id"] or song["album_artist_id"] != album["artist_id"]):
                problems.append(f"{path}: album_id/album_artist_id {song['album_id']}/{song['album_artist_id']}, "
                                f"album is {album['id']}/{album['artist_id']}")
    # The planted facts, said once more in words.
    sampler = catalog.album("Various Artists", "Quintet Sampler 2")
    if not (sampler and sampler["compilation"] and sampler["song_count"] == 3):
        problems.append(f"the compilation is not one album by Various Artists: {sampler}")
    duets = catalog.album("Maya Okafor", "Duets")
    salt = catalog.songs.get("Maya Okafor/Duets/04 Salt.mp3")
    if not (duets and salt and salt["album_artist"] == "Maya Okafor" and salt["artist"] == "Salt/Pepper feat. Ada North"):
        problems.append("album artist (TPE2) must stay distinct from the track artist")
    copper = catalog.album("The Lanterns", "Copper Sky")
    if not (copper and copper["disc_count"] == 2 and copper["year"] == 2001):
        problems.append(f"Copper Sky: two discs, year 2001 (the earliest): {copper}")
    exitos = catalog.album("Lucía Ferrer", "Grandes Éxitos")
    if not (exitos and exitos["title"] == "Grandes Éxitos"):
        problems.append(f"an NFD album title is stored in NFC: {exitos}")
    assert not problems, mismatches_report(problems)


def image_check(response: requests.Response, want: bytes | None, want_type: str | None, label: str) -> list[str]:
    if want is None:
        return [] if response.status_code == 404 else [f"{label}: {response.status_code}, expected 404 (no cover)"]
    problems = []
    if response.status_code != 200:
        return [f"{label}: {response.status_code} {response.text[:200]}"]
    content_type = response.headers.get("Content-Type", "").split(";")[0].strip()
    if content_type != want_type:
        problems.append(f"{label}: Content-Type {content_type!r}, expected {want_type!r}")
    if response.content != want:
        problems.append(f"{label}: {len(response.content)} bytes that are not the planted image ({len(want)} bytes)")
    return problems


def test_album_covers(heldout, catalog):
    """Folder art (cover.png before folder.jpg; booklet.jpg is not a cover), else the embedded
    picture; the exact bytes and their type."""
    problems = []
    for want in heldout.albums.values():
        album = catalog.album(want.artist, want.title)
        if album is None:
            continue
        label = f"album {want.artist} / {want.title!r} cover ({want.cover_from})"
        problems += image_check(catalog.raw(f"/api/library/albums/{album['id']}/cover"), want.cover, want.cover_type, label)
        if want.cover is not None:
            thumb = catalog.raw(f"/api/library/albums/{album['id']}/cover?size=32")
            if thumb.status_code != 200 or not thumb.content.startswith(b"\xff\xd8"):
                problems.append(f"{label}: ?size=32 gives {thumb.status_code}, not a JPEG thumbnail")
    assert not problems, mismatches_report(problems)


def expected_song_cover(heldout: Manifest, path: str) -> bytes | None:
    want = heldout.songs[path]
    return want.picture or heldout.albums[want.album_key].cover


def test_song_covers(heldout, catalog):
    """A song's own picture first, else its album's cover, else 404."""
    problems = []
    for path in sorted(heldout.songs):
        song = catalog.songs.get(path)
        if song is None:
            continue
        picture = expected_song_cover(heldout, path)
        kind = ("image/png" if picture.startswith(b"\x89PNG") else "image/jpeg") if picture else None
        problems += image_check(catalog.raw(f"/api/library/songs/{song['id']}/cover"), picture, kind, f"{path} cover")
    assert not problems, mismatches_report(problems)


def test_song_cover_url_only_when_there_is_a_cover(heldout, catalog):
    """cover_url names the cover route only for a song that has a cover (its own picture or its
    album's), in every route that lists songs; the album route already does so."""
    problems = []
    for path in sorted(heldout.songs):
        song = catalog.songs.get(path)
        if song is None:
            continue
        has_cover = expected_song_cover(heldout, path) is not None
        in_album = next((s for s in catalog.album_songs.get(song["album_id"], []) if s["id"] == song["id"]), None)
        for route, view in (("/api/library/songs", song), (f"/api/library/albums/{song['album_id']}", in_album)):
            if view is not None and (view.get("cover_url") is not None) != has_cover:
                problems.append(f"{path}: {route} gives cover_url {view.get('cover_url')!r}, "
                                f"but the song has {'a' if has_cover else 'no'} cover")
    assert not problems, mismatches_report(problems)


def test_related_links(heldout, catalog):
    """Every song's covers and identical recordings are exactly the planted ones, both ways."""
    problems = []
    related: dict[str, tuple[set[str], set[str]]] = {}
    for path in sorted(heldout.songs):
        song = catalog.songs.get(path)
        if song is None:
            continue
        body = catalog.get(f"/api/library/songs/{song['id']}/related")
        got = ({s["path"] for s in body["covers"]}, {s["path"] for s in body["identical"]})
        related[path] = got
        want = heldout.expected_links(path)
        for kind, g, w in (("covers", got[0], want[0]), ("identical", got[1], want[1])):
            if g != w:
                problems.append(f"{path}: {kind} unexpected {sorted(g - w)}, missing {sorted(w - g)}")
        for entry in body["covers"] + body["identical"]:
            for key in ("id", "path", "title", "artist", "album", "duration"):
                if key not in entry:
                    problems.append(f"{path}: a related song lacks {key!r}")
    for a, b, why in heldout.not_linked:
        if a in related and (b in related[a][0] or b in related[a][1]):
            problems.append(f"{a} -> {b} linked, but {why}")
        if b in related and (a in related[b][0] or a in related[b][1]):
            problems.append(f"{b} -> {a} linked, but {why}")
    for a, (covers, identical) in related.items():
        for b in covers:
            if b in related and a not in related[b][0]:
                problems.append(f"cover {a} -> {b} is not symmetric")
        for b in identical:
            if b in related and a not in related[b][1]:
                problems.append(f"identical {a} -> {b} is not symmetric")
    assert not problems, mismatches_report(problems)


def expected_search(heldout: Manifest, query: str) -> set[str]:
    """docs/library.md: every word of q (NameKey-folded) in the title key, the artist or the album."""
    words = name_key(query).split()
    found = set()
    for path, song in heldout.songs.items():
        text = " ".join((name_key(song.title), song.artist_text.lower(), song.album.lower()))
        if all(word in text for word in words):
            found.add(path)
    return found


@pytest.mark.parametrize("raw_query", ["copper+sky", "copper%20sky", "Copper%20SKY"])
def test_search_songs_query_decoding(heldout, catalog, raw_query):
    """Form encoding: '+' is a space in a query string."""
    want = expected_search(heldout, "copper sky")
    assert len(want) == 6
    response = requests.get(catalog.server.url(f"/api/library/songs?q={raw_query}"), auth=catalog.server.admin, timeout=30)
    assert response.status_code == 200, response.text
    got = {s["path"] for s in response.json()["songs"]}
    assert got == want, f"q={raw_query}: unexpected {sorted(got - want)}, missing {sorted(want - got)}"


@pytest.mark.parametrize("query", ["copper sky", "glass river", "café", "night", "ferrer"])
def test_search_songs_total_counts_the_matches(heldout, catalog, query):
    """`total` counts the songs q matches, not the whole catalog."""
    want = expected_search(heldout, query)
    body = catalog.get("/api/library/songs", q=query, limit=1)
    assert body["total"] == len(want), f"q={query!r}: total {body['total']}, {len(want)} songs match"
    body = catalog.get("/api/library/songs", q=query, limit=1000)
    got = {s["path"] for s in body["songs"]}
    assert got == want, f"q={query!r}: unexpected {sorted(got - want)}, missing {sorted(want - got)}"


def test_non_audio_files_are_ignored(heldout, catalog):
    paths = set(catalog.songs)
    for ignored in heldout.ignored:
        assert ignored not in paths
    assert all(p.endswith(AUDIO_SUFFIXES) for p in paths)


def test_served_rescan_reads_only_the_unreadable_files_again(heldout, library_server, catalog):
    """POST /api/library/scan on an unchanged library: no song is read again (ids kept), only
    the files that could not be read are tried again, and they are reported again. Runs last:
    it rescans the served library."""
    unreadable = sorted(p for p in heldout.errors if p.endswith(AUDIO_SUFFIXES) and p != "Broken/empty.mp3"
                        and p not in heldout.second_paths)
    started = requests.post(library_server.url("/api/library/scan"), auth=library_server.admin, timeout=30)
    assert started.status_code == 202, started.text
    def finished(catalog):
        status = catalog.get("/api/library/scan")
        return status if status["state"] == "idle" and status["last_scan"] else None

    status = wait(catalog, finished, lambda: f"the rescan did not finish: {catalog.get('/api/library/scan')}",
                  timeout=120, interval=0.2)
    report = status["last_scan"]
    problems = []
    for key, want in (("files", heldout.files), ("read", len(unreadable)), ("unchanged", len(heldout.songs)),
                      ("removed", 0), ("songs", len(heldout.songs))):
        if report.get(key) != want:
            problems.append(f"last_scan.{key} = {report.get(key)!r}, expected {want!r}")
    problems += check_errors(status["errors"], heldout)
    after = {s["path"]: s["id"] for s in catalog.get("/api/library/songs", limit=1000)["songs"]}
    before = {path: s["id"] for path, s in catalog.songs.items()}
    if after != before:
        problems.append(f"song ids changed: {sorted(set(after.items()) ^ set(before.items()))}")
    assert not problems, mismatches_report(problems)
