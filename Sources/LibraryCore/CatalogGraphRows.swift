import Foundation
import GRDB

/// The catalog as the music graph reads it: every artist, album and song with only the facts
/// the graph needs, read in three sequential scans through SQLite's C API (a 100,000-song
/// catalog in well under a second), plus the cover and identical links of ``RelatedSongs``.
public struct CatalogGraphRows: Sendable {
    public struct Artist: Sendable, Equatable {
        public var id: Int64
        public var name: String
    }
    public struct Album: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var artistID: Int64
        public var year: Int?
        public var hasCover: Bool
    }
    public struct Song: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var albumID: Int64
        /// The credit as displayed ("A feat. B").
        public var artist: String
        /// Every credited artist, in credit order.
        public var artistIDs: [Int64]
        public var track: Int?
        public var disc: Int?
        public var duration: Double?
        /// The effective BPM (an override set by hand wins).
        public var bpm: Double?
    }
    public var artists: [Artist] = []
    public var albums: [Album] = []
    public var songs: [Song] = []
    /// Covers and identical recordings, by song id (``RelatedSongs``' rules).
    public var related: [Int64: RelatedSongs.Links] = [:]
}

extension Catalog {
    /// Every artist, album and song as ``CatalogGraphRows``, read in one transaction.
    public func graphRows() throws -> CatalogGraphRows {
        try database.pool.read { db -> CatalogGraphRows in
            var rows = CatalogGraphRows()
            func string(_ row: RawRow, _ column: Int32) -> String { String(decoding: row.text(column), as: UTF8.self) }
            try RawStatement(db, sql: "SELECT id, name FROM library_artist ORDER BY id").forEachRow { row in
                rows.artists.append(.init(id: row.int64(0), name: string(row, 1)))
            }
            try RawStatement(db, sql: """
                SELECT id, title, artist_id, year, (cover_path IS NOT NULL OR cover_song_id IS NOT NULL)
                FROM library_album ORDER BY id
                """).forEachRow { row in
                rows.albums.append(.init(id: row.int64(0), title: string(row, 1), artistID: row.int64(2),
                                         year: row.isNull(3) ? nil : Int(row.int64(3)), hasCover: row.int64(4) != 0))
            }
            var index: [Int64: Int] = [:]
            try RawStatement(db, sql: """
                SELECT id, title, album_id, artist, track, disc, duration, COALESCE(bpm_override, bpm)
                FROM library_song ORDER BY id
                """).forEachRow { row in
                index[row.int64(0)] = rows.songs.count
                rows.songs.append(.init(id: row.int64(0), title: string(row, 1), albumID: row.int64(2), artist: string(row, 3),
                                        artistIDs: [], track: row.isNull(4) ? nil : Int(row.int64(4)),
                                        disc: row.isNull(5) ? nil : Int(row.int64(5)),
                                        duration: row.isNull(6) ? nil : row.double(6), bpm: row.isNull(7) ? nil : row.double(7)))
            }
            try RawStatement(db, sql: "SELECT song_id, artist_id FROM library_song_artist ORDER BY song_id, position").forEachRow { row in
                if let at = index[row.int64(0)] { rows.songs[at].artistIDs.append(row.int64(1)) }
            }
            rows.related = RelatedSongs(groups: try Self.relatedGroups(key: nil, db)).allLinks()
            return rows
        }
    }
}

extension Catalog {
    /// A cheap fingerprint of what the graph is built from (counts, largest ids, the sum of file
    /// times and of effective BPMs, band ↔ member relations and lookups): equal fingerprints mean
    /// the graph need not be rebuilt. One pass over the songs (a few ms per 10,000 songs).
    public func graphFingerprint() throws -> String {
        try database.pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM library_song), (SELECT max(id) FROM library_song),
                       (SELECT total(mtime) FROM library_song), (SELECT total(COALESCE(bpm_override, bpm)) FROM library_song),
                       (SELECT count(*) FROM library_album), (SELECT max(id) FROM library_album),
                       (SELECT count(*) FROM library_artist), (SELECT max(id) FROM library_artist),
                       (SELECT count(*) FROM library_song_artist),
                       (SELECT count(*) FROM library_member_user), (SELECT total(added_at) FROM library_member_user),
                       (SELECT count(*) FROM library_member_lookup), (SELECT total(at) FROM library_member_lookup)
                """)!
            return (0..<row.count).map { "\(row[$0] as DatabaseValue)" }.joined(separator: "|")
        }
    }
}
