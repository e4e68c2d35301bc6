"""A held-out music library made only with third-party tools, and what a scan must find in it.

Audio comes from ffmpeg (sine tones and noise, durations to the tenth of a second, as MP3,
FLAC, M4A, Ogg Vorbis, Opus and WAV), tags from mutagen (ID3v2.3 UTF-16 with ID3v1, ID3v2.4
UTF-8, ID3v1 alone, Vorbis comments in FLAC/Ogg/Opus, MP4 atoms, ID3 in WAV), cover images
from ffmpeg (JPEG and PNG, embedded or as folder art). Nothing here calls Quintet.

Planted on purpose (docs/library.md, "Name normalisation and related songs" and "The
catalog"): cover pairs (same title and composer, other artists), a band's own live version
(not a cover), identical recordings 3.9 s apart on different albums (linked) and 4.1 s apart
(not linked), duplicates on one album and two album-less songs (not identical), titles that
differ only by case, whitespace or NFC/NFD (linked) or by "(Live)" (not linked),
multi-valued and "feat." credits, album artist vs track artist, a compilation under
Various Artists, discs, years, genres, composers and BPM; corrupt files (an MP3 cut inside its
ID3 tag, a FLAC cut inside its PICTURE block), non-audio files, a
symbolic link loop, a link to a folder outside the library, a link to a file outside it (a
song) and one to a song inside it (the same file: no second song), and (when not running as root)
an unreadable file and folder.

`generate(root)` writes the library under `root/library` and returns a `Manifest` of every
expectation: per song its tags, per album its grouping and cover, the related links, the
scan errors and the counts.
"""

from __future__ import annotations

import base64
import os
import random
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from mutagen import id3
from mutagen.flac import FLAC, Picture
from mutagen.mp3 import MP3
from mutagen.mp4 import MP4, MP4Cover
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis
from mutagen.wave import WAVE

FFMPEG = shutil.which("ffmpeg") or "ffmpeg"

CODECS = {
    "mp3": ["-c:a", "libmp3lame", "-b:a", "128k"],
    "flac": ["-c:a", "flac"],
    "m4a": ["-c:a", "aac", "-b:a", "96k"],
    "ogg": ["-c:a", "libvorbis", "-q:a", "2"],
    "opus": ["-c:a", "libopus", "-b:a", "48k"],
    "wav": ["-c:a", "pcm_s16le"],
}


def name_key(text: str) -> str:
    """docs/library.md's NameKey: NFC, case folded, whitespace trimmed and collapsed."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())
    return " ".join(folded.split())


def stored(text: str) -> str:
    """A name or title as the catalog stores it: trimmed and in NFC."""
    return unicodedata.normalize("NFC", text.strip())


@dataclass
class Song:
    """One audio file the scan must turn into a song, with everything the catalog must show."""

    path: str                      # relative to the library root
    format: str                    # file kind: mp3 flac m4a ogg opus wav
    tagger: str                    # how the tags were written (for messages)
    title: str                     # expected stored title
    artist_text: str               # expected song.artist (tag values joined by "; ")
    credited: list[str]            # expected credited artists, in order
    album: str                     # expected album title ("" without an album tag)
    album_artist: str              # expected album artist
    track: int | None = None
    disc: int | None = None
    year: int | None = None
    genre: str | None = None       # the first genre
    composer: str | None = None    # composers joined by "; "
    composers: list[str] = field(default_factory=list)
    bpm: float | None = None       # from the tag; None = no tag (analysis may fill it in)
    compilation: bool = False
    picture: bytes | None = None   # the embedded picture, if any
    duration: float | None = None  # mutagen's length (seconds); None = not checked
    nominal: float = 0.0           # what ffmpeg was asked for

    @property
    def album_key(self) -> tuple[str, str]:
        return (name_key(self.album_artist), name_key(self.album))


@dataclass
class Album:
    title: str
    artist: str
    year: int | None
    disc_count: int
    compilation: bool
    song_paths: list[str]
    cover: bytes | None            # bytes the album's cover route must return
    cover_type: str | None         # its Content-Type
    cover_from: str | None         # "folder" or "embedded"


@dataclass
class Manifest:
    root: Path                                  # the library folder
    songs: dict[str, Song]                      # by path
    albums: dict[tuple[str, str], Album]        # by (album artist key, title key)
    artists: set[str]                           # every artist name the catalog lists
    covers: set[frozenset[str]]                 # cover links (pairs of paths)
    identical: set[frozenset[str]]              # identical-recording links
    not_linked: list[tuple[str, str, str]]      # (path, path, why) planted non-links
    errors: dict[str, str | None]               # path -> a word the reason must contain (None: any)
    files: int                                  # audio files the walk finds (errors included)
    ignored: list[str]                          # non-audio files (never songs, never errors)
    skipped: dict[str, str] = field(default_factory=dict)  # sub-cases not planted, with why
    second_paths: set[str] = field(default_factory=set)    # links to a song already found (errors, not files)

    def expected_links(self, path: str) -> tuple[set[str], set[str]]:
        covers = {p for pair in self.covers if path in pair for p in pair if p != path}
        identical = {p for pair in self.identical if path in pair for p in pair if p != path}
        return covers, identical


# ---------------------------------------------------------------------------------------------
# Making files

def run_ffmpeg(*args: str) -> None:
    subprocess.run([FFMPEG, "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def make_image(path: Path, color: str, kind: str, size: int = 48) -> bytes:
    """A small solid-colour image made by ffmpeg (JPEG or PNG by `kind`); returns its bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    codec = ["-c:v", "mjpeg", "-q:v", "4", "-f", "mjpeg"] if kind == "jpeg" else ["-c:v", "png", "-f", "image2"]
    run_ffmpeg("-f", "lavfi", "-i", f"color=c={color}:s={size}x{size}", "-frames:v", "1", "-pix_fmt",
               "yuvj420p" if kind == "jpeg" else "rgb24", *codec, str(path))
    return path.read_bytes()


