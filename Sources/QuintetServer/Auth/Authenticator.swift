import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import QuintetStore
import Locking

/// Who is asking: the users of the shared table, by HTTP Basic auth or by the web page's
/// session cookie (`quintet_session`).
///
/// bcrypt costs ~0.2 s per check on purpose, which a music player streaming song after song
/// cannot pay on every request: a successful name + password pair is remembered for five
/// minutes under its SHA-256 (never in clear), and a wrong one is never remembered.
public final class Authenticator: Sendable {
    public static let cookieName = "quintet_session"
    public let users: UserStore
    public let sessions: SessionStore
    private let cache = CredentialCache()

    public init(database: QuintetDatabase, bcryptCost: UInt8 = 12) {
        users = UserStore(database: database, cost: bcryptCost)
        sessions = SessionStore(database: database)
    }

    /// The user of these credentials, or nil.
    public func user(name: String, password: String) async throws -> User? {
        let key = Self.cacheKey(name: name, password: password)
        if let user = cache.get(key) { return user }
        let users = self.users
        let user = try await Blocking.run { try users.authenticate(name: name, password: password) }
        if let user { cache.put(key, user) }
        return user
    }

    /// The user of a request (Basic auth first, then the session cookie), or nil. Routes read
    /// `context.identity` instead (``BasicUserAuthenticator``, ``SessionCookieAuthenticator``);
    /// this is for the WebSocket handshake, which has its own context.
    public func user(of request: Request) async throws -> User? {
        if let header = request.headers[.authorization], let (name, password) = Self.basicCredentials(header) {
            return try await user(name: name, password: password)
        }
        if let token = request.cookies[Self.cookieName]?.value, !token.isEmpty {
            let sessions = self.sessions
            return try await Blocking.run { try sessions.user(token: token) }
        }
        return nil
    }

    static let signInHint = "sign in: HTTP Basic auth with a Quintet user, or POST /api/session"

    /// The 401 that tells Basic-auth clients how to sign in (the web page, which sends
    /// `X-Requested-With: quintet`, gets no browser password prompt).
    static func unauthorized(_ request: Request) -> APIError {
        var error = APIError(.unauthorized, code: "unauthorized", message: signInHint)
        if request.headers[HTTPField.Name("X-Requested-With")!] != "quintet" {
            error.headers = [.wwwAuthenticate: "Basic realm=\"Quintet\", charset=\"UTF-8\""]
        }
        return error
    }

    /// Whether the request carries Basic credentials (which then decide alone).
    static func hasBasicCredentials(_ request: Request) -> Bool {
        request.headers[.authorization].flatMap(basicCredentials) != nil
    }

    /// Forgets cached credentials (after a password change or a user's removal).
    public func forgetCachedCredentials() { cache.clear() }

    static func basicCredentials(_ header: String) -> (String, String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    static func cacheKey(name: String, password: String) -> String {
        SHA256.hash(data: Data((name.lowercased() + "\u{0}" + password).utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// Successful credential checks for five minutes, keyed by a hash, at most 1,000 entries.
private final class CredentialCache: Sendable {
    private let entries = Lock([String: (user: User, until: Date)]())

    func get(_ key: String) -> User? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.until > Date() else { entries[key] = nil; return nil }
            return entry.user
        }
    }

    func put(_ key: String, _ user: User) {
        entries.withLock { entries in
            if entries.count >= 1_000 { entries.removeAll() }
            entries[key] = (user, Date().addingTimeInterval(300))
        }
    }

    func clear() { entries.withLock { $0.removeAll() } }
}
