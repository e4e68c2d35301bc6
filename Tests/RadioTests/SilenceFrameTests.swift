import Foundation
import MediaTags
import Radio
import Testing

@Suite("Silence frames")
struct SilenceFrameTests {
    @Test("a silent frame keeps the live stream's format and drops padding and CRC")
    func format() throws {
        // MPEG-1 128 kbit/s 44.1 kHz, CRC, padding, private bit, joint stereo with mode extension.
        let live = try #require(MPEGAudioHeader(0xFF, 0xFA, 0x93, 0x64))
        let frame = live.silentFrame()
        let h = try #require(MPEGAudioHeader(frame[0], frame[1], frame[2], frame[3]))
        #expect(h.version == live.version && h.bitrate == live.bitrate && h.sampleRate == live.sampleRate)
        #expect(h.channelMode == live.channelMode)
        #expect(!h.padding && !h.hasCRC)
        #expect(frame.count == 417 && h.frameLength == frame.count)
        #expect(frame[4...].allSatisfy { $0 == 0 })
    }

    @Test("ffmpeg decodes a file of silent frames to exactly N frames of zero samples",
          arguments: [
              ([UInt8](arrayLiteral: 0xFF, 0xFB, 0x90, 0x44), 1152, 2),  // MPEG-1 128k 44.1k joint stereo
              ([UInt8](arrayLiteral: 0xFF, 0xFB, 0xB4, 0xC0), 1152, 1),  // MPEG-1 192k 48k mono
              ([UInt8](arrayLiteral: 0xFF, 0xF3, 0x80, 0x00), 576, 2),   // MPEG-2 64k 22.05k stereo
              ([UInt8](arrayLiteral: 0xFF, 0xE3, 0x58, 0xC0), 576, 1),   // MPEG-2.5 40k 8k mono
          ])
    func decodesToSilence(header: [UInt8], samples: Int, channels: Int) throws {
        let live = try #require(MPEGAudioHeader(header[0], header[1], header[2], header[3]))
        let n = 40
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("silence.mp3")
        let frame = live.silentFrame()
        try Data((0..<n).flatMap { _ in frame }).write(to: url)
        let pcm = try Fixtures.decodeS16(url)
        #expect(pcm.count == n * samples * channels * 2)
        #expect(!pcm.isEmpty && pcm.allSatisfy { $0 == 0 })
    }

    @Test("silence spliced into a real ffmpeg stream keeps it decodable, frames counted")
    func splice() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Fixtures.encode("live.mp3", in: dir, seconds: 2,
                                        codec: ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0"])
        let summary = try #require(AudioStreamSummary(bytes: bytes, framing: .mpegAudio))
        let live = try #require(MPEGAudioHeader(bytes, at: summary.firstFrameOffset))
        let spliced = bytes + (0..<25).flatMap { _ in live.silentFrame() } + bytes
        let s = try #require(AudioStreamSummary(bytes: spliced, framing: .mpegAudio))
        #expect(s.frameCount == 2 * summary.frameCount + 25)
        let url = dir.appendingPathComponent("spliced.mp3")
        try Data(spliced).write(to: url)
        #expect(try Fixtures.probeFrameCount(url) == s.frameCount)
    }
}
