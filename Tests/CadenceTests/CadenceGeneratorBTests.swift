import Cadence
import Foundation
import Testing

/// The estimator on `GaitGeneratorB`'s fixed traces: a second, independently designed model
/// of gait (spring-mass running, double-support walking, loose pocket, arm swing, fidgeting),
/// so that the figures are not those of the model the estimator was tuned on.
@Suite("Cadence estimation on generator B")
struct CadenceGeneratorBTests {
    @Test("the default estimator on generator B's traces")
    func accuracy() {
        let score = TraceSetB.score(CadenceEstimator())
        print("default estimator, generator B: \(score)")
        for w in score.worst.prefix(40) { print("  \(w.0) t=\(w.1) truth \(String(format: "%.1f", w.2)) got \(String(format: "%.1f", w.3))") }
        #expect(score.movingSeconds > 1500 && score.stillSeconds > 300)
        #expect(score.coverage >= 0.90)
        #expect(score.median <= 1.0)
        // The issue asks ≤ 3: met on this set (2.92), not on all others (2.1–3.5 with seed
        // bases 6000–13000). The tail is walk↔run transitions, walking with the phone on a belt
        // or in a hand, and whole stretches of a swinging hand or a pocket read at the stride
        // (docs/runner.md, Figures).
        #expect(score.p95 <= 3.0)
        #expect(score.stillCorrect >= 0.95) // 97.0 %
    }

    @Test("generator B, counting the seconds next to a start or a stop too (±1 s)")
    func accuracyNearTransitions() {
        let score = TraceSetB.score(CadenceEstimator(), margin: 1)
        print("default estimator, generator B, ±1 s: \(score)")
        #expect(score.coverage >= 0.90)
        #expect(score.median <= 1.0)
        // The issue's target, p95 ≤ 3, is not met here (3.31 when last measured): a known issue,
        // not a loosened threshold. The test fails once it is met, so the marker goes then.
        withKnownIssue("p95 ≤ 3 spm not met within ±1 s of a start or a stop (issue 21)") {
            #expect(score.p95 <= 3.0)
        }
        #expect(score.stillCorrect >= 0.95) // 95.3 %: the second after a stop may still read a cadence
    }

    @Test("generator B with another seed base (the worst of seven tried: the figures are not those of one draw)")
    func otherSeeds() {
        let score = TraceSetB.score(CadenceEstimator(), seedBase: 9000)
        print("default estimator, generator B, seed base 9000: \(score)")
        #expect(score.coverage >= 0.90)
        #expect(score.median <= 1.0)
        // 3.45 (2.1–3.3 with bases 6000, 7000, 8000, 10000, 11000, 12000, 13000): a swinging
        // hand's intervals read at the stride for 15 s from their start, walks in a hand off by
        // 3–5 spm.
        // The issue's target, p95 ≤ 3, is not met with this seed base: a known issue (issue 21),
        // not a loosened threshold; the test fails once it is met, so the marker goes then.
        withKnownIssue("p95 ≤ 3 spm not met with seed base 9000 (issue 21)") {
            #expect(score.p95 <= 3.0)
        }
        #expect(score.stillCorrect >= 0.95) // 98.9 %
    }

    @Test("the thesis estimator on generator B (figures reported, not required to be good)")
    func thesis() {
        let score = TraceSetB.score(ThesisCadenceEstimator())
        print("thesis estimator, generator B: \(score)")
        let near = TraceSetB.score(ThesisCadenceEstimator(), margin: 1)
        print("thesis estimator, generator B, ±1 s: \(near)")
        #expect(score.movingSeconds > 0 && score.coveredSeconds > 0)
    }

    @Test("generator B's truth: steps at the scenario's pace, moving and still spans as scripted")
    func generatorTruth() {
        let trace = GaitGeneratorB(seed: 1, carry: .belt, rate: 100).make("check", [
            GaitGeneratorB.Stretch(seconds: 10, gait: .still),
            GaitGeneratorB.Stretch(seconds: 30, gait: .run, from: 170, to: 170),
        ])
        #expect(trace.activity(at: 5, half: 2) == false)
        #expect(trace.activity(at: 10, half: 2) == nil)
        #expect(trace.activity(at: 25, half: 2) == true)
        #expect(trace.truth(at: 5) == nil)
        if let truth = trace.truth(at: 25) { #expect(abs(truth - 170) < 12) } else { Issue.record("no truth at 25 s") }
        // 100 Hz ± 3 %, less up to four dropouts of at most 2 s.
        #expect((60.0...105.0).contains(Double(trace.samples.count) / 40))
    }
}
