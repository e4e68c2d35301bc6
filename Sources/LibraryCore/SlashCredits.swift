import Foundation
import GRDB
import MediaTags

/// The catalog's side of ID3v2.2/2.3 name lists, where "/" separates names (ID3v2.3.0
/// §4.2.1): which names the library knows as one, and the songs to read again when that
/// knowledge changes.
///
/// A name that contains "/" is **known** when some song names it whole in a field that does
/// not use "/" as a separator — an ID3v2.4 frame, a Vorbis comment, an MP4 atom, RIFF INFO,
/// ID3v1 — as a credited artist, its album's artist or a composer. Songs whose own lists use
/// "/" (the ones with `library_song.slash_names`) are no evidence, or "A/B" in two v2.3 files
/// would keep each other whole. So the rule depends on the library's contents only, never on
/// the order in which files were read.
///
/// Each such song stores the runs of its names that could be known (`slash_names`, keys, one
/// a line) and those that were known when it was read (`slash_kept`). The readers of a scan
/// work in parallel from the catalog as it was before the scan; once every batch is written,
/// `songsToReread` compares each song's runs with the names known now, and the scanner reads
/// the songs whose split would differ again (usually none: only when a song naming "AC/DC"
/// whole came or went).
enum SlashCredits {
    /// The `NameKey`s of the names with "/" that the catalog knows as one name.
    static func knownNames(_ db: Database) throws -> Set<String> {
        let keys = try String.fetchAll(db, sql: """
            SELECT a.key FROM library_artist a WHERE instr(a.key, '/') > 0 AND (
                EXISTS (SELECT 1 FROM library_song_artist sa JOIN library_song s ON s.id = sa.song_id
                        WHERE sa.artist_id = a.id AND s.slash_names IS NULL)
                OR EXISTS (SELECT 1 FROM library_album al JOIN library_song s ON s.album_id = al.id
                           WHERE al.artist_id = a.id AND s.slash_names IS NULL))
            UNION
            SELECT c.key FROM library_composer c WHERE instr(c.key, '/') > 0 AND
                EXISTS (SELECT 1 FROM library_song_composer sc JOIN library_song s ON s.id = sc.song_id
                        WHERE sc.composer_id = c.id AND s.slash_names IS NULL)
            """)
        return Set(keys)
    }

    /// Paths of the songs whose "/" split would change with the names known now.
    static func songsToReread(_ db: Database, known: Set<String>) throws -> [String] {
        var paths: [String] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT path, slash_names, slash_kept FROM library_song WHERE slash_names IS NOT NULL ORDER BY path")
        while let row = try rows.next() {
            let runs: String = row[1], kept: String = row[2]
            if lines(runs).filter(known.contains).joined(separator: "\n") != kept { paths.append(row[0]) }
        }
        return paths
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }
}

/// Splits the names of one file's "/"-separated lists and remembers the runs that mattered.
/// Used by one reader thread for one file.
final class SlashSplit {
    /// Keys of the names known as one (`SlashCredits.knownNames`).
    let known: Set<String>
    /// Keys of every run of pieces met (`ArtistCredit.slashRuns`).
    private(set) var runs = Set<String>()

    init(known: Set<String>) {
        self.known = known
    }

    func split(_ name: String) -> [String] {
        guard name.utf8.contains(UInt8(ascii: "/")) else { return [name] }
        for run in ArtistCredit.slashRuns(name) { runs.insert(NameKey(run).value) }
        return ArtistCredit.slashSeparated(name, isKnown: { known.contains(NameKey($0).value) })
    }

    /// `library_song.slash_names`: the runs, sorted, one a line; nil when no name had a "/".
    var storedRuns: String? { runs.isEmpty ? nil : runs.sorted().joined(separator: "\n") }
    /// `library_song.slash_kept`: the runs known, sorted, one a line.
    var storedKept: String { runs.filter(known.contains).sorted().joined(separator: "\n") }
}
