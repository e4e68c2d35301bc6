/// Decoded audio: interleaved 32-bit float samples with a channel count and a sample rate.
///
/// Samples are nominally in [-1, 1]; nothing clips them. Frame `f`, channel `c` lives at
/// `samples[f * channelCount + c]`.
///
/// ```swift
/// let tone = PCMBuffer(sampleRate: 44_100, channelCount: 1, samples: [0, 0.5, -0.5])
/// tone.duration // 3 / 44_100 seconds
/// ```
public struct PCMBuffer: Sendable, Equatable {
    /// Frames per second, in hertz. Always > 0.
    public var sampleRate: Double
    /// Number of interleaved channels. Always ≥ 1.
    public var channelCount: Int
    /// Interleaved samples; the count is a multiple of `channelCount`.
    public var samples: [Float]

    /// Creates a buffer. `samples.count` must be a multiple of `channelCount`.
    public init(sampleRate: Double, channelCount: Int, samples: [Float]) {
        precondition(sampleRate > 0, "sample rate must be positive")
        precondition(channelCount >= 1, "a buffer has at least one channel")
        precondition(samples.count % channelCount == 0, "samples must hold whole frames")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.samples = samples
    }

    /// Creates a buffer from one array per channel (all of the same length).
    public init(sampleRate: Double, channels: [[Float]]) {
        precondition(!channels.isEmpty, "a buffer has at least one channel")
        let frames = channels[0].count
        precondition(channels.allSatisfy { $0.count == frames }, "channels must have equal length")
        var interleaved = [Float](repeating: 0, count: frames * channels.count)
        for (c, channel) in channels.enumerated() {
            for f in 0..<frames { interleaved[f * channels.count + c] = channel[f] }
        }
        self.init(sampleRate: sampleRate, channelCount: channels.count, samples: interleaved)
    }

    /// Number of frames (samples per channel).
    public var frameCount: Int { samples.count / channelCount }

    /// Length in seconds.
    public var duration: Double { Double(frameCount) / sampleRate }

    /// The samples of one channel, de-interleaved.
    public func channel(_ index: Int) -> [Float] {
        precondition(index >= 0 && index < channelCount, "channel \(index) out of range")
        if channelCount == 1 { return samples }
        return (0..<frameCount).map { samples[$0 * channelCount + index] }
    }

    /// The average of all channels, one sample per frame.
    public func monoSamples() -> [Float] {
        if channelCount == 1 { return samples }
        let n = channelCount
        let scale = 1 / Float(n)
        var out = [Float](repeating: 0, count: frameCount)
        samples.withUnsafeBufferPointer { src in
            for f in 0..<out.count {
                var sum: Float = 0
                let base = f * n
                for c in 0..<n { sum += src[base + c] }
                out[f] = sum * scale
            }
        }
        return out
    }

    /// This buffer downmixed to one channel (the average of all channels).
    public func downmixedToMono() -> PCMBuffer {
        PCMBuffer(sampleRate: sampleRate, channelCount: 1, samples: monoSamples())
    }

    /// This buffer at another sample rate, each channel through `Resampler`.
    public func resampled(to targetRate: Double, quality: Resampler.Quality = .analysis) -> PCMBuffer {
        if targetRate == sampleRate { return self }
        let resampler = Resampler(from: sampleRate, to: targetRate, quality: quality)
        let converted = (0..<channelCount).map { resampler.process(channel($0)) }
        return PCMBuffer(sampleRate: targetRate, channels: converted)
    }
}
