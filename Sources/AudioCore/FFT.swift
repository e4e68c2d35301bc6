import Foundation

/// A complex fast Fourier transform of one power-of-two size (iterative radix-2
/// Cooley–Tukey, decimation in time), on split real/imaginary arrays.
///
/// The plan holds precomputed twiddles and the bit-reversal permutation, is immutable,
/// and may be shared across threads. Forward: X[k] = Σ x[n]·e^(−2πikn/N). Inverse is
/// scaled by 1/N so `inverse(forward(x)) == x`.
///
/// ```swift
/// let fft = FFT(size: 1024)
/// var re = signal, im = [Float](repeating: 0, count: 1024)
/// fft.forward(real: &re, imag: &im)
/// ```
public final class FFT: Sendable {
    /// Number of complex points; a power of two ≥ 1.
    public let size: Int
    /// Twiddles of every stage, concatenated: stage with half-length h starts at offset h − 1.
    private let twiddleRe: [Float]
    private let twiddleIm: [Float]
    private let swaps: [(Int32, Int32)]

    /// Whether `n` is a size this FFT accepts (a power of two, at least 1).
    public static func isValidSize(_ n: Int) -> Bool { n >= 1 && n & (n - 1) == 0 }

    /// Creates a plan. `size` must be a power of two (see `isValidSize`).
    public init(size: Int) {
        precondition(FFT.isValidSize(size), "FFT size \(size) is not a power of two")
        self.size = size
        var re = [Float](), im = [Float]()
        re.reserveCapacity(max(size - 1, 0)); im.reserveCapacity(max(size - 1, 0))
        var half = 1
        while half < size {
            for j in 0..<half {
                let angle = -Double.pi * Double(j) / Double(half)
                re.append(Float(cos(angle))); im.append(Float(sin(angle)))
            }
            half *= 2
        }
        twiddleRe = re; twiddleIm = im
        var bits = 0
        while 1 << bits < size { bits += 1 }
        var pairs = [(Int32, Int32)]()
        for i in 0..<size {
            var r = 0, v = i
            for _ in 0..<bits { r = (r << 1) | (v & 1); v >>= 1 }
            if i < r { pairs.append((Int32(i), Int32(r))) }
        }
        swaps = pairs
    }

    /// Transforms in place. Both arrays must have `size` elements.
    public func forward(real: inout [Float], imag: inout [Float]) {
        precondition(real.count == size && imag.count == size, "FFT input must have \(size) points")
        real.withUnsafeMutableBufferPointer { re in
            imag.withUnsafeMutableBufferPointer { im in transform(re, im) }
        }
    }

    /// Inverse transform in place, scaled by 1/N.
    public func inverse(real: inout [Float], imag: inout [Float]) {
        // conj(FFT(conj(X))) / N, done by swapping the roles of the real and imaginary parts.
        forward(real: &imag, imag: &real)
        let scale = 1 / Float(size)
        for i in 0..<size { real[i] *= scale; imag[i] *= scale }
    }

    /// The transform on raw buffers (both of `size` elements), for callers that own scratch memory.
    func transform(_ re: UnsafeMutableBufferPointer<Float>, _ im: UnsafeMutableBufferPointer<Float>) {
        for (a, b) in swaps {
            let i = Int(a), j = Int(b)
            let tr = re[i]; re[i] = re[j]; re[j] = tr
            let ti = im[i]; im[i] = im[j]; im[j] = ti
        }
        // Stages 1 and 2 have the trivial twiddles 1 and −i: done together without multiplies.
        var half = 1
        if size >= 4 {
            var start = 0
            while start < size {
                let a = start, b = start + 1, c = start + 2, d = start + 3
                let r0 = re[a] + re[b], i0 = im[a] + im[b], r1 = re[a] - re[b], i1 = im[a] - im[b]
                let r2 = re[c] + re[d], i2 = im[c] + im[d], r3 = re[c] - re[d], i3 = im[c] - im[d]
                re[a] = r0 + r2; im[a] = i0 + i2
                re[c] = r0 - r2; im[c] = i0 - i2
                // (r3 + i·i3)·(−i) = i3 − i·r3
                re[b] = r1 + i3; im[b] = i1 - r3
                re[d] = r1 - i3; im[d] = i1 + r3
                start += 4
            }
            half = 4
        }
        twiddleRe.withUnsafeBufferPointer { wr in
            twiddleIm.withUnsafeBufferPointer { wi in
                while half < size {
                    let step = half * 2
                    let base = half - 1
                    var start = 0
                    while start < size {
                        for j in 0..<half {
                            let cr = wr[base + j], ci = wi[base + j]
                            let p = start + j, q = p + half
                            let xr = re[q] * cr - im[q] * ci
                            let xi = re[q] * ci + im[q] * cr
                            re[q] = re[p] - xr; im[q] = im[p] - xi
                            re[p] += xr; im[p] += xi
                        }
                        start += step
                    }
                    half = step
                }
            }
        }
    }
}

