import Foundation
import GRDB
import MediaTags
import QuintetStore

/// Stores scanned files: one transaction per batch, prepared statements, and the ids of
/// artists, genres, composers and albums kept in memory for the scan's length (looked up
/// by `NameKey`), so a song costs a handful of inserts and no lookups.
final class CatalogWriter {
    static let variousArtists = "Various Artists"
    static let unknownArtist = "Unknown Artist"

    private let database: QuintetDatabase
    private var artists: [String: Int64] = [:]
    private var genres: [String: Int64] = [:]
    private var composers: [String: Int64] = [:]
    private var albums: [AlbumKey: Int64] = [:]

    private struct AlbumKey: Hashable {
        var artist: Int64
        var key: String
    }

    init(database: QuintetDatabase) throws {
        self.database = database
        // No checkpoints (each one syncs the disk twice) and a larger page cache while the
        // scan writes; `close()` restores both and checkpoints once.
        try database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -65536")
        }
        try database.pool.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT key, id FROM library_artist") { artists[row[0]] = row[1] }
            for row in try Row.fetchAll(db, sql: "SELECT key, id FROM library_genre") { genres[row[0]] = row[1] }
            for row in try Row.fetchAll(db, sql: "SELECT key, id FROM library_composer") { composers[row[0]] = row[1] }
            for row in try Row.fetchAll(db, sql: "SELECT artist_id, key, id FROM library_album") {
                albums[AlbumKey(artist: row[0], key: row[1])] = row[2]
            }
        }
    }

    static let songColumns = """
        path, size, mtime, format, title, title_key, artist, album_id, track, track_total, disc, disc_total, year,
        date, genre, composer, comment, compilation, has_picture, codec, duration, bitrate, sample_rate, channels,
        bpm, bpm_source
        """

    /// Inserts the songs of `files` that `new` says are new, updates the others in place
    /// (by path: an updated song keeps its id, play count, stars and playlist places), and
    /// removes the songs at `removing`.
    func write(_ files: [ScannedFile], new: (String) -> Bool, removing: [String]) throws {
        let now = Date().timeIntervalSince1970
        try database.pool.write { db in
            if !removing.isEmpty { try remove(removing, db) }
            let insert = try RawStatement(db, sql: """
                INSERT INTO library_song (\(Self.songColumns), created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let update = try RawStatement(db, sql: """
                UPDATE library_song SET (\(Self.songColumns), bpm_failed_mtime) =
                    (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                WHERE path = ? RETURNING id
                """)
            let members = try MemberFacts.Statements(db)
            let clearLinks = try ["library_song_artist", "library_song_composer", "library_song_genre",
                                  "library_song_credit", "library_song_mbid"].map {
                try RawStatement(db, sql: "DELETE FROM \($0) WHERE song_id = ?")
            }
            let linkArtist = try RawStatement(db, sql: "INSERT OR IGNORE INTO library_song_artist (song_id, artist_id, position) VALUES (?, ?, ?)")
            let linkComposer = try RawStatement(db, sql: "INSERT OR IGNORE INTO library_song_composer (song_id, composer_id) VALUES (?, ?)")
            let linkGenre = try RawStatement(db, sql: "INSERT OR IGNORE INTO library_song_genre (song_id, genre_id) VALUES (?, ?)")
            for scanned in files {
                let tags = scanned.tags
                let albumArtistID = try artistID(scanned.albumArtist, db)
                let albumID = try self.albumID(scanned.album, artistID: albumArtistID, now: now, db)
                let stream = scanned.stream
                let isNew = new(scanned.file.path)
                let row = isNew ? insert : update
                row.bind(scanned.file.path); row.bind(scanned.file.size); row.bind(scanned.file.modified)
                row.bind(scanned.format); row.bind(scanned.title.text); row.bind(scanned.title.key)
                row.bind(scanned.artistText); row.bind(albumID); row.bind(tags.trackNumber); row.bind(tags.trackTotal)
                row.bind(tags.discNumber); row.bind(tags.discTotal); row.bind(tags.year); row.bind(tags.date)
                row.bind(tags.genres.first); row.bind(tags.composers.isEmpty ? nil : tags.composers.joined(separator: "; "))
                row.bind(tags.comment); row.bind(tags.compilation); row.bind(scanned.hasPicture); row.bind(stream.codec)
                row.bind(stream.duration); row.bind(stream.bitrate); row.bind(stream.sampleRate); row.bind(stream.channels)
                row.bind(tags.bpm); row.bind(tags.bpm == nil ? nil : "tag")
                let songID: Int64
                if isNew {
                    insert.bind(now)
                    try insert.run()
                    songID = db.lastInsertedRowID
                } else {
                    update.bind(scanned.file.path)
                    guard let id = try update.run() else { continue }
                    songID = id
                    for statement in clearLinks { statement.bind(songID); try statement.run() }
                }
                for (position, name) in scanned.credited.enumerated() {
                    linkArtist.bind(songID); linkArtist.bind(try artistID(name, db)); linkArtist.bind(position)
                    try linkArtist.run()
                }
                for name in scanned.composers {
                    linkComposer.bind(songID); linkComposer.bind(try namedID(name, table: "library_composer", cache: &composers, db))
                    try linkComposer.run()
                }
                for name in scanned.genres {
                    linkGenre.bind(songID); linkGenre.bind(try namedID(name, table: "library_genre", cache: &genres, db))
                    try linkGenre.run()
                }
                try members.write(scanned.memberFacts, songID: songID)
            }
        }
    }

    /// Restores the connection's defaults and folds the scan's writes into the database file.
    func close() {
        try? database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000; PRAGMA cache_size = -2000")
            _ = try? db.checkpoint(.passive)
        }
    }

    /// Removes the songs at these paths.
    func remove(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try database.pool.write { db in try remove(paths, db) }
    }

    private func remove(_ paths: [String], _ db: Database) throws {
        let delete = try db.cachedStatement(sql: "DELETE FROM library_song WHERE path = ?")
        for path in paths { try delete.execute(arguments: [path]) }
    }

    /// After the songs are written: album facts from their songs, covers, and no orphans.
    func finish(folderImages: [String: String]) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                DELETE FROM library_album WHERE id NOT IN (SELECT DISTINCT album_id FROM library_song);
                DELETE FROM library_artist WHERE id NOT IN (SELECT artist_id FROM library_song_artist)
                    AND id NOT IN (SELECT artist_id FROM library_album);
                DELETE FROM library_genre WHERE id NOT IN (SELECT genre_id FROM library_song_genre);
                DELETE FROM library_composer WHERE id NOT IN (SELECT composer_id FROM library_song_composer);
                DELETE FROM library_star WHERE (kind = 'song' AND item_id NOT IN (SELECT id FROM library_song))
                    OR (kind = 'album' AND item_id NOT IN (SELECT id FROM library_album))
                    OR (kind = 'artist' AND item_id NOT IN (SELECT id FROM library_artist));
                UPDATE library_album SET
                    year = (SELECT MIN(year) FROM library_song WHERE album_id = library_album.id),
                    disc_count = MAX(1, (SELECT MAX(MAX(COALESCE(disc_total, 1), COALESCE(disc, 1)))
                                         FROM library_song WHERE album_id = library_album.id)),
                    compilation = (SELECT MAX(compilation) FROM library_song WHERE album_id = library_album.id),
                    cover_song_id = (SELECT id FROM library_song WHERE album_id = library_album.id AND has_picture
                                     ORDER BY disc, track, path LIMIT 1);
                """)
            // A folder image of the album's first song's folder wins over embedded pictures.
            let rows = try Row.fetchAll(db, sql: "SELECT album_id, MIN(path) FROM library_song GROUP BY album_id")
            let update = try db.cachedStatement(sql: "UPDATE library_album SET cover_path = ? WHERE id = ?")
            for row in rows {
                let albumID: Int64 = row[0], path: String = row[1]
                let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
                try update.execute(arguments: [folderImages[folder], albumID])
            }
        }
        artists = [:]; genres = [:]; composers = [:]; albums = [:]
    }

    /// A song's title: the tag, else the file name without its extension (and a leading
    /// track number such as "03 - ").
    static func title(_ tag: String?, path: String) -> String {
        if let tag, !tag.trimmingWhitespace().isEmpty { return tag }
        var name = String(path.split(separator: "/").last ?? "")
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        if let match = name.firstMatch(of: /^\d{1,3}\s*[-.]\s*/) { name = String(name[match.range.upperBound...]) }
        return name.isEmpty ? "Untitled" : name
    }

    /// An artist's name without a leading English article, for sorting ("Paper Boats" for
    /// "The Paper Boats").
    static func sortName(_ name: String) -> String {
        for article in ["The ", "A ", "An "] where name.count > article.count && name.hasPrefix(article) {
            return String(name.dropFirst(article.count))
        }
        return name
    }

    private func artistID(_ name: ScannedFile.Name, _ db: Database) throws -> Int64 {
        let key = name.key
        if let id = artists[key] { return id }
        try db.cachedStatement(sql: "INSERT INTO library_artist (name, sort_name, key) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING")
            .execute(arguments: [name.text, Self.sortName(name.text), key])
        let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM library_artist WHERE key = ?"), arguments: [key])!
        artists[key] = id
        return id
    }

    private func namedID(_ name: ScannedFile.Name, table: String, cache: inout [String: Int64], _ db: Database) throws -> Int64 {
        let key = name.key
        if let id = cache[key] { return id }
        try db.cachedStatement(sql: "INSERT INTO \(table) (name, key) VALUES (?, ?) ON CONFLICT(key) DO NOTHING")
            .execute(arguments: [name.text, key])
        let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM \(table) WHERE key = ?"), arguments: [key])!
        cache[key] = id
        return id
    }

    private func albumID(_ album: ScannedFile.Name, artistID: Int64, now: Double, _ db: Database) throws -> Int64 {
        let title = album.text, key = album.key
        let cacheKey = AlbumKey(artist: artistID, key: key)
        if let id = albums[cacheKey] { return id }
        try db.cachedStatement(sql: """
            INSERT INTO library_album (title, key, artist_id, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(artist_id, key) DO NOTHING
            """).execute(arguments: [title, key, artistID, now])
        let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM library_album WHERE artist_id = ? AND key = ?"),
                                    arguments: [artistID, key])!
        albums[cacheKey] = id
        return id
    }
}
