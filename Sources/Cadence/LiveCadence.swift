/// Cadence readings from a stream of samples, as they arrive: one reading per second of the
/// stream, each given as soon as the window centred on that second is in.
///
/// A reading for second `s` (seconds since the stream's first sample) needs the samples up
/// to `s + window/2`; it is computed by the batch estimator over the samples from
/// `s − window/2 − leadIn` on, so the band-pass has settled before the window starts, and
/// it is the same reading the batch estimator gives for that second of the whole log (up to
/// the grid's phase, under one sample period). Latency is therefore half a window (2 s).
///
/// Units: samples in g or m/s² (`.automatic` decides from the median magnitude of the first
/// second, as `SensorLog` does: gravity is in every total-acceleration stream). Samples
/// must come in time order; older ones are dropped. A jump forward of more than a window
/// skips the seconds in between (no readings for them). `reset()` clears the buffer, as
/// pausing a run does; the clock (second 0) stays.
///
/// ```swift
/// var live = LiveCadence()
/// for batch in batches { for r in try live.add(batch) { print(r.t, r.spm ?? "still") } }
/// ```
public struct LiveCadence: Sendable {
    public enum Units: String, Sendable, CaseIterable {
        case automatic = "auto", g, metresPerSecondSquared = "m/s2"
    }

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    public var estimator: CadenceEstimator
    /// The unit asked for; `.automatic` until the first second has decided it.
    public private(set) var units: Units
    /// Seconds of signal before a window for the band-pass filters to settle.
    public var leadIn = 6.0
    /// Highest sustained sample rate accepted (Hz); a stream above it is refused.
    public static let maxRate = 250.0

    /// Time of the stream's first sample (the samples' own clock); nil before any.
    public private(set) var origin: Double?
    /// Steps counted so far (the integral of the readings' cadence).
    public private(set) var steps = 0.0
    private var buffer: [AccelerationSample] = []
    /// Samples held while the unit is being decided (their own unit).
    private var undecided: [AccelerationSample] = []
    private var scale = 1.0
    private var nextSecond = 0
    private var lastTime = -Double.infinity

    public init(estimator: CadenceEstimator = CadenceEstimator(), units: Units = .automatic) {
        self.estimator = estimator
        self.units = units
        if units == .metresPerSecondSquared { scale = 1 / SensorLog.gravity }
    }

    /// Adds samples (time order; older than the latest are dropped, as are non-finite ones)
    /// and returns the readings that became complete, in time order.
    public mutating func add(_ samples: [AccelerationSample]) throws(Failure) -> [CadenceReading] {
        var fresh = [AccelerationSample]()
        fresh.reserveCapacity(samples.count)
        for s in samples where s.t.isFinite && s.x.isFinite && s.y.isFinite && s.z.isFinite && s.t > lastTime {
            fresh.append(s); lastTime = s.t
        }
        guard let first = fresh.first else { return [] }
        if origin == nil { origin = first.t }
        if units == .automatic {
            undecided += fresh
            guard let decided = try decideUnits() else { return [] }
            units = decided
            scale = decided == .g ? 1 : 1 / SensorLog.gravity
            fresh = undecided
            undecided = []
        }
        if scale != 1 {
            for i in fresh.indices { fresh[i].x *= scale; fresh[i].y *= scale; fresh[i].z *= scale }
        }
        buffer += fresh
        let readings = readyReadings()
        // What is left is the next window and its lead-in: more than `maxRate` allows is a flood.
        try checkRate(buffer)
        return readings
    }

    /// Forgets the buffered samples (a pause); the next reading is for the first second whose
    /// window lies after the samples that come next.
    public mutating func reset() {
        buffer.removeAll()
        undecided.removeAll()
    }

    // MARK: internals

    private func decideUnits() throws(Failure) -> Units? {
        guard let t0 = undecided.first?.t, let t1 = undecided.last?.t, t1 - t0 >= 1 || undecided.count >= 250 else { return nil }
        let magnitudes = undecided.map(\.magnitude).sorted()
        let median = magnitudes[magnitudes.count / 2]
        switch SensorLog.unitScale(medianMagnitude: median) {
        case 1?: return .g
        case _?: return .metresPerSecondSquared
        case nil:
            let text = (median * 1000).rounded() / 1000
            throw Failure(description: "cannot tell the acceleration unit: the median magnitude is \(text), neither about 1 (g) nor about 9.81 (m/s²); send total acceleration (with gravity) or say units")
        }
    }

    private func checkRate(_ samples: [AccelerationSample]) throws(Failure) {
        let span = leadIn + estimator.window + 4
        guard samples.count > Int(span * Self.maxRate) else { return }
        throw Failure(description: "too many samples: more than \(Int(Self.maxRate)) per second")
    }

    private mutating func readyReadings() -> [CadenceReading] {
        guard let origin, let latest = buffer.last?.t, let earliest = buffer.first?.t else { return [] }
        let half = estimator.window / 2
        // The first second whose whole window is in the buffer (the stream's start, a reset
        // or a jump forward skip the seconds before it).
        let firstPossible = Int(((earliest - origin) + half - 1 / Self.maxRate).rounded(.up))
        if nextSecond < firstPossible { nextSecond = firstPossible }
        var readings = [CadenceReading]()
        while origin + Double(nextSecond) + half <= latest {
            let centre = origin + Double(nextSecond)
            // A window without samples (a gap in the stream): go on from the next sample's window.
            let inWindow = buffer.partitionIndex { $0.t >= centre - half }
            if inWindow < buffer.count, buffer[inWindow].t > centre + half {
                nextSecond = max(nextSecond + 1, Int((buffer[inWindow].t - origin + half - 1 / Self.maxRate).rounded(.up)))
                continue
            }
            let from = centre - half - leadIn, to = centre + half + 0.5
            let lower = buffer.partitionIndex { $0.t >= from }
            let upper = buffer.partitionIndex { $0.t > to }
            let slice = Array(buffer[lower..<upper])
            var reading = CadenceReading(t: Double(nextSecond), spm: nil, confidence: 0, regularity: 0, state: .still, steps: 0)
            if let start = slice.first?.t {
                let wanted = centre - start
                let analysis = estimator.analyze(slice)
                if let best = analysis.readings.min(by: { abs($0.t - wanted) < abs($1.t - wanted) }), abs(best.t - wanted) <= 0.5 {
                    reading.spm = best.spm
                    reading.confidence = best.confidence
                    reading.regularity = best.regularity
                    reading.state = best.state
                }
            }
            if let spm = reading.spm { steps += spm / 60 }
            reading.steps = Int(steps.rounded())
            readings.append(reading)
            nextSecond += 1
        }
        // Keep what the next window and its lead-in need.
        let keepFrom = origin + Double(nextSecond) - half - leadIn - 1
        let drop = buffer.partitionIndex { $0.t >= keepFrom }
        if drop > 0 { buffer.removeFirst(drop) }
        return readings
    }
}
