import Foundation
import GRDB
import Locking

/// Band ↔ member relations from MusicBrainz, looked up per artist when it is first shown
/// (docs/graph.md, "Band members").
///
/// - **Matching**: by the MusicBrainz artist id the tags pair with the artist's name when there
///   is exactly one; several ids for one name are "ambiguous". Else a name search, keeping the
///   artists whose name (or "name (disambiguation)") has the artist's `NameKey`: one is taken,
///   none is "not found", several are "ambiguous" — never a guess between equal names.
/// - **Requests**: at most one started per ``interval`` (1.1 s: MusicBrainz allows one a second), with
///   the given User-Agent; every 200 answer is cached in the database with its date and used
///   for ``maxAge`` (30 days) without asking again, and at any age when MusicBrainz cannot be
///   reached or lookups are off (offline use).
/// - **State** per artist (by name key, so it survives rescans): ok, not found, ambiguous or
///   failed with its message; a failure never replaces an earlier success. A failed lookup is
///   tried again only when asked (``lookUp(artistID:retry:)`` with `retry`).
///
/// The fetch is injected (the server passes its NIO client; tests a stand-in server's).
///
/// ```swift
/// let lookups = MemberLookups(catalog: catalog, source: .on(MemberLookups.musicBrainz),
///                             userAgent: "Quintet/0.1.0 ( admin@example.org )", fetch: fetch)
/// lookups.request(artistID: 12)          // queued; `run()` performs it
/// let state = try await lookups.lookUp(artistID: 12, retry: true)
/// ```
public final class MemberLookups: Sendable {
    /// Where lookups go.
    public enum Source: Sendable, Equatable {
        /// No requests: cached answers only.
        case off
        /// A MusicBrainz server (or a mirror, or a stand-in) at this base URL.
        case on(URL)
    }

    /// Sends `GET url` with the headers; answers the status and the body.
    public typealias Fetch = @Sendable (URL, [(String, String)]) async throws -> (status: Int, body: [UInt8])

    /// musicbrainz.org.
    public static let musicBrainz = URL(string: "https://musicbrainz.org")!

    public let catalog: Catalog
    public let source: Source
    public let userAgent: String
    public let interval: Duration
    public let maxAge: TimeInterval
    private let fetch: Fetch
    private let spacing: RequestSpacing
    private let pending = Lock<Pending>(Pending())
    private let queue: AsyncStream<Int64>
    private let queueSink: AsyncStream<Int64>.Continuation

    private struct Pending {
        var queued: Set<Int64> = []
        var running: [String: Task<MemberLookupState, Never>] = [:]
    }

    /// `interval`: the least time between the starts of two requests. MusicBrainz allows one a
    /// second; 1.1 s leaves room for jitter in connecting, so they also *arrive* a second apart.
    public init(catalog: Catalog, source: Source, userAgent: String, interval: Duration = .milliseconds(1100),
                maxAge: TimeInterval = 30 * 86_400, fetch: @escaping Fetch) {
        self.catalog = catalog
        self.source = source
        self.userAgent = userAgent
        self.interval = interval
        self.maxAge = maxAge
        self.fetch = fetch
        spacing = RequestSpacing(interval: interval)
        (queue, queueSink) = AsyncStream.makeStream(of: Int64.self)
    }

    /// Queues the lookup of an artist shown for the first time; does nothing when it is
    /// queued already (a stored state is answered by the lookup itself, without a request).
    public func request(artistID: Int64) {
        let isNew = pending.withLock { $0.queued.insert(artistID).inserted }
        if isNew { queueSink.yield(artistID) }
    }

    /// Performs queued lookups one after the other until the task is cancelled.
    public func run() async {
        for await id in queue {
            if Task.isCancelled { break }
            _ = try? await lookUp(artistID: id)
            _ = pending.withLock { $0.queued.remove(id) }
        }
    }

