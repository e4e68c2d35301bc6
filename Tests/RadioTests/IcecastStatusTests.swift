import Foundation
import Radio
import Testing

@Suite("Icecast status JSON and admin answers")
struct IcecastStatusTests {
    static func date(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    static let live = IcecastMountStatus(
        genre: "Test", listenerPeak: 2, listeners: 1, listenURL: "http://127.0.0.1:18000/live.mp3",
        serverDescription: "generated test signal", serverName: "Harness Test Stream",
        serverType: "audio/mpeg", serverURL: "http://127.0.0.1/",
        streamStart: date("2026-11-22T03:19:15Z"), title: "Status Title")
    static let second = IcecastMountStatus(
        genre: "Test", listenerPeak: 0, listeners: 0, listenURL: "http://127.0.0.1:18000/second.mp3",
        serverDescription: "generated test signal", serverName: "Harness Test Stream",
        serverType: "audio/mpeg", serverURL: "http://127.0.0.1/",
        streamStart: date("2026-11-22T03:19:55Z"))

    static func status(_ mounts: [IcecastMountStatus]) -> IcecastStatus {
        IcecastStatus(admin: "harness@localhost", host: "127.0.0.1", location: "loopback-harness",
                      serverStart: date("2026-11-22T03:18:15Z"), mounts: mounts)
    }

    @Test("one live mount: byte-identical to icecast's capture [50]")
    func oneSource() {
        let expected = #"{"icestats":{"admin":"harness@localhost","host":"127.0.0.1","location":"loopback-harness","server_id":"Icecast 2.4.4","server_start":"Sun, 22 Nov 2026 03:18:15 +0000","server_start_iso8601":"2026-11-22T03:18:15+0000","source":{"genre":"Test","listener_peak":2,"listeners":1,"listenurl":"http://127.0.0.1:18000/live.mp3","server_description":"generated test signal","server_name":"Harness Test Stream","server_type":"audio/mpeg","server_url":"http://127.0.0.1/","stream_start":"Sun, 22 Nov 2026 03:19:15 +0000","stream_start_iso8601":"2026-11-22T03:19:15+0000","title":"Status Title","dummy":null}}}"#
        let json = Self.status([Self.live]).json()
        #expect(json == expected)
        #expect(json.utf8.count == 598)  // icecast's Content-Length
    }

    @Test("two live mounts: an array, byte-identical to capture [52]; none: no source key")
    func twoAndNone() throws {
        let two = Self.status([Self.live, Self.second]).json()
        #expect(two.utf8.count == 950)
        #expect(two.hasSuffix(#""stream_start_iso8601":"2026-11-22T03:19:55+0000","dummy":null}]}}"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(two.utf8)) as? [String: Any])
        let stats = try #require(object["icestats"] as? [String: Any])
        let sources = try #require(stats["source"] as? [[String: Any]])
        #expect(sources.count == 2)
        #expect(sources[1]["title"] == nil && sources[0]["title"] as? String == "Status Title")
        #expect(sources[0]["listeners"] as? Int == 1 && sources[0]["listener_peak"] as? Int == 2)
        #expect(stats["dummy"] == nil)  // only the last source object carries it
        #expect(two == #"{"icestats":{"admin":"harness@localhost","host":"127.0.0.1","location":"loopback-harness","server_id":"Icecast 2.4.4","server_start":"Sun, 22 Nov 2026 03:18:15 +0000","server_start_iso8601":"2026-11-22T03:18:15+0000","source":[{"genre":"Test","listener_peak":2,"listeners":1,"listenurl":"http://127.0.0.1:18000/live.mp3","server_description":"generated test signal","server_name":"Harness Test Stream","server_type":"audio/mpeg","server_url":"http://127.0.0.1/","stream_start":"Sun, 22 Nov 2026 03:19:15 +0000","stream_start_iso8601":"2026-11-22T03:19:15+0000","title":"Status Title","dummy":null},{"genre":"Test","listener_peak":0,"listeners":0,"listenurl":"http://127.0.0.1:18000/second.mp3","server_description":"generated test signal","server_name":"Harness Test Stream","server_type":"audio/mpeg","server_url":"http://127.0.0.1/","stream_start":"Sun, 22 Nov 2026 03:19:55 +0000","stream_start_iso8601":"2026-11-22T03:19:55+0000","dummy":null}]}}"#)
        let none = Self.status([]).json()
        #expect(!none.contains("\"source\""))
        // Byte-identical to capture [01b].
        #expect(none == #"{"icestats":{"admin":"harness@localhost","host":"127.0.0.1","location":"loopback-harness","server_id":"Icecast 2.4.4","server_start":"Sun, 22 Nov 2026 03:18:15 +0000","server_start_iso8601":"2026-11-22T03:18:15+0000","dummy":null}}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(none.utf8)) is [String: Any])
    }

    @Test("titles with quotes, backslashes and controls stay valid JSON")
    func escaping() throws {
        var m = Self.live
        m.title = "He said \"hi\" \\ o/\n\u{01}Café"
        let json = Self.status([m]).json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let source = try #require((object["icestats"] as? [String: Any])?["source"] as? [String: Any])
        #expect(source["title"] as? String == m.title)
        #expect(json.contains(#"\u0001"#))
    }

    @Test("admin metadata answers are icecast's exact bytes")
    func adminAnswers() {
        #expect(IcecastAdminResponse.metadataUpdated ==
                "<?xml version=\"1.0\"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n")
        #expect(IcecastAdminResponse.metadataUpdated.utf8.count == 113)
        #expect(IcecastAdminResponse.noSuchAction ==
                "<?xml version=\"1.0\"?>\n<iceresponse><message>No such action</message><return>0</return></iceresponse>\n")
        #expect(IcecastAdminResponse.noSuchAction.utf8.count == 101)
    }
}
