// CrowdPostgres: the Crowd service over PostgreSQL + PostGIS (issue 7). See docs/crowd.md.
//
// The semantics live in PL/pgSQL functions (CrowdSchema.swift): each call here is one round trip
// (`SELECT * FROM crowd_report(...)`, `crowd_search`, `crowd_location`) in its own implicit
// transaction, so a report is answered once its change is committed (and flushed: the server's
// `synchronous_commit`). This side validates, binds, and decodes rows into the core's types.
import Crowd
import Foundation
import Logging
import PostgresNIO

/// What went wrong connecting to or talking with PostgreSQL, said plainly.
public struct PostgresCrowdError: Error, Sendable, CustomStringConvertible {
    /// The explanation.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where and how to connect, parsed from `postgres://user:password@host:port/database?options`.
///
/// Options (query parameters): `schema` (where the Crowd's tables live, default `public`;
/// created when missing), `pool` (connections, default 10), `sslmode` (`disable`, `allow` and
/// `prefer` connect without TLS; `require` and `verify-*` are refused: TLS is not built in yet).
public struct PostgresCrowdURL: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var schema: String
    public var pool: Int

    /// Parses `postgres://` or `postgresql://` URLs; errors say which part is wrong.
    public init(_ text: String) throws {
        guard let components = URLComponents(string: text) else {
            throw PostgresCrowdError("not a URL: expected postgres://user:password@host:port/database")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresCrowdError("the URL's scheme must be postgres:// or postgresql://, not \(components.scheme.map { "\($0)://" } ?? "none")")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresCrowdError("the URL names no host: expected postgres://user:password@host:port/database")
        }
        guard let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw PostgresCrowdError("the URL names no user: expected postgres://user:password@host:port/database")
        }
        let database = String(components.percentEncodedPath.drop(while: { $0 == "/" })).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresCrowdError("the URL names no database (or more than one path part): expected postgres://user:password@host:port/database")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw PostgresCrowdError("the URL's port \(port) is out of range") }
        self.user = user
        self.password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        self.database = database
        self.schema = "public"
        self.pool = 10
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "schema":
                guard Self.isPlainIdentifier(value) else {
                    throw PostgresCrowdError("schema '\(value)' must be a plain identifier: a-z, 0-9 and _, not starting with a digit, at most 63 characters")
                }
                schema = value
            case "pool":
                guard let n = Int(value), (1...100).contains(n) else {
                    throw PostgresCrowdError("pool must be a number of connections in 1...100, not '\(value)'")
                }
                pool = n
            case "sslmode":
                guard ["disable", "allow", "prefer"].contains(value) else {
                    throw PostgresCrowdError("sslmode=\(value) is not supported: this build connects without TLS (use sslmode=disable, or a local socket tunnel)")
                }
            case "connect_timeout", "application_name":
                break
            default:
                throw PostgresCrowdError("unknown URL option '\(item.name)' (known: schema, pool, sslmode)")
            }
        }
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 63 else { return false }
        guard first == "_" || ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
}

/// The Crowd service over PostgreSQL + PostGIS: the semantics as PL/pgSQL functions over
/// `geography(Point, 4326)` with a GiST index (pre-selection with `ST_DWithin`, decision with the
/// same haversine as ``CrowdRules/distance(lat1:lon1:lat2:lon2:)``). Several server processes
/// may share one database: reports that could meet are serialized with advisory locks
/// (docs/crowd.md, "PostgreSQL + PostGIS backend"). Devices are stored by their ``DeviceKey`` only, with no position.
public final class PostgresCrowd: CrowdService {
    /// The settings answers depend on (minimum group, expiry).
    public let settings: CrowdSettings
    /// The schema the Crowd's objects live in.
    public let schema: String
    private let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let logger: Logger
    /// `"schema".` as the queries name it.
    private let prefix: String

    private init(settings: CrowdSettings, schema: String, client: PostgresClient, runTask: Task<Void, Never>, logger: Logger) {
        self.settings = settings
        self.schema = schema
        self.client = client
        self.runTask = runTask
        self.logger = logger
        self.prefix = "\"\(schema)\"."
    }

