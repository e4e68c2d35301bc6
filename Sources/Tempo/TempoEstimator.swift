import AudioCore
import Foundation

/// Quintet's default tempo estimator. See docs/tempo.md for the method and its figures.
///
/// 1. Onset strength in five bands (`OnsetStrength`: log-compressed SuperFlux at ≈ 86 frames/s).
/// 2. Each band's novelty is centred on its local mean, half-wave rectified and scaled
///    to unit variance, then the bands are summed: drums and soft instruments both count.
/// 3. Periodicity: the unbiased autocorrelation of the whole song's novelty, and for each
///    tempo from 30 to 300 BPM a salience summing the autocorrelation at 1–4 beat periods.
/// 4. The octave decision: the salient tempos and their ×2, ×3, ½, ⅓ relatives are scored
///    by `LevelChooser` from how well a pulse train at each fits the novelty (precision,
///    recall, the metre around the pulses), their periodicity and a log-normal tempo prior;
///    see `chooseBeat`.
/// 5. Precision: the beat period is refined from the autocorrelation peaks at its
///    multiples (a peak at 8 beats pins the period 8 times more finely).
///
/// ```swift
/// let estimate = TempoEstimator().estimate(buffer)   // estimate.bpm ≈ 128.0
/// ```
public struct TempoEstimator: TempoEstimating {
    public let name = "default"
    /// Mono at the file's own rate (decimation happens inside, cheaply), and at most the
    /// first 10 minutes: a tempo needs no more, and an hour-long mix stays within memory.
    public let decodeOptions = DecodeOptions(channelCount: 1, maxDuration: TempoEstimator.maxSeconds)
    /// ffmpeg may deliver about the rate the analysis decimates to.
    public var analysisRate: Double? { OnsetStrength.targetRate }
    /// The longest stretch of audio analysed, in seconds.
    public static let maxSeconds = 600.0

    /// Tempi considered, in BPM.
    public static let range: ClosedRange<Double> = 40...240
    /// Below this RMS (about −80 dBFS) audio counts as silence.
    static let silence = 1e-4

    public init() {}

    /// `QUINTET_TEMPO_DEBUG=1` prints each candidate's features on standard error (for tuning).
    static let debug = ProcessInfo.processInfo.environment["QUINTET_TEMPO_DEBUG"] != nil

    public func estimate(_ buffer: PCMBuffer) -> TempoEstimate {
        let mono = buffer.channelCount == 1 ? buffer.samples : buffer.monoSamples()
        guard Double(mono.count) / buffer.sampleRate >= 2, rootMeanSquare(mono) > Self.silence else { return .noTempo }
        let onsets = OnsetStrength(samples: mono, sampleRate: buffer.sampleRate)
        let normalized = onsets.bands.map { Self.normalize($0, frameRate: onsets.frameRate) }
        var novelty = [Float](repeating: 0, count: onsets.frameCount)
        for band in normalized { for i in 0..<band.count { novelty[i] += band[i] } }
        guard novelty.contains(where: { $0 > 0 }) else { return .noTempo }
        let maxLag = Int(onsets.frameRate * 60 / 30 * 4) + 2 // four beats at 30 BPM
        let periodicity = Periodicity(novelty: novelty, frameRate: onsets.frameRate, maxLag: maxLag)

        // Salience on a log-spaced grid (0.5 % steps) from 30 to 300 BPM.
        var grid: [(bpm: Double, salience: Double)] = []
        var bpm = 30.0
        while bpm <= 300 {
            grid.append((bpm, periodicity.salience(bpm: bpm)))
            bpm *= 1.005
        }
        let peaks = Self.localMaxima(grid).filter { $0.salience > 0 }.sorted { $0.salience > $1.salience }
        guard !peaks.isEmpty else { return .noTempo }
        let scored = Self.chooseBeat(peaks: Array(peaks.prefix(8)), novelty: novelty, lowBand: normalized[0],
                                    highBand: normalized[normalized.count - 1], periodicity: periodicity)
        guard let beat = scored.first?.bpm else { return .noTempo }
        let refined = Self.refine(bpm: beat, periodicity: periodicity)
        var candidates = scored.prefix(5).map { TempoEstimate.Candidate(bpm: $0.bpm, score: $0.score) }
        candidates[0].bpm = refined
        let confidence = Self.clarity(periodicity: periodicity, bpm: refined) * scored[0].score.squareRoot()
        return TempoEstimate(bpm: refined, confidence: confidence, candidates: candidates)
    }

