import AudioCore
import Foundation

/// The original app's tempo method, reproduced faithfully as a reference: Scheirer,
/// "Tempo and beat analysis of acoustic musical signals", JASA 103(1), 1998, in the form
/// the Music Runner thesis used.
///
/// Steps: 44.1 kHz mono; a 131,072-sample excerpt from the middle of the song; FFT
/// brick-wall bands with edges 0, 1000, 2000, 4000, 8000, 16000, 22050 Hz; full-wave
/// rectification; smoothing by (circular, FFT) convolution with a 0.4 s half-Hann window
/// h(i) = cos²(iπ/(2L)); first difference, half-wave rectified; a bank of comb filters of
/// three impulses with period 60/BPM s, energy Σ_bands Σ_k |C(k)·D_b(k)|²; a coarse-to-fine
/// search over 60–240 BPM at steps 2, 0.5, 0.1 and 0.01 BPM (fractions kept; the original
/// truncated to integers); results above 180 BPM are halved.
///
/// ```swift
/// let estimate = ScheirerCombEstimator().estimate(buffer)
/// ```
public struct ScheirerCombEstimator: TempoEstimating {
    public let name = "scheirer"
    public let decodeOptions = DecodeOptions.mono(sampleRate: sampleRate)

    static let sampleRate = 44_100.0
    static let excerptLength = 131_072
    static let bandEdges: [Double] = [0, 1_000, 2_000, 4_000, 8_000, 16_000, 22_050]
    static let smoothingSeconds = 0.4

    public init() {}

    public func estimate(_ buffer: PCMBuffer) -> TempoEstimate {
        let n = Self.excerptLength
        let mono = buffer.converted(to: decodeOptions).samples
        guard mono.count >= n / 4, rootMeanSquare(mono) > 1e-5 else { return .noTempo }
        // The excerpt from the middle (zero-padded if the song is shorter).
        var excerpt = [Float](repeating: 0, count: n)
        let start = max(0, (mono.count - n) / 2)
        for i in 0..<min(n, mono.count) { excerpt[i] = mono[start + i] }

        let fft = RealFFT(size: n)
        let spectrum = fft.forward(excerpt)
        let binHz = Self.sampleRate / Double(n)
        let window = fft.forward(Self.halfHann(length: Int(Self.smoothingSeconds * Self.sampleRate), size: n))
        // S(k) = Σ_b |D_b(k)|²: the comb energy of every band needs only this sum.
        var bandPower = [Double](repeating: 0, count: n / 2 + 1)
        for b in 0..<(Self.bandEdges.count - 1) {
            let lo = Int((Self.bandEdges[b] / binHz).rounded(.up))
            let hi = min(n / 2, Int((Self.bandEdges[b + 1] / binHz).rounded(.down)))
            var band = RealFFT.Spectrum(real: [Float](repeating: 0, count: n / 2 + 1), imag: [Float](repeating: 0, count: n / 2 + 1))
            if lo <= hi {
                for k in lo...hi { band.real[k] = spectrum.real[k]; band.imag[k] = spectrum.imag[k] }
            }
            var signal = fft.inverse(band)
            for i in 0..<n { signal[i] = abs(signal[i]) }                 // full-wave rectification
            let smoothed = fft.inverse(Self.multiply(fft.forward(signal), window))
            var difference = [Float](repeating: 0, count: n)
            for i in 1..<n { difference[i] = max(0, smoothed[i] - smoothed[i - 1]) } // d/dt, half-wave
            let d = fft.forward(difference)
            for k in 0...(n / 2) {
                bandPower[k] += Double(d.real[k]) * Double(d.real[k]) + Double(d.imag[k]) * Double(d.imag[k])
            }
        }
        guard bandPower.reduce(0, +) > 0 else { return .noTempo }

        // Coarse-to-fine search of the comb energy over 60–240 BPM.
        var scores: [(bpm: Double, energy: Double)] = []
        var best = 60.0
        var range = (60.0, 240.0)
        for step in [2.0, 0.5, 0.1, 0.01] {
            var bpm = range.0
            var bestEnergy = -Double.infinity
            while bpm <= range.1 + 1e-9 {
                let energy = Self.combEnergy(bpm: bpm, bandPower: bandPower, size: n)
                if step == 2.0 { scores.append((bpm, energy)) }
                if energy > bestEnergy { bestEnergy = energy; best = bpm }
                bpm += step
            }
            range = (max(60, best - step), min(240, best + step))
        }
        let halved = best > 180 ? best / 2 : best
        return TempoEstimate(bpm: halved, confidence: Self.confidence(scores, best: best),
                             candidates: Self.candidates(scores, best: halved))
    }

