"""MediaTags against tags written by mutagen (a tag library no one here wrote), in files
made by ffmpeg: every field must read back as mutagen wrote it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from mutagen import id3
from mutagen.flac import FLAC, Picture
from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm
from mutagen.oggvorbis import OggVorbis

from conftest import quintet_binary

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c"
    "6360f8cf000000030101005fa9b5b00000000049454e44ae426082"
)


def make(folder: Path, name: str, *codec: str) -> Path:
    path = folder / name
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-loglevel", "error", "-f", "lavfi",
                    "-i", "sine=frequency=440:duration=2", *codec, str(path)], check=True)
    return path


def read(path: Path) -> dict:
    result = subprocess.run([str(quintet_binary()), "tags", "--json", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("tags")


@pytest.mark.parametrize("version,encoding", [(3, 1), (4, 3)])
def test_mp3_id3v2(folder, version, encoding):
    path = make(folder, f"v2{version}.mp3", "-c:a", "libmp3lame", "-b:a", "128k")
    tags = id3.ID3()
    tags.add(id3.TIT2(encoding=encoding, text="Café ☕ — 東京"))
    artists = ["AC/DC"] if version == 3 else ["AC/DC", "Guest Star"]
    tags.add(id3.TPE1(encoding=encoding, text=artists))
    tags.add(id3.TALB(encoding=encoding, text="Live ’97"))
    tags.add(id3.TPE2(encoding=encoding, text="Various Artists"))
    tags.add(id3.TCOM(encoding=encoding, text="Angus Young"))
    tags.add(id3.TCON(encoding=encoding, text="(17)"))
    tags.add(id3.TRCK(encoding=encoding, text="3/12"))
    tags.add(id3.TPOS(encoding=encoding, text="1/2"))
    tags.add(id3.TDRC(encoding=encoding, text="1997"))
    tags.add(id3.TBPM(encoding=encoding, text="128"))
    tags.add(id3.TCMP(encoding=encoding, text="1"))
    tags.add(id3.TXXX(encoding=encoding, desc="MusicBrainz Album Id", text="abc-123"))
    tags.add(id3.APIC(encoding=encoding, mime="image/png", type=3, desc="front", data=PNG))
    tags.save(str(path), v2_version=version, v1=2)
    got = read(path)
    t = got["tags"]
    assert got["format"] == "mp3" and got["stream"]["codec"] == "mp3"
    assert t["title"] == "Café ☕ — 東京"
    assert t["artists"] == artists
    assert t["album"] == "Live ’97" and t["albumArtists"] == ["Various Artists"]
    assert t["composers"] == ["Angus Young"] and t["genres"] == ["Rock"]
    assert (t["trackNumber"], t["trackTotal"], t["discNumber"], t["discTotal"]) == (3, 12, 1, 2)
    assert t["year"] == 1997 and t["bpm"] == 128 and t["compilation"] is True
    assert t["custom"]["MUSICBRAINZ ALBUM ID"] == ["abc-123"]
    assert got["pictures"] == [{"type": 3, "mimeType": "image/png", "description": "front", "bytes": len(PNG)}]
    assert abs(got["stream"]["duration"] - 2.0) < 0.06


def test_mp3_id3v1_only(folder):
    path = make(folder, "v1.mp3", "-c:a", "libmp3lame", "-write_xing", "0", "-id3v2_version", "0")
    tags = id3.ID3()
    tags.add(id3.TIT2(encoding=0, text="Old School"))
    tags.add(id3.TPE1(encoding=0, text="Somebody"))
    tags.add(id3.TALB(encoding=0, text="Tape"))
    tags.add(id3.TRCK(encoding=0, text="7"))
    tags.add(id3.TCON(encoding=0, text="Jazz"))
    tags.save(str(path), v1=2)
    id3.delete(str(path), delete_v1=False, delete_v2=True)
    t = read(path)["tags"]
    assert (t["title"], t["artists"], t["album"], t["trackNumber"], t["genres"]) == ("Old School", ["Somebody"], "Tape", 7, ["Jazz"])


def test_flac(folder):
    path = make(folder, "a.flac", "-c:a", "flac")
    audio = FLAC(str(path))
    audio.clear()
    audio.update({"TITLE": "Ärger", "ARTIST": ["One", "Two"], "ALBUM": "Doppel", "ALBUMARTIST": "One",
                  "COMPOSER": "Three", "GENRE": "Jazz", "TRACKNUMBER": "3", "TRACKTOTAL": "12",
                  "DISCNUMBER": "1", "DISCTOTAL": "2", "DATE": "2001-05-12", "BPM": "92.5",
                  "COMPILATION": "1", "MUSICBRAINZ_TRACKID": "xyz"})
    picture = Picture()
    picture.type, picture.mime, picture.desc, picture.data = 3, "image/png", "cover", PNG
    audio.add_picture(picture)
    audio.save()
    got = read(path)
    t = got["tags"]
    assert t["title"] == "Ärger" and t["artists"] == ["One", "Two"] and t["album"] == "Doppel"
    assert t["albumArtists"] == ["One"] and t["composers"] == ["Three"] and t["genres"] == ["Jazz"]
    assert (t["trackNumber"], t["trackTotal"], t["discNumber"], t["discTotal"]) == (3, 12, 1, 2)
    assert t["date"] == "2001-05-12" and t["year"] == 2001 and t["bpm"] == 92.5 and t["compilation"] is True
    assert t["custom"]["MUSICBRAINZ_TRACKID"] == ["xyz"]
    assert got["pictures"][0]["bytes"] == len(PNG) and got["pictures"][0]["type"] == 3
    assert abs(got["stream"]["duration"] - audio.info.length) < 0.001


def test_m4a(folder):
    path = make(folder, "a.m4a", "-c:a", "aac")
    audio = MP4(str(path))
    audio.update({"\xa9nam": ["Nocturne"], "\xa9ART": ["Pianist"], "aART": ["Orchestra"], "\xa9alb": ["Night"],
                  "\xa9wrt": ["Chopin"], "\xa9gen": ["Classical"], "\xa9day": ["1831"], "trkn": [(3, 12)],
                  "disk": [(1, 2)], "tmpo": [66], "cpil": True,
                  "covr": [MP4Cover(PNG, imageformat=MP4Cover.FORMAT_PNG)],
                  "----:com.apple.iTunes:MusicBrainz Album Id": [MP4FreeForm(b"m4a-id")]})
    audio.save()
    got = read(path)
    t = got["tags"]
    assert (t["title"], t["artists"], t["albumArtists"], t["album"]) == ("Nocturne", ["Pianist"], ["Orchestra"], "Night")
    assert t["composers"] == ["Chopin"] and t["genres"] == ["Classical"] and t["year"] == 1831
    assert (t["trackNumber"], t["trackTotal"], t["discNumber"], t["discTotal"]) == (3, 12, 1, 2)
    assert t["bpm"] == 66 and t["compilation"] is True
    assert t["custom"]["MUSICBRAINZ ALBUM ID"] == ["m4a-id"]
    assert got["pictures"][0]["mimeType"] == "image/png" and got["pictures"][0]["bytes"] == len(PNG)
    assert abs(got["stream"]["duration"] - audio.info.length) < 0.05


def test_ogg_vorbis(folder):
    path = make(folder, "a.ogg", "-c:a", "libvorbis")
    audio = OggVorbis(str(path))
    audio.update({"TITLE": "Señal", "ARTIST": "Uno", "ALBUM": "Dos", "TRACKNUMBER": "5/9", "DATE": "2010", "BPM": "140"})
    audio.save()
    got = read(path)
    t = got["tags"]
    assert (t["title"], t["artists"], t["album"], t["trackNumber"], t["trackTotal"], t["year"], t["bpm"]) == \
        ("Señal", ["Uno"], "Dos", 5, 9, 2010, 140)
    assert got["stream"]["codec"] == "vorbis" and abs(got["stream"]["duration"] - audio.info.length) < 0.01


def test_server_reads_an_uploaded_files_tags(server, folder):
    import requests

    path = make(folder, "upload.flac", "-c:a", "flac")
    audio = FLAC(str(path))
    audio.update({"TITLE": "Über den Wolken", "ARTIST": "Reinhard"})
    audio.save()
    response = requests.post(server.url("/api/library/tags"), data=path.read_bytes(), timeout=60)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["format"] == "flac" and body["tags"]["title"] == "Über den Wolken" and body["tags"]["artists"] == ["Reinhard"]
    bad = requests.post(server.url("/api/library/tags"), data=b"\x00" * 1000, timeout=60)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "unreadable_tags"
