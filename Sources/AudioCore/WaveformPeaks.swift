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
