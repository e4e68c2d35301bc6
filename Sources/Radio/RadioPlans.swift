import Foundation
import GRDB
import QuintetStore

/// A named set of limits an admin gives users (`radio_plans`). A nil limit is no limit.
public struct RadioPlan: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "radio_plans"
    public var id: Int64?
    public var name: String
    /// The longest episode (a live broadcast is cut there, a longer upload refused).
    public var maxEpisodeSeconds: Int
    /// How many episodes may be online (published, not deleted) at once.
    public var maxEpisodesOnline: Int?
    /// The bytes all of a user's episodes (not deleted) may take.
    public var maxStorageBytes: Int64?
    /// The plan of users who have none.
    public var isDefault: Bool
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name
        case maxEpisodeSeconds = "max_episode_seconds"
        case maxEpisodesOnline = "max_episodes_online"
        case maxStorageBytes = "max_storage_bytes"
        case isDefault = "is_default"
        case createdAt = "created_at"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Every key, unlimited ones as null (also the row written to the database).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name)
        try c.encode(maxEpisodeSeconds, forKey: .maxEpisodeSeconds)
        try c.encode(maxEpisodesOnline, forKey: .maxEpisodesOnline); try c.encode(maxStorageBytes, forKey: .maxStorageBytes)
        try c.encode(isDefault, forKey: .isDefault); try c.encode(createdAt, forKey: .createdAt)
    }
}

/// What a user's episodes take: episodes online (published, not deleted) and bytes (the
/// `size` of every episode not deleted).
public struct PlanUsage: Codable, Sendable, Equatable {
    public var episodesOnline: Int
    public var storageBytes: Int64
    enum CodingKeys: String, CodingKey { case episodesOnline = "episodes_online"; case storageBytes = "storage_bytes" }
}

/// What a plan's storage leaves a user: `allowed − used` bytes (never below zero).
public struct StorageLeft: Sendable, Hashable {
    public let plan: String
    public let used: Int64
    public let allowed: Int64
    public init(plan: String, used: Int64, allowed: Int64) { self.plan = plan; self.used = used; self.allowed = allowed }
    public var bytes: Int64 { max(0, allowed - used) }
    /// The refusal when nothing is left (or a recording of `recorded` more bytes passed it).
    public func error(recorded: Int64 = 0) -> PlanLimitError {
        PlanLimitError(plan: plan, limit: "max_storage_bytes", used: used + recorded, allowed: allowed)
    }
    public var error: PlanLimitError { error() }
}

/// A plan's limit would be passed. `limit` names it (`max_episodes_online`,
/// `max_storage_bytes`, `max_episode_seconds`); `used` and `allowed` are the figures.
public struct PlanLimitError: Error, Equatable, Sendable, CustomStringConvertible {
    public let plan: String
    public let limit: String
    public let used: Int64
    public let allowed: Int64

    public init(plan: String, limit: String, used: Int64, allowed: Int64) {
        self.plan = plan; self.limit = limit; self.used = used; self.allowed = allowed
    }

    public var description: String {
        switch limit {
        case "max_episodes_online":
            "plan '\(plan)' allows \(allowed) episodes online and \(used) are: unpublish or delete one first"
        case "max_storage_bytes":
            "plan '\(plan)' allows \(allowed) bytes of episodes; this would take \(used): delete episodes first"
        default:
            "plan '\(plan)' allows episodes of at most \(allowed) s; this one is \(used) s"
        }
    }
}

/// The radio's plans (issue 24 §1): CRUD for admins, a user's plan and usage, and the checks
/// the store, uploads and live ingest call. A user's plan is `radio_profiles.plan_id`, else the
/// plan with `is_default = 1`, else none (no limits).
///
/// ```swift
/// let plans = RadioPlans(database: database)
/// try plans.add(name: "free", maxEpisodeSeconds: 3600, maxEpisodesOnline: 10, maxStorageBytes: 1 << 30)
/// try plans.setDefault(name: "free")
/// try plans.checkPublish(ownerID: user.id!)   // throws PlanLimitError at the limit
/// ```
public struct RadioPlans: Sendable {
    public let database: QuintetDatabase

    public init(database: QuintetDatabase) { self.database = database }