    /// The artist's state: the stored one, else "pending" while queued or running, "off" when
    /// lookups are off, else "none". Throws `CatalogError.notFound` for an unknown artist.
    public func state(artistID: Int64) throws -> MemberLookupState {
        let (key, stored) = try catalog.database.pool.read { db in
            let key = try Self.artist(artistID, db).key
            return (key, try Catalog.lookupState(key: key, db))
        }
        if stored.isStored { return stored }
        if pending.withLock({ $0.queued.contains(artistID) || $0.running[key] != nil }) { return .pending }
        return source == .off ? .off : .notLookedUp
    }

    /// Looks an artist up now and returns the state reached. A stored state is returned as it
    /// is unless `retry` (then the lookup runs again, from the cache where it is fresh). Two
    /// lookups of one artist at once share the work.
    public func lookUp(artistID: Int64, retry: Bool = false) async throws -> MemberLookupState {
        let (key, name, stored) = try await catalog.database.pool.read { db in
            let (key, name) = try Self.artist(artistID, db)
            return (key, name, try Catalog.lookupState(key: key, db))
        }
        if !retry && stored.isStored { return stored }
        let task = pending.withLock { state -> Task<MemberLookupState, Never> in
            if let running = state.running[key] { return running }
            let task = Task { await self.perform(key: key, name: name) }
            state.running[key] = task
            return task
        }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        _ = pending.withLock { $0.running.removeValue(forKey: key) }
        return result
    }

    private static func artist(_ id: Int64, _ db: Database) throws -> (key: String, name: String) {
        guard let row = try Row.fetchOne(db, sql: "SELECT key, name FROM library_artist WHERE id = ?", arguments: [id]) else {
            throw CatalogError.notFound("no artist with id \(id)")
        }
        return (row[0], row[1])
    }

    // MARK: the lookup

    private enum Failure: Error, CustomStringConvertible {
        case offline
        case notFound
        case status(Int)
        case unreadable(String)

        var description: String {
            switch self {
            case .offline: "MusicBrainz lookups are off and nothing is cached"
            case .notFound: "MusicBrainz has no such artist"
            case .status(let code): "MusicBrainz answered HTTP \(code)"
            case .unreadable(let what): "MusicBrainz's answer could not be read: \(what)"
            }
        }
    }

    private func perform(key: String, name: String) async -> MemberLookupState {
        let now = Date()
        do {
            let tagIDs = try await catalog.database.pool.read { db in
                try String.fetchAll(db, sql: "SELECT DISTINCT mbid FROM library_song_mbid WHERE artist_key = ? ORDER BY mbid", arguments: [key])
            }
            let mbid: String
            if tagIDs.count > 1 {
                let candidates = tagIDs.map { MusicBrainzCandidate(id: $0, name: name, disambiguation: "an id in the tags") }
                return try await store(key: key, name: name, .ambiguous(candidates, now))
            } else if let id = tagIDs.first {
                mbid = id
            } else {
                let body = try await get(MusicBrainzAnswers.searchPath(name: name))
                let match: MusicBrainzAnswers.Match
                do { match = try MusicBrainzAnswers.match(key: key, search: body) } catch {
                    throw Failure.unreadable("the search for \(name): \(error)")
                }
                switch match {
                case .none: return try await store(key: key, name: name, .notFound(now))
                case .several(let candidates): return try await store(key: key, name: name, .ambiguous(candidates, now))
                case .one(let candidate): mbid = candidate.id
                }
            }
            let body: [UInt8]
            do { body = try await get(MusicBrainzAnswers.lookupPath(mbid: mbid)) } catch Failure.notFound {
                return try await store(key: key, name: name, .notFound(now))
            }
            let relations: MusicBrainzAnswers.Relations
            do { relations = try MusicBrainzAnswers.relations(lookup: body) } catch {
                throw Failure.unreadable("artist \(mbid): \(error)")
            }
            return try await store(key: key, name: name, .ok(now), mbid: mbid, relations: relations)
        } catch Failure.offline {
            return .off
        } catch is CancellationError {
            return (try? await catalog.database.pool.read { db in try Catalog.lookupState(key: key, db) }) ?? .notLookedUp
        } catch {
            let message = (error as? Failure)?.description ?? "no answer from MusicBrainz: \(error)"
            return (try? await store(key: key, name: name, .failed(message: message, now))) ?? .failed(message: message, now)
        }
    }

