// swift-tools-version:6.2
// Quintet: five systems (library graph, runner, radio, crowd, playground) in one package.
// The module map follows docs/architecture.md (a copy of the shared ARCHITECTURE.md
// plus the decisions taken while building it).
import PackageDescription

// Every dependency below comes from the local package mirror; each says why it is here.
let dependencies: [Package.Dependency] = [
    // The `quintet` command line: subcommands, flags, environment-backed options, --help.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The HTTP server behind `quintet serve` (routing, middleware, graceful shutdown)
    // and HummingbirdTesting for in-process route tests.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    // WebSocket upgrades on the same server: `/api/runner/live` (cadence and songs as the
    // samples arrive), later the radio's live listening and chat. Only the server-side
    // product is used (its client product would add a second TLS library).
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    // HTTP field names beyond the standard ones (X-Requested-With now, icy-* for the radio);
    // already in the graph through Hummingbird.
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    // Bcrypt password hashing for the shared `users` table (a small C target; the
    // package's other products are not built).
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    // Subsonic token auth (md5(password + salt)) needs each password back: it is kept sealed
    // with AES-GCM under a per-data-folder key, beside the bcrypt hash; MD5 and SHA-256 too.
    // Already in the graph through Hummingbird.
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    // SQLite: the one embedded database of the data folder, with migrations.
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // Metrics API (already pulled in by Hummingbird's MetricsMiddleware) and its
    // Prometheus text exposition for `/metrics`.
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // Services with graceful shutdown (Hummingbird runs on it; the database closes as one).
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // SwiftNIO (already in the graph through Hummingbird): the radio's own handlers on the
    // shared port, for Icecast sources (a body with no length) and long-lived listeners.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    // HTTPS on the server's port (`serve --tls-cert/--tls-key`): BoringSSL through SwiftNIO, the
    // TLS that Hummingbird and postgres-nio already use (in the graph through postgres-nio).
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // `serve --tls-self-signed`: a private CA and server certificates made in the data folder,
    // and the checks of a given certificate and key (expiry, key matching); DER through
    // swift-asn1, which it brings.
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    // Structured logging shared by the server and the CLI (Hummingbird uses it too).
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // PostgreSQL client on SwiftNIO: the Crowd's PostGIS backend (module CrowdPostgres) for
    // deployments that outgrow one machine, and the side-by-side PostGIS figures.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
]

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")

