import AudioCore
import Crowd
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import LibraryCore
import NIOConcurrencyHelpers
import Logging
import QuintetStore
import Radio
import ServiceLifecycle

/// Assembles the Quintet server: database, middleware, every system's routes and the web pages.
///
/// ```swift
/// let app = try await QuintetApplication.make(configuration: config)
/// try await app.runService()   // until SIGINT/SIGTERM
/// ```
public enum QuintetApplication {
    /// Every system's migrations, in dependency order. Cores add theirs here as they land.
    public static func migrations() -> MigrationRegistry {
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        CatalogSchema.registerMigrations(in: &registry)
        RadioSchema.registerMigrations(in: &registry)
        return registry
    }

    /// On a first start (no users at all) creates `admin` with `password`, or with a random
    /// one that is returned so it can be shown once. Nil when users exist.
    public static func createFirstAdmin(users: UserStore, password: String?) throws -> String? {
        guard try users.isEmpty() else { return nil }
        let chosen = password ?? String((0..<20).map { _ in "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".randomElement()! })
        try users.create(name: "admin", password: chosen, role: .admin)
        return password == nil ? chosen : nil
    }

    /// Opens the database of a data folder with every migration applied.
    public static func openDatabase(in directory: URL) throws -> QuintetDatabase {
        try QuintetDatabase.open(in: directory, migrations: migrations())
    }

    /// The router: middleware, API routes and static pages. `library` serves the music
    /// library (none: its routes answer 404); `auth` checks users (a default one if nil);
    /// `publicURL` is the base of absolute URLs in podcast feeds (else the request's Host);
    /// `secureCookies` marks the session cookie `Secure` (the server speaks HTTPS).
    public static func makeRouter(database: QuintetDatabase, webDirectory: URL,
                                  maxUploadBytes: Int = TempoRoutes.maxUploadBytes,
                                  library: LibraryService? = nil,
                                  auth: Authenticator? = nil,
                                  publicURL: String? = nil,
                                  crowd: CrowdRoutes.Configuration? = nil,
                                  secureCookies: Bool = false,
                                  registration: RegistrationMode = .invite) -> Router<QuintetRequestContext> {
        makeRouter(database: database, webDirectory: webDirectory, maxUploadBytes: maxUploadBytes, library: library,
                   auth: auth, publicURL: publicURL, crowd: crowd, secureCookies: secureCookies,
                   registration: registration, live: nil)
    }

    /// ``makeRouter(database:webDirectory:maxUploadBytes:library:auth:publicURL:crowd:secureCookies:registration:)``
    /// with the live radio, whose mounts Subsonic lists as internet radio stations.
    static func makeRouter(database: QuintetDatabase, webDirectory: URL, maxUploadBytes: Int,
                           library: LibraryService?, auth: Authenticator?, publicURL: String?,
                           crowd: CrowdRoutes.Configuration?, secureCookies: Bool,
                           registration: RegistrationMode, live: LiveRadio?) -> Router<QuintetRequestContext> {
        PrometheusMetrics.bootstrap()
        let router = Router(context: QuintetRequestContext.self)
        router.middlewares.add(RequestLogMiddleware(.info))
        router.middlewares.add(MetricsMiddleware())
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(MethodNotAllowedMiddleware())
        if let crowd, crowd.page.writesPage {
            // Before the files: the crowd page goes out with the tile and geocoder settings written in.
            router.middlewares.add(CrowdPageMiddleware(page: crowd.page, webDirectory: webDirectory))
        }
        router.middlewares.add(FileMiddleware(webDirectory.path, searchForIndexHtml: true))
        SystemRoutes.add(to: router, database: database)
        APIDocument.add(to: router)
        let uploads = database.directory.appendingPathComponent("uploads")
        let limiter = WorkLimiter() // one CPU-heavy job per core, shared by every route
        TempoRoutes.add(to: router, uploads: uploads, maxUploadBytes: maxUploadBytes, limiter: limiter)
        TagRoutes.add(to: router, uploads: uploads, maxUploadBytes: maxUploadBytes, limiter: limiter)
        RunnerRoutes.addCadence(to: router, maxUploadBytes: maxUploadBytes, limiter: limiter)
        let auth = auth ?? Authenticator(database: database)
        SessionRoutes.add(to: router, auth: auth, secureCookies: secureCookies)
        RadioRoutes.add(to: router, radio: RadioStore(database: database, decoder: AudioFileDecoder()), auth: auth, publicURL: publicURL)
        AccountRoutes.add(to: router, auth: auth, registration: registration, publicURL: publicURL, secureCookies: secureCookies)
        ProfileRoutes.add(to: router, database: database, auth: auth, limiter: limiter)
        RadioShareRoutes.add(to: router, radio: RadioStore(database: database), auth: auth, publicURL: publicURL)
        RadioEffectsRoutes.add(to: router, dataDirectory: database.directory, auth: auth, limiter: limiter)
        RadioDiscoverRoutes.add(to: router, database: database, auth: auth)
        RadioUploadRoutes.add(to: router, store: RadioStore(database: database, decoder: AudioFileDecoder()),
                              dataDirectory: database.directory, auth: auth, limiter: limiter)
        if let crowd { CrowdRoutes.add(to: router, configuration: crowd) }
        if let library {
            let media = MediaResponder(dataDirectory: database.directory, limiter: limiter)
            LibraryRoutes.add(to: router, library: library, auth: auth, media: media)
            SubsonicAPI.add(to: router, library: library, auth: auth, media: media, publicURL: publicURL, live: live)
            RunnerRoutes.addNext(to: router, library: library, auth: auth)
            RunnerSongRoutes.add(to: router, library: library, auth: auth)
            RunnerLiveRoute.addPlainAnswer(to: router, auth: auth)
        }
        return router
    }

