import Foundation
import GRDB

/// A band ↔ member link between two artists of the catalog, with every source that gives it
/// (MusicGraph's `MemberLink` is the graph's copy of it; the names differ so that a file may
/// import both modules).
///
/// ```swift
/// for link in try catalog.memberLinks() where link.sources.contains("user") { … }
/// ```
public struct CatalogMemberLink: Sendable, Equatable, Hashable, Codable {
    /// The band's artist id.
    public var band: Int64
    /// The member's artist id.
    public var member: Int64
    /// "tags", "musicbrainz", "user": in that order, each at most once.
    public var sources: [String]

    public init(band: Int64, member: Int64, sources: [String]) {
        self.band = band
        self.member = member
        self.sources = sources
    }

    /// The sources, in the order ``sources`` lists them.
    public static let sourceOrder = ["tags", "musicbrainz", "user"]
}

/// Where the MusicBrainz lookup of one artist stands.
public enum MemberLookupState: Sendable, Equatable {
    /// Never asked (and not queued).
    case notLookedUp
    /// Queued or running now.
    case pending
    /// MusicBrainz lookups are off (`serve --musicbrainz off`) and nothing is cached.
    case off
    /// Found; the relations are those of the answer of `date`.
    case ok(Date)
    /// MusicBrainz knows no artist of this name (or the tags' id); a user relation still can link it.
    case notFound(Date)
    /// Several MusicBrainz artists have this name (or the tags give several ids): none is
    /// taken, nothing guessed.
    case ambiguous([MusicBrainzCandidate], Date)
    /// The lookup failed (no answer, an error status, a malformed answer): retry later.
    case failed(message: String, Date)

    /// The state's name in JSON: "none", "pending", "off", "ok", "not_found", "ambiguous", "failed".
    public var name: String {
        switch self {
        case .notLookedUp: "none"
        case .pending: "pending"
        case .off: "off"
        case .ok: "ok"
        case .notFound: "not_found"
        case .ambiguous: "ambiguous"
        case .failed: "failed"
        }
    }

    /// When the stored state was reached (nil for none, pending, off).
    public var date: Date? {
        switch self {
        case .ok(let d), .notFound(let d), .ambiguous(_, let d), .failed(_, let d): d
        case .notLookedUp, .pending, .off: nil
        }
    }

    /// Whether a lookup has ended (ok, not found, ambiguous or failed) and is stored.
    public var isStored: Bool { date != nil }
}

/// One MusicBrainz artist among several of the same name.
public struct MusicBrainzCandidate: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var disambiguation: String
    public var type: String?

    public init(id: String, name: String, disambiguation: String = "", type: String? = nil) {
        self.id = id
        self.name = name
        self.disambiguation = disambiguation
        self.type = type
    }
}

/// A band ↔ member relation added by a user (`quintet library members add`, the API), stored
/// by name key so it survives rescans; the ids are those of the catalog now (nil when the
/// artist is not in the library at the moment).
public struct UserMemberRelation: Sendable, Equatable, Codable {
    public var band: String
    public var member: String
    public var bandID: Int64?
    public var memberID: Int64?
    public var added: Date
}

/// How an artist is named in a request: by catalog id or by name (compared by `NameKey`).
public enum ArtistReference: Sendable, Equatable, CustomStringConvertible {
    case id(Int64)
    case name(String)

    public var description: String {
        switch self {
        case .id(let id): "artist \(id)"
        case .name(let name): "\"\(name)\""
        }
    }
}

/// The rules that decide which tag credits make links (docs/graph.md, "Band members").
public enum MemberRules {
    /// Words of a role that mark no membership: production and writing credits, guests and
    /// additional (session) players, and ensembles credited as a whole.
    static let excludedRoleWords: Set<String> = [
        "producer", "coproducer", "co-producer", "engineer", "arranger", "mix", "mixer", "dj-mix", "djmixer",
        "remixer", "mastering", "conductor", "orchestra", "choir", "ensemble", "chorus", "lyricist", "composer",
        "writer", "orchestrator", "guest", "additional", "performer", "recording", "editor", "programming",
        "copyist", "translator", "librettist",
    ]

