import AudioCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import QuintetServer
import QuintetStore
import Radio
import Testing

/// A server with two users and one show holding a published and a recorded episode, both
/// real ffmpeg-made MP3 files imported through the store.
struct RadioServer: @unchecked Sendable {
    let data: URL
    let database: QuintetDatabase
    let radio: RadioStore
    let router: Router<QuintetRequestContext>
    let show: RadioShow
    let published: RadioEpisode
    let recorded: RadioEpisode
    static let owner = "Basic " + Data("host:correct horse".utf8).base64EncodedString()
    static let stranger = "Basic " + Data("guest:correct horse".utf8).base64EncodedString()

    init(publicURL: String? = nil) throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-radio-routes-\(UUID().uuidString)")
        database = try QuintetApplication.openDatabase(in: data)
        let auth = Authenticator(database: database, bcryptCost: 4)
        let host = try auth.users.create(name: "host", password: "correct horse")
        try auth.users.create(name: "guest", password: "correct horse")
        radio = RadioStore(database: database, decoder: AudioFileDecoder())
        show = try radio.createShow(owner: host.id!, .init(title: "Night & Day <Live>", description: "Talk & music",
                                                           explicit: true, publishAutomatically: false))
        let tone = data.appendingPathComponent("tone.mp3")
        try FFmpegDecoder().run(["-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                                 "-c:a", "libmp3lame", "-b:a", "128k", tone.path])
        published = try radio.importEpisode(showID: show.id!, file: tone, title: "Aired", publish: true, computePeaks: true)
        recorded = try radio.importEpisode(showID: show.id!, file: tone, title: "Not yet", computePeaks: false)
        router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, auth: auth, publicURL: publicURL)
    }

    func remove() {
        try? database.close()
        try? FileManager.default.removeItem(at: data)
    }

    var fileBytes: [UInt8] { Array((try? Data(contentsOf: radio.fileURL(of: published))) ?? Data()) }
    func listens(_ episode: RadioEpisode) throws -> Int { try radio.episode(id: episode.id!)!.listens }
}

