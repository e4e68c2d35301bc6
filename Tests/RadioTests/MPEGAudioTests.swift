import Foundation
import MediaTags
import Radio
import Testing

@Suite("MPEG audio and ADTS framing")
struct MPEGAudioTests {
    @Test("Layer III header fields for MPEG-1, 2 and 2.5")
    func headerFields() throws {
        let h = try #require(MPEGAudioHeader(0xFF, 0xFB, 0x90, 0x44))
        #expect(h.version == .mpeg1)
        #expect(h.bitrate == 128_000)
        #expect(h.sampleRate == 44100)
        #expect(!h.padding && !h.hasCRC)
        #expect(h.channelMode == .jointStereo)
        #expect(h.frameLength == 417)
        #expect(h.samplesPerFrame == 1152)
        #expect(h.sideInfoLength == 32)
        let padded = try #require(MPEGAudioHeader(0xFF, 0xFB, 0x92, 0x44))
        #expect(padded.frameLength == 418)
        // MPEG-2, 64 kbit/s (index 8), 22.05 kHz, mono, CRC present.
        let m2 = try #require(MPEGAudioHeader(0xFF, 0xF2, 0x80, 0xC0))
        #expect(m2.version == .mpeg2 && m2.bitrate == 64000 && m2.sampleRate == 22050)
        #expect(m2.channelMode == .mono && m2.hasCRC && m2.channels == 1)
        #expect(m2.samplesPerFrame == 576 && m2.frameLength == 72 * 64000 / 22050)
        #expect(m2.sideInfoLength == 9 && m2.xingOffset == 4 + 2 + 9)  // the CRC comes before the side info
        // MPEG-2.5, 8 kbit/s (index 1), 8 kHz (index 2).
        let m25 = try #require(MPEGAudioHeader(0xFF, 0xE3, 0x18, 0x00))
        #expect(m25.version == .mpeg25 && m25.bitrate == 8000 && m25.sampleRate == 8000)
        #expect(m25.frameLength == 72)
    }

