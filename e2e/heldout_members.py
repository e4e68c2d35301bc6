"""A held-out library of bands and their members, made only with third-party tools, the
MusicBrainz answers a stand-in server replays for it, and the member links Quintet must find.

Audio comes from ffmpeg (short sine tones as MP3, FLAC, Ogg Vorbis and M4A), tags from mutagen
in every style that carries member credits (docs/graph.md, "Band members"):

- ID3v2.4 `TMCL` (musician credits) and `TIPL` (involved people, a producer beside a singer),
- ID3v2.3 `IPLS` (mutagen's `update_to_v23()` turns TMCL/TIPL into it, as in Picard's v2.3 files)
  and `TXXX:MusicBrainz Artist Id`,
- Vorbis `PERFORMER=Name (role)` (Picard's form) and `MUSICBRAINZ_ARTISTID` in FLAC, and
  `PERFORMER` in Ogg Vorbis,
- MP4 freeform `----:com.apple.iTunes:MusicBrainz Artist Id` (Picard writes no performer atom
  to MP4).

Planted on purpose: a producer, an engineer and a guest player credited on band songs (not
members), credited musicians who are not artists of the library (no link), a MusicBrainz
relation of another type ("collaboration"), MusicBrainz members absent from the library, a
band looked up by the id in its tags (no search), a name two MusicBrainz artists share
(refused as ambiguous: the second one's members must not appear), a lookup the stand-in fails
once (retried), and user relations (one repeating a tag link). Nothing here calls Quintet.

`generate(root)` writes the library under `root/library` and returns a `Manifest`: the links
expected before any lookup (tags only), after the user relations and lookups, the stand-in's
answers by artist name and MusicBrainz id, and the lookup state each looked-up artist must end in.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from mutagen import id3
from mutagen.flac import FLAC
from mutagen.mp4 import MP4, MP4FreeForm
from mutagen.oggvorbis import OggVorbis

FFMPEG = shutil.which("ffmpeg") or "ffmpeg"

MEMBER_OF_BAND = "5be4c609-9afa-4ea0-910b-12ffb71e3821"
COLLABORATION = "75c09861-6857-4ec0-9729-84eefde7fc86"


def mbid(n: int) -> str:
    """A well-formed MusicBrainz id, distinct per n."""
    h = f"{n:032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:]}"


IDS = {
    "The Lighthouse Keepers": mbid(0x1001), "Copper Tide": mbid(0x1002), "Velvet Static": mbid(0x1003),
    "Night Ferry": mbid(0x1004), "Echo Parade": mbid(0x1005), "Sol Varga": mbid(0x1006),
    "Mara Quill": mbid(0x2001), "Olin Brandt": mbid(0x2002), "Lena Marsh": mbid(0x2003), "Tess Lorne": mbid(0x2004),
    "Guest Star": mbid(0x2005), "Nobody Known": mbid(0x2006), "Kai Moss": mbid(0x2007),
    "Twin Name (folk duo)": mbid(0x3001), "Twin Name (techno)": mbid(0x3002),
}


@dataclass
class Manifest:
    library: Path
    artists: set[str]                                   # every artist the catalog lists
    tag_links: set[tuple[str, str, tuple[str, ...]]]   # (band, member, sources) from tags alone
    user_relations: list[tuple[str, str]]               # (band, member) to add with the CLI
    links: set[tuple[str, str, tuple[str, ...]]]       # every link at the end
    look_up: dict[str, str]                             # artist -> state after the first lookup
    fails_once: str                                     # the artist whose first lookup fails
    searches: dict[str, list[dict]] = field(default_factory=dict)   # name -> search answer's artists
    lookups: dict[str, dict] = field(default_factory=dict)          # mbid -> lookup answer
    never_asked: set[str] = field(default_factory=set)              # mbids that must never be asked for


def run_ffmpeg(*args: str) -> None:
    subprocess.run([FFMPEG, "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


CODECS = {"mp3": ["-c:a", "libmp3lame", "-b:a", "64k"], "flac": ["-c:a", "flac"], "ogg": ["-c:a", "libvorbis", "-q:a", "1"],
          "m4a": ["-c:a", "aac", "-b:a", "64k"]}


def relation(direction: str, name: str, kind: str = "member of band") -> dict:
    """A relation as MusicBrainz's lookup with inc=artist-rels writes it."""
    return {
        "type": kind, "type-id": MEMBER_OF_BAND if kind == "member of band" else COLLABORATION,
        "direction": direction, "target-type": "artist", "attributes": ["original"] if kind == "member of band" else [],
        "attribute-values": {}, "attribute-ids": {}, "begin": "1998", "end": None, "ended": False,
        "source-credit": "", "target-credit": "",
        "artist": {"id": IDS[name], "name": name.split(" (")[0], "sort-name": name, "disambiguation": "",
                   "type": "Person", "type-id": "b6e035f4-3ce9-331c-97df-83397230b0df"},
    }


