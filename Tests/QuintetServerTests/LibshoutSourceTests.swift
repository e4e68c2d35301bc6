import Foundation
import MediaTags
@testable import QuintetServer
import Radio
import Testing

/// Issue 22 §0: sources built on libshout (ices2, ezstream, Mixxx…) probe the server before
/// their `SOURCE` (`OPTIONS *`, then `GET /admin/!POKE`) and go on only after 2xx, 400, 401,
/// 405 or 426; and a source streaming a file sends its Xing/Info frame, which the recording
/// must not keep. The request bytes below are libshout 2.4.6's, as captured from ezstream 1.0.2.
@Suite("libshout sources: probes answered as icecast, header frames left out of recordings", .serialized)
struct LibshoutSourceTests {
    static let optionsUpgrade = "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: libshout/2.4.6\r\n"
        + "Connection: Upgrade\r\nUpgrade: TLS/1.0, HTTP/1.1\r\n\r\n"
    static let poke = "GET /admin/!POKE HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: libshout/2.4.6\r\n\r\n"
    static let challenge = "SOURCE /live/test.mp3 HTTP/1.0\r\nHost: 127.0.0.1:8000\r\nUser-Agent: libshout/2.4.6\r\n"
        + "Content-Type: audio/mpeg\r\nContent-Length: 0\r\nConnection: Keep-Alive\r\nice-public: 0\r\n"
        + "ice-name: no name\r\nPrefer: return=minimal\r\n\r\n"
    static var source: String {
        "SOURCE /live/test.mp3 HTTP/1.0\r\nAuthorization: Basic \(Data("source:k3y".utf8).base64EncodedString())\r\n"
            + "Host: 127.0.0.1:8000\r\nUser-Agent: libshout/2.4.6\r\nContent-Type: audio/mpeg\r\nice-public: 0\r\n"
            + "ice-name: no name\r\nPrefer: return=minimal\r\n\r\n"
    }

    @Test("the probes go to the Icecast path; an OPTIONS of any other target (CORS) stays the app's")
    func routing() {
        #expect(IcecastRouting.isIcecast(requestLine: Array("OPTIONS * HTTP/1.1".utf8)))
        #expect(IcecastRouting.isIcecast(requestLine: Array("GET /admin/!POKE HTTP/1.1".utf8)))
        #expect(!IcecastRouting.isIcecast(requestLine: Array("OPTIONS /api/version HTTP/1.1".utf8)))
        #expect(!IcecastRouting.isIcecast(requestLine: Array("OPTIONS /live/a.mp3 HTTP/1.1".utf8)))
        #expect(!IcecastRouting.isIcecast(requestLine: Array("GET /admin/metadata?mode=updinfo HTTP/1.1".utf8)))
        #expect(!IcecastRouting.isIcecast(requestLine: Array("POST /admin/!POKE HTTP/1.1".utf8)))
        #expect(!IcecastRouting.isIcecast(requestLine: Array("GET /admin/!poke HTTP/1.1".utf8)))
    }

