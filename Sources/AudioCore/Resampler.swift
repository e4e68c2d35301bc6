import Foundation

/// Converts a signal from one sample rate to another by band-limited (windowed-sinc)
/// interpolation, after Smith, "Digital Audio Resampling Home Page" (CCRMA).
///
/// The kernel is a sinc windowed by a Kaiser window and tabulated finely; its cutoff is
/// 95 % of the lower Nyquist frequency, so downsampling does not alias. Quality is meant
/// for analysis (tempo, spectra, waveforms), not for mastering. Any ratio works.
///
/// ```swift
/// let r = Resampler(from: 44_100, to: 11_025)
/// let low = r.process(samples)
/// ```
public struct Resampler: Sendable {
    /// Kernel length against speed.
    public enum Quality: Sendable {
        /// 16 zero crossings each side, Kaiser β = 8 (about 80 dB stopband).
        case analysis
        /// 6 zero crossings each side, Kaiser β = 5: faster, for previews and waveforms.
        case fast
    }

    public let inputRate: Double
    public let outputRate: Double
    private let zeroCrossings: Int
    private let table: [Float]
    private static let resolution = 512

    /// Creates a resampler between two positive sample rates (Hz).
    public init(from inputRate: Double, to outputRate: Double, quality: Quality = .analysis) {
        precondition(inputRate > 0 && outputRate > 0, "sample rates must be positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        let (crossings, beta): (Int, Double) = switch quality {
        case .analysis: (16, 8)
        case .fast: (6, 5)
        }
        zeroCrossings = crossings
        let count = crossings * Self.resolution + 2
        let i0Beta = besselI0(beta)
        table = (0..<count).map { i in
            let t = Double(i) / Double(Self.resolution)
            if t >= Double(crossings) { return 0 }
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            let r = t / Double(crossings)
            let window = besselI0(beta * (1 - r * r).squareRoot()) / i0Beta
            return Float(sinc * window)
        }
    }

    /// Resamples one channel. The output has ⌊count · outputRate / inputRate⌋ samples.
    public func process(_ input: [Float]) -> [Float] {
        if input.isEmpty { return [] }
        if inputRate == outputRate { return input }
        let ratio = outputRate / inputRate
        let cutoff = min(1, ratio) * 0.95
        let outCount = Int((Double(input.count) * ratio).rounded(.down))
        let reach = Double(zeroCrossings) / cutoff // kernel half-width in input samples
        let res = Double(Self.resolution)
        var out = [Float](repeating: 0, count: outCount)
        input.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { h in
                let last = x.count - 1
                for n in 0..<outCount {
                    let t = Double(n) / ratio
                    let lo = max(0, Int((t - reach).rounded(.up)))
                    let hi = min(last, Int((t + reach).rounded(.down)))
                    var acc: Float = 0
                    if lo <= hi {
                        for k in lo...hi {
                            let pos = abs(t - Double(k)) * cutoff * res
                            let i = Int(pos)
                            let frac = Float(pos - Double(i))
                            let w = h[i] + (h[i + 1] - h[i]) * frac
                            acc += x[k] * w
                        }
                    }
                    out[n] = acc * Float(cutoff)
                }
            }
        }
        return out
    }

}

/// The modified Bessel function of the first kind, order 0, by its power series.
private func besselI0(_ x: Double) -> Double {
    var sum = 1.0, term = 1.0
    let q = x * x / 4
    for k in 1..<64 {
        term *= q / Double(k * k)
        sum += term
        if term < sum * 1e-17 { break }
    }
    return sum
}
