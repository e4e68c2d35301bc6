import Foundation
import Radio
import Testing

@Suite("Icecast relays: recognition, ICY continuation, status key")
struct IcecastRelayTests {
    @Test("icecast's User-Agent, ?relay=1 and X-Quintet-Relay: 1 mark a relay; players do not")
    func recognition() {
        #expect(IcecastRelay.isRelay(userAgent: "Icecast 2.4.4", query: nil, relayHeader: nil))
        #expect(IcecastRelay.isRelay(userAgent: "icecast/2.5.0", query: nil, relayHeader: nil))
        #expect(IcecastRelay.isRelay(userAgent: "VLC/3.0.18 LibVLC/3.0.18", query: "relay=1", relayHeader: nil))
        #expect(IcecastRelay.isRelay(userAgent: nil, query: "a=b&relay=1", relayHeader: nil))
        #expect(IcecastRelay.isRelay(userAgent: "Lavf/60.3.100", query: nil, relayHeader: " 1"))
        #expect(!IcecastRelay.isRelay(userAgent: "Lavf/60.3.100", query: nil, relayHeader: nil))
        #expect(!IcecastRelay.isRelay(userAgent: "IcecastPlayer", query: nil, relayHeader: nil))
        #expect(!IcecastRelay.isRelay(userAgent: "Mozilla/5.0 Icecast 2.4.4", query: "relay=0", relayHeader: "0"))
        #expect(!IcecastRelay.isRelay(userAgent: nil, query: "relay=10", relayHeader: nil))
    }

    @Test("a continued ICY listener keeps its block rhythm and sends the new stream's title at once")
    func continuation() {
        var first = IcyTitleHistory()
        first.set(IcyTitle("Old"), at: 0)
        var icy = IcyInterleaver(metaint: 100, startingAt: 0)
        _ = icy.advance(to: 130, titles: first)   // one block sent, 70 audio bytes left before the next
        #expect(icy.bytesUntilBlock == 70)
        var second = IcyTitleHistory()
        second.set(IcyTitle("Old"), at: 0)       // same text: still sent, the listener changed streams
        var moved = icy.continuing(at: 5_000)
        #expect(moved.position == 5_000 && moved.bytesUntilBlock == 70 && moved.metaint == 100)
        let pieces = moved.advance(to: 5_100, titles: second)
        #expect(pieces.first == .audio(5_000..<5_070))
        #expect(pieces.dropFirst().first == .metadata(IcyMetadata.block(for: IcyTitle("Old"))))
        #expect(pieces.last == .audio(5_070..<5_100))
    }

    @Test("status JSON: `relays` after `listenurl` when given, absent otherwise (icecast's bytes kept)")
    func statusKey() {
        var mount = IcecastStatusTests.live
        #expect(!IcecastStatusTests.status([mount]).json().contains("relays"))
        mount.relays = 2
        let json = IcecastStatusTests.status([mount]).json()
        #expect(json.contains(#""listeners":1,"listenurl":"http://127.0.0.1:18000/live.mp3","relays":2,"server_description""#))
    }
}