    /// The octave decision. Candidates are the strongest periodicity peaks and their
    /// ×2, ×3, ½ and ⅓ relatives in `range`. Each is scored by `LevelChooser`
    /// (a logistic choice model over pulse-train fits, periodicity, metre, onset density
    /// and the tempo prior; docs/tempo.md). Returns the candidates best first, with scores
    /// as weights that sum to 1.
    static func chooseBeat(peaks: [(bpm: Double, salience: Double)], novelty: [Float], lowBand: [Float],
                           highBand: [Float], periodicity: Periodicity) -> [(bpm: Double, score: Double)] {
        var tempi: [Double] = []
        for peak in peaks {
            let precise = refine(bpm: peak.bpm, periodicity: periodicity)
            for ratio in [1.0, 2, 3, 0.5, 1.0 / 3] {
                let bpm = precise * ratio
                guard range.contains(bpm), !tempi.contains(where: { abs($0 - bpm) / bpm < 0.02 }) else { continue }
                tempi.append(bpm)
            }
        }
        let pulses = PulseTrain(novelty: novelty)
        let onsetRate = pulses.onsetRate(frameRate: periodicity.frameRate)
        let lowOnsetRate = PulseTrain(novelty: lowBand).onsetRate(frameRate: periodicity.frameRate)
        func average(_ x: [Float]) -> Double { x.isEmpty ? 0 : Double(x.reduce(0, +)) / Double(x.count) }
        let lowMean = average(lowBand), highMean = average(highBand)
        let scored = tempi.map { bpm -> (bpm: Double, score: Double) in
            let fit = pulses.fit(period: periodicity.lag(bpm: bpm))
            let lowOn = PulseTrain.mean(of: lowBand, on: fit)
            let pulseCount = Double(lowBand.count) / max(fit.period, 1)
            let evidence = LevelChooser.Evidence(
                bpm: bpm, fit: fit, salience: periodicity.salience(bpm: bpm),
                salienceDouble: periodicity.salience(bpm: bpm * 2), salienceHalf: periodicity.salience(bpm: bpm / 2),
                lowRatio: lowMean > 0 ? lowOn / lowMean : 1,
                lowRecall: lowMean > 0 ? min(1, lowOn * pulseCount / (lowMean * Double(lowBand.count))) : 1,
                highRatio: highMean > 0 ? PulseTrain.mean(of: highBand, on: fit) / highMean : 1,
                onsetRate: onsetRate, lowOnsetRate: lowOnsetRate)
            if debug {
                let values = LevelChooser.features(evidence).map { String(format: "%.5f", $0) }.joined(separator: ",")
                FileHandle.standardError.write(Data("{\"bpm\":\(String(format: "%.3f", bpm)),\"features\":[\(values)]}\n".utf8))
            }
            return (bpm, LevelChooser.score(evidence))
        }.sorted { $0.score > $1.score }
        // Scores as weights that sum to 1 (a softmax of the log scores).
        guard let top = scored.first?.score else { return [] }
        let weights = scored.map { exp($0.score - top) }
        let total = weights.reduce(0, +)
        return zip(scored, weights).map { ($0.bpm, $1 / total) }
    }

    /// Centres a band on its running mean (±0.5 s), rectifies it and scales it to unit RMS
    /// (all zeros if the band is silent).
    static func normalize(_ band: [Float], frameRate: Double) -> [Float] {
        let count = band.count
        let half = max(1, Int(frameRate * 0.5))
        var prefix = [Double](repeating: 0, count: count + 1)
        for i in 0..<count { prefix[i + 1] = prefix[i] + Double(band[i]) }
        var centred = [Float](repeating: 0, count: count)
        var energy = 0.0
        for i in 0..<count {
            let lo = max(0, i - half), hi = min(count, i + half + 1)
            let mean = (prefix[hi] - prefix[lo]) / Double(hi - lo)
            let v = max(0, Double(band[i]) - mean)
            centred[i] = Float(v)
            energy += v * v
        }
        let rms = (energy / Double(max(1, count))).squareRoot()
        guard rms > 1e-9 else { return [Float](repeating: 0, count: count) }
        let scale = Float(1 / rms)
        for i in 0..<count { centred[i] *= scale }
        return centred
    }

    static func localMaxima(_ grid: [(bpm: Double, salience: Double)]) -> [(bpm: Double, salience: Double)] {
        guard grid.count >= 3 else { return [] }
        return (1..<(grid.count - 1)).compactMap { i in
            grid[i].salience > grid[i - 1].salience && grid[i].salience >= grid[i + 1].salience ? grid[i] : nil
        }
    }

    /// The beat period from autocorrelation peaks at 1, 2, 4 and 8 beats (each divided by
    /// its multiple), weighted by their multiple: the longest lags pin the period best.
    static func refine(bpm: Double, periodicity: Periodicity) -> Double {
        var tau = periodicity.lag(bpm: bpm)
        for multiple in [1.0, 2, 4, 8] {
            let target = tau * multiple
            guard target < Double(periodicity.acf.count - 2) else { break }
            if let lag = periodicity.refinedPeakLag(near: target, radius: max(1.5, 0.03 * target)) {
                tau = lag / multiple
            }
        }
        return 60 * periodicity.frameRate / tau
    }

    /// How clearly the beat stands out: its autocorrelation peak against the curve's mean,
    /// in [0, 1]. The confidence is this times the square root of the winner's weight among
    /// the candidates (a clear pulse whose octave is in doubt is only half trusted).
    static func clarity(periodicity: Periodicity, bpm: Double) -> Double {
        let peak = Double(periodicity.peak(near: periodicity.lag(bpm: bpm)))
        let body = periodicity.acf.dropFirst(Int(periodicity.frameRate * 0.1))
        let mean = body.isEmpty ? 0 : Double(body.reduce(0, +)) / Double(body.count)
        return max(0, min(1, (peak - mean) / max(1e-9, 1 - mean)))
    }
}
