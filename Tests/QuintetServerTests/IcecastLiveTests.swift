import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTags
@testable import QuintetServer
import Radio
import Testing

/// Splits an ICY stream into its audio and the bodies of its non-empty metadata blocks.
func stripIcy(_ bytes: [UInt8], metaint: Int = 16_000) -> (audio: [UInt8], titles: [[UInt8]], blocks: Int) {
    var audio: [UInt8] = []
    var titles: [[UInt8]] = []
    var blocks = 0
    var i = 0
    while i < bytes.count {
        let n = min(metaint, bytes.count - i)
        audio += bytes[i..<i + n]
        i += n
        guard n == metaint, i < bytes.count else { break }
        let length = Int(bytes[i]) * 16
        blocks += 1
        if length > 0, i + 1 + length <= bytes.count {
            var body = Array(bytes[(i + 1)..<(i + 1 + length)])
            while body.last == 0 { body.removeLast() }
            titles.append(body)
        }
        i += 1 + length
    }
    return (audio, titles, blocks)
}

@Suite("Icecast live: metadata, status, grace period, recording (real sockets)", .serialized)
struct IcecastLiveTests {
    static let sourceAuth = "Basic " + Data("source:k3y".utf8).base64EncodedString()

    @Test("ICY listener: first block carries the burst position's title, updates arrive once; status lists the mount")
    func icyAndMetadata() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            let mp3 = try makeMP3(seconds: 20, in: server.data.appendingPathComponent("fixtures"))
            let port = server.port
            let step = 6 * 16_000
            let (source, _) = try await blocking { try server.connectSource(extraHeaders: "Ice-Name: Harness\r\n") }
            source.send(Array(mp3[..<step]))
            try await server.waitForBytes(step)   // titles follow the stream position: set it after these bytes
            // Auth and errors of /admin/metadata.
            try await server.client.execute(uri: "/admin/metadata?mount=/live/test.mp3&mode=updinfo&song=x", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Basic realm=\"Icecast2 Server\"")
                #expect(String(buffer: response.body) == "You need to authenticate")
            }
            try await server.client.execute(uri: "/admin/metadata?mount=/live/other.mp3&mode=updinfo&song=x", method: .get,
                                            headers: [.authorization: "Basic " + Data("source:0ther".utf8).base64EncodedString()]) { response in
                #expect(response.status == .badRequest)   // not live
            }
            try await server.client.execute(uri: "/admin/metadata?mount=/live/test.mp3&mode=nope", method: .get,
                                            headers: [.authorization: Self.sourceAuth]) { response in
                #expect(String(buffer: response.body) == IcecastAdminResponse.noSuchAction)
            }
            try await server.client.execute(uri: "/admin/metadata?mount=/live/test.mp3&mode=updinfo&song=Artist%20-%20Song",
                                            method: .get, headers: [.authorization: Self.sourceAuth]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/xml; charset=utf-8")
                #expect(String(buffer: response.body) == IcecastAdminResponse.metadataUpdated)
            }
            try await server.client.execute(uri: "/status-json.xsl", method: .get) { response in
                let json = String(buffer: response.body)
                #expect(json.contains("/live/test.mp3\"") && json.contains("\"listeners\":0"))
                #expect(json.contains("\"server_name\":\"Harness\"") && json.contains("\"title\":\"Artist - Song\""))
                #expect(json.contains("\"source\":{"))
            }
            let (listener, head, firstBytes) = try await blocking { () -> (RawClient, String, [UInt8]) in
                let client = try RawClient(port: port)
                client.send("GET /live/test.mp3 HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n")
                let (head, rest) = client.receiveHead()   // the listener has joined
                return (client, head, rest)
            }
            source.send(Array(mp3[step..<2 * step]))
            try await server.waitForBytes(2 * step)
            try await server.client.execute(uri: "/admin/metadata?mount=/live/test.mp3&mode=updinfo&song=Caf%C3%A9&charset=UTF-8",
                                            method: .get, headers: [.authorization: Self.sourceAuth]) { response in
                #expect(response.status == .ok)
            }
            // The JSON equivalent, with a bad key first.
            try await server.client.execute(uri: "/api/radio/metadata", method: .post,
                                            headers: [.authorization: "Basic " + Data("source:bad".utf8).base64EncodedString()],
                                            body: ByteBuffer(string: #"{"mount":"/live/test.mp3","title":"Nope"}"#)) { response in
                #expect(response.status == .unauthorized)
            }
            source.send(Array(mp3[(2 * step)..<(3 * step)]))
            try await server.waitForBytes(3 * step)
            try await server.client.execute(uri: "/api/radio/metadata", method: .post, headers: [.authorization: Self.sourceAuth],
                                            body: ByteBuffer(string: #"{"mount":"/live/test.mp3","title":"Third"}"#)) { response in
                #expect(response.status == .ok)
            }
            source.send(Array(mp3[(3 * step)...]))
            try await server.waitForBytes(mp3.count)
            source.shutdownWrite()
            let body = try await blocking { firstBytes + listener.receiveAll().bytes }
            #expect(head.contains("\r\nicy-metaint:16000\r\n"))
            let (audio, titles, blocks) = stripIcy(body)
            #expect(blocks >= 10)
            #expect(titles == [Array("StreamTitle='';".utf8), Array("StreamTitle='Artist - Song';".utf8),
                               Array("StreamTitle='Caf".utf8) + [0xE9] + Array("';".utf8), Array("StreamTitle='Third';".utf8)])
            #expect(audio.count > 64 * 1024 && Array(mp3.suffix(audio.count)) == audio)
            // The mount is gone: 404 and no source in the status.
            try await server.client.execute(uri: "/status-json.xsl", method: .get) { response in
                #expect(!String(buffer: response.body).contains("\"source\""))
            }
        }
    }

    @Test("a source that drops and returns within the grace period continues one episode; listeners hear silence meanwhile; the recording holds every byte")
    func graceAndRecording() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .milliseconds(1500) }) { server in
            let mp3 = try makeMP3(seconds: 6, in: server.data.appendingPathComponent("fixtures"))
            let half = 3 * 16_000 + 7
            let port = server.port
            let (first, answer) = try await blocking { try server.connectSource() }
            #expect(answer.count == 63)
            first.send(Array(mp3[..<half]))
            try await server.waitForBytes(half)
            let listener = try await blocking { () -> RawClient in
                let client = try RawClient(port: port)
                client.send("GET /live/test.mp3 HTTP/1.0\r\n\r\n")
                return client
            }
            try await server.waitForListeners(1)
            first.shutdownWrite()
            // The source is gone: the listener hears silent frames (header then zeros) meanwhile.
            let silent = MPEGAudioHeader(mp3, at: 0)!.silentFrame()
            var heard: [UInt8] = []
            try await waitUntil("the listener heard a silent frame") {
                heard += try await blocking { listener.receive() ?? [] }
                return heard.firstRange(of: silent) != nil
            }
            // The returning source sends audio right behind its head, without waiting for the
            // answer (curl does): those bytes are held while the mount is claimed, not lost.
            let (second, secondAnswer) = try await blocking { () -> (RawClient, [UInt8]) in
                let client = try RawClient(port: port)
                let auth = Data("source:k3y".utf8).base64EncodedString()
                client.send(Array("SOURCE /live/test.mp3 HTTP/1.0\r\nAuthorization: Basic \(auth)\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)
                            + Array(mp3[half..<(half + 5000)]))
                client.send(Array(mp3[(half + 5000)..<(half + 9000)]))
                return (client, client.receive(count: 19))
            }
            #expect(String(decoding: secondAnswer, as: UTF8.self) == "HTTP/1.0 200 OK\r\n\r\n")
            second.send(Array(mp3[(half + 9000)...]))
            try await server.waitForBytes(mp3.count)
            second.shutdownWrite()
            let started = Date()
            let (rest, eof) = try await blocking { listener.receiveAll() }
            #expect(eof)
            #expect(Date().timeIntervalSince(started) > 1.0)  // held open for the grace period
            #expect(server.directory.started.count == 1)
            let stream = heard + rest
            let headEnd = try #require(stream.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
            let body = Array(stream[headEnd...])
            #expect(body.firstRange(of: silent) != nil)
            #expect(body.count > mp3.count - half)
            // The episode ended once, with every source byte recorded in order.
            try await server.waitForEndedEpisodes(1)
            let ended = server.directory.ended
            #expect(ended.count == 1 && ended.first?.bytes == Int64(mp3.count))
            #expect(ended.first?.listens == 1 && ended.first?.peakListeners == 1)
            let file = try #require(server.directory.started.first?.file)
            #expect(Array(try Data(contentsOf: file)) == mp3)
        }
    }

    @Test("a source that sends nothing is disconnected after the source timeout")
    func sourceTimeout() async throws {
        try await RadioTestServer.run(configure: { $0.sourceTimeout = .milliseconds(500); $0.gracePeriod = .zero }) { server in
            let (eof, elapsed) = try await blocking { () -> (Bool, Double) in
                let (source, _) = try server.connectSource()
                let start = Date()
                let (_, eof) = source.receiveAll()
                return (eof, Date().timeIntervalSince(start))
            }
            #expect(eof && elapsed >= 0.4 && elapsed < 3)
        }
    }

    @Test("a listener that stops reading is dropped once it lags; a reading listener gets every byte meanwhile")
    func slowListenerDropped() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero; $0.slowListenerSeconds = 1 }) { server in
            let mp3 = try makeMP3(seconds: 60, in: server.data.appendingPathComponent("fixtures"))
            let port = server.port
            let (source, _) = try await blocking { try server.connectSource() }
            source.send(Array(mp3[..<16_000]))
            let (slow, slowHead) = try await blocking { () -> (RawClient, String) in
                let client = try RawClient(port: port, receiveBuffer: 4096)
                client.send("GET /live/test.mp3 HTTP/1.0\r\n\r\n")
                return (client, client.receiveHead().head)
            }
            #expect(slowHead.hasPrefix("HTTP/1.0 200 OK"))
            let (fast, fastHead, fastFirst) = try await blocking { () -> (RawClient, String, [UInt8]) in
                let client = try RawClient(port: port)
                client.send("GET /live/test.mp3 HTTP/1.0\r\n\r\n")
                let (head, rest) = client.receiveHead()
                return (client, head, rest)
            }
            #expect(fastHead.hasPrefix("HTTP/1.0 200 OK"))
            let reader = Task.detached { fastFirst + fast.receiveAll().bytes }
            // 16× real time: 25.6 KB per 100 ms batch, well under a listener's write buffer.
            try await blocking {
                var offset = 16_000
                while offset < mp3.count {
                    let end = min(mp3.count, offset + 8192)
                    source.send(Array(mp3[offset..<end]))
                    offset = end
                    usleep(32_000)   // the source's pace is the scenario (16× real time), not a wait
                }
                source.shutdownWrite()
            }
            let received = await reader.value
            #expect(Array(mp3.prefix(received.count)) == received)
            #expect(received.count == mp3.count)
            #expect(server.radio.listenerTotals.dropped == 1)
            let slowBytes = try await blocking { slow.receiveAll().bytes.count }
            #expect(slowBytes < mp3.count / 2)   // closed long before the end
            // Prometheus sees the traffic and the drop (process-wide counters: at least these).
            try await server.client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                func value(_ name: String) -> Double {
                    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                        .flatMap { Double($0.split(separator: " ").last!) } ?? -1
                }
                #expect(value("quintet_radio_listener_drops_total") >= 1)
                #expect(value("quintet_radio_bytes_in_total") >= Double(mp3.count))
                #expect(value("quintet_radio_bytes_out_total") >= Double(mp3.count))
            }
        }
    }

    @Test("when a broadcast ends, plain listeners move to the show's live fallback mount on the same connection")
    func fallbackMount() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            server.directory.add(LiveShow(id: 1, title: "Test Show", mount: "/live/test.mp3", streamKey: "k3y",
                                          fallbackMount: "/live/other.mp3"))
            let a = try makeMP3(seconds: 4, frequency: 440, in: server.data.appendingPathComponent("fixtures"))
            let b = try makeMP3(seconds: 12, frequency: 880, in: server.data.appendingPathComponent("fixtures"))
            let port = server.port
            let (fallback, _) = try await blocking { try server.connectSource(mount: "/live/other.mp3", key: "0ther") }
            fallback.send(Array(b[..<(4 * 16_000)]))
            let (main, _) = try await blocking { try server.connectSource() }
            main.send(a)
            try await server.waitForBytes(4 * 16_000, at: "/live/other.mp3")
            try await server.waitForBytes(a.count)
            let (listener, head, first) = try await blocking { () -> (RawClient, String, [UInt8]) in
                let client = try RawClient(port: port)
                client.send("GET /live/test.mp3 HTTP/1.0\r\n\r\n")
                let (head, rest) = client.receiveHead()
                return (client, head, rest)
            }
            #expect(head.hasPrefix("HTTP/1.0 200 OK"))
            main.shutdownWrite()
            try await server.waitForListeners(1, at: "/live/other.mp3")   // moved to the fallback
            fallback.send(Array(b[(4 * 16_000)...]))
            try await server.waitForBytes(b.count, at: "/live/other.mp3")
            fallback.shutdownWrite()
            let body = try await blocking { first + listener.receiveAll().bytes }
            // The listener got the end of broadcast A, then broadcast B from a frame boundary.
            let tailOfA = Array(a.suffix(16_000))
            let endOfA = try #require(body.firstRange(of: tailOfA)).upperBound
            let rest = Array(body[endOfA...])
            #expect(rest.count > 4 * 16_000)
            #expect(Array(b.suffix(rest.count)) == rest)
        }
    }

    @Test("a broadcast longer than the show's maximum episode length is cut off and its episode ends")
    func maximumEpisodeLength() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            server.directory.add(LiveShow(id: 1, title: "Test Show", mount: "/live/test.mp3", streamKey: "k3y",
                                          fallbackMount: nil, maxEpisodeSeconds: 1))
            let mp3 = try makeMP3(seconds: 8, in: server.data.appendingPathComponent("fixtures"))
            let (cutAfter, eof) = try await blocking { () -> (Double, Bool) in
                let (source, _) = try server.connectSource()
                let start = Date()
                var offset = 0
                while offset < mp3.count, source.send(Array(mp3[offset..<min(mp3.count, offset + 4000)])) {
                    offset += 4000
                    usleep(100_000)   // a source at about real time, so the broadcast outlasts its 1 s limit: not a wait
                    if Date().timeIntervalSince(start) > 4 { break }
                }
                let eof = source.receiveAll().eof
                return (Date().timeIntervalSince(start), eof)
            }
            #expect(eof && cutAfter < 3.5)
            try await server.waitForEndedEpisodes(1)
            // A source that comes straight back is refused, and told why.
            let answer = try await blocking { () -> String in
                let (source, head) = try server.connectSource()
                return String(decoding: head + source.receiveAll().bytes, as: UTF8.self)
            }
            #expect(answer.hasPrefix("HTTP/1.0 403 Forbidden\r\n"))
            #expect(answer.contains("Retry-After: "))
            #expect(answer.contains("Maximum episode length reached: this show's broadcasts are limited to 1 s"))
            #expect(server.directory.ended.count == 1)
            #expect(server.radio.mount(at: "/live/test.mp3") == nil)
        }
    }

    @Test("a broadcast is cut when its recording fills what the plan's storage leaves; a full storage refuses the source")
    func planStorage() async throws {
        try await RadioTestServer.run(configure: { $0.gracePeriod = .zero }) { server in
            let left = StorageLeft(plan: "tiny", used: 100_000, allowed: 120_000)   // 20,000 bytes left
            server.directory.add(LiveShow(id: 1, title: "Test Show", mount: "/live/test.mp3", streamKey: "k3y",
                                          fallbackMount: nil, storage: left))
            let mp3 = try makeMP3(seconds: 8, in: server.data.appendingPathComponent("fixtures"))
            let (sent, eof) = try await blocking { () -> (Int, Bool) in
                let (source, _) = try server.connectSource()
                let start = Date()
                var offset = 0
                while offset < mp3.count, source.send(Array(mp3[offset..<min(mp3.count, offset + 4000)])) {
                    offset += 4000
                    usleep(100_000)   // 40 kB/s, so the 20 kB left are passed within a second: not a wait
                    if Date().timeIntervalSince(start) > 4 { break }
                }
                return (offset, source.receiveAll().eof)
            }
            #expect(eof && sent < mp3.count)
            try await server.waitForEndedEpisodes(1)
            let recorded = try #require(server.directory.ended.first?.bytes)
            // Cut at the first tick past the limit: one 500 ms tick is 20 kB at this rate (4 kB of slack).
            #expect(recorded >= 20_000 && recorded < 20_000 + 24_000)
            let answer = try await blocking { () -> String in
                let (source, head) = try server.connectSource()
                return String(decoding: head + source.receiveAll().bytes, as: UTF8.self)
            }
            #expect(answer.hasPrefix("HTTP/1.0 403 Forbidden\r\n") && answer.contains("Retry-After: "))
            #expect(answer.contains("Plan storage full"))
        }
        try await RadioTestServer.run { server in
            let full = StorageLeft(plan: "tiny", used: 120_000, allowed: 120_000)
            server.directory.add(LiveShow(id: 1, title: "Test Show", mount: "/live/test.mp3", streamKey: "k3y",
                                          fallbackMount: nil, storage: full))
            let answer = try await blocking { () -> String in
                let (source, head) = try server.connectSource()
                return String(decoding: head + source.receiveAll().bytes, as: UTF8.self)
            }
            #expect(answer.hasPrefix("HTTP/1.0 403 Forbidden\r\n"))
            #expect(answer.contains("Plan limit reached: plan 'tiny' allows 120000 bytes"))
            #expect(server.radio.mount(at: "/live/test.mp3") == nil && server.directory.ended.isEmpty)
        }
    }
}
