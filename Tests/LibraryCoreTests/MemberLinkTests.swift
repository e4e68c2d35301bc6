import Foundation
import LibraryCore
import Locking
import Testing

/// Band ↔ member links: the tag rule, user relations, MusicBrainz relations and their merge.
@Suite("Band members")
struct MemberLinkTests {
    static let boatsID = "11111111-1111-4111-8111-111111111111"
    static let adaID = "22222222-2222-4222-8222-222222222222"
    static let benID = "33333333-3333-4333-8333-333333333333"
    static let otherAdaID = "44444444-4444-4444-8444-444444444444"

    /// A library with one band whose songs credit its musicians, its members' own songs, a
    /// duet, a guest, a producer and a credited stranger.
    static func library() throws -> CatalogFixture {
        let fixture = try CatalogFixture()
        let root = fixture.root
        try FLACFixture.write(root, "boats/01.flac", [
            "TITLE=Harbour", "ARTIST=The Paper Boats", "ALBUM=Sails",
            "PERFORMER=Ada North (guitar)", "PERFORMER=Ben South (lead vocals)", "PERFORMER=Dee East (producer)",
            "PERFORMER=Gus Guest (guest piano)", "PERFORMER=Cy West (drums)", "PERFORMER=Hal Plain",
        ])
        try FLACFixture.write(root, "boats/02.flac", [
            "TITLE=Lantern", "ARTIST=The Paper Boats feat. Eve Ray", "ALBUM=Sails", "PERFORMER=Eve Ray (vocals)",
            "MUSICBRAINZ_ARTISTID=\(boatsID)", "MUSICBRAINZ_ARTISTID=55555555-5555-4555-8555-555555555555",
            "ARTISTS=The Paper Boats", "ARTISTS=Eve Ray",
        ])
        try FLACFixture.write(root, "ada/01.flac", ["TITLE=Alone", "ARTIST=Ada North", "ALBUM=Solo", "MUSICBRAINZ_ARTISTID=\(adaID)",
                                                    "PERFORMER=Ben South (drums)"])
        try FLACFixture.write(root, "ben/01.flac", ["TITLE=Echo", "ARTIST=Ben South", "ALBUM=Echoes"])
        try FLACFixture.write(root, "duet/01.flac", ["TITLE=Both", "ARTIST=Ada North", "ARTIST=Ben South", "ALBUM=Pair",
                                                     "PERFORMER=Dee East (bass)"])
        for name in ["Dee East", "Gus Guest", "Hal Plain"] {
            try FLACFixture.write(root, "\(name)/01.flac", ["TITLE=\(name) song", "ARTIST=\(name)", "ALBUM=\(name) album"])
        }
        _ = try fixture.scan()
        return fixture
    }

    static func id(_ catalog: Catalog, _ name: String) throws -> Int64 { try catalog.artist(.name(name)).id }

    /// The links as (band, member, sources) names, for readable expectations.
    static func named(_ catalog: Catalog) throws -> Set<String> {
        let names = Dictionary(uniqueKeysWithValues: try catalog.artists(userID: nil).map { ($0.id, $0.name) })
        return Set(try catalog.memberLinks().map { "\(names[$0.band]!) ← \(names[$0.member]!) [\($0.sources.joined(separator: ","))]" })
    }

