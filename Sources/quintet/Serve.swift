import ArgumentParser
import Foundation
import Hummingbird
import Logging
import QuintetServer

/// `quintet serve`: the web server for every system.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the Quintet server (web pages, APIs, metrics) until SIGINT or SIGTERM.",
        discussion: """
        Every option can also be set by an environment variable: QUINTET_HOST, QUINTET_PORT,
        QUINTET_DATA, QUINTET_WEB, QUINTET_LOG_LEVEL, QUINTET_LIBRARY,
        QUINTET_PUBLIC_URL, QUINTET_MAX_UPLOAD_MB, QUINTET_RADIO_BATCH_MS. Flags win over the environment.
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

    func resolvedRadioBatch() throws -> Int {
        if let radioBatchMS { return radioBatchMS }
        guard let text = Environment.value("QUINTET_RADIO_BATCH_MS") else { return 500 }
        guard let value = Int(text) else { throw ValidationError("QUINTET_RADIO_BATCH_MS must be a number, not '\(text)'") }
        return value
    }

    func resolvedMaxUpload() throws -> Int {
        if let maxUploadMB { return maxUploadMB }
        guard let text = Environment.value("QUINTET_MAX_UPLOAD_MB") else { return TempoRoutes.maxUploadBytes / 1_048_576 }
        guard let value = Int(text) else { throw ValidationError("QUINTET_MAX_UPLOAD_MB must be a number, not '\(text)'") }
        return value
    }

    func resolvedPort() throws -> Int {
        if let port { return port }
        guard let text = Environment.value("QUINTET_PORT") else { return 8080 }
        guard let value = Int(text) else { throw ValidationError("QUINTET_PORT must be a number, not '\(text)'") }
        return value
    }

    func validate() throws {
        let port = try resolvedPort()
        guard (0...65_535).contains(port) else { throw ValidationError("port must be between 0 and 65535, not \(port)") }
        let batch = try resolvedRadioBatch()
        guard (20...2000).contains(batch) else { throw ValidationError("--radio-batch-ms must be between 20 and 2000, not \(batch)") }
        let upload = try resolvedMaxUpload()
        guard (1...65_536).contains(upload) else { throw ValidationError("--max-upload-mb must be between 1 and 65536, not \(upload)") }
        if let url = publicURL ?? Environment.value("QUINTET_PUBLIC_URL"),
           !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) || URL(string: url)?.host == nil {
            throw ValidationError("--public-url must be an http(s) URL like https://radio.example.org, not '\(url)'")
        }
        if logLevel == nil, let text = Environment.value("QUINTET_LOG_LEVEL"), Logger.Level(rawValue: text) == nil {
            throw ValidationError("QUINTET_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
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
        if let folder = config.libraryDirectory {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--library \(folder.path) is not a folder")
            }
        }
        let dataPath = config.dataDirectory.path
        let app = try QuintetApplication.make(configuration: config, onAdminCreated: { password in
            print("Created the user admin with the password \(password) (shown once; change it with `quintet users passwd admin`)")
        }) { host, port in
            // Written unbuffered so scripts waiting for this line see it at once.
            FileHandle.standardOutput.write(Data("Quintet \(QuintetVersion.current) listening on http://\(host):\(port)/ (data: \(dataPath))\n".utf8))
        }
        try await app.runService()
    }
}
