import AudioCore
import Foundation

/// Onset strength per frequency band: how much new energy appears in each band, frame by
/// frame — the "novelty" whose periodicity is the tempo.
///
/// The signal is decimated to about 11 kHz (beats live in envelopes, not in treble
/// detail), cut into Hann-windowed frames (512 samples, hop 128: ≈ 86 frames/s),
/// log-compressed (log(1 + γ|X|), γ = 1000, so soft instruments count as well as loud
/// drums), and differenced against the maximum of the neighbouring bins two frames back
/// (the vibrato-suppressing "SuperFlux" of Böck & Widmer, DAFx 2013), half-wave rectified and
/// summed per band. Bands split kick and bass, low mid, mid, presence and air, so a hi-hat
/// cannot drown a bass line.
struct OnsetStrength {
    /// Upper edges of the bands in Hz (the last band runs to the Nyquist frequency).
    static let bandEdges: [Double] = [150, 400, 1_000, 2_500]
    static let frameSize = 512
    static let hop = 128
    static let lag = 2
    static let compression: Float = 1_000
    static let targetRate = 11_025.0

    /// Frames per second of the novelty curves.
    let frameRate: Double
    /// One novelty curve per band, each `frameCount` long.
    let bands: [[Float]]
    /// Frames analysed.
    var frameCount: Int { bands.first?.count ?? 0 }

    /// Analyses mono samples at `sampleRate`.
    init(samples: [Float], sampleRate: Double) {
        let factor = max(1, Int((sampleRate / Self.targetRate).rounded()))
        let x = Self.decimate(samples, by: factor)
        let rate = sampleRate / Double(factor)
        frameRate = rate / Double(Self.hop)
        let n = Self.frameSize
        let bins = n / 2 + 1
        let frames = x.count >= n ? (x.count - n) / Self.hop + 1 : 0
        let bandOfBin: [Int] = (0..<bins).map { k in
            let hz = Double(k) * rate / Double(n)
            return Self.bandEdges.firstIndex { hz < $0 } ?? Self.bandEdges.count
        }
        let bandCount = Self.bandEdges.count + 1
        var novelty = [[Float]](repeating: [Float](repeating: 0, count: frames), count: bandCount)
        guard frames > Self.lag else { bands = novelty; return }

        let window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        let scale = Self.compression * 2 / Float(n / 2) // a full-scale sine peaks near γ
        let fft = RealFFT(size: n)
        let lag = Self.lag
        // Flat buffers: a ring of the last `lag` log spectra, each max-filtered over ±1 bin
        // (slot t % lag holds frame t − lag until frame t replaces it), and band × frame novelty.
        var history = [Float](repeating: 0, count: lag * bins)
        var flat = [Float](repeating: 0, count: bandCount * frames)
        var frame = [Float](repeating: 0, count: n)
        var re = [Float](repeating: 0, count: bins), im = re, current = re
        x.withUnsafeBufferPointer { src in
        window.withUnsafeBufferPointer { w in
        bandOfBin.withUnsafeBufferPointer { bandIndex in
        history.withUnsafeMutableBufferPointer { ring in
        flat.withUnsafeMutableBufferPointer { out in
        frame.withUnsafeMutableBufferPointer { f in
        re.withUnsafeMutableBufferPointer { r in
        im.withUnsafeMutableBufferPointer { m in
        current.withUnsafeMutableBufferPointer { c in
            for t in 0..<frames {
                let base = t * Self.hop
                for i in 0..<n { f[i] = src[base + i] * w[i] }
                fft.forward(UnsafeBufferPointer(f), real: r, imag: m)
                for k in 0..<bins { c[k] = fastLog1p(scale * (r[k] * r[k] + m[k] * m[k]).squareRoot()) }
                let past = (t % lag) * bins
                if t >= lag {
                    for k in 0..<bins {
                        let rise = c[k] - ring[past + k]
                        if rise > 0 { out[bandIndex[k] * frames + t] += rise }
                    }
                }
                ring[past] = max(c[0], c[1])
                for k in 1..<(bins - 1) { ring[past + k] = max(c[k - 1], c[k], c[k + 1]) }
                ring[past + bins - 1] = max(c[bins - 2], c[bins - 1])
            }
        }}}}}}}}}
        for b in 0..<bandCount { novelty[b] = Array(flat[(b * frames)..<((b + 1) * frames)]) }
        bands = novelty
    }

    /// Averages each run of `factor` samples: a cheap low-pass before keeping one in `factor`.
    /// Aliasing of the highest octave barely matters for onset envelopes, and this keeps
    /// decimation far below the cost of the spectra.
    static func decimate(_ x: [Float], by factor: Int) -> [Float] {
        if factor == 1 { return x }
        let count = x.count / factor
        var out = [Float](repeating: 0, count: count)
        let scale = 1 / Float(factor)
        x.withUnsafeBufferPointer { src in
            for i in 0..<count {
                var sum: Float = 0
                let base = i * factor
                for j in 0..<factor { sum += src[base + j] }
                out[i] = sum * scale
            }
        }
        return out
    }
}

/// log(1 + x) for x ≥ 0, to about 1e-3 absolute: the exponent from the float's bits and a
/// cubic for log2 of the mantissa. Onset strength needs shape, not the last digit, and
/// this runs for every bin of every frame.
@inline(__always)
func fastLog1p(_ x: Float) -> Float {
    let y = 1 + x
    let bits = y.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let mantissa = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) // in [1, 2)
    // log2(m) on [1, 2): a cubic fit, |error| < 1.3e-3.
    let m = mantissa
    let log2m = ((0.15824870 * m - 1.05187502) * m + 3.04788394) * m - 2.15419620
    return (exponent + log2m) * 0.693_147_18
}
