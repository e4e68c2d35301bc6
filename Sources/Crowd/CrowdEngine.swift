import Foundation

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
/// Changes are written by one writer thread that commits whatever is pending in one
/// transaction (group commit); ``report(_:now:)`` returns only once its change is committed, so
/// an acknowledged report survives `kill -9`. Searches and location reads never wait for the
/// disk. Call ``close()`` when done: it writes what is pending and stops the writer.
public final class CrowdEngine: CrowdService, @unchecked Sendable {
    /// The settings the answers follow.
    public let settings: CrowdSettings

    private let lock = NSLock()
    private var state: CrowdState
    private let store: any CrowdStore
    private let commits: CrowdCommitQueue
    private var isClosed = false

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
        self.store = store
        var state = CrowdState(settings: settings, cellsPerDegree: cellsPerDegree)
        let next = try store.load(
            location: { state.loadLocation($0) },
            device: { state.loadDevice(key: $0, locationID: $1, lastSeen: $2, age: $3, sex: $4) },
            comment: { state.loadComment($0) })
        state.finishLoading(nextLocationID: next.nextLocationID, nextCommentID: next.nextCommentID)
        self.state = state
        commits = CrowdCommitQueue(store: store)
        // The writer holds the engine weakly: an engine dropped without `close()` ends it.
        commits.start { [weak self] in
            guard let self else { return nil }
            return self.lock.withLock { (self.state.takeBatch(), self.state.changeNumber) }
        }
        // Write back whatever loading corrected (orphans, recomputed statistics).
        commits.request(upTo: 0, force: true)
    }

    /// Counts of what the engine holds now (devices not yet expired included until the next call).
    public var stats: CrowdEngineStats {
        lock.withLock {
            CrowdEngineStats(devices: state.deviceCount, locations: state.locationCount, comments: state.commentCount)
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
        let (result, change) = try lock.withLock { () throws -> (CrowdReportResult, UInt64) in
            guard !isClosed else { throw CrowdEngineError.closed }
            let result = state.report(report, id: id, now: time)
            return (result, state.changeNumber)
        }
        try await commits.wait(for: change)
        return result
    }

    /// Validates, expires what is due at `now` and answers from memory (never waits for the disk).
    public func search(_ search: CrowdSearch, now: Date) async throws -> CrowdSearchResult {
        try CrowdRules.validate(search)
        let time = now.timeIntervalSinceReferenceDate
        let (result, change) = try lock.withLock { () throws -> (CrowdSearchResult, UInt64?) in
            guard !isClosed else { throw CrowdEngineError.closed }
            let changed = state.expire(now: time)
            return (state.search(search), changed ? state.changeNumber : nil)
        }
        if let change { commits.request(upTo: change) }
        return result
    }

    /// Expires what is due at `now` and answers one location with its latest comments (newest
    /// first); nil when there is none with that id or it is below the minimum group.
    public func location(id: Int64, now: Date) async throws -> CrowdLocationDetail? {
        let time = now.timeIntervalSinceReferenceDate
        let (result, change) = try lock.withLock { () throws -> (CrowdLocationDetail?, UInt64?) in
            guard !isClosed else { throw CrowdEngineError.closed }
            let changed = state.expire(now: time)
            return (state.detail(id: id), changed ? state.changeNumber : nil)
        }
        if let change { commits.request(upTo: change) }
        return result
    }

    deinit {
        // Dropped without `close()`: stop the writer (what was pending may not be written);
        // the database closes as the store goes.
        if !isClosed { commits.stop() }
    }

    /// Writes what is pending, stops the writer and closes the database. Later calls throw
    /// ``CrowdEngineError/closed``.
    public func close() {
        let first = lock.withLock { () -> Bool in
            defer { isClosed = true }
            return !isClosed
        }
        guard first else { return }
        commits.stop()
        // The locations' statistics, refreshed once (loading recomputes them anyway).
        let last = lock.withLock { state.takeBatch(statistics: true) }
        if !last.isEmpty { try? store.apply(last) }
        try? store.close()
    }
}

/// The group commit: one thread writes everything pending in one transaction and wakes the
/// reports whose change it covered.
final class CrowdCommitQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let store: any CrowdStore
    /// Highest change number someone asked to have written.
    private var requested: UInt64 = 0
    /// Every change up to this number is committed.
    private var committed: UInt64 = 0
    private var forced = false
    private var waiters: [(change: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var failure: CrowdEngineError?
    private var stopping = false
    private var stopped = false
    private var writer: Thread?

    init(store: any CrowdStore) {
        self.store = store
    }

    /// Starts the writer thread; `snapshot` answers (under the engine's lock) the batch of
    /// pending changes and the change number it covers.
    func start(snapshot: @escaping @Sendable () -> (CrowdChangeBatch, UInt64)?) {
        let thread = Thread { [self] in self.run(snapshot: snapshot) }
        thread.name = "crowd-writer"
        condition.lock()
        writer = thread
        condition.unlock()
        thread.start()
    }

    /// Asks for everything up to `change` to be written, without waiting.
    func request(upTo change: UInt64, force: Bool = false) {
        condition.lock()
        if change > requested { requested = change }
        if force { forced = true }
        condition.signal()
        condition.unlock()
    }

    /// Returns once every change up to `change` is committed.
    func wait(for change: UInt64) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            condition.lock()
            if committed >= change {
                condition.unlock()
                continuation.resume()
            } else if let failure {
                condition.unlock()
                continuation.resume(throwing: failure)
            } else if stopped {
                condition.unlock()
                continuation.resume(throwing: CrowdEngineError.closed)
            } else {
                waiters.append((change, continuation))
                if change > requested { requested = change }
                condition.signal()
                condition.unlock()
            }
        }
    }

    /// Writes what is pending and ends the thread; returns when it has.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        // On the writer itself (the engine's last reference went away there): just ask.
        if Thread.current !== writer {
            while !stopped { condition.wait() }
        }
        condition.unlock()
    }

    private func run(snapshot: @Sendable () -> (CrowdChangeBatch, UInt64)?) {
        while true {
            condition.lock()
            while requested <= committed || failure != nil, !forced, !stopping { condition.wait() }
            let stop = stopping
            forced = false
            let failedBefore = failure != nil
            condition.unlock()

            guard let (batch, upTo) = snapshot() else {
                // The engine is gone.
                condition.lock()
                stopped = true
                let orphans = waiters.map(\.continuation)
                waiters.removeAll()
                condition.broadcast()
                condition.unlock()
                for continuation in orphans { continuation.resume(throwing: CrowdEngineError.closed) }
                return
            }
            var error: CrowdEngineError?
            if !batch.isEmpty, !failedBefore {
                do { try store.apply(batch) } catch let e { error = .storage(String(describing: e)) }
            }

            condition.lock()
            if let error, failure == nil { failure = error }
            if failure == nil, upTo > committed { committed = upTo }
            var ready: [CheckedContinuation<Void, any Error>] = []
            var failed: [CheckedContinuation<Void, any Error>] = []
            waiters.removeAll { waiter in
                if waiter.change <= committed { ready.append(waiter.continuation); return true }
                if failure != nil || stop { failed.append(waiter.continuation); return true }
                return false
            }
            let failureNow = failure
            if stop {
                stopped = true
                condition.broadcast()
            }
            condition.unlock()
            for continuation in ready { continuation.resume() }
            for continuation in failed { continuation.resume(throwing: failureNow ?? CrowdEngineError.closed) }
            if stop { return }
        }
    }
}
