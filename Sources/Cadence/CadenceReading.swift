// Cadence: running cadence from accelerometer samples and the song that fits it.
// See docs/runner.md for the signal chain, the log formats and the figures.

/// One accelerometer reading: time in seconds (any origin) and specific force in g
/// (1 g = 9.80665 m/s²) along the phone's three axes.
public struct AccelerationSample: Sendable, Equatable {
    public var t: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(t: Double, x: Double, y: Double, z: Double) {
        self.t = t; self.x = x; self.y = y; self.z = z
    }

    /// |(x, y, z)| in g: about 1 at rest, whatever the orientation.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

/// What the wearer is doing during a window.
public enum MotionState: String, Sendable, Codable, CaseIterable {
    case still, walking, running
}

/// The estimate for one window of samples (one per second of the log).
public struct CadenceReading: Sendable, Equatable {
    /// Centre of the window, in seconds since the log's first sample.
    public var t: Double
    /// Steps per minute, nil when no periodic gait is found (still, or a gap).
    public var spm: Double?
    /// 0...1: how sure the estimator is of `spm` (0 when it is nil).
    public var confidence: Double
    /// 0...1: the normalised autocorrelation at the stride lag (how alike successive strides are).
    public var regularity: Double
    public var state: MotionState
    /// Steps counted from the log's start up to `t` (cadence integrated over the moving seconds).
    public var steps: Int

    public init(t: Double, spm: Double?, confidence: Double, regularity: Double, state: MotionState, steps: Int) {
        self.t = t; self.spm = spm; self.confidence = confidence; self.regularity = regularity
        self.state = state; self.steps = steps
    }
}

/// A cadence timeline and its summary.
public struct CadenceAnalysis: Sendable, Equatable {
    /// One reading per second, in time order.
    public var readings: [CadenceReading]

    public init(readings: [CadenceReading]) { self.readings = readings }

    /// The median cadence over the readings that have one (spm), nil if none has.
    public var medianCadence: Double? {
        let values = readings.compactMap(\.spm).sorted()
        guard !values.isEmpty else { return nil }
        let m = values.count / 2
        return values.count % 2 == 1 ? values[m] : (values[m - 1] + values[m]) / 2
    }

    /// Steps counted over the whole log.
    public var totalSteps: Int { readings.last?.steps ?? 0 }
}

/// A cadence estimator: samples in (any order, any rate), a timeline out.
public protocol CadenceEstimating: Sendable {
    func analyze(_ samples: [AccelerationSample]) -> CadenceAnalysis
}

/// The estimators `quintet cadence --method` offers.
public enum CadenceMethod: String, Sendable, CaseIterable {
    case `default`, thesis

    public var estimator: any CadenceEstimating {
        switch self {
        case .default: CadenceEstimator()
        case .thesis: ThesisCadenceEstimator()
        }
    }
}

extension CadenceAnalysis {
    /// The document `quintet cadence --json` prints and `POST /api/runner/cadence` answers:
    /// `{"cadence": <median spm or null>, "timeline": [{"t", "spm", "confidence", "state"}]}`,
    /// numbers rounded (t to 0.001 s, spm to 0.01, confidence to 0.001).
    public var timelineJSON: String {
        func number(_ value: Double?, _ digits: Double) -> String {
            guard let value else { return "null" }
            return String(describing: (value * digits).rounded() / digits)
        }
        let entries = readings.map { r in
            "{\"t\": \(number(r.t, 1000)), \"spm\": \(number(r.spm, 100)), \"confidence\": \(number(r.confidence, 1000)), \"state\": \"\(r.state.rawValue)\"}"
        }
        return "{\"cadence\": \(number(medianCadence, 100)), \"timeline\": [" + entries.joined(separator: ", ") + "]}"
    }
}