    /// Whether a credit's role names an instrument or a voice of a member: not empty, and
    /// none of its words is one of ``excludedRoleWords`` ("guitar", "lead vocals", "bass
    /// guitar", "drums (drum set)" are; "producer", "guest guitar", "additional vocals",
    /// "orchestra" and "" are not). Case does not matter.
    public static func isMusicianRole(_ role: String) -> Bool {
        let words = role.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "-") }).map(String.init)
        guard !words.isEmpty else { return false }
        return !words.contains(where: excludedRoleWords.contains)
    }
}

extension Catalog {
    /// Every band ↔ member link between artists of the catalog, merged from the three sources
    /// (docs/graph.md, "Band members"): the tags' performer credits, the MusicBrainz relations
    /// of artists looked up, and the relations users added. Both ends are always artists of the
    /// catalog now; a band is never its own member. Sorted by band, then member.
    public func memberLinks() throws -> [CatalogMemberLink] {
        try database.pool.read { db in try Self.memberLinks(db) }
    }

    static func memberLinks(_ db: Database) throws -> [CatalogMemberLink] {
        var artists: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, id FROM library_artist") { artists[row[0]] = row[1] }
        var sources: [MemberPair: Set<String>] = [:]
        func add(band: String, member: String, _ source: String) {
            guard band != member, let b = artists[band], let m = artists[member] else { return }
            sources[MemberPair(band: b, member: m), default: []].insert(source)
        }
        // MusicBrainz says these are people: a credit on their songs makes no band.
        let people = Set(try String.fetchAll(db, sql: "SELECT artist_key FROM library_member_lookup WHERE state = 'ok' AND type = 'Person'"))

        // Tags.
        var credited: [Int64: Set<String>] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT sa.song_id, ar.key FROM library_song_artist sa JOIN library_artist ar ON ar.id = sa.artist_id
            WHERE sa.song_id IN (SELECT song_id FROM library_song_credit WHERE band_key IS NOT NULL)
            """) {
            credited[row[0], default: []].insert(row[1])
        }
        for row in try Row.fetchAll(db, sql: "SELECT song_id, key, role, band_key FROM library_song_credit WHERE band_key IS NOT NULL") {
            let song: Int64 = row[0], member: String = row[1], role: String = row[2], band: String = row[3]
            guard MemberRules.isMusicianRole(role), !people.contains(band), credited[song]?.contains(member) != true else { continue }
            add(band: band, member: member, "tags")
        }

        // MusicBrainz: relations of artists whose lookup succeeded; a related artist whose tags
        // carry other MusicBrainz ids is another artist of the same name.
        var tagIDs: [String: Set<String>] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT DISTINCT artist_key, mbid FROM library_song_mbid") {
            tagIDs[row[0], default: []].insert(row[1])
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT m.artist_key, m.related_mbid, m.related_key, m.direction FROM library_member_mb m
            JOIN library_member_lookup l ON l.artist_key = m.artist_key AND l.state = 'ok'
            """) {
            let artist: String = row[0], relatedID: String = row[1], related: String = row[2], direction: String = row[3]
            if let ids = tagIDs[related], !ids.contains(relatedID) { continue }
            if direction == "member" { add(band: artist, member: related, "musicbrainz") } else { add(band: related, member: artist, "musicbrainz") }
        }

