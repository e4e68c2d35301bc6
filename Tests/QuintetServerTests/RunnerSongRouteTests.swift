import AudioCore
import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryCore
import QuintetServer
import QuintetStore
import Testing

/// The BPM override (`PUT /api/library/songs/{id}/bpm`), the never-while-running list
/// (`/api/runner/never`) and the runner's song list (`GET /api/runner/songs`), over
/// ``LibraryServer``'s real two-song library (an MP3 tagged 128 BPM, a FLAC without a BPM).
@Suite("BPM override and the runner's song lists", .serialized)
struct RunnerSongRouteTests {
    struct Song: Decodable {
        let id: Int64; let title: String; let bpm: Double?; let bpm_source: String?; let analysed_bpm: Double?
    }
    struct RunnerSong: Decodable {
        let id: Int64; let title: String; let artist: String; let album: String; let bpm: Double
        let bpm_source: String; let never: Bool
    }
    struct Songs<Item: Decodable>: Decodable { let songs: [Item] }
    struct Refusal: Decodable {
        struct Inner: Decodable { let code: String; let message: String; let field: String? }
        let error: Inner
    }

    static let ada: HTTPFields = [.authorization: LibraryServer.basic]
    static let bob: HTTPFields = [.authorization: "Basic " + Data("bob:battery staple".utf8).base64EncodedString()]

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }

    static func put(_ client: some TestClientProtocol, _ id: Int64, _ body: String,
                    headers: HTTPFields = ada) async throws -> TestResponse {
        var fields = headers
        fields[.contentType] = "application/json"
        return try await client.execute(uri: "/api/library/songs/\(id)/bpm", method: .put, headers: fields,
                                        body: ByteBuffer(string: body)) { $0 }
    }

    static func song(_ client: some TestClientProtocol, _ id: Int64) async throws -> Song {
        try await client.execute(uri: "/api/library/songs/\(id)", method: .get, headers: ada) { try decode(Song.self, $0) }
    }

    /// Subsonic's `bpm` of a song (an integer).
    static func subsonicBPM(_ client: some TestClientProtocol, _ id: Int64) async throws -> Int? {
        try await client.execute(uri: "/rest/getSong?u=ada&p=correct+horse&v=1.16.1&c=tests&f=json&id=tr-\(id)", method: .get) { response in
            let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let song = (object?["subsonic-response"] as? [String: Any])?["song"] as? [String: Any]
            return song?["bpm"] as? Int
        }
    }

    @Test("an override is stored apart from the tag, survives a rescan and an analysis, and null returns to the tag")
    func override() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        try await Application(router: server.router).test(.router) { client in
            let set = try await Self.put(client, mp3, #"{"bpm": 171.5}"#)
            #expect(set.status == .ok)
            let answer = try Self.decode(Song.self, set)
            #expect(answer.id == mp3 && answer.bpm == 171.5 && answer.bpm_source == "override" && answer.analysed_bpm == 128)
            let stored = try await Self.song(client, mp3)
            #expect(stored.bpm == 171.5 && stored.bpm_source == "override" && stored.analysed_bpm == 128)
            #expect(try await Self.subsonicBPM(client, mp3) == 172)
            // The matcher plays the song at its override: 171.5 fits 171.5 spm (128 would be 25 % off).
            try await client.execute(uri: "/api/runner/next?cadence=171.5", method: .get, headers: Self.ada) { response in
                let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(object?["fallback"] as? Bool == false)
                #expect((object?["song"] as? [String: Any])?["bpm"] as? Double == 171.5)
            }

            // Hostile bodies: 400 naming the field (413 for a large one), and nothing changes.
            let bad: [(String, String)] = [
                (#"{"bpm": "fast"}"#, "bpm"), (#"{"bpm": "171"}"#, "bpm"), (#"{"bpm": true}"#, "bpm"), (#"{"bpm": 1e309}"#, "bpm"),
                (#"{"bpm": 29.9}"#, "bpm"), (#"{"bpm": 300.1}"#, "bpm"), (#"{"bpm": -120}"#, "bpm"), (#"{"bpm": [171]}"#, "bpm"),
                (#"{"tempo": 171}"#, "bpm"), (#"{}"#, "bpm"), (#"[]"#, "body"), (#"171"#, "body"), (#"{"bpm": NaN}"#, "body"),
                ("not json", "body"), ("", "body"),
            ]
            for (body, field) in bad {
                let response = try await Self.put(client, mp3, body)
                #expect(response.status == .badRequest, "\(body)")
                let refusal = try Self.decode(Refusal.self, response)
                #expect(refusal.error.code == "invalid_input" && refusal.error.field == field, "\(body): \(refusal.error)")
                #expect(refusal.error.message.contains("30") && refusal.error.message.contains("300"), "\(body)")
            }
            let large = try await Self.put(client, mp3, #"{"bpm": 150, "pad": ""# + String(repeating: "x", count: 1_000_000) + #""}"#)
            #expect(large.status == .contentTooLarge)
            #expect(try await Self.song(client, mp3).bpm == 171.5)
            #expect(try await Self.put(client, 999_999, #"{"bpm": 150}"#).status == .notFound)
            #expect(try await Self.put(client, mp3, #"{"bpm": 150}"#, headers: [:]).status == .unauthorized)
            try await client.execute(uri: "/api/library/songs/abc/bpm", method: .put, headers: Self.ada,
                                     body: ByteBuffer(string: #"{"bpm": 150}"#)) { #expect($0.status == .badRequest) }

            // A rescan of the changed file (now tagged 140) updates the tag's value under the override.
            let file = server.music.appendingPathComponent("01.mp3")
            try FFmpegDecoder().run(["-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "libmp3lame",
                                     "-metadata", "title=Glass River", "-metadata", "artist=The Band", "-metadata", "album=Album",
                                     "-metadata", "TBPM=140", file.path])
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file.path)
            try CatalogScanner(catalog: server.library.catalog).scan(root: server.music.deletingLastPathComponent().deletingLastPathComponent())
            let rescanned = try await Self.song(client, mp3)
            #expect(rescanned.bpm == 171.5 && rescanned.bpm_source == "override" && rescanned.analysed_bpm == 140)

            // The BPM worker analyses a song under an override without touching the override.
            #expect(try await Self.put(client, flac, #"{"bpm": 95}"#).status == .ok)
            let queue = BPMQueue(catalog: server.library.catalog)
            #expect(try queue.analyzeNext() == flac)
            #expect(try queue.status().pending == 0)
            let analysed = try await Self.song(client, flac)
            #expect(analysed.bpm == 95 && analysed.bpm_source == "override")

            // null: back to the tag's value, everywhere.
            let reset = try Self.decode(Song.self, try await Self.put(client, mp3, #"{"bpm": null}"#))
            #expect(reset.bpm == 140 && reset.bpm_source == "tag" && reset.analysed_bpm == 140)
            #expect(try await Self.song(client, mp3).bpm_source == "tag")
            #expect(try await Self.subsonicBPM(client, mp3) == 140)
        }
    }

    @Test("the never list is per user and the matcher honours it; the runner's songs sort and say never")
    func neverList() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try UserStore(database: server.library.catalog.database, cost: 4).create(name: "bob", password: "battery staple")
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        try await Application(router: server.router).test(.router) { client in
            func runnerSongs(_ query: String, _ headers: HTTPFields = Self.ada) async throws -> [RunnerSong] {
                try await client.execute(uri: "/api/runner/songs\(query)", method: .get, headers: headers) { response in
                    #expect(response.status == .ok, "\(query)")
                    return try Self.decode(Songs<RunnerSong>.self, response).songs
                }
            }
            func picked(_ headers: HTTPFields) async throws -> Int64? {
                try await client.execute(uri: "/api/runner/next?cadence=128", method: .get, headers: headers) { response in
                    let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    return ((object?["song"] as? [String: Any])?["id"] as? NSNumber)?.int64Value
                }
            }
            func never(_ headers: HTTPFields) async throws -> [Int64] {
                try await client.execute(uri: "/api/runner/never", method: .get, headers: headers) { response in
                    try Self.decode(Songs<Song>.self, response).songs.map(\.id)
                }
            }
            // Only songs with a BPM are the runner's: the FLAC joins with an override.
            #expect(try await runnerSongs("").map(\.id) == [mp3])
            #expect(try await Self.put(client, flac, #"{"bpm": 100}"#).status == .ok)
            #expect(try await runnerSongs("").map(\.id) == [flac, mp3])
            #expect(try await runnerSongs("?sort=bpm&order=desc").map(\.id) == [mp3, flac])
            #expect(try await runnerSongs("?sort=artist").map(\.id) == [flac, mp3]) // Someone Else, The Band
            #expect(try await runnerSongs("?sort=artist&order=desc").map(\.id) == [mp3, flac])
            #expect(try await runnerSongs("?sort=title&order=asc").map(\.id) == [flac, mp3]) // same title: by artist
            let listed = try await runnerSongs("")
            #expect(listed[0].bpm_source == "override" && listed[1].bpm == 128 && listed[1].album == "Album")
            #expect(listed.allSatisfy { !$0.never })
            for bad in ["?sort=tempo", "?order=up", "?sort="] {
                try await client.execute(uri: "/api/runner/songs\(bad)", method: .get, headers: Self.ada) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }

            // Ada never wants the MP3 while running; Bob's runs are not affected.
            #expect(try await picked(Self.ada) == mp3)
            #expect(try await picked(Self.bob) == mp3)
            for _ in 0..<2 { // idempotent
                try await client.execute(uri: "/api/runner/never/\(mp3)", method: .put, headers: Self.ada) { #expect($0.status == .noContent) }
            }
            #expect(try await never(Self.ada) == [mp3])
            #expect(try await never(Self.bob) == [])
            #expect(try await runnerSongs("").map(\.never) == [false, true])
            #expect(try await runnerSongs("", Self.bob).map(\.never) == [false, false])
            #expect(try await picked(Self.ada) == flac) // the nearest left, a fallback
            #expect(try await picked(Self.bob) == mp3)
            try await client.execute(uri: "/api/runner/next?cadence=128&exclude=\(flac)", method: .get, headers: Self.ada) { response in
                #expect(response.status == .notFound)
            }

            for (uri, method, status) in [("/api/runner/never/999999", HTTPRequest.Method.put, HTTPResponse.Status.notFound),
                                          ("/api/runner/never/999999", .delete, .notFound), ("/api/runner/never/abc", .put, .badRequest)] {
                try await client.execute(uri: uri, method: method, headers: Self.ada) { #expect($0.status == status, "\(method) \(uri)") }
            }
            for (uri, method) in [("/api/runner/never", HTTPRequest.Method.get), ("/api/runner/never/\(mp3)", .put),
                                  ("/api/runner/never/\(mp3)", .delete), ("/api/runner/songs", .get)] {
                try await client.execute(uri: uri, method: method) { #expect($0.status == .unauthorized, "\(method) \(uri)") }
            }

            // The undo: off the list, the MP3 is Ada's pick again.
            for _ in 0..<2 {
                try await client.execute(uri: "/api/runner/never/\(mp3)", method: .delete, headers: Self.ada) { #expect($0.status == .noContent) }
            }
            #expect(try await never(Self.ada) == [])
            #expect(try await picked(Self.ada) == mp3)
        }
    }
}
