import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import QuintetServer
import QuintetStore
import Radio
import Testing

/// Sharing over HTTP (issue 24 §2, §3): the share pages, oEmbed, the OPML of followed shows,
/// and the shows as Subsonic podcasts, on a real database with ffmpeg-made episodes
/// (``RadioServer``: a published and a recorded episode of "Night & Day <Live>").
@Suite("Radio sharing routes", .serialized)
struct RadioShareRouteTests {
    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// The `<meta>` tags of a page: property or name → content, the entities undone.
    static func metaTags(_ html: String) -> [String: String] {
        var tags: [String: String] = [:]
        let pattern = try! NSRegularExpression(pattern: #"<meta (property|name)="([^"]+)" content="([^"]*)">"#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let value = String(html[Range(match.range(at: 3), in: html)!])
            tags[String(html[Range(match.range(at: 2), in: html)!])] = value
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        return tags
    }

    static func delete(show: Int64? = nil, episode: Int64? = nil, in s: RadioServer) throws {
        try s.database.pool.write { db in
            if let show { try db.execute(sql: "UPDATE radio_shows SET deleted_at = ? WHERE id = ?", arguments: [Date(), show]) }
            if let episode { try db.execute(sql: "UPDATE radio_episodes SET deleted_at = ? WHERE id = ?", arguments: [Date(), episode]) }
        }
    }

    @Test("share pages carry escaped OpenGraph and Twitter tags with absolute URLs; unpublished or deleted → 404 page")
    func sharePages() async throws {
        let s = try RadioServer(publicURL: "https://radio.example/")
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            let episode = try await client.execute(uri: "/radio/e/\(s.published.id!)", method: .get) { $0 }
            #expect(episode.status == .ok && episode.headers[.contentType] == "text/html; charset=utf-8")
            let html = Self.text(episode)
            let tags = Self.metaTags(html)
            #expect(tags["og:title"] == "Aired" && tags["og:description"] == "Night & Day <Live>")
            #expect(tags["og:url"] == "https://radio.example/radio/e/\(s.published.id!)")
            #expect(tags["og:audio"] == "https://radio.example/radio/episodes/\(s.published.id!).mp3")
            #expect(tags["twitter:card"] == "player")
            #expect(tags["twitter:player"] == "https://radio.example/radio/embed/?episode=\(s.published.id!)")
            #expect(html.contains("https://radio.example/api/oembed?url=https%3A%2F%2Fradio.example%2Fradio%2Fe%2F\(s.published.id!)&amp;format=json"))
            #expect(html.contains("url=https://radio.example/radio/show/?id=\(s.show.id!)"))

            let show = try await client.execute(uri: "/radio/s/\(s.show.id!)", method: .get) { $0 }
            #expect(show.status == .ok)
            let showTags = Self.metaTags(Self.text(show))
            #expect(showTags["og:title"] == "Night & Day <Live>" && showTags["twitter:card"] == "summary")
            #expect(Self.text(show).contains("Night &amp; Day &lt;Live&gt;") && !Self.text(show).contains("<Live>"))

            for uri in ["/radio/e/\(s.recorded.id!)", "/radio/e/999", "/radio/s/999", "/radio/e/abc", "/radio/s/-1"] {
                let missing = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(missing.status == .notFound, "\(uri)")
                #expect(missing.headers[.contentType] == "text/html; charset=utf-8")
            }
            try Self.delete(episode: s.published.id!, in: s)
            #expect(try await client.execute(uri: "/radio/e/\(s.published.id!)", method: .get) { $0.status } == .notFound)
            try Self.delete(show: s.show.id!, in: s)
            #expect(try await client.execute(uri: "/radio/s/\(s.show.id!)", method: .get) { $0.status } == .notFound)
        }
    }

    @Test("oEmbed: a rich iframe answer within maxwidth; xml 501; foreign or deleted 404; bad input 400")
    func oEmbed() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            let link = "http://localhost/radio/e/\(s.published.id!)"
            let encoded = link.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let ok = try await client.execute(uri: "/api/oembed?url=\(encoded)&format=json&maxwidth=320", method: .get) { $0 }
            #expect(ok.status == .ok && ok.headers[.contentType]?.hasPrefix("application/json") == true)
            let body = try Self.json(ok)
            #expect(body["type"] as? String == "rich" && body["version"] as? String == "1.0")
            #expect(body["title"] as? String == "Aired" && body["author_name"] as? String == "host")
            #expect(body["provider_name"] as? String == "Quintet")
            #expect(body["author_url"] as? String == "http://localhost/radio/s/\(s.show.id!)")
            #expect(body["width"] as? Int == 320 && body["height"] as? Int == OEmbed.defaultHeight)
            let html = try #require(body["html"] as? String)
            #expect(html.hasPrefix(#"<iframe src="http://localhost/radio/embed/?episode=\#(s.published.id!)" width="320""#))

