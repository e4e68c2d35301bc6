import Foundation
import Locking

/// Read-only counters of an engine's state, for metrics and the CLI.
public struct CrowdEngineStats: Sendable, Hashable {
    /// Devices that count now (reported within the expiry).
    public var devices: Int
    /// Locations with at least one device.
    public var locations: Int
    /// Comments kept (at most 10 per location).
    public var comments: Int

    /// Counters as given.
    public init(devices: Int, locations: Int, comments: Int) {
        self.devices = devices
        self.locations = locations
        self.comments = comments
    }
}

/// Why an engine call failed other than for a bad value.
public enum CrowdEngineError: Error, Sendable, CustomStringConvertible {
    /// The engine was closed.
    case closed
    /// Writing to the database failed; the engine refuses further reports.
    case storage(String)

    /// A sentence for logs and error bodies.
    public var description: String {
        switch self {
        case .closed: "the crowd engine is closed"
        case .storage(let message): "crowd storage failed: \(message)"
        }
    }
}

/// The embedded Crowd backend: the whole state in memory behind one lock, over a uniform grid
/// index (``CrowdGrid``), stored in SQLite.
///
/// Answers come from memory; the database is the truth at start-up (`init` loads everything).
/// Changes are written by a group commit (``CrowdCommitQueue``): whatever is pending goes in
/// one transaction on a serial queue of the engine's own; ``report(_:now:)`` returns only once
/// its change is committed, so an acknowledged report survives `kill -9`. Searches and
/// location reads never wait for the disk. Call ``close()`` when done: it writes what is
/// pending and closes the database (the server's crowd service does, at shutdown).
public final class CrowdEngine: CrowdService, Sendable {
    /// The settings the answers follow.
    public let settings: CrowdSettings

    private struct Guarded: ~Copyable {
        var state: CrowdState
        var isClosed = false
    }

    private let guarded: Lock<Guarded>
    private let commits: CrowdCommitQueue

    /// Opens (or creates) the SQLite file at `databasePath` (normally `crowd.sqlite` in the data
    /// folder), migrates it and loads the whole state into memory.
    public convenience init(databasePath: String, settings: CrowdSettings = CrowdSettings()) throws {
        try self.init(store: CrowdSQLiteStore(path: databasePath), settings: settings)
    }

    /// An engine over an in-memory SQLite database: the same code, nothing kept after `close()`.
    public convenience init(inMemory settings: CrowdSettings) throws {
        try self.init(store: CrowdSQLiteStore(path: nil), settings: settings)
    }

    init(store: any CrowdStore, settings: CrowdSettings, cellsPerDegree: Int = 1000) throws {
        self.settings = settings
        var state = CrowdState(settings: settings, cellsPerDegree: cellsPerDegree)
        let next = try store.load(
            location: { state.loadLocation($0) },
            device: { state.loadDevice(key: $0, locationID: $1, lastSeen: $2, age: $3, sex: $4) },
            comment: { state.loadComment($0) })
        state.finishLoading(nextLocationID: next.nextLocationID, nextCommentID: next.nextCommentID)
        guarded = Lock(Guarded(state: state))
        commits = CrowdCommitQueue(store: store)
        // The queue holds the engine weakly: an engine dropped without `close()` ends it.
        commits.start { [weak self] statistics in
            guard let self else { return nil }
            return self.guarded.withLock { ($0.state.takeBatch(statistics: statistics), $0.state.changeNumber) }
        }
        // Write back whatever loading corrected (orphans, recomputed statistics).
        commits.request(upTo: 0, force: true)
    }

    /// Counts of what the engine holds now (devices not yet expired included until the next call).
    public var stats: CrowdEngineStats {
        guarded.withLock {
            CrowdEngineStats(devices: $0.state.deviceCount, locations: $0.state.locationCount, comments: $0.state.commentCount)
        }
    }

    /// Validates, applies the report under the lock, answers its search from memory, and
    /// returns once the group commit holding the change is written. Throws
    /// ``CrowdValidationError`` (nothing changed), ``CrowdEngineError/closed`` or
    /// ``CrowdEngineError/storage(_:)``.
    public func report(_ report: CrowdReport, now: Date) async throws -> CrowdReportResult {
        try CrowdRules.validate(report)
        guard let id = CrowdDeviceID(report.device) else {
            throw CrowdValidationError(field: "device", reason: "the device key must be 1 to 32 bytes")
        }
        let time = now.timeIntervalSinceReferenceDate
        let (result, change) = try guarded.withLock { guarded throws(CrowdEngineError) -> (CrowdReportResult, UInt64) in
            guard !guarded.isClosed else { throw CrowdEngineError.closed }
            let result = guarded.state.report(report, id: id, now: time)
            return (result, guarded.state.changeNumber)
        }
        try await commits.wait(for: change)
        return result
    }

    /// Validates, expires what is due at `now` and answers from memory (never waits for the disk).
    public func search(_ search: CrowdSearch, now: Date) async throws -> CrowdSearchResult {
        try CrowdRules.validate(search)
        let time = now.timeIntervalSinceReferenceDate
        let (result, change) = try guarded.withLock { guarded throws(CrowdEngineError) -> (CrowdSearchResult, UInt64?) in
            guard !guarded.isClosed else { throw CrowdEngineError.closed }
            let changed = guarded.state.expire(now: time)
            return (guarded.state.search(search), changed ? guarded.state.changeNumber : nil)
        }
        if let change { commits.request(upTo: change) }
        return result
    }

