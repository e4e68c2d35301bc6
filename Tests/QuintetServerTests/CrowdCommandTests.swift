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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
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
        var crowd = CrowdSimulation(devices: 2000, area: .init(lat: 45.4642, lon: 9.19, radius: 1000), hotspots: 400, seed: 7)
        let first = crowd.round(0)[0]
        _ = try await backend.service.report(first.report(device: keys.key(for: crowd.token(0))), now: Date())
        #expect(try await backend.counts()?.devices == 2000)
        await backend.close()
        let missing = try await Self.quintet(["crowd", "stats", "--data", data.appendingPathComponent("none").path])
        #expect(missing.status != 0 && missing.err.contains("no Crowd store"))
    }
}
