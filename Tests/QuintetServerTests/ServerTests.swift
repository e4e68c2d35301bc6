import Foundation
import Hummingbird
import HummingbirdTesting
import QuintetServer
import QuintetStore
import Testing

/// The checkout's Web/ folder, found from this file's path.
let webDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Web")

/// A router over a fresh data folder, as `quintet serve` builds it.
func makeTestRouter() throws -> (Router<QuintetRequestContext>, URL) {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-server-\(UUID().uuidString)")
    let database = try QuintetApplication.openDatabase(in: data)
    return (QuintetApplication.makeRouter(database: database, webDirectory: webDirectory), data)
}

struct ErrorBody: Decodable, Equatable {
    struct Inner: Decodable, Equatable { let code: String; let message: String }
    let error: Inner
}

@Suite("Server routes")
struct ServerTests {
    @Test("/healthz answers 200 with the version and a working database")
    func health() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                #expect(body == ["status": "ok", "version": QuintetVersion.current, "database": "ok"])
            }
        }
    }

    @Test("unknown routes answer the JSON error format")
    func jsonErrors() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        router.get("boom") { _, _ -> String in throw CancellationError() }
        router.get("teapot") { _, _ -> String in throw APIError(.badRequest, code: "bad_value", message: "x must be positive") }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/no/such/route", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error.code == "not_found" && !body.error.message.isEmpty)
            }
            try await client.execute(uri: "/teapot", method: .get) { response in
                #expect(response.status == .badRequest)
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error == .init(code: "bad_value", message: "x must be positive"))
            }
            try await client.execute(uri: "/boom", method: .get) { response in
                #expect(response.status == .internalServerError)
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error.code == "internal_error")
                #expect(!body.error.message.contains("CancellationError"), "internals stay in the log")
            }
            try await client.execute(uri: "/../Package.swift", method: .get) { response in
                #expect(response.status == .badRequest || response.status == .notFound)
                #expect((try? JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))) != nil)
            }
        }
    }

    @Test("/metrics is Prometheus text with per-route request counts and latencies")
    func metrics() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/version", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                #expect(text.contains("# TYPE http_server_request_duration histogram"))
                #expect(text.contains("hb_requests{http_route=\"/api/version\""))
                let nameRule = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? -?[0-9.e+Inf-]+$/
                for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                    #expect(line.wholeMatch(of: nameRule) != nil, "not a Prometheus sample line: \(line)")
                }
            }
        }
    }

    @Test("the home page and every system page are served")
    func pages() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                // Each card leads to its system's page; the playground's to its story (issue 23).
                for entry in ["library/", "runner/", "radio/", "crowd/", "playground/story/"] {
                    #expect(html.contains("href=\"/\(entry)\""), "\(entry)")
                }
            }
            for path in ["/library/", "/runner/", "/radio/", "/crowd/", "/playground/", "/playground/story/", "/common/i18n.js", "/common/style.css"] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .ok, "\(path)") }
            }
        }
    }
}

@Suite("Web folder discovery")
struct WebRootTests {
    @Test("finds Web/ above the executable, honours an explicit folder, and says where it looked")
    func locate() throws {
        let fake = webDirectory.deletingLastPathComponent().appendingPathComponent(".build/some/quintet").path
        #expect(try WebRoot.locate(explicit: nil, executablePath: fake).path == webDirectory.standardizedFileURL.path)
        #expect(try WebRoot.locate(explicit: webDirectory.path).path == webDirectory.standardizedFileURL.path)
        #expect(throws: WebRoot.NotFound.self) { try WebRoot.locate(explicit: "/nonexistent/web") }
    }
}
