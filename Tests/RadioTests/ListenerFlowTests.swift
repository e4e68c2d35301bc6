import Foundation
import Radio
import Testing

/// The core pieces together as the server will use them: a source feeding a mount's buffer and
/// title history, an ICY listener joining with a burst, and the listener's bytes checked the
/// way PROTOCOL.md's listeners.py checks icecast (blocks stripped, MP3 frames walked).
@Suite("Listener flow")
struct ListenerFlowTests {
    @Test("a late ICY listener gets the burst position's title first, then the newer one once")
    func lateListener() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try Fixtures.encode("live.mp3", in: dir, seconds: 30, codec: ["-c:a", "libmp3lame", "-b:a", "128k"])
        var buffer = StreamBuffer<[UInt8]>(framing: AudioFraming(contentType: "audio/mpeg"))
        var titles = IcyTitleHistory()
        // Source: 418-byte writes like ffmpeg; titles set while streaming (as /admin/metadata would).
        var sent = 0
        func feed(until end: Int) {
            while sent < min(end, source.count) {
                let n = min(418, source.count - sent)
                buffer.append(Array(source[sent..<sent + n]))
                sent += n
            }
        }
        feed(until: 100_000)
        titles.set(IcyTitle("Old Title"), at: buffer.endOffset)
        feed(until: 200_000)
        titles.set(IcyTitle("Before Listening"), at: buffer.endOffset)
        let titleOffset = buffer.endOffset
        feed(until: 220_000)
        // Listener joins now: burst starts ~64 KiB back, before "Before Listening" was set.
        let start = buffer.burstStart()
        #expect(start < titleOffset)
        var icy = IcyInterleaver(startingAt: start)
        var body: [UInt8] = []
        func deliver() {
            for piece in icy.advance(to: buffer.endOffset, titles: titles) {
                switch piece {
                case .audio(let range):
                    for slice in buffer.slices(for: range) { body += slice.chunk[slice.range] }
                case .metadata(let block): body += block
                }
            }
        }
        deliver()
        feed(until: 300_000)
        titles.set(IcyTitle("Changed While Listening"), at: buffer.endOffset)
        let changeOffset = buffer.endOffset
        deliver()
        feed(until: source.count)
        deliver()

        let (audio, blocks) = IcyMetadataTests.parse(body, metaint: 16_000)
        #expect(audio == Array(source[Int(start)...]))
        let named = blocks.compactMap { block in IcyMetadataTests.title(of: block.body).map { (block.at, $0) } }
        #expect(named.map(\.1) == ["Old Title", "Before Listening", "Changed While Listening"])
        // Each title arrives in the first block after its stream position.
        let positions = [titleOffset, changeOffset].map { Int($0 - start) }
        for (k, position) in positions.enumerated() {
            let at = named[k + 1].0
            #expect(at >= position && at < position + 16_000)
        }
        // The audio without blocks is a clean MP3 stream from a frame start to the end.
        let summary = try #require(AudioStreamSummary(bytes: audio, framing: .mpegAudio))
        #expect(summary.skippedBytes == 0 && summary.firstFrameOffset == 0 && summary.truncatedBytes == 0)
    }
}
