import AudioCore
import Cadence
import Foundation

/// Generator C's evaluation material (issue 21), in two parts fixed by a documented rule
/// (docs/runner.md, "Issue 21: evaluation material C"):
///
/// - **tuned**: seeds 31000 + i; sample rates 20, 25, 50, 100, 200 Hz; the standard arm
///   (elbow bent in running) and heel strikes (or their absence decided by the model's
///   ordinary draws only).
/// - **unseen**: seeds 47000 + i (disjoint); sample rates 30, 60, 50, 100 Hz (30 and 60 only
///   here); a third of its traces a straight-arm swinger, another third fore-foot strikers
///   (both variants never in the tuned part). Nothing was tuned on it.
enum CadenceSetC {
    enum Part: String, CaseIterable { case tuned, unseen }
    typealias Stretch = GaitGeneratorC.Stretch

    static let scenarios = ["handrun", "handswing", "chestswing", "hand2arm", "armrun", "handwalk", "armwalk",
                            "pocketwalk", "pocketrun", "beltwalk", "beltrun", "stopgo-swing", "stopgo-armband",
                            "stopgo-pocket", "still-swing", "still-chest", "still-armband", "still-belt"]

    static func stretches(_ name: String, _ rng: inout SplitMix64) -> [Stretch] {
        func u(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnit() }
        let run = u(142, 198), run2 = min(200, max(140, run + u(-15, 15)))
        let walk = u(90, 130), walk2 = min(130, max(90, walk + u(-8, 8)))
        switch name {
        case "handrun":
            return [Stretch(seconds: 6, gait: .still, carry: .swing),
                    Stretch(seconds: 30, gait: .run, from: run, to: run, carry: .swing),
                    Stretch(seconds: 14, gait: .run, from: run, to: run2, carry: .chest, blend: u(1, 2.5)),
                    Stretch(seconds: 26, gait: .run, from: run2, to: run2, carry: .swing, blend: u(1, 2.5)),
                    Stretch(seconds: 6, gait: .still, carry: .swing)]
        case "handswing":
            return [Stretch(seconds: 70, gait: .run, from: run, to: run2, carry: .swing)]
        case "chestswing":
            return [Stretch(seconds: 20, gait: .run, from: run, to: run, carry: .chest),
                    Stretch(seconds: 30, gait: .run, from: run, to: run2, carry: .swing, blend: u(1, 3)),
                    Stretch(seconds: 15, gait: .run, from: run2, to: run2, carry: .chest, blend: u(1, 3))]
        case "hand2arm":
            return [Stretch(seconds: 30, gait: .run, from: run, to: run, carry: .swing),
                    Stretch(seconds: 35, gait: .run, from: run, to: run2, carry: .armband, blend: u(2, 4))]
        case "armrun":
            return [Stretch(seconds: 40, gait: .run, from: run, to: run, carry: .armband),
                    Stretch(seconds: 25, gait: .run, from: run2, to: run2, carry: .armband),
                    Stretch(seconds: 8, gait: .still, carry: .armband)]
        case "handwalk":
            return [Stretch(seconds: 60, gait: .walk, from: walk, to: walk2, carry: .swing)]
        case "armwalk":
            return [Stretch(seconds: 40, gait: .walk, from: walk, to: walk2, carry: .armband),
                    Stretch(seconds: 30, gait: .run, from: run, to: run, carry: .armband)]
        case "pocketwalk":
            return [Stretch(seconds: 60, gait: .walk, from: walk, to: walk2, carry: .pocket)]
        case "pocketrun":
            return [Stretch(seconds: 50, gait: .run, from: run, to: run2, carry: .pocket)]
        case "beltwalk":
            return [Stretch(seconds: 60, gait: .walk, from: walk, to: walk2, carry: .belt)]
        case "beltrun":
            return [Stretch(seconds: 50, gait: .run, from: run, to: run2, carry: .belt)]
        case let s where s.hasPrefix("stopgo-"):
            let carry = GaitGeneratorC.Carry(rawValue: String(s.dropFirst(7)))!
            return [Stretch(seconds: 10, gait: .still, carry: carry),
                    Stretch(seconds: 25, gait: .run, from: run, to: run, carry: carry),
                    Stretch(seconds: 10, gait: .still, carry: carry),
                    Stretch(seconds: 20, gait: .walk, from: walk, to: walk, carry: carry),
                    Stretch(seconds: 8, gait: .still, carry: carry)]
        default: // still-<carry>
            let carry = GaitGeneratorC.Carry(rawValue: String(name.dropFirst(6)))!
            return [Stretch(seconds: 40, gait: .still, carry: carry)]
        }
    }

