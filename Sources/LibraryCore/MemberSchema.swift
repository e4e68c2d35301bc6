import GRDB

/// The tables of band members (migration "v4-members"; ``CatalogSchema`` lists them).
enum MemberSchema {
    static func create(_ db: Database) throws {
        try db.create(table: "library_song_credit") { t in
            t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade)
            t.column("position", .integer).notNull()
            t.column("name", .text).notNull()
            t.column("key", .text).notNull().indexed()
            t.column("role", .text).notNull()
            // The song's one main artist (its artist tag names one artist, featured guests
            // aside), whom a musician credit may make this performer a member of; else NULL.
            t.column("band_key", .text)
            t.primaryKey(["song_id", "position"])
        }
        try db.create(table: "library_song_mbid") { t in
            t.column("song_id", .integer).notNull().references("library_song", onDelete: .cascade)
            t.column("artist_key", .text).notNull().indexed()
            t.column("mbid", .text).notNull()
            t.primaryKey(["song_id", "artist_key", "mbid"])
        }
        try db.create(table: "library_member_user") { t in
            t.column("band_key", .text).notNull()
            t.column("member_key", .text).notNull()
            t.column("band_name", .text).notNull()
            t.column("member_name", .text).notNull()
            t.column("added_at", .double).notNull()
            t.primaryKey(["band_key", "member_key"])
        }
        try db.create(table: "library_mb_answer") { t in
            t.column("path", .text).primaryKey()     // the request's path and query, without the base URL
            t.column("body", .blob).notNull()
            t.column("fetched_at", .double).notNull()
        }
        try db.create(table: "library_member_lookup") { t in
            t.column("artist_key", .text).primaryKey()
            t.column("name", .text).notNull()
            t.column("state", .text).notNull().check { ["ok", "failed", "ambiguous", "not_found"].contains($0) }
            t.column("mbid", .text)
            t.column("type", .text)                  // MusicBrainz's "Person", "Group", …
            t.column("message", .text)
            t.column("candidates", .text)            // JSON, for "ambiguous"
            t.column("at", .double).notNull()
        }
        try db.create(table: "library_member_mb") { t in
            t.column("artist_key", .text).notNull().indexed()
            t.column("related_mbid", .text).notNull()
            t.column("related_name", .text).notNull()
            t.column("related_key", .text).notNull()
            // "member": the related artist is a member of this one; "band": this one is a member of it.
            t.column("direction", .text).notNull().check { ["member", "band"].contains($0) }
            t.primaryKey(["artist_key", "related_mbid", "direction"])
        }
        try db.execute(sql: "UPDATE library_song SET mtime = -1")
    }
}
