import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTags
@testable import QuintetServer
import Radio
import Testing
import HummingbirdCore
import NIOCore

@Suite("Icecast path on the shared port (real sockets)", .serialized)
struct IcecastTests {
    @Test("the app's routes still work through the sniffing channel, also with the request line split")
    func appRoutesUnchanged() async throws {
        try await RadioTestServer.run { server in
            try await server.client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
            }
            let port = server.port
            let (head, body) = try await blocking {
                let client = try RawClient(port: port)
                client.send("GE")
                // Not a wait for a state: the pause makes the two halves reach the server as two
                // reads, which is the case under test (the sniffer must wait for the whole line).
                usleep(50_000)
                client.send("T /api/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let (head, rest) = client.receiveHead()
                return (head, String(decoding: rest + client.receiveAll().bytes, as: UTF8.self))
            }
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(body.contains("\"name\":\"Quintet\""))
            // A PUT outside /live/ is the app's (here: no such route).
            let put = try await blocking {
                let client = try RawClient(port: port)
                client.send("PUT /api/nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return client.receiveHead().head
            }
            #expect(put.hasPrefix("HTTP/1.1 404"))
            // A mount requested on a keep-alive connection the app already serves: a redirect to
            // the same URL and the connection closes, so the client reconnects to the radio.
            let (first, second, eof) = try await blocking { () -> (String, String, Bool) in
                let client = try RawClient(port: port)
                client.send("GET /api/version HTTP/1.1\r\nHost: x\r\n\r\n")
                let (head, rest) = client.receiveHead()
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                _ = client.receive(count: length - rest.count)
                client.send("GET /live/test.mp3?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")
                let (second, _) = client.receiveHead()
                let eof = client.receiveAll().eof
                return (head, second, eof)
            }
            #expect(first.hasPrefix("HTTP/1.1 200"))
            #expect(second.hasPrefix("HTTP/1.1 307"))
            #expect(second.lowercased().contains("location: /live/test.mp3?x=1\r\n"))
            #expect(eof)
        }
    }

    @Test("source handshake: PUT with Expect gets 100 + bare 200, SOURCE the bare 200; refusals as icecast")
    func sourceHandshakes() async throws {
        try await RadioTestServer.run { server in
            let results = try await blocking { () -> [String] in
                var out: [String] = []
                let (put, putAnswer) = try server.connectSource()
                out.append(String(decoding: putAnswer, as: UTF8.self))
                // A second source on the busy mount.
                let (second, secondAnswer) = try server.connectSource(method: "SOURCE")
                out.append(String(decoding: secondAnswer + second.receiveAll().bytes, as: UTF8.self))
                let (legacy, legacyAnswer) = try server.connectSource(mount: "/live/other.mp3", key: "0ther", method: "SOURCE", contentType: nil)
                out.append(String(decoding: legacyAnswer, as: UTF8.self))
                let (bad, badAnswer) = try server.connectSource(mount: "/live/other.mp3", key: "wrong", method: "SOURCE")
                out.append(String(decoding: badAnswer + bad.receiveAll().bytes, as: UTF8.self))
                _ = (put, legacy)
                return out
            }
            #expect(results[0] == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n")
            #expect(results[1].hasPrefix("HTTP/1.0 403 Forbidden\r\n") && results[1].hasSuffix("\r\n\r\nMountpoint in use"))
            #expect(results[2] == "HTTP/1.0 200 OK\r\n\r\n")
            #expect(results[3].hasPrefix("HTTP/1.0 401 Authentication Required\r\n"))
            #expect(results[3].contains("WWW-Authenticate: Basic realm=\"Icecast2 Server\"\r\n"))
            #expect(results[3].hasSuffix("You need to authenticate"))
        }
    }

    @Test("PUT without Content-Type is refused; unknown mount 404; HEAD 400")
    func refusals() async throws {
        try await RadioTestServer.run { server in
            let port = server.port
            let answers = try await blocking { () -> [String] in
                let (noType, noTypeAnswer) = try server.connectSource(contentType: nil)
                let a = String(decoding: noTypeAnswer + noType.receiveAll().bytes, as: UTF8.self)
                let missing = try RawClient(port: port)
                missing.send("GET /live/nobody.mp3 HTTP/1.0\r\n\r\n")
                let b = String(decoding: missing.receiveAll().bytes, as: UTF8.self)
                let head = try RawClient(port: port)
                head.send("HEAD /live/test.mp3 HTTP/1.1\r\nHost: x\r\n\r\n")
                let c = String(decoding: head.receiveAll().bytes, as: UTF8.self)
                return [a, b, c]
            }
            #expect(answers[0].hasPrefix("HTTP/1.0 403 Forbidden") && answers[0].hasSuffix("No Content-type given"))
            #expect(answers[1].hasPrefix("HTTP/1.0 404 File Not Found"))
            #expect(answers[1].hasSuffix("<b>404 - The file you requested could not be found</b></body></html>"))
            #expect(answers[2].hasPrefix("HTTP/1.0 400 Bad Request"))
        }
    }

    @Test("listeners: icecast's head, a burst cut on a frame, then the source's bytes as sent")
    func listenerBurstAndRelay() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            let mp3 = try makeMP3(seconds: 8, in: server.data.appendingPathComponent("fixtures"))
            let port = server.port
            let firstPart = 6 * 16_000   // 6 s of audio before the listener joins
            let (source, _) = try await blocking {
                try server.connectSource(extraHeaders: "Ice-Name: Harness\r\nIce-Genre: Test\r\nIce-Public: 0\r\nIce-Description: desc\r\nIce-URL: http://x/\r\n")
            }
            source.send(Array(mp3[..<firstPart]))
            try await server.waitForBytes(firstPart)
            let (plain, plainHead, plainRest, icy, icyHead) = try await blocking { () -> (RawClient, String, [UInt8], RawClient, String) in
                let plain = try RawClient(port: port)
                plain.send("GET /live/test.mp3 HTTP/1.0\r\n\r\n")
                let (plainHead, plainRest) = plain.receiveHead()
                let icy = try RawClient(port: port)
                icy.send("GET /live/test.mp3 HTTP/1.1\r\nHost: x\r\nIcy-MetaData: 1\r\n\r\n")
                return (plain, plainHead, plainRest, icy, icy.receiveHead().head)
            }
            source.send(Array(mp3[firstPart...]))
            try await server.waitForBytes(mp3.count)
            source.shutdownWrite()
            let body = try await blocking { plainRest + plain.receiveAll().bytes }
            withExtendedLifetime(icy) {}
            let lines = plainHead.components(separatedBy: "\r\n")
            #expect(lines[0] == "HTTP/1.0 200 OK")
            #expect(Array(lines[1...2]) == ["Server: Icecast 2.4.4", "Connection: Close"])
            #expect(lines[4] == "Content-Type: audio/mpeg")
            #expect(lines.contains("icy-name:Harness") && lines.contains("icy-genre:Test") && lines.contains("icy-pub:0"))
            #expect(lines.contains("icy-metadata:1") && !plainHead.contains("icy-metaint"))
            let icyNames = lines.filter { $0.hasPrefix("icy-") }.map { String($0.prefix { $0 != ":" }) }
            // Icecast's order; `icy-br` first, read from the stream's frames (the source sent no Ice-Bitrate).
            #expect(icyNames == ["icy-br", "icy-description", "icy-genre", "icy-name", "icy-pub", "icy-url", "icy-metadata"])
            #expect(lines.contains("icy-br:128"))
            #expect(icyHead.contains("\r\nicy-metaint:16000\r\n"))
            // The burst: at least 64 KiB back from what had arrived, on a frame start; then
            // everything up to the end, identical to the file from that point.
            let start = mp3.count - body.count
            #expect(body.count >= 64 * 1024 + (mp3.count - firstPart))
            #expect(start >= 0 && start <= firstPart - 64 * 1024)
            #expect(MPEGAudioHeader(body, at: 0) != nil)
            #expect(Array(mp3[max(0, start)...]) == body)
        }
    }
}

