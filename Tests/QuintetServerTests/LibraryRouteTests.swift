import AudioCore
import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryCore
import Logging
import QuintetServer
import QuintetStore
import Testing

/// A server with a real two-song library made by ffmpeg (an MP3 with a cover, a FLAC), the
/// user `ada`, and the library service scanned and ready.
struct LibraryServer: @unchecked Sendable {
    let data: URL
    let music: URL
    let router: Router<QuintetRequestContext>
    let library: LibraryService
    /// The task running the library service (the scan, the BPM worker); `remove()` cancels it.
    let service: Task<Void, Never>
    static let basic = "Basic " + Data("ada:correct horse".utf8).base64EncodedString()

    init() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-libserver-\(UUID().uuidString)")
        data = base.appendingPathComponent("data")
        music = base.appendingPathComponent("music/Band/Album")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let ffmpeg = try FFmpegDecoder()
        try ffmpeg.run(["-y", "-f", "lavfi", "-i", "color=c=red:s=200x100", "-frames:v", "1", base.appendingPathComponent("cover.png").path])
        try ffmpeg.run(["-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-i", base.appendingPathComponent("cover.png").path,
                        "-map", "0:a", "-map", "1:v", "-c:v", "png", "-disposition:v", "attached_pic",
                        "-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "3",
                        "-metadata", "title=Glass River", "-metadata", "artist=The Band", "-metadata", "album=Album",
                        "-metadata", "TBPM=128", "-metadata", "composer=Ada", music.appendingPathComponent("01.mp3").path])
        try ffmpeg.run(["-y", "-f", "lavfi", "-i", "sine=frequency=220:duration=2", "-c:a", "flac",
                        "-metadata", "title=Glass River", "-metadata", "artist=Someone Else", "-metadata", "album=Other",
                        "-metadata", "composer=Ada", base.appendingPathComponent("music/02.flac").path])
        let database = try QuintetApplication.openDatabase(in: data)
        let auth = Authenticator(database: database, bcryptCost: 4)
        try auth.users.create(name: "ada", password: "correct horse")
        // No BPM worker: the tests want the FLAC without a BPM, as scanned.
        library = LibraryService(database: database, libraryDirectory: base.appendingPathComponent("music"),
                                 logger: Logger(label: "test"), analyzesBPM: false)
        router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, library: library, auth: auth)
        service = Task { [library] in await library.run() }
        let library = library
        // The scan of two files takes milliseconds; the deadline only guards a hang. It is long
        // because the service's task hops on the cooperative threads, which the CPU-bound suites
        // running beside it (the crowd's brute-force model, physics) hold for a minute or two.
        try await waitUntil("the library's first scan finished", timeout: .seconds(300)) {
            library.status().lastScan != nil && library.status().state == "idle"
        }
    }

    func remove() {
        service.cancel()
        try? FileManager.default.removeItem(at: data.deletingLastPathComponent())
    }

    func songID(path: String) throws -> Int64 {
        try #require(try library.catalog.song(path: path)).id
    }
}

