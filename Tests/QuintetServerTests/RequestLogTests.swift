import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import QuintetServer
import Testing

/// Keeps every log line (message and metadata) of one test.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return lines.joined(separator: "\n") }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?,
                 source: String, file: String, function: String, line: UInt) {
            let all = self.metadata.merging(metadata ?? [:]) { $1 }
            log.append("\(level) \(message) \(all.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))")
        }
    }
}

@Suite("Request log", .serialized)
struct RequestLogTests {
    @Test("requests are logged by method and path; query strings (Subsonic passwords, tokens) never are")
    func noQueryStrings() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let captured = CapturedLog()
        let logger = Logger(label: "test") { _ in CapturedLog.Handler(log: captured) }
        try await Application(router: server.router, logger: logger).test(.router) { client in
            try await client.execute(uri: "/rest/ping.view?u=ada&p=hunter2-secret&v=1.16.1&c=test", method: .get) { _ in }
            try await client.execute(uri: "/rest/ping.view?u=ada&t=0123456789abcdef0123456789abcdef&s=saltsalt&v=1.16.1&c=t",
                                     method: .get) { _ in }
            try await client.execute(uri: "/api/library/songs?q=private+words", method: .get) { _ in }
        }
        let text = captured.text
        #expect(text.contains("/rest/ping.view") && text.contains("/api/library/songs"))
        for secret in ["hunter2", "0123456789abcdef", "saltsalt", "private"] {
            #expect(!text.contains(secret), "\(secret) reached the log")
        }
    }
}
