import Foundation
import MediaTags
import Radio
import Testing

/// A finished recording gets the Xing/Info frame players read its duration from (issue 22 §0):
/// ffprobe's duration must then be the recording's exact one, VBR included.
@Suite("Xing/Info frame written into a finished MP3 recording")
struct MP3SeekHeaderTests {
    /// The big-endian 32-bit word at `offset`.
    static func word(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Checks the header frame at `at`: tag, counts, table; returns the frame's length.
    static func checkHeader(_ file: [UInt8], at: Int, tag: String, frames: Int) throws -> Int {
        let header = try #require(MPEGAudioHeader(file, at: at, accepting: .layerIII))
        let x = at + header.xingOffset
        #expect(String(decoding: file[x..<x + 4], as: UTF8.self) == tag)
        #expect(word(file, x + 4) == 7)                         // frames, bytes, TOC
        #expect(word(file, x + 8) == frames)
        #expect(word(file, x + 12) == file.count - at)          // the stream from this frame on
        let toc = Array(file[x + 16..<x + 116])
        #expect(toc[0] == 0 && zip(toc, toc.dropFirst()).allSatisfy { $0 <= $1 } && toc[99] > 200)
        #expect(AudioStreamSummary.isXingFrame(file, at: at))
        return header.frameLength
    }

    @Test("a VBR recording: Xing frame first, ffprobe's duration becomes the exact one; the audio bytes are untouched; a second call changes nothing")
    func vbr() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Fixtures.encode("vbr.mp3", in: folder, seconds: 6, sampleRate: 48000,
                                           codec: ["-c:a", "libmp3lame", "-q:a", "2", "-write_xing", "0", "-id3v2_version", "0"])
        let url = folder.appendingPathComponent("vbr.mp3")
        let summary = try #require(AudioStreamSummary(bytes: original, framing: .mpegAudio))
        let before = try Fixtures.probeDuration(url)
        #expect(try MP3SeekHeader.add(toFileAt: url))
        let file = Array(try Data(contentsOf: url))
        let length = try Self.checkHeader(file, at: 0, tag: "Xing", frames: summary.frameCount)
        #expect(Array(file[length...]) == original)
        let after = try Fixtures.probeDuration(url)
        #expect(abs(after - summary.duration) < 1e-3, "ffprobe \(after), frames say \(summary.duration) (before: \(before))")
        #expect(try Fixtures.probeFrameCount(url) == summary.frameCount)
        #expect(try RadioStore.summarize(fileAt: url, contentType: "audio/mpeg").duration == summary.duration)
        #expect(try !MP3SeekHeader.add(toFileAt: url))
        #expect(Array(try Data(contentsOf: url)) == file)
    }

    @Test("a CBR recording with an ID3v2 tag and a last frame cut short: Info frame after the tag, the cut frame not counted")
    func cbrTaggedAndCut() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var original = try Fixtures.encode("cbr.mp3", in: folder, seconds: 4, codec: ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0"])
        original.removeLast(100)
        let url = folder.appendingPathComponent("cbr.mp3")
        try Data(original).write(to: url)
        let tag = AudioStreamSummary.id3v2Length(original)
        #expect(tag > 0)
        let summary = try #require(AudioStreamSummary(bytes: original, framing: .mpegAudio))
        #expect(summary.truncatedBytes > 0)
        #expect(try MP3SeekHeader.add(toFileAt: url))
        let file = Array(try Data(contentsOf: url))
        #expect(Array(file[..<tag]) == Array(original[..<tag]))
        let length = try Self.checkHeader(file, at: tag, tag: "Info", frames: summary.frameCount)
        #expect(length == 417)   // the stream's own bitrate, no padding
        #expect(Array(file[(tag + length)...]) == Array(original[tag...]))
        #expect(abs(try Fixtures.probeDuration(url) - summary.duration) < 1e-3)
    }

    @Test("files that start with a header frame, or hold no MP3, are left alone")
    func leftAlone() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let withInfo = try Fixtures.encode("info.mp3", in: folder, seconds: 1, codec: ["-c:a", "libmp3lame", "-b:a", "96k"])
        let url = folder.appendingPathComponent("info.mp3")
        #expect(try !MP3SeekHeader.add(toFileAt: url))
        #expect(Array(try Data(contentsOf: url)) == withInfo)
        let junk = folder.appendingPathComponent("junk.mp3")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: junk)
        #expect(try !MP3SeekHeader.add(toFileAt: junk))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["info.mp3", "junk.mp3"])
    }

    @Test("MPEG-2.5 at 8 kHz mono, whose own frames are too small for the table, gets a larger header frame")
    func smallFrames() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Fixtures.encode("low.mp3", in: folder, seconds: 3, sampleRate: 8000, channels: 1,
                                           codec: ["-c:a", "libmp3lame", "-b:a", "8k", "-write_xing", "0", "-id3v2_version", "0"])
        let url = folder.appendingPathComponent("low.mp3")
        let summary = try #require(AudioStreamSummary(bytes: original, framing: .mpegAudio))
        #expect(try MP3SeekHeader.add(toFileAt: url))
        let file = Array(try Data(contentsOf: url))
        let length = try Self.checkHeader(file, at: 0, tag: "Info", frames: summary.frameCount)
        #expect(length > MPEGAudioHeader(original, at: 0, accepting: .layerIII)!.frameLength)
        #expect(abs(try Fixtures.probeDuration(url) - summary.duration) < 1e-3)
    }
}
