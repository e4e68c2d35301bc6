import AudioCore
import Foundation

/// Which estimator to run.
public enum TempoMethod: String, Sendable, CaseIterable, Codable {
    /// `TempoEstimator`: Quintet's own method.
    case `default`
    /// `ScheirerCombEstimator`: the original app's method, kept as a reference.
    case scheirer

    /// The estimator this method names.
    public var estimator: any TempoEstimating {
        switch self {
        case .default: TempoEstimator()
        case .scheirer: ScheirerCombEstimator()
        }
    }
}

/// Estimates the tempo of audio files: decodes with AudioCore (WAV in Swift, anything
/// else through ffmpeg) in the form the estimator wants, then runs it.
///
/// ```swift
/// let analyzer = TempoAnalyzer(method: .default)
/// let estimate = try analyzer.estimate(fileAt: URL(fileURLWithPath: "song.mp3"))
/// ```
public struct TempoAnalyzer: Sendable {
    public let estimator: any TempoEstimating
    private let decoder: any AudioDecoding

    public init(method: TempoMethod = .default, decoder: any AudioDecoding = AudioFileDecoder()) {
        self.estimator = method.estimator
        self.decoder = decoder
    }

    /// The tempo of the file at `url`. Throws `TempoError.unreadable` naming the cause, or
    /// `CancellationError` once `cancellation` is cancelled (the decoder stops at once).
    public func estimate(fileAt url: URL, cancellation: CancellationFlag? = nil) throws -> TempoEstimate {
        let buffer: PCMBuffer
        var options = estimator.decodeOptions
        options.cancellation = cancellation
        if options.sampleRate == nil, let rate = estimator.analysisRate, !AudioFileDecoder.hasWAVSignature(url) {
            options.sampleRate = rate // ffmpeg converts rates cheaply; WAV is read as it is
        }
        do { buffer = try decoder.decode(url, options: options) } catch let error as AudioError {
            throw TempoError.unreadable(error.description)
        }
        return estimator.estimate(buffer)
    }
}
