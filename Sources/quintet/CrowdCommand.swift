import ArgumentParser
import Crowd
import Foundation
import Locking
import QuintetServer

/// `quintet crowd …`: the Crowd's tools (docs/crowd.md).
struct CrowdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crowd",
        abstract: "Crowd tools: a simulated moving crowd for demos and load tests, the store's figures.",
        subcommands: [CrowdSimulate.self, CrowdStats.self]
    )
}

/// `quintet crowd simulate`: feeds a moving crowd to a running server, or straight into a
/// stopped server's store.
///
/// ```
/// quintet crowd simulate --devices 2000 --area 45.4642,9.19,1500 --server http://127.0.0.1:8080
/// quintet crowd simulate --devices 1000000 --area 45.4642,9.19,8000 --data quintet-data
/// ```
struct CrowdSimulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Feed a realistic moving crowd to a Crowd server (or, with --data, straight into its SQLite store).",
        discussion: """
        Devices gather around hotspots scattered over the disc --area (each within 4 m of its
        hotspot, so every hotspot forms one location of several people; one hotspot in a hundred
        is popular). Each round every device reports once: in later rounds four in five shuffle a
        few metres and one in five walks to another hotspot. Seven in ten give an age, four in
        five a sex, one in fifty a comment. The same --seed gives the same crowd.
        Over HTTP the server's rate limit applies: start it with --crowd-rate-limit 0 for a
        simulation. --data writes into a stopped server's data folder (the fast path for a
        million devices); the devices are keyed with that folder's secret, as the server keys them.
        """
    )

    @Option(help: ArgumentHelp("Number of devices (1 to 10,000,000).", valueName: "N"))
    var devices: Int

    @Option(help: ArgumentHelp("The disc the crowd stands in: centre latitude, longitude and radius in metres, e.g. 45.4642,9.19,8000.", valueName: "LAT,LON,RADIUS_M"))
    var area: String

    @Option(help: ArgumentHelp("The server to post to (default http://127.0.0.1:8080; ignored with --data).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Load straight into this stopped server's data folder (crowd.sqlite) instead of posting.", valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp("Hotspots (default: devices / 5, so about five people a location).", valueName: "H"))
    var hotspots: Int?

    @Option(help: ArgumentHelp("Rounds: each device reports once a round (default 1).", valueName: "R"))
    var rounds: Int = 1

    @Option(help: ArgumentHelp("Reports in flight at once: connections over HTTP (default 8), reports awaiting the store's commit with --data (default 512).", valueName: "C"))
    var concurrency: Int?

    @Option(help: ArgumentHelp("Seed of the crowd (default 1).", valueName: "S"))
    var seed: UInt64 = 1

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        guard (1...10_000_000).contains(devices) else { throw ValidationError("--devices must be between 1 and 10000000, not \(devices)") }
        do { _ = try CrowdSimulation.Area.parse(area) } catch let error as CrowdValidationError {
            throw ValidationError("--area \(error.reason)")
        }
        if let hotspots, !(1...devices).contains(hotspots) {
            throw ValidationError("--hotspots must be between 1 and the number of devices (\(devices)), not \(hotspots)")
        }
        guard (1...10_000).contains(rounds) else { throw ValidationError("--rounds must be between 1 and 10000, not \(rounds)") }
        if let concurrency, !(1...4096).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and 4096, not \(concurrency)")
        }
        if data != nil, server != nil { throw ValidationError("give either --server (post to a running server) or --data (load a stopped one), not both") }
        if let server {
            let lower = server.lowercased()
            guard lower.hasPrefix("http://"), URL(string: server)?.host?.isEmpty == false else {
                throw ValidationError("--server must be an http:// URL like http://127.0.0.1:8080, not '\(server)'")
            }
        }
    }

    func run() async throws {
        let area = try CrowdSimulation.Area.parse(self.area)
        var crowd = CrowdSimulation(devices: devices, area: area, hotspots: hotspots ?? Swift.max(1, devices / 5), seed: seed)
        let progress = ProgressLine()
        var summary = CrowdLoad.Summary()
        let direct: (backend: CrowdBackend, keys: CrowdDeviceKeys)?
        if let data {
            let folder = URL(fileURLWithPath: data).standardizedFileURL
            direct = (try CrowdBackend.sqlite(dataDirectory: folder, settings: CrowdSettings()), try CrowdDeviceKeys(dataDirectory: folder))
        } else {
            direct = nil
        }
        for round in 0..<rounds {
            let reports = crowd.round(round)
            let done = summary.reports
            let total = devices * rounds
            let report: @Sendable (Int) -> Void = { sent in progress.show("round \(round + 1)/\(self.rounds): \(done + sent)/\(total) reports") }
            let part: CrowdLoad.Summary
            if let direct {
                part = try await CrowdLoad.direct(reports, service: direct.backend.service, keys: direct.keys,
                                                  concurrency: concurrency ?? 512, progress: report)
            } else {
                let server = self.server ?? "http://127.0.0.1:8080"
                let concurrency = self.concurrency ?? 8
                // Blocking HTTP client threads: waited for on the blocking pool.
                part = try await Blocking.run {
                    try CrowdLoad.overHTTP(reports, server: server, concurrency: concurrency, progress: report)
                }
            }
            summary.add(part)
            summary.seconds += part.seconds
            progress.show("round \(round + 1)/\(rounds): \(summary.reports)/\(total) reports, \(Int(part.reportsPerSecond)) reports/s, \(summary.errors) errors")
        }
        progress.finish()
        var counts: CrowdCounts?
        if let direct {
            counts = try await direct.backend.counts()
            await direct.backend.close()
        }
        if json {
            struct Output: Encodable { let summary: CrowdLoad.Summary; let store: CrowdCounts? }
            try printJSON(Output(summary: summary, store: counts))
        } else {
            print("\(summary.reports) reports in \(String(format: "%.2f", summary.seconds)) s: \(Int(summary.reportsPerSecond)) reports/s, \(summary.errors) errors")
            if summary.errors > 0 {
                print("answers: " + summary.statuses.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
                if summary.statuses["429"] != nil { print("(429: the server's rate limit; start it with --crowd-rate-limit 0 to simulate)") }
            }
            if let counts { print("store: \(counts.devices) devices, \(counts.locations) locations, \(counts.comments) comments") }
        }
        if summary.errors == summary.reports, summary.reports > 0 { throw ExitCode(1) }
    }
}

