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

    private let seal: PasswordSeal?

    public init(database: QuintetDatabase, cost: UInt8 = 12) {
        self.database = database
        self.cost = cost
        seal = try? PasswordSeal(directory: database.directory)
    }

    /// Adds a user. Throws `StoreError.userExists`, `.invalidUserName` or `.invalidPassword`.
    @discardableResult
    public func create(name: String, password: String, role: UserRole = .user) throws -> User {
        let name = try Self.validated(name: name)
        try Self.validate(password: password)
        var user = User(id: nil, name: name, passwordHash: Bcrypt.hash(password, cost: cost), role: role, createdAt: Date())
        let sealed = try seal?.seal(password)
        return try database.pool.write { db in
            if try User.filter(Column("name") == name).fetchOne(db) != nil { throw StoreError.userExists(name) }
            try user.insert(db)
            try db.execute(sql: "UPDATE users SET password_sealed = ? WHERE id = ?", arguments: [sealed, user.id])
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

    /// The user and their password in clear, for Subsonic's token check
    /// (`md5(password + salt)`); nil when the user is unknown or has no sealed password
    /// (created before sealing existed, or the data folder's key changed).
    public func userWithPassword(name: String) throws -> (User, String)? {
        guard let seal else { return nil }
        return try database.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, password_sealed FROM users WHERE name = ?", arguments: [name]),
                  let sealed: Data = row["password_sealed"], let password = seal.open(sealed),
                  let user = try User.fetchOne(db, key: row["id"] as Int64) else { return nil }
            return (user, password)
        }
    }

    /// The user with this id, or nil.
    public func find(id: Int64) throws -> User? {
        try database.pool.read { db in try User.fetchOne(db, key: id) }
    }

    /// Whether any user exists (the server creates `admin` on a first start).
    public func isEmpty() throws -> Bool {
        try database.pool.read { db in try User.fetchCount(db) == 0 }
    }

    /// Replaces a user's password.
    public func setPassword(name: String, password: String) throws {
        try Self.validate(password: password)
        let hash = Bcrypt.hash(password, cost: cost)
        let sealed = try seal?.seal(password)
        try database.pool.write { db in
            guard var user = try User.filter(Column("name") == name).fetchOne(db) else { throw StoreError.userNotFound(name) }
            user.passwordHash = hash
            try user.update(db)
            try db.execute(sql: "UPDATE users SET password_sealed = ? WHERE id = ?", arguments: [sealed, user.id])
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
