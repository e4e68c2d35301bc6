import Foundation
import GRDB
import LibraryCore

extension MapGraph {
    /// The whole catalog as a map graph: every artist, album and song; `album_of` (album →
    /// album artist), `song_of` (song → album), `performed_by` (song → a credited artist other
    /// than its album's artist), and each cover and identical pair once (`Catalog.allRelated()`,
    /// LibraryCore's rules). Nodes come in kind order, then by id, so an unchanged catalog gives
    /// the same graph.
    ///
    /// The one place that reads the catalog for the map: when the MusicGraph core's own graph
    /// lands, this switches to it (and gains `member_of`).
    public init(catalog: Catalog) throws {
        self.init()
        let (artists, albums, songs, credits) = try catalog.database.pool.read { db in
            (try Int64.fetchAll(db, sql: "SELECT id FROM library_artist ORDER BY id"),
             try Row.fetchAll(db, sql: "SELECT id, artist_id FROM library_album ORDER BY id").map { ($0[0] as Int64, $0[1] as Int64) },
             try Row.fetchAll(db, sql: "SELECT id, album_id FROM library_song ORDER BY id").map { ($0[0] as Int64, $0[1] as Int64) },
             try Row.fetchAll(db, sql: """
                SELECT sa.song_id, sa.artist_id FROM library_song_artist sa JOIN library_song s ON s.id = sa.song_id
                JOIN library_album al ON al.id = s.album_id WHERE sa.artist_id != al.artist_id ORDER BY sa.song_id, sa.position
                """).map { ($0[0] as Int64, $0[1] as Int64) })
        }
        var artistIndex: [Int64: Int32] = [:], albumIndex: [Int64: Int32] = [:], songIndex: [Int64: Int32] = [:]
        artistIndex.reserveCapacity(artists.count); albumIndex.reserveCapacity(albums.count); songIndex.reserveCapacity(songs.count)
        for id in artists { artistIndex[id] = addNode(.artist, id: id) }
        for (id, _) in albums { albumIndex[id] = addNode(.album, id: id) }
        for (id, _) in songs { songIndex[id] = addNode(.song, id: id) }
        for (id, artist) in albums {
            if let a = artistIndex[artist] { addEdge(albumIndex[id]!, a, .albumOf) }
        }
        for (id, album) in songs {
            if let a = albumIndex[album] { addEdge(songIndex[id]!, a, .songOf) }
        }
        for (song, artist) in credits {
            if let s = songIndex[song], let a = artistIndex[artist] { addEdge(s, a, .performedBy) }
        }
        let related = try catalog.allRelated()
        for song in related.keys.sorted() {
            guard let s = songIndex[song], let links = related[song] else { continue }
            for other in links.covers where other > song { if let o = songIndex[other] { addEdge(s, o, .cover) } }
            for other in links.identical where other > song { if let o = songIndex[other] { addEdge(s, o, .identical) } }
        }
    }
}

/// Names of map nodes, read on demand (the map's binary answer carries none).
public enum MapNames {
    /// The name of each `KIND:ID` key that exists (artist name, album title, song title), in
    /// the order asked; unknown keys are left out.
    public static func names(of keys: [(MapGraph.NodeKind, Int64)], catalog: Catalog) throws -> [(MapGraph.NodeKind, Int64, String)] {
        var wanted: [MapGraph.NodeKind: [Int64]] = [:]
        for (kind, id) in keys { wanted[kind, default: []].append(id) }
        var found: [MapGraph.NodeKind: [Int64: String]] = [:]
        try catalog.database.pool.read { db in
            for (kind, ids) in wanted {
                let (table, column) = switch kind {
                case .artist: ("library_artist", "name")
                case .album: ("library_album", "title")
                case .song: ("library_song", "title")
                }
                let list = ids.map(String.init).joined(separator: ",")
                for row in try Row.fetchAll(db, sql: "SELECT id, \(column) FROM \(table) WHERE id IN (\(list))") {
                    found[kind, default: [:]][row[0]] = row[1]
                }
            }
        }
        return keys.compactMap { kind, id in found[kind]?[id].map { (kind, id, $0) } }
    }
}
