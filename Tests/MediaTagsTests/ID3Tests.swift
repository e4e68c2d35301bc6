import Foundation
import Testing
@testable import MediaTags

@Suite("ID3 genres and text")
struct ID3GenreAndTextTests {
    @Test func genreTableHasTheWinampList() {
        #expect(ID3Genre.names.count == 192)
        #expect(ID3Genre.name(0) == "Blues")
        #expect(ID3Genre.name(17) == "Rock")
        #expect(ID3Genre.name(80) == "Folk")
        #expect(ID3Genre.name(191) == "Psybient")
        #expect(ID3Genre.name(192) == nil)
        #expect(ID3Genre.name(255) == nil)
        #expect(ID3Genre.name(-1) == nil)
    }

    @Test(arguments: [
        ("(17)", ["Rock"]), ("(17)Rock", ["Rock"]), ("17", ["Rock"]), ("(RX)", ["Remix"]), ("(CR)", ["Cover"]),
        ("RX", ["Remix"]), ("(17)(6)", ["Rock", "Grunge"]), ("(4)Eurodisco", ["Disco", "Eurodisco"]),
        ("((Foo) bar", ["(Foo) bar"]), ("Jazz", ["Jazz"]), ("(999)", ["(999)"]), ("(17", ["(17"]),
    ])
    func genreReferencesResolve(value: String, expected: [String]) {
        #expect(ID3FrameCollector.genres(value) == expected)
    }

    @Test func utf16WithoutBOMIsLittleEndianAndOddBytesAreDropped() {
        #expect(ID3Text.values([0x41, 0x00, 0x42, 0x00, 0x43][...], encoding: 1) == ["AB"])
        #expect(ID3Text.values([0xFE, 0xFF, 0x00, 0x41][...], encoding: 1) == ["A"])
        #expect(ID3Text.values([0x00, 0x41, 0x00, 0x00, 0x00, 0x42][...], encoding: 2) == ["A", "B"])
        #expect(ID3Text.values([0x41, 0x00, 0x00, 0x42][...], encoding: 0) == ["A", "B"])
        #expect(ID3Text.values([][...], encoding: 1) == [])
    }
}

@Suite("ID3v2")
struct ID3v2Tests {
    static let texts: [UInt8: String] = [0: "Café Noir", 1: "Café ☕ 日本 𝄞", 2: "Café ☕ 日本 𝄞", 3: "Café ☕ 日本 𝄞"]

    @Test(arguments: [2, 3, 4], [UInt8(0), 1, 2, 3])
    func textInEveryVersionAndEncoding(major: Int, encoding: UInt8) throws {
        let text = Self.texts[encoding]!
        let ids = major == 2 ? ["TT2", "TP1", "TAL", "TP2", "TCM"] : ["TIT2", "TPE1", "TALB", "TPE2", "TCOM"]
        let tag = ID3Build.tag(major: major, ids.map { ID3Build.text($0, [text], encoding, major: major) }, padding: 20)
        let tags = try ID3v2.read(tag)
        #expect(tags.title == text)
        #expect(tags.artists == [text])
        #expect(tags.album == text)
        #expect(tags.albumArtists == [text])
        #expect(tags.composers == [text])
    }

    @Test(arguments: [UInt8(0), 1, 2, 3])
    func multipleValuesAreKeptAndSlashesAreNotSplit(encoding: UInt8) throws {
        let tag = ID3Build.tag(major: 4, [ID3Build.text("TPE1", ["AC/DC", "Björk"], encoding),
                                          ID3Build.text("TCON", ["(17)", "Jazz", ""], encoding)])
        let tags = try ID3v2.read(tag)
        #expect(tags.artists == ["AC/DC", "Björk"])
        #expect(tags.genres == ["Rock", "Jazz"])
    }

