import Crowd
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import QuintetServer
import Testing

/// A clock the tests move by hand.
final class CrowdTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// The two real stores the route tests run on.
enum CrowdStoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// CrowdEngine over `crowd.sqlite` in a fresh data folder.
    case sqlite
    /// PostgresCrowd on a fresh schema of the test PostgreSQL + PostGIS.
    case postgres

    var description: String { rawValue }
}

/// The real PostgreSQL + PostGIS of the tests: `QUINTET_TEST_POSTGRES_URL`, or the one
/// `scripts/postgres-test.sh ensure` installs, starts and prints. Never skipped: without it the
/// PostGIS cases fail, saying why.
enum CrowdTestPostgres {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres-test.sh")

    static let url: Result<String, CrowdBackendError> = {
        if let url = ProcessInfo.processInfo.environment["QUINTET_TEST_POSTGRES_URL"], !url.isEmpty { return .success(url) }
        let (status, text) = run("/bin/bash", [script.path, "ensure"])
        guard status == 0, text.hasPrefix("postgres") else {
            return .failure(CrowdBackendError(message: "\(script.path) ensure failed (status \(status)): \(text)"))
        }
        return .success(text)
    }()

    static func run(_ executable: String, _ arguments: [String]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Drops a test schema (best effort, through psql).
    static func drop(schema: String) {
        guard case .success(let url) = url else { return }
        _ = run("/usr/bin/env", ["psql", url, "-q", "-c", "DROP SCHEMA IF EXISTS \(schema) CASCADE"])
    }
}

/// A router with the Crowd routes over a real store (SQLite through CrowdEngine, or PostGIS
/// through PostgresCrowd) in a fresh data folder, with a clock the test moves.
struct CrowdServer: @unchecked Sendable {
    let data: URL
    let backend: CrowdBackend
    let router: Router<QuintetRequestContext>
    let clock: CrowdTestClock
    let schema: String?

    static func make(_ kind: CrowdStoreKind = .sqlite, minGroup: Int = 1, expiry: TimeInterval = 1800,
                     rateLimit: Int = 0, page: CrowdPage = CrowdPage(), places: CrowdPlaceNames? = nil) async throws -> CrowdServer {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-\(UUID().uuidString)")
        let settings = CrowdSettings(minGroup: minGroup, expiry: expiry)
        switch kind {
        case .sqlite:
            return try CrowdServer(data: data, backend: CrowdBackend.sqlite(dataDirectory: data, settings: settings),
                                   rateLimit: rateLimit, schema: nil, page: page, places: places)
        case .postgres:
            let base = try CrowdTestPostgres.url.get()
            let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let url = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)&pool=2"
            let backend = try await CrowdBackend.open(url: url, dataDirectory: data, settings: settings,
                                                      logger: Logger(label: "crowd-route-tests"))
            return try CrowdServer(data: data, backend: backend, rateLimit: rateLimit, schema: schema, page: page, places: places)
        }
    }

    private init(data: URL, backend: CrowdBackend, rateLimit: Int, schema: String?, page: CrowdPage, places: CrowdPlaceNames?) throws {
        self.data = data
        self.backend = backend
        self.schema = schema
        let clock = CrowdTestClock()
        self.clock = clock
        let database = try QuintetApplication.openDatabase(in: data)
        let configuration = CrowdRoutes.Configuration(
            backend: backend, keys: try CrowdDeviceKeys(dataDirectory: data),
            limiter: CrowdRateLimiter(limit: rateLimit), clock: { clock.now }, page: page, places: places)
        router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, crowd: configuration)
    }

    func remove() async {
        await backend.close()
        if let schema { CrowdTestPostgres.drop(schema: schema) }
        try? FileManager.default.removeItem(at: data)
    }

    /// Devices, locations and comments (SQLite); for PostGIS, which keeps no counts, a
    /// fingerprint of a wide search stands in.
    func counts() async throws -> CrowdCounts { try #require(try await backend.counts()) }
}

/// Requests and answers of the Crowd API in tests.
enum CrowdHTTP {
    static func body(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// Posts a report; returns the response.
    @discardableResult
    static func report(_ client: some TestClientProtocol, _ object: [String: Any],
                       headers: HTTPFields = [.contentType: "application/json"]) async throws -> TestResponse {
        try await client.execute(uri: "/api/crowd/reports", method: .post, headers: headers, body: try body(object))
    }

    static func raw(_ client: some TestClientProtocol, _ text: String) async throws -> TestResponse {
        try await client.execute(uri: "/api/crowd/reports", method: .post, headers: [.contentType: "application/json"],
                                 body: ByteBuffer(string: text))
    }

    /// The error object of a 4xx answer.
    static func error(_ response: TestResponse) throws -> [String: Any] {
        try #require(try json(response)["error"] as? [String: Any])
    }

    /// A point `north` and `east` metres from (lat, lon) (small offsets on the sphere).
    static func offset(_ lat: Double, _ lon: Double, north: Double, east: Double) -> (Double, Double) {
        let dLat = north / CrowdRules.earthRadius * 180 / .pi
        let dLon = east / (CrowdRules.earthRadius * cos(lat * .pi / 180)) * 180 / .pi
        return (lat + dLat, lon + dLon)
    }
}
