import AudioCore
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import QuintetServer
import QuintetStore
import Radio
import Testing

@Suite("Radio show and episode editors' routes", .serialized)
struct RadioShowEditRoutesTests {
    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func body(_ json: String) -> ByteBuffer { ByteBuffer(string: json) }

    @Test("PATCH a show: owner edits title and category (in the feed); another user 403, nobody 401, bad fields 400")
    func editShow() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let uri = "/api/radio/shows/\(s.show.id!)"
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: uri, method: .patch, headers: [.authorization: RadioServer.owner],
                                     body: Self.body(#"{"title":"Kids Hour","category":"Kids & Family","subcategory":"Stories for Kids","language":"it"}"#)) { response in
                #expect(response.status == .ok)
                let show = try Self.object(response)
                #expect(show["title"] as? String == "Kids Hour" && show["category"] as? String == "Kids & Family")
                #expect(show["editable"] as? Bool == true)
            }
            try await client.execute(uri: uri, method: .patch, headers: [.authorization: RadioServer.stranger],
                                     body: Self.body(#"{"title":"Mine"}"#)) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("\"forbidden\""))
            }
            try await client.execute(uri: uri, method: .patch, body: Self.body(#"{"title":"Mine"}"#)) { #expect($0.status == .unauthorized) }
            for bad in [#"{"title":""}"#, #"{"category":"Cooking"}"#, #"{"language":"not a tag"}"#, "not json", #"{"cover":"/etc/passwd"}"#] {
                try await client.execute(uri: uri, method: .patch, headers: [.authorization: RadioServer.owner], body: Self.body(bad)) {
                    #expect($0.status == .badRequest, "\(bad)")
                }
            }
            try await client.execute(uri: "/radio/feeds/\(s.show.id!).xml", method: .get) { response in
                #expect(String(buffer: response.body).contains(
                    #"<itunes:category text="Kids &amp; Family"><itunes:category text="Stories for Kids"/></itunes:category>"#))
            }
            try await client.execute(uri: "/api/radio/categories", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"Music Commentary\""))
            }
        }
    }

    @Test("covers: a relative and an absolute path inside the data folder are both served; an upload is re-encoded to JPEG")
    func covers() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let png = s.data.appendingPathComponent("art.png")
        try FFmpegDecoder().run(["-y", "-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", png.path])
        let other = try s.radio.createShow(owner: s.show.ownerID, .init(title: "Other", cover: "art.png"))
        try await s.database.pool.write { db in   // as older versions stored an absolute --cover
            try db.execute(sql: "UPDATE radio_shows SET cover = ? WHERE id = ?", arguments: [png.path, s.show.id!])
        }
        try await Application(router: s.router).test(.router) { client in
            for id in [s.show.id!, other.id!] {
                try await client.execute(uri: "/radio/covers/\(id)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/png")
                }
            }
            try await client.execute(uri: "/api/radio/shows/\(other.id!)/cover", method: .put,
                                     headers: [.authorization: RadioServer.owner], body: ByteBuffer(bytes: Array(try Data(contentsOf: png)))) { response in
                #expect(response.status == .ok)
                let answer1 = try Self.object(response)
                #expect(answer1["cover_url"] as? String == "http://localhost/radio/covers/\(other.id!)")
            }
            try await client.execute(uri: "/radio/covers/\(other.id!)", method: .get) { response in
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Array(Data(buffer: response.body).prefix(2)) == [0xFF, 0xD8])
            }
            try await client.execute(uri: "/api/radio/shows/\(other.id!)/cover", method: .put,
                                     headers: [.authorization: RadioServer.owner], body: ByteBuffer(string: "not an image")) {
                #expect($0.status == .unprocessableContent)
            }
            try await client.execute(uri: "/api/radio/shows/\(other.id!)/cover", method: .put,
                                     headers: [.authorization: RadioServer.stranger], body: ByteBuffer(string: "x")) {
                #expect($0.status == .forbidden)
            }
        }
    }

    @Test("DELETE hides a show from lists, feed, downloads and cover at once; restore brings it back; episodes likewise")
    func deleteAndRestore() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let id = s.show.id!
        let episode = s.published.id!
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/radio/shows/\(id)", method: .delete, headers: [.authorization: RadioServer.stranger]) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/radio/shows/\(id)", method: .delete, headers: [.authorization: RadioServer.owner]) { response in
                #expect(response.status == .ok)
                let answer2 = try Self.object(response)
                #expect(answer2["restore_until"] is String)
            }
            for uri in ["/api/radio/shows/\(id)", "/radio/feeds/\(id).xml", "/radio/episodes/\(episode).mp3",
                        "/api/radio/episodes/\(episode)"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound, "\(uri)") }
            }
            try await client.execute(uri: "/api/radio/shows", method: .get) { #expect(String(buffer: $0.body) == "[]") }
            try await client.execute(uri: "/api/radio/episodes", method: .get) { #expect(String(buffer: $0.body) == "[]") }
            try await client.execute(uri: "/api/radio/deleted", method: .get, headers: [.authorization: RadioServer.owner]) { response in
                let shows = try #require(try Self.object(response)["shows"] as? [[String: Any]])
                #expect(shows.compactMap { $0["id"] as? Int } == [Int(id)] && shows[0]["deleted_at"] is String)
            }
            try await client.execute(uri: "/api/radio/shows/\(id)/restore", method: .post, headers: [.authorization: RadioServer.owner]) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/radio/feeds/\(id).xml", method: .get) { #expect($0.status == .ok) }
            // One episode: unpublish, delete, undo.
            try await client.execute(uri: "/api/radio/episodes/\(episode)", method: .patch, headers: [.authorization: RadioServer.owner],
                                     body: Self.body(#"{"published":false,"title":"Renamed"}"#)) { response in
                let answer3 = try Self.object(response)
                #expect(answer3["state"] as? String == "recorded")
            }
            try await client.execute(uri: "/radio/episodes/\(episode).mp3", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/radio/episodes/\(episode)", method: .delete, headers: [.authorization: RadioServer.owner]) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/radio/episodes/\(episode)", method: .get, headers: [.authorization: RadioServer.owner]) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/radio/episodes/\(episode)/restore", method: .post, headers: [.authorization: RadioServer.stranger]) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/radio/episodes/\(episode)/restore", method: .post, headers: [.authorization: RadioServer.owner]) { response in
                let answer4 = try Self.object(response)
                #expect(answer4["title"] as? String == "Renamed")
            }
        }
    }

    @Test("POST a show: created for the signed-in user with its stream key once; 401 without sign-in")
    func create() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/radio/shows", method: .post, headers: [.authorization: RadioServer.stranger],
                                     body: Self.body(#"{"title":"Guest Talk","category":"Comedy"}"#)) { response in
                #expect(response.status == .created)
                let created = try Self.object(response)
                #expect((created["stream_key"] as? String)?.count == 40)
                #expect((created["show"] as? [String: Any])?["owner"] as? String == "guest")
            }
            try await client.execute(uri: "/api/radio/shows", method: .post, body: Self.body(#"{"title":"X"}"#)) {
                #expect($0.status == .unauthorized)
            }
        }
    }
}
