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

    private struct Entry {
        let id: Int64
        let artists: Set<NameKey>
        let composers: Set<NameKey>
        let albumID: Int64?
        let duration: Double
    }

    private let groupOfSong: [Int64: NameKey]
    private let groups: [NameKey: [Entry]]

    /// Indexes `songs` by title key.
    public init(_ songs: [Song]) {
        var groups: [NameKey: [Entry]] = [:]
        var groupOfSong: [Int64: NameKey] = [:]
        groupOfSong.reserveCapacity(songs.count)
        for song in songs {
            let key = NameKey(song.title)
            guard !key.isEmpty else { continue }
            groups[key, default: []].append(Entry(id: song.id, artists: NameKey.set(song.artists),
                                                  composers: NameKey.set(song.composers),
                                                  albumID: song.albumID, duration: song.duration))
            groupOfSong[song.id] = key
        }
        self.groups = groups
        self.groupOfSong = groupOfSong
    }

    /// The covers and identical recordings of the song `id` (empty for an unknown id).
    public func links(of id: Int64) -> Links {
        guard let key = groupOfSong[id], let group = groups[key], let me = group.first(where: { $0.id == id }) else {
            return Links()
        }
        return Self.links(of: me, in: group)
    }

    /// Every song's links, for the songs that have any.
    public func allLinks() -> [Int64: Links] {
        var result: [Int64: Links] = [:]
        for group in groups.values where group.count > 1 {
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