def make_audio(path: Path, fmt: str, seconds: float, seed: int) -> None:
    """Sine or pink noise of exactly `seconds` (to the tenth), no metadata from ffmpeg."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if seed % 2:
        source = f"sine=frequency={220 + 37 * seed}:sample_rate=44100:duration={seconds:.1f}"
    else:
        source = f"anoisesrc=d={seconds:.1f}:c=pink:a=0.2:r=44100:s={seed}"
    rate = ["-ar", "48000"] if fmt == "opus" else ["-ar", "44100"]
    run_ffmpeg("-f", "lavfi", "-i", source, "-map_metadata", "-1", "-ac", "1", *rate, *CODECS[fmt],
               "-fflags", "+bitexact", str(path))


def mime(picture: bytes) -> str:
    return "image/png" if picture.startswith(b"\x89PNG") else "image/jpeg"


@dataclass
class Tags:
    """What to write (as the tag holds it, before any catalog rule)."""

    title: str | None = None
    artists: list[str] = field(default_factory=list)
    album: str | None = None
    album_artist: str | None = None
    track: tuple[int, int | None] | None = None
    disc: tuple[int, int | None] | None = None
    date: str | None = None
    genres: list[str] = field(default_factory=list)
    composers: list[str] = field(default_factory=list)
    bpm: str | None = None
    compilation: bool = False
    picture: bytes | None = None


def num(pair: tuple[int, int | None]) -> str:
    return f"{pair[0]}/{pair[1]}" if pair[1] else str(pair[0])


def id3_frames(t: Tags, encoding: int) -> list[id3.Frame]:
    frames: list[id3.Frame] = []
    if t.title is not None:
        frames.append(id3.TIT2(encoding=encoding, text=t.title))
    if t.artists:
        frames.append(id3.TPE1(encoding=encoding, text=t.artists))
    if t.album is not None:
        frames.append(id3.TALB(encoding=encoding, text=t.album))
    if t.album_artist:
        frames.append(id3.TPE2(encoding=encoding, text=t.album_artist))
    if t.track:
        frames.append(id3.TRCK(encoding=encoding, text=num(t.track)))
    if t.disc:
        frames.append(id3.TPOS(encoding=encoding, text=num(t.disc)))
    if t.date:
        frames.append(id3.TDRC(encoding=encoding, text=t.date))
    if t.genres:
        frames.append(id3.TCON(encoding=encoding, text=t.genres))
    if t.composers:
        frames.append(id3.TCOM(encoding=encoding, text=t.composers))
    if t.bpm:
        frames.append(id3.TBPM(encoding=encoding, text=t.bpm))
    if t.compilation:
        frames.append(id3.TCMP(encoding=encoding, text="1"))
    if t.picture:
        frames.append(id3.APIC(encoding=encoding, mime=mime(t.picture), type=3, desc="front", data=t.picture))
    return frames


def vorbis_comments(t: Tags) -> dict[str, list[str]]:
    c: dict[str, list[str]] = {}
    if t.title is not None:
        c["TITLE"] = [t.title]
    if t.artists:
        c["ARTIST"] = list(t.artists)
    if t.album is not None:
        c["ALBUM"] = [t.album]
    if t.album_artist:
        c["ALBUMARTIST"] = [t.album_artist]
    if t.track:
        c["TRACKNUMBER"] = [str(t.track[0])]
        if t.track[1]:
            c["TRACKTOTAL"] = [str(t.track[1])]
    if t.disc:
        c["DISCNUMBER"] = [str(t.disc[0])]
        if t.disc[1]:
            c["DISCTOTAL"] = [str(t.disc[1])]
    if t.date:
        c["DATE"] = [t.date]
    if t.genres:
        c["GENRE"] = list(t.genres)
    if t.composers:
        c["COMPOSER"] = list(t.composers)
    if t.bpm:
        c["BPM"] = [t.bpm]
    if t.compilation:
        c["COMPILATION"] = ["1"]
    return c


def flac_picture(data: bytes) -> Picture:
    picture = Picture()
    picture.type, picture.mime, picture.desc, picture.data = 3, mime(data), "front", data
    picture.width = picture.height = 48
    picture.depth = 24
    return picture


def write_tags(path: Path, tagger: str, t: Tags) -> None:
    """Writes `t` with mutagen in the style `tagger` names."""
    if tagger == "id3v23":          # ID3v2.3, UTF-16 text, plus an ID3v1 tag
        tags = id3.ID3()
        for frame in id3_frames(t, encoding=1):
            tags.add(frame)
        tags.save(str(path), v2_version=3, v1=2)
    elif tagger == "id3v24":        # ID3v2.4, UTF-8, NUL-separated multiple values
        tags = id3.ID3()
        for frame in id3_frames(t, encoding=3):
            tags.add(frame)
        tags.save(str(path), v2_version=4, v1=0)
    elif tagger == "id3v1":         # ID3v1 only (written by mutagen from v2 frames, v2 removed)
        tags = id3.ID3()
        for frame in id3_frames(t, encoding=0):
            tags.add(frame)
        tags.save(str(path), v1=2)
        id3.delete(str(path), delete_v1=False, delete_v2=True)
    elif tagger in ("flac", "ogg", "opus"):
        audio = {"flac": FLAC, "ogg": OggVorbis, "opus": OggOpus}[tagger](str(path))
        if audio.tags is None:
            audio.add_tags()
        audio.tags.clear()
        for key, values in vorbis_comments(t).items():
            audio.tags[key] = values
        if t.picture:
            if tagger == "flac":
                audio.add_picture(flac_picture(t.picture))
            else:
                audio.tags["METADATA_BLOCK_PICTURE"] = [base64.b64encode(flac_picture(t.picture).write()).decode("ascii")]
        audio.save()
    elif tagger == "m4a":
        audio = MP4(str(path))
        if audio.tags is None:
            audio.add_tags()
        audio.tags.clear()
        if t.title is not None:
            audio["\xa9nam"] = [t.title]
        if t.artists:
            audio["\xa9ART"] = list(t.artists)
        if t.album is not None:
            audio["\xa9alb"] = [t.album]
        if t.album_artist:
            audio["aART"] = [t.album_artist]
        if t.track:
            audio["trkn"] = [(t.track[0], t.track[1] or 0)]
        if t.disc:
            audio["disk"] = [(t.disc[0], t.disc[1] or 0)]
        if t.date:
            audio["\xa9day"] = [t.date]
        if t.genres:
            audio["\xa9gen"] = list(t.genres)
        if t.composers:
            audio["\xa9wrt"] = list(t.composers)
        if t.bpm:
            audio["tmpo"] = [int(t.bpm)]
        if t.compilation:
            audio["cpil"] = True
        if t.picture:
            kind = MP4Cover.FORMAT_PNG if mime(t.picture) == "image/png" else MP4Cover.FORMAT_JPEG
            audio["covr"] = [MP4Cover(t.picture, imageformat=kind)]
        audio.save()
    elif tagger == "wav":           # an `id3 ` chunk (ID3v2.4) inside the RIFF file
        audio = WAVE(str(path))
        audio.add_tags()
        for frame in id3_frames(t, encoding=3):
            audio.tags.add(frame)
        audio.save()
    elif tagger == "none":
        pass
    else:
        raise ValueError(tagger)


def flac_block(data: bytes, kind: int) -> tuple[int, int]:
    """Where the first metadata block of `kind` starts (its body) and its length (RFC 9639 §8)."""
    assert data[:4] == b"fLaC"
    at = 4
    while True:
        header = data[at]
        size = int.from_bytes(data[at + 1:at + 4], "big")
        if header & 0x7F == kind:
            return at + 4, size
        assert not header & 0x80, f"no metadata block of type {kind}"
        at += 4 + size


def length(path: Path, fmt: str) -> float:
    """mutagen's idea of the duration (a third party's reading of the stream)."""
    cls = {"mp3": MP3, "flac": FLAC, "m4a": MP4, "ogg": OggVorbis, "opus": OggOpus, "wav": WAVE}[fmt]
    return float(cls(str(path)).info.length)


# ---------------------------------------------------------------------------------------------
# The library

class Builder:
    def __init__(self, root: Path):
        self.root = root
        self.songs: dict[str, Song] = {}
        self.seed = 0
        self.folder_art: dict[str, bytes] = {}

    def song(self, path: str, tagger: str, seconds: float, tags: Tags, *, title: str | None = None,
             credited: list[str], album_artist: str, year: int | None = None, genre: str | None = None,
             bpm: float | None = None, check_duration: bool = True) -> Song:
        fmt = path.rsplit(".", 1)[1]
        file = self.root / path
        self.seed += 1
        make_audio(file, fmt, seconds, self.seed)
        write_tags(file, tagger, tags)
        song = Song(
            path=path, format=fmt, tagger=tagger,
            title=title if title is not None else stored(tags.title or ""),
            artist_text="; ".join(tags.artists) if tags.artists else "Unknown Artist",
            credited=credited,
            album=stored(tags.album or ""),
            album_artist=album_artist,
            track=tags.track[0] if tags.track else None,
            disc=tags.disc[0] if tags.disc else None,
            year=year,
            genre=genre if genre is not None else (tags.genres[0] if tags.genres else None),
            composer="; ".join(tags.composers) if tags.composers else None,
            composers=list(tags.composers),
            bpm=bpm,
            compilation=tags.compilation,
            picture=tags.picture,
            duration=length(file, fmt) if check_duration else None,
            nominal=seconds,
        )
        self.songs[path] = song
        return song

    def art(self, path: str, color: str, kind: str) -> bytes:
        data = make_image(self.root / path, color, kind)
        self.folder_art[path] = data
        return data


def generate(base: Path) -> Manifest:
    """Writes the library under base/library (and a folder outside it under base/outside)."""
    root = base / "library"
    outside = base / "outside"
    if root.exists():
        shutil.rmtree(root)
    if outside.exists():
        shutil.rmtree(outside)
    if (base / "outside-file").exists():
        shutil.rmtree(base / "outside-file")
    root.mkdir(parents=True)
    b = Builder(root)
    images = base / "images"
    red_jpeg = make_image(images / "red.jpg", "red", "jpeg")
    green_png = make_image(images / "green.png", "green", "png")
    orange_jpeg = make_image(images / "orange.jpg", "orange", "jpeg")
    violet_png = make_image(images / "violet.png", "violet", "png")

    L = "The Lanterns"
    # --- The Lanterns / Copper Sky: ID3v2.3 UTF-16 + ID3v1, two discs, JPEG in every track.
    cs = "The Lanterns/Copper Sky"
    b.song(f"{cs}/1-01 Copper Sky.mp3", "id3v23", 12.3,
           Tags("Copper Sky", [L], "Copper Sky", None, (1, 2), (1, 2), "2001", ["(17)"], ["Ada North"], "120",
                picture=red_jpeg),
           credited=[L], album_artist=L, year=2001, genre="Rock", bpm=120)
    b.song(f"{cs}/1-02 Night Train.mp3", "id3v23", 10.0,
           Tags("Night Train", [L], "Copper Sky", None, (2, 2), (1, 2), "2003", ["Rock"], ["Ben Reed"], picture=red_jpeg),
           credited=[L], album_artist=L, year=2003)
    b.song(f"{cs}/2-01 Glass River.mp3", "id3v23", 11.2,
           Tags("Glass River", [L], "Copper Sky", None, (1, 2), (2, 2), "2001", ["Rock"], ["Ada North"], picture=red_jpeg),
           credited=[L], album_artist=L, year=2001)
    b.song(f"{cs}/2-02 Paper Moon.mp3", "id3v23", 10.0,
           Tags("Paper Moon", [L], "Copper Sky", None, (2, 2), (2, 2), "2001", ["Rock"], ["Ben Reed"], picture=red_jpeg),
           credited=[L], album_artist=L, year=2001)

    # --- The Lanterns / Live at the Mill: FLAC, folder.jpg, one track with its own PNG.
    live = "The Lanterns/Live at the Mill"
    folder_blue = b.art(f"{live}/folder.jpg", "blue", "jpeg")
    b.song(f"{live}/01 Copper Sky (Live).flac", "flac", 14.4,
           Tags("Copper Sky (Live)", [L], "Live at the Mill", None, (1, 5), None, "2005-06-01", ["Rock"], ["Ada North"], "124"),
           credited=[L], album_artist=L, year=2005, bpm=124)
    b.song(f"{live}/02 Glass River.flac", "flac", 17.2,   # 6.0 s longer than the studio take
           Tags("Glass River", [L], "Live at the Mill", None, (2, 5), None, "2005-06-01", ["Rock"], ["Ada North"]),
           credited=[L], album_artist=L, year=2005)
    b.song(f"{live}/03 Night Train.flac", "flac", 13.9,   # 3.9 s longer than on Copper Sky
           Tags("Night Train", [L], "Live at the Mill", None, (3, 5), None, "2005-06-01", ["Rock"], ["Ben Reed"]),
           credited=[L], album_artist=L, year=2005)
    b.song(f"{live}/04 Echo.flac", "flac", 9.0,
           Tags("Echo", [L], "Live at the Mill", None, (4, 5), None, "2005-06-01", ["Rock"], ["Ada North"], picture=green_png),
           credited=[L], album_artist=L, year=2005)
    b.song(f"{live}/05 echo.flac", "flac", 9.5,           # the same title on the same album
           Tags("Echo", [L], "Live at the Mill", None, (5, 5), None, "2005-06-01", ["Rock"], ["Ada North"]),
           credited=[L], album_artist=L, year=2005)

    # --- The Lanterns / B-Sides: Ogg Vorbis, explicit album artist, cover.png beats folder.jpg.
    bs = "The Lanterns/B-Sides"
    b.art(f"{bs}/folder.jpg", "purple", "jpeg")
    b.art(f"{bs}/cover.png", "yellow", "png")
    b.song(f"{bs}/01 Paper Moon.ogg", "ogg", 14.1,        # 4.1 s longer than on Copper Sky
           Tags("Paper Moon", [L], "B-Sides", L, (1, 2), None, "2007", ["Rock"], ["Ben Reed"]),
           credited=[L], album_artist=L, year=2007)
    b.song(f"{bs}/02 Harbour Lights.ogg", "ogg", 12.0,
           Tags("Harbour Lights", [L], "B-Sides", L, (2, 2), None, "2007", ["Folk", "Pop"], [], "92.5", picture=violet_png),
           credited=[L], album_artist=L, year=2007, genre="Folk", bpm=92.5)

    # --- Maya Okafor / Glass River (single): M4A, covr JPEG, tmpo; covers The Lanterns' song.
    M = "Maya Okafor"
    mg = "Maya Okafor/Glass River"
    b.song(f"{mg}/01 Glass River.m4a", "m4a", 11.5,
           Tags("Glass River", [M], "Glass River", None, (1, 2), (1, 1), "2010", ["Soul"], ["Ada North"], "88",
                picture=orange_jpeg),
           credited=[M], album_artist=M, year=2010, bpm=88)
    b.song(f"{mg}/02 Bright Morning.m4a", "m4a", 6.6,
           Tags("Bright Morning (feat. Lucía Ferrer)", [M], "Glass River", None, (2, 2), (1, 1), "2010", ["Soul"], [],
                picture=orange_jpeg),
           credited=[M, "Lucía Ferrer"], album_artist=M, year=2010)

    # --- Maya Okafor / Duets: ID3v2.4 UTF-8, TPE2 album artist, multi-valued artists, NFD title.
    du = "Maya Okafor/Duets"
    b.song(f"{du}/01 Two Voices.mp3", "id3v24", 15.0,
           Tags("Two Voices", [M, "Ben Reed"], "Duets", M, (1, 4), (1, 1), "2012", ["Jazz"], ["Ada North", "Ben Reed"], "100"),
           credited=[M, "Ben Reed"], album_artist=M, year=2012, bpm=100)
    b.song(f"{du}/02 Cafe Noir.mp3", "id3v24", 9.1,
           Tags(unicodedata.normalize("NFD", "Café Noir"), [M], "Duets", M, (2, 4), (1, 1), "2012", ["Jazz"], ["Jean Dupont"]),
           title="Café Noir", credited=[M], album_artist=M, year=2012)
    b.song(f"{du}/03 Cafe Noir (Live).mp3", "id3v24", 9.4,
           Tags("Café Noir (Live)", [M], "Duets", M, (3, 4), (1, 1), "2012", ["Jazz"], ["Jean Dupont"]),
           credited=[M], album_artist=M, year=2012)
    b.song(f"{du}/04 Salt.mp3", "id3v24", 5.2,
           Tags("Salt", ["Salt/Pepper feat. Ada North"], "Duets", M, (4, 4), (1, 1), "2012", ["Jazz"], []),
           credited=["Salt/Pepper", "Ada North"], album_artist=M, year=2012)

    # --- Lucía Ferrer / Noches: Ogg Vorbis; "featuring" credits.
    F = "Lucía Ferrer"
    no = "Lucia Ferrer/Noches"
    b.song(f"{no}/01 Cafe Noir.ogg", "ogg", 8.0,
           Tags("Café Noir", [F], "Noches", None, (1, 2), None, "1999", ["Latin"], ["Jean Dupont"]),
           credited=[F], album_artist=F, year=1999)
    b.song(f"{no}/02 Luz.ogg", "ogg", 7.3,
           Tags("Luz", [f"{F} featuring Ben Reed, Ada North"], "Noches", None, (2, 2), None, "1999", ["Latin"], []),
           credited=[F, "Ben Reed", "Ada North"], album_artist=F, year=1999)

    # --- Lucía Ferrer / Grandes Éxitos: Opus, artist and album written in NFD.
    ge = "Lucia Ferrer/Grandes Exitos"
    b.song(f"{ge}/01 Cafe Noir.opus", "opus", 10.0,      # 2.0 s longer than on Noches
           Tags("Café Noir", [unicodedata.normalize("NFD", F)], unicodedata.normalize("NFD", "Grandes Éxitos"), None,
                (1, 1), None, "2015", ["Latin"], ["Jean Dupont"], "96"),
           credited=[F], album_artist=F, year=2015, bpm=96)

    # --- Kite & Crane: FLAC with a title in other case and spacing; WAV with an id3 chunk.
    K = "Kite & Crane"
    pk = "Kite & Crane/Paper Kites"
    b.song(f"{pk}/01 cafe noir.flac", "flac", 7.7,
           Tags("  CAFÉ   noir ", [K], "Paper Kites", K, (1, 2), None, "2018", ["Electronic"], ["Jean Dupont"], "140"),
           title="CAFÉ   noir", credited=[K], album_artist=K, year=2018, bpm=140)
    b.song(f"{pk}/02 Slow Tide.flac", "flac", 20.0,
           Tags("Slow Tide", [K], "Paper Kites", K, (2, 2), None, "2018", ["Electronic"], []),
           credited=[K], album_artist=K, year=2018)
    b.song("Kite & Crane/Tide Pools/01 Slow Tide.wav", "wav", 16.1,   # 3.9 s shorter, another album
           Tags("Slow Tide", [K], "Tide Pools", None, (1, 1), None, "2019", ["Ambient"], []),
           credited=[K], album_artist=K, year=2019)

    # --- A compilation: three formats, no album artist, compilation flags → Various Artists.
    va = "Various/Quintet Sampler 2"
    sampler_art = b.art(f"{va}/cover.png", "cyan", "png")
    V = "Various Artists"
    b.song(f"{va}/01 Copper Sky.mp3", "id3v24", 13.3,        # 1.0 s longer than on Copper Sky
           Tags("Copper Sky", [L], "Quintet Sampler 2", None, (1, 3), (1, 1), "2020", ["Rock"], ["Ada North"],
                compilation=True),
           credited=[L], album_artist=V, year=2020)
    b.song(f"{va}/02 Two Voices.flac", "flac", 15.5,         # the duet again, names in the other order
           Tags("Two Voices", ["Ben Reed", M], "Quintet Sampler 2", None, (2, 3), (1, 1), "2020", ["Jazz"],
                ["Ben Reed", "Ada North"], compilation=True),
           credited=["Ben Reed", M], album_artist=V, year=2020)
    b.song(f"{va}/03 Harbour Lights.m4a", "m4a", 25.0,       # 13 s longer than on B-Sides
           Tags("Harbour Lights", [L], "Quintet Sampler 2", None, (3, 3), (1, 1), "2020", ["Folk"], [], compilation=True),
           credited=[L], album_artist=V, year=2020)

    # --- ID3v2.3's own separator: TPE1 "A/B" (how mutagen writes a v2.3 list) names two
    #     artists, so the song is identical to the FLAC with ARTIST=A and ARTIST=B; the display
    #     stays "A/B". "Salt/Pepper", which the ID3v2.4 Duets credit names whole, stays whole.
    tw = "Ada North/Twin Rivers"
    b.song(f"{tw}/01 Twin Rivers.mp3", "id3v23", 8.4,
           Tags("Twin Rivers", ["Ada North/Ben Reed"], "Twin Rivers", None, (1, 2), None, "2016", ["Folk"], []),
           credited=["Ada North", "Ben Reed"], album_artist="Ada North", year=2016)
    b.song(f"{tw}/02 Salt Song.mp3", "id3v23", 5.5,
           Tags("Salt Song", ["Salt/Pepper"], "Twin Rivers", "Ada North", (2, 2), None, "2016", ["Folk"], []),
           credited=["Salt/Pepper"], album_artist="Ada North", year=2016)
    b.song("Ada North/Rivers Live/01 Twin Rivers.flac", "flac", 10.4,     # 2.0 s longer, another album
           Tags("Twin Rivers", ["Ben Reed", "Ada North"], "Rivers Live", None, (1, 1), None, "2017", ["Folk"], []),
           credited=["Ben Reed", "Ada North"], album_artist="Ben Reed", year=2017)

    # --- Misc: ID3v1 only; other composer; songs without an album; no tags at all; booklet.jpg.
    b.song("Misc/Tape Days/07 Glass River.mp3", "id3v1", 8.8,
           Tags("Glass River", ["Northern Lights"], "Tape Days", None, (7, None), None, "1995", ["Jazz"], []),
           credited=["Northern Lights"], album_artist="Northern Lights", year=1995)
    b.song("Misc/Glass River (other).wav", "wav", 6.4,
           Tags("Glass River", ["Ada North"], "Writers", None, (1, None), None, "2021", [], ["Other Writer"]),
           credited=["Ada North"], album_artist="Ada North", year=2021)
    loose = "Misc/Loose"
    b.art(f"{loose}/booklet.jpg", "white", "jpeg")      # not a cover name: no album cover
    b.song(f"{loose}/Loose End.wav", "wav", 5.0,
           Tags("Loose End", ["Ada North"]), credited=["Ada North"], album_artist="Ada North")
    b.song(f"{loose}/Loose End.mp3", "id3v24", 6.0,
           Tags("Loose End", ["Ada North"]), credited=["Ada North"], album_artist="Ada North")
    b.song(f"{loose}/07 - Untagged Tune.wav", "none", 4.2, Tags(),
           title="Untagged Tune", credited=[], album_artist="Unknown Artist")

    # --- A folder outside the library, reached through a symbolic link (followed).
    outside_song = outside / "Far Away.mp3"
    make_audio(outside_song, "mp3", 7.1, 99)
    write_tags(outside_song, "id3v24", Tags("Far Away", ["Northern Lights"], "Far", None, (1, 1), None, "2022", ["Pop"]))
    (root / "Linked").mkdir()
    os.symlink(outside, root / "Linked" / "elsewhere")
    b.songs["Linked/elsewhere/Far Away.mp3"] = Song(
        path="Linked/elsewhere/Far Away.mp3", format="mp3", tagger="id3v24", title="Far Away",
        artist_text="Northern Lights", credited=["Northern Lights"], album="Far", album_artist="Northern Lights",
        track=1, year=2022, genre="Pop", duration=length(outside_song, "mp3"), nominal=7.1)

    # --- A symbolic link to a file outside the library: followed, a song under the link's path.
    lone = base / "outside-file" / "Lone Star.mp3"
    make_audio(lone, "mp3", 6.3, 98)
    write_tags(lone, "id3v24", Tags("Lone Star", ["Lone Rider"], "Solo", None, (1, 1), None, "2023", ["Pop"]))
    os.symlink(lone, root / "Linked" / "Lone Star.mp3")
    b.songs["Linked/Lone Star.mp3"] = Song(
        path="Linked/Lone Star.mp3", format="mp3", tagger="id3v24", title="Lone Star",
        artist_text="Lone Rider", credited=["Lone Rider"], album="Solo", album_artist="Lone Rider",
        track=1, year=2023, genre="Pop", duration=length(lone, "mp3"), nominal=6.3)

    # --- What must be reported, not stored.
    errors: dict[str, str | None] = {}
    # A symbolic link to a song elsewhere in the library (its path sorts first): the same file,
    # so no second song; the real path wins and the link is reported.
    (root / "Favourites").mkdir()
    os.symlink(f"../{cs}/1-01 Copper Sky.mp3", root / "Favourites" / "Copper Sky.mp3")
    errors["Favourites/Copper Sky.mp3"] = "link"
    second_paths = {"Favourites/Copper Sky.mp3"}
    broken = root / "Broken"
    broken.mkdir()
    (broken / "empty.mp3").write_bytes(b"")
    errors["Broken/empty.mp3"] = "empty"
    def id3_end(data: bytes) -> int:   # the ID3v2 header's size is synchsafe (7 bits a byte)
        assert data[:3] == b"ID3"
        return 10 + (data[6] << 21 | data[7] << 14 | data[8] << 7 | data[9])

    # Cut inside its ID3v2 tag: the tag runs past the end and no audio is left.
    cut = broken / "truncated.mp3"
    make_audio(cut, "mp3", 5.0, 77)
    # A large APIC of a PNG signature and zeros: no byte pattern that could pass for an MPEG frame.
    write_tags(cut, "id3v24", Tags("Cut Short", ["Nobody"], "Nowhere", picture=b"\x89PNG\r\n\x1a\n" + bytes(16384)))
    whole = cut.read_bytes()
    assert id3_end(whole) > 16384
    cut.write_bytes(whole[: id3_end(whole) // 2])
    errors["Broken/truncated.mp3"] = None
    # Cut in the middle of its audio: the tags are whole, so it is a song (its duration, which
    # the Xing header still claims in full, is not checked).
    half = b.song("Broken/half a song.mp3", "id3v24", 6.0, Tags("Half a Song", ["Nobody"], "Nowhere", None, (1, 1)),
                  credited=["Nobody"], album_artist="Nobody", check_duration=False)
    whole = (root / half.path).read_bytes()
    (root / half.path).write_bytes(whole[: id3_end(whole) + (len(whole) - id3_end(whole)) // 2])
    # A FLAC cut in the middle of its PICTURE block: STREAMINFO and the comments are whole,
    # but no audio frame is left, so it is an error like the MP3 cut inside its tag.
    cut_flac = broken / "cut picture.flac"
    make_audio(cut_flac, "flac", 5.0, 78)
    write_tags(cut_flac, "flac", Tags("Cut Picture", ["Nobody"], "Nowhere", picture=b"\x89PNG\r\n\x1a\n" + bytes(16384)))
    whole = cut_flac.read_bytes()
    start, size = flac_block(whole, 6)
    cut_flac.write_bytes(whole[: start + size // 2])
    errors["Broken/cut picture.flac"] = "no audio"
    (broken / "noise.flac").write_bytes(random.Random(1234).randbytes(8192))
    errors["Broken/noise.flac"] = None
    (broken / "not audio.ogg").write_text("This is a text file with an audio extension.\n")
    errors["Broken/not audio.ogg"] = None
    (root / "Loop").mkdir()
    os.symlink("..", root / "Loop" / "back")
    errors["Loop/back"] = "loop"
    skipped: dict[str, str] = {}
    if os.geteuid() != 0:
        locked = broken / "locked.mp3"
        shutil.copyfile(root / cs / "1-01 Copper Sky.mp3", locked)
        locked.chmod(0)
        errors["Broken/locked.mp3"] = None
        closed = root / "Closed"
        closed.mkdir()
        shutil.copyfile(root / cs / "1-02 Night Train.mp3", closed / "hidden.mp3")
        closed.chmod(0)
        errors["Closed"] = None
    else:
        skipped["unreadable file and folder"] = (
            "running as root, which can read any file and list any folder: chmod 000 cannot make "
            "them unreadable, so that sub-case is not planted")

    # --- Non-audio files: ignored, never errors.
    ignored = ["notes.txt", "Misc/Loose/booklet.jpg", "Misc/playlist.m3u", "Broken/readme.md"]
    (root / "notes.txt").write_text("Held-out library for Quintet's acceptance test.\n")
    (root / "Misc" / "playlist.m3u").write_text("#EXTM3U\nLoose/Loose End.mp3\n")
    (broken / "readme.md").write_text("# broken files\n")

    songs = b.songs
    # --- Related links, planted (by path); the rest must be absent.
    c_cs, c_live, c_maya = f"{cs}/2-01 Glass River.mp3", f"{live}/02 Glass River.flac", f"{mg}/01 Glass River.m4a"
    n_maya, n_noches, n_ge, n_kite = f"{du}/02 Cafe Noir.mp3", f"{no}/01 Cafe Noir.ogg", f"{ge}/01 Cafe Noir.opus", f"{pk}/01 cafe noir.flac"
    covers = {frozenset(p) for p in [
        (c_cs, c_maya), (c_live, c_maya),
        (n_maya, n_noches), (n_maya, n_ge), (n_maya, n_kite), (n_noches, n_kite), (n_ge, n_kite),
    ]}
    identical = {frozenset(p) for p in [
        (f"{cs}/1-02 Night Train.mp3", f"{live}/03 Night Train.flac"),                  # 3.9 s
        (f"{pk}/02 Slow Tide.flac", "Kite & Crane/Tide Pools/01 Slow Tide.wav"),         # 3.9 s
        (f"{cs}/1-01 Copper Sky.mp3", f"{va}/01 Copper Sky.mp3"),                        # 1.0 s
        (f"{du}/01 Two Voices.mp3", f"{va}/02 Two Voices.flac"),                         # 0.5 s, artists reordered
        (n_noches, n_ge),                                                                # 2.0 s, NFD artist
        ("Ada North/Twin Rivers/01 Twin Rivers.mp3", "Ada North/Rivers Live/01 Twin Rivers.flac"),  # v2.3 "A/B"
    ]}
    not_linked = [
        (c_cs, c_live, "a band's own live version: same artist, not a cover; 6.0 s apart, not identical"),
        (f"{cs}/2-02 Paper Moon.mp3", f"{bs}/01 Paper Moon.ogg", "4.1 s apart: not identical"),
        (f"{live}/04 Echo.flac", f"{live}/05 echo.flac", "same album: not identical"),
        (f"{loose}/Loose End.wav", f"{loose}/Loose End.mp3", "both without an album: not identical"),
        (n_maya, f"{du}/03 Cafe Noir (Live).mp3", "'(Live)' makes another title"),
        (f"{cs}/1-01 Copper Sky.mp3", f"{live}/01 Copper Sky (Live).flac", "'(Live)' makes another title"),
        ("Misc/Tape Days/07 Glass River.mp3", c_maya, "no composer: not a cover"),
        ("Misc/Glass River (other).wav", c_maya, "another composer: not a cover"),
        (f"{bs}/02 Harbour Lights.ogg", f"{va}/03 Harbour Lights.m4a", "13 s apart and no composer"),
    ]
    check_planted_durations(songs, identical, not_linked)
    check_rules_agree(songs, covers, identical)

    # --- Albums, from the songs (docs/library.md, "The scanner", step 4).
    albums: dict[tuple[str, str], Album] = {}
    for song in sorted(songs.values(), key=lambda s: s.path):
        key = song.album_key
        if key not in albums:
            albums[key] = Album(song.album, song.album_artist, None, 1, False, [], None, None, None)
        albums[key].song_paths.append(song.path)
    for key, album in albums.items():
        members = [songs[p] for p in album.song_paths]
        years = [s.year for s in members if s.year is not None]
        album.year = min(years) if years else None
        album.compilation = any(s.compilation for s in members)
        first_folder = min(album.song_paths).rpartition("/")[0]
        ranked = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png"]
        folder_images = [p for p in b.folder_art
                         if p.rpartition("/")[0] == first_folder and p.rpartition("/")[2].lower() in ranked]
        folder_images.sort(key=lambda p: ranked.index(p.rpartition("/")[2].lower()))
        if folder_images:
            album.cover, album.cover_from = b.folder_art[folder_images[0]], "folder"
        else:
            pictures = {s.picture for s in members if s.picture}
            assert len(pictures) <= 1, f"album {album.title}: planted pictures must agree"
            if pictures:
                album.cover, album.cover_from = pictures.pop(), "embedded"
        album.cover_type = mime(album.cover) if album.cover else None
    # Disc counts: the largest disc number or total.
    disc_counts = {songs[f"{cs}/1-01 Copper Sky.mp3"].album_key: 2}
    for key, album in albums.items():
        album.disc_count = disc_counts.get(key, 1)
    assert albums[songs[f"{live}/01 Copper Sky (Live).flac"].album_key].cover == folder_blue
    assert albums[songs[f"{va}/01 Copper Sky.mp3"].album_key].cover == sampler_art

    artists = set()
    for song in songs.values():
        artists.update(song.credited)
        artists.add(song.album_artist)
    return Manifest(
        root=root, songs=songs, albums=albums, artists=artists, covers=covers, identical=identical,
        not_linked=not_linked, errors=errors,
        # the walk counts every non-empty file with an audio extension, readable or not
        # (a second path to a file already found is reported, but not counted again)
        files=len(songs) + sum(1 for p in errors if p != "Broken/empty.mp3" and p not in second_paths
                               and p.rsplit(".", 1)[-1] in CODECS),
        ignored=ignored, skipped=skipped, second_paths=second_paths,
    )


def check_planted_durations(songs: dict[str, Song], identical: set[frozenset[str]], not_linked: list) -> None:
    """The planted gaps hold by mutagen's reading too (so a failure is Quintet's, not ffmpeg's)."""
    for pair in identical:
        a, b = (songs[p] for p in sorted(pair))
        gap = abs(a.duration - b.duration)
        assert gap <= 3.95 and abs(gap - abs(a.nominal - b.nominal)) < 0.05, (a.path, b.path, gap)
    moon = [songs[p] for p in ("The Lanterns/Copper Sky/2-02 Paper Moon.mp3", "The Lanterns/B-Sides/01 Paper Moon.ogg")]
    gap = abs(moon[0].duration - moon[1].duration)
    assert 4.05 <= gap <= 4.15, gap