    /// Expires what is due at `now` and answers one location with its latest comments (newest
    /// first); nil when there is none with that id or it is below the minimum group.
    public func location(id: Int64, now: Date) async throws -> CrowdLocationDetail? {
        let time = now.timeIntervalSinceReferenceDate
        let (result, change) = try guarded.withLock { guarded throws(CrowdEngineError) -> (CrowdLocationDetail?, UInt64?) in
            guard !guarded.isClosed else { throw CrowdEngineError.closed }
            let changed = guarded.state.expire(now: time)
            return (guarded.state.detail(id: id), changed ? guarded.state.changeNumber : nil)
        }
        if let change { commits.request(upTo: change) }
        return result
    }

    deinit {
        // Dropped without `close()`: pending waiters fail (what was pending may not be written);
        // the database closes as the store goes.
        commits.abandon()
    }

    /// Writes what is pending (the locations' statistics refreshed once), waits for the queue
    /// and closes the database. Later calls throw ``CrowdEngineError/closed``.
    public func close() {
        let first = guarded.withLock { guarded -> Bool in
            defer { guarded.isClosed = true }
            return !guarded.isClosed
        }
        guard first else { return }
        commits.close()
    }
}

/// The group commit: everything pending is written in one transaction on a serial queue of
/// its own, and the reports whose change it covered are woken. A round is scheduled when
/// something is asked for and none is under way; while one runs, requests gather for the
/// next. There is no thread to stop: at rest nothing runs.
///
/// `@unchecked Sendable`: `store` (a GRDB connection, not Sendable) is touched only on `writes`.
final class CrowdCommitQueue: @unchecked Sendable {
    private struct State {
        /// Highest change number someone asked to have written.
        var requested: UInt64 = 0
        /// Every change up to this number is committed.
        var committed: UInt64 = 0
        var forced = false
        /// A round is queued or running on `writes`.
        var scheduled = false
        var waiters: [(change: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var failure: CrowdEngineError?
        var stopped = false

        /// Whether there is work for a round.
        var due: Bool { !stopped && (forced || (requested > committed && failure == nil)) }
    }

    private let state = Lock(State())
    private let store: any CrowdStore
    private let writes = DispatchQueue(label: "quintet.crowd.writes", qos: .userInitiated)
    private let snapshot = Lock<(@Sendable (_ statistics: Bool) -> (CrowdChangeBatch, UInt64)?)?>(nil)

    init(store: any CrowdStore) {
        self.store = store
    }

    /// Sets how a round takes its batch: `snapshot` answers (under the engine's lock) the
    /// pending changes and the change number they cover, or nil once the engine is gone.
    func start(snapshot: @escaping @Sendable (_ statistics: Bool) -> (CrowdChangeBatch, UInt64)?) {
        self.snapshot.withLock { $0 = snapshot }
    }

    /// Asks for everything up to `change` to be written, without waiting.
    func request(upTo change: UInt64, force: Bool = false) {
        let schedule = state.withLock { state -> Bool in
            if change > state.requested { state.requested = change }
            if force { state.forced = true }
            guard state.due, !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if schedule { writes.async { self.round() } }
    }

    /// Returns once every change up to `change` is committed.
    func wait(for change: UInt64) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Outcome { case done, failed(CrowdEngineError), waiting(schedule: Bool) }
            let outcome = state.withLock { state -> Outcome in
                if state.committed >= change { return .done }
                if let failure = state.failure { return .failed(failure) }
                if state.stopped { return .failed(.closed) }
                state.waiters.append((change, continuation))
                if change > state.requested { state.requested = change }
                guard state.due, !state.scheduled else { return .waiting(schedule: false) }
                state.scheduled = true
                return .waiting(schedule: true)
            }
            switch outcome {
            case .done: continuation.resume()
            case .failed(let error): continuation.resume(throwing: error)
            case .waiting(let schedule): if schedule { writes.async { self.round() } }
            }
        }
    }

    /// Writes what is pending, fails the waiters left, and closes the store; returns when done.
    /// Never called on `writes` itself.
    func close() {
        writes.sync {
            _ = commit(statistics: true)
            abandon()
            try? store.close()
        }
    }

    /// No more rounds; the waiters left fail (the engine closed, or went away without `close()`).
    func abandon() {
        let orphans = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.stopped = true
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        for continuation in orphans { continuation.resume(throwing: CrowdEngineError.closed) }
    }

    /// One round on `writes`: commit, wake, and go again while more was asked for meanwhile.
    private func round() {
        while commit(statistics: false) {}
    }

    /// Writes the pending batch and wakes the waiters it covers; true when another round is
    /// due at once (then `scheduled` stays set).
    private func commit(statistics: Bool) -> Bool {
        let failedBefore = state.withLock { state -> Bool? in
            guard !state.stopped else { state.scheduled = false; return nil }
            state.forced = false
            return state.failure != nil
        }
        guard let failedBefore, let take = snapshot.withLock({ $0 }), let (batch, upTo) = take(statistics) else {
            abandon()
            return false
        }
        var error: CrowdEngineError?
        if !batch.isEmpty, !failedBefore {
            do { try store.apply(batch) } catch let e { error = .storage(String(describing: e)) }
        }
        var ready: [CheckedContinuation<Void, any Error>] = []
        var failed: [CheckedContinuation<Void, any Error>] = []
        let (failure, again) = state.withLock { state -> (CrowdEngineError?, Bool) in
            if let error, state.failure == nil { state.failure = error }
            if state.failure == nil, upTo > state.committed { state.committed = upTo }
            state.waiters.removeAll { waiter in
                if waiter.change <= state.committed { ready.append(waiter.continuation); return true }
                if state.failure != nil { failed.append(waiter.continuation); return true }
                return false
            }
            let again = state.due
            if !again { state.scheduled = false }
            return (state.failure, again)
        }
        for continuation in ready { continuation.resume() }
        for continuation in failed { continuation.resume(throwing: failure ?? CrowdEngineError.closed) }
        return again
    }
}
