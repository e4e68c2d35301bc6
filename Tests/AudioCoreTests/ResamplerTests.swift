import AudioCore
import Foundation
import Testing

@Suite("Resampler, downmix and peaks")
struct ResamplerTests {
    @Test("a 1 kHz tone stays at 1 kHz within 1 Hz", arguments: [
        (44_100.0, 22_050.0), (44_100.0, 48_000.0), (48_000.0, 44_100.0), (44_100.0, 11_025.0), (22_050.0, 44_100.0), (8_000.0, 16_000.0),
    ])
    func toneFrequencyKept(rates: (Double, Double)) {
        let (from, to) = rates
        let input = Fixtures.sine(frequency: 1_000, seconds: 2, sampleRate: from)
        let output = Resampler(from: from, to: to).process(input)
        #expect(output.count == Int(Double(input.count) * to / from))
        let middle = Array(output[Int(to * 0.25)..<Int(to * 1.75)]) // away from the edges
        let frequency = Fixtures.toneFrequency(middle, sampleRate: to)
        #expect(abs(frequency - 1_000) < 1, "measured \(frequency) Hz at \(from) → \(to)")
        let rms = Fixtures.rms(middle[...])
        #expect(abs(rms - 0.8 / 2.0.squareRoot()) < 0.01, "amplitude kept: rms \(rms)")
    }

    @Test("downsampling removes content above the new Nyquist frequency instead of aliasing it")
    func antiAliasing() {
        let input = Fixtures.sine(frequency: 9_000, seconds: 1, sampleRate: 44_100)
        let output = Resampler(from: 44_100, to: 11_025).process(input) // Nyquist 5,512.5 Hz
        let rms = Fixtures.rms(output[1_000..<(output.count - 1_000)])
        #expect(rms < 0.005, "a 9 kHz tone must not alias into an 11,025 Hz signal (rms \(rms))")
    }

    @Test("PCMBuffer resamples every channel and downmixes to the average")
    func bufferConversions() {
        let left = Fixtures.sine(frequency: 1_000, seconds: 0.5, sampleRate: 32_000)
        let right = [Float](repeating: 0.5, count: left.count)
        let stereo = PCMBuffer(sampleRate: 32_000, channels: [left, right])
        #expect(stereo.channel(1) == right)
        let mono = stereo.downmixedToMono()
        #expect(mono.channelCount == 1 && mono.frameCount == left.count)
        #expect(mono.samples[100] == (left[100] + 0.5) / 2)
        let low = stereo.converted(to: .mono(sampleRate: 16_000))
        #expect(low.sampleRate == 16_000 && low.channelCount == 1 && low.frameCount == left.count / 2)
        #expect(abs(low.duration - 0.5) < 1e-9)
    }

    @Test("waveform peaks hold each bucket's minimum and maximum")
    func peaks() {
        let samples: [Float] = [0, 1, -1, 0.5, -0.25, 0.25, 0.75, -0.5]
        let peaks = WaveformPeaks(samples: samples, bucketCount: 4)
        #expect(peaks.minima == [0, -1, -0.25, -0.5])
        #expect(peaks.maxima == [1, 0.5, 0.25, 0.75])
        let many = WaveformPeaks(samples: [0.5, -0.5], bucketCount: 5)
        #expect(many.maxima.count == 5 && many.minima.allSatisfy { $0 == 0.5 || $0 == -0.5 })
        #expect(WaveformPeaks(samples: [], bucketCount: 3) == WaveformPeaks(samples: [0, 0, 0], bucketCount: 3))
    }

    @Test("a file's peaks come from its whole length, decoded in pieces, with the seconds decoded")
    func filePeaks() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 3 s of a 0.5 sine, 3 s of silence, 3 s of a 0.25 sine, at 44.1 kHz (decoded at 8 kHz).
        let rate = 44_100.0
        let samples = Fixtures.sine(frequency: 220, seconds: 3, sampleRate: rate, amplitude: 0.5)
            + [Float](repeating: 0, count: Int(3 * rate))
            + Fixtures.sine(frequency: 220, seconds: 3, sampleRate: rate, amplitude: 0.25)
        let url = folder.appendingPathComponent("three.wav")
        try WAVWriter.write(PCMBuffer(sampleRate: rate, channelCount: 1, samples: samples), to: url, format: .float32)
        let (peaks, seconds) = try WaveformPeaks.reading(file: url, decoder: WAVFileDecoder(), bucketCount: 9)
        #expect(abs(seconds - 9) < 0.01)
        #expect(peaks.maxima.count == 9 && peaks.minima.count == 9)
        for b in 0..<3 { #expect(abs(peaks.maxima[b] - 0.5) < 0.03 && abs(peaks.minima[b] + 0.5) < 0.03) }
        for b in 4..<5 { #expect(peaks.maxima[b] == 0 && peaks.minima[b] == 0) }
        for b in 6..<9 { #expect(abs(peaks.maxima[b] - 0.25) < 0.03 && abs(peaks.minima[b] + 0.25) < 0.03) }
        #expect(try WaveformPeaks(file: url, decoder: WAVFileDecoder(), bucketCount: 9) == peaks)
    }
}