/// `quintet crowd stats`: devices, locations and comments in a data folder's store.
struct CrowdStats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print how many devices, locations and comments the Crowd's SQLite store holds."
    )

    @OptionGroup var dataOptions: DataOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let folder = dataOptions.directory
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(CrowdBackend.sqliteFileName).path) else {
            throw ValidationError("no Crowd store in \(folder.path) (\(CrowdBackend.sqliteFileName) is made by `quintet serve` or `quintet crowd simulate --data`)")
        }
        let backend = try CrowdBackend.sqlite(dataDirectory: folder, settings: CrowdSettings())
        let counts = try await backend.counts() ?? CrowdCounts(devices: 0, locations: 0, comments: 0)
        await backend.close()
        if json {
            try printJSON(counts)
        } else {
            print("devices: \(counts.devices)\nlocations: \(counts.locations)\ncomments: \(counts.comments)")
        }
    }
}

/// A progress line: rewritten in place on a terminal, plain lines otherwise (CI logs).
final class ProgressLine: Sendable {
    private let terminal = isatty(STDERR_FILENO) != 0
    private let shown = Lock(false)

    func show(_ text: String) {
        shown.withLock { shown in
            let line = terminal ? "\r\u{1B}[K" + text : text + "\n"
            FileHandle.standardError.write(Data(line.utf8))
            shown = true
        }
    }

    func finish() {
        shown.withLock { if terminal && $0 { FileHandle.standardError.write(Data("\n".utf8)) } }
    }
}
