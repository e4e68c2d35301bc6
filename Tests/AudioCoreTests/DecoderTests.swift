import AudioCore
import Foundation
import Testing

/// These tests run the real `ffmpeg` binary (`make test` installs it).
@Suite("Decoding through ffmpeg")
struct DecoderTests {
    /// Writes a 2 s stereo 440 Hz WAV and encodes it with ffmpeg to `ext` with `codecArgs`.
    static func encodedTone(_ dir: URL, ext: String, codecArgs: [String]) throws -> URL {
        let wav = dir.appendingPathComponent("tone.wav")
        let tone = Fixtures.sine(frequency: 440, seconds: 2, sampleRate: 44_100, amplitude: 0.5)
        try WAVWriter.write(PCMBuffer(sampleRate: 44_100, channels: [tone, tone]), to: wav, format: .int16)
        let out = dir.appendingPathComponent("tone.\(ext)")
        try Fixtures.ffmpeg(["-i", wav.path] + codecArgs + [out.path])
        return out
    }

    @Test("decodes an MP3 and an Ogg Vorbis file made by ffmpeg", arguments: [
        ("mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]),
        ("ogg", ["-c:a", "libvorbis", "-q:a", "4"]),
    ])
    func decodeCompressed(format: (String, [String])) throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.encodedTone(dir, ext: format.0, codecArgs: format.1)
        let decoder = try FFmpegDecoder()
        let native = try decoder.probe(file)
        #expect(native.sampleRate == 44_100 && native.channelCount == 2)

        let full = try decoder.decode(file)
        #expect(full.channelCount == 2 && full.sampleRate == 44_100)
        #expect(abs(full.duration - 2) < 0.08, "\(format.0) duration \(full.duration)")

        let mono = try AudioFileDecoder().decode(file, options: .mono(sampleRate: 22_050))
        #expect(mono.channelCount == 1 && mono.sampleRate == 22_050)
        let middle = Array(mono.samples[5_000..<35_000])
        #expect(abs(Fixtures.toneFrequency(middle, sampleRate: 22_050) - 440) < 1)
        #expect(abs(Fixtures.rms(middle[...]) - 0.5 / 2.0.squareRoot()) < 0.03)

        let part = try decoder.decode(file, options: DecodeOptions(sampleRate: 8_000, channelCount: 1, start: 0.5, maxDuration: 1))
        #expect(abs(part.duration - 1) < 0.01)

        var chunks = 0, frames = 0
        try decoder.stream(file, options: .mono(sampleRate: 22_050), chunkFrames: 4_096) { buffer in
            chunks += 1; frames += buffer.frameCount
        }
        #expect(chunks > 5 && frames == mono.frameCount, "streamed \(frames) frames in \(chunks) chunks")
    }

    @Test("WAV files decode in pure Swift through the same entry point")
    func wavThroughFileDecoder() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("a.wav")
        try WAVWriter.write(PCMBuffer(sampleRate: 16_000, channelCount: 1, samples: Fixtures.sine(frequency: 1_000, seconds: 1, sampleRate: 16_000)), to: url)
        let decoded = try AudioFileDecoder().decode(url, options: DecodeOptions(start: 0.25, maxDuration: 0.5))
        #expect(decoded.frameCount == 8_000)
    }

    @Test("a file that is not audio gives AudioError.notAudio")
    func notAudio() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.mp3")
        try Data("these are not the bytes of an MP3 file\n".utf8).write(to: text)
        #expect { try AudioFileDecoder().decode(text) } throws: { error in
            if case AudioError.notAudio = error { return true } else { return false }
        }
        #expect { try AudioFileDecoder().decode(dir.appendingPathComponent("missing.flac")) } throws: { error in
            if case AudioError.io = error { return true } else { return false }
        }
    }

    @Test("a missing ffmpeg binary gives AudioError.decoderMissing")
    func missingBinary() {
        #expect { try FFmpegDecoder(ffmpegPath: "/nonexistent/ffmpeg") } throws: { error in
            if case AudioError.decoderMissing = error { return true } else { return false }
        }
    }
}