def check_rules_agree(songs: dict[str, Song], covers: set[frozenset[str]], identical: set[frozenset[str]]) -> None:
    """The planted link list is exactly what docs/library.md's rules give (a self-check of the generator)."""
    got_covers, got_identical = set(), set()
    paths = sorted(songs)
    for i, p in enumerate(paths):
        for q in paths[i + 1:]:
            a, b = songs[p], songs[q]
            if name_key(a.title) != name_key(b.title):
                continue
            ca = {name_key(c) for c in a.composers} - {""}
            cb = {name_key(c) for c in b.composers} - {""}
            aa = {name_key(x) for x in a.credited} - {""}
            ab = {name_key(x) for x in b.credited} - {""}
            if ca and ca == cb and aa != ab:
                got_covers.add(frozenset((p, q)))
            if aa and aa == ab and abs(a.nominal - b.nominal) <= 4.0 + 1e-9 and a.album_key != b.album_key:
                got_identical.add(frozenset((p, q)))
    assert got_covers == covers, (got_covers ^ covers)
    assert got_identical == identical, (got_identical ^ identical)


if __name__ == "__main__":
    import sys
    import tempfile

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="heldout-"))
    m = generate(target)
    print(f"{m.root}: {len(m.songs)} songs, {len(m.albums)} albums, {len(m.artists)} artists, "
          f"{m.files} audio files, {len(m.errors)} errors planted")
