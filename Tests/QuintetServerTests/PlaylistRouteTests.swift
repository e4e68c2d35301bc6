import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryCore
import QuintetServer
import Testing

/// `POST /api/library/playlists` (the graph explorer's "save the queue"): stored in the
/// catalog in order, listed by Subsonic's getPlaylists, bad bodies refused with the field named.
@Suite("POST /api/library/playlists", .serialized)
struct PlaylistRouteTests {
    static func post(_ client: some TestClientProtocol, _ body: String,
                     auth: String = LibraryServer.basic) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(uri: "/api/library/playlists", method: .post,
                                 headers: [.authorization: auth, .contentType: "application/json"],
                                 body: ByteBuffer(string: body)) { response in
            let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any] ?? [:]
            return (response.status, object)
        }
    }

    @Test("a queue saved as a playlist keeps its order and repeats, and Subsonic lists it")
    func save() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3")
        let flac = try server.songID(path: "02.flac")
        try await Application(router: server.router).test(.router) { client in
            let (status, answer) = try await Self.post(client, #"{"name": "  Evening  ", "songs": [\#(flac), \#(mp3), \#(flac)]}"#)
            #expect(status == .created)
            let playlist = try #require(answer["playlist"] as? [String: Any])
            #expect(playlist["name"] as? String == "Evening" && playlist["song_count"] as? Int == 3)
            #expect(playlist["owner"] as? String == "ada" && playlist["public"] as? Bool == false)
            let id = try #require(playlist["id"] as? Int)
            try await client.execute(uri: "/rest/getPlaylist.view?u=ada&p=correct+horse&v=1.16.1&c=tests&f=json&id=pl-\(id)",
                                     method: .get) { response in
                let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let list = (object?["subsonic-response"] as? [String: Any])?["playlist"] as? [String: Any]
                let entries = try #require(list?["entry"] as? [[String: Any]], "\(String(buffer: response.body))")
                #expect(entries.compactMap { $0["id"] as? String } == ["tr-\(flac)", "tr-\(mp3)", "tr-\(flac)"])
            }
            try await client.execute(uri: "/rest/getPlaylists.view?u=ada&p=correct+horse&v=1.16.1&c=tests&f=json",
                                     method: .get) { response in
                let text = String(buffer: response.body)
                #expect(response.status == .ok && text.contains(#""name":"Evening""#) && text.contains(#""songCount":3"#), "\(text)")
            }
        }
    }

    @Test("bad bodies: 400 with the field, unknown songs 404, no user 401 — and nothing stored")
    func refusals() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        try await Application(router: server.router).test(.router) { client in
            let cases: [(String, String)] = [
                ("not json", "body"), ("[1, 2]", "body"), (#"{"songs": [1]}"#, "name"), (#"{"name": "x"}"#, "songs"),
                (#"{"name": "   ", "songs": [1]}"#, "name"), (#"{"name": 5, "songs": [1]}"#, "name"),
                (#"{"name": "x", "songs": ["1"]}"#, "songs"), (#"{"name": "x", "songs": [1.5]}"#, "songs"),
                (#"{"name": "x", "songs": [true]}"#, "songs"), (#"{"name": "x", "songs": [-3]}"#, "songs"),
                (#"{"name": "x", "songs": 1}"#, "songs"),
                ("{\"name\": \"\(String(repeating: "n", count: 201))\", \"songs\": []}", "name"),
            ]
            for (body, field) in cases {
                let (status, answer) = try await Self.post(client, body)
                let error = answer["error"] as? [String: Any]
                #expect(status == .badRequest && error?["code"] as? String == "invalid_input" && error?["field"] as? String == field,
                        "\(body): \(status) \(answer)")
            }
            let (missing, _) = try await Self.post(client, #"{"name": "x", "songs": [999999]}"#)
            #expect(missing == .notFound)
            let (anonymous, _) = try await Self.post(client, #"{"name": "x", "songs": []}"#, auth: "")
            #expect(anonymous == .unauthorized)
            let huge = #"{"name": "x", "songs": ["# + String(repeating: "1, ", count: 100_000) + "1]}"
            let (tooLarge, _) = try await Self.post(client, huge)
            #expect(tooLarge == .contentTooLarge)
        }
        try await Application(router: server.router).test(.router) { client in
            try await client.execute(uri: "/rest/getPlaylists.view?u=ada&p=correct+horse&v=1.16.1&c=tests&f=json",
                                     method: .get) { response in
                #expect(!String(buffer: response.body).contains(#""playlist":[{"#), "\(String(buffer: response.body))")
            }
        }
    }
}
