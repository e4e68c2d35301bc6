import GRDB
import QuintetStore

/// The library catalog's tables, contributed to the one Quintet database under the
/// system name "library".
///
/// - `library_root`: the folder the catalog describes (one row); serving another folder
///   empties the catalog first, so songs of two libraries never mix.
/// - `library_artist`, `library_genre`, `library_composer`: a name, its `NameKey` (unique)
///   and, for artists, a sort name.
/// - `library_album`: title, title key, album artist, year, disc count, compilation flag and
///   where its cover comes from (a folder image or a song's embedded picture); unique by
///   (album artist, title key).
/// - `library_song`: path (relative to the root, unique), size and mtime (what rescans
///   compare), every tag the catalog uses, stream facts, BPM and where it came from, play
///   count; links to each credited artist, composer and genre through the join tables.
/// - `library_star`: what each user starred (songs, albums, artists).
/// - `library_playlist`, `library_playlist_entry`: a user's playlists, songs in order.
/// - v2: `library_song.bpm_override` (and `bpm_override_at`): a BPM set by hand, kept apart
///   from `bpm`/`bpm_source` (the tag's or the analysis's), which scans and the BPM worker
///   write; the effective BPM is the override when there is one.
/// - v3: `library_runner_never`: the songs each user never wants while running.
/// - v4: band members (docs/graph.md, "Band members"): `library_song_credit` (each song's
///   performer credits: name, key, role, and the band the credit may make its performer a
///   member of), `library_song_mbid` (the MusicBrainz artist ids the tags pair with a credited
///   artist's name key), `library_member_user` (relations a user added, by name key so they
///   survive rescans), `library_mb_answer` (MusicBrainz answers with their date: the cache),
///   `library_member_lookup` (each artist's lookup state, by name key) and `library_member_mb`
///   (the "member of band" relations MusicBrainz gave, by name key). Every song is marked for
///   re-reading (its mtime set to -1) so that the next scan reads the credits of files already
///   in the catalog.
public enum CatalogSchema {
    public static let system = "library"

    public static func registerMigrations(in registry: inout MigrationRegistry) {
        registry.register(system: system, "v1-catalog") { db in
            try db.create(table: "library_root") { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.column("path", .text).notNull()
                t.column("scanned_at", .double)
            }
            try db.create(table: "library_artist") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("sort_name", .text).notNull()
                t.column("key", .text).notNull().unique()
            }
            try db.create(table: "library_genre") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("key", .text).notNull().unique()
            }
            try db.create(table: "library_composer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("key", .text).notNull().unique()
            }
            try db.create(table: "library_album") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("key", .text).notNull()
                t.column("artist_id", .integer).notNull().references("library_artist")
                t.column("year", .integer)
                t.column("disc_count", .integer).notNull().defaults(to: 1)
                t.column("compilation", .boolean).notNull().defaults(to: false)
                t.column("cover_path", .text)          // a folder image, relative to the root
                t.column("cover_song_id", .integer)    // else a song with an embedded picture
                t.column("created_at", .double).notNull()
                t.uniqueKey(["artist_id", "key"])
            }
            try db.create(table: "library_song") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull().unique()
                t.column("size", .integer).notNull()
                t.column("mtime", .double).notNull()
                t.column("format", .text).notNull()
                t.column("title", .text).notNull()
                t.column("title_key", .text).notNull().indexed()
                t.column("artist", .text).notNull()       // the credit as displayed
                t.column("album_id", .integer).notNull().references("library_album").indexed()
                t.column("track", .integer)
                t.column("track_total", .integer)
                t.column("disc", .integer)
                t.column("disc_total", .integer)
                t.column("year", .integer)
                t.column("date", .text)
                t.column("genre", .text)
                t.column("composer", .text)
                t.column("comment", .text)
                t.column("compilation", .boolean).notNull()
                t.column("has_picture", .boolean).notNull()
                t.column("codec", .text).notNull()
                t.column("duration", .double)
                t.column("bitrate", .integer)
                t.column("sample_rate", .integer)
                t.column("channels", .integer)
                t.column("bpm", .double)
                t.column("bpm_source", .text)             // "tag" or "analysis"
                t.column("bpm_failed_mtime", .double)     // analysis failed on this version
                t.column("play_count", .integer).notNull().defaults(to: 0)
                t.column("last_played", .double)
                t.column("created_at", .double).notNull()
            }
            try db.create(table: "library_song_artist") { t in
                t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade)
                t.column("artist_id", .integer).notNull().references("library_artist").indexed()
                t.column("position", .integer).notNull()
                t.primaryKey(["song_id", "artist_id"])
            }
            try db.create(table: "library_song_composer") { t in
                t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade)
                t.column("composer_id", .integer).notNull().references("library_composer").indexed()
                t.primaryKey(["song_id", "composer_id"])
            }
            try db.create(table: "library_song_genre") { t in
                t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade)
                t.column("genre_id", .integer).notNull().references("library_genre").indexed()
                t.primaryKey(["song_id", "genre_id"])
            }
            try db.create(table: "library_star") { t in
                t.column("user_id", .integer).notNull().references("users", onDelete: .cascade)
                t.column("kind", .text).notNull().check { ["song", "album", "artist"].contains($0) }
                t.column("item_id", .integer).notNull()
                t.column("starred_at", .double).notNull()
                t.primaryKey(["user_id", "kind", "item_id"])
            }
            try db.create(table: "library_playlist") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("owner_id", .integer).notNull().references("users", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("comment", .text)
                t.column("public", .boolean).notNull().defaults(to: false)
                t.column("created_at", .double).notNull()
                t.column("changed_at", .double).notNull()
            }
            try db.create(table: "library_playlist_entry") { t in
                t.column("playlist_id", .integer).notNull().references("library_playlist", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade)
                t.primaryKey(["playlist_id", "position"])
            }
        }
        registry.register(system: system, "v2-bpm-override") { db in
            // Scans and the BPM worker write `bpm`/`bpm_source` only, so an override survives them.
            try db.alter(table: "library_song") { t in
                t.add(column: "bpm_override", .double)
                t.add(column: "bpm_override_at", .double)
            }
        }
        registry.register(system: system, "v3-runner-never") { db in
            try db.create(table: "library_runner_never") { t in
                t.column("user_id", .integer).notNull().references("users", onDelete: .cascade)
                t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade).indexed()
                t.column("added_at", .double).notNull()
                t.primaryKey(["user_id", "song_id"])
            }
        }
        registry.register(system: system, "v4-members") { db in
            try MemberSchema.create(db)
        }
    }
}