    /// An answer by path: from the cache when fresh (or at any age when lookups are off or
    /// MusicBrainz cannot be reached), else from MusicBrainz, one request per `interval`.
    private func get(_ path: String) async throws -> [UInt8] {
        let cached = try await catalog.database.pool.read { db -> (body: [UInt8], at: Double)? in
            try Row.fetchOne(db, sql: "SELECT body, fetched_at FROM library_mb_answer WHERE path = ?", arguments: [path])
                .map { (body: [UInt8]($0["body"] as Data), at: $0["fetched_at"] as Double) }
        }
        guard case .on(let base) = source else {
            if let cached { return cached.body }
            throw Failure.offline
        }
        if let cached, Date().timeIntervalSince1970 - cached.at < maxAge { return cached.body }
        guard let url = URL(string: base.absoluteString.trimmingSuffix("/") + path) else { throw Failure.unreadable("bad URL") }
        try await spacing.wait()
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try await fetch(url, [("User-Agent", userAgent), ("Accept", "application/json")])
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if let cached { return cached.body }
            throw error
        }
        switch answer.status {
        case 200:
            try await catalog.database.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO library_mb_answer (path, body, fetched_at) VALUES (?, ?, ?)
                    ON CONFLICT(path) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at
                    """, arguments: [path, Data(answer.body), Date().timeIntervalSince1970])
            }
            return answer.body
        case 404: throw Failure.notFound
        default:
            if let cached { return cached.body }
            throw Failure.status(answer.status)
        }
    }

    /// Stores a finished lookup (a failure does not replace a success) and returns the state
    /// now stored.
    private func store(key: String, name: String, _ state: MemberLookupState, mbid: String? = nil,
                       relations: MusicBrainzAnswers.Relations? = nil) async throws -> MemberLookupState {
        var message: String?
        var candidates: String?
        switch state {
        case .failed(let text, _): message = text
        case .ambiguous(let list, _):
            candidates = String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
        default: break
        }
        let stored = (message, candidates)
        return try await catalog.database.pool.write { db in
            let (message, candidates) = stored
            try db.execute(sql: """
                INSERT INTO library_member_lookup (artist_key, name, state, mbid, type, message, candidates, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(artist_key) DO UPDATE SET name = excluded.name, state = excluded.state, mbid = excluded.mbid,
                    type = excluded.type, message = excluded.message, candidates = excluded.candidates, at = excluded.at
                WHERE library_member_lookup.state <> 'ok' OR excluded.state <> 'failed'
                """, arguments: [key, name, state.name, mbid, relations?.type, message, candidates, state.date!.timeIntervalSince1970])
            if let relations {
                try db.execute(sql: "DELETE FROM library_member_mb WHERE artist_key = ?", arguments: [key])
                for related in relations.related {
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO library_member_mb (artist_key, related_mbid, related_name, related_key, direction)
                        VALUES (?, ?, ?, ?, ?)
                        """, arguments: [key, related.mbid, related.name, NameKey(related.name).value, related.direction])
                }
            }
            return try Catalog.lookupState(key: key, db)
        }
    }
}

/// Spaces request starts at least `interval` apart, across every caller.
actor RequestSpacing {
    let interval: Duration
    private var next = ContinuousClock.now

    init(interval: Duration) { self.interval = interval }

    /// Waits for this caller's turn (cancellable).
    func wait() async throws {
        let now = ContinuousClock.now
        let turn = max(now, next)
        next = turn + interval
        if turn > now { try await Task.sleep(until: turn, clock: .continuous) }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
