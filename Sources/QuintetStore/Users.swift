import Foundation
import GRDB
import HummingbirdBcrypt

/// What a user may do across all systems.
public enum UserRole: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    /// Manages users and every system's settings.
    case admin
    /// Listens, broadcasts and keeps playlists of their own.
    case user
}

/// One person who can sign in: Subsonic clients, radio accounts and the web pages share it.
public struct User: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "users"
    public var id: Int64?
    public var name: String
    /// A bcrypt hash (`$2b$…`); the password itself is never stored.
    public var passwordHash: String
    public var role: UserRole
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, role
        case passwordHash = "password_hash"
        case createdAt = "created_at"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Creates, checks and removes users in the shared `users` table.
///
/// Names are 1–64 characters with no control characters, unique regardless of case;
/// passwords are 8–72 bytes (bcrypt reads at most 72) and stored as bcrypt hashes.
///
/// ```swift
/// let users = UserStore(database: database)
/// try users.create(name: "ada", password: "correct horse", role: .admin)
/// let ada = try users.authenticate(name: "ada", password: "correct horse") // User?
/// ```
public struct UserStore: Sendable {
    public let database: QuintetDatabase
    /// bcrypt cost factor (2^cost rounds); 12 by default, lower only in tests.
    public let cost: UInt8

    public init(database: QuintetDatabase, cost: UInt8 = 12) {
        self.database = database
        self.cost = cost
    }

    /// Adds a user. Throws `StoreError.userExists`, `.invalidUserName` or `.invalidPassword`.
    @discardableResult
    public func create(name: String, password: String, role: UserRole = .user) throws -> User {
        let name = try Self.validated(name: name)
        try Self.validate(password: password)
        var user = User(id: nil, name: name, passwordHash: Bcrypt.hash(password, cost: cost), role: role, createdAt: Date())
        return try database.pool.write { db in
            if try User.filter(Column("name") == name).fetchOne(db) != nil { throw StoreError.userExists(name) }
            try user.insert(db)
            return user
        }
    }

    /// All users, by name.
    public func list() throws -> [User] {
        try database.pool.read { db in try User.order(Column("name")).fetchAll(db) }
    }

    /// The user with this name (case-insensitive), or nil.
    public func find(name: String) throws -> User? {
        try database.pool.read { db in try User.filter(Column("name") == name).fetchOne(db) }
    }

    /// The user if the password matches, else nil. Unknown names cost as much time as
    /// wrong passwords, so timing does not tell which names exist.
    public func authenticate(name: String, password: String) throws -> User? {
        let user = try find(name: name)
        let hash = user?.passwordHash ?? Self.decoyHash
        let ok = Bcrypt.verify(password, hash: hash)
        return ok ? user : nil
    }

    /// Replaces a user's password.
    public func setPassword(name: String, password: String) throws {
        try Self.validate(password: password)
        let hash = Bcrypt.hash(password, cost: cost)
        try database.pool.write { db in
            guard var user = try User.filter(Column("name") == name).fetchOne(db) else { throw StoreError.userNotFound(name) }
            user.passwordHash = hash
            try user.update(db)
        }
    }

    /// Removes a user. Throws `StoreError.userNotFound` if there is none.
    public func delete(name: String) throws {
        try database.pool.write { db in
            let count = try User.filter(Column("name") == name).deleteAll(db)
            if count == 0 { throw StoreError.userNotFound(name) }
        }
    }

    static func validated(name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !trimmed.isEmpty else { throw StoreError.invalidUserName("a name cannot be empty") }
        guard trimmed.count <= 64 else { throw StoreError.invalidUserName("a name has at most 64 characters") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StoreError.invalidUserName("a name cannot contain control characters")
        }
        return trimmed
    }

    static func validate(password: String) throws {
        let bytes = password.utf8.count
        guard bytes >= 8 else { throw StoreError.invalidPassword("a password needs at least 8 characters") }
        guard bytes <= 72 else { throw StoreError.invalidPassword("a password has at most 72 bytes (bcrypt's limit)") }
    }

    /// A valid hash of a random string, verified against when the name is unknown.
    private static let decoyHash = Bcrypt.hash(UUID().uuidString, cost: 12)
}
