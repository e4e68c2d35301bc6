import AudioCore

/// A song's tempo as an estimator hears it.
///
/// `bpm` is nil when there is no tempo to hear (silence, or audio too short to show a
/// pulse); then `confidence` is 0 and `candidates` is empty.
public struct TempoEstimate: Sendable, Equatable, Codable {
    /// One tempo hypothesis and its share of the evidence.
    public struct Candidate: Sendable, Equatable, Codable {
        /// Beats per minute.
        public var bpm: Double
        /// Relative strength in [0, 1]; the candidates of one estimate sum to at most 1.
        public var score: Double

        public init(bpm: Double, score: Double) {
            self.bpm = bpm
            self.score = score
        }
    }

    /// Beats per minute of the felt beat, or nil for "no tempo".
    public var bpm: Double?
    /// How much to trust `bpm`, in [0, 1].
    public var confidence: Double
    /// The best hypotheses, strongest first (the first is `bpm`).
    public var candidates: [Candidate]

    public init(bpm: Double?, confidence: Double, candidates: [Candidate]) {
        self.bpm = bpm
        self.confidence = confidence
        self.candidates = candidates
    }

    /// The answer for audio that has no audible pulse.
    public static let noTempo = TempoEstimate(bpm: nil, confidence: 0, candidates: [])
}

/// Something that estimates the tempo of decoded audio.
public protocol TempoEstimating: Sendable {
    /// A short name for reports ("default", "scheirer").
    var name: String { get }
    /// The decode options this estimator wants (mono; a sample rate if it needs one).
    var decodeOptions: DecodeOptions { get }
    /// A rate the estimator is happy to receive instead of the file's own, for decoders
    /// that convert rates cheaply (ffmpeg): fewer samples through the pipe. Nil: no preference.
    var analysisRate: Double? { get }
    /// The tempo of `buffer` (any rate and channel count; converted as needed).
    func estimate(_ buffer: PCMBuffer) -> TempoEstimate
}

extension TempoEstimating {
    public var analysisRate: Double? { nil }
}

/// Why a file's tempo could not be estimated.
public enum TempoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read or decoded; the message says why.
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let message): message
        }
    }
}

/// Root mean square of samples (0 for none), in double precision.
func rootMeanSquare(_ x: [Float]) -> Double {
    var sum = 0.0
    for v in x { sum += Double(v) * Double(v) }
    return (sum / Double(max(1, x.count))).squareRoot()
}
