import Foundation
import GRDB

/// What the runner keeps in the catalog: BPM overrides and each user's "never while running" list.
///
/// - A **BPM override** is a tempo set by hand (`library_song.bpm_override`), shared by every
///   user. It is kept apart from the tag's or the analysis's value (`bpm`, `bpm_source`), which
///   scans and the BPM worker write and never an override: removing the override returns to
///   that value, and a rescan or an analysis leaves the override as it is. Every read of a song
///   (`CatalogSong.bpm`, Subsonic's `bpm`, the matcher's `songTempos()`) gives the effective value.
/// - The **never list** (`library_runner_never`) holds the songs a user never wants while
///   running; the runner's matcher and live socket skip them for that user only.
///
/// ```swift
/// let song = try catalog.setBPMOverride(songID: 7, bpm: 171.5)   // song.bpmSource == "override"
/// try catalog.setBPMOverride(songID: 7, bpm: nil)                 // back to the analysed value
/// try catalog.setNeverWhileRunning(songID: 7, userID: ada, true)
/// let skipped = try catalog.neverWhileRunning(userID: ada)        // [7]
/// ```
extension Catalog {
    /// The tempos an override may take, beats per minute (the cadences the runner accepts).
    public static let bpmOverrideRange: ClosedRange<Double> = 30...300

    /// Sets the BPM override of a song, or removes it with nil (back to the tag's or analysis's
    /// value); returns the song as now stored, with `userID`'s star. Throws `.invalid` for a
    /// tempo outside ``bpmOverrideRange`` or not finite, `.notFound` for an unknown song.
    @discardableResult
    public func setBPMOverride(songID: Int64, bpm: Double?, userID: Int64? = nil) throws -> CatalogSong {
        if let bpm, !(bpm.isFinite && Self.bpmOverrideRange.contains(bpm)) {
            throw CatalogError.invalid("bpm must be a number from \(Int(Self.bpmOverrideRange.lowerBound)) to \(Int(Self.bpmOverrideRange.upperBound)), not \(bpm)")
        }
        let changed = try database.pool.write { db in
            try db.execute(sql: "UPDATE library_song SET bpm_override = ?, bpm_override_at = ? WHERE id = ?",
                           arguments: [bpm, bpm == nil ? nil : Date().timeIntervalSince1970, songID])
            return db.changesCount
        }
        guard changed > 0 else { throw CatalogError.notFound("no song with id \(songID)") }
        return try song(id: songID, userID: userID)
    }

    // MARK: never while running

    /// The ids of the songs `userID` never wants while running.
    public func neverWhileRunning(userID: Int64) throws -> Set<Int64> {
        try database.pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT song_id FROM library_runner_never WHERE user_id = ?", arguments: [userID]))
        }
    }

    /// The songs `userID` never wants while running, the most recently added first.
    public func neverWhileRunningSongs(userID: Int64) throws -> [CatalogSong] {
        let order = try database.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT song_id FROM library_runner_never WHERE user_id = ? ORDER BY added_at DESC, song_id",
                               arguments: [userID])
        }
        let songs = try querySongs(where: "s.id IN (SELECT song_id FROM library_runner_never WHERE user_id = ?)",
                                   arguments: [userID], userID: userID)
        let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
        return order.compactMap { byID[$0] }
    }

    /// Puts a song on `userID`'s never list (`never` true) or takes it off; both are idempotent.
    /// Throws `.notFound` for an unknown song.
    public func setNeverWhileRunning(songID: Int64, userID: Int64, _ never: Bool) throws {
        try database.pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM library_song WHERE id = ?", arguments: [songID]) != nil else {
                throw CatalogError.notFound("no song with id \(songID)")
            }
            if never {
                try db.execute(sql: "INSERT OR IGNORE INTO library_runner_never (user_id, song_id, added_at) VALUES (?, ?, ?)",
                               arguments: [userID, songID, Date().timeIntervalSince1970])
            } else {
                try db.execute(sql: "DELETE FROM library_runner_never WHERE user_id = ? AND song_id = ?", arguments: [userID, songID])
            }
        }
    }

    // MARK: the runner's songs

    /// How ``runnerSongs(sort:descending:userID:)`` orders.
    public enum RunnerSongSort: String, Sendable, CaseIterable {
        /// The effective BPM, then the title.
        case bpm
        /// The title (case and accents folded, as the catalog's title key), then the artist.
        case title
        /// The artist credit (case folded), then the title.
        case artist
    }

    /// The songs the runner can play: those with an effective BPM, in `sort` order (ties by
    /// id, ascending either way).
    public func runnerSongs(sort: RunnerSongSort = .bpm, descending: Bool = false, userID: Int64?) throws -> [CatalogSong] {
        let direction = descending ? "DESC" : "ASC"
        let order = switch sort {
        case .bpm: "\(Self.effectiveBPM) \(direction), s.title_key \(direction), s.id"
        case .title: "s.title_key \(direction), s.artist COLLATE NOCASE \(direction), s.id"
        case .artist: "s.artist COLLATE NOCASE \(direction), s.title_key \(direction), s.id"
        }
        return try querySongs(where: "\(Self.effectiveBPM) > 0", order: order, userID: userID)
    }
}