    @Test(arguments: [2, 3, 4])
    func slashSeparatedListsAreMarkedInV22AndV23Only(major: Int) throws {
        let ids = major == 2 ? ["TP1", "TP2", "TCM", "TT2"] : ["TPE1", "TPE2", "TCOM", "TIT2"]
        let tag = ID3Build.tag(major: major, ids.map { ID3Build.text($0, ["Ada North/Ben Reed"], 1, major: major) })
        let tags = try ID3v2.read(tag)
        // The values stay as written; only the convention is recorded.
        #expect(tags.artists == ["Ada North/Ben Reed"] && tags.albumArtists == ["Ada North/Ben Reed"])
        #expect(tags.composers == ["Ada North/Ben Reed"] && tags.title == "Ada North/Ben Reed")
        #expect(tags.slashSeparated == (major < 4 ? [.artists, .albumArtists, .composers] : []))
        // Only the lists the tag filled are marked.
        let onlyArtist = try ID3v2.read(ID3Build.tag(major: major, [ID3Build.text(ids[0], ["A/B"], 0, major: major)]))
        #expect(onlyArtist.slashSeparated == (major < 4 ? [.artists] : []))
    }

    @Test func aListFilledFromAnotherTagKeepsThatTagsConvention() throws {
        // ID3v2.3 with a composer but no artist, then ID3v1 (no "/" convention) gives the artist.
        let v23 = ID3Build.tag(major: 3, [ID3Build.text("TCOM", ["Ada North/Ben Reed"], 0, major: 3)])
        let file = v23 + MPEGBuild.cbr(count: 4) + ID3Build.v1(title: "T", artist: "AC/DC")
        let tags = try MP3File.read(DataByteSource(file)).tags
        #expect(tags.artists == ["AC/DC"] && tags.composers == ["Ada North/Ben Reed"])
        #expect(tags.slashSeparated == [.composers])
        // An ID3v2.4 tag after a v2.3 one fills only what the first lacks.
        let v24 = ID3Build.tag(major: 4, [ID3Build.text("TPE1", ["AC/DC"]), ID3Build.text("TCOM", ["X/Y"])])
        let both = try MP3File.read(DataByteSource(v23 + v24 + MPEGBuild.cbr(count: 4))).tags
        #expect(both.artists == ["AC/DC"] && both.composers == ["Ada North/Ben Reed"])
        #expect(both.slashSeparated == [.composers])
    }

    @Test func utf16ValuesEachWithTheirOwnBOM() throws {
        let body: [UInt8] = [1] + ID3Build.encode("Ann", 1) + [0, 0] + ID3Build.encode("Bob", 1, bigEndianBOM: true)
        let tags = try ID3v2.read(ID3Build.tag(major: 4, [ID3Build.frame("TPE1", body, major: 4)]))
        #expect(tags.artists == ["Ann", "Bob"])
    }

    @Test func numbersDatesBPMAndCompilation() throws {
        let tags = try ID3v2.read(ID3Build.tag(major: 4, [
            ID3Build.text("TRCK", ["3/12"]), ID3Build.text("TPOS", ["1/2"]), ID3Build.text("TDRC", ["1997-05-12"]),
            ID3Build.text("TBPM", ["128"]), ID3Build.text("TCMP", ["1"]),
        ]))
        #expect(tags.trackNumber == 3 && tags.trackTotal == 12)
        #expect(tags.discNumber == 1 && tags.discTotal == 2)
        #expect(tags.date == "1997-05-12" && tags.year == 1997)
        #expect(tags.bpm == 128)
        #expect(tags.compilation)
    }

    @Test func v23YearAndDateCombine() throws {
        let tags = try ID3v2.read(ID3Build.tag(major: 3, [
            ID3Build.text("TDAT", ["1205"], 0, major: 3), ID3Build.text("TYER", ["1997"], 0, major: 3),
        ]))
        #expect(tags.date == "1997-05-12")
        #expect(tags.year == 1997)
        let yearOnly = try ID3v2.read(ID3Build.tag(major: 2, [ID3Build.text("TYE", ["2001"], 0, major: 2)]))
        #expect(yearOnly.date == "2001" && yearOnly.year == 2001)
    }

