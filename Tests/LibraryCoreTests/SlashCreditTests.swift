import Foundation
import LibraryCore
import Testing

@Suite("ID3v2.2/2.3 name lists: \"/\" separates names, except names the library knows whole")
struct SlashCreditTests {
    @Test("the split: pieces trimmed, empty ones dropped, known runs kept whole (longest first)")
    func split() {
        let known: Set<String> = ["AC/DC", "A/B/C"]
        func split(_ name: String) -> [String] {
            ArtistCredit.slashSeparated(name, isKnown: { name in known.contains { NameKey($0) == NameKey(name) } })
        }
        #expect(split("Ada North/Ben Reed") == ["Ada North", "Ben Reed"])
        #expect(split("Ada North / Ben Reed /") == ["Ada North", "Ben Reed"])
        #expect(split("AC/DC") == ["AC/DC"])
        #expect(split("ac/dc/Ada North") == ["ac/dc", "Ada North"])
        #expect(split("Ada/AC/DC") == ["Ada", "AC/DC"])
        #expect(split("A/B/C/D") == ["A/B/C", "D"])       // the longest known run wins over none
        #expect(split("No Slash") == ["No Slash"])
        // With "feat." the split comes after the featuring split, for main and featured names.
        #expect(ArtistCredit.names(artists: ["A/B feat. C/AC/DC"], title: "T (feat. X/Y)", splittingAtSlash: true,
                                   knownNames: ["AC/DC"]) == ["A", "B", "C", "AC/DC", "X/Y"])
        // Not an ID3v2.2/2.3 list: nothing splits at "/".
        #expect(ArtistCredit.names(artists: ["A/B"], title: nil, splittingAtSlash: false, knownNames: []) == ["A/B"])
        // A hostile value costs a bounded number of lookups per piece.
        var lookups = 0
        let many = Array(repeating: "x", count: 2_000).joined(separator: "/")
        #expect(ArtistCredit.slashSeparated(many, isKnown: { _ in lookups += 1; return false }).count == 2_000)
        #expect(lookups <= 2_000 * 7)
    }

    static func credited(_ f: CatalogFixture, songID: Int64) throws -> Set<String> {
        Set(try f.catalog.artists(userID: nil).filter { artist in
            try f.catalog.songs(ofArtist: artist.id, userID: nil).contains { $0.id == songID }
        }.map(\.name))
    }

    @Test("v2.3 TPE1 \"A/B\" is identical to a FLAC with ARTIST=A and ARTIST=B; the display stays \"A/B\"")
    func identicalAcrossFormats() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try MP3Fixture.write(f.root, "Duo/Single/01.mp3", major: 3, [("TIT2", ["Two Voices"]), ("TPE1", ["Ada North/Ben Reed"]),
                                                                    ("TALB", ["Single"]), ("TCOM", ["Cy Twombly/Dee Dee"])], seconds: 10)
        try FLACFixture.write(f.root, "Duo/Album/01.flac", ["TITLE=Two Voices", "ARTIST=Ben Reed", "ARTIST=Ada North",
                                                            "ALBUM=Album", "COMPOSER=Dee Dee", "COMPOSER=Cy Twombly"], seconds: 11)
        // ID3v2.2 splits too; ID3v2.4 has NUL for that and keeps "/" whole (which makes
        // "Ada North/Cy Twombly" a name the library knows: it would stay whole in v2.3 too).
        try MP3Fixture.write(f.root, "Duo/Old/01.mp3", major: 2, [("TT2", ["Two Voices"]), ("TP1", ["Ben Reed/Ada North"]),
                                                                ("TAL", ["Old"])], seconds: 12)
        try MP3Fixture.write(f.root, "Duo/New/01.mp3", major: 4, [("TIT2", ["Two Voices"]), ("TPE1", ["Ada North/Cy Twombly"]),
                                                                ("TALB", ["New"])], seconds: 10)
        let report = try f.scan()
        #expect(report.errors.isEmpty && report.songs == 4)
        let v23 = try f.song(at: "Duo/Single/01.mp3"), flac = try f.song(at: "Duo/Album/01.flac")
        let v22 = try f.song(at: "Duo/Old/01.mp3"), v24 = try f.song(at: "Duo/New/01.mp3")
        #expect(v23.artist == "Ada North/Ben Reed")                 // as written
        #expect(v23.composer == "Cy Twombly/Dee Dee")
        #expect(try Self.credited(f, songID: v23.id) == ["Ada North", "Ben Reed"])
        #expect(try Self.credited(f, songID: v22.id) == ["Ada North", "Ben Reed"])
        #expect(try Self.credited(f, songID: v24.id) == ["Ada North/Cy Twombly"])
        #expect(v23.albumArtist == "Ada North")                     // the first name, as for ARTIST=A, ARTIST=B
        #expect(Set(try f.catalog.related(songID: v23.id).identical.map(\.id)) == [flac.id, v22.id])
        #expect(Set(try f.catalog.related(songID: flac.id).identical.map(\.id)) == [v23.id, v22.id])
        #expect(try f.catalog.related(songID: v24.id).identical.isEmpty)
    }

    @Test("a name known whole elsewhere stays whole, whatever the reading order, and follows rescans",
          arguments: ["A Vorbis", "Z Vorbis"])
    func knownNames(vorbisFolder: String) throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try MP3Fixture.write(f.root, "M Band/Live/01.mp3", major: 3, [("TIT2", ["Thunder"]), ("TPE1", ["AC/DC/Ada North"]),
                                                                    ("TPE2", ["AC/DC"]), ("TALB", ["Live"])])
        let vorbis = try FLACFixture.write(f.root, "\(vorbisFolder)/Studio/01.flac",
                                           ["TITLE=Back", "ARTIST=AC/DC", "ALBUM=Studio"])
        // One file a batch: the FLAC is read before or after the MP3, in another batch.
        var scanner = CatalogScanner(catalog: f.catalog)
        scanner.batchSize = 1
        func mp3Credit() throws -> Set<String> { try Self.credited(f, songID: try f.song(at: "M Band/Live/01.mp3").id) }
        var report = try scanner.scan(root: f.root)
        #expect(report.errors.isEmpty)
        #expect(try mp3Credit() == ["AC/DC", "Ada North"])
        #expect(try f.song(at: "M Band/Live/01.mp3").albumArtist == "AC/DC")
        #expect(Set(try f.catalog.artists(userID: nil).map(\.name)) == ["AC/DC", "Ada North"])
        // An unchanged rescan reads nothing and changes nothing.
        report = try scanner.scan(root: f.root)
        #expect(report.read == 0 && report.unchanged == 2)
        #expect(try mp3Credit() == ["AC/DC", "Ada North"])
        // Without the song that names "AC/DC" whole, "/" separates names in the v2.3 tag again.
        let aside = f.root.deletingLastPathComponent().appendingPathComponent("aside.flac")
        try FileManager.default.moveItem(at: vorbis, to: aside)
        report = try scanner.scan(root: f.root)
        #expect(report.songs == 1 && report.read == 0)
        #expect(try mp3Credit() == ["AC", "DC", "Ada North"])
        #expect(try f.song(at: "M Band/Live/01.mp3").albumArtist == "AC")
        // And back.
        try FileManager.default.moveItem(at: aside, to: vorbis)
        report = try scanner.scan(root: f.root)
        #expect(report.songs == 2)
        #expect(try mp3Credit() == ["AC/DC", "Ada North"])
        #expect(Set(try f.catalog.artists(userID: nil).map(\.name)) == ["AC/DC", "Ada North"])
    }

    @Test("two v2.3 files writing \"A/B\" do not make it a known name for each other")
    func slashListsAreNoEvidence() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        for album in ["One", "Two"] {
            try MP3Fixture.write(f.root, "\(album)/01.mp3", major: 3, [("TIT2", ["Song"]), ("TPE1", ["Salt/Pepper"]),
                                                                     ("TALB", [album])])
        }
        _ = try f.scan()
        #expect(Set(try f.catalog.artists(userID: nil).map(\.name)) == ["Salt", "Pepper"])
    }
}