@Suite("/api/library routes", .serialized)
struct LibraryRouteTests {
    @Test("every library route needs a user: Basic auth or the session cookie; sign-in and sign-out")
    func auth() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try await Application(router: server.router).test(.router) { client in
            try await client.execute(uri: "/api/library/stats", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            }
            // The web page asks without a browser prompt.
            try await client.execute(uri: "/api/library/stats", method: .get,
                                     headers: [.init("X-Requested-With")!: "quintet"]) { response in
                #expect(response.status == .unauthorized && response.headers[.wwwAuthenticate] == nil)
            }
            let wrong = "Basic " + Data("ada:wrong".utf8).base64EncodedString()
            try await client.execute(uri: "/api/library/stats", method: .get, headers: [.authorization: wrong]) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/library/stats", method: .get, headers: [.authorization: LibraryServer.basic]) { response in
                #expect(response.status == .ok)
                let counts = try JSONDecoder().decode(CatalogCounts.self, from: Data(buffer: response.body))
                #expect(counts.songs == 2 && counts.albums == 2 && counts.artists == 2)
            }
            try await client.execute(uri: "/api/session", method: .post,
                                     body: ByteBuffer(string: #"{"name":"ada","password":"nope"}"#)) { response in
                #expect(response.status == .unauthorized)
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(error.error.code == "invalid_credentials")
            }
            var cookie = ""
            try await client.execute(uri: "/api/session", method: .post,
                                     body: ByteBuffer(string: #"{"name":"ada","password":"correct horse"}"#)) { response in
                #expect(response.status == .ok)
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
                cookie = String(setCookie.split(separator: ";")[0])
            }
            try await client.execute(uri: "/api/library/stats", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/session", method: .get, headers: [.cookie: cookie]) { response in
                #expect(String(buffer: response.body).contains(#""name":"ada""#))
            }
            try await client.execute(uri: "/api/session", method: .delete, headers: [.cookie: cookie]) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/library/stats", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/session", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok && String(buffer: response.body) == #"{"user":null}"#)
            }
        }
    }

    @Test("scan status, songs, albums, artists, search and related songs as JSON")
    func catalog() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        let auth: HTTPFields = [.authorization: LibraryServer.basic]
        try await Application(router: server.router).test(.router) { client in
            try await client.execute(uri: "/api/library/scan", method: .get, headers: auth) { response in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(body["state"] as? String == "idle" && body["songs"] as? Int == 2 && body["files_seen"] as? Int == 2)
                #expect((body["errors"] as? [Any])?.isEmpty == true)
                #expect((body["last_scan"] as? [String: Any])?["songs"] as? Int == 2)
            }
            try await client.execute(uri: "/api/library/songs/\(mp3)", method: .get, headers: auth) { response in
                let song = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(song["path"] as? String == "Band/Album/01.mp3")
                #expect(song["title"] as? String == "Glass River" && song["artist"] as? String == "The Band")
                #expect(song["album"] as? String == "Album" && song["bpm"] as? Double == 128 && song["bpm_source"] as? String == "tag")
                #expect(abs((song["duration"] as? Double ?? 0) - 3) < 0.1)
                #expect(song["has_picture"] as? Bool == true && song["content_type"] as? String == "audio/mpeg")
                #expect(song["cover_url"] as? String == "/api/library/songs/\(mp3)/cover")
            }
            try await client.execute(uri: "/api/library/songs/\(mp3)/related", method: .get, headers: auth) { response in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [[String: Any]]])
                #expect(body["covers"]?.map { $0["id"] as? Int64 } == [flac])
                #expect(body["covers"]?.first?["path"] as? String == "02.flac")
                // The FLAC has no picture and its album no cover: no cover_url to a 404.
                #expect(body["covers"]?.first?["id"] != nil && body["covers"]?.first?["cover_url"] as? String == nil)
                #expect(body["identical"]?.isEmpty == true)
            }
            try await client.execute(uri: "/api/library/search?q=glass", method: .get, headers: auth) { response in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [Any]])
                #expect(body["songs"]?.count == 2)
            }
            // Form encoding: "+" is a space, "%2B" a plus; total counts the matches, not the catalog.
            for (query, expected) in [("glass+river", 2), ("the+band+glass", 1), ("glass%20RIVER+other", 1), ("glass%2Briver", 0)] {
                try await client.execute(uri: "/api/library/songs?q=\(query)&limit=1", method: .get, headers: auth) { response in
                    let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    #expect(body["total"] as? Int == expected, "q=\(query)")
                    #expect((body["songs"] as? [Any])?.count == min(expected, 1), "q=\(query)")
                }
            }
            try await client.execute(uri: "/api/library/artists", method: .get, headers: auth) { response in
                #expect(String(buffer: response.body).contains(#""name":"The Band""#))
            }
            try await client.execute(uri: "/api/library/songs/999999", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
            }
            // One rule for path ids: malformed → 400 naming the parameter, unknown → 404.
            for bad in ["-1", "0", "abc", "99999999999999999999"] {
                try await client.execute(uri: "/api/library/songs/\(bad)/related", method: .get, headers: auth) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: String]]
                    #expect(body?["error"]?["field"] == "id" && body?["error"]?["code"] == "invalid_input")
                }
            }
            try await client.execute(uri: "/api/library/songs?limit=abc", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/library/scan", method: .post, headers: auth) { response in
                #expect(response.status == .accepted)
            }
        }
    }

    @Test("streaming: whole file, ranges, HEAD, If-Range, 416; transcodes ffprobe can read")
    func stream() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let id = try server.songID(path: "Band/Album/01.mp3")
        let file = try Data(contentsOf: server.music.appendingPathComponent("01.mp3"))
        try await Application(router: server.router).test(.router) { client in
            var auth: HTTPFields = [.authorization: LibraryServer.basic]
            var etag = ""
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                #expect(Data(buffer: response.body) == file)
                #expect(response.headers[.contentType] == "audio/mpeg" && response.headers[.acceptRanges] == "bytes")
                etag = try #require(response.headers[.eTag])
            }
            auth[.range] = "bytes=10-19"
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(response.status == .partialContent)
                #expect(Data(buffer: response.body) == file[10...19])
                #expect(response.headers[.contentRange] == "bytes 10-19/\(file.count)")
            }
            auth[.range] = "bytes=-5"
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(Data(buffer: response.body) == file.suffix(5))
            }
            // Several ranges: the whole file (ByteRangeAnswer's rule, the same for podcast episodes).
            auth[.range] = "bytes=0-9, 20-29"
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(response.status == .ok && Data(buffer: response.body) == file)
                #expect(response.headers[.contentRange] == nil)
            }
            auth[.ifRange] = etag
            auth[.range] = "bytes=100-"
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(response.status == .partialContent && Data(buffer: response.body) == file[100...])
            }
            auth[.ifRange] = "\"stale\""
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(response.status == .ok && Data(buffer: response.body) == file)
            }
            auth[.ifRange] = nil
            auth[.range] = "bytes=\(file.count)-"
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .get, headers: auth) { response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(file.count)")
            }
            auth[.range] = nil
            try await client.execute(uri: "/api/library/songs/\(id)/stream", method: .head, headers: auth) { response in
                #expect(response.status == .ok && response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == String(file.count))
            }
            for format in ["mp3", "opus"] {
                try await client.execute(uri: "/api/library/songs/\(id)/stream?format=\(format)&bitrate=64", method: .get,
                                         headers: auth) { response in
                    #expect(response.status == .ok)
                    let out = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-transcode-\(UUID().uuidString)")
                    defer { try? FileManager.default.removeItem(at: out) }
                    try Data(buffer: response.body).write(to: out)
                    let decoded = try FFmpegDecoder().decode(out, options: DecodeOptions())
                    #expect(abs(decoded.duration - 3) < 0.2, "\(format) transcode decodes to the song's length")
                }
            }
            try await client.execute(uri: "/api/library/songs/\(id)/stream?format=wav", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/library/songs/\(id)/stream?format=mp3&bitrate=9999", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("covers: embedded originals and ffmpeg thumbnails, cached; 404 without a cover")
    func covers() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        let album = try server.library.catalog.song(id: mp3).albumID
        let auth: HTTPFields = [.authorization: LibraryServer.basic]
        try await Application(router: server.router).test(.router) { client in
            try await client.execute(uri: "/api/library/albums/\(album)/cover", method: .get, headers: auth) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                #expect(Array(Data(buffer: response.body).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            }
            for _ in 0..<2 {
                try await client.execute(uri: "/api/library/songs/\(mp3)/cover?size=50", method: .get, headers: auth) { response in
                    #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                    #expect(Array(Data(buffer: response.body).prefix(2)) == [0xFF, 0xD8])
                }
            }
            let cached = try FileManager.default.contentsOfDirectory(atPath: server.data.appendingPathComponent("cache/covers").path)
            #expect(cached.count == 1 && cached[0].hasSuffix(".jpg"))
            try await client.execute(uri: "/api/library/songs/\(flac)/cover", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/library/songs/\(mp3)/cover?size=5", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}
