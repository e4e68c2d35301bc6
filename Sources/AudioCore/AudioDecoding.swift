import Foundation

/// What a decoder should deliver: a target sample rate and channel count (nil keeps the
/// file's own), and an optional time range.
public struct DecodeOptions: Sendable, Equatable {
    /// Output sample rate in Hz, or nil for the file's rate.
    public var sampleRate: Double?
    /// Output channel count (1 = mono downmix), or nil for the file's channels.
    public var channelCount: Int?
    /// Seconds to skip from the start.
    public var start: Double
    /// Seconds to decode at most, or nil for all.
    public var maxDuration: Double?
    /// Stops the decode when cancelled (an ffmpeg child is terminated at once); the decoder
    /// then throws `CancellationError`. Not part of equality: it says how, not what.
    public var cancellation: CancellationFlag?

    public init(sampleRate: Double? = nil, channelCount: Int? = nil, start: Double = 0, maxDuration: Double? = nil,
                cancellation: CancellationFlag? = nil) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.start = start
        self.maxDuration = maxDuration
        self.cancellation = cancellation
    }

    public static func == (lhs: DecodeOptions, rhs: DecodeOptions) -> Bool {
        lhs.sampleRate == rhs.sampleRate && lhs.channelCount == rhs.channelCount && lhs.start == rhs.start
            && lhs.maxDuration == rhs.maxDuration
    }

    /// Mono at the given rate: what analysis (tempo, peaks) usually wants.
    public static func mono(sampleRate: Double) -> DecodeOptions {
        DecodeOptions(sampleRate: sampleRate, channelCount: 1)
    }
}

/// Turns an audio file into PCM. Implementations: `WAVFileDecoder` (pure Swift),
/// `FFmpegDecoder` (any format, Linux and macOS), and `AudioFileDecoder`, which picks
/// between them. A build for Apple platforms can add one backed by AVFoundation.
///
/// Cores take an `any AudioDecoding` and never name `FFmpegDecoder`: the server and the CLI
/// pass one that runs ffmpeg (`AudioFileDecoder`), an iOS app one of its own.
public protocol AudioDecoding: Sendable {
    /// Decodes the whole requested range into one buffer. Throws `AudioError`.
    func decode(_ url: URL, options: DecodeOptions) throws -> PCMBuffer

    /// Decodes the requested range in buffers of about `chunkFrames` frames, handing each to
    /// `body` as it is ready, so a long file need not sit in memory whole. The default decodes
    /// everything with ``decode(_:options:)`` and hands over one buffer.
    func stream(_ url: URL, options: DecodeOptions, chunkFrames: Int, _ body: (PCMBuffer) throws -> Void) throws
}

extension AudioDecoding {
    /// Decodes with default options (the file's own rate and channels, from the start).
    public func decode(_ url: URL) throws -> PCMBuffer { try decode(url, options: DecodeOptions()) }

    public func stream(_ url: URL, options: DecodeOptions, chunkFrames: Int,
                       _ body: (PCMBuffer) throws -> Void) throws {
        try body(decode(url, options: options))
    }
}

/// Decodes WAV files in pure Swift and converts them to the requested rate and channels.
public struct WAVFileDecoder: AudioDecoding {
    public init() {}

    public func decode(_ url: URL, options: DecodeOptions) throws -> PCMBuffer {
        var buffer = try WAVReader.read(contentsOf: url, downmix: options.channelCount == 1)
        let startFrame = min(buffer.frameCount, Int((options.start * buffer.sampleRate).rounded()))
        var endFrame = buffer.frameCount
        if let limit = options.maxDuration { endFrame = min(endFrame, startFrame + Int((limit * buffer.sampleRate).rounded())) }
        if startFrame > 0 || endFrame < buffer.frameCount {
            let n = buffer.channelCount
            buffer.samples = Array(buffer.samples[(startFrame * n)..<(endFrame * n)])
        }
        return buffer.converted(to: options)
    }
}

/// Decodes WAV in pure Swift when it can, and everything else through ffmpeg.
public struct AudioFileDecoder: AudioDecoding {
    private let ffmpeg: FFmpegDecoder?

    /// - Parameter ffmpeg: the decoder for non-WAV files; nil locates `ffmpeg` lazily on the PATH.
    public init(ffmpeg: FFmpegDecoder? = nil) { self.ffmpeg = ffmpeg }

    public func decode(_ url: URL, options: DecodeOptions) throws -> PCMBuffer {
        if Self.hasWAVSignature(url) {
            do { return try WAVFileDecoder().decode(url, options: options) } catch AudioError.unsupportedFormat {
                // A compressed WAV (ADPCM, MP3 in RIFF, RF64): ffmpeg reads those.
            }
        }
        let decoder = try ffmpeg ?? FFmpegDecoder()
        return try decoder.decode(url, options: options)
    }

    /// WAV in one buffer (it is read whole anyway); everything else streamed by ffmpeg.
    public func stream(_ url: URL, options: DecodeOptions, chunkFrames: Int,
                       _ body: (PCMBuffer) throws -> Void) throws {
        if Self.hasWAVSignature(url), let buffer = try? WAVFileDecoder().decode(url, options: options) {
            try body(buffer)
            return
        }
        #if os(Linux) || os(macOS)
        let decoder = try ffmpeg ?? FFmpegDecoder()
        try decoder.stream(url, options: options, chunkFrames: chunkFrames, body)
        #else
        try body(decode(url, options: options))
        #endif
    }

    /// Whether the file starts with a RIFF/WAVE signature.
    public static func hasWAVSignature(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count == 12 else { return false }
        return head.prefix(4) == Data("RIFF".utf8) && head.suffix(4) == Data("WAVE".utf8)
    }
}

extension PCMBuffer {
    /// This buffer at the rate and channel count the options ask for. Channel counts other
    /// than 1 or the buffer's own take the first channels (or repeat the mono one).
    public func converted(to options: DecodeOptions) -> PCMBuffer {
        var out = self
        if let channels = options.channelCount, channels != channelCount {
            if channels == 1 {
                out = downmixedToMono()
            } else {
                let sources = (0..<channels).map { channel(min($0, channelCount - 1)) }
                out = PCMBuffer(sampleRate: sampleRate, channels: sources)
            }
        }
        if let rate = options.sampleRate, rate != out.sampleRate { out = out.resampled(to: rate) }
        return out
    }
}
