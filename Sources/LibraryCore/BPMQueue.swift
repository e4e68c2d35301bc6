import AudioCore
import Foundation
import GRDB
import Locking
import Tempo

/// Gives every song a BPM: songs whose files carry none (no TBPM, BPM or tmpo tag) are
/// analysed by the Tempo module one at a time, after the scan, never inside it.
///
/// The work list is the catalog itself (`bpm IS NULL`), so it survives restarts; a result
/// is stored only if the file has not changed meanwhile (same mtime); a file the analyser
/// cannot read is remembered by its mtime and retried only when the file changes (a
/// rescan of a changed file clears its BPM, so it is analysed again).
///
/// ```swift
/// let queue = BPMQueue(catalog: catalog)
/// while try queue.analyzeNext() != nil {}
/// ```
public final class BPMQueue: Sendable {
    public let catalog: Catalog
    private let analyzer: TempoAnalyzer
    private let state = LockedState()

    /// What the queue is doing, for `GET /api/library/bpm` and the CLI.
    public struct Status: Sendable, Equatable, Codable {
        /// "idle" or "analyzing".
        public var state: String
        /// Songs still without a BPM that can be analysed.
        public var pending: Int
        /// Songs analysed by this process so far.
        public var analyzed: Int
        /// Songs whose files the analyser could not read (retried when the file changes).
        public var failed: Int
        /// The song being analysed, relative path.
        public var current: String?
    }

    public init(catalog: Catalog, analyzer: TempoAnalyzer = TempoAnalyzer()) {
        self.catalog = catalog
        self.analyzer = analyzer
    }

    static let pendingClause = "bpm IS NULL AND (bpm_failed_mtime IS NULL OR bpm_failed_mtime != mtime)"

    public func status() throws -> Status {
        let (pending, failed) = try catalog.database.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM library_song WHERE \(Self.pendingClause)") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM library_song WHERE bpm IS NULL AND bpm_failed_mtime = mtime") ?? 0)
        }
        let (analyzed, current) = state.snapshot()
        return Status(state: current == nil ? "idle" : "analyzing", pending: pending, analyzed: analyzed,
                      failed: failed, current: current)
    }

    /// Analyses the next song without a BPM; returns its id, or nil when none is left.
    /// Blocking (a decode and an analysis, a second or so). Once `cancellation` is cancelled
    /// the decode stops, nothing is stored (the song stays pending) and it throws
    /// `CancellationError`.
    @discardableResult
    public func analyzeNext(cancellation: CancellationFlag? = nil) throws -> Int64? {
        try cancellation?.check()
        guard let row = try catalog.database.pool.read({ db in
            try Row.fetchOne(db, sql: "SELECT id, path, mtime FROM library_song WHERE \(Self.pendingClause) ORDER BY id LIMIT 1")
        }) else { return nil }
        let id: Int64 = row[0], path: String = row[1], mtime: Double = row[2]
        state.begin(path)
        var finished = false
        defer { state.end(counted: finished) }
        let bpm: Double?
        do {
            bpm = try analyzer.estimate(fileAt: try catalog.fileURL(relative: path), cancellation: cancellation).bpm
        } catch let error as CancellationError {
            throw error
        } catch {
            bpm = nil
        }
        // A decode cut short by cancellation may look like a failure: store nothing then.
        try cancellation?.check()
        try catalog.database.pool.write { db in
            if let bpm {
                try db.execute(sql: "UPDATE library_song SET bpm = ?, bpm_source = 'analysis' WHERE id = ? AND mtime = ? AND bpm IS NULL",
                               arguments: [(bpm * 10).rounded() / 10, id, mtime])
            } else {
                try db.execute(sql: "UPDATE library_song SET bpm_failed_mtime = ? WHERE id = ? AND mtime = ?",
                               arguments: [mtime, id, mtime])
            }
        }
        finished = true
        return id
    }
}

/// The song being analysed and the count so far, shared with status readers.
private final class LockedState: Sendable {
    private let value = Lock<(analyzed: Int, current: String?)>((0, nil))

    func begin(_ path: String) { value.withLock { $0.current = path } }
    /// The song is no longer current; `counted` when its result was stored (not cancelled, no error).
    func end(counted: Bool) { value.withLock { $0.current = nil; if counted { $0.analyzed += 1 } } }
    func snapshot() -> (Int, String?) { value.withLock { ($0.analyzed, $0.current) } }
}