        // Users.
        for row in try Row.fetchAll(db, sql: "SELECT band_key, member_key FROM library_member_user") {
            add(band: row[0], member: row[1], "user")
        }
        return sources.map { pair, found in
            CatalogMemberLink(band: pair.band, member: pair.member, sources: CatalogMemberLink.sourceOrder.filter(found.contains))
        }.sorted { ($0.band, $0.member) < ($1.band, $1.member) }
    }

    /// The stored lookup state of an artist: ``MemberLookupState/notLookedUp`` when it was
    /// never looked up (``MemberLookups/state(artistID:)`` adds "pending" and "off").
    public func memberLookupState(artistID: Int64) throws -> MemberLookupState {
        try database.pool.read { db in
            guard let key = try String.fetchOne(db, sql: "SELECT key FROM library_artist WHERE id = ?", arguments: [artistID]) else {
                throw CatalogError.notFound("no artist with id \(artistID)")
            }
            return try Self.lookupState(key: key, db)
        }
    }

    static func lookupState(key: String, _ db: Database) throws -> MemberLookupState {
        guard let row = try Row.fetchOne(db, sql: "SELECT state, message, candidates, at FROM library_member_lookup WHERE artist_key = ?",
                                         arguments: [key]) else { return .notLookedUp }
        let date = Date(timeIntervalSince1970: row["at"])
        switch row["state"] as String {
        case "ok": return .ok(date)
        case "not_found": return .notFound(date)
        case "ambiguous":
            let text: String = row["candidates"] ?? "[]"
            let candidates = (try? JSONDecoder().decode([MusicBrainzCandidate].self, from: Data(text.utf8))) ?? []
            return .ambiguous(candidates, date)
        default: return .failed(message: row["message"] ?? "the lookup failed", date)
        }
    }

    // MARK: user relations

    /// The catalog artist a reference names; throws `notFound` with the reference in the message.
    public func artist(_ reference: ArtistReference) throws -> CatalogArtist {
        switch reference {
        case .id(let id): return try artist(id: id)
        case .name(let name):
            let key = NameKey(name).value
            guard !key.isEmpty else { throw CatalogError.invalid("an artist name must not be empty") }
            guard let artist = try queryArtists(where: "ar.key = ?", arguments: [key], userID: nil).first else {
                throw CatalogError.notFound("no artist named \"\(name)\" in the library (only artists of the library can be linked)")
            }
            return artist
        }
    }

    /// Records that `member` is a member of `band`, both artists of the catalog now (stored by
    /// name key, so it survives rescans). Adding it again is harmless. Returns the relation.
    @discardableResult
    public func addMemberRelation(band: ArtistReference, member: ArtistReference, at date: Date = Date()) throws -> UserMemberRelation {
        let b = try artist(band), m = try artist(member)
        guard b.id != m.id else { throw CatalogError.invalid("an artist cannot be a member of itself (\(b.name))") }
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO library_member_user (band_key, member_key, band_name, member_name, added_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(band_key, member_key) DO UPDATE SET band_name = excluded.band_name, member_name = excluded.member_name
                """, arguments: [NameKey(b.name).value, NameKey(m.name).value, b.name, m.name, date.timeIntervalSince1970])
        }
        return try userMemberRelations().first { $0.bandID == b.id && $0.memberID == m.id }!
    }

    /// Removes a user relation; names need not be artists of the catalog now (a relation whose
    /// artists left the library can still be removed). Returns whether there was one.
    @discardableResult
    public func removeMemberRelation(band: ArtistReference, member: ArtistReference) throws -> Bool {
        func key(_ reference: ArtistReference) throws -> String {
            switch reference {
            case .id: return NameKey(try artist(reference).name).value
            case .name(let name): return NameKey(name).value
            }
        }
        let b = try key(band), m = try key(member)
        return try database.pool.write { db in
            try db.execute(sql: "DELETE FROM library_member_user WHERE band_key = ? AND member_key = ?", arguments: [b, m])
            return db.changesCount > 0
        }
    }

    /// Every relation users added, by band then member name.
    public func userMemberRelations() throws -> [UserMemberRelation] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT u.band_name, u.member_name, b.id, m.id, u.added_at FROM library_member_user u
                LEFT JOIN library_artist b ON b.key = u.band_key LEFT JOIN library_artist m ON m.key = u.member_key
                ORDER BY u.band_key, u.member_key
                """).map {
                UserMemberRelation(band: $0[0], member: $0[1], bandID: $0[2], memberID: $0[3],
                                   added: Date(timeIntervalSince1970: $0[4]))
            }
        }
    }
}

private struct MemberPair: Hashable {
    var band: Int64
    var member: Int64
}