            let show = "http://localhost/radio/s/\(s.show.id!)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let showAnswer = try await client.execute(uri: "/api/oembed?url=\(show)", method: .get) { try Self.json($0) }
            #expect(showAnswer["title"] as? String == "Night & Day <Live>")
            #expect((showAnswer["html"] as? String)?.contains("/radio/embed/?show=\(s.show.id!)") == true)
            #expect((showAnswer["html"] as? String)?.contains("title=\"Night &amp; Day &lt;Live&gt;\"") == true)

            let cases: [(String, HTTPResponse.Status)] = [
                ("/api/oembed?url=\(encoded)&format=xml", .notImplemented),
                ("/api/oembed?url=\("https://elsewhere.example/radio/e/1".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", .notFound),
                ("/api/oembed?url=\("http://localhost/library/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", .notFound),
                ("/api/oembed?url=\("http://localhost/radio/e/\(s.recorded.id!)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", .notFound),
                ("/api/oembed", .badRequest),
                ("/api/oembed?url=not%20a%20url", .badRequest),
                ("/api/oembed?url=\(encoded)&maxwidth=-3", .badRequest),
                ("/api/oembed?url=\(encoded)&maxheight=tall", .badRequest),
            ]
            for (uri, status) in cases {
                let response = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(response.status == status, "\(uri): \(Self.text(response))")
                #expect((try Self.json(response)["error"] as? [String: Any])?["message"] is String)
            }
            try RadioShareRouteTests.delete(show: s.show.id!, in: s)
            #expect(try await client.execute(uri: "/api/oembed?url=\(encoded)", method: .get) { $0.status } == .notFound)
        }
    }

    @Test("following.opml: signed in only; the followed, non-deleted shows, escaped")
    func opml() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let hostile = try s.radio.createShow(owner: 1, .init(title: #"Bad "<outline>" & co"#))
        let deleted = try s.radio.createShow(owner: 1, .init(title: "Deleted one"))
        let guest = try #require(try UserStore(database: s.database).find(name: "guest"))
        try await s.database.pool.write { db in
            for show in [s.show.id!, hostile.id!, deleted.id!] {
                try db.execute(sql: "INSERT INTO radio_show_follows (follower_id, show_id, created_at) VALUES (?, ?, ?)",
                               arguments: [guest.id!, show, Date()])
            }
        }
        try Self.delete(show: deleted.id!, in: s)
        try await Application(router: s.router).test(.router) { client in
            #expect(try await client.execute(uri: "/api/radio/following.opml", method: .get) { $0.status } == .unauthorized)
            let mine = try await client.execute(uri: "/api/radio/following.opml", method: .get,
                                                headers: [.authorization: RadioServer.stranger]) { $0 }
            #expect(mine.status == .ok && mine.headers[.contentType] == "text/x-opml; charset=utf-8")
            let xml = Self.text(mine)
            let elements = try XMLElements(xml)
            let outlines = elements.all("outline")
            #expect(outlines.map { $0["title"] } == [#"Bad "<outline>" & co"#, "Night & Day <Live>"])
            #expect(outlines.allSatisfy { $0["type"] == "rss" && $0["text"] == $0["title"] })
            #expect(outlines[1]["xmlUrl"] == "http://localhost/radio/feeds/\(s.show.id!).xml")
            #expect(outlines[1]["htmlUrl"] == "http://localhost/radio/show/?id=\(s.show.id!)")
            #expect(!xml.contains("Deleted one"))
            let owners = try await client.execute(uri: "/api/radio/following.opml", method: .get,
                                                  headers: [.authorization: RadioServer.owner]) { Self.text($0) }
            #expect(try XMLElements(owners).all("outline").isEmpty)
        }
    }

    @Test("Subsonic: shows as podcast channels, newest episodes, one episode, its bytes by streamId; deleted hidden; writes refused")
    func subsonicPodcasts() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let music = s.data.appendingPathComponent("empty-music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let library = LibraryService(database: s.database, libraryDirectory: music, logger: Logger(label: "test"), analyzesBPM: false)
        let router = QuintetApplication.makeRouter(database: s.database, webDirectory: webDirectory, library: library,
                                                   auth: Authenticator(database: s.database, bcryptCost: 4),
                                                   publicURL: "https://radio.example")
        let gone = try s.radio.createShow(owner: 1, .init(title: "Gone"))
        try Self.delete(show: gone.id!, in: s)
        let auth = "u=host&p=correct+horse&v=1.16.1&c=tests"
        try await Application(router: router).test(.router) { client in
            func call(_ endpoint: String, _ query: String = "", json: Bool = true) async throws -> TestResponse {
                try await client.execute(uri: "/rest/\(endpoint)?\(auth)\(json ? "&f=json" : "")\(query)", method: .get) { $0 }
            }
            func body(_ response: TestResponse) throws -> [String: Any] {
                try #require(try Self.json(response)["subsonic-response"] as? [String: Any])
            }
            let pid = "pe-\(s.published.id!)", cid = "pc-\(s.show.id!)"
            let podcasts = try body(try await call("getPodcasts"))
            let channels = try #require((podcasts["podcasts"] as? [String: Any])?["channel"] as? [[String: Any]])
            #expect(channels.map { $0["id"] as? String } == [cid])
            #expect(channels[0]["url"] as? String == "https://radio.example/radio/feeds/\(s.show.id!).xml")
            #expect(channels[0]["title"] as? String == "Night & Day <Live>" && channels[0]["status"] as? String == "completed")
            let episodes = try #require(channels[0]["episode"] as? [[String: Any]])
            #expect(episodes.map { $0["id"] as? String } == [pid])  // the recorded one is not public
            #expect(episodes[0]["streamId"] as? String == pid && episodes[0]["channelId"] as? String == cid)
            #expect(episodes[0]["title"] as? String == "Aired" && episodes[0]["duration"] as? Int == 2)
            #expect(episodes[0]["size"] as? Int == Int(s.published.size) && episodes[0]["suffix"] as? String == "mp3")

            let bare = try body(try await call("getPodcasts", "&includeEpisodes=false&id=\(cid)"))
            let only = try #require((bare["podcasts"] as? [String: Any])?["channel"] as? [[String: Any]])
            #expect(only.count == 1 && only[0]["episode"] == nil)
            let deleted = try body(try await call("getPodcasts", "&id=pc-\(gone.id!)"))
            #expect((deleted["error"] as? [String: Any])?["code"] as? Int == 70)

            let newest = try body(try await call("getNewestPodcasts", "&count=5"))
            #expect(((newest["newestPodcasts"] as? [String: Any])?["episode"] as? [[String: Any]])?.map { $0["id"] as? String } == [pid])
            let one = try body(try await call("getPodcastEpisode", "&id=\(pid)"))
            #expect((one["podcastEpisode"] as? [String: Any])?["title"] as? String == "Aired")
            let hidden = try body(try await call("getPodcastEpisode", "&id=pe-\(s.recorded.id!)"))
            #expect((hidden["error"] as? [String: Any])?["code"] as? Int == 70)

            let xml = try XMLElements(String(buffer: try await call("getPodcasts", json: false).body))
            #expect(xml.first("channel")?["title"] == "Night & Day <Live>" && xml.first("episode")?["streamId"] == pid)

            let stream = try await call("stream", "&id=\(pid)", json: false)
            #expect(stream.status == .ok && Array(buffer: stream.body) == s.fileBytes)
            let download = try await call("download", "&id=\(pid)", json: false)
            #expect(Array(buffer: download.body) == s.fileBytes)
            #expect(download.headers[.contentDisposition]?.contains("attachment") == true)
            let notPublic = try body(try await call("stream", "&id=pe-\(s.recorded.id!)"))
            #expect((notPublic["error"] as? [String: Any])?["code"] as? Int == 70)

            for write in ["createPodcastChannel", "refreshPodcasts", "deletePodcastChannel", "createInternetRadioStation"] {
                let refused = try body(try await call(write, "&url=http%3A%2F%2Fx&id=\(cid)"))
                #expect((refused["error"] as? [String: Any])?["code"] as? Int == 50, "\(write)")
            }
            let stations = try body(try await call("getInternetRadioStations"))
            #expect(stations["internetRadioStations"] is [String: Any])
        }
    }
}