    /// The router of WebSocket upgrades (`/api/runner/live`, `/api/radio/ingest`,
    /// `/api/radio/shows/{id}/chat`); the requests it does not upgrade go on to `makeRouter`'s.
    /// `chat` is the server's one chat hub (a new one when not given).
    static func makeWebSocketRouter(library: LibraryService, auth: Authenticator, radio: LiveRadio,
                                    chat: RadioChatHub = RadioChatHub()) -> Router<QuintetWebSocketContext> {
        let router = Router(context: QuintetWebSocketContext.self)
        router.middlewares.add(RequestLogMiddleware(.info))
        RunnerLiveRoute.add(to: router, library: library, auth: auth)
        RadioIngestRoute.add(to: router, radio: radio, auth: auth)
        RadioGuestRoute.add(to: router, relay: radio.guests)
        RadioChatRoute.add(to: router, radio: radio, store: RadioStore(database: library.catalog.database),
                           hub: chat, auth: auth)
        return router
    }

    /// A ready-to-run application. The database opens (and migrates) here; it closes after
    /// the server has stopped accepting and finished its in-flight requests.
    public static func make(configuration: ServerConfiguration, logger: Logger? = nil,
                            crowd: CrowdBackend? = nil,
                            onAdminCreated: (String) -> Void = { _ in },
                            onServerRunning: @escaping @Sendable (String, Int) async -> Void = { _, _ in })
        throws -> some ApplicationProtocol {
        var logger = logger ?? Logger(label: "quintet")
        logger.logLevel = configuration.logLevel
        let database = try openDatabase(in: configuration.dataDirectory)
        let auth = Authenticator(database: database)
        if let password = try createFirstAdmin(users: auth.users, password: configuration.adminPassword) {
            onAdminCreated(password)
        }
        let recovered = RadioRecovery.run(RadioStore(database: database, decoder: AudioFileDecoder()), logger: logger)
        let library = LibraryService(database: database, libraryDirectory: configuration.libraryDirectory, logger: logger,
                                     musicBrainz: configuration.musicBrainz)
        var radioConfiguration = LiveRadio.Configuration()
        radioConfiguration.batchInterval = .milliseconds(Int64(configuration.radioBatchMilliseconds))
        let radio = LiveRadio(directory: makeRadioDirectory(database: database, logger: logger), configuration: radioConfiguration, logger: logger)
        let crowd = try crowd ?? makeEmbeddedCrowdBackend(configuration: configuration)
        let crowdRoutes = CrowdRoutes.Configuration(
            backend: crowd, keys: try CrowdDeviceKeys(dataDirectory: configuration.dataDirectory),
            limiter: CrowdRateLimiter(limit: configuration.crowdRateLimit),
            page: CrowdPage(tiles: configuration.crowdTiles, tilesAttribution: configuration.crowdTilesAttribution,
                            geocoder: configuration.crowdGeocoder != nil),
            places: configuration.crowdGeocoder.map { CrowdPlaceNames(configuration: .init(base: $0)) })
        let router = makeRouter(database: database, webDirectory: configuration.webDirectory,
                                maxUploadBytes: configuration.maxUploadBytes, library: library, auth: auth,
                                publicURL: configuration.publicURL, crowd: crowdRoutes,
                                secureCookies: configuration.tls != nil, registration: configuration.registration,
                                live: radio)
        RadioLiveRoutes.add(to: router, radio: radio, auth: auth)
        RadioIngestRoute.addPlainAnswer(to: router)
        RadioGuestRoute.addPlainAnswer(to: router)
        RadioChatRoute.addPlainAnswer(to: router)
        var services: [any Service] = [
            DatabaseService(database: database, logger: logger,
                            dependents: [library, RadioPeaksService(radio: RadioStore(database: database, decoder: AudioFileDecoder()),
                                                                    episodes: recovered, logger: logger),
                                         RadioPurgeService(radio: RadioStore(database: database), logger: logger)]),
            CrowdLifecycleService(backend: crowd, logger: logger),
        ]
        let secure = try configuration.tls.map { try prepareTLS($0, configuration: configuration) }
        let httpsPort = NIOLockedValueBox(configuration.port)
        if let secure {
            let pages = TLSPages(tls: secure.tls, authority: secure.authority, webDirectory: configuration.webDirectory,
                                 httpsPort: httpsPort)
            pages.add(to: router)
            services.append(TLSReloadService(tls: secure.tls, authority: secure.authority, logger: logger))
            if let httpPort = configuration.httpPort {
                let plain = Router()
                plain.add(middleware: HTTPSRedirectMiddleware(httpsPort: httpsPort))
                pages.add(to: plain)
                services.append(Application(
                    router: plain,
                    server: makeServer(webSocketRouter: Router(context: QuintetWebSocketContext.self), radio: radio),
                    configuration: .init(address: .hostname(configuration.host, port: httpPort), serverName: "Quintet"),
                    logger: logger))
            }
        }
        return Application(
            router: router,
            server: makeServer(webSocketRouter: makeWebSocketRouter(library: library, auth: auth, radio: radio), radio: radio, tls: secure?.tls),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Quintet"),
            services: services,
            onServerRunning: { channel in
                let address = channel.localAddress
                httpsPort.withLockedValue { $0 = address?.port ?? configuration.port }
                await onServerRunning(address?.ipAddress ?? configuration.host, address?.port ?? configuration.port)
            },
            logger: logger
        )
    }

