import Foundation
import GRDB
import QuintetStore

/// The music catalog of one library folder, stored in the Quintet database: what the
/// scanner writes and what the library routes, the Subsonic API and the graph read.
///
/// Queries that depend on who asks (stars) take the user's id; `nil` means nobody.
///
/// ```swift
/// let catalog = Catalog(database: database)
/// try CatalogScanner(catalog: catalog).scan(root: URL(fileURLWithPath: "/music"))
/// let albums = try catalog.albums(of: artistID, userID: nil)
/// ```
public final class Catalog: Sendable {
    public let database: QuintetDatabase

    public init(database: QuintetDatabase) {
        self.database = database
    }

    // MARK: root

    /// The folder this catalog describes, if one was ever scanned.
    public func root() throws -> URL? {
        try database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT path FROM library_root WHERE id = 1").map { URL(fileURLWithPath: $0) }
        }
    }

    /// Records the library folder; a different folder from the last one empties the catalog
    /// (songs, albums, artists, genres, composers, stars; playlists keep their names).
    public func setRoot(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        try database.pool.write { db in
            let old = try String.fetchOne(db, sql: "SELECT path FROM library_root WHERE id = 1")
            guard old != path else { return }
            if old != nil {
                try db.execute(sql: """
                    DELETE FROM library_playlist_entry; DELETE FROM library_star; DELETE FROM library_runner_never;
                    DELETE FROM library_song_artist;
                    DELETE FROM library_song_composer; DELETE FROM library_song_genre; DELETE FROM library_song;
                    DELETE FROM library_album; DELETE FROM library_artist; DELETE FROM library_genre;
                    DELETE FROM library_composer;
                    """)
            }
            try db.execute(sql: "INSERT INTO library_root (id, path) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET path = excluded.path, scanned_at = NULL",
                           arguments: [path])
        }
    }

    /// The file of a song on disk, checked to lie inside the library root (a catalog path
    /// never comes from a request, but a tampered database must not reach outside either).
    public func fileURL(of song: CatalogSong) throws -> URL {
        try fileURL(relative: song.path)
    }

    /// The absolute URL of a path relative to the root; refuses anything that leaves the root.
    public func fileURL(relative path: String) throws -> URL {
        guard let root = try root() else { throw CatalogError.notFound("no library has been scanned") }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }),
              !path.contains("\0") else {
            throw CatalogError.forbidden("the path \(path) leaves the library folder")
        }
        return root.appendingPathComponent(path)
    }

    // MARK: counts

    public func counts() throws -> CatalogCounts {
        try database.pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM library_song), (SELECT COUNT(*) FROM library_album),
                       (SELECT COUNT(*) FROM library_artist), (SELECT COUNT(*) FROM library_genre)
                """)!
            return CatalogCounts(songs: row[0], albums: row[1], artists: row[2], genres: row[3])
        }
    }

    // MARK: songs

    static let songColumns = """
        s.id, s.path, s.title, s.artist,
        (SELECT artist_id FROM library_song_artist sa WHERE sa.song_id = s.id ORDER BY position LIMIT 1) AS first_artist,
        al.title AS album_title, s.album_id, aa.name AS album_artist, al.artist_id AS album_artist_id,
        s.track, s.disc, s.year, s.genre, s.composer, s.duration, s.bitrate, s.sample_rate, s.channels,
        \(effectiveBPM) AS bpm, \(effectiveBPMSource) AS bpm_source, s.format, s.codec, s.size, s.compilation,
        s.has_picture, s.play_count, st.starred_at, s.created_at,
        (s.has_picture OR al.cover_path IS NOT NULL OR al.cover_song_id IS NOT NULL) AS has_cover,
        s.bpm AS analysed_bpm
        """

    /// The BPM a song is played at, in SQL over `s`: the override set by hand, else the tag's or
    /// the analysis's (`bpm`, which scans and the BPM worker write and never an override).
    static let effectiveBPM = "COALESCE(s.bpm_override, s.bpm)"
    /// Where the effective BPM comes from: "override", else `bpm_source` ("tag", "analysis" or NULL).
    static let effectiveBPMSource = "CASE WHEN s.bpm_override IS NOT NULL THEN 'override' ELSE s.bpm_source END"

    /// `FROM` and joins of a song query; the one argument is the user id for stars.
    static let songFrom = """
        FROM library_song s JOIN library_album al ON al.id = s.album_id JOIN library_artist aa ON aa.id = al.artist_id
        LEFT JOIN library_star st ON st.kind = 'song' AND st.item_id = s.id AND st.user_id = ?
        """

    static func song(_ row: Row) -> CatalogSong {
        CatalogSong(id: row[0], path: row[1], title: row[2], artist: row[3], artistID: row[4], album: row[5],
                    albumID: row[6], albumArtist: row[7], albumArtistID: row[8], track: row[9], disc: row[10],
                    year: row[11], genre: row[12], composer: row[13], duration: row[14], bitrate: row[15],
                    sampleRate: row[16], channels: row[17], bpm: row[18], bpmSource: row[19], format: row[20],
                    codec: row[21], size: row[22], compilation: row[23], hasPicture: row[24], playCount: row[25],
                    starred: row[26], created: row[27], hasCover: row[28], analysedBPM: row[29])
    }

    /// Every song, by id.
    public func songs(userID: Int64?) throws -> [CatalogSong] { try querySongs(userID: userID) }

    /// The song stored at `path` (relative to the library folder, as scanned), if any.
    public func song(path: String, userID: Int64? = nil) throws -> CatalogSong? {
        try querySongs(where: "s.path = ?", arguments: [path], userID: userID).first
    }

    /// Songs matching a `WHERE` clause (written in terms of `s`, `al`, `aa`), in `order`. The
    /// SQL stays inside the module: callers outside use the typed queries above and below.
    func querySongs(where clause: String = "1", arguments: StatementArguments = [], order: String = "s.id",
                      limit: Int? = nil, offset: Int = 0, userID: Int64?) throws -> [CatalogSong] {
        try database.pool.read { db in
            var sql = "SELECT \(Self.songColumns) \(Self.songFrom) WHERE \(clause) ORDER BY \(order)"
            var args: StatementArguments = [userID]
            args += arguments
            if let limit { sql += " LIMIT ? OFFSET ?"; args += [limit, offset] }
            return try Row.fetchAll(db, sql: sql, arguments: args).map(Self.song)
        }
    }

    /// Every song with a known tempo, as (id, effective BPM: an override if set) only: what a song
    /// matcher needs, without loading whole songs (the runner's live sockets each keep one such list).
    public func songTempos() throws -> [(id: Int64, bpm: Double)] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT s.id, \(Self.effectiveBPM) FROM library_song s WHERE \(Self.effectiveBPM) > 0 ORDER BY s.id")
                .map { ($0[0], $0[1]) }
        }
    }

    public func song(id: Int64, userID: Int64? = nil) throws -> CatalogSong {
        guard let song = try querySongs(where: "s.id = ?", arguments: [id], userID: userID).first else {
            throw CatalogError.notFound("no song with id \(id)")
        }
        return song
    }

    /// Songs of an album in disc and track order.
    public func songs(ofAlbum albumID: Int64, userID: Int64?) throws -> [CatalogSong] {
        try querySongs(where: "s.album_id = ?", arguments: [albumID], order: "COALESCE(s.disc, 1), s.track, s.title, s.id", userID: userID)
    }

    /// Random songs, optionally of a genre and a year range.
    public func randomSongs(count: Int, genre: String? = nil, fromYear: Int? = nil, toYear: Int? = nil,
                            userID: Int64?) throws -> [CatalogSong] {
        var clauses = ["1"]
        var args: StatementArguments = []
        if let genre {
            clauses.append("s.id IN (SELECT song_id FROM library_song_genre sg JOIN library_genre g ON g.id = sg.genre_id WHERE g.key = ?)")
            args += [NameKey(genre).value]
        }
        if let fromYear { clauses.append("s.year >= ?"); args += [fromYear] }
        if let toYear { clauses.append("s.year <= ?"); args += [toYear] }
        return try querySongs(where: clauses.joined(separator: " AND "), arguments: args, order: "RANDOM()",
                         limit: count, userID: userID)
    }

    /// Songs of a genre.
    public func songs(ofGenre genre: String, count: Int, offset: Int, userID: Int64?) throws -> [CatalogSong] {
        try querySongs(where: "s.id IN (SELECT song_id FROM library_song_genre sg JOIN library_genre g ON g.id = sg.genre_id WHERE g.key = ?)",
                  arguments: [NameKey(genre).value], order: "s.title_key, s.id", limit: count, offset: offset, userID: userID)
    }

    // MARK: albums

    static let albumColumns = """
        al.id, al.title, aa.name, al.artist_id, al.year,
        (SELECT s.genre FROM library_song s WHERE s.album_id = al.id AND s.genre IS NOT NULL ORDER BY s.disc, s.track LIMIT 1),
        al.disc_count, al.compilation,
        (SELECT COUNT(*) FROM library_song s WHERE s.album_id = al.id),
        (SELECT COALESCE(SUM(s.duration), 0) FROM library_song s WHERE s.album_id = al.id),
        (al.cover_path IS NOT NULL OR al.cover_song_id IS NOT NULL),
        (SELECT COALESCE(SUM(s.play_count), 0) FROM library_song s WHERE s.album_id = al.id),
        st.starred_at, al.created_at
        """

    static let albumFrom = """
        FROM library_album al JOIN library_artist aa ON aa.id = al.artist_id
        LEFT JOIN library_star st ON st.kind = 'album' AND st.item_id = al.id AND st.user_id = ?
        """

    static func album(_ row: Row) -> CatalogAlbum {
        CatalogAlbum(id: row[0], title: row[1], artist: row[2], artistID: row[3], year: row[4], genre: row[5],
                     discCount: row[6], compilation: row[7], songCount: row[8], duration: row[9], hasCover: row[10],
                     playCount: row[11], starred: row[12], created: row[13])
    }

    /// Every album, by key.
    public func albums(userID: Int64?) throws -> [CatalogAlbum] { try queryAlbums(userID: userID) }

    /// Albums matching a clause (in terms of `al`, `ar`), in `order`.
    func queryAlbums(where clause: String = "1", arguments: StatementArguments = [], order: String = "al.key, al.id",
                       limit: Int? = nil, offset: Int = 0, userID: Int64?) throws -> [CatalogAlbum] {
        try database.pool.read { db in
            var sql = "SELECT \(Self.albumColumns) \(Self.albumFrom) WHERE \(clause) ORDER BY \(order)"
            var args: StatementArguments = [userID]
            args += arguments
            if let limit { sql += " LIMIT ? OFFSET ?"; args += [limit, offset] }
            return try Row.fetchAll(db, sql: sql, arguments: args).map(Self.album)
        }
    }

    public func album(id: Int64, userID: Int64? = nil) throws -> CatalogAlbum {
        guard let album = try queryAlbums(where: "al.id = ?", arguments: [id], userID: userID).first else {
            throw CatalogError.notFound("no album with id \(id)")
        }
        return album
    }

    /// The albums an artist is the album artist of, oldest first.
    public func albums(ofArtist artistID: Int64, userID: Int64?) throws -> [CatalogAlbum] {
        try queryAlbums(where: "al.artist_id = ?", arguments: [artistID], order: "al.year, al.key, al.id", userID: userID)
    }

    /// The kinds of album list Subsonic's getAlbumList2 offers.
    public enum AlbumListKind: String, Sendable, CaseIterable {
        case random, newest, frequent, recent, starred, alphabeticalByName, alphabeticalByArtist, byYear, byGenre, highest
    }

    /// An album list: `fromYear`/`toYear` for byYear (descending when from > to), `genre` for byGenre.
    public func albumList(_ kind: AlbumListKind, size: Int, offset: Int, fromYear: Int? = nil, toYear: Int? = nil,
                          genre: String? = nil, userID: Int64?) throws -> [CatalogAlbum] {
        switch kind {
        case .random:
            return try queryAlbums(order: "RANDOM()", limit: size, userID: userID)
        case .newest:
            return try queryAlbums(order: "al.created_at DESC, al.id DESC", limit: size, offset: offset, userID: userID)
        case .frequent, .highest:
            return try queryAlbums(where: "EXISTS (SELECT 1 FROM library_song s WHERE s.album_id = al.id AND s.play_count > 0)",
                              order: "(SELECT SUM(s.play_count) FROM library_song s WHERE s.album_id = al.id) DESC, al.id",
                              limit: size, offset: offset, userID: userID)
        case .recent:
            return try queryAlbums(where: "EXISTS (SELECT 1 FROM library_song s WHERE s.album_id = al.id AND s.last_played IS NOT NULL)",
                              order: "(SELECT MAX(s.last_played) FROM library_song s WHERE s.album_id = al.id) DESC, al.id",
                              limit: size, offset: offset, userID: userID)
        case .starred:
            return try queryAlbums(where: "st.starred_at IS NOT NULL", order: "st.starred_at DESC", limit: size, offset: offset, userID: userID)
        case .alphabeticalByName:
            return try queryAlbums(order: "al.key, al.id", limit: size, offset: offset, userID: userID)
        case .alphabeticalByArtist:
            return try queryAlbums(order: "aa.sort_name COLLATE NOCASE, al.key, al.id", limit: size, offset: offset, userID: userID)
        case .byYear:
            let from = fromYear ?? 0, to = toYear ?? 9999
            let (lo, hi) = (min(from, to), max(from, to))
            return try queryAlbums(where: "al.year BETWEEN ? AND ?", arguments: [lo, hi],
                              order: from > to ? "al.year DESC, al.key" : "al.year, al.key",
                              limit: size, offset: offset, userID: userID)
        case .byGenre:
            guard let genre else { throw CatalogError.invalid("byGenre needs a genre") }
            return try queryAlbums(where: """
                EXISTS (SELECT 1 FROM library_song s JOIN library_song_genre sg ON sg.song_id = s.id
                        JOIN library_genre g ON g.id = sg.genre_id WHERE s.album_id = al.id AND g.key = ?)
                """, arguments: [NameKey(genre).value], order: "al.key, al.id", limit: size, offset: offset, userID: userID)
        }
    }

    // MARK: artists

    static let artistColumns = """
        ar.id, ar.name, ar.sort_name,
        (SELECT COUNT(*) FROM library_album al WHERE al.artist_id = ar.id),
        (SELECT COUNT(*) FROM library_song_artist sa WHERE sa.artist_id = ar.id),
        st.starred_at
        """

    static let artistFrom = """
        FROM library_artist ar
        LEFT JOIN library_star st ON st.kind = 'artist' AND st.item_id = ar.id AND st.user_id = ?
        """

    static func artist(_ row: Row) -> CatalogArtist {
        CatalogArtist(id: row[0], name: row[1], sortName: row[2], albumCount: row[3], songCount: row[4], starred: row[5])
    }

    /// Every artist (album artists and artists credited on songs), by sort name.
    public func artists(userID: Int64?) throws -> [CatalogArtist] { try queryArtists(userID: userID) }

    /// Artists that own at least one album (what Subsonic's getArtists and getIndexes list;
    /// artists only credited on songs are found by search).
    public func albumArtists(userID: Int64?) throws -> [CatalogArtist] {
        try queryArtists(where: "EXISTS (SELECT 1 FROM library_album al WHERE al.artist_id = ar.id)", userID: userID)
    }

    /// Artists matching a clause (in terms of `ar`), by sort name.
    func queryArtists(where clause: String = "1", arguments: StatementArguments = [], limit: Int? = nil,
                        offset: Int = 0, userID: Int64?) throws -> [CatalogArtist] {
        try database.pool.read { db in
            var sql = "SELECT \(Self.artistColumns) \(Self.artistFrom) WHERE \(clause) ORDER BY ar.sort_name COLLATE NOCASE, ar.id"
            var args: StatementArguments = [userID]
            args += arguments
            if let limit { sql += " LIMIT ? OFFSET ?"; args += [limit, offset] }
            return try Row.fetchAll(db, sql: sql, arguments: args).map(Self.artist)
        }
    }

    public func artist(id: Int64, userID: Int64? = nil) throws -> CatalogArtist {
        guard let artist = try queryArtists(where: "ar.id = ?", arguments: [id], userID: userID).first else {
            throw CatalogError.notFound("no artist with id \(id)")
        }
        return artist
    }

    /// Songs crediting an artist (as track artist, featured or not).
    public func songs(ofArtist artistID: Int64, userID: Int64?) throws -> [CatalogSong] {
        try querySongs(where: "s.id IN (SELECT song_id FROM library_song_artist WHERE artist_id = ?)", arguments: [artistID],
                  order: "al.year, al.key, COALESCE(s.disc, 1), s.track, s.id", userID: userID)
    }

    // MARK: genres

    public func genres() throws -> [CatalogGenre] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT g.name, COUNT(sg.song_id), COUNT(DISTINCT s.album_id)
                FROM library_genre g JOIN library_song_genre sg ON sg.genre_id = g.id JOIN library_song s ON s.id = sg.song_id
                GROUP BY g.id ORDER BY g.key
                """).map { CatalogGenre(name: $0[0], songCount: $0[1], albumCount: $0[2]) }
        }
    }

    // MARK: search

    /// Artists, albums and songs whose name or title contains every word of `query`
    /// (case-insensitive; an empty query matches everything, as Subsonic clients expect
    /// when they sync the whole library with search3).
    public func search(_ query: String, artistCount: Int = 20, artistOffset: Int = 0, albumCount: Int = 20,
                       albumOffset: Int = 0, songCount: Int = 20, songOffset: Int = 0,
                       userID: Int64?) throws -> (artists: [CatalogArtist], albums: [CatalogAlbum], songs: [CatalogSong]) {
        let clause = Self.searchClause(query)
        let (artistClause, artistArgs) = clause("ar.key")
        let (albumClause, albumArgs) = clause(Self.albumSearchText)
        let (songClause, songArgs) = clause(Self.songSearchText)
        return (
            try queryArtists(where: artistClause, arguments: artistArgs, limit: artistCount, offset: artistOffset, userID: userID),
            try queryAlbums(where: albumClause, arguments: albumArgs, limit: albumCount, offset: albumOffset, userID: userID),
            try querySongs(where: songClause, arguments: songArgs, order: "s.title_key, s.id", limit: songCount,
                      offset: songOffset, userID: userID)
        )
    }

    /// How many songs `search` would find for `query` (all songs for an empty query).
    public func searchSongCount(_ query: String) throws -> Int {
        let (clause, args) = Self.searchClause(query)(Self.songSearchText)
        return try database.pool.read { db in
            var all: StatementArguments = [nil as Int64?]
            all += args
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) \(Self.songFrom) WHERE \(clause)", arguments: all) ?? 0
        }
    }

    static let albumSearchText = "(al.key || ' ' || lower(aa.name))"
    static let songSearchText = "(s.title_key || ' ' || lower(s.artist) || ' ' || lower(al.title))"

    /// A function that turns a column expression into `column LIKE %word%` for every word of
    /// `query` (NameKey-folded; quotes and lone `*` ignored), with its arguments.
    static func searchClause(_ query: String) -> (String) -> (String, StatementArguments) {
        let words = NameKey(query.replacingOccurrences(of: "\"", with: " ")).value.split(separator: " ").map(String.init)
            .filter { $0 != "*" }
        return { column in
            guard !words.isEmpty else { return ("1", []) }
            var args: StatementArguments = []
            for word in words { args += ["%" + Self.likeEscaped(word.trimmingCharacters(in: CharacterSet(charactersIn: "*"))) + "%"] }
            return (words.map { _ in "\(column) LIKE ? ESCAPE '\\'" }.joined(separator: " AND "), args)
        }
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    // MARK: related songs

    /// The covers and identical recordings of a song (see `RelatedSongs`): only the songs
    /// with the same title key are read, through the title-key index.
    public func related(songID: Int64, userID: Int64? = nil) throws -> (covers: [CatalogSong], identical: [CatalogSong]) {
        let groups: [[RelatedSongs.Entry]] = try database.pool.read { db in
            guard let key = try String.fetchOne(db, sql: "SELECT title_key FROM library_song WHERE id = ?", arguments: [songID]) else {
                throw CatalogError.notFound("no song with id \(songID)")
            }
            return try Self.relatedGroups(key: key, db)
        }
        let links = RelatedSongs(groups: groups).links(of: songID)
        let wanted = Set(links.covers + links.identical)
        guard !wanted.isEmpty else { return ([], []) }
        let list = try querySongs(where: "s.id IN (\(wanted.map(String.init).joined(separator: ",")))", userID: userID)
        let byID = Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
        return (links.covers.compactMap { byID[$0] }, links.identical.compactMap { byID[$0] })
    }

    /// Every link in the catalog (for the graph and for `quintet bench related --catalog`).
    public func allRelated() throws -> [Int64: RelatedSongs.Links] {
        let groups = try database.pool.read { db in try Self.relatedGroups(key: nil, db) }
        return RelatedSongs(groups: groups).allLinks()
    }

    /// The songs of one title key, or (key nil) of every title key that more than one song
    /// shares — a title alone can have no links — grouped by title key. Artists and
    /// composers are compared by id (one id per name key).
    ///
    /// For the whole catalog this is three sequential scans read through SQLite's C API —
    /// the title-key index in key order, the songs, the two join tables — and the grouping
    /// happens here: asking SQLite for the shared titles' songs with their artists took four
    /// times as long on a 100,000-song catalog.
    static func relatedGroups(key: String?, _ db: Database) throws -> [[RelatedSongs.Entry]] {
        var groups: [[Int64]] = []
        let byKey = try RawStatement(db, sql: key == nil
            ? "SELECT title_key, id FROM library_song ORDER BY title_key, id"
            : "SELECT title_key, id FROM library_song WHERE title_key = ? ORDER BY id")
        if let key { byKey.bind(key) }
        var previous: [UInt8] = [], current: [Int64] = []
        try byKey.forEachRow { row in
            let text = row.text(0)
            if text.count == 0 { return }
            if !text.elementsEqual(previous) {
                if current.count > 1 { groups.append(current) }
                current = []
                previous = Array(text)
            }
            current.append(row.int64(1))
        }
        if current.count > 1 { groups.append(current) }
        guard !groups.isEmpty else { return [] }

        // Facts of the grouped songs only.
        struct Facts { var albumID: Int64?; var duration: Double; var artists: [Int64] = []; var composers: [Int64] = [] }
        var facts: [Int64: Facts] = [:]
        facts.reserveCapacity(groups.reduce(0) { $0 + $1.count })
        for group in groups { for id in group { facts[id] = Facts(albumID: nil, duration: 0) } }
        let single = key != nil
        let idList = single ? groups.flatMap { $0 }.map(String.init).joined(separator: ",") : ""
        let restrict = { (column: String) in single ? " WHERE \(column) IN (\(idList))" : "" }
        try RawStatement(db, sql: "SELECT id, album_id, duration FROM library_song" + restrict("id")).forEachRow { row in
            let id = row.int64(0)
            facts[id]?.albumID = row.isNull(1) ? nil : row.int64(1)
            facts[id]?.duration = row.isNull(2) ? 0 : row.double(2)
        }
        try RawStatement(db, sql: "SELECT song_id, artist_id FROM library_song_artist" + restrict("song_id")).forEachRow { row in
            facts[row.int64(0)]?.artists.append(row.int64(1))
        }
        try RawStatement(db, sql: "SELECT song_id, composer_id FROM library_song_composer" + restrict("song_id")).forEachRow { row in
            facts[row.int64(0)]?.composers.append(row.int64(1))
        }
        return groups.map { group in
            group.map { id in
                let f = facts[id]!
                return RelatedSongs.Entry(id: id, artists: f.artists, composers: f.composers, albumID: f.albumID, duration: f.duration)
            }
        }
    }

    // MARK: covers

    /// Where the cover of an album comes from, or nil if it has none.
    public func cover(albumID: Int64) throws -> CoverSource? {
        try database.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT al.cover_path, s.path FROM library_album al LEFT JOIN library_song s ON s.id = al.cover_song_id
                WHERE al.id = ?
                """, arguments: [albumID]) else { throw CatalogError.notFound("no album with id \(albumID)") }
            if let file: String = row[0] { return .file(file) }
            if let song: String = row[1] { return .embedded(song) }
            return nil
        }
    }

    /// Which of these artists own an album with a cover (what `cover(artistID:)` can show).
    public func artistIDsWithCover(among ids: Set<Int64>) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return try database.pool.read { db in
            Set(try Int64.fetchAll(db, sql: """
                SELECT DISTINCT artist_id FROM library_album WHERE (cover_path IS NOT NULL OR cover_song_id IS NOT NULL)
                AND artist_id IN (\(ids.map(String.init).joined(separator: ",")))
                """))
        }
    }

    /// A song's own picture, else its album's cover.
    public func cover(songID: Int64) throws -> CoverSource? {
        let song = try song(id: songID)
        if song.hasPicture { return .embedded(song.path) }
        return try cover(albumID: song.albumID)
    }

    /// An artist's picture: the cover of their first album that has one.
    public func cover(artistID: Int64) throws -> CoverSource? {
        for album in try albums(ofArtist: artistID, userID: nil) where album.hasCover {
            return try cover(albumID: album.id)
        }
        return nil
    }

    // MARK: plays and stars

    /// Counts a play of a song now (Subsonic scrobble with submission=true).
    public func recordPlay(songID: Int64, at time: Date = Date()) throws {
        try database.pool.write { db in
            try db.execute(sql: "UPDATE library_song SET play_count = play_count + 1, last_played = ? WHERE id = ?",
                           arguments: [time.timeIntervalSince1970, songID])
            guard db.changesCount == 1 else { throw CatalogError.notFound("no song with id \(songID)") }
        }
    }

    public enum StarKind: String, Sendable { case song, album, artist }

    /// Stars (or unstars) items for a user. Unknown ids throw `notFound` and change nothing.
    public func setStarred(_ starred: Bool, kind: StarKind, ids: [Int64], userID: Int64) throws {
        let table = ["song": "library_song", "album": "library_album", "artist": "library_artist"][kind.rawValue]!
        try database.pool.write { db in
            for id in ids {
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) == true else {
                    throw CatalogError.notFound("no \(kind.rawValue) with id \(id)")
                }
                if starred {
                    try db.execute(sql: "INSERT OR IGNORE INTO library_star (user_id, kind, item_id, starred_at) VALUES (?, ?, ?, ?)",
                                   arguments: [userID, kind.rawValue, id, Date().timeIntervalSince1970])
                } else {
                    try db.execute(sql: "DELETE FROM library_star WHERE user_id = ? AND kind = ? AND item_id = ?",
                                   arguments: [userID, kind.rawValue, id])
                }
            }
        }
    }

    /// What a user starred.
    public func starred(userID: Int64) throws -> (artists: [CatalogArtist], albums: [CatalogAlbum], songs: [CatalogSong]) {
        (try queryArtists(where: "st.starred_at IS NOT NULL", userID: userID),
         try queryAlbums(where: "st.starred_at IS NOT NULL", order: "st.starred_at DESC", userID: userID),
         try querySongs(where: "st.starred_at IS NOT NULL", order: "st.starred_at DESC", userID: userID))
    }
}

extension Catalog {
    /// Fills an empty catalog with synthetic songs (for `quintet bench related --catalog`):
    /// artists, composers and albums by the given names, through the same tables a scan
    /// writes. Paths are `synthetic/<id>`. Package access: the benchmark and the tests use it,
    /// it is no part of the library's API.
    package func fillForBenchmark(_ songs: [RelatedSongs.Song]) throws {
        try database.pool.write { db in
            var artists: [String: Int64] = [:], composers: [String: Int64] = [:], albums: [Int64: Int64] = [:]
            func id(_ name: String, _ table: String, _ cache: inout [String: Int64]) throws -> Int64 {
                let key = NameKey(name).value
                if let id = cache[key] { return id }
                if table == "library_artist" {
                    try db.execute(sql: "INSERT INTO library_artist (name, sort_name, key) VALUES (?, ?, ?)", arguments: [name, name, key])
                } else {
                    try db.execute(sql: "INSERT INTO \(table) (name, key) VALUES (?, ?)", arguments: [name, key])
                }
                cache[key] = db.lastInsertedRowID
                return db.lastInsertedRowID
            }
            let owner = try id("Benchmark Label", "library_artist", &artists)
            for song in songs {
                let albumKey = song.albumID ?? 0
                if albums[albumKey] == nil {
                    try db.execute(sql: "INSERT INTO library_album (title, key, artist_id, created_at) VALUES (?, ?, ?, 0)",
                                   arguments: ["Album \(albumKey)", "album \(albumKey)", owner])
                    albums[albumKey] = db.lastInsertedRowID
                }
                try db.execute(sql: """
                    INSERT INTO library_song (id, path, size, mtime, format, title, title_key, artist, album_id,
                        compilation, has_picture, codec, duration, created_at)
                    VALUES (?, ?, 1, 0, 'mp3', ?, ?, ?, ?, 0, 0, 'mp3', ?, 0)
                    """, arguments: [song.id + 1, "synthetic/\(song.id)", song.title, NameKey(song.title).value,
                                     song.artists.joined(separator: "; "), albums[albumKey], song.duration])
                // Empty names credit nobody, as in a scan.
                for (position, artist) in song.artists.filter({ !NameKey($0).isEmpty }).enumerated() {
                    try db.execute(sql: "INSERT OR IGNORE INTO library_song_artist (song_id, artist_id, position) VALUES (?, ?, ?)",
                                   arguments: [song.id + 1, try id(artist, "library_artist", &artists), position])
                }
                for composer in song.composers where !NameKey(composer).isEmpty {
                    try db.execute(sql: "INSERT OR IGNORE INTO library_song_composer (song_id, composer_id) VALUES (?, ?)",
                                   arguments: [song.id + 1, try id(composer, "library_composer", &composers)])
                }
            }
        }
    }
}
