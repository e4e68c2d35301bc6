import Crowd
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import Logging
@testable import QuintetServer
import QuintetStore
import Testing

/// The whole server's router, as `quintet serve` builds it (library, crowd, live radio), over a
/// fresh data folder with an empty library.
private func fullRouter() throws -> (Router<QuintetRequestContext>, Router<QuintetWebSocketContext>, URL, LibraryService) {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-openapi-\(UUID().uuidString)")
    let music = data.appendingPathComponent("music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    let database = try QuintetApplication.openDatabase(in: data)
    let auth = Authenticator(database: database, bcryptCost: 4)
    let library = LibraryService(database: database, libraryDirectory: music, logger: Logger(label: "openapi-test"))
    let crowd = CrowdRoutes.Configuration(
        backend: try CrowdBackend.sqlite(dataDirectory: data, settings: CrowdSettings(minGroup: 1, expiry: 1800)),
        keys: try CrowdDeviceKeys(dataDirectory: data), limiter: CrowdRateLimiter(limit: 0))
    let router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, library: library,
                                               auth: auth, crowd: crowd)
    let radio = LiveRadio(directory: MemoryRadioDirectory(directory: data), logger: Logger(label: "openapi-test"))
    RadioLiveRoutes.add(to: router, radio: radio, auth: auth)
    return (router, QuintetApplication.makeWebSocketRouter(library: library, auth: auth, radio: radio), data, library)
}

/// Every `$ref` string in a JSON value.
private func references(in value: Any) -> [String] {
    switch value {
    case let object as [String: Any]:
        return object.flatMap { key, value in key == "$ref" ? [value as? String ?? "?"] : references(in: value) }
    case let array as [Any]:
        return array.flatMap(references(in:))
    default:
        return []
    }
}

@Suite("/api/openapi.json")
struct OpenAPIRouteTests {
    @Test("every registered /api route is in the document, and the document names no route the server lacks")
    func coverage() throws {
        let (router, webSocketRouter, data, _) = try fullRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        var registered = Set<String>()
        for route in router.routes where route.path.description.hasPrefix("/api/") {
            registered.insert("\(route.method) \(route.path)")
        }
        for route in webSocketRouter.routes where route.path.description.hasPrefix("/api/") {
            registered.insert("\(route.method) \(route.path)")  // the upgrade: a GET answering 101
        }
        var documented = Set<String>()
        for (path, methods) in APIDocument.operations {
            for method in methods { documented.insert("\(method) \(path)") }
        }
        #expect(registered.subtracting(documented).sorted() == [], "registered but not documented")
        #expect(documented.subtracting(registered).sorted() == [], "documented but not registered")
        #expect(registered.count > 30)
    }

    @Test("the document is OpenAPI 3.1, every path in full, the crowd's part included; served without sign-in")
    func document() async throws {
        let (router, _, data, _) = try fullRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: Any])
                #expect(paths.keys.allSatisfy { $0.hasPrefix("/api/") })
                #expect(paths["/api/crowd/reports"] != nil && paths["/api/library/songs/{id}"] != nil)
                let live = (paths["/api/runner/live"] as? [String: Any])?["get"] as? [String: Any]
                #expect((live?["responses"] as? [String: Any])?["101"] != nil)
                // Every $ref points at something the document holds.
                let components = try #require(document["components"] as? [String: [String: Any]])
                for reference in references(in: document) {
                    let parts = reference.split(separator: "/").map(String.init)  // #, components, section, name
                    #expect(parts.count == 4 && components[parts[2]]?[parts[3]] != nil, "\(reference)")
                }
            }
            // The crowd's own document stays where its clients find it.
            try await client.execute(uri: "/api/crowd/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("a documented /api path asked with another method answers 405 with Allow; other paths 404")
    func methodNotAllowed() async throws {
        let (router, _, data, _) = try fullRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/crowd/reports", method: .init("TRACE")!) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.init("Allow")!] == "POST")
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error.code == "method_not_allowed")
            }
            try await client.execute(uri: "/api/library/songs/12", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.init("Allow")!] == "GET")
            }
            try await client.execute(uri: "/api/no/such/thing", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/crowd/reports", method: .post, body: ByteBuffer(string: "{}")) {
                #expect($0.status == .badRequest)
            }
        }
    }

    @Test("one JSON convention: snake_case keys and ISO 8601 dates, from the one encoder")
    func convention() throws {
        struct Sample: Encodable { let albumArtistID: Int; let createdAt: Date; let streamURL: String }
        let response = try APIJSON.response(Sample(albumArtistID: 3, createdAt: Date(timeIntervalSince1970: 1_764_000_000),
                                                   streamURL: "/api/library/songs/1/stream"))
        let data = try APIJSON.encoder().encode(Sample(albumArtistID: 3, createdAt: Date(timeIntervalSince1970: 1_764_000_000),
                                                       streamURL: "/api/library/songs/1/stream"))
        #expect(String(decoding: data, as: UTF8.self)
            == #"{"album_artist_id":3,"created_at":"2025-11-24T16:00:00Z","stream_url":"/api/library/songs/1/stream"}"#)
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
    }

    @Test("Crowd: schema and server agree on null optional fields, the id range and the comment pattern")
    func crowdAgreement() async throws {
        let s = try await CrowdServer.make()
        try await Application(router: s.router).test(.router) { client in
            // null counts as absent, and the schema says so (every optional field is nullable).
            let body = #"{"device":"d1","lat":45.0,"lon":9.0,"age":null,"sex":null,"comment":null,"radius":null,"min":null,"max":null,"limit":null}"#
            try await client.execute(uri: "/api/crowd/reports", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: body)) { #expect($0.status == .ok) }
            // The schema's maximum is the largest id the server reads; one more is a 400.
            try await client.execute(uri: "/api/crowd/locations/9223372036854775807", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/crowd/locations/9223372036854775808", method: .get) { #expect($0.status == .badRequest) }
        }
        await s.remove()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(CrowdOpenAPI.document)) as? [String: Any])
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let comment = ((schemas?["Report"] as? [String: Any])?["properties"] as? [String: Any])?["comment"] as? [String: Any]
        let pattern = try NSRegularExpression(pattern: try #require(comment?["pattern"] as? String))
        for text in ["plain text", "a<b", "a>b", "\u{0}", "tab\there", "line\nbreak", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}",
                     "\u{A0}nbsp", "🎉👍🏽 café", "&lt;fine&gt;", "ends with a newline\n", "ends with NEL\u{85}"] {
            let schemaAccepts = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            let serverAccepts = (try? CrowdRules.validate(comment: text)) != nil
            #expect(schemaAccepts == serverAccepts, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
