import AudioCore
import Crypto
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import LibraryCore
@testable import QuintetServer
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The elements of an XML document, in order, with their attributes (and the namespace of
/// the root), read by Foundation's XMLParser: a real parser, so the tests see what a client sees.
final class XMLElements: NSObject, XMLParserDelegate {
    struct Element { let name: String; let attributes: [String: String]; let namespace: String? }
    private(set) var elements: [Element] = []
    private(set) var texts: [String] = []

    init(_ text: String) throws {
        super.init()
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        parser.delegate = self
        guard parser.parse() else { throw CatalogError.invalid("not well-formed XML: \(parser.parserError.map(String.init(describing:)) ?? "?")\n\(text)") }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(Element(name: name, attributes: attributes, namespace: namespaceURI))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }

    func all(_ name: String) -> [[String: String]] { elements.filter { $0.name == name }.map(\.attributes) }
    func first(_ name: String) -> [String: String]? { all(name).first }
}

@Suite("Subsonic API", .serialized)
struct SubsonicTests {
    static let auth = "u=ada&p=correct+horse&v=1.16.1&c=tests"

    struct Reply {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        /// `subsonic-response` of a JSON answer.
        func json() throws -> [String: Any] {
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(text)")
            return try #require(object["subsonic-response"] as? [String: Any])
        }
        func xml() throws -> XMLElements { try XMLElements(text) }
        func errorCode() throws -> Int? { (try json()["error"] as? [String: Any])?["code"] as? Int }
    }

    static func call(_ client: some TestClientProtocol, _ endpoint: String, _ query: String = "", auth: String = auth,
                     json: Bool = true, headers: HTTPFields = [:], method: HTTPRequest.Method = .get) async throws -> Reply {
        var parts = [auth, query]
        if json { parts.append("f=json") }
        let uri = "/rest/\(endpoint)?" + parts.filter { !$0.isEmpty }.joined(separator: "&")
        return try await client.execute(uri: uri, method: method, headers: headers) { response in
            Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }

    @Test("ping in XML (namespace, status attributes) and JSON; .view suffix; POST form with + as space")
    func ping() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try await Application(router: server.router).test(.router) { client in
            let xml = try await Self.call(client, "ping.view", json: false)
            #expect(xml.status == .ok && xml.headers[.contentType]?.hasPrefix("text/xml") == true)
            #expect(xml.text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
            let root = try #require(try xml.xml().elements.first)
            #expect(root.name == "subsonic-response" && root.namespace == "http://subsonic.org/restapi")
            #expect(root.attributes["status"] == "ok" && root.attributes["version"] == "1.16.1")
            #expect(root.attributes["type"] == "quintet" && root.attributes["openSubsonic"] == "true")
            #expect(root.attributes["serverVersion"] == QuintetVersion.current)

            let json = try await Self.call(client, "ping")
            #expect(json.headers[.contentType]?.hasPrefix("application/json") == true)
            let body = try json.json()
            #expect(body["status"] as? String == "ok" && body["version"] as? String == "1.16.1")
            #expect(body["openSubsonic"] as? Bool == true && body["type"] as? String == "quintet")

            let posted = try await client.execute(uri: "/rest/ping.view", method: .post,
                                                  headers: [.contentType: "application/x-www-form-urlencoded"],
                                                  body: ByteBuffer(string: "u=ada&p=correct+horse&f=json&c=tests")) { response in
                String(buffer: response.body)
            }
            #expect(posted.contains(#""status":"ok""#))

            let extensions = try await Self.call(client, "getOpenSubsonicExtensions", auth: "")
            let list = try #require(try extensions.json()["openSubsonicExtensions"] as? [[String: Any]])
            #expect(list.contains { $0["name"] as? String == "formPost" && ($0["versions"] as? [Int]) == [1] })
        }
    }

    @Test("auth: missing parameters → 10, every failed sign-in → 40, enc: hex and token auth work, apiKey → 42")
    func auth() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try await Application(router: server.router).test(.router) { client in
            #expect(try await Self.call(client, "ping", auth: "").errorCode() == 10)
            #expect(try await Self.call(client, "ping", auth: "u=ada").errorCode() == 10)
            #expect(try await Self.call(client, "ping", auth: "p=correct+horse").errorCode() == 10)
            #expect(try await Self.call(client, "ping", auth: "u=ada&t=abc").errorCode() == 10)
            let wrong = try await Self.call(client, "ping", auth: "u=ada&p=wrong+horse")
            let wrongStatus = try wrong.json()["status"] as? String, wrongCode = try wrong.errorCode()
            #expect(wrong.status == .ok && wrongStatus == "failed" && wrongCode == 40)
            #expect(try await Self.call(client, "ping", auth: "u=nobody&p=correct+horse").errorCode() == 40)
            let hex = Data("correct horse".utf8).map { String(format: "%02x", $0) }.joined()
            #expect(try await Self.call(client, "ping", auth: "u=ada&p=enc:\(hex)").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "ping", auth: "u=ada&p=enc:zz").errorCode() == 40)
            let salt = "c19b2d"
            let token = Insecure.MD5.hash(data: Data(("correct horse" + salt).utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(try await Self.call(client, "ping", auth: "u=ada&t=\(token)&s=\(salt)").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "ping", auth: "u=ADA&t=\(token.uppercased())&s=\(salt)").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "ping", auth: "u=ada&t=\(token)&s=other").errorCode() == 40)
            // A failed sign-in is 40 whatever the reason: an unknown name, or a user without a
            // sealed password (41 would tell that the name exists).
            #expect(try await Self.call(client, "ping", auth: "u=nobody&t=\(token)&s=\(salt)").errorCode() == 40)
            try await server.library.catalog.database.pool.write { db in
                try db.execute(sql: "UPDATE users SET password_sealed = NULL WHERE name = 'ada'")
            }
            #expect(try await Self.call(client, "ping", auth: "u=ada&t=\(token)&s=\(salt)").errorCode() == 40)
            #expect(try await Self.call(client, "ping", auth: "u=ada&p=correct+horse").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "ping", auth: "apiKey=abc").errorCode() == 42)
            // The error document is XML too when no format is asked for.
            let xml = try await Self.call(client, "ping", auth: "u=ada&p=nope", json: false).xml()
            #expect(xml.first("subsonic-response")?["status"] == "failed" && xml.first("error")?["code"] == "40")
        }
    }

    @Test("getArtists, getArtist, getAlbum, getSong: shapes with bpm and path; XML and JSON agree")
    func browse() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3")
        let song = try server.library.catalog.song(id: mp3)
        try await Application(router: server.router).test(.router) { client in
            let artists = try await Self.call(client, "getArtists").json()
            let index = try #require((artists["artists"] as? [String: Any])?["index"] as? [[String: Any]])
            let names = index.flatMap { ($0["artist"] as? [[String: Any]]) ?? [] }.compactMap { $0["name"] as? String }
            #expect(names.contains("The Band") && names.contains("Someone Else"))
            #expect(index.contains { $0["name"] as? String == "B" })
            let entries = index.flatMap { ($0["artist"] as? [[String: Any]]) ?? [] }
            // Cover art is named only where there is one (the FLAC album has none).
            #expect(entries.first { $0["name"] as? String == "The Band" }?["coverArt"] as? String == "ar-\(song.albumArtistID)")
            #expect(entries.first { $0["name"] as? String == "Someone Else" }?["coverArt"] == nil)
            let xmlArtists = try await Self.call(client, "getArtists", json: false).xml()
            #expect(xmlArtists.all("artist").compactMap { $0["name"] }.sorted() == names.sorted())

            let artist = try await Self.call(client, "getArtist", "id=ar-\(song.albumArtistID)").json()["artist"] as? [String: Any]
            #expect(artist?["name"] as? String == "The Band" && (artist?["album"] as? [[String: Any]])?.count == 1)

            let albumJSON = try #require(try await Self.call(client, "getAlbum", "id=al-\(song.albumID)").json()["album"] as? [String: Any])
            #expect(albumJSON["name"] as? String == "Album" && albumJSON["songCount"] as? Int == 1)
            #expect(albumJSON["coverArt"] as? String == "al-\(song.albumID)")
            let track = try #require((albumJSON["song"] as? [[String: Any]])?.first)
            #expect(track["id"] as? String == "tr-\(mp3)" && track["title"] as? String == "Glass River")
            #expect(track["bpm"] as? Int == 128 && track["path"] as? String == "Band/Album/01.mp3")
            #expect(track["suffix"] as? String == "mp3" && track["contentType"] as? String == "audio/mpeg")
            #expect(track["type"] as? String == "music" && track["isDir"] as? Bool == false)
            #expect(track["albumId"] as? String == "al-\(song.albumID)" && track["artistId"] as? String != nil)
            #expect(track["duration"] as? Int == 3 && track["size"] as? Int == Int(song.size) && track["created"] is String)

            // The XML form carries the same attributes with the same values.
            let albumXML = try await Self.call(client, "getAlbum", "id=al-\(song.albumID)", json: false).xml()
            let xmlTrack = try #require(albumXML.first("song"))
            for (key, value) in track where !(value is [Any]) {
                let text = "\(value)", attribute = xmlTrack[key] ?? "missing"
                let same = attribute == text || (attribute == "true" && text == "1") || (attribute == "false" && text == "0")
                #expect(same, "song attribute \(key): XML \(attribute), JSON \(text)")
            }
            #expect(albumXML.first("album")?["name"] == "Album")

            let single = try #require(try await Self.call(client, "getSong", "id=tr-\(mp3)").json()["song"] as? [String: Any])
            #expect(single["path"] as? String == "Band/Album/01.mp3" && single["bpm"] as? Int == 128)
            let flac = try server.songID(path: "02.flac")
            let other = try #require(try await Self.call(client, "getSong", "id=\(flac)").json()["song"] as? [String: Any])
            #expect(other["bpm"] is Int && other["path"] as? String == "02.flac" && other["coverArt"] == nil)

            let list = try await Self.call(client, "getAlbumList2", "type=alphabeticalByName&size=10").json()
            #expect(((list["albumList2"] as? [String: Any])?["album"] as? [[String: Any]])?.count == 2)
            for type in ["random", "newest", "frequent", "recent", "alphabeticalByArtist", "starred", "byGenre&genre=Rock",
                         "byYear&fromYear=1900&toYear=2100"] {
                #expect(try await Self.call(client, "getAlbumList2", "type=\(type)").json()["status"] as? String == "ok", "\(type)")
            }
            let random = try await Self.call(client, "getRandomSongs", "size=5").json()
            #expect(((random["randomSongs"] as? [String: Any])?["song"] as? [[String: Any]])?.count == 2)
            #expect(try await Self.call(client, "getGenres").json()["genres"] != nil)
            #expect(try await Self.call(client, "getMusicFolders").json()["musicFolders"] != nil)
            #expect(try await Self.call(client, "getIndexes", json: false).xml().all("artist").count == 2)
            let directory = try await Self.call(client, "getMusicDirectory", "id=al-\(song.albumID)").json()
            #expect(((directory["directory"] as? [String: Any])?["child"] as? [[String: Any]])?.count == 1)
            let user = try await Self.call(client, "getUser", "username=ada").json()["user"] as? [String: Any]
            #expect(user?["username"] as? String == "ada" && user?["streamRole"] as? Bool == true)
        }
    }

    @Test("search3: words match songs, albums and artists; empty query lists everything; XML form")
    func search() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try await Application(router: server.router).test(.router) { client in
            let found = try #require(try await Self.call(client, "search3", "query=glass+river").json()["searchResult3"] as? [String: Any])
            #expect((found["song"] as? [[String: Any]])?.count == 2)
            let band = try #require(try await Self.call(client, "search3", "query=band").json()["searchResult3"] as? [String: Any])
            #expect((band["artist"] as? [[String: Any]])?.first?["name"] as? String == "The Band")
            let all = try await Self.call(client, "search3", "query=%22%22&songCount=1&songOffset=1", json: false).xml()
            #expect(all.all("song").count == 1 && all.all("album").count == 2)
            let none = try await Self.call(client, "search3", "query=zzzz", json: false).xml()
            #expect(none.first("searchResult3") != nil && none.all("song").isEmpty)
        }
    }

    @Test("hostile names are escaped in XML and JSON; a real parser reads them back")
    func escaping() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3")
        let hostile = #"Mix <&"'> ]]> & co"#
        let encoded = try #require(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        try await Application(router: server.router).test(.router) { client in
            let created = try await Self.call(client, "createPlaylist", "name=\(encoded)&songId=tr-\(mp3)", json: false)
            #expect(created.text.contains("&lt;&amp;&quot;&apos;&gt;"))
            let playlist = try #require(try created.xml().first("playlist"))
            #expect(playlist["name"] == hostile)
            let json = try await Self.call(client, "getPlaylists").json()
            let lists = try #require((json["playlists"] as? [String: Any])?["playlist"] as? [[String: Any]])
            #expect(lists.first?["name"] as? String == hostile)
        }
        // The renderer on its own: control characters, tab/newline, quotes in both forms.
        var element = SubsonicElement(text: "a<b")
        element.set("name", "tab\there\nnew \u{1}bell \"q\" 'a' \\ é")
        element.add("versions", values: [.int(1), .int(2)])
        let xml = SubsonicRenderer.document(element, format: .xml)
        let parsed = try XMLElements(xml)
        #expect(parsed.first("subsonic-response")?["name"] == "tab\there\nnew \u{FFFD}bell \"q\" 'a' \\ é")
        #expect(parsed.all("versions").count == 2 && parsed.texts.joined().contains("a<b"))
        let json = SubsonicRenderer.document(element, format: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Any]])
        #expect(object["subsonic-response"]?["name"] as? String == "tab\there\nnew \u{1}bell \"q\" 'a' \\ é")
        #expect(object["subsonic-response"]?["value"] as? String == "a<b")
        #expect(object["subsonic-response"]?["versions"] as? [Int] == [1, 2])
    }

    @Test("stream: the file's bytes, ranges, transcodes ffprobe reads; download; getCoverArt with sizes")
    func media() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        let album = try server.library.catalog.song(id: mp3).albumID
        let file = try Data(contentsOf: server.music.appendingPathComponent("01.mp3"))
        try await Application(router: server.router).test(.router) { client in
            let whole = try await Self.call(client, "stream", "id=tr-\(mp3)", json: false)
            #expect(whole.status == .ok && whole.body == file && whole.headers[.contentType] == "audio/mpeg")
            let raw = try await Self.call(client, "stream", "id=tr-\(mp3)&format=raw&maxBitRate=64", json: false)
            #expect(raw.body == file)
            let part = try await Self.call(client, "stream", "id=tr-\(mp3)", json: false, headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent && part.body == file[10...19])
            let beyond = try await Self.call(client, "stream", "id=tr-\(mp3)", json: false, headers: [.range: "bytes=\(file.count)-"])
            #expect(beyond.status == .rangeNotSatisfiable)
            for query in ["format=opus&maxBitRate=64", "maxBitRate=64", "format=mp3"] {
                let reply = try await Self.call(client, "stream", "id=tr-\(flac)&\(query)", json: false)
                #expect(reply.status == .ok, "\(query)")
                let out = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-subsonic-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: out) }
                try reply.body.write(to: out)
                let decoded = try FFmpegDecoder().decode(out, options: DecodeOptions())
                #expect(abs(decoded.duration - 2) < 0.2, "\(query) decodes to the song's length")
            }
            let download = try await Self.call(client, "download", "id=tr-\(mp3)", json: false)
            #expect(download.body == file)
            // An ASCII filename beside filename* (RFC 6266 §4.3): clients split on `filename=`.
            #expect(download.headers[.contentDisposition] == "attachment; filename=\"01.mp3\"; filename*=UTF-8''01.mp3")

            let cover = try await Self.call(client, "getCoverArt", "id=al-\(album)", json: false)
            #expect(cover.headers[.contentType] == "image/png" && Array(cover.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            let thumb = try await Self.call(client, "getCoverArt", "id=tr-\(mp3)&size=50", json: false)
            #expect(thumb.headers[.contentType] == "image/jpeg" && Array(thumb.body.prefix(2)) == [0xFF, 0xD8])
            let huge = try await Self.call(client, "getCoverArt", "id=al-\(album)&size=99999999999999999999999", json: false)
            #expect(huge.headers[.contentType] == "image/jpeg")
            #expect(try await Self.call(client, "getCoverArt", "id=tr-\(flac)").errorCode() == 70)
            #expect(try await Self.call(client, "stream", "id=tr-999999").errorCode() == 70)
        }
    }

    @Test("playlists: create, list, read, update (rename, add, remove by index), replace, delete")
    func playlists() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        try await Application(router: server.router).test(.router) { client in
            let created = try await Self.call(client, "createPlaylist", "name=Run+Mix&songId=tr-\(mp3)&songId=tr-\(flac)").json()
            let playlist = try #require(created["playlist"] as? [String: Any])
            let id = try #require(playlist["id"] as? String)
            #expect(id.hasPrefix("pl-") && playlist["songCount"] as? Int == 2 && playlist["owner"] as? String == "ada")
            #expect((playlist["entry"] as? [[String: Any]])?.map { $0["id"] as? String } == ["tr-\(mp3)", "tr-\(flac)"])

            let listed = try await Self.call(client, "getPlaylists").json()
            #expect(((listed["playlists"] as? [String: Any])?["playlist"] as? [[String: Any]])?.first?["name"] as? String == "Run Mix")

            let updated = try await Self.call(client, "updatePlaylist",
                                              "playlistId=\(id)&name=Evening&songIndexToRemove=0&songIdToAdd=tr-\(mp3)&public=true").json()
            #expect(updated["status"] as? String == "ok")
            let read = try #require(try await Self.call(client, "getPlaylist", "id=\(id)").json()["playlist"] as? [String: Any])
            #expect(read["name"] as? String == "Evening" && read["public"] as? Bool == true)
            #expect((read["entry"] as? [[String: Any]])?.map { $0["id"] as? String } == ["tr-\(flac)", "tr-\(mp3)"])
            let xml = try await Self.call(client, "getPlaylist", "id=\(id)", json: false).xml()
            #expect(xml.all("entry").map { $0["id"] } == ["tr-\(flac)", "tr-\(mp3)"])

            let replaced = try await Self.call(client, "createPlaylist", "playlistId=\(id)&songId=tr-\(mp3)").json()
            #expect((replaced["playlist"] as? [String: Any])?["songCount"] as? Int == 1)
            #expect(try await Self.call(client, "updatePlaylist", "playlistId=\(id)&songIndexToRemove=5").errorCode() == 0)
            #expect(try await Self.call(client, "createPlaylist", "name=Bad&songId=tr-999999").errorCode() == 70)
            #expect(try await Self.call(client, "createPlaylist", "songId=tr-\(mp3)").errorCode() == 10)
            #expect(try await Self.call(client, "deletePlaylist", "id=\(id)").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "getPlaylist", "id=\(id)").errorCode() == 70)
        }
    }

    @Test("star, getStarred2, unstar; scrobble counts plays (not for submission=false)")
    func starsAndPlays() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3")
        let song = try server.library.catalog.song(id: mp3)
        try await Application(router: server.router).test(.router) { client in
            #expect(try await Self.call(client, "star", "id=tr-\(mp3)&albumId=al-\(song.albumID)&artistId=ar-\(song.albumArtistID)")
                .json()["status"] as? String == "ok")
            let starred = try #require(try await Self.call(client, "getStarred2").json()["starred2"] as? [String: Any])
            #expect((starred["song"] as? [[String: Any]])?.first?["starred"] is String)
            #expect((starred["album"] as? [[String: Any]])?.count == 1 && (starred["artist"] as? [[String: Any]])?.count == 1)
            let single = try await Self.call(client, "getSong", "id=tr-\(mp3)").json()["song"] as? [String: Any]
            #expect(single?["starred"] is String)
            #expect(try await Self.call(client, "unstar", "id=tr-\(mp3)&id=al-\(song.albumID)&artistId=ar-\(song.albumArtistID)")
                .json()["status"] as? String == "ok")
            let after = try #require(try await Self.call(client, "getStarred2", json: false).xml().first("starred2"))
            #expect(after.isEmpty)
            #expect(try await Self.call(client, "getStarred2", json: false).xml().all("song").isEmpty)
            #expect(try await Self.call(client, "star", "id=tr-999999").errorCode() == 70)

            func plays() async throws -> Int? {
                (try await Self.call(client, "getSong", "id=tr-\(mp3)").json()["song"] as? [String: Any])?["playCount"] as? Int
            }
            #expect(try await plays() == 0)
            #expect(try await Self.call(client, "scrobble", "id=tr-\(mp3)&submission=false").json()["status"] as? String == "ok")
            #expect(try await plays() == 0)
            #expect(try await Self.call(client, "scrobble", "id=tr-\(mp3)").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "scrobble", "id=tr-\(mp3)&time=1700000000000&submission=true").json()["status"] as? String == "ok")
            #expect(try await plays() == 2)
            let frequent = try await Self.call(client, "getAlbumList2", "type=frequent").json()
            #expect(((frequent["albumList2"] as? [String: Any])?["album"] as? [[String: Any]])?.first?["id"] as? String == "al-\(song.albumID)")
        }
    }

    @Test("hostile input gets Subsonic errors, never a crash")
    func hostileInput() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try await Application(router: server.router).test(.router) { client in
            let cases: [(String, String, Int)] = [
                ("getSong", "id=tr-abc", 70), ("getSong", "id=tr-99999999999999999999999", 70), ("getSong", "id=-5", 70),
                ("getSong", "id=%00%FF", 70), ("getSong", "", 10), ("getAlbum", "id=ar-1", 70), ("getArtist", "id=0", 70),
                ("getAlbumList2", "type=bogus", 0), ("getAlbumList2", "", 10), ("getAlbumList2", "type=byYear", 10),
                ("getAlbumList2", "type=byGenre", 10), ("getRandomSongs", "size=abc", 0), ("nonsense", "", 70),
                ("getCoverArt", "id=xx-1", 70), ("getCoverArt", "id=al-999&size=-5&size=3", 70), ("scrobble", "id=tr-999999&time=abc", 70),
                ("getPlaylist", "id=pl-999", 70), ("deletePlaylist", "id=pl-%25", 70), ("getUser", "username=someone", 50),
            ]
            for (endpoint, query, code) in cases {
                let reply = try await Self.call(client, endpoint, query)
                let replyCode = try reply.errorCode()
                #expect(reply.status == .ok && replyCode == code, "\(endpoint)?\(query): \(reply.text)")
            }
            for query in ["size=-1", "size=99999999999999999999999", "offset=-7&size=1", "offset=99999999999999999999"] {
                let reply = try await Self.call(client, "getAlbumList2", "type=newest&\(query)")
                #expect(try reply.json()["status"] as? String == "ok", "\(query)")
            }
            #expect(try await Self.call(client, "search3", "query=%25_%5C&songCount=-3&artistCount=99999999").json()["status"] as? String == "ok")
            #expect(try await Self.call(client, "ping", "f=jsonp&callback=cb", json: false).text.hasPrefix("cb({"))
            // A form body over the limit is refused in the protocol's own format.
            let big = "f=json&u=ada&p=correct+horse&songId=" + String(repeating: "1", count: SubsonicAPI.maxFormBytes + 10)
            let refused = try await client.execute(uri: "/rest/createPlaylist.view?f=json", method: .post,
                                                   headers: [.contentType: "application/x-www-form-urlencoded"],
                                                   body: ByteBuffer(string: big)) { response in
                (response.status, String(buffer: response.body))
            }
            #expect(refused.0 == .ok && refused.1.contains(#""code":0"#), "\(refused.1.prefix(300))")
        }
    }
}
