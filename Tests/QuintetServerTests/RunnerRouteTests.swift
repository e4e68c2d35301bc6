import Cadence
import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryCore
import Logging
import QuintetServer
import Testing

@Suite("/api/runner routes", .serialized)
struct RunnerRouteTests {
    /// A CSV log (time in s, axes in g) of `seconds` of steps at `spm`, 100 Hz, phone tilted.
    static func stepLog(spm: Double, seconds: Double = 20) -> Data {
        var lines = ["time,x,y,z"]
        let f = spm / 60
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            let phase = (t * f).truncatingRemainder(dividingBy: 1)
            // A heel-strike bump at each step, a stronger one every other step (left/right).
            let step = Int(t * f) % 2 == 0 ? 0.5 : 0.4
            let vertical = 1 + step * exp(-pow((phase - 0.1) / 0.06, 2)) - 0.1 * sin(2 * .pi * phase)
            lines.append(String(format: "%.3f,%.4f,%.4f,%.4f", t, vertical * 0.6, vertical * 0.8, 0.0))
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    static func error(_ response: TestResponse) throws -> ErrorBody {
        try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
    }

    @Test("POST /api/runner/cadence answers exactly what quintet cadence --json prints")
    func cadence() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        let log = Self.stepLog(spm: 168)
        try await Application(router: router).test(.router) { client in
            for method in CadenceMethod.allCases {
                try await client.execute(uri: "/api/runner/cadence?method=\(method.rawValue)", method: .post,
                                         body: ByteBuffer(bytes: log)) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                    let expected = method.estimator.analyze(try SensorLog.parse(log)).timelineJSON
                    #expect(String(buffer: response.body) == expected)
                }
            }
            try await client.execute(uri: "/api/runner/cadence", method: .post, body: ByteBuffer(bytes: log)) { response in
                struct Doc: Decodable {
                    struct Entry: Decodable { let t: Double; let spm: Double?; let confidence: Double; let state: String }
                    let cadence: Double?; let timeline: [Entry]
                }
                let doc = try JSONDecoder().decode(Doc.self, from: Data(buffer: response.body))
                let cadence = try #require(doc.cadence)
                #expect(abs(cadence - 168) < 2)
                #expect(doc.timeline.count >= 18 && doc.timeline.contains { $0.state == "running" })
            }
        }
    }

    @Test("a malformed log, an empty body or an unknown method is a 400 that says why")
    func badLogs() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/runner/cadence", method: .post,
                                     body: ByteBuffer(string: "time,x,y,z\n0,0,0,1\n0.01,abc,0,1\n")) { response in
                #expect(response.status == .badRequest)
                let body = try Self.error(response)
                #expect(body.error.code == "invalid_log" && body.error.message.hasPrefix("line 3:"))
            }
            try await client.execute(uri: "/api/runner/cadence", method: .post, body: ByteBuffer()) { response in
                #expect(response.status == .badRequest)
                let errorBody = try Self.error(response)
                #expect(errorBody.error.message.contains("empty"))
            }
            try await client.execute(uri: "/api/runner/cadence?method=magic", method: .post,
                                     body: ByteBuffer(bytes: Self.stepLog(spm: 120, seconds: 5))) { response in
                #expect(response.status == .badRequest)
                let errorBody = try Self.error(response)
                #expect(errorBody.error.message.contains("default, thesis"))
            }
        }
    }

    @Test("a log over the upload limit is refused with 413")
    func tooLarge() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let router = QuintetApplication.makeRouter(database: try QuintetApplication.openDatabase(in: data),
                                                   webDirectory: webDirectory, maxUploadBytes: 10_000)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/runner/cadence", method: .post,
                                     body: ByteBuffer(bytes: Self.stepLog(spm: 168))) { response in
                #expect(response.status == .contentTooLarge)
                let errorBody = try Self.error(response)
                #expect(errorBody.error.message.contains("larger than"))
            }
        }
    }

    @Test("GET /api/runner/next picks the library's song for a cadence: half time, sprint, modes, fallback, exclude")
    func next() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3") // TBPM=128; the FLAC has no BPM
        struct Answer: Decodable {
            struct Song: Decodable { let id: Int64; let title: String; let artist: String; let bpm: Double?; let path: String; let stream_url: String }
            let song: Song; let target_bpm: Double; let effective_bpm: Double; let fallback: Bool; let reason: String?
        }
        let auth: HTTPFields = [.authorization: LibraryServer.basic]
        func get(_ query: String, _ check: @escaping @Sendable (TestResponse) throws -> Void) async throws {
            try await Application(router: server.router).test(.router) { client in
                try await client.execute(uri: "/api/runner/next?\(query)", method: .get, headers: auth) { try check($0) }
            }
        }
        try await Application(router: server.router).test(.router) { client in
            try await client.execute(uri: "/api/runner/next?cadence=128", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
        try await get("cadence=128") { response in
            #expect(response.status == .ok)
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(answer.song.id == mp3 && answer.song.title == "Glass River" && answer.song.artist == "The Band")
            #expect(answer.song.bpm == 128 && answer.song.path == "Band/Album/01.mp3")
            #expect(answer.song.stream_url == "/api/library/songs/\(mp3)/stream")
            #expect(answer.target_bpm == 128 && !answer.fallback && answer.reason == nil)
            #expect(!String(buffer: response.body).contains("reason"))
        }
        try await get("cadence=256") { response in // double time
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(answer.effective_bpm == 256 && !answer.fallback)
        }
        try await get("cadence=122&sprint=true") { response in // 122 × 1.05 = 128.1
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(answer.target_bpm == 128.1 && !answer.fallback)
        }
        try await get("cadence=122") { response in // 4.9 % away: the nearest, flagged
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(answer.song.id == mp3 && answer.fallback && answer.reason?.contains("±4 %") == true)
        }
        try await get("cadence=121&mode=ranges") { response in // band 120–140 holds 128
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(!answer.fallback)
        }
        try await get("cadence=150&mode=ranges") { response in
            let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
            #expect(answer.fallback && answer.reason?.contains("140–160") == true)
        }
        try await get("cadence=128&exclude=\(mp3),999") { response in
            #expect(response.status == .notFound)
            let errorBody = try Self.error(response)
            #expect(errorBody.error.code == "all_played")
        }
        for bad in ["cadence=10", "cadence=301", "cadence=abc", "", "cadence=nan", "cadence=170&mode=fastest",
                    "cadence=170&sprint=maybe", "cadence=170&exclude=1,x"] {
            try await get(bad) { response in
                #expect(response.status == .badRequest, "\(bad)")
                let errorBody = try Self.error(response)
                #expect(errorBody.error.code == "invalid_input")
            }
        }
    }

    @Test("an empty library is a 404 that says so")
    func emptyLibrary() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try QuintetApplication.openDatabase(in: data)
        let auth = Authenticator(database: database, bcryptCost: 4)
        try auth.users.create(name: "ada", password: "correct horse")
        let library = LibraryService(database: database, libraryDirectory: data.appendingPathComponent("none"),
                                     logger: Logger(label: "test"))
        let router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, library: library, auth: auth)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/runner/next?cadence=170", method: .get,
                                     headers: [.authorization: LibraryServer.basic]) { response in
                #expect(response.status == .notFound)
                let body = try Self.error(response)
                #expect(body.error.code == "empty_library" && body.error.message.contains("quintet scan"))
            }
        }
        #expect(throws: RunnerPicker.Failure.noSong(.emptyLibrary)) {
            try RunnerPicker(catalog: library.catalog).pick(cadence: 170)
        }
    }
}
