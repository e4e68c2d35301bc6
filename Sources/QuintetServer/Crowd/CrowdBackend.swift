import Crowd
import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// How many devices, locations and comments a backend holds now (for `/metrics` and
/// `quintet crowd stats`).
public struct CrowdCounts: Sendable, Hashable, Codable {
    public var devices: Int
    public var locations: Int
    public var comments: Int

    public init(devices: Int, locations: Int, comments: Int) {
        self.devices = devices
        self.locations = locations
        self.comments = comments
    }
}

/// The Crowd service the server runs on, whichever it is: the embedded ``CrowdEngine``
/// (in-memory grid over `crowd.sqlite` in the data folder) or ``PostgresCrowd`` (PostGIS), chosen
/// by `--crowd-database`. It closes with the server.
///
/// ```swift
/// let crowd = try await CrowdBackend.open(url: nil, dataDirectory: data, settings: CrowdSettings(), logger: logger)
/// defer { Task { await crowd.close() } }
/// ```
public struct CrowdBackend: Sendable {
    /// The service the routes call.
    public let service: any CrowdService
    /// `sqlite` or `postgres`.
    public let kind: String
    private let countsOf: @Sendable () async throws -> CrowdCounts?
    private let closeIt: @Sendable () async -> Void

    /// A backend from its parts (`counts` may answer nil when the backend keeps none).
    public init(service: any CrowdService, kind: String,
                counts: @escaping @Sendable () async throws -> CrowdCounts?,
                close: @escaping @Sendable () async -> Void) {
        self.service = service
        self.kind = kind
        self.countsOf = counts
        self.closeIt = close
    }

    /// The file name of the embedded store in the data folder.
    public static let sqliteFileName = "crowd.sqlite"

    /// The embedded engine over `crowd.sqlite` in `dataDirectory` (created if missing).
    public static func sqlite(dataDirectory: URL, settings: CrowdSettings) throws -> CrowdBackend {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let engine = try CrowdEngine(databasePath: dataDirectory.appendingPathComponent(sqliteFileName).path, settings: settings)
        return CrowdBackend(service: engine, kind: "sqlite", counts: {
            let stats = engine.stats
            return CrowdCounts(devices: stats.devices, locations: stats.locations, comments: stats.comments)
        }, close: { _ = try? await Blocking.run { engine.close() } })   // flushes: blocking
    }

    /// Whether `url` names a PostgreSQL database (`postgres://` or `postgresql://`).
    public static func isPostgres(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Checks a `--crowd-database` value without connecting: nil (SQLite) or a PostgreSQL URL.
    public static func validate(url: String?) throws {
        guard let url else { return }
        guard isPostgres(url), URL(string: url)?.host != nil else {
            throw CrowdBackendError(message: "--crowd-database must be a PostgreSQL URL like postgres://user:password@host:5432/quintet (leave it out for the embedded SQLite store), not '\(url.prefix(80))'")
        }
    }

    /// Opens the backend `url` names: nil → the embedded SQLite store in `dataDirectory`;
    /// `postgres://…` or `postgresql://…` → PostGIS; anything else throws.
    public static func open(url: String?, dataDirectory: URL, settings: CrowdSettings, logger: Logger) async throws -> CrowdBackend {
        try validate(url: url)
        guard let url else { return try sqlite(dataDirectory: dataDirectory, settings: settings) }
        return try await postgres(url: url, settings: settings, logger: logger)
    }

    /// Devices, locations and comments now; nil when the backend does not keep the figures.
    public func counts() async throws -> CrowdCounts? { try await countsOf() }

    /// Closes the backend (the engine flushes and closes its database).
    public func close() async { await closeIt() }
}

/// `--crowd-database` names no backend Quintet has.
public struct CrowdBackendError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Keeps the Crowd backend open while the server runs, refreshes the device/location/comment
/// gauges every few seconds, and closes the backend on shutdown (after the HTTP server has
/// drained, since services stop in reverse order).
struct CrowdLifecycleService: Service {
    let backend: CrowdBackend
    let logger: Logger
    var refresh: Duration = .seconds(5)

    func run() async throws {
        let devices = Gauge(label: "quintet_crowd_devices")
        let locations = Gauge(label: "quintet_crowd_locations")
        let comments = Gauge(label: "quintet_crowd_comments")
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let counts = try? await backend.counts() {
                    devices.record(counts.devices)
                    locations.record(counts.locations)
                    comments.record(counts.comments)
                }
                try? await Task.sleep(for: refresh)
            }
        }
        await backend.close()
        logger.info("crowd store closed (\(backend.kind))")
    }
}
