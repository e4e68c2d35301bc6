/// The original app's two metadata links between songs, computed over a whole catalog.
///
/// - **cover**: same title, same non-empty composer list, different artist list (so a
///   band's own live version is not a cover of itself);
/// - **identical** recording: same title, same non-empty artist list, durations within
///   ±4.0 s (inclusive), on a different album (two songs without an album count as the
///   same album: unknown is not different).
///
/// Titles and names compare by `NameKey` (NFC, case folding, trimmed and collapsed
/// whitespace, nothing more); artist and composer lists compare as sets of keys. Songs
/// are grouped by title key first, so the work grows with the size of each title group,
/// not with the square of the catalog.
///
/// ```swift
/// let related = RelatedSongs(songs)
/// related.links(of: songID)   // (covers: [...], identical: [...])
/// ```
public struct RelatedSongs: Sendable {
    /// What the links need to know of a song.
    public struct Song: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var artists: [String]
        public var composers: [String]
        /// The album's identity (its catalog id); songs of one album are never "identical".
        public var albumID: Int64?
        /// Seconds.
        public var duration: Double

        public init(id: Int64, title: String, artists: [String], composers: [String], albumID: Int64?, duration: Double) {
            self.id = id
            self.title = title
            self.artists = artists
            self.composers = composers
            self.albumID = albumID
            self.duration = duration
        }
    }

    /// The links of one song, by song id, in ascending id order.
    public struct Links: Sendable, Equatable {
        public var covers: [Int64] = []
        public var identical: [Int64] = []
        public init(covers: [Int64] = [], identical: [Int64] = []) {
            self.covers = covers
            self.identical = identical
        }
    }

    /// The largest duration difference of identical recordings, in seconds.
    public static let identicalTolerance = 4.0

    /// A song reduced to what the links compare: its artists and composers as sorted lists
    /// of distinct ids (one id per name key), album and duration.
    struct Entry: Sendable {
        let id: Int64
        let artists: [Int64]
        let composers: [Int64]
        let albumID: Int64?
        let duration: Double

        init(id: Int64, artists: [Int64], composers: [Int64], albumID: Int64?, duration: Double) {
            self.id = id
            self.artists = artists.count < 2 ? artists : Array(Set(artists)).sorted()
            self.composers = composers.count < 2 ? composers : Array(Set(composers)).sorted()
            self.albumID = albumID
            self.duration = duration
        }
    }

    /// Songs grouped by title key; only groups of two or more can hold links.
    private let groups: [[Entry]]
    private let groupOfSong: [Int64: Int]

    /// Indexes `songs` by title key.
    public init(_ songs: [Song]) {
        var byTitle: [String: [Entry]] = [:]
        var interned: [String: Int64] = [:]
        func ids(_ names: [String]) -> [Int64] {
            names.compactMap { name in
                let key = NameKey(name).value
                guard !key.isEmpty else { return nil }
                if let id = interned[key] { return id }
                let id = Int64(interned.count)
                interned[key] = id
                return id
            }
        }
        for song in songs {
            let key = NameKey(song.title).value
            guard !key.isEmpty else { continue }
            byTitle[key, default: []].append(Entry(id: song.id, artists: ids(song.artists), composers: ids(song.composers),
                                                   albumID: song.albumID, duration: song.duration))
        }
        self.init(groups: Array(byTitle.values))
    }

    /// Songs already keyed and grouped by title key (the catalog reads them so, in SQL).
    init(groups: [[Entry]]) {
        self.groups = groups.filter { $0.count > 1 }
        var groupOfSong: [Int64: Int] = [:]
        for (index, group) in self.groups.enumerated() {
            for entry in group { groupOfSong[entry.id] = index }
        }
        self.groupOfSong = groupOfSong
    }

    /// The covers and identical recordings of the song `id` (empty for an unknown id).
    public func links(of id: Int64) -> Links {
        guard let index = groupOfSong[id], let me = groups[index].first(where: { $0.id == id }) else {
            return Links()
        }
        return Self.links(of: me, in: groups[index])
    }

    /// Every song's links, for the songs that have any.
    public func allLinks() -> [Int64: Links] {
        var result: [Int64: Links] = [:]
        for group in groups {
            for entry in group {
                let links = Self.links(of: entry, in: group)
                if !links.covers.isEmpty || !links.identical.isEmpty { result[entry.id] = links }
            }
        }
        return result
    }

    private static func links(of me: Entry, in group: [Entry]) -> Links {
        var links = Links()
        for other in group where other.id != me.id {
            if !me.composers.isEmpty, other.composers == me.composers, other.artists != me.artists {
                links.covers.append(other.id)
            }
            if other.artists == me.artists, !me.artists.isEmpty, abs(other.duration - me.duration) <= identicalTolerance,
               other.albumID != me.albumID {
                links.identical.append(other.id)
            }
        }
        links.covers.sort()
        links.identical.sort()
        return links
    }
}
