import Foundation
import GRDB
import QuintetStore

/// Why a community operation (follow, discovery, search, profile) was refused.
public enum RadioCommunityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such user or show (a deleted show counts as missing for everyone).
    case notFound(String)
    /// The request makes no sense (following oneself, a position out of range…).
    case invalid(String)

    public var description: String {
        switch self {
        case .notFound(let m): m
        case .invalid(let m): m
        }
    }
}

/// The follow graph (`radio_user_follows`, `radio_show_follows`, migration `radio.v3-community`):
/// a user follows other users (authors) and shows. Following is idempotent (following twice
/// is one follow; unfollowing what one does not follow is no error); nobody follows
/// themselves; a deleted show (`deleted_at` set) cannot be followed and is left out of lists.
///
/// ```swift
/// let follows = RadioFollows(database: database)
/// try follows.followUser(follower: me, name: "anna")
/// try follows.followShow(follower: me, showID: 7)
/// follows.counts(userID: anna)   // (followers: 1, following: 0)
/// ```
public struct RadioFollows: Sendable {
    /// The shared database.
    public let database: QuintetDatabase
    /// Clock for `created_at` (tests inject one).
    public let now: @Sendable () -> Date

    /// Follows in `database`; `now` stamps new follows.
    public init(database: QuintetDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// A user as the follow lists show them: name and profile display name (may be empty).
    public struct Person: Sendable, Equatable, Codable {
        /// `users.id`.
        public var id: Int64
        /// The sign-in name (unique).
        public var name: String
        /// `radio_profiles.display_name`, empty when none.
        public var displayName: String
    }

    /// The id of the user called `name` (exact, case-insensitive as `users.name`), or ``RadioCommunityError/notFound(_:)``.
    public func userID(named name: String) throws -> Int64 {
        try database.pool.read { db in try Self.userID(db, name) }
    }

    static func userID(_ db: Database, _ name: String) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE name = ? COLLATE NOCASE", arguments: [name]) else {
            throw RadioCommunityError.notFound("no user \(name.prefix(64))")
        }
        return id
    }

    /// `follower` follows the user called `name` (idempotent). Refuses following oneself.
    public func followUser(follower: Int64, name: String) throws {
        try database.pool.write { db in
            let followed = try Self.userID(db, name)
            guard followed != follower else { throw RadioCommunityError.invalid("you cannot follow yourself") }
            try db.execute(sql: "INSERT OR IGNORE INTO radio_user_follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)",
                           arguments: [follower, followed, now()])
        }
    }

    /// `follower` stops following the user called `name` (no error when they did not).
    public func unfollowUser(follower: Int64, name: String) throws {
        try database.pool.write { db in
            let followed = try Self.userID(db, name)
            try db.execute(sql: "DELETE FROM radio_user_follows WHERE follower_id = ? AND followed_id = ?",
                           arguments: [follower, followed])
        }
    }

    /// `follower` follows show `showID` (idempotent); a missing or deleted show is not found.
    public func followShow(follower: Int64, showID: Int64) throws {
        try database.pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM radio_shows WHERE id = ? AND deleted_at IS NULL", arguments: [showID]) != nil else {
                throw RadioCommunityError.notFound("no show \(showID)")
            }
            try db.execute(sql: "INSERT OR IGNORE INTO radio_show_follows (follower_id, show_id, created_at) VALUES (?, ?, ?)",
                           arguments: [follower, showID, now()])
        }
    }

    /// `follower` stops following show `showID` (no error when they did not; a missing show is not found).
    public func unfollowShow(follower: Int64, showID: Int64) throws {
        try database.pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM radio_shows WHERE id = ?", arguments: [showID]) != nil else {
                throw RadioCommunityError.notFound("no show \(showID)")
            }
            try db.execute(sql: "DELETE FROM radio_show_follows WHERE follower_id = ? AND show_id = ?", arguments: [follower, showID])
        }
    }

    /// Whether `follower` follows user `followed`.
    public func follows(_ follower: Int64, user followed: Int64) throws -> Bool {
        try database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM radio_user_follows WHERE follower_id = ? AND followed_id = ?",
                              arguments: [follower, followed]) != nil
        }
    }

    /// Whether `follower` follows show `showID`.
    public func follows(_ follower: Int64, show showID: Int64) throws -> Bool {
        try database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM radio_show_follows WHERE follower_id = ? AND show_id = ?",
                              arguments: [follower, showID]) != nil
        }
    }

    /// The shows `follower` follows (not deleted), by id.
    public func followedShowIDs(_ follower: Int64) throws -> [Int64] {
        try database.pool.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT f.show_id FROM radio_show_follows f JOIN radio_shows s ON s.id = f.show_id
                WHERE f.follower_id = ? AND s.deleted_at IS NULL ORDER BY f.show_id
                """, arguments: [follower])
        }
    }

    /// How many follow `userID`, and how many users they follow.
    public func counts(userID: Int64) throws -> (followers: Int, following: Int) {
        try database.pool.read { db in
            let followers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_user_follows WHERE followed_id = ?", arguments: [userID]) ?? 0
            let following = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_user_follows WHERE follower_id = ?", arguments: [userID]) ?? 0
            return (followers, following)
        }
    }

    /// How many follow show `showID`.
    public func followerCount(showID: Int64) throws -> Int {
        try database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_show_follows WHERE show_id = ?", arguments: [showID]) ?? 0
        }
    }

    /// Who follows the user called `name`, newest follow first (then by name).
    public func followers(of name: String, limit: Int = 200) throws -> [Person] {
        try people(name, sql: """
            SELECT u.id, u.name, COALESCE(p.display_name, '') AS display_name FROM radio_user_follows f
            JOIN users u ON u.id = f.follower_id LEFT JOIN radio_profiles p ON p.user_id = u.id
            WHERE f.followed_id = ? ORDER BY f.created_at DESC, u.name LIMIT ?
            """, limit: limit)
    }

    /// Whom the user called `name` follows, newest follow first (then by name).
    public func following(of name: String, limit: Int = 200) throws -> [Person] {
        try people(name, sql: """
            SELECT u.id, u.name, COALESCE(p.display_name, '') AS display_name FROM radio_user_follows f
            JOIN users u ON u.id = f.followed_id LEFT JOIN radio_profiles p ON p.user_id = u.id
            WHERE f.follower_id = ? ORDER BY f.created_at DESC, u.name LIMIT ?
            """, limit: limit)
    }

    private func people(_ name: String, sql: String, limit: Int) throws -> [Person] {
        try database.pool.read { db in
            let id = try Self.userID(db, name)
            return try Row.fetchAll(db, sql: sql, arguments: [id, max(0, limit)]).map {
                Person(id: $0["id"], name: $0["name"], displayName: $0["display_name"])
            }
        }
    }
}