    /// Connects, installs or migrates the schema (idempotent, safe when several processes start
    /// at once), and starts the connection pool. The URL is `postgres://user:password@host:port/db`
    /// (or `postgresql://`), options in ``PostgresCrowdURL``. The database needs the `postgis`
    /// extension (created here when the user may; otherwise the error says what to run).
    public static func connect(url: String, settings: CrowdSettings, logger: Logger) async throws -> PostgresCrowd {
        let target = try PostgresCrowdURL(url)
        guard settings.minGroup >= 1 else { throw PostgresCrowdError("minGroup must be at least 1") }
        guard settings.expiry.isFinite, settings.expiry >= 0 else { throw PostgresCrowdError("expiry must be a finite number of seconds ≥ 0") }

        // One plain connection first: a wrong password or host fails here at once, with the
        // server's words, instead of a pool retrying in the background.
        var connectionConfig = PostgresConnection.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password,
            database: target.database, tls: .disable)
        connectionConfig.options.connectTimeout = .seconds(10)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: connectionConfig, id: 0, logger: logger)
        } catch {
            throw PostgresCrowdError("cannot connect to PostgreSQL at \(target.host):\(target.port) as \(target.user), database \(target.database): \(Self.explain(error))")
        }
        do {
            try await migrate(connection, schema: target.schema, logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }

        var config = PostgresClient.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password,
            database: target.database, tls: .disable)
        config.options.maximumConnections = target.pool
        config.options.minimumConnections = 0
        let client = PostgresClient(configuration: config, backgroundLogger: logger)
        let runTask = Task { await client.run() }
        return PostgresCrowd(settings: settings, schema: target.schema, client: client, runTask: runTask, logger: logger)
    }

    /// Closes the pool (waits for its connections to end). Calls after this fail.
    public func close() async {
        runTask.cancel()
        await runTask.value
    }

    // MARK: schema

    /// The key of a schema's global advisory lock (shared by reports, exclusive for the expiry
    /// sweep): a constant high bit plus a hash of the schema's name, so schemas do not block
    /// each other.
    static func globalLockKey(schema: String) -> Int64 {
        var hash: UInt32 = 2_166_136_261
        for byte in schema.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return (Int64(1) << 59) + Int64(hash)
    }

    static func migrate(_ connection: PostgresConnection, schema: String, logger: Logger) async throws {
        let quoted = "\"\(schema)\""
        func run(_ sql: String) async throws {
            do {
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            } catch {
                throw PostgresCrowdError("setting up the Crowd schema \(schema) failed: \(explain(error)) in: \(sql.prefix(120))…")
            }
        }
        try await run("BEGIN")
        do {
            // One migration at a time across processes (a constant key: migrations are rare).
            try await run("SELECT pg_advisory_xact_lock(576460752303423487)")
            var postgis = try await postgisSchema(connection, logger: logger)
            if postgis == nil {
                do {
                    try await connection.query("CREATE EXTENSION IF NOT EXISTS postgis", logger: logger)
                } catch {
                    throw PostgresCrowdError("the database has no PostGIS and this user cannot add it (\(explain(error))): as a superuser, run CREATE EXTENSION postgis; in it (Debian: apt-get install postgresql-15-postgis-3)")
                }
                postgis = try await postgisSchema(connection, logger: logger)
            }
            guard let postgis else { throw PostgresCrowdError("PostGIS is not installed in the database") }
            try await run("CREATE SCHEMA IF NOT EXISTS \(quoted)")
            try await run("CREATE TABLE IF NOT EXISTS \(quoted).crowd_schema (version integer NOT NULL)")
            var stored: Int?
            for try await (version) in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT max(version) FROM \(quoted).crowd_schema"), logger: logger
            ).decode(Int?.self) {
                stored = version
            }
            if stored != CrowdSchema.version {
                let substitute = { (sql: String) in
                    sql.replacingOccurrences(of: "@GLOBAL", with: "\(globalLockKey(schema: schema))")
                        .replacingOccurrences(of: "@S", with: quoted)
                        .replacingOccurrences(of: "@G", with: "\"\(postgis)\"")
                }
                for sql in CrowdSchema.tables + CrowdSchema.functions { try await run(substitute(sql)) }
                try await run("DELETE FROM \(quoted).crowd_schema")
                try await run("INSERT INTO \(quoted).crowd_schema (version) VALUES (\(CrowdSchema.version))")
                logger.info("crowd: PostgreSQL schema \(schema) at version \(CrowdSchema.version)")
            }
            try await run("COMMIT")
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    private static func postgisSchema(_ connection: PostgresConnection, logger: Logger) async throws -> String? {
        var schema: String?
        let rows = try await connection.query(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'postgis'",
            logger: logger)
        for try await name in rows.decode(String.self) { schema = name }
        return schema
    }

    /// The server's message for a PostgreSQL error (postgres-nio hides it from `description`).
    static func explain(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + state
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        if let error = error as? PostgresCrowdError { return error.message }
        return String(describing: error)
    }

    private func wrap<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CrowdValidationError {
            throw error
        } catch let error as PostgresCrowdError {
            throw error
        } catch {
            throw PostgresCrowdError("PostgreSQL: \(Self.explain(error))")
        }
    }

    // MARK: CrowdService

    private static func location(id: Int64, lat: Double, lon: Double, people: Int64, ageSum: Int64, ageCount: Int64,
                                 men: Int64, women: Int64, distance: Double) -> CrowdLocation {
        CrowdLocation(id: id, lat: lat, lon: lon, people: Int(people),
                      averageAge: ageCount > 0 ? Double(ageSum) / Double(ageCount) : nil,
                      men: Int(men), women: Int(women), distance: distance)
    }

    /// Applies a report and answers its search (one function call, committed before it answers).
    public func report(_ report: CrowdReport, now: Date) async throws -> CrowdReportResult {
        try CrowdRules.validate(report)
        guard !report.device.bytes.isEmpty else { throw CrowdValidationError(field: "device", reason: "must not be empty") }
        let key = Data(report.device.bytes)
        let sex: String? = report.sex?.rawValue
        let age: Int? = report.age
        let comment: String? = report.comment
        let k = Int64(settings.minGroup)
        let query: PostgresQuery = try """
            SELECT * FROM \(unescaped: prefix)crowd_report(\(key), \(report.lat), \(report.lon), \(age), \(sex), \
            \(comment), \(now.timeIntervalSinceReferenceDate), \(settings.expiry), \(k), \(report.radius), \
            \(report.min), \(report.max), \(report.limit))
            """
        return try await wrap {
            var own: CrowdOwnLocation?
            var found: [CrowdLocation] = []
            var truncated = false
            let rows = try await client.query(query, logger: logger)
            for try await (kind, id, lat, lon, people, ageSum, ageCount, men, women, distance, cut) in rows.decode(
                (Int32, Int64, Double, Double, Int64, Int64, Int64, Int64, Int64, Double, Bool).self) {
                if kind == 0 {
                    own = CrowdOwnLocation(id: id, lat: lat, lon: lon, people: people >= k ? Int(people) : nil)
                } else {
                    found.append(Self.location(id: id, lat: lat, lon: lon, people: people, ageSum: ageSum,
                                               ageCount: ageCount, men: men, women: women, distance: distance))
                    truncated = truncated || cut
                }
            }
            guard let own else { throw PostgresCrowdError("crowd_report answered without the device's location") }
            return CrowdReportResult(location: own, search: CrowdSearchResult(locations: found, truncated: truncated))
        }
    }

    /// A search (expires devices whose time is up, changes nothing else).
    public func search(_ search: CrowdSearch, now: Date) async throws -> CrowdSearchResult {
        try CrowdRules.validate(search)
        let query: PostgresQuery = """
            SELECT * FROM \(unescaped: prefix)crowd_search(\(search.lat), \(search.lon), \
            \(now.timeIntervalSinceReferenceDate), \(settings.expiry), \(Int64(settings.minGroup)), \
            \(search.radius), \(search.min), \(search.max), \(search.limit))
            """
        return try await wrap {
            var found: [CrowdLocation] = []
            var truncated = false
            let rows = try await client.query(query, logger: logger)
            for try await (id, lat, lon, people, ageSum, ageCount, men, women, distance, cut) in rows.decode(
                (Int64, Double, Double, Int64, Int64, Int64, Int64, Int64, Double, Bool).self) {
                found.append(Self.location(id: id, lat: lat, lon: lon, people: people, ageSum: ageSum,
                                           ageCount: ageCount, men: men, women: women, distance: distance))
                truncated = truncated || cut
            }
            return CrowdSearchResult(locations: found, truncated: truncated)
        }
    }

    /// One location with its latest comments, or nil (none, or below the minimum group).
    public func location(id: Int64, now: Date) async throws -> CrowdLocationDetail? {
        let query: PostgresQuery = """
            SELECT * FROM \(unescaped: prefix)crowd_location(\(id), \(now.timeIntervalSinceReferenceDate), \
            \(settings.expiry), \(Int64(settings.minGroup)))
            """
        return try await wrap {
            var detail: CrowdLocationDetail?
            let rows = try await client.query(query, logger: logger)
            for try await (id, lat, lon, people, ageSum, ageCount, men, women, text, time) in rows.decode(
                (Int64, Double, Double, Int64, Int64, Int64, Int64, Int64, String?, Double?).self) {
                if detail == nil {
                    detail = CrowdLocationDetail(
                        location: Self.location(id: id, lat: lat, lon: lon, people: people, ageSum: ageSum,
                                                ageCount: ageCount, men: men, women: women, distance: 0),
                        comments: [])
                }
                if let text, let time {
                    detail?.comments.append(CrowdComment(text: text, time: Date(timeIntervalSinceReferenceDate: time)))
                }
            }
            return detail
        }
    }
}
