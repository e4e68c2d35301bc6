/// Autocorrelation helpers of the cadence estimators.
enum Autocorrelation {
    struct Peak { var lag: Double; var value: Double }

    /// r[k] for k in 0...maxLag: Σ x[i]·x[i+k] over the overlapping part only, divided by
    /// the geometric mean of the two parts' energies (an unbiased, scale-free estimate:
    /// 1 for a perfectly periodic signal at its period, whatever the lag).
    static func normalized(_ x: UnsafeBufferPointer<Float>, maxLag: Int) -> [Double] {
        let n = x.count
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + Double(x[i] * x[i]) }
        var r = [Double](repeating: 0, count: maxLag + 1)
        for k in 0...min(maxLag, n - 1) {
            var sum: Float = 0
            let count = n - k
            var i = 0
            // Four partial sums: lets the optimiser vectorise the loop.
            var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
            while i + 4 <= count {
                s0 += x[i] * x[i + k]; s1 += x[i + 1] * x[i + k + 1]
                s2 += x[i + 2] * x[i + k + 2]; s3 += x[i + 3] * x[i + k + 3]
                i += 4
            }
            while i < count { sum += x[i] * x[i + k]; i += 1 }
            sum += (s0 + s1) + (s2 + s3)
            let e = (prefix[count] * (prefix[n] - prefix[k])).squareRoot()
            r[k] = e > 0 ? Double(sum) / e : 0
        }
        return r
    }

    /// Local maxima of `r` from lag `from`, each refined by a parabola through its neighbours.
    static func peaks(_ r: [Double], from: Int) -> [Peak] {
        guard r.count >= 3 else { return [] }
        var peaks = [Peak]()
        for k in max(from, 1)..<(r.count - 1) where r[k] > r[k - 1] && r[k] >= r[k + 1] {
            peaks.append(refine(r, k))
        }
        return peaks
    }

    /// The parabola through r[k−1], r[k], r[k+1]: its vertex lag and value.
    static func refine(_ r: [Double], _ k: Int) -> Peak {
        let a = r[k - 1], b = r[k], c = r[k + 1]
        let d = a - 2 * b + c
        guard d < 0 else { return Peak(lag: Double(k), value: b) }
        let offset = max(-0.5, min(0.5, 0.5 * (a - c) / d))
        return Peak(lag: Double(k) + offset, value: b - 0.25 * (a - c) * offset)
    }

    /// The highest peak within ±tolerance (relative) of `lag`.
    static func peak(near lag: Double, in peaks: [Peak], tolerance: Double) -> Peak? {
        peaks.filter { abs($0.lag - lag) <= tolerance * lag }.max { $0.value < $1.value }
    }

    /// The largest r within ±tolerance (relative, at least one lag) of `lag`.
    static func value(_ r: [Double], near lag: Double, tolerance: Double) -> Double {
        let span = max(1, tolerance * lag)
        let lower = max(0, Int((lag - span).rounded(.down))), upper = min(r.count - 1, Int((lag + span).rounded(.up)))
        guard lower <= upper else { return -1 }
        return r[lower...upper].max() ?? -1
    }
}