@Suite("Icecast request heads")
struct IcecastHeadTests {
    @Test("heads parse: methods, paths, queries, fields, Basic credentials; the end of a head is found")
    func heads() throws {
        let text = "SOURCE /live/a%20b.mp3?x=1 HTTP/1.0\r\nAuthorization: Basic c291cmNlOms=\r\nIce-Name:  N \r\n\r\n"
        let head = try #require(IcecastRequestHead(Array(text.utf8)))
        #expect(head.method == "SOURCE" && head.path == "/live/a%20b.mp3" && head.query == "x=1" && head.version == "HTTP/1.0")
        #expect(head.decodedPath == "/live/a b.mp3" && head["ice-name"] == "N")
        #expect(head.basicCredentials?.user == "source" && head.basicCredentials?.password == "k")
        #expect(IcecastSniffer<HTTP1Channel>.headEnd(ByteBuffer(string: text).readableBytesView) == text.utf8.count)
        #expect(IcecastSniffer<HTTP1Channel>.headEnd(ByteBuffer(string: "GET / HTTP/1.0\n\nabc").readableBytesView) == 16)
        #expect(IcecastSniffer<HTTP1Channel>.headEnd(ByteBuffer(string: "GET / HTTP/1.0\r\nA: b\r\n").readableBytesView) == nil)
        // Found by FuzzIcecastHead: a line feed as the first byte read the byte before the buffer.
        #expect(IcecastSniffer<HTTP1Channel>.headEnd(ByteBuffer(bytes: [0x0A, 0, 0, 0x25, 0xDF]).readableBytesView) == nil)
        #expect(IcecastSniffer<HTTP1Channel>.headEnd(ByteBuffer(string: "\n\n").readableBytesView) == 2)
        #expect(IcecastSniffer<HTTP1Channel>.headEnd(ByteBuffer(string: "\r\n\r\n").readableBytesView) == 4)
        #expect(IcecastRequestHead(Array("get / HTTP/1.0\r\n\r\n".utf8)) == nil)
        #expect(IcecastRequestHead(Array("GET /\r\n\r\n".utf8)) == nil)
        #expect(IcecastRouting.isIcecast(method: "GET", path: "/live/x.mp3"))
        #expect(!IcecastRouting.isIcecast(method: "GET", path: "/live/"))
        #expect(!IcecastRouting.isIcecast(method: "GET", path: "/api/live/x"))
        #expect(!IcecastRouting.isIcecast(method: "POST", path: "/live/x.mp3"))
        #expect(IcecastRouting.isIcecast(method: "SOURCE", path: "/anything"))
    }
}