def artist(name: str, kind: str, relations: list[dict] | None = None, disambiguation: str = "") -> dict:
    body = {"id": IDS[name if not disambiguation else f"{name} ({disambiguation})"], "name": name, "sort-name": name,
            "type": kind, "disambiguation": disambiguation, "country": "GB",
            "life-span": {"begin": "1998", "end": None, "ended": False}}
    if relations is not None:
        body["relations"] = relations
    return body


def search_entry(name: str, kind: str, score: int, disambiguation: str = "") -> dict:
    entry = artist(name, kind, disambiguation=disambiguation)
    entry["score"] = score
    return entry


def generate(root: Path) -> Manifest:
    library = root / "library"
    sources = root / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    for kind, codec in CODECS.items():
        run_ffmpeg("-f", "lavfi", "-i", "sine=frequency=330:sample_rate=44100:duration=0.6", "-map_metadata", "-1",
                   "-ac", "1", *codec, str(sources / f"tone.{kind}"))

    def copy(kind: str, path: str) -> Path:
        target = library / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sources / f"tone.{kind}", target)
        return target

    def mp3(path: str, artist_name: str, title: str, album: str, frames: list, version: int = 4) -> None:
        target = copy("mp3", path)
        tags = id3.ID3()
        tags.add(id3.TPE1(encoding=3, text=[artist_name]))
        tags.add(id3.TIT2(encoding=3, text=[title]))
        tags.add(id3.TALB(encoding=3, text=[album]))
        for frame in frames:
            tags.add(frame)
        if version == 3:
            tags.update_to_v23()  # what Picard does before a v2.3 save: TMCL and TIPL become IPLS
        tags.save(target, v2_version=version, v23_sep="/")

    # Solo artists and other names of the library, one song each (ID3v2.4, no credits).
    solo = ["Mara Quill", "Olin Brandt", "Pia Sol", "Rex Dial", "Lena Marsh", "Juno Park", "Guest Star", "Sol Varga",
            "Tess Lorne", "Kai Moss"]
    for number, name in enumerate(solo, 1):
        mp3(f"solo/{number:02d} {name}.mp3", name, f"{name} Alone", f"{name} Solo", [])

    # ID3v2.4: TMCL musicians (one absent from the library), TIPL with a singer and a producer.
    mp3("lighthouse/01.mp3", "The Lighthouse Keepers", "Beacon", "Lamps", [
        id3.TMCL(encoding=3, people=[["guitar", "Mara Quill"], ["drums", "Olin Brandt"], ["bass", "Absent Person"]]),
        id3.TIPL(encoding=3, people=[["vocals", "Pia Sol"], ["producer", "Rex Dial"]]),
    ])
    # ID3v2.3: the credits as IPLS (mutagen's update_to_v23); the MusicBrainz id as TXXX (UTF-16).
    mp3("copper/01.mp3", "Copper Tide", "Verdigris", "Patina", [
        id3.TIPL(encoding=1, people=[["piano", "Lena Marsh"], ["engineer", "Rex Dial"]]),
        id3.TXXX(encoding=1, desc="MusicBrainz Artist Id", text=[IDS["Copper Tide"]]),
    ], version=3)
    raw = (library / "copper/01.mp3").read_bytes()
    assert b"IPLS" in raw[:400] and b"TIPL" not in raw[:400], "mutagen did not write IPLS for ID3v2.3"
    # The band two MusicBrainz artists are named like: no credits, refused as ambiguous.
    mp3("twin/01.mp3", "Twin Name", "Mirror", "Double", [])

    # FLAC: Picard's PERFORMER form, a guest, and the MusicBrainz id.
    flac = FLAC(copy("flac", "velvet/01.flac"))
    flac["ARTIST"] = "Velvet Static"
    flac["TITLE"] = "Hiss"
    flac["ALBUM"] = "Noise Floor"
    flac["PERFORMER"] = ["Juno Park (lead vocals)", "Guest Star (guest saxophone)"]
    flac["MUSICBRAINZ_ARTISTID"] = IDS["Velvet Static"]
    flac.save()

    # Ogg Vorbis: PERFORMER.
    ogg = OggVorbis(copy("ogg", "echo/01.ogg"))
    ogg["ARTIST"] = "Echo Parade"
    ogg["TITLE"] = "Reverb"
    ogg["ALBUM"] = "Delay Lines"
    ogg["PERFORMER"] = ["Tess Lorne (drums)"]
    ogg.save()

    # MP4: the MusicBrainz id as a freeform atom.
    m4a = MP4(copy("m4a", "ferry/01.m4a"))
    m4a["\xa9ART"] = ["Night Ferry"]
    m4a["\xa9nam"] = ["Crossing"]
    m4a["\xa9alb"] = ["Harbour Lights"]
    m4a["----:com.apple.iTunes:MusicBrainz Artist Id"] = [MP4FreeForm(IDS["Night Ferry"].encode())]
    m4a.save()

    manifest = Manifest(
        library=library,
        artists=set(solo) | {"The Lighthouse Keepers", "Copper Tide", "Twin Name", "Velvet Static", "Echo Parade", "Night Ferry"},
        tag_links={
            ("The Lighthouse Keepers", "Mara Quill", ("tags",)),
            ("The Lighthouse Keepers", "Olin Brandt", ("tags",)),
            ("The Lighthouse Keepers", "Pia Sol", ("tags",)),
            ("Copper Tide", "Lena Marsh", ("tags",)),
            ("Velvet Static", "Juno Park", ("tags",)),
            ("Echo Parade", "Tess Lorne", ("tags",)),
        },
        user_relations=[("Velvet Static", "Juno Park"), ("Echo Parade", "Kai Moss")],
        links={
            ("The Lighthouse Keepers", "Mara Quill", ("tags", "musicbrainz")),
            ("The Lighthouse Keepers", "Olin Brandt", ("tags",)),
            ("The Lighthouse Keepers", "Pia Sol", ("tags",)),
            ("Copper Tide", "Lena Marsh", ("tags", "musicbrainz")),
            ("Copper Tide", "Olin Brandt", ("musicbrainz",)),
            ("Velvet Static", "Juno Park", ("tags", "user")),
            ("Night Ferry", "Sol Varga", ("musicbrainz",)),
            ("Echo Parade", "Tess Lorne", ("tags", "musicbrainz")),
            ("Echo Parade", "Kai Moss", ("user",)),
        },
        look_up={"The Lighthouse Keepers": "ok", "Copper Tide": "ok", "Velvet Static": "ok", "Night Ferry": "ok",
                 "Sol Varga": "ok", "Twin Name": "ambiguous", "Echo Parade": "failed"},
        fails_once="Echo Parade",
    )
    # What the stand-in answers: searches by name (the bands found by their tags' id are never
    # searched), lookups by id.
    manifest.searches = {
        "The Lighthouse Keepers": [search_entry("The Lighthouse Keepers", "Group", 100),
                                   search_entry("Mara Quill", "Person", 41)],
        "Sol Varga": [search_entry("Sol Varga", "Person", 100)],
        "Twin Name": [search_entry("Twin Name", "Group", 100, "folk duo"), search_entry("Twin Name", "Group", 100, "techno")],
        "Echo Parade": [search_entry("Echo Parade", "Group", 100)],
    }
    manifest.lookups = {
        IDS["The Lighthouse Keepers"]: artist("The Lighthouse Keepers", "Group", [relation("backward", "Mara Quill"),
                                                                            relation("backward", "Nobody Known")]),
        IDS["Copper Tide"]: artist("Copper Tide", "Group", [relation("backward", "Lena Marsh"), relation("backward", "Olin Brandt")]),
        IDS["Velvet Static"]: artist("Velvet Static", "Group", [relation("backward", "Guest Star", "collaboration")]),
        IDS["Night Ferry"]: artist("Night Ferry", "Group", [relation("backward", "Sol Varga")]),
        IDS["Sol Varga"]: artist("Sol Varga", "Person", [relation("forward", "Night Ferry")]),
        IDS["Echo Parade"]: artist("Echo Parade", "Group", [relation("backward", "Tess Lorne")]),
        IDS["Twin Name (folk duo)"]: artist("Twin Name", "Group", [relation("backward", "Kai Moss")], "folk duo"),
        IDS["Twin Name (techno)"]: artist("Twin Name", "Group", [relation("backward", "Kai Moss")], "techno"),
    }
    # Neither "Twin Name" may be looked up (refused), nor a search hit of another name.
    manifest.never_asked = {IDS["Twin Name (folk duo)"], IDS["Twin Name (techno)"], IDS["Mara Quill"]}
    (root / "answers.json").write_text(json.dumps({"searches": manifest.searches, "lookups": manifest.lookups}, indent=1))
    return manifest
