import Foundation
import Hummingbird
import HummingbirdTesting
@testable import QuintetServer
import Testing

/// The server's one outgoing HTTP client, against a real Hummingbird server on a loopback port.
@Suite("HTTPGet (outgoing GET over SwiftNIO)")
struct HTTPGetTests {
    static func server() -> some ApplicationProtocol {
        let router = Router()
        router.get("echo") { request, _ in
            // The request's header names, its Host (HTTP types keep it apart, as the authority) and
            // the query, as the server saw them.
            let names = request.headers.map { $0.name.canonicalName.lowercased() }.sorted().joined(separator: ",")
            return "\(names)|\(request.head.authority ?? "")|\(request.uri.query ?? "")"
        }
        router.get("slow") { _, _ in
            try await Task.sleep(for: .seconds(1))
            return "late"
        }
        router.get("big") { _, _ in String(repeating: "x", count: 300_000) }
        router.get("missing") { _, _ -> Response in Response(status: .notFound) }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test("a GET sends only the headers given (plus Host and Connection) and reads status and body")
    func plainGet() async throws {
        try await Self.server().test(.live) { client in
            let port = try #require(client.port)
            let answer = try await HTTPGet.fetch(URL(string: "http://127.0.0.1:\(port)/echo?lat=45.464&lon=9.190")!,
                                                 headers: [("User-Agent", "Quintet/test"), ("Accept", "application/json")])
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "accept,connection,user-agent|127.0.0.1:\(port)|lat=45.464&lon=9.190")
            let missing = try await HTTPGet.fetch(URL(string: "http://127.0.0.1:\(port)/missing")!, headers: [])
            #expect(missing.status == 404)
        }
    }

    @Test("a slow answer ends at the timeout, a large one at the byte limit, TLS to a plain port fails")
    func limits() async throws {
        try await Self.server().test(.live) { client in
            let port = try #require(client.port)
            let started = ContinuousClock.now
            await #expect(throws: HTTPGet.Failure.timeout) {
                try await HTTPGet.fetch(URL(string: "http://127.0.0.1:\(port)/slow")!, headers: [], timeout: .milliseconds(300))
            }
            #expect(ContinuousClock.now - started < .seconds(2))
            await #expect(throws: HTTPGet.Failure.tooLarge(100_000)) {
                try await HTTPGet.fetch(URL(string: "http://127.0.0.1:\(port)/big")!, headers: [], maxBytes: 100_000)
            }
            let whole = try await HTTPGet.fetch(URL(string: "http://127.0.0.1:\(port)/big")!, headers: [])
            #expect(whole.body.count == 300_000)
            // The TLS client path: a handshake with a server that speaks plain HTTP fails, quickly.
            let tlsStarted = ContinuousClock.now
            await #expect(throws: (any Error).self) {
                try await HTTPGet.fetch(URL(string: "https://127.0.0.1:\(port)/echo")!, headers: [], timeout: .seconds(3))
            }
            #expect(ContinuousClock.now - tlsStarted < .seconds(3))
        }
        await #expect(throws: HTTPGet.Failure.badURL("ftp://example.org/x")) {
            try await HTTPGet.fetch(URL(string: "ftp://example.org/x")!, headers: [])
        }
    }

    @Test("a closed port fails at once")
    func refused() async throws {
        // A port that was free a moment ago (the server is gone once `test` returns).
        let closed = try await Self.server().test(.live) { client in try #require(client.port) }
        let started = ContinuousClock.now
        await #expect(throws: (any Error).self) {
            try await HTTPGet.fetch(URL(string: "http://127.0.0.1:\(closed)/echo")!, headers: [], timeout: .seconds(3))
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }
}
