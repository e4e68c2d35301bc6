import Crypto
import Foundation
import GRDB

/// Web sessions: a random 256-bit token in a cookie, stored only as its SHA-256, valid for
/// `lifetime` (30 days by default). Deleting a user ends their sessions.
///
/// ```swift
/// let sessions = SessionStore(database: database)
/// let token = try sessions.create(userID: 1)   // goes into the cookie
/// let user = try sessions.user(token: token)   // User?
/// ```
public struct SessionStore: Sendable {
    public let database: QuintetDatabase
    public let lifetime: TimeInterval

    public init(database: QuintetDatabase, lifetime: TimeInterval = 30 * 86_400) {
        self.database = database
        self.lifetime = lifetime
    }

    /// Starts a session and returns its token (43 URL-safe characters).
    public func create(userID: Int64) throws -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let now = Date().timeIntervalSince1970
        try database.pool.write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE expires_at < ?", arguments: [now])
            try db.execute(sql: "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                           arguments: [Self.hash(token), userID, now, now + lifetime])
        }
        return token
    }

    /// The user of a live session, or nil.
    public func user(token: String) throws -> User? {
        guard token.count <= 128 else { return nil }
        return try database.pool.read { db in
            try User.fetchOne(db, sql: """
                SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id
                WHERE sessions.token_hash = ? AND sessions.expires_at > ?
                """, arguments: [Self.hash(token), Date().timeIntervalSince1970])
        }
    }

    /// Ends a session (signing out).
    public func delete(token: String) throws {
        try database.pool.write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [Self.hash(token)])
        }
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