    /// Adds a plan. Names are 1–64 characters, unique regardless of case; limits positive.
    @discardableResult
    public func add(name: String, maxEpisodeSeconds: Int, maxEpisodesOnline: Int? = nil,
                    maxStorageBytes: Int64? = nil, isDefault: Bool = false) throws -> RadioPlan {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(name.count) else { throw RadioStoreError.invalid("a plan's name has 1 to 64 characters") }
        try Self.validate(maxEpisodeSeconds, maxEpisodesOnline, maxStorageBytes)
        return try database.pool.write { db in
            if try RadioPlan.filter(Column("name") == name).fetchOne(db) != nil {
                throw RadioStoreError.invalid("a plan named '\(name)' exists already")
            }
            if isDefault { try db.execute(sql: "UPDATE radio_plans SET is_default = 0") }
            var plan = RadioPlan(id: nil, name: name, maxEpisodeSeconds: maxEpisodeSeconds, maxEpisodesOnline: maxEpisodesOnline,
                                 maxStorageBytes: maxStorageBytes, isDefault: isDefault, createdAt: Date())
            try plan.insert(db)
            return plan
        }
    }

    /// Every plan, by name.
    public func list() throws -> [RadioPlan] {
        try database.pool.read { db in try RadioPlan.order(Column("name")).fetchAll(db) }
    }

    /// The plan with this name (any case), or nil.
    public func find(name: String) throws -> RadioPlan? {
        try database.pool.read { db in try RadioPlan.filter(Column("name") == name).fetchOne(db) }
    }

    /// Changes a plan's limits: each non-nil argument replaces its value; `clear…` makes a
    /// limit unlimited.
    @discardableResult
    public func set(name: String, maxEpisodeSeconds: Int? = nil, maxEpisodesOnline: Int? = nil, maxStorageBytes: Int64? = nil,
                    clearEpisodesOnline: Bool = false, clearStorage: Bool = false) throws -> RadioPlan {
        try database.pool.write { db in
            guard var plan = try RadioPlan.filter(Column("name") == name).fetchOne(db) else { throw Self.notFound(name) }
            if let maxEpisodeSeconds { plan.maxEpisodeSeconds = maxEpisodeSeconds }
            if let maxEpisodesOnline { plan.maxEpisodesOnline = maxEpisodesOnline }
            if let maxStorageBytes { plan.maxStorageBytes = maxStorageBytes }
            if clearEpisodesOnline { plan.maxEpisodesOnline = nil }
            if clearStorage { plan.maxStorageBytes = nil }
            try Self.validate(plan.maxEpisodeSeconds, plan.maxEpisodesOnline, plan.maxStorageBytes)
            try plan.update(db)
            return plan
        }
    }

    /// Removes a plan; its users fall back to the default plan.
    public func remove(name: String) throws {
        try database.pool.write { db in
            guard try RadioPlan.filter(Column("name") == name).deleteAll(db) == 1 else { throw Self.notFound(name) }
        }
    }

    /// Makes `name` the plan of users without one (nil: no default).
    public func setDefault(name: String?) throws {
        try database.pool.write { db in
            if let name, try RadioPlan.filter(Column("name") == name).fetchOne(db) == nil { throw Self.notFound(name) }
            try db.execute(sql: "UPDATE radio_plans SET is_default = 0")
            if let name { try db.execute(sql: "UPDATE radio_plans SET is_default = 1 WHERE name = ?", arguments: [name]) }
        }
    }