    /// The certificate the server presents: read from the files given, or (self-signed) made
    /// in the data folder first. Throws ``TLSSetupError`` naming the file and the problem.
    public static func prepareTLS(_ source: TLSSource, configuration: ServerConfiguration) throws
        -> (tls: ServerTLS, authority: LocalCertificateAuthority?) {
        switch source {
        case .files(let certificate, let key):
            return (try ServerTLS(certificateFile: certificate, keyFile: key), nil)
        case .selfSigned:
            let authority = LocalCertificateAuthority(dataDirectory: configuration.dataDirectory)
            try authority.prepare()
            return (try ServerTLS(certificateFile: authority.certificateFile, keyFile: authority.keyFile), authority)
        }
    }
}

extension QuintetApplication {
    /// How long a graceful shutdown may take: the HTTP server drains its requests and every
    /// service stops; past it everything still running (long-lived listeners, sockets, a
    /// service that ignores the shutdown) is cancelled. Every service honours cancellation, so
    /// there is no second limit (swift-service-lifecycle's would end the process with a trap).
    public static let gracefulShutdownLimit = Duration.milliseconds(1200)

    /// Runs `app` until SIGTERM or SIGINT, then shuts it down within ``gracefulShutdownLimit``
    /// plus the time cancelled work takes to return.
    public static func runUntilSignalled(_ app: some ApplicationProtocol, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger)
        configuration.maximumGracefulShutdownDuration = gracefulShutdownLimit
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch is CancellationError {
            // What was left past the limit was cancelled, as asked: a clean stop.
            logger.info("shutdown: what was still running after \(gracefulShutdownLimit) was cancelled")
        }
    }

    /// The server channel: HTTP/1.1 with WebSocket upgrades (a message may be up to
    /// `RunnerLive.maxMessageBytes`), behind ``IcecastAwareChannel`` so that Icecast sources and
    /// listeners of `/live/…` mounts reach the radio's own handlers on the same port.
    /// With `tls`, the whole of it sits behind ``TLSChannel``.
    static func makeServer(webSocketRouter: Router<QuintetWebSocketContext>, radio: LiveRadio,
                           tls: ServerTLS? = nil) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            let channel = IcecastAwareChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: withPeerAddress(IcecastRouting.redirectingMountRequests(responder)),
                    webSocketResponder: webSocketResponder,
                    configuration: .init(ws: .init(maxFrameSize: RunnerLive.maxMessageBytes))),
                radio: radio)
            if let tls { return TLSChannel(inner: channel, tls: tls) }
            return channel
        }
    }

    /// Stamps each Crowd API request with the connection's peer IP (``CrowdPeer/field``, replacing
    /// any the client sent) for the Crowd's per-address rate limit; other requests pass unchanged.
    static func withPeerAddress(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        { request, writer, channel in
            guard request.uri.path.hasPrefix("/api/crowd/") else {
                try await responder(request, writer, channel)
                return
            }
            var head = request.head
            head.headerFields[CrowdPeer.field] = channel.remoteAddress?.ipAddress
            try await responder(Request(head: head, body: request.body), writer, channel)
        }
    }

    /// The settings of the Crowd backends from the server's flags.
    public static func crowdSettings(_ configuration: ServerConfiguration) -> CrowdSettings {
        CrowdSettings(minGroup: configuration.crowdMinGroup, expiry: configuration.crowdExpiry)
    }

    /// The Crowd backend `--crowd-database` names (nil: the embedded SQLite store), connected.
    public static func makeCrowdBackend(configuration: ServerConfiguration, logger: Logger) async throws -> CrowdBackend {
        try await CrowdBackend.open(url: configuration.crowdDatabaseURL, dataDirectory: configuration.dataDirectory,
                                    settings: crowdSettings(configuration), logger: logger)
    }

    /// The embedded store, for ``make(configuration:logger:crowd:onAdminCreated:onServerRunning:)``
    /// called without a backend; a PostgreSQL URL needs ``makeCrowdBackend(configuration:logger:)`` first.
    static func makeEmbeddedCrowdBackend(configuration: ServerConfiguration) throws -> CrowdBackend {
        if configuration.crowdDatabaseURL != nil {
            throw CrowdBackendError(message: "--crowd-database \(configuration.crowdDatabaseURL ?? ""): connect it with QuintetApplication.makeCrowdBackend and pass it to make(crowd:)")
        }
        return try CrowdBackend.sqlite(dataDirectory: configuration.dataDirectory, settings: crowdSettings(configuration))
    }

    /// The shows the live server streams: from the shared database.
    static func makeRadioDirectory(database: QuintetDatabase, logger: Logger) -> any RadioDirectory {
        StoreRadioDirectory(store: RadioStore(database: database, decoder: AudioFileDecoder()),
                            loudness: (try? FFmpegDecoder()).map { LoudnessNormalizer(ffmpeg: $0) }, logger: logger)
    }
}

/// Keeps the database open while the server runs and closes it cleanly on shutdown, after
/// the services that use it (`dependents`: the library's scan and BPM worker, the radio's
/// peaks) have returned: they run as child tasks of this one, so they see the same graceful
/// shutdown and the same cancellation, and the database cannot close under them.
/// Hummingbird shuts its services down in reverse order, so the HTTP server (started after
/// this service) drains its requests first.
struct DatabaseService: Service {
    let database: QuintetDatabase
    let logger: Logger
    var dependents: [any Service] = []

    func run() async throws {
        await withDiscardingTaskGroup { group in
            for service in dependents {
                group.addTask {
                    do { try await service.run() } catch {
                        logger.error("\(type(of: service)) stopped: \(error)")
                    }
                }
            }
            group.addTask { try? await gracefulShutdown() }
        }
        do {
            try database.close()
            logger.info("database closed cleanly")
        } catch {
            logger.error("closing the database failed: \(error)")
        }
    }
}