    /// Σ_k |C(k)|²·S(k) for a comb of impulses at 0, P and 2P (P = 60/bpm s):
    /// |C(k)|² = |1 + e^{−iθ} + e^{−2iθ}|² = 3 + 4 cos θ + 2 cos 2θ, θ = 2πkP/N.
    static func combEnergy(bpm: Double, bandPower: [Double], size n: Int) -> Double {
        let period = 60 / bpm * sampleRate
        let step = 2 * Double.pi * period / Double(n)
        var energy = 0.0
        for k in 0..<bandPower.count where bandPower[k] > 0 {
            let theta = step * Double(k)
            energy += bandPower[k] * (3 + 4 * cos(theta) + 2 * cos(2 * theta))
        }
        return energy
    }

    /// h(i) = cos²(iπ/(2L)) for i < L, zero elsewhere, in a buffer of `size`.
    static func halfHann(length: Int, size: Int) -> [Float] {
        var h = [Float](repeating: 0, count: size)
        for i in 0..<min(length, size) {
            let c = cos(Double(i) * Double.pi / (2 * Double(length)))
            h[i] = Float(c * c)
        }
        return h
    }

    static func multiply(_ a: RealFFT.Spectrum, _ b: RealFFT.Spectrum) -> RealFFT.Spectrum {
        var out = a
        for k in 0..<a.real.count {
            out.real[k] = a.real[k] * b.real[k] - a.imag[k] * b.imag[k]
            out.imag[k] = a.real[k] * b.imag[k] + a.imag[k] * b.real[k]
        }
        return out
    }

    /// How far the best comb stands above the average comb, mapped to [0, 1].
    static func confidence(_ scores: [(bpm: Double, energy: Double)], best: Double) -> Double {
        guard let top = scores.map(\.energy).max(), top > 0 else { return 0 }
        let mean = scores.map(\.energy).reduce(0, +) / Double(scores.count)
        return max(0, min(1, (top - mean) / top))
    }

    /// The strongest local maxima of the coarse scan, normalised to sum to 1, best first.
    static func candidates(_ scores: [(bpm: Double, energy: Double)], best: Double) -> [TempoEstimate.Candidate] {
        var peaks: [(Double, Double)] = []
        for i in scores.indices {
            let left = i > 0 ? scores[i - 1].energy : -Double.infinity
            let right = i + 1 < scores.count ? scores[i + 1].energy : -Double.infinity
            if scores[i].energy >= left && scores[i].energy >= right {
                let bpm = scores[i].bpm > 180 ? scores[i].bpm / 2 : scores[i].bpm
                peaks.append((bpm, scores[i].energy))
            }
        }
        let floor = scores.map(\.energy).min() ?? 0
        var top = peaks.sorted { $0.1 > $1.1 }.prefix(5).map { ($0.0, max(0, $0.1 - floor)) }
        if let i = top.firstIndex(where: { abs($0.0 - best) < 2.5 }) { top[i].0 = best; top.swapAt(0, i) } else { top.insert((best, top.first?.1 ?? 1), at: 0) }
        let total = top.map(\.1).reduce(0, +)
        return top.map { TempoEstimate.Candidate(bpm: $0.0, score: total > 0 ? $0.1 / total : 0) }
    }
}
