import AudioCore
import Foundation
import Testing

@Suite("FFT")
struct FFTTests {
    /// The textbook O(N²) DFT in double precision: the reference.
    static func naiveDFT(real: [Double], imag: [Double]) -> (re: [Double], im: [Double]) {
        let n = real.count
        var re = [Double](repeating: 0, count: n), im = [Double](repeating: 0, count: n)
        for k in 0..<n {
            var sr = 0.0, si = 0.0
            for t in 0..<n {
                let angle = -2 * Double.pi * Double((k * t) % n) / Double(n)
                let c = cos(angle), s = sin(angle)
                sr += real[t] * c - imag[t] * s
                si += real[t] * s + imag[t] * c
            }
            re[k] = sr; im[k] = si
        }
        return (re, im)
    }

    /// ‖a − b‖ / ‖b‖ over complex vectors.
    static func relativeError(_ a: (re: [Float], im: [Float]), _ b: (re: [Double], im: [Double])) -> Double {
        var diff = 0.0, norm = 0.0
        for i in 0..<b.re.count {
            let dr = Double(a.re[i]) - b.re[i], di = Double(a.im[i]) - b.im[i]
            diff += dr * dr + di * di
            norm += b.re[i] * b.re[i] + b.im[i] * b.im[i]
        }
        return (diff / norm).squareRoot()
    }

    static func randomSignal(_ n: Int, seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in Float.random(in: -1...1, using: &rng) }
    }

    @Test("complex FFT matches a naive DFT at 4096 points (relative error < 1e-4)")
    func complexAgainstDFT() {
        let n = 4096
        let re = Self.randomSignal(n, seed: 1), im = Self.randomSignal(n, seed: 2)
        var fr = re, fi = im
        FFT(size: n).forward(real: &fr, imag: &fi)
        let reference = Self.naiveDFT(real: re.map(Double.init), imag: im.map(Double.init))
        let error = Self.relativeError((fr, fi), reference)
        #expect(error < 1e-4, "relative error \(error)")
    }

    @Test("real FFT matches a naive DFT at 4096 points (relative error < 1e-4)")
    func realAgainstDFT() {
        let n = 4096
        let x = Self.randomSignal(n, seed: 3)
        let spectrum = RealFFT(size: n).forward(x)
        #expect(spectrum.real.count == n / 2 + 1)
        let reference = Self.naiveDFT(real: x.map(Double.init), imag: [Double](repeating: 0, count: n))
        let half = (Array(reference.re[0...(n / 2)]), Array(reference.im[0...(n / 2)]))
        let error = Self.relativeError((spectrum.real, spectrum.imag), half)
        #expect(error < 1e-4, "relative error \(error)")
    }

    @Test("small sizes agree with the DFT", arguments: [1, 2, 4, 8, 16, 64])
    func smallSizes(n: Int) {
        let re = Self.randomSignal(n, seed: UInt64(n)), im = Self.randomSignal(n, seed: UInt64(n) + 100)
        var fr = re, fi = im
        FFT(size: n).forward(real: &fr, imag: &fi)
        #expect(Self.relativeError((fr, fi), Self.naiveDFT(real: re.map(Double.init), imag: im.map(Double.init))) < 1e-5)
        if n >= 2 {
            let spectrum = RealFFT(size: n).forward(re)
            let reference = Self.naiveDFT(real: re.map(Double.init), imag: [Double](repeating: 0, count: n))
            let half = (Array(reference.re[0...(n / 2)]), Array(reference.im[0...(n / 2)]))
            #expect(Self.relativeError((spectrum.real, spectrum.imag), half) < 1e-5)
        }
    }

    @Test("inverse transforms give the input back")
    func inverseRoundTrip() {
        let n = 2048
        let x = Self.randomSignal(n, seed: 9), y = Self.randomSignal(n, seed: 10)
        var re = x, im = y
        let fft = FFT(size: n)
        fft.forward(real: &re, imag: &im)
        fft.inverse(real: &re, imag: &im)
        #expect(zip(re, x).allSatisfy { abs($0 - $1) < 1e-5 } && zip(im, y).allSatisfy { abs($0 - $1) < 1e-5 })
        let rfft = RealFFT(size: n)
        let back = rfft.inverse(rfft.forward(x))
        #expect(zip(back, x).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test("a pure tone puts its energy in its own bin")
    func toneBin() {
        let n = 1024
        let x = (0..<n).map { Float(cos(2 * Double.pi * 37 * Double($0) / Double(n))) }
        let power = RealFFT(size: n).forward(x).power
        let peak = power.indices.max { power[$0] < power[$1] }
        #expect(peak == 37)
        #expect(abs(power[37] - Float(n * n) / 4) / (Float(n * n) / 4) < 1e-4)
    }

    @Test("only powers of two are valid sizes")
    func validSizes() {
        #expect(FFT.isValidSize(1) && FFT.isValidSize(65_536))
        #expect(!FFT.isValidSize(0) && !FFT.isValidSize(3) && !FFT.isValidSize(1000) && !FFT.isValidSize(-4))
    }
}
