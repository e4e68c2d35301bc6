import AudioCore
import Foundation

/// The original Music Runner step detector (2013 thesis, after Moe-Nilssen & Helbostad,
/// J. Biomech. 2004), kept as a reference to compare `CadenceEstimator` against.
///
/// Per window: the raw magnitude √(x²+y²+z²) (gravity included), f = samples / seconds
/// (the thesis's own rate, jitter and gaps ignored), low-passed by multiplying its
/// spectrum with a Hamming window's (a circular convolution), then the circular
/// autocorrelation (spectrum × conjugate, inverse FFT); n is the lag of the first local
/// peak after lag 0, and cadence = 60·f/n − 60·f/(n²+n) (the thesis's quantisation
/// correction). It has no notion of stillness: any peak gives a number.
///
/// The thesis leaves the Hamming length open: here it is f/8 samples (125 ms). It ran over
/// everything recorded since the last song change; here it runs over `window` seconds
/// centred on each second, so its timeline lines up with the default estimator's.
public struct ThesisCadenceEstimator: CadenceEstimating {
    /// Window length, seconds.
    public var window = 8.0
    /// Hamming window length, seconds.
    public var hammingLength = 0.125
    /// Cadence (spm) from which a window counts as running.
    public var runningCadence = 140.0

    public init() {}

    public func analyze(_ input: [AccelerationSample]) -> CadenceAnalysis {
        let samples = input.filter { $0.t.isFinite }.sorted { $0.t < $1.t }
        guard let first = samples.first, let last = samples.last, last.t > first.t else { return CadenceAnalysis(readings: []) }
        let times = samples.map { $0.t - first.t }
        let magnitudes = samples.map { Float($0.magnitude) }
        let duration = last.t - first.t
        var readings = [CadenceReading]()
        var steps = 0.0
        for second in 0...Int(duration) {
            let centre = Double(second)
            let lowerTime = max(0, min(centre - window / 2, duration - window))
            let lower = times.partitionIndex { $0 >= lowerTime }, upper = times.partitionIndex { $0 >= lowerTime + window }
            var reading = CadenceReading(t: centre, spm: nil, confidence: 0, regularity: 0, state: .still, steps: 0)
            if upper - lower >= 16, let spm = cadence(Array(magnitudes[lower..<upper]), seconds: times[upper - 1] - times[lower]) {
                reading.spm = spm
                reading.confidence = 1
                reading.state = spm >= runningCadence ? .running : .walking
                steps += spm / 60
            }
            reading.steps = Int(steps.rounded())
            readings.append(reading)
        }
        return CadenceAnalysis(readings: readings)
    }

    /// The thesis's cadence of one recording: `signal` sampled evenly over `seconds`.
    public func cadence(_ signal: [Float], seconds: Double) -> Double? {
        guard signal.count >= 4, seconds > 0 else { return nil }
        let f = Double(signal.count) / seconds
        var size = 2
        while size < signal.count { size *= 2 }
        let fft = RealFFT(size: size)
        let length = max(2, Int((hammingLength * f).rounded()))
        var hamming = [Float](repeating: 0, count: size)
        for i in 0..<min(length, size) {
            hamming[i] = Float(0.54 - 0.46 * cos(2 * Double.pi * Double(i) / Double(length - 1)))
        }
        let x = fft.forward(signal + [Float](repeating: 0, count: size - signal.count))
        let h = fft.forward(hamming)
        // Low-pass: X·H. Autocorrelation: |X·H|², back to time.
        var power = RealFFT.Spectrum(real: [Float](repeating: 0, count: size / 2 + 1), imag: [Float](repeating: 0, count: size / 2 + 1))
        for k in 0...(size / 2) {
            let re = x.real[k] * h.real[k] - x.imag[k] * h.imag[k]
            let im = x.real[k] * h.imag[k] + x.imag[k] * h.real[k]
            power.real[k] = re * re + im * im
        }
        let r = fft.inverse(power)
        guard let n = (1..<(size / 2)).first(where: { r[$0] > r[$0 - 1] && r[$0] >= r[$0 + 1] }) else { return nil }
        let nd = Double(n)
        return 60 * f / nd - 60 * f / (nd * nd + nd)
    }
}
