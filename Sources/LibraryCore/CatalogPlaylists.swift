import Foundation
import GRDB

/// Playlists: owned by a user, visible to others when public, songs in order (a song may
/// appear more than once). Only the owner changes or deletes a playlist.
extension Catalog {
    static let playlistSelect = """
        SELECT p.id, p.name, p.comment, p.owner_id, u.name, p.public,
               (SELECT COUNT(*) FROM library_playlist_entry e WHERE e.playlist_id = p.id),
               (SELECT COALESCE(SUM(s.duration), 0) FROM library_playlist_entry e JOIN library_song s ON s.id = e.song_id
                WHERE e.playlist_id = p.id),
               p.created_at, p.changed_at
        FROM library_playlist p JOIN users u ON u.id = p.owner_id
        """

    static func playlist(_ row: Row) -> CatalogPlaylist {
        CatalogPlaylist(id: row[0], name: row[1], comment: row[2], ownerID: row[3], owner: row[4], isPublic: row[5],
                        songCount: row[6], duration: row[7], created: row[8], changed: row[9])
    }

    /// The playlists a user may see: their own and the public ones.
    public func playlists(visibleTo userID: Int64) throws -> [CatalogPlaylist] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: "\(Self.playlistSelect) WHERE p.owner_id = ? OR p.public ORDER BY p.name COLLATE NOCASE, p.id",
                             arguments: [userID]).map(Self.playlist)
        }
    }

    /// A playlist and its songs, if the user may see it.
    public func playlist(id: Int64, userID: Int64) throws -> (CatalogPlaylist, [CatalogSong]) {
        guard let playlist = try database.pool.read({ db in
            try Row.fetchOne(db, sql: "\(Self.playlistSelect) WHERE p.id = ?", arguments: [id]).map(Self.playlist)
        }), playlist.ownerID == userID || playlist.isPublic else {
            throw CatalogError.notFound("no playlist with id \(id)")
        }
        let entries: [Int64] = try database.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT song_id FROM library_playlist_entry WHERE playlist_id = ? ORDER BY position", arguments: [id])
        }
        let songs = try self.querySongs(where: "s.id IN (SELECT song_id FROM library_playlist_entry WHERE playlist_id = ?)",
                                   arguments: [id], userID: userID)
        let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
        return (playlist, entries.compactMap { byID[$0] })
    }

    /// Creates a playlist with these songs (unknown song ids are refused).
    public func createPlaylist(name: String, songIDs: [Int64], ownerID: Int64) throws -> Int64 {
        let name = try Self.validPlaylistName(name)
        return try database.pool.write { db in
            let now = Date().timeIntervalSince1970
            try db.execute(sql: "INSERT INTO library_playlist (owner_id, name, created_at, changed_at) VALUES (?, ?, ?, ?)",
                           arguments: [ownerID, name, now, now])
            let id = db.lastInsertedRowID
            try Self.append(songIDs, to: id, db)
            return id
        }
    }

    /// Replaces the songs of an existing playlist (Subsonic createPlaylist with a playlistId).
    public func replaceSongs(playlistID: Int64, songIDs: [Int64], name: String?, userID: Int64) throws {
        try database.pool.write { db in
            try Self.checkOwner(playlistID, userID, db)
            if let name { try db.execute(sql: "UPDATE library_playlist SET name = ? WHERE id = ?", arguments: [try Self.validPlaylistName(name), playlistID]) }
            try db.execute(sql: "DELETE FROM library_playlist_entry WHERE playlist_id = ?", arguments: [playlistID])
            try Self.append(songIDs, to: playlistID, db)
            try Self.touch(playlistID, db)
        }
    }

    /// Subsonic updatePlaylist: rename, comment, public flag, songs added at the end, and
    /// songs removed by their index in the current order (indexes refer to the list before
    /// this update; out-of-range indexes are refused and nothing changes).
    public func updatePlaylist(id: Int64, userID: Int64, name: String? = nil, comment: String? = nil,
                               isPublic: Bool? = nil, add: [Int64] = [], removeIndexes: [Int] = []) throws {
        try database.pool.write { db in
            try Self.checkOwner(id, userID, db)
            if let name { try db.execute(sql: "UPDATE library_playlist SET name = ? WHERE id = ?", arguments: [try Self.validPlaylistName(name), id]) }
            if let comment { try db.execute(sql: "UPDATE library_playlist SET comment = ? WHERE id = ?", arguments: [String(comment.prefix(1000)), id]) }
            if let isPublic { try db.execute(sql: "UPDATE library_playlist SET public = ? WHERE id = ?", arguments: [isPublic, id]) }
            if !removeIndexes.isEmpty {
                let positions = try Int.fetchAll(db, sql: "SELECT position FROM library_playlist_entry WHERE playlist_id = ? ORDER BY position", arguments: [id])
                for index in Set(removeIndexes) {
                    guard positions.indices.contains(index) else {
                        throw CatalogError.invalid("the playlist has \(positions.count) songs; there is no index \(index)")
                    }
                    try db.execute(sql: "DELETE FROM library_playlist_entry WHERE playlist_id = ? AND position = ?",
                                   arguments: [id, positions[index]])
                }
            }
            try Self.append(add, to: id, db)
            try Self.touch(id, db)
        }
    }

    public func deletePlaylist(id: Int64, userID: Int64) throws {
        try database.pool.write { db in
            try Self.checkOwner(id, userID, db)
            try db.execute(sql: "DELETE FROM library_playlist WHERE id = ?", arguments: [id])
        }
    }

    private static func validPlaylistName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw CatalogError.invalid("a playlist needs a name") }
        guard trimmed.count <= 200 else { throw CatalogError.invalid("a playlist name has at most 200 characters") }
        return trimmed
    }

    private static func checkOwner(_ id: Int64, _ userID: Int64, _ db: Database) throws {
        guard let owner = try Int64.fetchOne(db, sql: "SELECT owner_id FROM library_playlist WHERE id = ?", arguments: [id]) else {
            throw CatalogError.notFound("no playlist with id \(id)")
        }
        guard owner == userID else { throw CatalogError.forbidden("only the owner may change playlist \(id)") }
    }

    private static func touch(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE library_playlist SET changed_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
    }

    private static func append(_ songIDs: [Int64], to playlistID: Int64, _ db: Database) throws {
        guard !songIDs.isEmpty else { return }
        var next = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM library_playlist_entry WHERE playlist_id = ?",
                                     arguments: [playlistID]) ?? -1) + 1
        for songID in songIDs {
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM library_song WHERE id = ?)", arguments: [songID]) == true else {
                throw CatalogError.notFound("no song with id \(songID)")
            }
            try db.execute(sql: "INSERT INTO library_playlist_entry (playlist_id, position, song_id) VALUES (?, ?, ?)",
                           arguments: [playlistID, next, songID])
            next += 1
        }
    }
}
