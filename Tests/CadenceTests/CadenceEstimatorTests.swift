import Cadence
import Foundation
import Testing

@Suite("Cadence estimation on generated gait")
struct CadenceEstimatorTests {
    @Test("the default estimator meets the issue's figures on the generated traces")
    func accuracy() {
        let score = TraceSet.score(CadenceEstimator())
        print("default estimator: \(score)")
        for w in score.worst.prefix(40) { print("  \(w.0) t=\(w.1) truth \(String(format: "%.1f", w.2)) got \(String(format: "%.1f", w.3))") }
        #expect(score.coverage >= 0.90)
        #expect(score.median <= 1.0)
        #expect(score.p95 <= 3.0)
        #expect(score.stillCorrect >= 0.95)
    }

    @Test("counting the seconds next to a start or a stop too (±1 s all moving or all still)")
    func accuracyNearTransitions() {
        let score = TraceSet.score(CadenceEstimator(), margin: 1)
        print("default estimator, ±1 s: \(score)")
        #expect(score.coverage >= 0.90)
        #expect(score.median <= 1.0)
        #expect(score.p95 <= 3.0) // the issue asks ≤ 3 (2.57)
        #expect(score.stillCorrect >= 0.95)
        let thesis = TraceSet.score(ThesisCadenceEstimator(), margin: 1)
        print("thesis estimator, ±1 s: \(thesis)")
    }

    @Test("the thesis estimator runs on the same traces (figures reported, not required to be good)")
    func thesis() {
        let score = TraceSet.score(ThesisCadenceEstimator())
        print("thesis estimator: \(score)")
        #expect(score.movingSeconds > 0 && score.coveredSeconds > 0)
    }
}
