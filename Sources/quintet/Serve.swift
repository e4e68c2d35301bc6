import ArgumentParser
import Foundation
import Hummingbird
import LibraryCore
import Logging
import QuintetServer
import QuintetStore

/// `quintet serve`: the web server for every system.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the Quintet server (web pages, APIs, metrics) until SIGINT or SIGTERM.",
        discussion: """
        Every option can also be set by an environment variable: QUINTET_HOST, QUINTET_PORT,
        QUINTET_DATA, QUINTET_WEB, QUINTET_LOG_LEVEL, QUINTET_LIBRARY,
        QUINTET_PUBLIC_URL, QUINTET_MAX_UPLOAD_MB, QUINTET_RADIO_BATCH_MS, QUINTET_CROWD_MIN_GROUP,
        QUINTET_CROWD_EXPIRY, QUINTET_CROWD_RATE_LIMIT, QUINTET_CROWD_DATABASE, QUINTET_TLS_CERT,
        QUINTET_TLS_KEY, QUINTET_TLS_SELF_SIGNED (1), QUINTET_HTTP_PORT, QUINTET_CROWD_TILES,
        QUINTET_CROWD_TILES_ATTRIBUTION, QUINTET_CROWD_GEOCODER. Flags win over the environment.
        HTTPS (needed by phones for the motion sensor, the position and the microphone):
        --tls-cert/--tls-key with a certificate you have, or --tls-self-signed for a private CA
        made in the data folder, which a phone trusts once from the page /tls/ (docs/phone.md).
        The crowd map draws a coordinate grid offline; --crowd-tiles shows a street map instead,
        whose tile server learns which area each user looks at (docs/crowd.md, "Privacy of tiles
        and place names"), and --crowd-geocoder names places in its location panel.
        On a first start the user `admin` is created with the password in QUINTET_ADMIN_PASSWORD,
        or a random one printed once. Without --library the demo library is written into the
        data folder and served.
        """
    )

    @Option(help: ArgumentHelp("Interface to listen on (default 127.0.0.1; env QUINTET_HOST).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("TCP port (default 8080, 0 = any free port; env QUINTET_PORT).", valueName: "port"))
    var port: Int?

    @OptionGroup var dataOptions: DataOptions

    @Option(help: ArgumentHelp("Folder of the web pages (default: Web/ of the checkout; env QUINTET_WEB).", valueName: "dir"))
    var web: String?

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (default info; env QUINTET_LOG_LEVEL).", valueName: "level"))
    var logLevel: Logger.Level?

    @Option(help: ArgumentHelp("The music folder to serve and scan at start (default: the demo library; env QUINTET_LIBRARY).", valueName: "dir"))
    var library: String?

    @Option(name: .customLong("public-url"),
            help: ArgumentHelp("The server's public base URL for absolute links in podcast feeds (default: each request's Host; env QUINTET_PUBLIC_URL).", valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("max-upload-mb"),
            help: ArgumentHelp("Largest audio upload in MiB (default 200; env QUINTET_MAX_UPLOAD_MB).", valueName: "MiB"))
    var maxUploadMB: Int?

    @Option(name: .customLong("radio-batch-ms"),
            help: ArgumentHelp("How often live radio listeners are written to, 20–2000 ms (default 500; env QUINTET_RADIO_BATCH_MS).", valueName: "ms"))
    var radioBatchMS: Int?

    @Option(name: .customLong("crowd-min-group"),
            help: ArgumentHelp("Crowd: show a location only with at least K people, 1–1000 (default 3; 1 is the original app; env QUINTET_CROWD_MIN_GROUP).", valueName: "K"))
    var crowdMinGroup: Int?

    @Option(name: .customLong("crowd-expiry"),
            help: ArgumentHelp("Crowd: a device stops counting this long after its last report: 90s, 30m, 24h or seconds, 1 s to 7 days (default 30m; env QUINTET_CROWD_EXPIRY).", valueName: "duration"))
    var crowdExpiry: String?

    @Option(name: .customLong("crowd-rate-limit"),
            help: ArgumentHelp("Crowd: reports per minute per device and per client address, 0 = off for replays and load tests (default 60; env QUINTET_CROWD_RATE_LIMIT).", valueName: "N"))
    var crowdRateLimit: Int?

    @Option(name: .customLong("crowd-database"),
            help: ArgumentHelp("Crowd: a postgres:// URL for the PostGIS backend (default: crowd.sqlite in the data folder; env QUINTET_CROWD_DATABASE).", valueName: "url"))
    var crowdDatabase: String?

    @Option(name: .customLong("crowd-tiles"),
            help: ArgumentHelp("Crowd: a street map's tile URL template, http(s) with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; the tile server learns where users look (default: a coordinate grid, offline; env QUINTET_CROWD_TILES).", valueName: "template"))
    var crowdTiles: String?

    @Option(name: .customLong("crowd-tiles-attribution"),
            help: ArgumentHelp("Crowd: the tile provider's required credit, shown on the map, e.g. \"© OpenStreetMap contributors\" (env QUINTET_CROWD_TILES_ATTRIBUTION).", valueName: "text"))
    var crowdTilesAttribution: String?

    @Option(name: .customLong("crowd-geocoder"),
            help: ArgumentHelp("Crowd: a Nominatim-compatible reverse geocoder's base URL for place names in the location panel; the server asks it with rounded coordinates, at most once a second, cached (default off; env QUINTET_CROWD_GEOCODER).", valueName: "url"))
    var crowdGeocoder: String?

    @Option(name: .customLong("musicbrainz"),
            help: ArgumentHelp("Band members from MusicBrainz: on (musicbrainz.org, one request a second, answers cached), off (cached answers only), or a mirror's or stand-in's base URL (default on; env QUINTET_MUSICBRAINZ).", valueName: "off|on|url"))
    var musicBrainz: String?

    @Option(name: .customLong("tls-cert"),
            help: ArgumentHelp("HTTPS: the PEM certificate, its chain may follow (env QUINTET_TLS_CERT); needs --tls-key.", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"),
            help: ArgumentHelp("HTTPS: the PEM private key of --tls-cert (env QUINTET_TLS_KEY).", valueName: "file"))
    var tlsKey: String?

    @Flag(name: .customLong("tls-self-signed"),
          help: "HTTPS with a private CA made in the data folder on first start; phones trust it from /tls/ (env QUINTET_TLS_SELF_SIGNED=1).")
    var tlsSelfSigned = false

    @Option(name: .customLong("http-port"),
            help: ArgumentHelp("With HTTPS: also plain HTTP on this port, redirecting pages to HTTPS and serving /tls/ and Icecast as they are (env QUINTET_HTTP_PORT).", valueName: "port"))
    var httpPort: Int?

    @Option(name: .customLong("registration"),
            help: ArgumentHelp("Who may create an account: open (anyone), invite (with an invitation link, the default) or closed (env QUINTET_REGISTRATION).", valueName: "open|invite|closed"))
    var registration: String?

    /// `--registration`, else QUINTET_REGISTRATION, else `invite`.
    func resolvedRegistration() throws -> RegistrationMode {
        let text = registration ?? Environment.value("QUINTET_REGISTRATION") ?? "invite"
        guard let mode = RegistrationMode(rawValue: text.lowercased()) else {
            throw ValidationError("--registration must be open, invite or closed, not '\(text)'")
        }
        return mode
    }

    /// The TLS source the flags and environment name, nil for plain HTTP.
    func resolvedTLS() throws -> TLSSource? {
        let certificate = tlsCert ?? Environment.value("QUINTET_TLS_CERT")
        let key = tlsKey ?? Environment.value("QUINTET_TLS_KEY")
        let selfSigned = tlsSelfSigned || ["1", "true", "yes"].contains(Environment.value("QUINTET_TLS_SELF_SIGNED")?.lowercased() ?? "")
        switch (certificate, key, selfSigned) {
        case (nil, nil, false): return nil
        case (nil, nil, true): return .selfSigned
        case (let c?, let k?, false):
            return .files(certificate: URL(fileURLWithPath: c).standardizedFileURL, key: URL(fileURLWithPath: k).standardizedFileURL)
        case (_, _, true): throw ValidationError("--tls-self-signed makes its own certificate: leave out --tls-cert and --tls-key")
        case (nil, _, _): throw ValidationError("--tls-key needs --tls-cert (the certificate it belongs to)")
        case (_, nil, _): throw ValidationError("--tls-cert needs --tls-key (the certificate's private key)")
        }
    }

    /// Where band members are looked up: `on` (the default), `off`, or an http(s) base URL.
    func resolvedMusicBrainz() throws -> MemberLookups.Source {
        let text = musicBrainz ?? Environment.value("QUINTET_MUSICBRAINZ") ?? "on"
        switch text.lowercased() {
        case "on": return .on(MemberLookups.musicBrainz)
        case "off": return .off
        default:
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                  url.query == nil else {
                throw ValidationError("--musicbrainz must be on, off or an http(s) base URL such as https://musicbrainz.org, not '\(text.prefix(100))'")
            }
            return .on(url)
        }
    }

    func resolvedHTTPPort() throws -> Int? { try Self.integer(httpPort, env: "QUINTET_HTTP_PORT") }

    func resolvedCrowdMinGroup() throws -> Int { try Self.integer(crowdMinGroup, env: "QUINTET_CROWD_MIN_GROUP", default: 3) }

    func resolvedCrowdExpiry() throws -> TimeInterval {
        let text = crowdExpiry ?? Environment.value("QUINTET_CROWD_EXPIRY") ?? "30m"
        guard let seconds = CrowdDuration.seconds(text) else {
            throw ValidationError("--crowd-expiry must be a duration like 90s, 30m or 24h (or plain seconds), not '\(text)'")
        }
        return seconds
    }

    func resolvedCrowdRateLimit() throws -> Int { try Self.integer(crowdRateLimit, env: "QUINTET_CROWD_RATE_LIMIT", default: 60) }

    var resolvedCrowdDatabase: String? { crowdDatabase ?? Environment.value("QUINTET_CROWD_DATABASE") }

    var resolvedCrowdTiles: String? { crowdTiles ?? Environment.value("QUINTET_CROWD_TILES") }

    var resolvedCrowdTilesAttribution: String? { crowdTilesAttribution ?? Environment.value("QUINTET_CROWD_TILES_ATTRIBUTION") }

    /// The geocoder's base URL, checked: an http(s) URL with a host and no query.
    func resolvedCrowdGeocoder() throws -> URL? {
        guard let text = crowdGeocoder ?? Environment.value("QUINTET_CROWD_GEOCODER") else { return nil }
        if let problem = CrowdPage.geocoderProblem(text) { throw ValidationError("--crowd-geocoder \(problem), not '\(text)'") }
        guard let url = URL(string: text) else { throw ValidationError("--crowd-geocoder is not a URL: '\(text)'") }
        return url
    }

    /// Checks the crowd map's tile settings: a usable template, and a credit only with tiles.
    func validateCrowdTiles() throws {
        if let template = resolvedCrowdTiles, let problem = CrowdPage.tileTemplateProblem(template) {
            throw ValidationError("--crowd-tiles \(problem), like https://tile.openstreetmap.org/{z}/{x}/{y}.png; not '\(template)'")
        }
        if resolvedCrowdTilesAttribution != nil, resolvedCrowdTiles == nil {
            throw ValidationError("--crowd-tiles-attribution is the credit of the tiles' provider: give --crowd-tiles too")
        }
    }

    func resolvedRadioBatch() throws -> Int { try Self.integer(radioBatchMS, env: "QUINTET_RADIO_BATCH_MS", default: 500) }

    func resolvedMaxUpload() throws -> Int { try Self.integer(maxUploadMB, env: "QUINTET_MAX_UPLOAD_MB", default: TempoRoutes.maxUploadBytes / 1_048_576) }

    /// The flag's value, else the environment variable's (which must be a whole number), else
    /// `fallback`: the order every numeric option of `serve` follows.
    static func integer(_ flag: Int?, env: String, default fallback: Int) throws -> Int {
        try integer(flag, env: env) ?? fallback
    }

    /// The same, with nil when neither the flag nor the variable is given (an option that is off
    /// by default, like `--http-port`).
    static func integer(_ flag: Int?, env: String) throws -> Int? {
        if let flag { return flag }
        guard let text = Environment.value(env) else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(env) must be a number, not '\(text)'") }
        return value
    }

    /// The address a phone should open: the one listened on, or for a wildcard the first
    /// interface address that is not loopback.
    static func addressToOpen(_ host: String) -> String {
        guard host == "0.0.0.0" || host == "::" else { return host }
        return LocalCertificateAuthority.wantedNames().ip.first { $0 != "127.0.0.1" && $0 != "::1" && !$0.contains(":") } ?? "localhost"
    }

    func resolvedPort() throws -> Int { try Self.integer(port, env: "QUINTET_PORT", default: 8080) }

    func validate() throws {
        let port = try resolvedPort()
        guard (0...65_535).contains(port) else { throw ValidationError("port must be between 0 and 65535, not \(port)") }
        if let plain = try resolvedHTTPPort() {
            guard (0...65_535).contains(plain) else { throw ValidationError("--http-port must be between 0 and 65535, not \(plain)") }
            guard try resolvedTLS() != nil else {
                throw ValidationError("--http-port is the plain side of HTTPS: add --tls-self-signed or --tls-cert/--tls-key (without HTTPS, --port is plain HTTP already)")
            }
            guard plain != port || port == 0 else { throw ValidationError("--http-port must differ from --port (\(port))") }
        } else {
            _ = try resolvedTLS()
        }
        let batch = try resolvedRadioBatch()
        guard (20...2000).contains(batch) else { throw ValidationError("--radio-batch-ms must be between 20 and 2000, not \(batch)") }
        let upload = try resolvedMaxUpload()
        guard (1...65_536).contains(upload) else { throw ValidationError("--max-upload-mb must be between 1 and 65536, not \(upload)") }
        if let url = publicURL ?? Environment.value("QUINTET_PUBLIC_URL"),
           !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) || URL(string: url)?.host == nil {
            throw ValidationError("--public-url must be an http(s) URL like https://radio.example.org, not '\(url)'")
        }
        let minGroup = try resolvedCrowdMinGroup()
        guard (1...1000).contains(minGroup) else { throw ValidationError("--crowd-min-group must be between 1 and 1000, not \(minGroup)") }
        let expiry = try resolvedCrowdExpiry()
        guard (1...(7 * 86_400)).contains(expiry) else {
            throw ValidationError("--crowd-expiry must be between 1 second and 7 days, not \(expiry) s")
        }
        let rate = try resolvedCrowdRateLimit()
        guard (0...1_000_000).contains(rate) else { throw ValidationError("--crowd-rate-limit must be between 0 (off) and 1000000, not \(rate)") }
        do { try CrowdBackend.validate(url: resolvedCrowdDatabase) } catch { throw ValidationError(String(describing: error)) }
        try validateCrowdTiles()
        _ = try resolvedCrowdGeocoder()
        _ = try resolvedMusicBrainz()
        _ = try resolvedRegistration()
        if logLevel == nil, let text = Environment.value("QUINTET_LOG_LEVEL"), Logger.Level(rawValue: text) == nil {
            throw ValidationError("QUINTET_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        MallocTuning.applyForManyConnections() // before the first connection's buffers
        let level = logLevel ?? Environment.value("QUINTET_LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let webDirectory: URL
        do { webDirectory = try WebRoot.locate(explicit: web ?? Environment.value("QUINTET_WEB")) } catch {
            throw ValidationError(String(describing: error))
        }
        var config = ServerConfiguration(
            host: host ?? Environment.value("QUINTET_HOST") ?? "127.0.0.1",
            port: try resolvedPort(),
            dataDirectory: dataOptions.directory,
            webDirectory: webDirectory,
            logLevel: level,
            maxUploadBytes: try resolvedMaxUpload() * 1_048_576,
            libraryDirectory: (library ?? Environment.value("QUINTET_LIBRARY")).map { URL(fileURLWithPath: $0).standardizedFileURL },
            adminPassword: Environment.value("QUINTET_ADMIN_PASSWORD"),
            publicURL: publicURL ?? Environment.value("QUINTET_PUBLIC_URL")
        )
        config.radioBatchMilliseconds = try resolvedRadioBatch()
        config.crowdMinGroup = try resolvedCrowdMinGroup()
        config.crowdExpiry = try resolvedCrowdExpiry()
        config.crowdRateLimit = try resolvedCrowdRateLimit()
        config.crowdDatabaseURL = resolvedCrowdDatabase
        config.crowdTiles = resolvedCrowdTiles
        config.crowdTilesAttribution = resolvedCrowdTilesAttribution
        config.crowdGeocoder = try resolvedCrowdGeocoder()
        config.tls = try resolvedTLS()
        config.httpPort = try resolvedHTTPPort()
        config.musicBrainz = try resolvedMusicBrainz()
        config.registration = try resolvedRegistration()
        if let folder = config.libraryDirectory {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--library \(folder.path) is not a folder")
            }
        }
        let dataPath = config.dataDirectory.path
        let crowd: CrowdBackend
        do {
            crowd = try await QuintetApplication.makeCrowdBackend(configuration: config, logger: Logger(label: "quintet.crowd"))
        } catch {
            throw ValidationError("the crowd store could not be opened: \(error)")
        }
        let scheme = config.tls == nil ? "http" : "https"
        let tls = config.tls
        let plainPort = config.httpPort
        let dataDirectory = config.dataDirectory
        let app: any ApplicationProtocol
        do {
            app = try QuintetApplication.make(configuration: config, crowd: crowd, onAdminCreated: { password in
                print("Created the user admin with the password \(password) (shown once; change it with `quintet users passwd admin`)")
            }) { host, port in
                // Written unbuffered so scripts waiting for these lines see them at once.
                var lines = "Quintet \(QuintetVersion.current) listening on \(scheme)://\(HTTPSAddress.urlHost(host)):\(port)/ (data: \(dataPath))\n"
                if tls != nil {
                    let open = Self.addressToOpen(host)
                    lines += "Open https://\(HTTPSAddress.urlHost(open)):\(port)/ on a phone on the same network.\n"
                    if tls == .selfSigned, let fingerprint = try? LocalCertificateAuthority(dataDirectory: dataDirectory).caFingerprint() {
                        let page = plainPort.map { "http://\(HTTPSAddress.urlHost(open)):\($0)/tls/" } ?? "https://\(HTTPSAddress.urlHost(open)):\(port)/tls/"
                        lines += "Private CA SHA-256 fingerprint \(fingerprint); a phone trusts it from \(page)\n"
                    }
                }
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
        } catch let error as TLSSetupError {
            throw ValidationError(error.description)
        }
        try await QuintetApplication.runUntilSignalled(app, logger: Logger(label: "quintet"))
    }
}