@Suite("Radio podcast routes", .serialized)
struct RadioRoutesTests {
    static func json(_ response: TestResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(buffer: response.body))
    }

    static func ids(_ response: TestResponse) throws -> [Int] {
        try #require(try json(response) as? [[String: Any]]).compactMap { $0["id"] as? Int }
    }

    @Test("shows: list and one, without the stream key; bad ids 400, unknown 404")
    func shows() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/radio/shows", method: .get) { response in
                #expect(response.status == .ok)
                #expect(!String(buffer: response.body).contains(s.show.streamKey))
                let list = try #require(try Self.json(response) as? [[String: Any]])
                #expect(list.count == 1)
                #expect(list[0]["mount"] as? String == s.show.mount)
                #expect(list[0]["owner"] as? String == "host")
                #expect(list[0]["episode_count"] as? Int == 1)
                #expect(list[0]["feed_url"] as? String == "http://localhost/radio/feeds/\(s.show.id!).xml")
                #expect(list[0]["stream_key"] == nil)
            }
            try await client.execute(uri: "/api/radio/shows/\(s.show.id!)", method: .get) { response in
                #expect(response.status == .ok)
                let one = try #require(try Self.json(response) as? [String: Any])
                #expect(one["title"] as? String == "Night & Day <Live>" && one["explicit"] as? Bool == true)
                #expect(!String(buffer: response.body).contains(s.show.streamKey))
            }
            for bad in ["abc", "0", "-3", "99999999999999999999"] {
                try await client.execute(uri: "/api/radio/shows/\(bad)", method: .get) { #expect($0.status == .badRequest) }
                try await client.execute(uri: "/api/radio/episodes/\(bad)", method: .get) { #expect($0.status == .badRequest) }
                try await client.execute(uri: "/radio/episodes/\(bad).mp3", method: .get) { #expect($0.status == .badRequest) }
                try await client.execute(uri: "/radio/feeds/\(bad).xml", method: .get) { #expect($0.status == .badRequest) }
            }
            try await client.execute(uri: "/api/radio/shows/77", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/radio/episodes/77", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/radio/episodes/77.mp3", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/radio/feeds/77.xml", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/radio/episodes?show=77", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/radio/episodes?show=x", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/radio/episodes?limit=0", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/radio/episodes?limit=501", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @Test("unpublished episodes are hidden from everyone but their owner")
    func visibility() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/radio/episodes", method: .get) { response in
                let got = try Self.ids(response)
                #expect(got == [Int(s.published.id!)])
            }
            try await client.execute(uri: "/api/radio/episodes?show=\(s.show.id!)&limit=10", method: .get,
                                     headers: [.authorization: RadioServer.stranger]) { response in
                let got = try Self.ids(response)
                #expect(got == [Int(s.published.id!)])
            }
            try await client.execute(uri: "/api/radio/episodes", method: .get, headers: [.authorization: RadioServer.owner]) { response in
                let got = try Self.ids(response)
                #expect(Set(got) == [Int(s.published.id!), Int(s.recorded.id!)])
            }
            try await client.execute(uri: "/api/radio/episodes?limit=1", method: .get, headers: [.authorization: RadioServer.owner]) { response in
                let got = try Self.ids(response)
                #expect(got.count == 1)
            }
            for path in ["/api/radio/episodes/\(s.recorded.id!)", "/radio/episodes/\(s.recorded.id!).mp3"] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .notFound) }
                try await client.execute(uri: path, method: .get, headers: [.authorization: RadioServer.stranger]) {
                    #expect($0.status == .notFound)
                }
                try await client.execute(uri: path, method: .get, headers: [.authorization: RadioServer.owner]) {
                    #expect($0.status == .ok)
                }
            }
            try await client.execute(uri: "/api/radio/episodes/\(s.published.id!)", method: .get) { response in
                #expect(response.status == .ok)
                let one = try #require(try Self.json(response) as? [String: Any])
                #expect(one["state"] as? String == "published")
                #expect(one["audio_url"] as? String == "/radio/episodes/\(s.published.id!).mp3")
                #expect(abs((one["duration"] as? Double ?? 0) - s.published.duration) < 1e-9)
                let peaks = try #require(one["peaks"] as? [String: Any])
                #expect((peaks["maxima"] as? [Any])?.count == RadioStore.waveformBuckets)
            }
            // The feed lists only the published episode.
            try await client.execute(uri: "/radio/feeds/\(s.show.id!).xml", method: .get) { response in
                let xml = String(buffer: response.body)
                #expect(xml.contains(s.published.guid) && !xml.contains(s.recorded.guid))
            }
        }
    }

    @Test("downloads: whole file, 206 with the exact bytes, 416, HEAD, If-Range; listens counted once per download")
    func downloads() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let bytes = s.fileBytes
        let size = bytes.count
        #expect(size > 1000)
        let path = "/radio/episodes/\(s.published.id!).mp3"
        try await Application(router: s.router).test(.router) { client in
            var etag = ""
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "audio/mpeg")
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.headers[.contentLength] == String(size))
                #expect(response.headers[.lastModified] != nil)
                etag = try #require(response.headers[.eTag])
                #expect(Array(buffer: response.body) == bytes)
            }
            #expect(try s.listens(s.published) == 1)
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=100-199"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 100-199/\(size)")
                #expect(response.headers[.contentLength] == "100")
                #expect(Array(buffer: response.body) == Array(bytes[100...199]))
            }
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=-50"]) { response in
                #expect(response.status == .partialContent)
                #expect(Array(buffer: response.body) == Array(bytes[(size - 50)...]))
            }
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=0-1"]) { response in
                #expect(response.status == .partialContent)
                #expect(Array(buffer: response.body) == Array(bytes[0...1]))
            }
            // Neither a later range nor the 2-byte probe is a new listen.
            #expect(try s.listens(s.published) == 1)
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=0-"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 0-\(size - 1)/\(size)")
                #expect(Array(buffer: response.body) == bytes)
            }
            #expect(try s.listens(s.published) == 2)
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=\(size)-"]) { response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(size)")
            }
            try await client.execute(uri: path, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(size))
                #expect(response.body.readableBytes == 0)
            }
            // If-Range with a stale validator: the whole file, not the range.
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=10-19", .ifRange: "\"stale\""]) { response in
                #expect(response.status == .ok && response.body.readableBytes == size)
            }
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=10-19", .ifRange: etag]) { response in
                #expect(response.status == .partialContent && Array(buffer: response.body) == Array(bytes[10...19]))
            }
            #expect(try s.listens(s.published) == 3)
            // Several ranges: the whole file with 200 (ByteRangeAnswer's rule, as for library songs),
            // which is a download from byte 0.
            try await client.execute(uri: path, method: .get, headers: [.range: "bytes=0-9,20-29"]) { response in
                #expect(response.status == .ok && Array(buffer: response.body) == bytes)
                #expect(response.headers[.contentRange] == nil)
            }
            #expect(try s.listens(s.published) == 4)
            try await client.execute(uri: "/radio/episodes/\(s.published.id!).aac", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("the feed is well-formed RSS with absolute enclosure URLs from the Host or the public URL")
    func feed() async throws {
        let s = try RadioServer(publicURL: "https://radio.example.org/")
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/radio/feeds/\(s.show.id!).xml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/rss+xml") == true)
                let data = Data(buffer: response.body)
                let collector = FeedCollector()
                let parser = XMLParser(data: data)
                parser.delegate = collector
                parser.shouldProcessNamespaces = false
                #expect(parser.parse(), "parse error: \(String(describing: parser.parserError))")
                #expect(collector.enclosures == [["url": "https://radio.example.org/radio/episodes/\(s.published.id!).mp3",
                                                  "length": String(s.published.size), "type": "audio/mpeg"]])
                #expect(collector.texts["title"]?.first == "Night & Day <Live>")
                #expect(collector.texts["itunes:explicit"]?.first == "true")
                #expect(collector.texts["itunes:author"]?.first == "host")
                #expect(collector.texts["guid"] == [s.published.guid])
            }
        }
    }
}

/// Collects enclosure attributes and element texts of a feed.
private final class FeedCollector: NSObject, XMLParserDelegate, @unchecked Sendable {
    var enclosures: [[String: String]] = []
    var texts: [String: [String]] = [:]
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "enclosure" { enclosures.append(attributes) }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        texts[name, default: []].append(text.trimmingCharacters(in: .whitespacesAndNewlines))
        text = ""
    }
}
