import Foundation

/// How well a pulse train of one period fits a novelty curve: the octave evidence.
///
/// For a period τ the best phase is found, then
/// - precision: the mean novelty at the pulses (do the pulses land on onsets?), and
/// - recall: the share of all novelty the pulses collect (are the onsets on the pulses?).
/// A pulse at the true beat scores high on both; at twice the beat, recall halves (every
/// other onset is missed); at half the beat, precision halves (every other pulse finds
/// nothing) — unless accents make the slower level genuinely stronger.
/// After Percival & Tzanetakis, "Streamlined tempo estimation based on autocorrelation and
/// cross-correlation with pulses", IEEE/ACM TASLP 22(12), 2014, which scores candidate
/// periods by cross-correlating the onset signal with pulse trains.
///
/// At the best phase the fit also measures the metre around the pulses (used by the
/// level chooser, `LevelChooser`): the mean novelty half-way between pulses (`offbeat`),
/// at the thirds (`thirds`), and on the weaker of the even and odd pulses (`alternate`).
struct PulseTrain {
    let novelty: [Float]
    let mean: Double

    init(novelty: [Float]) {
        self.novelty = novelty
        mean = novelty.isEmpty ? 0 : Double(novelty.reduce(0, +)) / Double(novelty.count)
    }

    struct Fit {
        var period: Double
        var phase: Int
        var precision: Double
        var recall: Double
        /// Mean novelty half a period after each pulse.
        var offbeat: Double = 0
        /// Mean novelty a third and two thirds of a period after each pulse.
        var thirds: Double = 0
        /// The weaker of the mean novelty on the even and on the odd pulses.
        var alternate: Double = 0
    }

    /// The largest novelty within ±1 frame of `position`.
    @inline(__always)
    private static func local(_ x: UnsafeBufferPointer<Float>, _ position: Double) -> Float {
        let n = x.count
        let i = min(n - 1, max(0, Int(position.rounded())))
        let lo = max(0, i - 1), hi = min(n - 1, i + 1)
        var v = x[lo]
        for j in (lo + 1)...hi where x[j] > v { v = x[j] }
        return v
    }

    /// The best-phase fit of pulses every `period` frames (each pulse takes the largest
    /// novelty within ±1 frame, tolerating jitter and fractional periods).
    func fit(period: Double) -> Fit {
        let n = novelty.count
        guard period >= 2, n > Int(period) * 2, mean > 0 else { return Fit(period: period, phase: 0, precision: 0, recall: 0) }
        var best = Fit(period: period, phase: 0, precision: -1, recall: 0)
        novelty.withUnsafeBufferPointer { x in
            for phase in 0..<Int(period.rounded(.up)) {
                var sum = 0.0
                var count = 0
                var position = Double(phase)
                while position < Double(n - 1) {
                    sum += Double(Self.local(x, position))
                    count += 1
                    position += period
                }
                let precision = count > 0 ? sum / Double(count) : 0
                if precision > best.precision {
                    best = Fit(period: period, phase: phase, precision: precision,
                               recall: min(1, sum / (mean * Double(n))))
                }
            }
            // The metre around the pulses, at the best phase.
            var off = 0.0, third = 0.0, even = 0.0, odd = 0.0
            var count = 0, evenCount = 0, oddCount = 0
            var position = Double(best.phase)
            while position + period < Double(n - 1) {
                off += Double(Self.local(x, position + period / 2))
                third += 0.5 * Double(Self.local(x, position + period / 3) + Self.local(x, position + 2 * period / 3))
                let on = Double(Self.local(x, position))
                if count % 2 == 0 { even += on; evenCount += 1 } else { odd += on; oddCount += 1 }
                count += 1
                position += period
            }
            if count > 0 {
                best.offbeat = off / Double(count)
                best.thirds = third / Double(count)
            }
            if evenCount > 0, oddCount > 0 {
                best.alternate = min(even / Double(evenCount), odd / Double(oddCount))
            }
        }
        return best
    }

    /// Mean novelty of `band` on the pulses of `fit` (its period and phase).
    static func mean(of band: [Float], on fit: Fit) -> Double {
        guard fit.period >= 2, !band.isEmpty else { return 0 }
        var sum = 0.0, count = 0
        band.withUnsafeBufferPointer { x in
            var position = Double(fit.phase)
            while position < Double(x.count - 1) {
                sum += Double(local(x, position))
                count += 1
                position += fit.period
            }
        }
        return count > 0 ? sum / Double(count) : 0
    }

    /// Onsets per second: local maxima of the novelty above its mean, at least 50 ms apart.
    func onsetRate(frameRate: Double) -> Double {
        let n = novelty.count
        guard n > 2, mean > 0 else { return 0 }
        let gap = max(1, Int(0.05 * frameRate))
        var count = 0
        var last = -gap
        for i in 1..<(n - 1) where novelty[i] > Float(mean) && novelty[i] > novelty[i - 1] && novelty[i] >= novelty[i + 1] {
            if i - last >= gap { count += 1; last = i }
        }
        return Double(count) / (Double(n) / frameRate)
    }
}