    @Test func commentsPreferNoDescriptionAndSkipITunes() throws {
        let tags = try ID3v2.read(ID3Build.tag(major: 3, [
            ID3Build.comment(" 0000 1111", description: "iTunNORM", 0, major: 3),
            ID3Build.comment("described", description: "note", 1, major: 3),
            ID3Build.comment("plain", 1, major: 3),
        ]))
        #expect(tags.comment == "plain")
        let v22 = try ID3v2.read(ID3Build.tag(major: 2, [ID3Build.comment("old", 0, major: 2)]))
        #expect(v22.comment == "old")
    }

    @Test func userTextAndUnknownTextFramesGoToCustom() throws {
        let tags = try ID3v2.read(ID3Build.tag(major: 4, [
            ID3Build.userText("MusicBrainz Track Id", ["abc-123"]),
            ID3Build.userText("replaygain_track_gain", ["-6.5 dB"], 1),
            ID3Build.text("TSSE", ["Lavf61"]),
        ]))
        #expect(tags.custom["MUSICBRAINZ TRACK ID"] == ["abc-123"])
        #expect(tags.custom["REPLAYGAIN_TRACK_GAIN"] == ["-6.5 dB"])
        #expect(tags.custom["TSSE"] == ["Lavf61"])
        let v22 = try ID3v2.read(ID3Build.tag(major: 2, [ID3Build.userText("Mood", ["calm"], 0, major: 2),
                                                          ID3Build.text("TZZ", ["odd"], 0, major: 2)]))
        #expect(v22.custom["MOOD"] == ["calm"])
        #expect(v22.custom["TZZ"] == ["odd"])
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0xFF, 0x00, 0xFF, 0xFF, 0xE1, 0xFF]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0xFF]

    @Test(arguments: [UInt8(0), 1, 3])
    func attachedPictures(encoding: UInt8) throws {
        let description = encoding == 0 ? "Back é" : "Back ☕"
        let tags = try ID3v2.read(ID3Build.tag(major: 4, [
            ID3Build.picture(Self.png, mime: "image/png", type: 4, description: description, encoding),
            ID3Build.picture(Self.jpeg, mime: "", type: 3, description: "", encoding),
        ]))
        #expect(tags.pictures.count == 2)
        #expect(tags.pictures[0].mimeType == "image/png" && tags.pictures[0].type == 4)
        #expect(tags.pictures[0].description == description)
        #expect(tags.pictures[0].data == Data(Self.png))
        #expect(tags.cover?.mimeType == "image/jpeg")
        #expect(tags.cover?.data == Data(Self.jpeg))
    }

    @Test func v22PictureFormatsBecomeMIMETypes() throws {
        let tags = try ID3v2.read(ID3Build.tag(major: 2, [
            ID3Build.picture(Self.jpeg, mime: "JPG", major: 2), ID3Build.picture(Self.png, mime: "PNG", type: 0, major: 2),
            ID3Build.picture(Self.png, mime: "XYZ", type: 0, major: 2),
        ]))
        #expect(tags.pictures.map(\.mimeType) == ["image/jpeg", "image/png", "image/png"])
        #expect(tags.pictures[0].data == Data(Self.jpeg))
    }

    @Test(arguments: [2, 3])
    func wholeTagUnsynchronisationInV22AndV23(major: Int) throws {
        let frames = [ID3Build.text(major == 2 ? "TT2" : "TIT2", ["ÿ title ÿ"], 0, major: major),
                      ID3Build.picture(Self.jpeg, mime: major == 2 ? "JPG" : "image/jpeg", major: major)]
        let tag = ID3Build.tag(major: major, frames, unsynchronise: true)
        #expect(tag.count > ID3Build.tag(major: major, frames).count, "fixture must contain bytes to unsynchronise")
        let tags = try ID3v2.read(tag)
        #expect(tags.title == "ÿ title ÿ")
        #expect(tags.pictures.first?.data == Data(Self.jpeg))
    }

    @Test func perFrameUnsynchronisationInV24() throws {
        let body = ID3Build.unsynchronise([0] + Array("image/jpeg".utf8) + [0, 3, 0] + Self.jpeg)
        let flagged = ID3Build.frame("APIC", body, major: 4, formatFlags: 0x02)
        let tags = try ID3v2.read(ID3Build.tag(major: 4, [flagged, ID3Build.text("TIT2", ["after"])]))
        #expect(tags.pictures.first?.data == Data(Self.jpeg))
        #expect(tags.title == "after")
        // The tag-level flag in v2.4 means every frame is unsynchronised.
        var tag = ID3Build.tag(major: 4, [ID3Build.frame("APIC", body, major: 4)])
        tag[5] |= 0x80
        #expect(try ID3v2.read(tag).pictures.first?.data == Data(Self.jpeg))
    }

    @Test func v24DataLengthIndicatorAndGroupingAreSkipped() throws {
        let text = ID3Build.textBody(["Grouped"])
        let tags = try ID3v2.read(ID3Build.tag(major: 4, [
            ID3Build.frame("TIT2", [7] + ID3Build.synchsafe(text.count) + text, major: 4, formatFlags: 0x41),
        ]))
        #expect(tags.title == "Grouped")
        let v23 = try ID3v2.read(ID3Build.tag(major: 3, [ID3Build.frame("TALB", [9] + ID3Build.textBody(["G"], 0), major: 3, formatFlags: 0x20)]))
        #expect(v23.album == "G")
    }

    @Test func compressedAndEncryptedFramesAreSkipped() throws {
        let v23 = try ID3v2.read(ID3Build.tag(major: 3, [
            ID3Build.frame("TIT2", [0, 0, 0, 20, 0x78, 0x9C, 1, 2, 3], major: 3, formatFlags: 0x80),
            ID3Build.frame("TPE1", [0x80, 1, 2, 3], major: 3, formatFlags: 0x40),
            ID3Build.text("TALB", ["kept"], 0, major: 3),
        ]))
        #expect(v23.title == nil && v23.artists.isEmpty && v23.album == "kept")
        let v24 = try ID3v2.read(ID3Build.tag(major: 4, [
            ID3Build.frame("TIT2", [0, 0, 0, 20, 0x78, 0x9C], major: 4, formatFlags: 0x09),
            ID3Build.frame("TPE1", [0x80, 1, 2], major: 4, formatFlags: 0x04),
            ID3Build.text("TALB", ["kept"]),
        ]))
        #expect(v24.title == nil && v24.artists.isEmpty && v24.album == "kept")
        var v22 = ID3Build.tag(major: 2, [ID3Build.text("TT2", ["x"], 0, major: 2)])
        v22[5] = 0x40
        #expect(try ID3v2.read(v22) == TagSet())
    }

    @Test(arguments: [3, 4])
    func extendedHeaderIsSkipped(major: Int) throws {
        let tag = ID3Build.tag(major: major, [ID3Build.text("TIT2", ["Ext"], 0, major: major)], padding: 8, extendedHeader: true)
        #expect(try ID3v2.read(tag).title == "Ext")
        var broken = tag
        broken[10...13] = major == 3 ? [0x7F, 0, 0, 0] : [0, 0, 0, 2]
        #expect(throws: MediaTagsError.self) { try ID3v2.read(broken) }
    }

    @Test func footerCountsInTheTotalSize() throws {
        let tag = ID3Build.tag(major: 4, [ID3Build.text("TIT2", ["Foot"])], footer: true)
        let header = try #require(ID3v2.Header(tag))
        #expect(header.hasFooter && header.totalSize == tag.count)
        #expect(try ID3v2.read(tag).title == "Foot")
    }

    @Test func v24WithPlainFrameSizesAsITunesWroteThem() throws {
        let long = String(repeating: "a", count: 299)
        for size in [200, 300] {
            let title = String(long.prefix(size - 1))
            let frames = [ID3Build.frame("TIT2", ID3Build.textBody([title], 0), major: 4, plainSize: true),
                          ID3Build.frame("TPE1", ID3Build.textBody(["Next"], 0), major: 4, plainSize: true)]
            let tags = try ID3v2.read(ID3Build.tag(major: 4, frames, padding: 50))
            #expect(tags.title == title)
            #expect(tags.artists == ["Next"])
        }
    }

    @Test func headerValidation() {
        #expect(ID3v2.Header(Array("ID3".utf8) + [5, 0, 0, 0, 0, 0, 1]) == nil)
        #expect(ID3v2.Header(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0x80, 1]) == nil)
        #expect(ID3v2.Header(Array("ID3".utf8) + [4, 0, 0, 0, 0]) == nil)
        #expect(throws: MediaTagsError.unrecognized("no ID3v2.2–2.4 header")) { try ID3v2.read(Array("TAG".utf8)) }
    }

    @Test func everyTruncationGivesPartialTagsOrAnError() throws {
        for major in [2, 3, 4] {
            let full = ID3Build.tag(major: major, [
                ID3Build.text(major == 2 ? "TT2" : "TIT2", ["Title"], 1, major: major),
                ID3Build.picture(Self.jpeg, mime: major == 2 ? "JPG" : "image/jpeg", major: major),
                ID3Build.text(major == 2 ? "TP1" : "TPE1", ["Artist"], 0, major: major),
            ], padding: 10, extendedHeader: major > 2, footer: major == 4, unsynchronise: major == 3)
            let complete = try ID3v2.read(full)
            #expect(complete.artists == ["Artist"])
            for length in 0..<full.count {
                if let tags = try? ID3v2.read(Array(full.prefix(length))) {
                    #expect(tags.title == nil || tags.title == "Title")
                }
            }
        }
    }

    @Test func randomMutationsNeverCrash() {
        let seed = ID3Build.tag(major: 3, [
            ID3Build.text("TIT2", ["Title"], 1, major: 3), ID3Build.comment("c", 1, major: 3),
            ID3Build.userText("K", ["v"], 2, major: 3), ID3Build.picture(Self.jpeg, major: 3),
            ID3Build.text("TCON", ["(17)Rock"], 0, major: 3),
        ], padding: 16, extendedHeader: true, unsynchronise: true)
        let seed4 = ID3Build.tag(major: 4, [
            ID3Build.text("TIT2", ["T"], 3), ID3Build.frame("APIC", ID3Build.unsynchronise([0, 0x50, 0, 3, 0] + Self.jpeg), major: 4, formatFlags: 0x03),
        ], extendedHeader: true, footer: true)
        for fixture in [seed, seed4] {
            for bytes in ID3Fuzz.mutants(of: fixture) { _ = try? ID3v2.read(bytes) }
        }
    }
}