    /// The part's traces: each scenario `repeats` times.
    static func traces(_ part: Part, repeats: Int = 2) -> [GaitGeneratorC.Trace] {
        let rates: [Double] = part == .tuned ? [20, 25, 50, 100, 200] : [30, 60, 50, 100]
        let seedBase: UInt64 = part == .tuned ? 31000 : 47000
        var traces = [GaitGeneratorC.Trace]()
        var index = 0
        for round in 0..<repeats {
            for name in scenarios {
                let seed = seedBase + UInt64(index)
                let rate = rates[index % rates.count]
                var variant = GaitGeneratorC.Variant()
                if part == .unseen {
                    variant.straightArm = index % 3 == 1
                    variant.foreFoot = index % 3 == 2
                }
                var rng = SplitMix64(seed: seed ^ 0xA11CE)
                let stretches = stretches(name, &rng)
                let generator = GaitGeneratorC(seed: seed, rate: rate, variant: variant)
                traces.append(generator.make("\(name)-\(Int(rate))Hz-r\(round)\(variant.straightArm ? "-straightarm" : "")\(variant.foreFoot ? "-forefoot" : "")", stretches))
                index += 1
            }
        }
        return traces
    }
}

/// The issue's four figures per group of seconds (placement × walking/running), and overall.
struct GroupedCadenceScore {
    var all = CadenceScore()
    var groups = [String: CadenceScore]()
    /// Moving seconds read at about half (0.4–0.6×) or double (1.7–2.3×) the truth.
    var octaveErrors = [String: Int]()

    mutating func add(_ trace: GaitGeneratorC.Trace, _ analysis: CadenceAnalysis) {
        for reading in analysis.readings {
            let second = reading.t.rounded()
            guard abs(second - reading.t) <= 0.5 else { continue }
            let place = trace.carry(at: second)?.rawValue ?? "transition"
            switch trace.activity(at: second, half: all.margin) {
            case true?:
                guard let truth = trace.truth(at: second) else { continue }
                let key = "\(place)/\(truth >= 140 ? "running" : "walking")"
                var g = groups[key] ?? CadenceScore()
                all.movingSeconds += 1; g.movingSeconds += 1
                if let spm = reading.spm {
                    all.coveredSeconds += 1; g.coveredSeconds += 1
                    all.errors.append(abs(spm - truth)); g.errors.append(abs(spm - truth))
                    if abs(spm - truth) > 3 { all.worst.append((trace.name, second, truth, spm)) }
                    let ratio = spm / truth
                    if (0.4...0.6).contains(ratio) || (1.7...2.3).contains(ratio) { octaveErrors[key, default: 0] += 1 }
                }
                groups[key] = g
            case false?:
                let key = "\(place)/still"
                var g = groups[key] ?? CadenceScore()
                all.stillSeconds += 1; g.stillSeconds += 1
                if reading.spm != nil { all.stillWithCadence += 1; g.stillWithCadence += 1 }
                groups[key] = g
            case nil:
                continue
            }
        }
    }

    static func score(_ estimator: any CadenceEstimating, part: CadenceSetC.Part) -> GroupedCadenceScore {
        var score = GroupedCadenceScore()
        for trace in CadenceSetC.traces(part) { score.add(trace, estimator.analyze(trace.samples)) }
        return score
    }

    static func figures(_ s: CadenceScore) -> [String: Any] {
        func finite(_ x: Double) -> Any { x.isFinite ? (x * 1000).rounded() / 1000 : NSNull() }
        return ["moving_seconds": s.movingSeconds, "coverage": finite(s.coverage), "median_spm": finite(s.median),
                "p95_spm": finite(s.p95), "still_seconds": s.stillSeconds,
                "still_with_cadence": finite(s.stillSeconds == 0 ? 0 : Double(s.stillWithCadence) / Double(s.stillSeconds))]
    }

    var json: [String: Any] {
        var g = [String: Any]()
        for (key, s) in groups {
            var f = Self.figures(s)
            if s.coveredSeconds > 0 { f["octave_error_share"] = (Double(octaveErrors[key] ?? 0) / Double(s.coveredSeconds) * 1000).rounded() / 1000 }
            g[key] = f
        }
        return ["all": Self.figures(all), "groups": g]
    }

    var table: String {
        var lines = ["  all: \(all)"]
        for key in groups.keys.sorted() {
            let s = groups[key]!
            let oct = s.coveredSeconds > 0 ? Double(octaveErrors[key] ?? 0) / Double(s.coveredSeconds) : 0
            func f(_ x: Double, _ d: Int) -> String { String(format: "%.\(d)f", x) }
            let still = s.stillSeconds == 0 ? 0 : 100 * Double(s.stillWithCadence) / Double(s.stillSeconds)
            lines.append("  " + key.padding(toLength: 20, withPad: " ", startingAt: 0)
                + " moving \(s.movingSeconds) cov \(f(100 * s.coverage, 1)) % med \(f(s.errors.isEmpty ? 0 : s.median, 2)) p95 \(f(s.errors.isEmpty ? 0 : s.p95, 2))"
                + " half/double \(f(100 * oct, 1)) % | still \(s.stillSeconds) with cadence \(f(still, 1)) %")
        }
        return lines.joined(separator: "\n")
    }
}