    @Test("a musician credited on a band's song who is an artist of the library is a member; nobody else is")
    func tagRule() throws {
        let fixture = try Self.library()
        // Not: the producer (a production role), the guest ("guest piano"), Cy West (not in the
        // library), Eve Ray (on the song she is featured on), Hal Plain (no role),
        // Dee East on the duet (two artist values: whose member?). Ben South drumming on Ada North's
        // solo song is taken for a member until MusicBrainz says Ada North is a person.
        #expect(try Self.named(fixture.catalog) == ["The Paper Boats ← Ada North [tags]", "The Paper Boats ← Ben South [tags]",
                                                   "Ada North ← Ben South [tags]"])
        for role in ["guitar", "lead vocals", "bass guitar", "drums (drum set)", "Vocals"] { #expect(MemberRules.isMusicianRole(role)) }
        for role in ["", "producer", "guest guitar", "additional vocals", "orchestra", "mix", "recording engineer", "performer"] {
            #expect(!MemberRules.isMusicianRole(role), "\(role)")
        }
    }

    @Test("user relations link artists of the library by name, merge with the tags and survive rescans")
    func userRelations() throws {
        let fixture = try Self.library()
        let catalog = fixture.catalog
        try catalog.addMemberRelation(band: .name("the paper boats"), member: .name("Dee East"))
        try catalog.addMemberRelation(band: .id(try Self.id(catalog, "The Paper Boats")), member: .name("ADA NORTH"))
        #expect(try Self.named(catalog) == ["The Paper Boats ← Ada North [tags,user]", "The Paper Boats ← Ben South [tags]",
                                           "The Paper Boats ← Dee East [user]", "Ada North ← Ben South [tags]"])
        #expect(throws: CatalogError.self) { try catalog.addMemberRelation(band: .name("The Paper Boats"), member: .name("Cy West")) }
        #expect(throws: CatalogError.self) { try catalog.addMemberRelation(band: .name("Ada North"), member: .name("ada north")) }

        // Dee East leaves the library: the link goes, the relation stays; back, it links again.
        let dee = fixture.root.appendingPathComponent("Dee East/01.flac")
        let kept = try Data(contentsOf: dee)
        try FileManager.default.removeItem(at: dee)
        _ = try fixture.scan()
        #expect(try Self.named(catalog) == ["The Paper Boats ← Ada North [tags,user]", "The Paper Boats ← Ben South [tags]",
                                           "Ada North ← Ben South [tags]"])
        #expect(try catalog.userMemberRelations().map { "\($0.member) \($0.memberID == nil)" } == ["Ada North false", "Dee East true"])
        try kept.write(to: dee)
        _ = try fixture.scan()
        #expect(try Self.named(catalog).contains("The Paper Boats ← Dee East [user]"))

        #expect(try catalog.removeMemberRelation(band: .name("The Paper Boats"), member: .name("Ada North")))
        #expect(try !catalog.removeMemberRelation(band: .name("The Paper Boats"), member: .name("Ada North")))
        #expect(try Self.named(catalog).contains("The Paper Boats ← Ada North [tags]"))
    }

    /// MusicBrainz answers in the documented JSON shapes, by request path.
    final class StandIn: Sendable {
        let answers: [String: (Int, String)]
        let asked = Lock<[String]>([])
        let failing = Lock<Bool>(false)

        init(_ answers: [String: (Int, String)]) { self.answers = answers }

        var fetch: MemberLookups.Fetch {
            { [self] url, headers in
                let path = url.path + (url.query.map { "?" + $0 } ?? "")
                asked.withLock { $0.append(path) }
                if failing.withLock({ $0 }) { throw URLError(.cannotConnectToHost) }
                guard headers.contains(where: { $0.0 == "User-Agent" && $0.1.hasPrefix("Quintet/") }) else { return (400, []) }
                let (status, body) = answers[path] ?? (404, #"{"error": "Not Found"}"#)
                return (status, Array(body.utf8))
            }
        }
    }

    static func relation(_ direction: String, _ id: String, _ name: String, type: String = "member of band") -> String {
        #"{"type": "\#(type)", "type-id": "\#(type == "member of band" ? MusicBrainzAnswers.memberOfBandTypeID : "75c09861-6857-4ec0-9729-84eefde7fc86")", "direction": "\#(direction)", "target-type": "artist", "attributes": [], "begin": "1990", "end": null, "ended": false, "artist": {"id": "\#(id)", "name": "\#(name)", "sort-name": "\#(name)", "disambiguation": "", "type": "Person"}}"#
    }

    @Test("MusicBrainz relations merge with the other sources; equal names are refused; answers are cached for offline use")
    func musicBrainzMerge() async throws {
        let fixture = try Self.library()
        let catalog = fixture.catalog
        try catalog.addMemberRelation(band: .name("The Paper Boats"), member: .name("Ben South"))
        let standIn = StandIn([
            // The band: by the id its tags carry (no search).
            MusicBrainzAnswers.lookupPath(mbid: Self.boatsID): (200, #"""
                {"id": "\#(Self.boatsID)", "name": "The Paper Boats", "type": "Group", "relations": [
                \#(Self.relation("backward", Self.adaID, "Ada North")), \#(Self.relation("backward", Self.benID, "Ben South")),
                \#(Self.relation("backward", "66666666-6666-4666-8666-666666666666", "Gus Guest")),
                \#(Self.relation("backward", "77777777-7777-4777-8777-777777777777", "Nobody Here")),
                \#(Self.relation("backward", "88888888-8888-4888-8888-888888888888", "Hal Plain", type: "collaboration"))]}
                """#),
            // Dee East: found by name, a member of the band by MusicBrainz.
            MusicBrainzAnswers.searchPath(name: "Dee East"): (200, #"""
                {"created": "2026-11-26T20:00:00.000Z", "count": 2, "offset": 0, "artists": [
                 {"id": "99999999-9999-4999-8999-999999999999", "type": "Person", "score": 100, "name": "Dee East", "sort-name": "East, Dee"},
                 {"id": "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "type": "Person", "score": 80, "name": "Dee Easton", "sort-name": "Easton, Dee"}]}
                """#),
            MusicBrainzAnswers.lookupPath(mbid: "99999999-9999-4999-8999-999999999999"): (200, #"""
                {"id": "99999999-9999-4999-8999-999999999999", "name": "Dee East", "type": "Person", "relations": [
                \#(Self.relation("forward", Self.boatsID, "The Paper Boats"))]}
                """#),
            // Two artists called Hal Plain: refused.
            MusicBrainzAnswers.searchPath(name: "Hal Plain"): (200, #"""
                {"count": 2, "artists": [
                 {"id": "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", "type": "Person", "score": 100, "name": "Hal Plain", "disambiguation": "folk singer"},
                 {"id": "cccccccc-cccc-4ccc-8ccc-cccccccccccc", "type": "Group", "score": 100, "name": "Hal Plain", "disambiguation": "Welsh band"}]}
                """#),
            MusicBrainzAnswers.searchPath(name: "Gus Guest"): (503, "{}"),
            // Ada North: a person (her songs' credits make no band), a member of the band.
            MusicBrainzAnswers.lookupPath(mbid: Self.adaID): (200, #"""
                {"id": "\#(Self.adaID)", "name": "Ada North", "type": "Person", "relations": [
                \#(Self.relation("forward", Self.boatsID, "The Paper Boats"))]}
                """#),
        ])
        let lookups = MemberLookups(catalog: catalog, source: .on(URL(string: "http://mb.invalid")!), userAgent: "Quintet/test ( tests )",
                                    interval: .milliseconds(1), fetch: standIn.fetch)
        let boats = try Self.id(catalog, "The Paper Boats")
        #expect(try lookups.state(artistID: boats) == .notLookedUp)
        guard case .ok = try await lookups.lookUp(artistID: boats) else { Issue.record("the band's lookup failed"); return }
        guard case .ok = try await lookups.lookUp(artistID: try Self.id(catalog, "Dee East")) else { Issue.record("Dee East"); return }
        guard case .ambiguous(let candidates, _) = try await lookups.lookUp(artistID: try Self.id(catalog, "Hal Plain")) else {
            Issue.record("Hal Plain is not refused as ambiguous"); return
        }
        #expect(candidates.map(\.disambiguation) == ["folk singer", "Welsh band"])
        guard case .failed(let message, _) = try await lookups.lookUp(artistID: try Self.id(catalog, "Gus Guest")) else {
            Issue.record("a 503 is not a failure"); return
        }
        #expect(message.contains("503"))
        #expect(try Self.named(catalog).contains("Ada North ← Ben South [tags]"))
        guard case .ok = try await lookups.lookUp(artistID: try Self.id(catalog, "Ada North")) else { Issue.record("Ada North"); return }
        #expect(standIn.asked.withLock { $0 }.first == MusicBrainzAnswers.lookupPath(mbid: Self.boatsID))
        #expect(try Self.named(catalog) == [
            "The Paper Boats ← Ada North [tags,musicbrainz]", "The Paper Boats ← Ben South [tags,musicbrainz,user]",
            "The Paper Boats ← Dee East [musicbrainz]", "The Paper Boats ← Gus Guest [musicbrainz]",
        ])

        // Stored states are answered without asking again; a retry asks again, and a failure
        // then does not undo a success. Offline, the cache answers.
        let before = standIn.asked.withLock { $0.count }
        _ = try await lookups.lookUp(artistID: boats)
        #expect(standIn.asked.withLock { $0.count } == before)
        standIn.failing.withLock { $0 = true }
        _ = try await lookups.lookUp(artistID: boats, retry: true)
        #expect(standIn.asked.withLock { $0.count } == before, "a fresh cached answer is used without a request")
        guard case .failed = try await lookups.lookUp(artistID: try Self.id(catalog, "Gus Guest"), retry: true) else {
            Issue.record("the retry of a failure without a cache did not fail"); return
        }
        let offline = MemberLookups(catalog: catalog, source: .off, userAgent: "Quintet/test", fetch: standIn.fetch)
        #expect(try offline.state(artistID: try Self.id(catalog, "Ben South")) == .off)
        guard case .ok = try await offline.lookUp(artistID: boats, retry: true) else { Issue.record("offline from the cache"); return }
        #expect(try await offline.lookUp(artistID: try Self.id(catalog, "Ben South")) == .off)
    }
}