@Suite("ID3v1")
struct ID3v1Tests {
    @Test func v11FieldsTrackAndGenre() throws {
        let tags = try #require(ID3v1.read(ID3Build.v1(title: "Café", artist: "Artist  ", album: "Album",
                                                       year: "1999", comment: "Nice", track: 7, genre: 17)))
        #expect(tags.title == "Café")
        #expect(tags.artists == ["Artist"])
        #expect(tags.album == "Album")
        #expect(tags.year == 1999 && tags.date == "1999")
        #expect(tags.comment == "Nice")
        #expect(tags.trackNumber == 7)
        #expect(tags.genres == ["Rock"])
    }

    @Test func v10HasNoTrackAndGenre255IsNone() throws {
        let tags = try #require(ID3v1.read(ID3Build.v1(title: String(repeating: "x", count: 30), comment: String(repeating: "c", count: 30))))
        #expect(tags.title?.count == 30)
        #expect(tags.comment?.count == 30)
        #expect(tags.trackNumber == nil && tags.genres.isEmpty && tags.year == nil && tags.artists.isEmpty)
    }

    @Test func rejectsOtherBytes() {
        #expect(ID3v1.read([UInt8](repeating: 0, count: 128)) == nil)
        #expect(ID3v1.read(Array(ID3Build.v1().prefix(127))) == nil)
    }
}
