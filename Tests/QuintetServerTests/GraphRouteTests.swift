import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryCore
import QuintetServer
import Testing

/// `/api/library/graph/*` and Subsonic's similar songs and artists, over ``LibraryServer``'s real
/// library: "Glass River" by The Band (MP3, composer Ada, 128 BPM) and by Someone Else (FLAC,
/// composer Ada, no BPM) — a cover pair.
@Suite("/api/library/graph and Subsonic's graph answers", .serialized)
struct GraphRouteTests {
    struct Node: Decodable {
        let kind: String; let id: Int64; let name: String; let links: Int
        let edge: String?; let more: Int?; let album: String?; let cover_url: String?; let stream_url: String?
    }
    struct Expansion: Decodable { let node: Node; let neighbours: [Node] }
    struct Walk: Decodable {
        struct Song: Decodable { let id: Int64; let title: String; let stream_url: String }
        let seed: String; let songs: [Song]
    }
    static let ada: HTTPFields = [.authorization: LibraryServer.basic]

    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: ada) { $0 }
    }

    @Test("expand: the song, its album and its cover, each with what it still hides; bad and unknown nodes refused")
    func expand() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        let song = try server.library.catalog.song(id: mp3)
        try await Application(router: server.router).test(.router) { client in
            let response = try await Self.get(client, "/api/library/graph/expand?node=song:\(mp3)")
            #expect(response.status == .ok)
            let answer = try JSONDecoder().decode(Expansion.self, from: Data(buffer: response.body))
            #expect(answer.node.kind == "song" && answer.node.name == "Glass River" && answer.node.links == 2)
            #expect(answer.node.stream_url == "/api/library/songs/\(mp3)/stream")
            #expect(answer.neighbours.map { "\($0.kind):\($0.id):\($0.edge ?? "")" }
                == ["album:\(song.albumID):song_of", "song:\(flac):cover"])
            // The album links its artist too; the cover its own album.
            #expect(answer.neighbours.map { $0.more } == [1, 1])
            #expect(answer.neighbours[0].cover_url == "/api/library/albums/\(song.albumID)/cover")

            // A Subsonic id and a filter give the same cover alone.
            let filtered = try JSONDecoder().decode(Expansion.self, from: Data(buffer: try await Self.get(
                client, "/api/library/graph/expand?node=tr-\(mp3)&edges=cover,identical").body))
            #expect(filtered.neighbours.map(\.id) == [flac])
            #expect(filtered.neighbours[0].more == 1)

            for bad in ["", "?node=", "?node=song", "?node=song:abc", "?node=genre:1", "?node=song:1&edges=friends",
                        "?node=" + String(repeating: "x", count: 5000)] {
                let refused = try await Self.get(client, "/api/library/graph/expand" + bad)
                #expect(refused.status == .badRequest, "\(bad.prefix(40))")
                #expect(String(buffer: refused.body).contains("invalid_input"))
            }
            #expect(try await Self.get(client, "/api/library/graph/expand?node=song:987654").status == .notFound)
            try await client.execute(uri: "/api/library/graph/expand?node=song:\(mp3)", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("the graph follows the catalog: a BPM set by hand makes a tempo link")
    func rebuild() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        try await Application(router: server.router).test(.router) { client in
            let before = try JSONDecoder().decode(Expansion.self, from: Data(buffer: try await Self.get(
                client, "/api/library/graph/expand?node=song:\(flac)&edges=tempo").body))
            #expect(before.neighbours.isEmpty)
            _ = try server.library.catalog.setBPMOverride(songID: flac, bpm: 64) // half of 128
            server.library.graph.invalidate()
            let after = try JSONDecoder().decode(Expansion.self, from: Data(buffer: try await Self.get(
                client, "/api/library/graph/expand?node=song:\(flac)&edges=tempo").body))
            #expect(after.neighbours.map(\.id) == [mp3])
            #expect(after.neighbours.first?.edge == "tempo")
        }
    }

    @Test("walk: from a song over its links, without repeats; Subsonic's similar songs and artists from the graph")
    func walkAndSubsonic() async throws {
        let server = try await LibraryServer()
        defer { server.remove() }
        let mp3 = try server.songID(path: "Band/Album/01.mp3"), flac = try server.songID(path: "02.flac")
        let song = try server.library.catalog.song(id: mp3)
        try await Application(router: server.router).test(.router) { client in
            let walk = try JSONDecoder().decode(Walk.self, from: Data(buffer: try await Self.get(
                client, "/api/library/graph/walk?seed=song:\(mp3)&count=10").body))
            #expect(walk.seed == "song:\(mp3)")
            #expect(walk.songs.map(\.id) == [mp3, flac]) // the library has two songs
            #expect(try await Self.get(client, "/api/library/graph/walk?seed=song:\(mp3)&count=0").status == .badRequest)
            #expect(try await Self.get(client, "/api/library/graph/walk?seed=album:1").status == .badRequest)
            #expect(try await Self.get(client, "/api/library/graph/walk?seed=\(mp3)&count=1").status == .ok)
            #expect(try await Self.get(client, "/api/library/graph/walk?seed=song:987654").status == .notFound)

            let auth = "u=ada&p=correct%20horse&v=1.16.1&c=test&f=json"
            let similar = String(buffer: try await Self.get(client, "/rest/getSimilarSongs.view?id=tr-\(mp3)&\(auth)").body)
            #expect(similar.contains(#""id":"tr-\#(flac)""#) && !similar.contains(#""id":"tr-\#(mp3)""#))
            let byAlbum = String(buffer: try await Self.get(client, "/rest/getSimilarSongs.view?id=al-\(song.albumID)&\(auth)").body)
            #expect(byAlbum.contains(#""id":"tr-\#(flac)""#))
            let info = String(buffer: try await Self.get(client, "/rest/getArtistInfo2.view?id=ar-\(song.albumArtistID)&\(auth)").body)
            #expect(info.contains(#""similarArtist":[{"#) && info.contains("Someone Else"))
            let missing = String(buffer: try await Self.get(client, "/rest/getSimilarSongs2.view?id=ar-987654&\(auth)").body)
            #expect(missing.contains(#""status":"failed""#) && missing.contains(#""code":70"#))
        }
    }
}
