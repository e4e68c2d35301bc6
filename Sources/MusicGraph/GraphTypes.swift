/// The kinds of node of the music graph.
public enum NodeKind: String, Sendable, CaseIterable, Codable {
    case artist, album, song
}

/// One node: its kind and the catalog id of the thing (the `/api` id).
///
/// Written `KIND:ID` in URLs (`song:12`); Subsonic ids (`ar-12`, `al-5`, `tr-99`) are read too.
public struct NodeRef: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var kind: NodeKind
    public var id: Int64

    public init(_ kind: NodeKind, _ id: Int64) {
        self.kind = kind
        self.id = id
    }

    /// Parses `artist:12`, `album:5`, `song:99` or a Subsonic id (`ar-12`, `al-5`, `tr-99`);
    /// nil for anything else (unknown kind, an id that is not a positive integer).
    public init?(parsing text: Substring) {
        let kind: NodeKind, number: Substring
        if let colon = text.firstIndex(of: ":") {
            guard let parsed = NodeKind(rawValue: String(text[..<colon])) else { return nil }
            kind = parsed
            number = text[text.index(after: colon)...]
        } else if text.count > 3, text.dropFirst(2).first == "-" {
            switch text.prefix(2) {
            case "ar": kind = .artist
            case "al": kind = .album
            case "tr": kind = .song
            default: return nil
            }
            number = text.dropFirst(3)
        } else {
            return nil
        }
        guard !number.isEmpty, number.count <= 18, number.allSatisfy({ $0 >= "0" && $0 <= "9" }),
              let id = Int64(number), id > 0 else { return nil }
        self.init(kind, id)
    }

    public init?(parsing text: String) { self.init(parsing: Substring(text)) }

    public var description: String { "\(kind.rawValue):\(id)" }

    public static func < (a: NodeRef, b: NodeRef) -> Bool {
        a.kind == b.kind ? a.id < b.id : NodeKind.allCases.firstIndex(of: a.kind)! < NodeKind.allCases.firstIndex(of: b.kind)!
    }
}

/// The kinds of link, each one bit of a pair's mask (two nodes may be linked in more than one way:
/// a cover that also has the same tempo).
///
/// Listed in the order of precedence used when one link has to stand for a pair.
public enum EdgeKind: String, Sendable, CaseIterable, Codable {
    /// album → its songs
    case songOf = "song_of"
    /// artist → the albums it is the album artist of
    case albumOf = "album_of"
    /// artist → a song crediting it on an album of another artist (duets, "feat.", compilations)
    case performedBy = "performed_by"
    /// person → band
    case memberOf = "member_of"
    /// the same recording on another album (LibraryCore's `RelatedSongs`)
    case identical
    /// same title and composers, other artists (LibraryCore's `RelatedSongs`)
    case cover
    /// songs whose tempo agrees within 3 %, or at half or double time
    case tempo

    public var bit: UInt8 { 1 << UInt8(Self.allCases.firstIndex(of: self)!) }

    /// The kinds in a mask, in precedence order.
    public static func kinds(in mask: UInt8) -> [EdgeKind] { allCases.filter { mask & $0.bit != 0 } }

    /// The mask of every kind.
    public static let all: UInt8 = allCases.reduce(0) { $0 | $1.bit }
}

/// A band ↔ member link with where it comes from ("tags", "musicbrainz", "user").
public struct MemberLink: Sendable, Equatable, Hashable {
    public var band: Int64
    public var member: Int64
    public var sources: [String]

    public init(band: Int64, member: Int64, sources: [String]) {
        self.band = band
        self.member = member
        self.sources = sources
    }
}

/// Everything the graph is built from: the library's artists, albums and songs with the facts
/// the graph shows or links by, the cover and identical pairs (LibraryCore's rules) and the
/// band ↔ member links. Plain values: a catalog, a test or a generator can make one.
public struct GraphSnapshot: Sendable {
    public struct Artist: Sendable, Equatable {
        public var id: Int64
        public var name: String
        public init(id: Int64, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct Album: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var artistID: Int64
        public var year: Int?
        public var hasCover: Bool
        public init(id: Int64, title: String, artistID: Int64, year: Int? = nil, hasCover: Bool = false) {
            self.id = id
            self.title = title
            self.artistID = artistID
            self.year = year
            self.hasCover = hasCover
        }
    }

    public struct Song: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var albumID: Int64
        /// The credit as displayed.
        public var artist: String
        /// Every credited artist, in credit order.
        public var artistIDs: [Int64]
        public var track: Int?
        public var disc: Int?
        /// Seconds.
        public var duration: Double?
        public var bpm: Double?
        public init(id: Int64, title: String, albumID: Int64, artist: String, artistIDs: [Int64], track: Int? = nil,
                    disc: Int? = nil, duration: Double? = nil, bpm: Double? = nil) {
            self.id = id
            self.title = title
            self.albumID = albumID
            self.artist = artist
            self.artistIDs = artistIDs
            self.track = track
            self.disc = disc
            self.duration = duration
            self.bpm = bpm
        }
    }

    public var artists: [Artist]
    public var albums: [Album]
    public var songs: [Song]
    /// Song pairs, each once (either order).
    public var covers: [(Int64, Int64)]
    public var identical: [(Int64, Int64)]
    public var members: [MemberLink]

    public init(artists: [Artist], albums: [Album], songs: [Song], covers: [(Int64, Int64)] = [],
                identical: [(Int64, Int64)] = [], members: [MemberLink] = []) {
        self.artists = artists
        self.albums = albums
        self.songs = songs
        self.covers = covers
        self.identical = identical
        self.members = members
    }
}
