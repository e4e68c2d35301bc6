import MediaTags
import Radio
import Testing

/// Untrusted bytes (a source can send anything): no crash, and piecewise scanning agrees with
/// scanning all at once.
@Suite("Robustness on hostile bytes")
struct RobustnessTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
    }

    /// Random bytes salted with sync words and real frames, so false syncs are frequent.
    static func hostile(seed: UInt64, count: Int, framing: AudioFraming) -> [UInt8] {
        var g = Generator(state: seed)
        var out: [UInt8] = []
        while out.count < count {
            switch g.next() % 10 {
            case 0: out += [0xFF, framing == .adts ? 0xF1 : 0xFB]
            case 1 where framing == .mpegAudio: out += Fixtures.fakeFrames(1 + Int(g.next() % 4))
            case 1: out += Fixtures.fakeADTSFrames(1 + Int(g.next() % 4))
            case 2: out += [0xFF, 0xFB, UInt8(truncatingIfNeeded: g.next()), UInt8(truncatingIfNeeded: g.next())]
            default: out.append(UInt8(truncatingIfNeeded: g.next()))
            }
        }
        return out
    }

    @Test("piecewise scanning equals one-shot scanning; every frame found has a valid header",
          arguments: [AudioFraming.mpegAudio, .adts], [1, 2, 3, 4, 5])
    func scanAgreement(framing: AudioFraming, seed: UInt64) {
        let bytes = Self.hostile(seed: seed, count: 60_000, framing: framing)
        var whole = AudioFrameScanner(framing: framing)
        let expected = (whole.append(bytes) + whole.finish()).map(\.offset)
        var g = Generator(state: seed ^ 0xABCDEF)
        var pieces = AudioFrameScanner(framing: framing)
        var found: [Int64] = []
        var i = 0
        while i < bytes.count {
            let n = 1 + Int(g.next() % 3000)
            found += pieces.append(bytes[i..<min(bytes.count, i + n)]).map(\.offset)
            i += n
        }
        found += pieces.finish().map(\.offset)
        #expect(found == expected)
        #expect(found.count > 20)
        #expect(pieces.skippedBytes == whole.skippedBytes)
        for offset in found {
            let valid = framing == .mpegAudio ? MPEGAudioHeader(bytes, at: Int(offset)) != nil
                                              : ADTSHeader(bytes, at: Int(offset)) != nil
            #expect(valid, "frame at \(offset)")
        }
        _ = AudioStreamSummary(bytes: bytes, framing: framing)
        var buffer = StreamBuffer<[UInt8]>(capacity: 8192, framing: framing)
        for start in stride(from: 0, to: bytes.count, by: 777) {
            buffer.append(Array(bytes[start..<min(bytes.count, start + 777)]))
            let burst = buffer.burstStart(size: 4096)
            #expect(burst >= buffer.startOffset && burst <= buffer.endOffset)
        }
    }
}
