import GRDB
import MediaTags

/// What one song's tags say about band members, computed on the scanner's reader threads:
/// its performer credits (with the band they may make their performer a member of) and the
/// MusicBrainz artist ids its tags pair with artist names. The rule that turns credits into
/// links is ``MemberRules``'s; this only records the facts (docs/graph.md, "Band members").
struct MemberFacts: Sendable {
    struct Credit: Sendable {
        var name: ScannedFile.Name
        var role: String
    }

    var credits: [Credit] = []
    /// The key of the song's one main artist: set when the artist tag holds one value whose
    /// main part (before any "feat.") is the song's first credited artist; nil for duets and
    /// songs with several artist values, where a credit cannot say whose member it is.
    var bandKey: String?
    /// (artist name key, MusicBrainz id) pairs.
    var musicBrainzIDs: [(key: String, mbid: String)] = []

    init(tags: TagSet, credited: [ScannedFile.Name], names: inout ScannedFile.NameCache) {
        credits = tags.credits.compactMap { credit in
            let name = names.name(credit.name)
            return name.key.isEmpty ? nil : Credit(name: name, role: credit.role)
        }
        if tags.artists.count == 1, let first = credited.first {
            let value = tags.artists[0]
            let main = ArtistCredit.splitFeaturing(value)?.0 ?? value
            if names.name(main).key == first.key { bandKey = first.key }
        }
        // Picard writes the credit as one ARTIST value ("A feat. B") and the separate names in
        // ARTISTS; ids pair with names only when both lists have the same length.
        let ids = tags.musicBrainzArtistIDs
        let separate = tags.custom["ARTISTS"] ?? []
        var pairs: [(key: String, mbid: String)] = []
        for (list, found) in [(separate.count == ids.count ? separate : tags.artists, ids),
                              (tags.albumArtists, tags.musicBrainzAlbumArtistIDs)]
        where !found.isEmpty && list.count == found.count {
            for (name, id) in zip(list, found) {
                let key = names.name(name).key
                if !key.isEmpty { pairs.append((key, id)) }
            }
        }
        musicBrainzIDs = pairs
    }

    /// The prepared inserts of one write transaction.
    struct Statements {
        let credit: RawStatement
        let mbid: RawStatement

        init(_ db: Database) throws {
            credit = try RawStatement(db, sql: """
                INSERT OR IGNORE INTO library_song_credit (song_id, position, name, key, role, band_key) VALUES (?, ?, ?, ?, ?, ?)
                """)
            mbid = try RawStatement(db, sql: "INSERT OR IGNORE INTO library_song_mbid (song_id, artist_key, mbid) VALUES (?, ?, ?)")
        }

        func write(_ facts: MemberFacts, songID: Int64) throws {
            for (position, entry) in facts.credits.enumerated() {
                credit.bind(songID); credit.bind(position); credit.bind(entry.name.text)
                credit.bind(entry.name.key); credit.bind(entry.role); credit.bind(facts.bandKey)
                try credit.run()
            }
            for pair in facts.musicBrainzIDs {
                mbid.bind(songID); mbid.bind(pair.key); mbid.bind(pair.mbid)
                try mbid.run()
            }
        }
    }
}
