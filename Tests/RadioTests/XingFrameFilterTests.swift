import Foundation
import MediaTags
import Radio
import Testing

/// A recorded stream must not keep the Xing/Info/VBRI header frames its source sent with each
/// file (issue 22 §0): fixtures are real ffmpeg files (which start with such a frame), streamed
/// as a looping source sends them.
@Suite("Xing/Info/VBRI frames dropped from a stream")
struct XingFrameFilterTests {
    /// The file's parts: an ID3v2 tag (may be empty), the header frame, the audio frames.
    struct Parts {
        let tag: [UInt8]
        let header: [UInt8]
        let audio: [UInt8]
    }

    /// Splits an ffmpeg file whose first frame (after the tag) is a Xing/Info frame.
    static func parts(of file: [UInt8]) throws -> Parts {
        let tag = AudioStreamSummary.id3v2Length(file)
        #expect(AudioStreamSummary.isXingFrame(file, at: tag), "ffmpeg wrote no header frame")
        let header = try #require(MPEGAudioHeader(file, at: tag, accepting: .layerIII))
        let end = tag + header.frameLength
        return Parts(tag: Array(file[..<tag]), header: Array(file[tag..<end]), audio: Array(file[end...]))
    }

    /// Feeds `stream` to a filter in pieces of the given sizes (cycled) and returns all it let out.
    static func filtered(_ stream: [UInt8], pieces: [Int]) -> (out: [UInt8], filter: XingFrameFilter) {
        var filter = XingFrameFilter()
        var out: [UInt8] = []
        var i = 0
        var k = 0
        while i < stream.count {
            let n = min(pieces[k % pieces.count], stream.count - i)
            out += filter.append(stream[i..<i + n])
            i += n
            k += 1
        }
        out += filter.finish()
        return (out, filter)
    }

    static func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a CBR file looped three times: every Info frame is dropped, every other byte kept in order; ffprobe reads the stream's length")
    func loopedCBRFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Fixtures.encode("cbr.mp3", in: folder, seconds: 3, codec: ["-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "0"])
        let p = try Self.parts(of: file)
        #expect(p.tag.isEmpty && String(decoding: p.header[36..<40], as: UTF8.self) == "Info")
        let stream = file + file + file
        let expected = p.audio + p.audio + p.audio
        for pieces in [[1], [7, 418, 3], [4096], [stream.count]] {
            let (out, filter) = Self.filtered(stream, pieces: pieces)
            #expect(out == expected, "pieces \(pieces): \(out.count) bytes, expected \(expected.count)")
            #expect(filter.droppedFrames == 3 && filter.droppedBytes == Int64(3 * p.header.count))
        }
        // What players read: the unfiltered stream opens with the file's Info frame, whose
        // frame count is one pass's (3 s); the filtered one has none, and ffprobe measures its 9 s.
        let audioFrames = try #require(AudioStreamSummary(bytes: file, framing: .mpegAudio)).frameCount
        let count = p.header[44..<48].reduce(0) { $0 << 8 | Int($1) }
        #expect(count == audioFrames)
        let truth = Double(3 * audioFrames * 1152) / 44100
        let clean = try Fixtures.probeDuration(Self.write(expected, "clean.mp3", in: folder))
        #expect(abs(clean - truth) < 0.05, "clean \(clean), truth \(truth)")
        #expect(try Fixtures.probeFrameCount(Self.write(expected, "clean2.mp3", in: folder)) == 3 * audioFrames)
    }

    @Test("a VBR file (Xing frame) and a file with an ID3v2 tag between loops: the tags pass, the Xing frames do not")
    func vbrWithTags() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Fixtures.encode("vbr.mp3", in: folder, seconds: 2, sampleRate: 48000, codec: ["-c:a", "libmp3lame", "-q:a", "2"])
        let p = try Self.parts(of: file)
        #expect(!p.tag.isEmpty)
        let header = try #require(MPEGAudioHeader(p.header, at: 0, accepting: .layerIII))
        #expect(String(decoding: p.header[header.xingOffset..<header.xingOffset + 4], as: UTF8.self) == "Xing")
        let (out, filter) = Self.filtered(file + file, pieces: [333, 1, 1000])
        #expect(out == p.tag + p.audio + p.tag + p.audio)
        #expect(filter.droppedFrames == 2)
    }

    @Test("a VBRI frame is dropped; a frame with those letters elsewhere in its data is kept")
    func vbriAndLookalikes() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Fixtures.encode("plain.mp3", in: folder, seconds: 1, codec: ["-c:a", "libmp3lame", "-b:a", "128k",
                                                                                    "-write_xing", "0", "-id3v2_version", "0"])
        #expect(!AudioStreamSummary.isXingFrame(file, at: 0))
        let silent = try #require(MPEGAudioHeader(file, at: 0, accepting: .layerIII)).silentFrame()
        var vbri = silent
        vbri.replaceSubrange(36..<40, with: Array("VBRI".utf8))
        var lookalike = silent
        lookalike.replaceSubrange(100..<104, with: Array("Xing".utf8))
        lookalike.replaceSubrange(200..<204, with: Array("Info".utf8))
        let (out, filter) = Self.filtered(vbri + file + lookalike + file, pieces: [50, 9])
        #expect(out == file + lookalike + file)
        #expect(filter.droppedFrames == 1 && filter.droppedBytes == Int64(vbri.count))
    }

    @Test("bytes that are no MP3 at all pass unchanged; at most holdLimit bytes wait for a frame")
    func noFramesAtAll() {
        var generator = SystemRandomNumberGenerator()
        let junk = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var filter = XingFrameFilter()
        var out: [UInt8] = []
        var fed = 0
        for start in stride(from: 0, to: junk.count, by: 1000) {
            out += filter.append(junk[start..<min(start + 1000, junk.count)])
            fed = min(start + 1000, junk.count)
            #expect(fed - out.count <= XingFrameFilter.holdLimit)
        }
        out += filter.finish()
        #expect(out == junk)
    }

    @Test("in a synced stream fed frame by frame, little more than a frame is held back")
    func smallHoldWhenSynced() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Fixtures.encode("sync.mp3", in: folder, seconds: 2, codec: ["-c:a", "libmp3lame", "-b:a", "128k",
                                                                                   "-write_xing", "0", "-id3v2_version", "0"])
        var filter = XingFrameFilter()
        var out = 0
        var fed = 0
        var worst = 0
        while fed < file.count {
            let n = min(418, file.count - fed)
            out += filter.append(file[fed..<fed + n]).count
            fed += n
            if fed > 8 * 418 { worst = max(worst, fed - out) }   // after the first frames confirmed sync
        }
        #expect(worst <= 418 + 42, "held \(worst) bytes")
        out += filter.finish().count
        #expect(out == file.count)
    }
}
