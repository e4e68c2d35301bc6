"""Band ↔ member links from a held-out library (e2e/heldout_members.py: mutagen's tags in every
style that carries credits) and a MusicBrainz stand-in (a local http.server replaying answers in
MusicBrainz's documented JSON): `quintet serve --musicbrainz URL` must find exactly the planted
links, each with its sources, refuse the ambiguous name, show and retry a failed lookup, ask
with a real User-Agent at most once a second, and keep working from its cache with
`--musicbrainz off`. User relations come from the CLI (`quintet library members add`)."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from conftest import ARTIFACTS, quintet_binary, start_server, stop_server, wait
from heldout_members import Manifest, generate


class MusicBrainzStandIn:
    """Answers `/ws/2/artist?query=artist:"NAME"&fmt=json` and `/ws/2/artist/MBID?inc=artist-rels&fmt=json`
    from the manifest; the first search for `fails_once` gets a 503. Records every request."""

    def __init__(self, manifest: Manifest):
        self.manifest = manifest
        self.asked: list[tuple[str, str, float]] = []
        self.failed_once = False
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                status, body = stand_in.answer(self.path)
                stand_in.asked.append((self.path, self.headers.get("User-Agent", ""), time.monotonic()))
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, path: str) -> tuple[int, dict]:
        parts = urlsplit(path)
        query = parse_qs(parts.query)
        if query.get("fmt") != ["json"]:
            return 400, {"error": "fmt=json expected"}
        if parts.path == "/ws/2/artist":
            match = re.fullmatch(r'artist:"((?:\\.|[^"\\])*)"', query.get("query", [""])[0])
            if not match:
                return 400, {"error": "a quoted artist: query expected"}
            name = re.sub(r"\\(.)", r"\1", match.group(1))
            if name == self.manifest.fails_once and not self.failed_once:
                self.failed_once = True
                return 503, {"error": "Your requests are exceeding the allowable rate limit."}
            artists = self.manifest.searches.get(name, [])
            return 200, {"created": "2026-11-26T20:00:00.000Z", "count": len(artists), "offset": 0, "artists": artists}
        match = re.fullmatch(r"/ws/2/artist/([0-9a-f-]{36})", parts.path)
        if match and query.get("inc") == ["artist-rels"]:
            found = self.manifest.lookups.get(match.group(1))
            return (200, found) if found else (404, {"error": "Not Found"})
        return 400, {"error": "unexpected request"}

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def cli(data, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(quintet_binary()), "library", "members", *args, "--data", str(data)],
                          capture_output=True, text=True, timeout=60)


def links(server) -> set[tuple[str, str, tuple[str, ...]]]:
    body = requests.get(server.url("/api/library/members"), auth=server.admin, timeout=10).json()
    return {(link["band_name"], link["member_name"], tuple(link["sources"])) for link in body["links"]}


def artist_ids(server) -> dict[str, int]:
    body = requests.get(server.url("/api/library/artists"), auth=server.admin, timeout=10).json()
    return {artist["name"]: artist["id"] for artist in body["artists"]}


def test_member_links_from_tags_musicbrainz_and_users(tmp_path):
    manifest = generate(tmp_path)
    stand_in = MusicBrainzStandIn(manifest)
    data = tmp_path / "data"
    server = start_server(data, ARTIFACTS / "heldout-members-server.log",
                          ("--library", str(manifest.library), "--musicbrainz", stand_in.url))
    try:
        server.wait_for_library()
        ids = artist_ids(server)
        assert set(ids) == manifest.artists
        # Tags alone, before anything is looked up or added.
        assert links(server) == manifest.tag_links
        assert stand_in.asked == []

        for band, member in manifest.user_relations:
            added = cli(data, "add", band, member)
            assert added.returncode == 0, added.stderr
        refused = cli(data, "add", "Echo Parade", "Absent Person")
        assert refused.returncode != 0 and "no artist named" in refused.stderr

        # Showing an artist queues its lookup; the queue works one request a second.
        for name in manifest.look_up:
            shown = requests.get(server.url("/api/library/members"), params={"artist": ids[name]}, auth=server.admin, timeout=10)
            assert shown.status_code == 200 and shown.json()["lookup"]["state"] in ("pending", "none"), shown.text
        states: dict[str, dict] = {}

        def settled(_):
            for name in manifest.look_up:
                states[name] = requests.get(server.url("/api/library/members"), params={"artist": ids[name]},
                                            auth=server.admin, timeout=10).json()["lookup"]
            return all(state["state"] not in ("pending", "none") for state in states.values())

        wait(server, settled, lambda: f"lookups did not finish: {states}", timeout=60, interval=0.5)
        assert {name: state["state"] for name, state in states.items()} == manifest.look_up
        twins = states["Twin Name"]["candidates"]
        assert sorted(candidate["disambiguation"] for candidate in twins) == ["folk duo", "techno"]
        assert "503" in states[manifest.fails_once]["message"]

        # The graph shows the failed lookup on the artist's node.
        node = requests.get(server.url("/api/library/graph/expand"), params={"node": f"artist:{ids[manifest.fails_once]}"},
                            auth=server.admin, timeout=10).json()["node"]
        assert node["lookup"] == "failed", node

        # "Tap to retry".
        retried = requests.post(server.url("/api/library/members/lookup"), params={"artist": ids[manifest.fails_once]},
                                auth=server.admin, timeout=30)
        assert retried.status_code == 200 and retried.json()["lookup"]["state"] == "ok", retried.text

        assert links(server) == manifest.links
        # The graph's member_of edges are the same links (it rebuilds once it sees them).
        band = "The Lighthouse Keepers"
        want = {member for b, member, _ in manifest.links if b == band}
        seen: dict = {}

        def graph_members(_):
            seen.update(requests.get(server.url("/api/library/graph/expand"), params={"node": f"artist:{ids[band]}"},
                                     auth=server.admin, timeout=10).json())
            return {n["name"] for n in seen["neighbours"] if n["edge"] == "member_of"} == want

        wait(server, graph_members, lambda: f"the graph's members of {band}: {seen}", timeout=20, interval=0.5)
        assert seen["node"]["lookup"] == "ok"
        listed = cli(data, "list", "--json")
        assert listed.returncode == 0, listed.stderr
        assert {(link["band"], link["member"], tuple(link["sources"])) for link in json.loads(listed.stdout)["links"]} == manifest.links

        asked = stand_in.asked
        assert all(re.fullmatch(r"Quintet/\S+ \( .+ \)", agent) for _, agent, _ in asked), asked
        assert all(later - earlier >= 0.95 for (_, _, earlier), (_, _, later) in zip(asked, asked[1:])), asked
        assert not any(mbid in path for path, _, _ in asked for mbid in manifest.never_asked), asked
        # Every artist shown without an id was searched (the graph's neighbours too); the bands
        # whose tags carry their id were looked up by it, never searched.
        searched = {parse_qs(urlsplit(path).query)["query"][0] for path, _, _ in asked if urlsplit(path).path == "/ws/2/artist"}
        assert searched >= {f'artist:"{name}"' for name in manifest.searches}
        assert not searched & {f'artist:"{name}"' for name in ("Copper Tide", "Velvet Static", "Night Ferry")}
    finally:
        stop_server(server)

    # Offline: the same links and states from the cache, and a retry answered by it.
    offline = start_server(data, ARTIFACTS / "heldout-members-offline.log", ("--library", str(manifest.library), "--musicbrainz", "off"))
    try:
        offline.wait_for_library()
        before = len(stand_in.asked)
        assert links(offline) == manifest.links
        ids = artist_ids(offline)
        retried = requests.post(offline.url("/api/library/members/lookup"), params={"artist": ids["Sol Varga"]},
                                auth=offline.admin, timeout=30).json()
        assert retried["lookup"]["state"] == "ok" and [band["name"] for band in retried["bands"]] == ["Night Ferry"]
        kai = requests.get(offline.url("/api/library/members"), params={"artist": ids["Kai Moss"]}, auth=offline.admin, timeout=10).json()
        assert [band["name"] for band in kai["bands"]] == ["Echo Parade"]
        never = requests.get(offline.url("/api/library/members"), params={"artist": ids["Rex Dial"]}, auth=offline.admin, timeout=10).json()
        assert never["lookup"]["state"] == "off" and never["bands"] == [] and never["members"] == []
        assert len(stand_in.asked) == before
    finally:
        stop_server(offline)
        stand_in.stop()
