import Foundation
import Hummingbird
import HummingbirdTesting
@testable import QuintetServer
import Testing

@Suite("GET /api/radio/live: the live mounts as JSON (real sockets)", .serialized)
struct RadioLiveAPITests {
    struct Listing: Decodable {
        struct Mount: Decodable {
            let mount: String
            let show_id: Int64
            let show_title: String
            let title: String?
            let listeners: Int
            let listener_peak: Int
            let started: String
            let content_type: String
            let episode_id: Int64?
        }
        let mounts: [Mount]
    }

    static func listing(_ server: RadioTestServer) async throws -> (Listing, String) {
        try await server.client.execute(uri: "/api/radio/live", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let text = String(buffer: response.body)
            return (try JSONDecoder().decode(Listing.self, from: Data(text.utf8)), text)
        }
    }

    @Test("empty, then the live mount with its show, title, listeners and episode, then empty after the source leaves")
    func liveMounts() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            let (empty, emptyText) = try await Self.listing(server)
            #expect(empty.mounts.isEmpty)
            #expect(emptyText == #"{"mounts":[]}"#)

            let mp3 = try makeMP3(seconds: 4, in: server.data.appendingPathComponent("fixtures"))
            let port = server.port
            let before = Date()
            let (source, _) = try await blocking { try server.connectSource() }
            source.send(Array(mp3[..<(mp3.count / 2)]))
            try await server.waitForBytes(mp3.count / 2)

            // Live, no title yet: every key is present, title null.
            let (fresh, freshText) = try await Self.listing(server)
            #expect(fresh.mounts.count == 1)
            #expect(freshText.contains(#""title":null"#))
            #expect(fresh.mounts.first?.listeners == 0)

            let hostile = "<script>alert(1)</script> & \"quotes\""
            let body = try JSONEncoder().encode(["mount": "/live/test.mp3", "title": hostile])
            try await server.client.execute(uri: "/api/radio/metadata", method: .post,
                                            headers: [.authorization: IcecastLiveTests.sourceAuth],
                                            body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok)
            }
            let listener = try await blocking { () -> RawClient in
                let client = try RawClient(port: port)
                client.send("GET /live/test.mp3 HTTP/1.0\r\n\r\n")
                _ = client.receiveHead()
                return client
            }
            // The count and the peak reach the listing with the mount's next batch.
            try await waitUntil("the listing counts the listener") {
                try await Self.listing(server).0.mounts.first.map { $0.listeners == 1 && $0.listener_peak >= 1 } ?? false
            }

            let (live, _) = try await Self.listing(server)
            #expect(live.mounts.count == 1)
            let mount = try #require(live.mounts.first)
            #expect(mount.mount == "/live/test.mp3")
            #expect(mount.show_id == RadioTestServer.show.id)
            #expect(mount.show_title == "Test Show")
            #expect(mount.title == hostile)
            #expect(mount.listeners == 1)
            #expect(mount.listener_peak >= 1)
            #expect(mount.content_type == "audio/mpeg")
            #expect(mount.episode_id != nil && mount.episode_id == server.directory.started.first?.id)
            let started = try #require(ISO8601DateFormatter().date(from: mount.started))
            #expect(abs(started.timeIntervalSince(before)) < 5)

            // The source leaves (no grace period): the mount is gone from the list.
            source.send(Array(mp3[(mp3.count / 2)...]))
            source.shutdownWrite()
            _ = try await blocking { listener.receiveAll() }
            try await waitUntil("the mount left the listing") { try await Self.listing(server).0.mounts.isEmpty }
        }
    }
}