/// The FFT of a real signal of `size` points through one complex FFT of `size/2` points
/// ("real-input fast path"): it returns the `size/2 + 1` non-redundant bins.
///
/// ```swift
/// let rfft = RealFFT(size: 4096)
/// let spectrum = rfft.forward(samples)   // 2049 bins
/// let back = rfft.inverse(spectrum)      // == samples, to float precision
/// ```
public final class RealFFT: Sendable {
    /// Bins of a real spectrum: `real.count == imag.count == size/2 + 1`.
    public struct Spectrum: Sendable, Equatable {
        public var real: [Float]
        public var imag: [Float]
        public init(real: [Float], imag: [Float]) { self.real = real; self.imag = imag }
        /// |X[k]|² per bin.
        public var power: [Float] { zip(real, imag).map { $0 * $0 + $1 * $1 } }
        /// |X[k]| per bin.
        public var magnitude: [Float] { zip(real, imag).map { ($0 * $0 + $1 * $1).squareRoot() } }
    }

    /// Number of real input points; a power of two ≥ 2.
    public let size: Int
    private let half: FFT
    private let wRe: [Float]
    private let wIm: [Float]

    /// Creates a plan. `size` must be a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && FFT.isValidSize(size), "real FFT size \(size) is not a power of two ≥ 2")
        self.size = size
        half = FFT(size: size / 2)
        wRe = (0..<(size / 2)).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        wIm = (0..<(size / 2)).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
    }

    /// The spectrum of `input` (`size` samples): bins 0 through `size/2`.
    public func forward(_ input: [Float]) -> Spectrum {
        precondition(input.count == size, "real FFT input must have \(size) samples")
        var xr = [Float](repeating: 0, count: size / 2 + 1), xi = xr
        input.withUnsafeBufferPointer { x in
            xr.withUnsafeMutableBufferPointer { r in
                xi.withUnsafeMutableBufferPointer { i in forward(x, real: r, imag: i) }
            }
        }
        return Spectrum(real: xr, imag: xi)
    }

    /// The spectrum of `input` (`size` samples) written into `real` and `imag`
    /// (`size/2 + 1` elements each), without allocating on the heap: the form for hot loops.
    public func forward(_ input: UnsafeBufferPointer<Float>, real xr: UnsafeMutableBufferPointer<Float>,
                        imag xi: UnsafeMutableBufferPointer<Float>) {
        let m = size / 2
        precondition(input.count == size && xr.count >= m + 1 && xi.count >= m + 1, "real FFT buffer sizes")
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * m) { scratch in
            let zr = UnsafeMutableBufferPointer(rebasing: scratch[0..<m])
            let zi = UnsafeMutableBufferPointer(rebasing: scratch[m..<(2 * m)])
            for n in 0..<m { zr[n] = input[2 * n]; zi[n] = input[2 * n + 1] }
            half.transform(zr, zi)
            wRe.withUnsafeBufferPointer { wr in
                wIm.withUnsafeBufferPointer { wi in
                    // Bins 0 and m: E = Re Z[0], O = Im Z[0], W^0 = 1, W^m = −1.
                    xr[0] = zr[0] + zi[0]; xi[0] = 0
                    xr[m] = zr[0] - zi[0]; xi[m] = 0
                    for k in 1..<m {
                        let b = m - k
                        // Even and odd parts: E = (Z[k] + conj Z[m−k]) / 2, O = (Z[k] − conj Z[m−k]) / 2i.
                        let er = (zr[k] + zr[b]) * 0.5, ei = (zi[k] - zi[b]) * 0.5
                        let or = (zi[k] + zi[b]) * 0.5, oi = (zr[b] - zr[k]) * 0.5
                        let cr = wr[k], ci = wi[k]
                        xr[k] = er + or * cr - oi * ci
                        xi[k] = ei + or * ci + oi * cr
                    }
                }
            }
        }
    }

    /// The real signal whose spectrum is `spectrum` (`size/2 + 1` bins), so that
    /// `inverse(forward(x)) == x`.
    public func inverse(_ spectrum: Spectrum) -> [Float] {
        let m = size / 2
        precondition(spectrum.real.count == m + 1 && spectrum.imag.count == m + 1, "spectrum must have \(m + 1) bins")
        let xr = spectrum.real, xi = spectrum.imag
        var zr = [Float](repeating: 0, count: m), zi = [Float](repeating: 0, count: m)
        for k in 0..<m {
            let b = m - k
            // E = (X[k] + conj X[m−k]) / 2, O = (X[k] − conj X[m−k]) · conj(W^k) / 2, Z = E + iO.
            let er = (xr[k] + xr[b]) * 0.5, ei = (xi[k] - xi[b]) * 0.5
            let dr = (xr[k] - xr[b]) * 0.5, di = (xi[k] + xi[b]) * 0.5
            let cr = wRe[k], ci = -wIm[k]
            let or = dr * cr - di * ci, oi = dr * ci + di * cr
            zr[k] = er - oi; zi[k] = ei + or
        }
        half.inverse(real: &zr, imag: &zi)
        var out = [Float](repeating: 0, count: size)
        for n in 0..<m { out[2 * n] = zr[n]; out[2 * n + 1] = zi[n] }
        return out
    }
}
