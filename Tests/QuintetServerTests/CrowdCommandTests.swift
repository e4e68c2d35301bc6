import Crowd
import Foundation
import Hummingbird
import HummingbirdTesting
import QuintetServer
import Testing

/// `quintet crowd …` run as the real binary (built beside the tests).
@Suite("quintet crowd", .serialized)
struct CrowdCommandTests {
    /// The `quintet` executable of this build: next to the test runner, else `.build/debug`.
    static let binary: URL = {
        let runner = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("quintet")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            if folder.lastPathComponent.hasSuffix(".xctest") || folder.lastPathComponent == "Contents" || folder.lastPathComponent == "MacOS" {
                folder = folder.deletingLastPathComponent()
            } else {
                break
            }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/quintet")
    }()

    /// Runs the binary; answers its exit status, standard output and standard error. Output goes
    /// to files and the exit is awaited through the termination handler, so no thread of the
    /// (small) cooperative pool blocks while an in-process server must answer the binary.
    static func quintet(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the quintet binary first (swift build)")
        return try await run(binary.path, arguments)
    }

    /// Runs any executable the same way.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return (status, String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    @Test("simulate refuses bad arguments with a message naming the option", arguments: [
        (["--devices", "0", "--area", "45,9,500"], "--devices"),
        (["--devices", "10", "--area", "45,9"], "--area"),
        (["--devices", "10", "--area", "91,9,500"], "latitude"),
        (["--devices", "10", "--area", "45,9,5"], "radius"),
        (["--devices", "10", "--area", "45,9,500", "--hotspots", "11"], "--hotspots"),
        (["--devices", "10", "--area", "45,9,500", "--rounds", "0"], "--rounds"),
        (["--devices", "10", "--area", "45,9,500", "--concurrency", "0"], "--concurrency"),
        (["--devices", "10", "--area", "45,9,500", "--server", "ftp://x"], "--server"),
        (["--devices", "10", "--area", "45,9,500", "--server", "http://127.0.0.1:1", "--data", "/tmp/x"], "--data"),
        (["--area", "45,9,500"], "--devices"),
    ])
    func badArguments(arguments: [String], mention: String) async throws {
        let result = try await Self.quintet(["crowd", "simulate"] + arguments)
        #expect(result.status != 0)
        #expect(result.err.contains(mention), "\(result.err)")
    }

    @Test("simulate feeds a running server over HTTP: every report answered 200, people gathered in locations")
    func simulateOverHTTP() async throws {
        let s = try await CrowdServer.make()
        let app = Application(router: s.router)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let result = try await Self.quintet(["crowd", "simulate", "--devices", "300", "--area", "45.4642,9.19,400",
                                                 "--hotspots", "40", "--rounds", "2", "--concurrency", "4",
                                                 "--server", "http://127.0.0.1:\(port)", "--json"])
            #expect(result.status == 0, "\(result.err)")
            let output = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let summary = try #require(output["summary"] as? [String: Any])
            #expect(summary["reports"] as? Int == 600)
            #expect(summary["errors"] as? Int == 0)
            #expect((summary["statuses"] as? [String: Int]) == ["200": 600])
        }
        let counts = try await s.counts()
        #expect(counts.devices == 300)
        #expect(counts.locations >= 20 && counts.locations < 150) // about one per hotspot
        await s.remove()
    }

    @Test("simulate --data loads a stopped server's store directly; stats reads it; the server then knows the devices")
    func simulateIntoStore() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let load = try await Self.quintet(["crowd", "simulate", "--devices", "2000", "--area", "45.4642,9.19,1000",
                                           "--data", data.path, "--seed", "7"])
        #expect(load.status == 0, "\(load.err)")
        #expect(load.out.contains("2000 reports"))
        let stats = try await Self.quintet(["crowd", "stats", "--data", data.path, "--json"])
        #expect(stats.status == 0, "\(stats.err)")
        let counts = try JSONDecoder().decode(CrowdCounts.self, from: Data(stats.out.utf8))
        #expect(counts.devices == 2000)
        #expect(counts.locations > 300 && counts.locations < 450)
        // The devices were keyed with the folder's secret: the same token through the API is the same device.
        let backend = try CrowdBackend.sqlite(dataDirectory: data, settings: CrowdSettings(minGroup: 1))
        let keys = try CrowdDeviceKeys(dataDirectory: data)
        // Device 0 of seed 7 is "sim-7-0" (CrowdSimulation.token, pinned in QuintetCLITests).
        let first = CrowdReport(device: keys.key(for: "sim-7-0"), lat: 45.4642, lon: 9.19)
        _ = try await backend.service.report(first, now: Date())
        #expect(try await backend.counts()?.devices == 2000)
        await backend.close()
        let missing = try await Self.quintet(["crowd", "stats", "--data", data.appendingPathComponent("none").path])
        #expect(missing.status != 0 && missing.err.contains("no Crowd store"))
    }
}

