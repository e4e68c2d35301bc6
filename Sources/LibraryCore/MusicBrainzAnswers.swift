import Foundation

/// The two MusicBrainz web-service answers the member lookup reads (MusicBrainz API v2,
/// musicbrainz.org/doc/MusicBrainz_API, JSON with `fmt=json`), and how a library artist is
/// matched to one of them.
///
/// - Search: `GET /ws/2/artist?query=artist:"NAME"&fmt=json&limit=25` →
///   `{"artists": [{"id", "name", "sort-name", "type", "disambiguation", "score"}, …]}`.
/// - Lookup: `GET /ws/2/artist/MBID?inc=artist-rels&fmt=json` → `{"id", "name", "type",
///   "relations": [{"type": "member of band", "type-id", "direction", "target-type": "artist",
///   "artist": {"id", "name", …}}, …]}`. On a group, a member's relation is `backward` (the
///   member is the relation's first entity); on a person, a band's is `forward`.
public enum MusicBrainzAnswers {
    /// The relation type "member of band" (its `type-id`, stable across renames).
    public static let memberOfBandTypeID = "5be4c609-9afa-4ea0-910b-12ffb71e3821"

    /// The path and query of the search for an artist name (Lucene syntax, the name quoted
    /// and its special characters escaped).
    public static func searchPath(name: String) -> String {
        var escaped = ""
        for character in name {
            if "+-&|!(){}[]^\"~*?:\\/".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = "artist:\"\(escaped)\"".addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "/ws/2/artist?query=\(query)&fmt=json&limit=25"
    }

    /// The path and query of the lookup of an artist with its artist relations.
    public static func lookupPath(mbid: String) -> String {
        "/ws/2/artist/\(mbid)?inc=artist-rels&fmt=json"
    }

    struct SearchAnswer: Decodable {
        var artists: [Artist]
    }

    struct Artist: Decodable {
        var id: String
        var name: String
        var type: String?
        var disambiguation: String?
        var relations: [Relation]?
    }

    struct Relation: Decodable {
        var type: String?
        var typeID: String?
        var direction: String?
        var targetType: String?
        var artist: Artist?

        enum CodingKeys: String, CodingKey {
            case type, direction, artist
            case typeID = "type-id"
            case targetType = "target-type"
        }
    }

    /// What a search says about a library name.
    enum Match: Equatable {
        case one(MusicBrainzCandidate)
        case none
        case several([MusicBrainzCandidate])
    }

    /// The artists of a search answer whose name has the library name's `NameKey`, or whose
    /// name with its disambiguation in parentheses has it ("Nirvana (60s band)"). Never picks
    /// between two such artists: that is `.several`, whatever the scores say.
    static func match(key: String, search body: [UInt8]) throws -> Match {
        let answer = try JSONDecoder().decode(SearchAnswer.self, from: Data(body))
        var found: [MusicBrainzCandidate] = []
        for artist in answer.artists where MusicBrainzIDs.isWellFormed(artist.id) {
            let disambiguation = artist.disambiguation ?? ""
            let keys = [NameKey(artist.name).value] + (disambiguation.isEmpty ? [] : [NameKey("\(artist.name) (\(disambiguation))").value])
            guard keys.contains(key), !found.contains(where: { $0.id == artist.id }) else { continue }
            found.append(MusicBrainzCandidate(id: artist.id, name: artist.name, disambiguation: disambiguation, type: artist.type))
        }
        switch found.count {
        case 0: return .none
        case 1: return .one(found[0])
        default: return .several(found)
        }
    }

    /// The "member of band" relations of a lookup answer.
    struct Relations: Sendable {
        var type: String?
        /// (MBID, name, direction: "member" when the related artist is a member of the one
        /// looked up, "band" when the one looked up is a member of it).
        var related: [(mbid: String, name: String, direction: String)]
    }

    static func relations(lookup body: [UInt8]) throws -> Relations {
        let artist = try JSONDecoder().decode(Artist.self, from: Data(body))
        var related: [(mbid: String, name: String, direction: String)] = []
        for relation in artist.relations ?? [] {
            let isMembership = relation.typeID == memberOfBandTypeID || (relation.typeID == nil && relation.type == "member of band")
            guard isMembership, relation.targetType ?? "artist" == "artist", let other = relation.artist,
                  MusicBrainzIDs.isWellFormed(other.id) else { continue }
            switch relation.direction {
            case "backward": related.append((other.id.lowercased(), other.name, "member"))
            case "forward": related.append((other.id.lowercased(), other.name, "band"))
            default: continue
            }
        }
        return Relations(type: artist.type, related: related)
    }
}

/// MusicBrainz ids (UUIDs written in lower-case hex with dashes).
enum MusicBrainzIDs {
    static func isWellFormed(_ id: String) -> Bool {
        id.count == 36 && id.utf8.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-")
                : (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
        }
    }
}
