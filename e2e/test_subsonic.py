"""The Subsonic / OpenSubsonic API under /rest/, driven by py-opensonic (a real client
library that posts form-encoded calls with token auth) and checked in XML with
xml.etree, as XML-only clients such as Amperfy read it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import libopensonic
import pytest
import requests
from libopensonic import errors

NS = "{http://subsonic.org/restapi}"


@pytest.fixture(scope="module")
def library(server):
    server.wait_for_library()
    return server


@pytest.fixture(scope="module")
def conn(library):
    url = urlsplit(library.base_url)
    connection = libopensonic.Connection(f"{url.scheme}://{url.hostname}", *library.admin, port=url.port,
                                         app_name="quintet-e2e")
    yield connection
    connection.cleanup()


def rest(server, endpoint: str, **params) -> requests.Response:
    """A GET with plain-password auth (the simplest form a client can send)."""
    user, password = server.admin
    query = {"u": user, "p": password, "v": "1.16.1", "c": "e2e", **params}
    return requests.get(server.url(f"/rest/{endpoint}"), params=query, timeout=60)


def body(conn, response) -> bytes:
    """Reads an aiohttp response py-opensonic returned, on its own event loop."""
    return asyncio.run_coroutine_threadsafe(response.read(), conn._loop).result(timeout=60)


def demo_file(server, path: str) -> bytes:
    return (server.data_dir / "demo-library" / path).read_bytes()


def first_album(conn):
    artists = conn.get_artists()
    artist = artists.index[0].artist[0]
    album_id = conn.get_artist(artist.id).album[0].id
    return conn.get_album(album_id)


def test_ping_and_token_auth(conn, library):
    assert conn.ping() is True  # token auth: t = md5(password + s), posted as a form
    assert [e.name for e in conn.get_open_subsonic_extensions()] == ["formPost"]
    salt = "a1b2c3"
    token = hashlib.md5((library.admin[1] + salt).encode()).hexdigest()
    ok = requests.get(library.url("/rest/ping"), params={"u": "admin", "t": token, "s": salt, "f": "json"}, timeout=10)
    assert ok.json()["subsonic-response"]["status"] == "ok"
    root = ET.fromstring(rest(library, "ping.view").content)
    assert root.tag == NS + "subsonic-response"
    assert root.attrib["status"] == "ok" and root.attrib["version"] == "1.16.1" and root.attrib["openSubsonic"] == "true"


def test_wrong_password_is_error_40(library):
    url = urlsplit(library.base_url)
    wrong = libopensonic.Connection(f"{url.scheme}://{url.hostname}", "admin", "not-the-password", port=url.port)
    try:
        with pytest.raises(errors.CredentialError):
            wrong.ping()
    finally:
        wrong.cleanup()
    bad = rest(library, "ping", p="not-the-password", f="json").json()["subsonic-response"]
    assert bad["status"] == "failed" and bad["error"]["code"] == 40
    root = ET.fromstring(rest(library, "ping", p="not-the-password").content)
    assert root.attrib["status"] == "failed" and root.find(NS + "error").attrib["code"] == "40"
    missing = requests.get(library.url("/rest/ping"), params={"f": "json"}, timeout=10).json()["subsonic-response"]
    assert missing["error"]["code"] == 10


def test_artists_and_album(conn, library):
    artists = conn.get_artists()
    names = [a.name for index in artists.index for a in index.artist]
    assert "Northern Lights" in names and "Maya Okafor" in names
    assert artists.ignored_articles
    album = first_album(conn)
    assert album.song and album.song_count == len(album.song)
    for song in album.song:
        assert song.path and not song.path.startswith("/") and song.bpm is not None
        assert song.album_id == album.id and song.type == "music" and song.suffix in ("mp3", "flac", "ogg", "m4a")
        assert (library.data_dir / "demo-library" / song.path).is_file()
    # A song alone, and the same song in getAlbum, agree.
    single = conn.get_song(album.song[0].id)
    assert single.path == album.song[0].path and single.title == album.song[0].title


def test_get_album_xml_matches_json(conn, library):
    album_id = first_album(conn).id
    js = rest(library, "getAlbum", id=album_id, f="json").json()["subsonic-response"]["album"]
    root = ET.fromstring(rest(library, "getAlbum", id=album_id).content)
    xml_album = root.find(NS + "album")
    assert xml_album is not None

    def text(value) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    scalars = {k: v for k, v in js.items() if not isinstance(v, (list, dict))}
    assert {k: xml_album.attrib.get(k) for k in scalars} == {k: text(v) for k, v in scalars.items()}
    xml_songs = xml_album.findall(NS + "song")
    assert len(xml_songs) == len(js["song"]) > 0
    for xml_song, json_song in zip(xml_songs, js["song"]):
        scalars = {k: v for k, v in json_song.items() if not isinstance(v, (list, dict))}
        assert {k: xml_song.attrib.get(k) for k in scalars} == {k: text(v) for k, v in scalars.items()}
        assert "bpm" in xml_song.attrib and "path" in xml_song.attrib
        genres = [g.attrib["name"] for g in xml_song.findall(NS + "genres")]
        assert genres == [g["name"] for g in json_song.get("genres", [])]


def test_search3(conn):
    found = conn.search3("lanterns")
    assert found.song and all("lantern" in s.title.lower() for s in found.song)
    artist = conn.search3("okafor", album_count=0, song_count=0).artist
    assert [a.name for a in artist] == ["Maya Okafor"]
    everything = conn.search3("", artist_count=0, album_count=0, song_count=500)
    assert len(everything.song) == 30


def test_cover_art_is_an_image(conn, library):
    album = next(a for a in conn.get_album_list2("alphabeticalByName", size=50) if a.cover_art)
    original = conn.get_cover_art(album.cover_art)
    assert original.headers["Content-Type"].startswith("image/")
    data = body(conn, original)
    assert data[:4] == b"\x89PNG" or data[:2] == b"\xff\xd8"
    thumb = rest(library, "getCoverArt", id=album.cover_art, size=64)
    assert thumb.status_code == 200 and thumb.headers["Content-Type"] == "image/jpeg" and thumb.content[:2] == b"\xff\xd8"


def test_stream_original_and_transcode(conn, library, tmp_path):
    album = first_album(conn)
    song = album.song[0]
    original = demo_file(library, song.path)
    streamed = conn.stream(song.id)
    assert body(conn, streamed) == original
    raw = rest(library, "stream", id=song.id, format="raw", maxBitRate=64)
    assert raw.content == original
    part = rest(library, "stream.view", id=song.id)
    ranged = requests.get(part.url, headers={"Range": "bytes=100-199"}, timeout=30)
    assert ranged.status_code == 206 and ranged.content == original[100:200]
    assert body(conn, conn.download(song.id)) == original

    for fmt, codec in (("mp3", "mp3"), ("opus", "opus")):
        transcoded = rest(library, "stream", id=song.id, format=fmt, maxBitRate=96)
        assert transcoded.status_code == 200 and transcoded.headers["Content-Type"].startswith("audio/")
        out = tmp_path / f"transcode.{fmt}"
        out.write_bytes(transcoded.content)
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name:format=duration",
                                "-of", "json", str(out)], capture_output=True, text=True, timeout=60)
        assert probe.returncode == 0, probe.stderr
        info = json.loads(probe.stdout)
        assert info["streams"][0]["codec_name"] == codec
        assert abs(float(info["format"]["duration"]) - song.duration) < 2


def test_playlist_round_trip(conn, library):
    songs = conn.search3("", artist_count=0, album_count=0, song_count=3).song
    name = 'Run <&"\'> Mix'
    assert conn.create_playlist(name=name, song_ids=[s.id for s in songs]) is True
    playlist = next(p for p in conn.get_playlists() if p.name == name)
    read = conn.get_playlist(playlist.id)
    assert read.name == name and [e.id for e in read.entry] == [s.id for s in songs]
    assert read.song_count == 3 and read.owner == "admin"
    root = ET.fromstring(rest(library, "getPlaylist", id=playlist.id).content)
    xml_playlist = root.find(NS + "playlist")
    assert xml_playlist.attrib["name"] == name
    assert [e.attrib["id"] for e in xml_playlist.findall(NS + "entry")] == [s.id for s in songs]
    conn.update_playlist(playlist.id, name="Evening", song_indices_to_remove=[0])
    again = conn.get_playlist(playlist.id)
    assert again.name == "Evening" and [e.id for e in again.entry] == [s.id for s in songs[1:]]
    conn.delete_playlist(playlist.id)
    with pytest.raises(errors.DataNotFoundError):
        conn.get_playlist(playlist.id)


def test_star_and_scrobble(conn):
    song = first_album(conn).song[0]
    conn.star(sids=[song.id])
    assert [s.id for s in conn.get_starred2().song] == [song.id]
    conn.unstar(sids=[song.id])
    assert not conn.get_starred2().song
    before = conn.get_song(song.id).play_count or 0
    conn.scrobble(song.id, submission=True)
    assert conn.get_song(song.id).play_count == before + 1


def test_similar_songs_and_artists_come_from_the_graph(conn, library):
    """getSimilarSongs(2) walk Quintet's graph ("instant mix" in phone apps) and getArtistInfo2
    names the linked artists: Maya Okafor's "Glass River" is covered by Northern Lights."""
    glass = next(s for s in conn.search3("glass river", artist_count=0, album_count=0).song if s.artist == "Maya Okafor")
    similar = conn.get_similar_songs(glass.id, count=6)
    ids = [s.id for s in similar]
    assert len(ids) == 6 and len(set(ids)) == 6 and glass.id not in ids
    # The same walk as the page's "play a path", minus the seed.
    user, password = library.admin
    walk = requests.get(library.url("/api/library/graph/walk"), params={"seed": glass.id, "count": 7},
                        auth=(user, password), timeout=30).json()
    assert ["tr-%d" % s["id"] for s in walk["songs"]] == [glass.id] + ids
    artist = next(a for a in conn.search3("okafor", album_count=0, song_count=0).artist)
    info = conn.get_artist_info2(artist.id)
    names = [a.name for a in info.similar_artist]
    assert "Northern Lights" in names and "Maya Okafor" not in names
    by_artist = conn.get_similar_songs2(artist.id, count=3)
    assert len(by_artist) == 3
