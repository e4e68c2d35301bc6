import AudioCore
import Foundation

/// Periodicity of a novelty curve: its autocorrelation, and the salience of every tempo.
struct Periodicity {
    /// Normalised, unbiased autocorrelation r(L), L = 0 … maxLag frames; r(0) = 1.
    let acf: [Float]
    let frameRate: Double

    /// Autocorrelation through the FFT (Wiener–Khinchin), zero-padded against wrap-around,
    /// divided by the overlap N − L so long lags are not penalised.
    init(novelty: [Float], frameRate: Double, maxLag: Int) {
        self.frameRate = frameRate
        let n = novelty.count
        let lags = min(maxLag, max(0, n - 1))
        var size = 2
        while size < 2 * n { size *= 2 }
        let fft = RealFFT(size: size)
        var padded = [Float](repeating: 0, count: size)
        for i in 0..<n { padded[i] = novelty[i] }
        var spectrum = fft.forward(padded)
        for k in 0..<spectrum.real.count {
            spectrum.real[k] = spectrum.real[k] * spectrum.real[k] + spectrum.imag[k] * spectrum.imag[k]
            spectrum.imag[k] = 0
        }
        let raw = fft.inverse(spectrum)
        var r = [Float](repeating: 0, count: lags + 1)
        let zero = raw[0] / Float(n)
        if zero > 0 {
            for l in 0...lags { r[l] = raw[l] / Float(n - l) / zero }
        }
        acf = r
    }

    /// r at a fractional lag, linearly interpolated; 0 beyond the computed range.
    func value(atLag lag: Double) -> Float {
        let i = Int(lag)
        guard lag >= 0, i + 1 < acf.count else { return 0 }
        let f = Float(lag - Double(i))
        return acf[i] + (acf[i + 1] - acf[i]) * f
    }

    /// The largest r within ±`radius` frames of `lag` (tolerates rounding and drift).
    func peak(near lag: Double, radius: Double = 1) -> Float {
        var best = value(atLag: lag)
        var l = lag - radius
        while l <= lag + radius {
            best = max(best, value(atLag: l))
            l += 0.25
        }
        return best
    }

    /// Frames per beat at `bpm`.
    func lag(bpm: Double) -> Double { 60 * frameRate / bpm }

    /// The salience of a pulse at `bpm`: the autocorrelation at the beat period and its
    /// first multiples (a pulse train repeats at every multiple of its period).
    func salience(bpm: Double, harmonics: Int = 4) -> Double {
        let tau = lag(bpm: bpm)
        var sum = 0.0
        for m in 1...harmonics { sum += Double(peak(near: tau * Double(m), radius: max(1, 0.02 * tau * Double(m)))) }
        return sum / Double(harmonics)
    }

    /// The lag of the autocorrelation peak nearest `lag`, refined by parabolic interpolation.
    func refinedPeakLag(near lag: Double, radius: Double) -> Double? {
        let lo = max(1, Int((lag - radius).rounded(.down))), hi = min(acf.count - 2, Int((lag + radius).rounded(.up)))
        guard lo <= hi else { return nil }
        var best = lo
        for l in lo...hi where acf[l] > acf[best] { best = l }
        guard best > lo || acf[best] >= acf[best - 1], best < hi || acf[best] >= acf[best + 1] else { return nil }
        let a = Double(acf[best - 1]), b = Double(acf[best]), c = Double(acf[best + 1])
        let denominator = a - 2 * b + c
        let offset = denominator < 0 ? 0.5 * (a - c) / denominator : 0
        return Double(best) + max(-0.5, min(0.5, offset))
    }
}
