import Crowd
@testable import CrowdPostgres
import Foundation
import Logging
import PostgresNIO
import Testing

/// The real PostgreSQL + PostGIS the tests run against: `QUINTET_TEST_POSTGRES_URL`, or the one
/// `scripts/postgres-test.sh ensure` installs, starts and prints. Never skipped: without a
/// server the tests fail, saying why.
enum TestDatabase {
    static let url: String = {
        if let url = ProcessInfo.processInfo.environment["QUINTET_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/postgres-test.sh")
        // popen, not Foundation's Process: its waitUntilExit was seen to hang here for good when
        // the script had just started the server (the exit went unnoticed).
        guard let pipe = popen("/bin/bash '\(script.path)' ensure", "r") else {
            fatalError("cannot run \(script.path): \(String(cString: strerror(errno)))")
        }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, pipe)
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        let status = pclose(pipe)
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, text.hasPrefix("postgres") else {
            fatalError("\(script.path) ensure failed (status \(status)): \(text)")
        }
        return text
    }()

    static let logger = Logger(label: "crowd-postgres-tests")

    /// The test URL with a schema of its own (and a small pool: tests run side by side).
    static func url(schema: String, pool: Int = 3) -> String {
        let base = url
        let separator = base.contains("?") ? "&" : "?"
        return base + separator + "schema=\(schema)&pool=\(pool)"
    }

    static func newSchema() -> String {
        "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Runs `body` with a service on a fresh schema, then closes it and drops the schema.
    static func withCrowd<T>(
        minGroup: Int = 1, expiry: TimeInterval = 30 * 60,
        _ body: (PostgresCrowd, String) async throws -> T
    ) async throws -> T {
        let schema = newSchema()
        let crowd = try await PostgresCrowd.connect(
            url: url(schema: schema), settings: CrowdSettings(minGroup: minGroup, expiry: expiry), logger: logger)
        do {
            let result = try await body(crowd, schema)
            await crowd.close()
            try await drop(schema)
            return result
        } catch {
            await crowd.close()
            try? await drop(schema)
            throw error
        }
    }

    /// Runs `body` with a fresh schema name; the schema is dropped afterwards, also on failure.
    static func withSchema<T>(_ body: (String) async throws -> T) async throws -> T {
        let schema = newSchema()
        do {
            let result = try await body(schema)
            try await drop(schema)
            return result
        } catch {
            try? await drop(schema)
            throw error
        }
    }

    /// One plain connection to the test database, for checks the service does not offer.
    static func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let target = try PostgresCrowdURL(url)
        let config = PostgresConnection.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password,
            database: target.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: config, id: 1, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static func drop(_ schema: String) async throws {
        _ = try await withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"), logger: logger)
        }
    }

    /// Counts rows of one of the schema's tables.
    static func count(_ table: String, schema: String) async throws -> Int {
        try await withConnection { connection in
            var n = 0
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT count(*) FROM \"\(schema)\".\(table)"), logger: logger)
            for try await value in rows.decode(Int.self) { n = value }
            return n
        }
    }
}

/// Geometry for the tests: positions at known haversine distances.
enum Geo {
    static let origin = (lat: 48.8566, lon: 2.3522)
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Degrees of latitude for `metres` along a meridian (distance = R·Δφ).
    static func degrees(metres: Double) -> Double { metres / CrowdRules.earthRadius * 180 / .pi }

    /// Two adjacent latitudes north of (lat, lon) on its meridian: at `inside` the haversine
    /// distance is ≤ `metres`, at `outside` (the next double) it is > `metres`.
    static func boundary(lat: Double, lon: Double, metres: Double) -> (inside: Double, outside: Double) {
        var low = lat
        var high = lat + 2 * degrees(metres: metres)
        while true {
            let mid = low + (high - low) / 2
            if mid == low || mid == high { break }
            if CrowdRules.distance(lat1: lat, lon1: lon, lat2: mid, lon2: lon) <= metres { low = mid } else { high = mid }
        }
        return (low, high)
    }

    static func device(_ name: String) -> DeviceKey { DeviceKey(bytes: Array("device-\(name)".utf8)) }
}

extension PostgresCrowd {
    /// A report at a position with defaults for everything else.
    @discardableResult
    func report(_ name: String, _ lat: Double, _ lon: Double, at now: Date = Geo.start, age: Int? = nil,
                sex: CrowdSex? = nil, comment: String? = nil, radius: Int = 2000, min: Int = 1, max: Int = 100,
                limit: Int = 500) async throws -> CrowdReportResult {
        try await report(CrowdReport(device: Geo.device(name), lat: lat, lon: lon, age: age, sex: sex, comment: comment,
                                     radius: radius, min: min, max: max, limit: limit), now: now)
    }

    /// Everything within 2 km of the origin (min 1, max 100).
    func all(at now: Date = Geo.start) async throws -> [CrowdLocation] {
        try await search(CrowdSearch(lat: Geo.origin.lat, lon: Geo.origin.lon, radius: 2000, min: 1, max: 100, limit: 20_000),
                         now: now).locations
    }
}