    @Test("free-format, bad and reserved values are rejected")
    func rejects() {
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0x00, 0x44) == nil)  // free format
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0xF0, 0x44) == nil)  // bitrate index 15
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0x9C, 0x44) == nil)  // sample-rate index 3
        #expect(MPEGAudioHeader(0xFF, 0xEB, 0x90, 0x44) == nil)  // version 01 reserved
        #expect(MPEGAudioHeader(0xFF, 0xF9, 0x90, 0x44) == nil)  // layer 00 reserved
        #expect(MPEGAudioHeader(0xFF, 0xFD, 0x90, 0x44, accepting: .layerIII) == nil)  // layer II: not Layer III
        #expect(MPEGAudioHeader(0xFF, 0xFD, 0x90, 0x44)?.layer == 2)  // … which files may hold
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0x90, 0x46) == nil)  // emphasis 10 reserved
        #expect(MPEGAudioHeader(0xFE, 0xFB, 0x90, 0x44) == nil)  // no sync
        #expect(MPEGAudioHeader([0xFF, 0xFB, 0x90], at: 0) == nil)  // too short
    }

    @Test("ADTS header fields and rejects")
    func adts() throws {
        // LC (profile 1), 44.1 kHz (index 4), stereo, no CRC, 371-byte frame, 1 raw block.
        let length = 371
        let bytes: [UInt8] = [0xFF, 0xF1, 0x50, 0x80 | UInt8(length >> 11),
                              UInt8((length >> 3) & 0xFF), UInt8((length & 7) << 5) | 0x1F, 0xFC]
        let h = try #require(ADTSHeader(bytes, at: 0))
        #expect(h.sampleRate == 44100 && h.profile == 1 && h.channelConfiguration == 2)
        #expect(h.frameLength == 371 && !h.hasCRC && h.samplesPerFrame == 1024)
        var reserved = bytes
        reserved[2] = 0x50 | (13 << 2) & 0x3C
        #expect(ADTSHeader(reserved, at: 0) == nil)
        var short = bytes
        short[3] = 0x80; short[4] = 0; short[5] = 0x1F   // length 0
        #expect(ADTSHeader(short, at: 0) == nil)
        var layer = bytes
        layer[1] = 0xF3
        #expect(ADTSHeader(layer, at: 0) == nil)
    }

    @Test("the scanner resyncs mid-frame, across pieces, and skips garbage between frames")
    func scannerResync() {
        let frames = Fixtures.fakeFrames(6)
        let garbage: [UInt8] = [0x00, 0xFF, 0xFB, 0x12, 0x34] + [UInt8](repeating: 0xAB, count: 50)
        // Starts 100 bytes into a frame; garbage after frame 3 of the second run.
        let stream = Array(frames[100...]) + Fixtures.fakeFrames(3) + garbage + Fixtures.fakeFrames(4)
        let expectedStarts: [Int64] = {
            var s: [Int64] = []
            var o = Int64(417 - 100)
            for _ in 0..<8 { s.append(o); o += 417 }  // 5 left of the first run + 3
            o += Int64(garbage.count)
            for _ in 0..<4 { s.append(o); o += 417 }
            return s
        }()
        for pieceSize in [1, 7, 417, 1000, stream.count] {
            var scanner = AudioFrameScanner(framing: .mpegAudio)
            var found: [Int64] = []
            var i = 0
            while i < stream.count {
                let end = min(stream.count, i + pieceSize)
                found += scanner.append(stream[i..<end]).map(\.offset)
                i = end
            }
            found += scanner.finish().map(\.offset)
            #expect(found == expectedStarts, "piece size \(pieceSize)")
            #expect(scanner.skippedBytes == Int64(317 + garbage.count), "piece size \(pieceSize)")
        }
    }

    @Test("a lone false sync inside payload is not taken for a frame")
    func falseSync() {
        // A valid-looking header in junk, not followed by two more: must be skipped.
        let junk: [UInt8] = [1, 2, 3] + Fixtures.header128 + [UInt8](repeating: 9, count: 600)
        var scanner = AudioFrameScanner(framing: .mpegAudio)
        let found = scanner.append(junk + Fixtures.fakeFrames(3)) + scanner.finish()
        #expect(found.map(\.offset) == [Int64(junk.count), Int64(junk.count + 417), Int64(junk.count + 834)])
    }

    @Test("summary: ID3v2 skipped, garbage skipped, truncated frame dropped")
    func summaryEdgeCases() throws {
        var tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 1, 0]  // size 128 (syncsafe 0x01 0x00)
        tag += [UInt8](repeating: 0xFF, count: 128)   // hostile tag body full of sync bytes
        let body = Fixtures.fakeFrames(10) + [0, 0, 0] + Fixtures.fakeFrames(5) + Array(Fixtures.fakeFrames(1)[0..<200])
        let s = try #require(AudioStreamSummary(bytes: tag + body, framing: .mpegAudio))
        #expect(s.id3v2Length == 138)
        #expect(s.frameCount == 15)
        #expect(s.sampleCount == 15 * 1152)
        #expect(s.skippedBytes == 3)
        #expect(s.truncatedBytes == 200)
        #expect(s.firstFrameOffset == 138)
        #expect(abs(s.duration - 15 * 1152 / 44100.0) < 1e-9)
        #expect(AudioStreamSummary(bytes: [UInt8](repeating: 7, count: 5000), framing: .mpegAudio) == nil)
    }

    @Test("ID3v2 footer flag adds 10 bytes")
    func id3Footer() {
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0x10, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 40)
        #expect(AudioStreamSummary.id3v2Length(tag) == 40)
        #expect(AudioStreamSummary.id3v2Length(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0]) == 0)
    }

    @Test("durations of files ffmpeg encodes match ffprobe",
          arguments: [
              ("cbr.mp3", 44100, 2, ["-c:a", "libmp3lame", "-b:a", "128k"]),
              ("vbr.mp3", 48000, 2, ["-c:a", "libmp3lame", "-q:a", "2"]),
              ("mono22.mp3", 22050, 1, ["-c:a", "libmp3lame", "-b:a", "48k"]),
              ("mpeg25.mp3", 8000, 1, ["-c:a", "libmp3lame", "-b:a", "16k"]),
              ("noxing.mp3", 44100, 2, ["-c:a", "libmp3lame", "-b:a", "192k", "-write_xing", "0", "-id3v2_version", "0"]),
          ])
    func ffmpegDurations(name: String, rate: Int, channels: Int, codec: [String]) throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Fixtures.encode(name, in: dir, seconds: 4.3, sampleRate: rate, channels: channels, codec: codec)
        let url = dir.appendingPathComponent(name)
        let s = try #require(AudioStreamSummary(bytes: bytes, framing: .mpegAudio))
        #expect(s.sampleRate == rate)
        #expect(s.frameCount == (try Fixtures.probeFrameCount(url)))
        #expect(s.skippedBytes == 0 && s.truncatedBytes == 0)
        if name == "noxing.mp3" {
            #expect(!s.hasXingHeader && s.id3v2Length == 0)
        } else {
            #expect(s.hasXingHeader && s.id3v2Length > 0)
            #expect(abs(s.duration - (try Fixtures.probeDuration(url))) < 2e-6)
        }
        // At least the encoded length, at most one frame plus the encoder delay longer.
        #expect(s.duration >= 4.3 && s.duration < 4.3 + 2 * Double(s.sampleCount / s.frameCount) / Double(rate) + 0.05)
    }

    @Test("ADTS AAC from ffmpeg: frame count matches ffprobe")
    func ffmpegADTS() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Fixtures.encode("a.aac", in: dir, seconds: 3, codec: ["-c:a", "aac", "-b:a", "96k", "-f", "adts"])
        let s = try #require(AudioStreamSummary(bytes: bytes, framing: .adts))
        let frames = try Fixtures.probeFrameCount(dir.appendingPathComponent("a.aac"))
        #expect(s.frameCount == frames)
        #expect(s.sampleRate == 44100)
        #expect(abs(s.duration - Double(frames * 1024) / 44100) < 1e-9)
        // Cut the file mid-way and into pieces: the scanner finds the same frames after resync.
        var scanner = AudioFrameScanner(framing: .adts)
        var count = 0
        var i = 1000
        while i < bytes.count {
            count += scanner.append(bytes[i..<min(bytes.count, i + 333)]).count
            i += 333
        }
        count += scanner.finish().count
        #expect(count >= frames - 5 && count < frames)
    }
}
