import Foundation
import LibraryCore

/// A failed Subsonic call, answered as `<error code="…" message="…"/>` with HTTP 200 (the
/// protocol's convention: clients read the status from the body). Codes follow Subsonic API
/// 1.16.1 and the OpenSubsonic additions (42–44).
struct SubsonicError: Error, Sendable, Equatable {
    enum Code: Int, Sendable {
        case generic = 0
        case missingParameter = 10
        case clientTooOld = 20
        case serverTooOld = 30
        case wrongCredentials = 40
        case tokenAuthNotSupported = 41
        case authMechanismNotSupported = 42
        case conflictingAuthMechanisms = 43
        case invalidAPIKey = 44
        case notAuthorized = 50
        case trialExpired = 60
        case notFound = 70
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func missing(_ name: String) -> SubsonicError {
        SubsonicError(.missingParameter, "required parameter is missing: \(name)")
    }

    static func invalid(_ name: String, _ value: String, expected: String) -> SubsonicError {
        SubsonicError(.generic, "parameter \(name) must be \(expected), not '\(value.prefix(40))'")
    }

    /// Catalog errors as Subsonic errors: not found → 70, forbidden → 50, the rest → 0.
    static func from(_ error: CatalogError) -> SubsonicError {
        switch error {
        case .notFound(let m): SubsonicError(.notFound, m)
        case .forbidden(let m): SubsonicError(.notAuthorized, m)
        case .invalid(let m): SubsonicError(.generic, m)
        case .scanInProgress: SubsonicError(.generic, error.description)
        }
    }

    /// The `<error>` element.
    var element: SubsonicElement {
        var e = SubsonicElement()
        e.set("code", code.rawValue)
        e.set("message", message)
        return e
    }
}