    @Test("an upgrade is asked only with Connection: Upgrade and an Upgrade header")
    func upgradeRequests() throws {
        func head(_ text: String) throws -> IcecastRequestHead { try #require(IcecastRequestHead(Array(text.utf8))) }
        #expect(LiveRadio.asksForUpgrade(try head(Self.optionsUpgrade)))
        #expect(LiveRadio.asksForUpgrade(try head("OPTIONS * HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nUpgrade: TLS/1.0\r\n\r\n")))
        #expect(!LiveRadio.asksForUpgrade(try head("OPTIONS * HTTP/1.1\r\nUpgrade: TLS/1.0\r\n\r\n")))
        #expect(!LiveRadio.asksForUpgrade(try head("OPTIONS * HTTP/1.1\r\nConnection: Upgrade\r\n\r\n")))
        #expect(!LiveRadio.asksForUpgrade(try head("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")))
    }

    @Test("the answers' bytes: 204 with Allow and no body; 400 with icecast's HTML messages")
    func answers() {
        let options = IcecastReply.options.text
        #expect(options.hasPrefix("HTTP/1.0 204 No Content\r\nServer: Icecast 2.4.4\r\nConnection: Close\r\n"
            + "Accept-Encoding: identity\r\nAllow: GET, OPTIONS, SOURCE\r\nDate: "))
        #expect(options.hasSuffix("\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 0\r\n\r\n"))
        #expect(!options.contains("Content-Type"))
        let upgrade = IcecastReply.upgradeRefused.text
        #expect(upgrade.hasPrefix("HTTP/1.0 400 Bad Request\r\nServer: Icecast 2.4.4\r\n"))
        #expect(upgrade.hasSuffix("\r\n\r\n<html><head><title>Error 400</title></head><body><b>400 - Can not upgrade protocol</b></body></html>"))
        let poke = IcecastReply.unrecognisedCommand.text
        #expect(poke.hasPrefix("HTTP/1.0 400 Bad Request\r\n") && poke.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(poke.hasSuffix("\r\n\r\n<html><head><title>Error 400</title></head><body><b>400 - Unrecognised command</b></body></html>"))
    }

    /// Sends `request` on a fresh connection and returns all it got until the server closed.
    static func exchange(_ request: String, port: Int) throws -> (text: String, closed: Bool) {
        let client = try RawClient(port: port)
        client.send(request)
        let (bytes, eof) = client.receiveAll()
        return (String(decoding: bytes, as: UTF8.self), eof)
    }

    @Test("libshout's whole exchange on real sockets: OPTIONS → 400, !POKE → 400, SOURCE without credentials → 401, with them → 200; the looped file's Info frames are not recorded")
    func libshoutExchangeAndRecording() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            let port = server.port
            let file = try makeMP3(seconds: 2, infoFrame: true, in: server.data.appendingPathComponent("fixtures"))
            let infoLength = try #require(MPEGAudioHeader(file, at: 0, accepting: .layerIII)).frameLength
            #expect(AudioStreamSummary.isXingFrame(file, at: 0))
            let probes = try await blocking {
                [try Self.exchange(Self.optionsUpgrade, port: port),
                 try Self.exchange("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", port: port),
                 try Self.exchange(Self.poke, port: port),
                 try Self.exchange(Self.challenge, port: port)]
            }
            #expect(probes.allSatisfy { $0.closed })
            #expect(probes[0].text.hasPrefix("HTTP/1.0 400 Bad Request\r\n") && probes[0].text.hasSuffix("Can not upgrade protocol</b></body></html>"))
            #expect(probes[1].text.hasPrefix("HTTP/1.0 204 No Content\r\n") && probes[1].text.contains("\r\nAllow: GET, OPTIONS, SOURCE\r\n"))
            #expect(probes[1].text.hasSuffix("Content-Length: 0\r\n\r\n"))
            #expect(probes[2].text.hasPrefix("HTTP/1.0 400 Bad Request\r\n") && probes[2].text.hasSuffix("Unrecognised command</b></body></html>"))
            #expect(probes[3].text.hasPrefix("HTTP/1.0 401 Authentication Required\r\n"))
            #expect(probes[3].text.contains("WWW-Authenticate: Basic realm=\"Icecast2 Server\"\r\n"))
            // A CORS preflight is still the app's (HTTP/1.1, Hummingbird).
            let preflight = try await blocking {
                try Self.exchange("OPTIONS /api/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            }
            #expect(preflight.text.hasPrefix("HTTP/1.1 "))
            // The source streams its file twice, as ezstream looping it does.
            let (client, answer) = try await blocking { () -> (RawClient, [UInt8]) in
                let client = try RawClient(port: port)
                client.send(Self.source)
                return (client, client.receive(count: 19))
            }
            #expect(String(decoding: answer, as: UTF8.self) == "HTTP/1.0 200 OK\r\n\r\n")
            let stream = file + file
            for start in stride(from: 0, to: stream.count, by: 1000) {
                client.send(Array(stream[start..<min(start + 1000, stream.count)]))
            }
            try await server.waitForBytes(stream.count)
            client.shutdownWrite()
            try await server.waitForEndedEpisodes(1)
            #expect(server.directory.ended.first?.bytes == Int64(stream.count))   // received
            let recorded = Array(try Data(contentsOf: try #require(server.directory.started.first?.file)))
            let audio = Array(file[infoLength...])
            #expect(recorded == audio + audio)                                     // kept
        }
    }
}