    /// Gives user `userID` plan `name` (nil: back to the default).
    public func assign(userID: Int64, plan name: String?) throws {
        try database.pool.write { db in
            var planID: Int64?
            if let name {
                guard let plan = try RadioPlan.filter(Column("name") == name).fetchOne(db) else { throw Self.notFound(name) }
                planID = plan.id
            }
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE id = ?", arguments: [userID]) == 1 else {
                throw RadioStoreError.ownerNotFound(userID)
            }
            try db.execute(sql: """
                INSERT INTO radio_profiles (user_id, plan_id, updated_at) VALUES (?, ?, ?)
                ON CONFLICT(user_id) DO UPDATE SET plan_id = excluded.plan_id, updated_at = excluded.updated_at
                """, arguments: [userID, planID, Date()])
        }
    }

    /// The plan of user `userID`: theirs, else the default, else nil (no limits).
    public func plan(userID: Int64) throws -> RadioPlan? {
        try database.pool.read { db in try Self.plan(db, userID: userID) }
    }

    /// What user `userID`'s episodes take.
    public func usage(userID: Int64) throws -> PlanUsage {
        try database.pool.read { db in try Self.usage(db, userID: userID) }
    }

    /// Throws ``PlanLimitError`` when publishing one more episode of `ownerID` would pass
    /// their plan's `max_episodes_online` (N allowed: the Nth publishes, the N+1th does not).
    public func checkPublish(ownerID: Int64) throws {
        try database.pool.read { db in try Self.checkPublish(db, ownerID: ownerID) }
    }

    /// Throws ``PlanLimitError`` when a new episode of `seconds` and `bytes` by `ownerID` would
    /// pass their plan's longest episode or storage.
    public func checkNewEpisode(ownerID: Int64, seconds: Double, bytes: Int64) throws {
        try database.pool.read { db in
            guard let plan = try Self.plan(db, userID: ownerID) else { return }
            if seconds > Double(plan.maxEpisodeSeconds) + 0.5 {
                throw PlanLimitError(plan: plan.name, limit: "max_episode_seconds", used: Int64(seconds.rounded()),
                                     allowed: Int64(plan.maxEpisodeSeconds))
            }
            if let allowed = plan.maxStorageBytes {
                let total = try Self.usage(db, userID: ownerID).storageBytes + bytes
                if total > allowed { throw PlanLimitError(plan: plan.name, limit: "max_storage_bytes", used: total, allowed: allowed) }
            }
        }
    }

    /// The bytes user `ownerID` may still add under their plan's storage, with the figures for
    /// a ``PlanLimitError`` (nil: no storage limit). A live broadcast is refused when nothing
    /// is left and cut when its recording reaches `left`; an upload is refused at its start
    /// when nothing is left.
    public func storageLeft(ownerID: Int64) throws -> StorageLeft? {
        try database.pool.read { db in
            guard let plan = try Self.plan(db, userID: ownerID), let allowed = plan.maxStorageBytes else { return nil }
            return StorageLeft(plan: plan.name, used: try Self.usage(db, userID: ownerID).storageBytes, allowed: allowed)
        }
    }

    /// Throws ``PlanLimitError`` (`max_storage_bytes`) when user `ownerID`'s episodes already
    /// take all of their plan's storage.
    public func checkStorageLeft(ownerID: Int64) throws {
        if let left = try storageLeft(ownerID: ownerID), left.bytes <= 0 { throw left.error }
    }

    // MARK: in a transaction

    static func plan(_ db: Database, userID: Int64) throws -> RadioPlan? {
        if let own = try RadioPlan.fetchOne(db, sql: """
            SELECT radio_plans.* FROM radio_plans JOIN radio_profiles ON radio_profiles.plan_id = radio_plans.id
            WHERE radio_profiles.user_id = ?
            """, arguments: [userID]) { return own }
        return try RadioPlan.filter(Column("is_default") == true).fetchOne(db)
    }

    static func usage(_ db: Database, userID: Int64) throws -> PlanUsage {
        let row = try Row.fetchOne(db, sql: """
            SELECT COUNT(CASE WHEN e.state = 'published' THEN 1 END) AS online, COALESCE(SUM(e.size), 0) AS bytes
            FROM radio_episodes e JOIN radio_shows s ON s.id = e.show_id
            WHERE s.owner_id = ? AND e.deleted_at IS NULL
            """, arguments: [userID])
        return PlanUsage(episodesOnline: row?["online"] ?? 0, storageBytes: row?["bytes"] ?? 0)
    }

    static func checkPublish(_ db: Database, ownerID: Int64) throws {
        guard let plan = try plan(db, userID: ownerID), let allowed = plan.maxEpisodesOnline else { return }
        let online = try usage(db, userID: ownerID).episodesOnline
        if online >= allowed {
            throw PlanLimitError(plan: plan.name, limit: "max_episodes_online", used: Int64(online), allowed: Int64(allowed))
        }
    }

    static func validate(_ seconds: Int, _ online: Int?, _ bytes: Int64?) throws {
        guard seconds > 0 else { throw RadioStoreError.invalid("max_episode_seconds must be positive") }
        if let online, online < 0 { throw RadioStoreError.invalid("max_episodes_online cannot be negative") }
        if let bytes, bytes < 0 { throw RadioStoreError.invalid("max_storage_bytes cannot be negative") }
    }

    static func notFound(_ name: String) -> RadioStoreError { .invalid("no plan named '\(name)'") }
}
