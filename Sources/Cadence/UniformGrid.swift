/// Accelerometer magnitude resampled onto a uniform time grid, with the gaps marked.
///
/// Phones deliver samples at an irregular rate (jitter, dropped batches). The grid holds
/// one value every `1/rate` s from the first sample: the mean magnitude of the samples
/// within half a step of the grid point (a box anti-alias filter when the input is faster
/// than the grid), or the linear interpolation of its neighbours when none fall there
/// (input slower than the grid). Points inside a gap longer than `maxGap` are invalid and
/// split the log into segments.
struct UniformGrid {
    /// Grid rate, Hz.
    let rate: Double
    /// Time of grid point 0 (the first sample's time).
    let start: Double
    /// Magnitude in g per grid point (0 where invalid).
    var values: [Float]
    /// The three axes in g per grid point (raw, gravity included; 0 where invalid), resampled
    /// as the magnitude is: the step/stride decision looks at the vertical (issue 21).
    var x: [Float], y: [Float], z: [Float]
    /// Contiguous valid index ranges, in order.
    let segments: [Range<Int>]

    init(samples input: [AccelerationSample], rate: Double, maxGap: Double) {
        self.rate = rate
        var samples = input.filter { $0.t.isFinite && $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
        if !zip(samples, samples.dropFirst()).allSatisfy({ $0.t <= $1.t }) {
            samples.sort { $0.t < $1.t }
        }
        guard let first = samples.first, let last = samples.last else {
            start = 0; values = []; x = []; y = []; z = []; segments = []; return
        }
        start = first.t
        let dt = 1 / rate
        let count = Int(((last.t - first.t) * rate).rounded(.down)) + 1
        var values = [Float](repeating: 0, count: count)
        var gx = [Float](repeating: 0, count: count), gy = gx, gz = gx
        var valid = [Bool](repeating: false, count: count)
        let magnitudes = samples.map(\.magnitude)
        var i = 0 // first sample with t >= grid point − dt/2
        for j in 0..<count {
            let tj = first.t + Double(j) * dt
            while i < samples.count && samples[i].t < tj - dt / 2 { i += 1 }
            var sum = 0.0, sx = 0.0, sy = 0.0, sz = 0.0, n = 0, k = i
            while k < samples.count && samples[k].t < tj + dt / 2 {
                sum += magnitudes[k]; sx += samples[k].x; sy += samples[k].y; sz += samples[k].z
                n += 1; k += 1
            }
            if n > 0 {
                values[j] = Float(sum / Double(n)); valid[j] = true
                gx[j] = Float(sx / Double(n)); gy[j] = Float(sy / Double(n)); gz[j] = Float(sz / Double(n))
            } else if i > 0 && i < samples.count {
                let a = samples[i - 1], b = samples[i]
                guard b.t - a.t <= maxGap else { continue }
                let w = (tj - a.t) / (b.t - a.t)
                values[j] = Float(magnitudes[i - 1] * (1 - w) + magnitudes[i] * w); valid[j] = true
                gx[j] = Float(a.x * (1 - w) + b.x * w); gy[j] = Float(a.y * (1 - w) + b.y * w); gz[j] = Float(a.z * (1 - w) + b.z * w)
            }
        }
        var segments = [Range<Int>]()
        var runStart: Int?
        for j in 0...count {
            let ok = j < count && valid[j]
            if ok, runStart == nil { runStart = j }
            if !ok, let s = runStart { segments.append(s..<j); runStart = nil }
        }
        self.values = values
        x = gx; y = gy; z = gz
        self.segments = segments
    }

    /// The grid index nearest to `time` (seconds since `start`).
    func index(at time: Double) -> Int { Int((time * rate).rounded()) }
}

/// A second-order IIR section (RBJ audio-EQ cookbook), direct form I.
struct Biquad {
    var b0, b1, b2, a1, a2: Float
    private var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0

    /// Butterworth (Q = 1/√2) low- or high-pass at `cutoff` Hz for a signal at `rate` Hz.
    init(lowPass: Bool, cutoff: Double, rate: Double) {
        let w = 2 * Double.pi * cutoff / rate
        let alpha = sin(w) / (2 * 0.5.squareRoot()), c = cos(w), a0 = 1 + alpha
        let b1 = lowPass ? (1 - c) : -(1 + c)
        let b0 = lowPass ? (1 - c) / 2 : (1 + c) / 2
        self.b0 = Float(b0 / a0); self.b1 = Float(b1 / a0); self.b2 = Float(b0 / a0)
        a1 = Float(-2 * c / a0); a2 = Float((1 - alpha) / a0)
    }

    /// A band-pass of 0 dB peak gain at `centre` Hz with quality `q` (RBJ cookbook).
    init(bandPass centre: Double, q: Double, rate: Double) {
        let w = 2 * Double.pi * centre / rate
        let alpha = sin(w) / (2 * q), a0 = 1 + alpha
        b0 = Float(alpha / a0); b1 = 0; b2 = Float(-alpha / a0)
        a1 = Float(-2 * cos(w) / a0); a2 = Float((1 - alpha) / a0)
    }

    /// Clears the filter's memory.
    mutating func reset() { x1 = 0; x2 = 0; y1 = 0; y2 = 0 }

    mutating func process(_ x: Float) -> Float {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }
}

#if canImport(Darwin)
import Darwin
#else
import Foundation
#endif