let package = Package(
    name: "quintet",
    // macOS 15 / iOS 18: the standard library's Synchronization (Mutex, Atomic), the one kind of
    // lock the package uses (docs/architecture.md, "Concurrency").
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "quintet", targets: ["quintet"]),
        // The portable cores as libraries: for other apps (an iOS client) and for Fuzz/.
        .library(name: "AudioCore", targets: ["AudioCore"]),
        .library(name: "MediaTags", targets: ["MediaTags"]),
        .library(name: "Tempo", targets: ["Tempo"]),
        .library(name: "Cadence", targets: ["Cadence"]),
        // For Fuzz/ only: the radio's frame scanner, and the server's parsers of request bytes.
        .library(name: "Radio", targets: ["Radio"]),
        .library(name: "QuintetServer", targets: ["QuintetServer"]),
    ],
    dependencies: dependencies,
    targets: [
        // MARK: foundations
        // The one lock: `Synchronization.Mutex`, which ThreadSanitizer can see in `make sanitize`
        // builds (Sources/Locking/Lock.swift says how).
        .target(name: "Locking", swiftSettings: swiftSettings),
        .target(name: "AudioCore", dependencies: ["Locking"], swiftSettings: swiftSettings),
        .target(name: "MediaTags", swiftSettings: swiftSettings),
        // The toolbox of text on the wire (Foundation only): JSON string and XML escaping, the
        // HTTP Range rule, RFC 822/HTTP dates. One copy each, options for the contracts that
        // differ (docs/architecture.md, "Toolbox").
        .target(name: "WireFormats", swiftSettings: swiftSettings),
        .target(
            name: "QuintetStore",
            dependencies: [
                "Locking", grdb, .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: app cores (Foundation and small pure-Swift packages only)
        .target(name: "Tempo", dependencies: ["AudioCore"], swiftSettings: swiftSettings),
        .target(
            name: "LibraryCore",
            // GRDBSQLite (SQLite's C API, part of GRDB): the scanner binds song rows straight
            // to prepared statements, which halved the single writer's CPU time.
            dependencies: ["Locking", "QuintetStore", "MediaTags", "AudioCore", "Tempo", grdb,
                           .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .target(name: "MusicGraph", dependencies: ["LibraryCore"], swiftSettings: swiftSettings),
        .target(name: "Cadence", dependencies: ["AudioCore"], swiftSettings: swiftSettings),
        // Crypto: Insecure.SHA1 for podcast GUIDs (CryptoKit on Apple platforms).
        .target(
            name: "Radio",
            dependencies: ["QuintetStore", "AudioCore", "MediaTags", "WireFormats", grdb,
                           .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // The Crowd core: the semantics over an in-memory grid index, stored in SQLite (GRDB).
        .target(name: "Crowd", dependencies: ["Locking", grdb], swiftSettings: swiftSettings),
        // The same service over PostgreSQL + PostGIS (one PL/pgSQL function per call), in its
        // own module so the core stays free of NIO.
        .target(
            name: "CrowdPostgres",
            dependencies: ["Crowd", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Physics2D has no unsafe flags (issue 25): a package that depends on it must be able
        // to use it, so its hot loops avoid run-time exclusivity checks in code (locals and
        // buffer pointers instead of class properties; docs/physics.md, "Speed").
        .target(name: "Physics2D", swiftSettings: swiftSettings),
        .target(name: "Stage", dependencies: ["Physics2D"], swiftSettings: swiftSettings),
        .target(name: "Playground", dependencies: ["Stage", "Physics2D"], swiftSettings: swiftSettings),

        // MARK: server and command line
        .target(
            name: "QuintetServer",
            dependencies: [
                "QuintetStore", "AudioCore", "Tempo", "Cadence", "LibraryCore", "MusicGraph", "MediaTags", "Radio",
                "Crowd", "CrowdPostgres", "WireFormats", "Locking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                // AuthRequestContext, AuthenticatorMiddleware (App/QuintetRequestContext.swift).
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SIGHUP re-reads the TLS certificate (TLS/TLSReloadService.swift).
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // NIOThreadPool: the one pool for blocking work (App/Blocking.swift).
                .product(name: "NIOPosix", package: "swift-nio"),
                // The one outgoing request, the crowd's reverse geocoder (App/HTTPGet.swift): HTTP/1.1
                // client handlers, in the graph through Hummingbird.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // TLS/*: HTTPS, the private CA.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "quintet",
            dependencies: [
                "QuintetServer", "QuintetStore", "AudioCore", "Tempo", "Cadence", "MediaTags", "LibraryCore", "MusicGraph",
                "Physics2D", "Playground", "Radio", "Crowd", "WireFormats", "Locking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: tests (Swift Testing; fixtures generated in code)
        .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore"], swiftSettings: swiftSettings),
        .testTarget(name: "WireFormatsTests", dependencies: ["WireFormats"], swiftSettings: swiftSettings),
        .testTarget(name: "LibraryCoreTests", dependencies: ["LibraryCore", "QuintetStore", "AudioCore"], swiftSettings: swiftSettings),
        .testTarget(name: "MusicGraphTests", dependencies: ["MusicGraph", "LibraryCore", "QuintetStore", grdb], swiftSettings: swiftSettings),
        .testTarget(name: "MediaTagsTests", dependencies: ["MediaTags", "AudioCore"], swiftSettings: swiftSettings),
        .testTarget(name: "TempoTests", dependencies: ["Tempo", "AudioCore"], swiftSettings: swiftSettings),
        .testTarget(name: "CadenceTests", dependencies: ["Cadence", "AudioCore"], swiftSettings: swiftSettings),
        .testTarget(name: "Physics2DTests", dependencies: ["Physics2D"], swiftSettings: swiftSettings),
        .testTarget(name: "StageTests", dependencies: ["Stage", "Physics2D"], swiftSettings: swiftSettings),
        .testTarget(name: "PlaygroundTests", dependencies: ["Playground", "Stage", "Physics2D"], swiftSettings: swiftSettings),
        .testTarget(name: "RadioTests", dependencies: ["Radio", "QuintetStore", "AudioCore", "MediaTags", "WireFormats", grdb], swiftSettings: swiftSettings),
        .testTarget(name: "CrowdTests", dependencies: ["Crowd", grdb], swiftSettings: swiftSettings),
        .testTarget(
            name: "CrowdPostgresTests",
            dependencies: ["CrowdPostgres", "Crowd", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // The CLI's own code (the crowd simulation), through `@testable import quintet`.
        .testTarget(name: "QuintetCLITests", dependencies: ["quintet", "Crowd"], swiftSettings: swiftSettings),
        .testTarget(name: "QuintetStoreTests", dependencies: ["QuintetStore", grdb], swiftSettings: swiftSettings),
        .testTarget(
            name: "QuintetServerTests",
            dependencies: [
                "QuintetServer", "QuintetStore", "LibraryCore", "MusicGraph", "AudioCore", "Cadence", "Radio", "Crowd",
                "MediaTags", "WireFormats", "Locking", grdb,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
