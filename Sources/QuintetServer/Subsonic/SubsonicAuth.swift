import Crypto
import Foundation
import QuintetStore

/// Subsonic authentication (API 1.16.1 "Authentication"): every call carries `u` and either
/// `p` (the password, plain or `enc:` + hex of its UTF-8 bytes) or `t` + `s` (the token
/// `md5(password + salt)` in lowercase hex, and the salt). OpenSubsonic's `apiKey` is not
/// supported (error 42).
struct SubsonicAuth: Sendable {
    let authenticator: Authenticator

    func user(_ params: SubsonicParameters) async throws -> User {
        if params["apiKey"] != nil {
            if params["u"] != nil { throw SubsonicError(.conflictingAuthMechanisms, "send either apiKey or u with p or t+s, not both") }
            throw SubsonicError(.authMechanismNotSupported, "API keys are not supported: sign in with u and t+s (or p)")
        }
        let name = try params.required("u")
        if let token = params["t"], !token.isEmpty {
            let salt = try params.required("s")
            if params["p"] != nil { throw SubsonicError(.conflictingAuthMechanisms, "send either p or t+s, not both") }
            return try await tokenUser(name: name, token: token, salt: salt)
        }
        guard let given = params["p"], !given.isEmpty else {
            throw SubsonicError.missing(params["s"] != nil ? "t" : "p (or t and s)")
        }
        guard let password = Self.password(given) else {
            throw SubsonicError(.wrongCredentials, "wrong username or password")
        }
        guard let user = try await authenticator.user(name: name, password: password) else {
            throw SubsonicError(.wrongCredentials, "wrong username or password")
        }
        return user
    }

    /// The password of a `p` parameter: `enc:` + hex is decoded; nil when the hex is not UTF-8.
    static func password(_ given: String) -> String? {
        guard given.hasPrefix("enc:") else { return given }
        let hex = Array(given.dropFirst(4).utf8)
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = 0
        while index < hex.count {
            guard let high = hex[index].hexDigitValue, let low = hex[index + 1].hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// Checks `t == md5(password + s)` against the sealed password; compares in constant time.
    /// Every failure is error 40, whatever its reason (no such user, no sealed password, a
    /// wrong token), so a caller learns nothing about which names exist.
    private func tokenUser(name: String, token: String, salt: String) async throws -> User {
        let wrong = SubsonicError(.wrongCredentials, "wrong username or password")
        guard salt.utf8.count <= 256, token.utf8.count <= 64 else { throw wrong }
        let users = authenticator.users
        guard let (user, password) = try await Blocking.run({ try users.userWithPassword(name: name) }) else { throw wrong }
        let expected = Array(Self.md5Hex(password + salt).utf8)
        let given = Array(token.lowercased().utf8)
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for (a, b) in zip(expected, given) { difference |= a ^ b }
        guard difference == 0 else { throw wrong }
        return user
    }

    static func md5Hex(_ text: String) -> String {
        Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
