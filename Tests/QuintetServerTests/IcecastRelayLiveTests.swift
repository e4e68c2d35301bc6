import Foundation
import Hummingbird
import HummingbirdTesting
@testable import QuintetServer
import Radio
import Testing

@Suite("Icecast relays of a live mount: counted apart, held through grace, moved to the fallback (real sockets)", .serialized)
struct IcecastRelayLiveTests {
    /// A listener connection that asked `request`'s head; returns it once its response head came.
    static func listen(_ server: RadioTestServer, _ request: String) async throws -> (RawClient, String, [UInt8]) {
        let port = server.port
        return try await blocking {
            let client = try RawClient(port: port)
            client.send(request)
            let (head, rest) = client.receiveHead()
            return (client, head, rest)
        }
    }

    static let relayRequest = "GET /live/test.mp3 HTTP/1.0\r\nUser-Agent: Icecast 2.4.4\r\nHost: 127.0.0.1\r\nIcy-MetaData: 1\r\n\r\n"

    struct Counts: Decodable { let listeners: Int; let relays: Int?; let listener_peak: Int }
    struct Status: Decodable { struct Stats: Decodable { let source: Counts? }; let icestats: Stats }
    struct Live: Decodable { let mounts: [Counts] }

    /// The one live source of `/status-json.xsl`.
    static func statusSource(_ server: RadioTestServer) async throws -> Counts? {
        try await server.client.execute(uri: "/status-json.xsl", method: .get) { response in
            try JSONDecoder().decode(Status.self, from: Data(String(buffer: response.body).utf8)).icestats.source
        }
    }

    /// The one live mount of `/api/radio/live`.
    static func liveMount(_ server: RadioTestServer) async throws -> Counts? {
        try await server.client.execute(uri: "/api/radio/live", method: .get) { response in
            try JSONDecoder().decode(Live.self, from: Data(String(buffer: response.body).utf8)).mounts.first
        }
    }

    @Test("icecast's request and ?relay=1 are relays: status-json and /api/radio/live count them apart; no listen, no peak")
    func countedApart() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            let mp3 = try makeMP3(seconds: 4, in: server.data.appendingPathComponent("fixtures"))
            let (source, _) = try await blocking { try server.connectSource(extraHeaders: "Ice-Name: Relayed\r\n") }
            source.send(Array(mp3[..<(mp3.count / 2)]))
            try await server.waitForBytes(mp3.count / 2)
            let (relay, head, _) = try await Self.listen(server, Self.relayRequest)
            // What icecast2's relay reads: a 200, the type, the stream's name and its metaint.
            #expect(head.hasPrefix("HTTP/1.0 200 OK\r\n"))
            #expect(head.contains("\r\nContent-Type: audio/mpeg\r\n"))
            #expect(head.contains("\r\nicy-name:Relayed\r\n") && head.contains("\r\nicy-metaint:16000\r\n"))
            let (second, _, _) = try await Self.listen(server, "GET /live/test.mp3?relay=1 HTTP/1.0\r\n\r\n")
            let (listener, _, _) = try await Self.listen(server, "GET /live/test.mp3 HTTP/1.0\r\nUser-Agent: VLC/3.0.18\r\n\r\n")
            try await server.waitForListeners(3)
            #expect(try await server.state(of: "/live/test.mp3") { $0.relayCount } == 2)
            try await waitUntil("the status counts 1 listener and 2 relays") {
                let source = try await Self.statusSource(server)
                return source?.listeners == 1 && source?.relays == 2
            }
            let live = try #require(try await Self.liveMount(server))
            #expect(live.listeners == 1 && live.relays == 2)
            #expect(live.listener_peak == 1)
            // Only the person listening is a listen of the episode.
            try await waitUntil("one listen counted") {
                server.directory.liveFigures.listens.values.reduce(0, +) == 1
            }
            relay.shutdownWrite()
            try await server.waitForListeners(2)
            #expect(try await server.state(of: "/live/test.mp3") { $0.relayCount } == 1)
            _ = (second, listener)
        }
    }

    @Test("a relay waits through the grace period, then moves to the fallback with its ICY rhythm and the fallback's title")
    func graceAndFallback() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .milliseconds(1500) }) { server in
            server.directory.add(LiveShow(id: 1, title: "Test Show", mount: "/live/test.mp3", streamKey: "k3y",
                                          fallbackMount: "/live/other.mp3"))
            let a = try makeMP3(seconds: 4, frequency: 440, in: server.data.appendingPathComponent("fixtures"))
            let b = try makeMP3(seconds: 12, frequency: 880, in: server.data.appendingPathComponent("fixtures"))
            let (fallback, _) = try await blocking { try server.connectSource(mount: "/live/other.mp3", key: "0ther") }
            fallback.send(Array(b[..<(4 * 16_000)]))
            let (main, _) = try await blocking { try server.connectSource() }
            main.send(a)
            try await server.waitForBytes(4 * 16_000, at: "/live/other.mp3")
            try await server.waitForBytes(a.count)
            let fallbackAuth = "Basic " + Data("source:0ther".utf8).base64EncodedString()
            try await server.client.execute(uri: "/admin/metadata?mount=/live/other.mp3&mode=updinfo&song=Fallback%20Song",
                                            method: .get, headers: [.authorization: fallbackAuth]) { response in
                #expect(response.status == .ok)
            }
            let (relay, head, first) = try await Self.listen(server, Self.relayRequest)
            #expect(head.contains("icy-metaint:16000"))
            let received = Task { try await blocking { first + relay.receiveAll().bytes } }   // reads as it comes, like icecast
            try await server.waitForListeners(1)
            main.shutdownWrite()
            // Held through the grace period: still on the show's mount, which has no source.
            try await waitUntil("the source is gone") { try await server.state(of: "/live/test.mp3") { !$0.hasSource } == true }
            #expect(try await server.state(of: "/live/test.mp3") { $0.relayCount } == 1)
            try await server.waitForListeners(1, at: "/live/other.mp3")   // moved once the grace period ended
            #expect(try await server.state(of: "/live/other.mp3") { $0.relayCount } == 1)
            #expect(try await server.state(of: "/live/other.mp3") { $0.audienceCount } == 0)
            fallback.send(Array(b[(4 * 16_000)...]))
            try await server.waitForBytes(b.count, at: "/live/other.mp3")
            fallback.shutdownWrite()
            let body = try await received.value
            // The ICY rhythm never broke: every block parses, and the fallback's title came through.
            let (audio, titles, blocks) = stripIcy(body)
            #expect(blocks >= 6)
            #expect(titles.contains(Array("StreamTitle='Fallback Song';".utf8)))
            // Its audio has the end of broadcast A, then (after the grace period's silence) B to its end.
            let tailOfA = Array(a.suffix(16_000))
            let endOfA = try #require(audio.firstRange(of: tailOfA)).upperBound
            let rest = Array(audio[endOfA...])
            let endOfB = Array(b.suffix(3 * 16_000))
            #expect(rest.firstRange(of: endOfB) != nil)
        }
    }
}
