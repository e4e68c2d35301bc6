import Cadence
import Foundation

/// A generated trace the score can judge: its name, the truth per second and whether the
/// wearer moves or stands throughout the span around a second (nil: both).
protocol ScoredTrace {
    var name: String { get }
    func truth(at second: Double) -> Double?
    func activity(at second: Double, half: Double) -> Bool?
}

/// A trace that knows its step times: its truth is 60 / the mean step interval over the 4 s
/// centred on a second, when that span holds two intervals.
protocol StepTimedTrace: ScoredTrace {
    var steps: [Double] { get }
}

extension StepTimedTrace {
    func truth(at second: Double) -> Double? {
        let inside = steps.filter { $0 >= second - 2 && $0 <= second + 2 }
        guard inside.count >= 3 else { return nil }
        return 60 / ((inside.last! - inside.first!) / Double(inside.count - 1))
    }
}

/// A trace whose moving stretches are spans [start, end): the wearer moves (true) or stands
/// (false) throughout [second − half, second + half], or both (nil).
protocol SpanTrace: StepTimedTrace {
    var moving: [(Double, Double)] { get }
}

extension SpanTrace {
    func activity(at second: Double, half: Double) -> Bool? {
        let a = second - half, b = second + half
        if moving.contains(where: { $0.0 <= a && $0.1 >= b }) { return true }
        if !moving.contains(where: { $0.0 < b && $0.1 > a }) { return false }
        return nil
    }
}

extension GaitGenerator.Trace: StepTimedTrace {}

/// The accuracy figures for an estimator on a set of traces.
///
/// A reading counts for the truth second nearest to its `t` (within 0.5 s). Moving seconds:
/// the wearer moves throughout the 4 s around them and the truth is defined; still
/// seconds: the wearer stands throughout the 4 s around them (transitions count for neither).
struct CadenceScore: CustomStringConvertible {
    var movingSeconds = 0
    var coveredSeconds = 0
    var errors = [Double]()
    var stillSeconds = 0
    var stillWithCadence = 0
    var worst = [(String, Double, Double, Double)]() // trace, t, truth, estimate
    /// Half-width (s) of the span around a second that must be all moving or all still.
    var margin = 2.0

    mutating func add(_ trace: some ScoredTrace, _ analysis: CadenceAnalysis) {
        for reading in analysis.readings {
            let second = reading.t.rounded()
            guard abs(second - reading.t) <= 0.5 else { continue }
            switch trace.activity(at: second, half: margin) {
            case true?:
                guard let truth = trace.truth(at: second) else { continue }
                movingSeconds += 1
                if let spm = reading.spm {
                    coveredSeconds += 1
                    errors.append(abs(spm - truth))
                    if abs(spm - truth) > 3 { worst.append((trace.name, second, truth, spm)) }
                }
            case false?:
                stillSeconds += 1
                if reading.spm != nil { stillWithCadence += 1 }
            case nil:
                continue
            }
        }
    }

    var coverage: Double { movingSeconds == 0 ? 0 : Double(coveredSeconds) / Double(movingSeconds) }
    var stillCorrect: Double { stillSeconds == 0 ? 1 : 1 - Double(stillWithCadence) / Double(stillSeconds) }
    var median: Double { percentile(0.5) }
    var p95: Double { percentile(0.95) }

    func percentile(_ q: Double) -> Double {
        guard !errors.isEmpty else { return .infinity }
        let sorted = errors.sorted()
        return sorted[min(sorted.count - 1, Int((q * Double(sorted.count - 1)).rounded()))]
    }

    var description: String {
        String(format: "moving %d s: cadence for %.1f %%, median |error| %.2f spm, p95 %.2f spm; still %d s: no cadence for %.1f %%",
               movingSeconds, 100 * coverage, median, p95, stillSeconds, 100 * stillCorrect)
    }
}

/// The fixed set of generated traces the accuracy tests use (deterministic seeds).
enum TraceSet {
    typealias Segment = GaitGenerator.Segment

    static let scenarios: [(String, [Segment])] = [
        ("walk", [Segment(seconds: 60, from: 95, to: 125, moving: true)]),
        ("run", [Segment(seconds: 60, from: 150, to: 195, moving: true)]),
        ("changes", [Segment(seconds: 15, from: 110, to: 110, moving: true), Segment(seconds: 5, from: 110, to: 165, moving: true),
                     Segment(seconds: 15, from: 165, to: 165, moving: true), Segment(seconds: 3, from: 165, to: 185, moving: true),
                     Segment(seconds: 15, from: 185, to: 185, moving: true), Segment(seconds: 5, from: 185, to: 100, moving: true),
                     Segment(seconds: 12, from: 100, to: 100, moving: true)]),
        ("intervals", [Segment(seconds: 8, from: 0, to: 0, moving: false), Segment(seconds: 20, from: 175, to: 180, moving: true),
                       Segment(seconds: 12, from: 105, to: 110, moving: true), Segment(seconds: 10, from: 0, to: 0, moving: false),
                       Segment(seconds: 20, from: 160, to: 170, moving: true)]),
        ("still", [Segment(seconds: 40, from: 0, to: 0, moving: false)]),
    ]
    static let rates: [Double] = [25, 50, 100, 200, 20, 60]

    static func traces() -> [GaitGenerator.Trace] {
        var traces = [GaitGenerator.Trace]()
        var index = 0
        for placement in GaitGenerator.Placement.allCases {
            for (name, segments) in scenarios {
                let rate = rates[index % rates.count]
                let generator = GaitGenerator(seed: UInt64(1000 + index), placement: placement, rate: rate)
                traces.append(generator.make("\(name)-\(placement.rawValue)-\(Int(rate))Hz", segments))
                index += 1
            }
        }
        return traces
    }

    static func score(_ estimator: any CadenceEstimating, margin: Double = 2) -> CadenceScore {
        var score = CadenceScore()
        score.margin = margin
        for trace in traces() { score.add(trace, estimator.analyze(trace.samples)) }
        return score
    }
}
