import Foundation
@testable import MediaTags
import Testing

/// Performer credits (role/name pairs and `Name (role)` values) and MusicBrainz artist ids, in
/// every tag style that carries them.
@Suite("Credits and MusicBrainz ids")
struct CreditTests {
    static let lennon = "b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d"
    static let beatles = "4d5447d7-c61c-4120-ba1b-d7f471d385b9"

    /// A role/name pair frame body (TMCL, TIPL, IPLS) in `encoding`, with an empty role kept.
    static func pairs(_ id: String, _ pairs: [(String, String)], _ encoding: UInt8, major: Int) -> [UInt8] {
        var body: [UInt8] = [encoding]
        for (role, name) in pairs {
            body += ID3Build.encode(role, encoding) + ID3Build.terminator(encoding)
            body += ID3Build.encode(name, encoding) + ID3Build.terminator(encoding)
        }
        return ID3Build.frame(id, body, major: major)
    }

    @Test(arguments: [UInt8(0), 1, 3])
    func id3v24MusicianAndInvolvedPeopleFrames(encoding: UInt8) throws {
        let tag = ID3Build.tag(major: 4, [
            ID3Build.text("TPE1", ["The Paper Boats"]),
            Self.pairs("TMCL", [("guitar", "Ada North"), ("lead vocals", "Ben South"), ("", "Cy West")], encoding, major: 4),
            Self.pairs("TIPL", [("producer", "Dee East")], encoding, major: 4),
            ID3Build.userText("MusicBrainz Artist Id", [Self.beatles]),
        ])
        let tags = try ID3v2.read(tag)
        #expect(tags.credits == [.init(name: "Ada North", role: "guitar"), .init(name: "Ben South", role: "lead vocals"),
                                 .init(name: "Cy West", role: ""), .init(name: "Dee East", role: "producer")])
        #expect(tags.custom["TMCL"] == nil && tags.custom["TIPL"] == nil)
        #expect(tags.musicBrainzArtistIDs == [Self.beatles])
        // The whole file: the MP3 reader merges its tags (ID3v2 over ID3v1) without losing the credits.
        let file = try MP3File.read(DataByteSource(tag + MPEGBuild.cbr(count: 20) + ID3Build.v1(title: "Old")))
        #expect(file.tags.credits == tags.credits && file.tags.musicBrainzArtistIDs == [Self.beatles])
    }

    @Test func id3v23InvolvedPeopleListAndV22() throws {
        let v23 = ID3Build.tag(major: 3, [
            Self.pairs("IPLS", [("drums", "Ringo"), ("bass", "Paul")], 1, major: 3),
            // Picard joins multiple values with "/" in ID3v2.3.
            ID3Build.userText("MusicBrainz Artist Id", ["\(Self.lennon)/\(Self.beatles)"], 1, major: 3),
        ])
        let tags = try ID3v2.read(v23)
        #expect(tags.credits == [.init(name: "Ringo", role: "drums"), .init(name: "Paul", role: "bass")])
        #expect(tags.musicBrainzArtistIDs == [Self.lennon, Self.beatles])
        let v22 = ID3Build.tag(major: 2, [Self.pairs("IPL", [("piano", "Nina")], 0, major: 2)])
        #expect(try ID3v2.read(v22).credits == [.init(name: "Nina", role: "piano")])
        // A lone role at the end and an empty name are dropped; nothing else is invented.
        var body: [UInt8] = [3] + Array("guitar".utf8) + [0] + [0] + Array("vocals".utf8)
        let odd = ID3Build.tag(major: 4, [ID3Build.frame("TMCL", body, major: 4)])
        #expect(try ID3v2.read(odd).credits.isEmpty)
        body = [3] + Array("guitar".utf8)
        #expect(try ID3v2.read(ID3Build.tag(major: 4, [ID3Build.frame("TMCL", body, major: 4)])).credits.isEmpty)
    }

    @Test(arguments: [
        ("Ada North (guitar)", "Ada North", "guitar"),
        ("Ada North (drums (drum set))", "Ada North", "drums (drum set)"),
        ("Ada North", "Ada North", ""),
        ("(guitar)", "(guitar)", ""),
        ("Ada (Junior) North", "Ada (Junior) North", ""),
        ("  Ada North  ( lead vocals ) ", "Ada North", "lead vocals"),
        ("Ada North (guitar))", "Ada North (guitar))", ""),
    ])
    func performerValues(value: String, name: String, role: String) {
        #expect(TagSet.Credit(performer: value) == TagSet.Credit(name: name, role: role))
    }

    @Test func vorbisPerformerAndMusicBrainzIDs() throws {
        let tags = try VorbisComment.parse(VorbisCommentBuilder.block([
            "ARTIST=The Paper Boats", "PERFORMER=Ada North (guitar)", "performer=Ben South (vocals)", "PERFORMER=",
            "MUSICBRAINZ_ARTISTID=\(Self.beatles.uppercased())", "MUSICBRAINZ_ARTISTID=not-an-id",
            "MUSICBRAINZ_ALBUMARTISTID=\(Self.lennon)",
        ]))
        #expect(tags.credits == [.init(name: "Ada North", role: "guitar"), .init(name: "Ben South", role: "vocals")])
        #expect(tags.musicBrainzArtistIDs == [Self.beatles])
        #expect(tags.musicBrainzAlbumArtistIDs == [Self.lennon])
        #expect(tags.custom["PERFORMER"] == nil)
    }

    @Test func mp4FreeformMusicBrainzAndPerformerAtoms() throws {
        let items = [
            MP4Builder.text("\u{A9}ART", "The Paper Boats"),
            MP4Builder.freeform(name: "MusicBrainz Artist Id", Self.beatles),
            MP4Builder.freeform(name: "PERFORMER", "Ada North (guitar)"),
        ]
        let file = MP4Builder.file(moovChildren: MP4Tests.aacMoov(items: items))
        let tags = try MP4File.read(DataByteSource(file)).tags
        #expect(tags.musicBrainzArtistIDs == [Self.beatles])
        #expect(tags.credits == [.init(name: "Ada North", role: "guitar")])
    }
}
