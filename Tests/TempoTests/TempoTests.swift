import AudioCore
import Foundation
import Tempo
import Testing

@Suite("Tempo estimation")
struct TempoTests {
    static let tempi: [Double] = [60, 90, 120, 150, 180]

    @Test("clicks are found within ±1 %", arguments: tempi)
    func clicks(bpm: Double) throws {
        let estimate = TempoEstimator().estimate(Drums.clicks(bpm: bpm))
        let found = try #require(estimate.bpm)
        #expect(abs(found - bpm) / bpm < 0.01, "clicks at \(bpm): estimated \(found)")
        #expect(estimate.confidence > 0.5)
        #expect(estimate.candidates.first?.bpm == found)
    }

    @Test("drum patterns are found within ±1 %", arguments: tempi)
    func drums(bpm: Double) throws {
        let estimate = TempoEstimator().estimate(Drums.rock(bpm: bpm, seed: UInt64(bpm)))
        let found = try #require(estimate.bpm)
        #expect(abs(found - bpm) / bpm < 0.01, "rock beat at \(bpm): estimated \(found)")
    }

    @Test("an 80 BPM impulse train through the Scheirer reproduction gives 80 ± 0.5")
    func scheirerImpulses() throws {
        var track = [Float](repeating: 0, count: Int(20 * Drums.sampleRate))
        var t = 0.0
        while t < 20 { track[Int(t * Drums.sampleRate)] = 1; t += 0.75 }
        let estimate = ScheirerCombEstimator().estimate(PCMBuffer(sampleRate: Drums.sampleRate, channelCount: 1, samples: track))
        let found = try #require(estimate.bpm)
        #expect(abs(found - 80) <= 0.5, "estimated \(found)")
        #expect(found != found.rounded() || found == 80, "fractions are kept")
    }

    @Test("the Scheirer reproduction halves results above 180 BPM and finds drum tempi")
    func scheirerDrums() throws {
        let fast = try #require(ScheirerCombEstimator().estimate(Drums.clicks(bpm: 220)).bpm)
        #expect(abs(fast - 110) < 1, "220 BPM clicks give \(fast)")
        let rock = try #require(ScheirerCombEstimator().estimate(Drums.rock(bpm: 120)).bpm)
        #expect([60.0, 120].contains { abs(rock - $0) / $0 < 0.02 }, "rock at 120 gives \(rock)")
    }

    @Test("silence and near-silence give no tempo, not a number")
    func silence() {
        let quiet = PCMBuffer(sampleRate: 44_100, channelCount: 2, samples: [Float](repeating: 0, count: 44_100 * 20))
        #expect(TempoEstimator().estimate(quiet) == .noTempo)
        #expect(ScheirerCombEstimator().estimate(quiet) == .noTempo)
        let hiss = PCMBuffer(sampleRate: 44_100, channelCount: 1, samples: (0..<441_000).map { Float(($0 * 7_919) % 13) * 1e-6 })
        #expect(TempoEstimator().estimate(hiss).bpm == nil)
        let short = Drums.clicks(bpm: 120, seconds: 1)
        #expect(TempoEstimator().estimate(short) == .noTempo)
    }

    @Test("any sample rate and channel count works", arguments: [22_050.0, 48_000.0, 96_000.0])
    func sampleRates(rate: Double) throws {
        let rock = Drums.rock(bpm: 120).converted(to: DecodeOptions(sampleRate: rate))
        let found = try #require(TempoEstimator().estimate(rock).bpm)
        #expect(abs(found - 120) / 120 < 0.01, "at \(rate) Hz: \(found)")
    }
}

@Suite("Tempo of files")
struct TempoFileTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-tempo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a WAV file and an MP3 made from it give the same tempo")
    func files() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("beat.wav")
        try WAVWriter.write(Drums.rock(bpm: 128, seconds: 15), to: wav)
        let fromWAV = try #require(try TempoAnalyzer().estimate(fileAt: wav).bpm)
        #expect(abs(fromWAV - 128) / 128 < 0.01)

        let mp3 = dir.appendingPathComponent("beat.mp3")
        try FFmpegDecoder().run(["-y", "-i", wav.path, "-b:a", "192k", mp3.path])
        let fromMP3 = try #require(try TempoAnalyzer().estimate(fileAt: mp3).bpm)
        #expect(abs(fromMP3 - fromWAV) < 0.5)
    }

    @Test("a corrupt file gives a typed error")
    func corrupt() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = WAVWriter.encode(Drums.clicks(bpm: 100, seconds: 2), format: .int16)
        bytes = bytes.prefix(bytes.count / 2)
        let broken = dir.appendingPathComponent("broken.wav")
        try bytes.write(to: broken)
        #expect { try TempoAnalyzer().estimate(fileAt: broken) } throws: { error in
            guard case TempoError.unreadable(let message) = error else { return false }
            return message.contains("truncated")
        }
        let text = dir.appendingPathComponent("song.mp3")
        try Data("not audio".utf8).write(to: text)
        #expect(throws: TempoError.self) { try TempoAnalyzer(method: .scheirer).estimate(fileAt: text) }
    }
}
