import AudioCore
import Foundation
import Testing

@Suite("Loudness normalisation (ffmpeg loudnorm, two passes)")
struct LoudnessTests {
    @Test("a quiet MP3 is brought to −16 LUFS within 1 LU, its true peak under −1 dBTP, its length kept")
    func quietToTarget() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("quiet.mp3")
        // Speech-like: a 300 Hz tone gated on and off twice a second, at −34 dBFS.
        try Fixtures.ffmpeg(["-f", "lavfi", "-i", "aevalsrc='0.02*sin(2*PI*300*t)*gt(sin(2*PI*2*t),0)':s=44100:d=8",
                             "-c:a", "libmp3lame", "-b:a", "128k", url.path])
        let ffmpeg = try FFmpegDecoder()
        let normalizer = LoudnessNormalizer(ffmpeg: ffmpeg)
        let before = try normalizer.measure(fileAt: url)
        #expect(before.integrated < -28)
        guard case .normalized(let measured, let after) = try normalizer.normalize(fileAt: url, format: .mp3(bitrate: 128)) else {
            Issue.record("the quiet file was left as it was")
            return
        }
        #expect(abs(measured.integrated - before.integrated) < 0.01)
        #expect(abs(after.integrated - -16) < 1, "after: \(after.integrated) LUFS")
        #expect(after.truePeak < -1)
        let again = try normalizer.measure(fileAt: url)   // the file on disk is the normalised one
        #expect(abs(again.integrated - after.integrated) < 0.1)
        let decoded = try ffmpeg.decode(url, options: .mono(sampleRate: 8000))
        #expect(abs(decoded.duration - 8) < 0.1)
        // Once at the target it is left alone (no second re-encode).
        guard case .unchanged = try normalizer.normalize(fileAt: url, format: .mp3(bitrate: 128)) else {
            Issue.record("a file at the target was rewritten")
            return
        }
    }

    @Test("a quiet broadcast with full-scale peaks reaches the target: the limiter holds the peaks")
    func peaky() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("peaky.mp3")
        // The gated tone at −34 dBFS, with a 3 ms full-scale click every 2 s (a plosive, a knock).
        try Fixtures.ffmpeg(["-f", "lavfi",
                             "-i", "aevalsrc='0.02*sin(2*PI*300*t)*gt(sin(2*PI*2*t),0)+0.95*sin(2*PI*1000*t)*lt(mod(t,2),0.003)':s=44100:d=10",
                             "-c:a", "libmp3lame", "-b:a", "128k", url.path])
        let normalizer = LoudnessNormalizer(ffmpeg: try FFmpegDecoder())
        let before = try normalizer.measure(fileAt: url)
        #expect(before.truePeak > -1)
        guard case .normalized(_, let after) = try normalizer.normalize(fileAt: url, format: .mp3(bitrate: 128)) else {
            Issue.record("left as it was")
            return
        }
        #expect(abs(after.integrated - -16) < 1, "after: \(after.integrated) LUFS")
        #expect(after.truePeak < -0.5, "true peak \(after.truePeak) dBTP")
    }

    @Test("silence cannot be measured and is left as it was")
    func silence() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("silence.mp3")
        try Fixtures.ffmpeg(["-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", "3", "-c:a", "libmp3lame", url.path])
        let bytes = try Data(contentsOf: url)
        guard case .unchanged(let measured) = try LoudnessNormalizer(ffmpeg: try FFmpegDecoder()).normalize(fileAt: url, format: .mp3(bitrate: 128)) else {
            Issue.record("silence was rewritten")
            return
        }
        #expect(!measured.integrated.isFinite || measured.integrated < -70)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test("a file that is not audio gives an error and stays")
    func notAudio() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("text.mp3")
        try Data("not audio at all".utf8).write(to: url)
        #expect(throws: AudioError.self) { try LoudnessNormalizer(ffmpeg: try FFmpegDecoder()).normalize(fileAt: url, format: .mp3(bitrate: 128)) }
        #expect(try Data(contentsOf: url) == Data("not audio at all".utf8))
    }
}