/// `quintet serve` with the Crowd's flags, as the real binary.
@Suite("quintet serve --crowd-…", .serialized)
struct CrowdServeTests {
    @Test("serve refuses bad Crowd flags before starting", arguments: [
        (["--crowd-min-group", "0"], "--crowd-min-group"),
        (["--crowd-min-group", "1001"], "--crowd-min-group"),
        (["--crowd-expiry", "soon"], "--crowd-expiry"),
        (["--crowd-expiry", "8d"], "--crowd-expiry"),
        (["--crowd-expiry", "0s"], "--crowd-expiry"),
        (["--crowd-rate-limit", "-1"], "--crowd-rate-limit"),
        (["--crowd-database", "mysql://localhost/crowd"], "--crowd-database"),
    ])
    func badFlags(arguments: [String], mention: String) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let result = try await CrowdCommandTests.quintet(["serve", "--port", "0", "--data", data.path] + arguments)
        #expect(result.status != 0)
        #expect(result.err.contains(mention), "\(result.err)")
    }

    /// Starts `quintet serve` on a free port; answers the process and its base URL.
    static func start(_ arguments: [String], data: URL) async throws -> (Process, String) {
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let log = data.appendingPathComponent("serve.out")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = CrowdCommandTests.binary
        process.arguments = ["serve", "--port", "0", "--data", data.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["QUINTET_ADMIN_PASSWORD": "correct horse battery"]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var url: String?
        // Until the log names the address, or the process ended; a timeout is reported below.
        try? await waitUntil("quintet serve says where it listens", timeout: .seconds(30)) {
            let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: "listening on ") {
                url = String(text[range.upperBound...].prefix { $0 != " " && $0 != "\n" })
                    .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            }
            return url != nil || !process.isRunning
        }
        if let url { return (process, url) }
        process.terminate()
        throw CrowdBackendError(message: "quintet serve did not start: \(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))")
    }

    /// One HTTP request with curl (a real client on a real socket); answers status and body.
    static func curl(_ arguments: [String]) async throws -> (Int, String) {
        let result = try await CrowdCommandTests.run("/usr/bin/env", ["curl", "-s", "-w", "\n%{http_code}"] + arguments)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test("serve on each store: reports and searches over a real socket; the per-address limit uses the peer, not a header", arguments: CrowdStoreKind.allCases)
    func serve(kind: CrowdStoreKind) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var arguments = ["--crowd-rate-limit", "2", "--crowd-min-group", "1", "--crowd-expiry", "90s"]
        var schema: String?
        if kind == .postgres {
            let base = try CrowdTestPostgres.url.get()
            schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            arguments += ["--crowd-database", base + (base.contains("?") ? "&" : "?") + "schema=\(schema!)&pool=2"]
        }
        let (process, base) = try await Self.start(arguments, data: data)
        defer {
            process.terminate()
            process.waitUntilExit()
            if let schema { CrowdTestPostgres.drop(schema: schema) }
        }
        let post = ["-X", "POST", "-H", "Content-Type: application/json", "\(base)/api/crowd/reports", "--data"]
        // The limiter counts in windows aligned on the clock's minutes: the three reports below
        // must fall in one, so late in a minute wait for the next (a CI run failed when they
        // straddled 21:00:00).
        let intoMinute = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        if intoMinute > 40 { try await Task.sleep(nanoseconds: UInt64((61 - intoMinute) * 1e9)) }
        let (first, body) = try await Self.curl(post + ["{\"device\":\"one\",\"lat\":45.4642,\"lon\":9.19,\"age\":33}"])
        #expect(first == 200, "\(body)")
        #expect(body.contains("\"people\":1"))
        let (second, _) = try await Self.curl(["-H", "X-Quintet-Peer-Address: 10.9.9.9"] + post + ["{\"device\":\"two\",\"lat\":45.4642,\"lon\":9.19}"])
        #expect(second == 200)
        // A third device from the same peer (127.0.0.1), whatever header it sends, is over 2 a minute.
        let (third, error) = try await Self.curl(["-H", "X-Quintet-Peer-Address: 10.9.9.10"] + post + ["{\"device\":\"three\",\"lat\":45.4642,\"lon\":9.19}"])
        #expect(third == 429, "\(error)")
        let (status, search) = try await Self.curl(["\(base)/api/crowd/locations?lat=45.4642&lon=9.19"])
        #expect(status == 200)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(search.utf8)) as? [String: Any])
        #expect((list["locations"] as? [[String: Any]])?.first?["people"] as? Int == 2)
        let (bad, refusal) = try await Self.curl(["\(base)/api/crowd/locations?lat=nan&lon=9.19"])
        #expect(bad == 400 && refusal.contains("\"field\":\"lat\""))
        let (_, openapi) = try await Self.curl(["\(base)/api/crowd/openapi.json"])
        #expect(openapi.contains("\"openapi\": \"3.1.0\""))
    }
}
