import Crypto
import Foundation
import GRDB

/// Who may create an account (`quintet serve --registration`, env `QUINTET_REGISTRATION`).
public enum RegistrationMode: String, Sendable, CaseIterable, Codable {
    /// Anyone may register, with or without an invitation.
    case open
    /// Registering needs an invitation link (the default).
    case invite
    /// Nobody may register; an admin adds users with `quintet users add`.
    case closed
}

/// Why an invitation or a registration was refused. Messages say what to do.
public enum InviteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server does not take registrations (`--registration closed`).
    case registrationClosed
    /// Registration needs an invitation and none was given.
    case inviteRequired
    /// No invitation has this token.
    case unknown
    /// The invitation was used already.
    case used
    /// The invitation's time is over.
    case expired
    /// The user holds as many unused invitations as allowed.
    case tooMany(Int)
    /// A lifetime out of 1…365 days.
    case invalidLifetime

    public var description: String {
        switch self {
        case .registrationClosed: "registration is closed on this server: ask an admin for an account"
        case .inviteRequired: "registration needs an invitation: ask a member for an invitation link"
        case .unknown: "this invitation link is not valid (check that it was copied whole)"
        case .used: "this invitation was used already: ask for a new one"
        case .expired: "this invitation has expired: ask for a new one"
        case .tooMany(let n): "you hold \(n) unused invitations already: wait until they are used or expire"
        case .invalidLifetime: "an invitation lasts 1 to 365 days"
        }
    }
}

/// Single-use invitation links (issue 24), on the `invites` table.
///
/// The link carries a random 128-bit token (22 URL-safe characters); the table keeps only its
/// SHA-256, so a copy of the database opens no door. An invitation lasts 7 days by default and
/// works once. Admins may create any number; other users may hold at most
/// ``maxUnusedPerUser`` unused, unexpired ones at a time.
///
/// ```swift
/// let invites = InviteStore(database: database)
/// let (token, expires) = try invites.create(by: ada)
/// let user = try invites.register(name: "bob", password: "correct horse", token: token,
///                                  mode: .invite, users: users)
/// ```
public struct InviteStore: Sendable {
    public let database: QuintetDatabase
    /// Seven days.
    public static let defaultLifetime: TimeInterval = 7 * 86_400
    /// The unused invitations a user who is not an admin may hold at once.
    public static let maxUnusedPerUser = 5

    public init(database: QuintetDatabase) { self.database = database }

    /// Creates an invitation by `creator` (nil: the command line, as an admin) lasting `days`
    /// (1…365). Returns the token for the link and its expiry.
    public func create(by creator: User?, days: Int = 7, now: Date = Date()) throws -> (token: String, expiresAt: Date) {
        guard (1...365).contains(days) else { throw InviteError.invalidLifetime }
        var bytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let expires = now.addingTimeInterval(TimeInterval(days) * 86_400)
        try database.pool.write { db in
            if let creator, creator.role != .admin {
                let held = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM invites WHERE created_by = ? AND used_at IS NULL AND expires_at > ?
                    """, arguments: [creator.id, now.timeIntervalSince1970]) ?? 0
                if held >= Self.maxUnusedPerUser { throw InviteError.tooMany(held) }
            }
            try db.execute(sql: "INSERT INTO invites (token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)",
                           arguments: [Self.hash(token), creator?.id, now.timeIntervalSince1970, expires.timeIntervalSince1970])
        }
        return (token, expires)
    }

    /// Throws why `token` cannot be used now (``InviteError/unknown``, `.used`, `.expired`).
    public func check(token: String, now: Date = Date()) throws {
        guard token.count <= 128,
              let row = try database.pool.read({ db in
                  try Row.fetchOne(db, sql: "SELECT used_at, expires_at FROM invites WHERE token_hash = ?", arguments: [Self.hash(token)])
              }) else { throw InviteError.unknown }
        if (row["used_at"] as Double?) != nil { throw InviteError.used }
        if (row["expires_at"] as Double) <= now.timeIntervalSince1970 { throw InviteError.expired }
    }

    /// Registers a new `user` under `mode`: `closed` refuses, `invite` needs a valid `token`,
    /// `open` takes one if given (and then checks it). The invitation is spent atomically (two
    /// registrations racing with one token: one wins); if the user cannot be created (name
    /// taken, short password) it stays usable.
    public func register(name: String, password: String, token: String?, mode: RegistrationMode,
                         users: UserStore, now: Date = Date()) throws -> User {
        if mode == .closed { throw InviteError.registrationClosed }
        let token = token.flatMap { $0.isEmpty ? nil : $0 }
        if mode == .invite && token == nil { throw InviteError.inviteRequired }
        // Validate before spending the invitation, so a typo does not burn it.
        _ = try UserStore.validated(name: name)
        try UserStore.validate(password: password)
        if try users.find(name: name) != nil { throw StoreError.userExists(name) }
        guard let token else { return try users.create(name: name, password: password) }
        try check(token: token, now: now)
        let hash = Self.hash(token)
        let spent = try database.pool.write { db -> Bool in
            try db.execute(sql: "UPDATE invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
                           arguments: [now.timeIntervalSince1970, hash, now.timeIntervalSince1970])
            return db.changesCount == 1
        }
        guard spent else { throw InviteError.used }
        do {
            let user = try users.create(name: name, password: password)
            try database.pool.write { db in
                try db.execute(sql: "UPDATE invites SET used_by = ? WHERE token_hash = ?", arguments: [user.id, hash])
            }
            return user
        } catch {
            try? database.pool.write { db in
                try db.execute(sql: "UPDATE invites SET used_at = NULL WHERE token_hash = ?", arguments: [hash])
            }
            throw error
        }
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
