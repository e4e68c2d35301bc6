import AudioCore
import Cadence
import Foundation
import Testing

@Suite("Live cadence: readings as the samples arrive")
struct LiveCadenceTests {
    /// Feeds a trace in batches of 0.1–1.2 s, as a phone would send them.
    static func feed(_ samples: [AccelerationSample], into live: inout LiveCadence, seed: UInt64) throws -> [CadenceReading] {
        var rng = SplitMix64(seed: seed)
        var readings = [CadenceReading]()
        var index = 0
        while index < samples.count {
            let until = samples[index].t + 0.1 + 1.1 * rng.nextUnit()
            var end = index
            while end < samples.count && samples[end].t < until { end += 1 }
            readings += try live.add(Array(samples[index..<max(end, index + 1)]))
            index = max(end, index + 1)
        }
        return readings
    }

    @Test("live readings agree with the batch timeline and meet the same figures")
    func agreesWithBatch() throws {
        var score = CadenceScore()
        var compared = 0, close = 0, stateCompared = 0, stateSame = 0
        for (n, trace) in TraceSet.traces().enumerated() {
            var live = LiveCadence()
            let readings = try Self.feed(trace.samples, into: &live, seed: UInt64(n))
            // One reading per second, in order, none before the first whole window.
            #expect(zip(readings, readings.dropFirst()).allSatisfy { $1.t > $0.t })
            #expect(readings.allSatisfy { $0.t >= 2 && $0.t == $0.t.rounded() })
            score.add(trace, CadenceAnalysis(readings: readings))
            let batch = CadenceEstimator().analyze(trace.samples).readings
            let byT = Dictionary(batch.map { ($0.t, $0) }, uniquingKeysWith: { a, _ in a })
            for reading in readings where reading.t >= 8 {
                guard let other = byT[reading.t] else { continue }
                stateCompared += 1
                if (reading.spm == nil) == (other.spm == nil) { stateSame += 1 }
                if let a = reading.spm, let b = other.spm {
                    compared += 1
                    if abs(a - b) <= 1 { close += 1 }
                }
            }
        }
        print("live estimator: \(score); \(close) of \(compared) readings within 1 spm of the batch's, state equal for \(stateSame) of \(stateCompared)")
        #expect(compared > 800)
        #expect(Double(close) / Double(compared) >= 0.95)
        #expect(Double(stateSame) / Double(stateCompared) >= 0.97)
        #expect(score.coverage >= 0.90)
        #expect(score.median <= 1.0)
        #expect(score.stillCorrect >= 0.95)
    }

    @Test("a reading comes half a window after its second, whatever the batch size")
    func latency() throws {
        let trace = GaitGenerator(seed: 7, placement: .armband, rate: 100, gaps: 0).make("run", [.init(seconds: 30, from: 170, to: 170, moving: true)])
        var live = LiveCadence()
        var lastReading = -1.0
        for start in stride(from: 0, to: trace.samples.count, by: 25) { // quarter-second batches
            let batch = Array(trace.samples[start..<min(start + 25, trace.samples.count)])
            for reading in try live.add(batch) { lastReading = reading.t }
            let now = batch.last!.t - trace.samples[0].t
            if now >= 4.5 { #expect(lastReading >= now - 2 - 1) } // second 2 is the first whole window
        }
        #expect(lastReading >= 27)
    }

    @Test("m/s² is told from g, and a unit can be given")
    func units() throws {
        let trace = GaitGenerator(seed: 11, placement: .pocket, rate: 50, gaps: 0).make("walk", [.init(seconds: 25, from: 115, to: 115, moving: true)])
        let metric = trace.samples.map { AccelerationSample(t: $0.t, x: $0.x * 9.80665, y: $0.y * 9.80665, z: $0.z * 9.80665) }
        var inG = LiveCadence(), automatic = LiveCadence(), stated = LiveCadence(units: .metresPerSecondSquared)
        let a = try inG.add(trace.samples), b = try automatic.add(metric), c = try stated.add(metric)
        #expect(inG.units == .g && automatic.units == .metresPerSecondSquared)
        #expect(a.count == b.count && b.count == c.count && a.count > 15)
        for (x, y) in zip(a, b) { #expect(abs((x.spm ?? 0) - (y.spm ?? 0)) < 0.01) }
        let moving = a.compactMap(\.spm)
        #expect(moving.count > 15 && abs(moving.sorted()[moving.count / 2] - 115) < 2)
        var wrong = LiveCadence()
        let flat = (0..<200).map { AccelerationSample(t: Double($0) / 100, x: 0, y: 0, z: 0.02) }
        #expect(throws: LiveCadence.Failure.self) { try wrong.add(flat) }
    }

    @Test("a reset (pause) forgets the samples before it; a jump forward skips the seconds between")
    func resetAndJump() throws {
        let trace = GaitGenerator(seed: 3, placement: .belt, rate: 100, gaps: 0).make("run", [.init(seconds: 40, from: 165, to: 165, moving: true)])
        let t0 = trace.samples[0].t
        var live = LiveCadence()
        let first = try live.add(trace.samples.filter { $0.t < t0 + 15 })
        live.reset()
        let after = try live.add(trace.samples.filter { $0.t >= t0 + 20 })
        #expect(first.last!.t <= 13)
        #expect(after.first!.t >= 22) // the first window wholly after the resumption
        #expect(after.compactMap(\.spm).count >= after.count - 2)
        // A clock that jumps by a billion seconds neither hangs nor fills the gap with readings.
        let jumped = trace.samples.map { AccelerationSample(t: $0.t + 1e9, x: $0.x, y: $0.y, z: $0.z) }
        let later = try live.add(jumped)
        #expect(later.filter { $0.t < 1e9 }.count <= 4) // the old stream's last seconds
        #expect(later.filter { $0.t >= 1e9 }.count >= 30 && later.count <= 40)
        // Older samples than the latest are dropped, not re-read.
        #expect(try live.add(Array(trace.samples.prefix(500))).isEmpty)
    }

    @Test("a flood of samples is refused, not buffered without end")
    func flood() {
        var live = LiveCadence(units: .g)
        let flood = (0..<20_000).map { AccelerationSample(t: Double($0) / 5_000, x: 0, y: 0, z: 1) }
        #expect(throws: LiveCadence.Failure.self) { try live.add(flood) }
    }
}
