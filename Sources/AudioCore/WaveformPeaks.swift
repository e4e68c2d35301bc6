import Foundation

/// Minimum and maximum sample per bucket, for drawing a waveform at a given width.
///
/// Bucket `i` of `n` covers samples `[i·count/n, (i+1)·count/n)`; an empty bucket (more
/// buckets than samples) repeats the nearest sample so the drawing has no holes.
///
/// ```swift
/// let peaks = WaveformPeaks(samples: buffer.monoSamples(), bucketCount: 800)
/// // draw a vertical line from peaks.minima[i] to peaks.maxima[i] at x = i
/// ```
public struct WaveformPeaks: Sendable, Equatable, Codable {
    public var minima: [Float]
    public var maxima: [Float]

    /// Computes `bucketCount` (≥ 1) buckets over `samples`; no samples give buckets of 0.
    public init(samples: [Float], bucketCount: Int) {
        precondition(bucketCount >= 1, "at least one bucket")
        minima = [Float](repeating: 0, count: bucketCount)
        maxima = [Float](repeating: 0, count: bucketCount)
        let count = samples.count
        guard count > 0 else { return }
        for b in 0..<bucketCount {
            let start = b * count / bucketCount
            let end = max((b + 1) * count / bucketCount, start + 1)
            let first = min(start, count - 1)
            var lo = samples[first], hi = samples[first]
            for i in first..<min(end, count) {
                let v = samples[i]
                if v < lo { lo = v }
                if v > hi { hi = v }
            }
            minima[b] = lo; maxima[b] = hi
        }
    }

    /// Peaks of a buffer's mono downmix.
    public init(buffer: PCMBuffer, bucketCount: Int) {
        self.init(samples: buffer.monoSamples(), bucketCount: bucketCount)
    }
}

extension WaveformPeaks {
    /// Peaks of an audio file decoded at 8 kHz mono by `decoder`, in pieces: each run of 32
    /// samples is reduced to its minimum and maximum first, so memory stays small for hours of
    /// audio (a radio episode, a song on a studio deck). Throws what the decoder throws.
    public init(file url: URL, decoder: any AudioDecoding, bucketCount: Int,
                cancellation: CancellationFlag? = nil) throws {
        self = try Self.reading(file: url, decoder: decoder, bucketCount: bucketCount, cancellation: cancellation).peaks
    }

    /// ``init(file:decoder:bucketCount:cancellation:)``, with the seconds of audio decoded.
    public static func reading(file url: URL, decoder: any AudioDecoding, bucketCount: Int,
                               cancellation: CancellationFlag? = nil) throws -> (peaks: WaveformPeaks, seconds: Double) {
        var lows: [Float] = [], highs: [Float] = []
        var frames = 0
        var options = DecodeOptions.mono(sampleRate: 8000)
        options.cancellation = cancellation
        try decoder.stream(url, options: options, chunkFrames: 65_536) { buffer in
            let samples = buffer.samples
            frames += samples.count
            var i = 0
            while i < samples.count {
                let run = samples[i..<min(i + 32, samples.count)]
                lows.append(run.min()!)
                highs.append(run.max()!)
                i += 32
            }
        }
        var peaks = WaveformPeaks(samples: lows, bucketCount: bucketCount)
        peaks.maxima = WaveformPeaks(samples: highs, bucketCount: bucketCount).maxima
        return (peaks, Double(frames) / 8000)
    }
}
