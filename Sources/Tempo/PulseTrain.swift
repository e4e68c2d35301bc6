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
                    let i = Int(position.rounded())
                    let lo = max(0, i - 1), hi = min(n - 1, i + 1)
                    var v = x[lo]
                    for j in (lo + 1)...hi where x[j] > v { v = x[j] }
                    sum += Double(v)
                    count += 1
                    position += period
                }
                let precision = count > 0 ? sum / Double(count) : 0
                if precision > best.precision {
                    best = Fit(period: period, phase: phase, precision: precision,
                               recall: min(1, sum / (mean * Double(n))))
                }
            }
        }
        return best
    }
}
