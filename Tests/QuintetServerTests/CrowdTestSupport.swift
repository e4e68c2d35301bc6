import Crowd
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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

/// A router with the Crowd routes over the real embedded store (CrowdEngine over SQLite) in a
/// fresh data folder.
struct CrowdServer: @unchecked Sendable {
    let data: URL
    let backend: CrowdBackend
    let router: Router<BasicRequestContext>
    let clock = CrowdTestClock()

    init(minGroup: Int = 1, expiry: TimeInterval = 1800, rateLimit: Int = 0) throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-\(UUID().uuidString)")
        let database = try QuintetApplication.openDatabase(in: data)
        backend = try CrowdBackend.sqlite(dataDirectory: data, settings: CrowdSettings(minGroup: minGroup, expiry: expiry))
        let clock = self.clock
        let configuration = CrowdRoutes.Configuration(
            backend: backend, keys: try CrowdDeviceKeys(dataDirectory: data),
            limiter: CrowdRateLimiter(limit: rateLimit), clock: { clock.now })
        router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, crowd: configuration)
    }

    func remove() async {
        await backend.close()
        try? FileManager.default.removeItem(at: data)
    }

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
