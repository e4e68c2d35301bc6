import Foundation

#if os(Linux) || os(macOS)
/// Decodes any audio format ffmpeg understands by running the `ffmpeg` binary as a
/// subprocess and reading raw 32-bit float PCM (`-f f32le`) from its standard output.
///
/// The binary is `$QUINTET_FFMPEG` if set, else `ffmpeg` on the PATH; `ffprobe` is looked
/// up beside it (it tells the file's own rate and channels when the options leave them
/// open). Exists on Linux and macOS only: iOS has no subprocesses.
///
/// ```swift
/// let decoder = try FFmpegDecoder()
/// let mono = try decoder.decode(url, options: .mono(sampleRate: 22_050))
/// ```
public struct FFmpegDecoder: AudioDecoding {
    /// Path of the ffmpeg executable.
    public let ffmpegPath: String
    /// Path of the ffprobe executable.
    public let ffprobePath: String

    /// Locates ffmpeg and ffprobe; throws `AudioError.decoderMissing` with install advice.
    public init(ffmpegPath: String? = nil) throws {
        let env = ProcessInfo.processInfo.environment
        guard let ffmpeg = ffmpegPath ?? env["QUINTET_FFMPEG"].flatMap({ $0.isEmpty ? nil : $0 }) ?? Self.which("ffmpeg") else {
            throw AudioError.decoderMissing("ffmpeg was not found on the PATH; install it (apt-get install ffmpeg, brew install ffmpeg) or set QUINTET_FFMPEG")
        }
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw AudioError.decoderMissing("\(ffmpeg) is not an executable file")
        }
        let sibling = URL(fileURLWithPath: ffmpeg).deletingLastPathComponent().appendingPathComponent("ffprobe").path
        guard let probe = FileManager.default.isExecutableFile(atPath: sibling) ? sibling : Self.which("ffprobe") else {
            throw AudioError.decoderMissing("ffprobe was not found beside \(ffmpeg) nor on the PATH; it ships with ffmpeg")
        }
        self.ffmpegPath = ffmpeg
        self.ffprobePath = probe
    }

    /// Runs ffmpeg with `arguments` (after `-nostdin -loglevel error`), for callers that
    /// encode or convert; throws `AudioError.decodingFailed` with ffmpeg's last error line.
    /// Once `cancellation` is cancelled ffmpeg is terminated and this throws `CancellationError`.
    public func run(_ arguments: [String], cancellation: CancellationFlag? = nil) throws {
        let result = try Subprocess.run(ffmpegPath, ["-nostdin", "-loglevel", "error"] + arguments, cancellation: cancellation)
        guard result.status == 0 else { throw AudioError.decodingFailed("ffmpeg failed: \(result.errorSummary)") }
    }

    /// The first audio stream's sample rate and channel count, from ffprobe.
    public func probe(_ url: URL) throws -> (sampleRate: Double, channelCount: Int) {
        try checkReadable(url)
        let result = try Subprocess.run(ffprobePath, [
            "-v", "error", "-select_streams", "a:0",
            "-show_entries", "stream=sample_rate,channels", "-of", "csv=p=0", url.path,
        ])
        let text = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0 else { throw AudioError.notAudio("\(url.lastPathComponent): \(result.errorSummary)") }
        let fields = text.split(separator: "\n").first.map { $0.split(separator: ",") } ?? []
        guard fields.count >= 2, let rate = Double(fields[0]), let channels = Int(fields[1]), rate > 0, channels > 0 else {
            throw AudioError.notAudio("\(url.lastPathComponent) has no audio stream")
        }
        return (rate, channels)
    }

    public func decode(_ url: URL, options: DecodeOptions) throws -> PCMBuffer {
        var chunks = [Float]()
        var format: (Double, Int) = (0, 0)
        try stream(url, options: options) { buffer in
            format = (buffer.sampleRate, buffer.channelCount)
            chunks.append(contentsOf: buffer.samples)
        }
        if format.1 == 0 { // nothing decoded: an empty buffer in the requested format
            let native = try probe(url)
            format = (options.sampleRate ?? native.sampleRate, options.channelCount ?? native.channelCount)
        }
        return PCMBuffer(sampleRate: format.0, channelCount: format.1, samples: chunks)
    }

    /// Decodes incrementally: `body` receives buffers of about `chunkFrames` frames as
    /// ffmpeg produces them, so long files need not sit in memory whole.
    ///
    /// ffmpeg converts the sample rate; channels are converted here (a mono downmix is the
    /// average of the channels, as `PCMBuffer.downmixedToMono` does; ffmpeg's own `-ac 1`
    /// would mix at −3 dB per channel and could clip).
    public func stream(_ url: URL, options: DecodeOptions, chunkFrames: Int = 65_536,
                       _ body: (PCMBuffer) throws -> Void) throws {
        let native = try probe(url)
        let rate = options.sampleRate ?? native.sampleRate
        precondition(rate > 0, "decode options need a positive sample rate")
        let channels = native.channelCount
        let channelOptions = DecodeOptions(channelCount: options.channelCount)
        try options.cancellation?.check()
        var args = ["-nostdin", "-hide_banner", "-loglevel", "error"]
        if options.start > 0 { args += ["-ss", String(options.start)] }
        args += ["-i", url.path]
        if let limit = options.maxDuration { args += ["-t", String(limit)] }
        args += ["-map", "0:a:0", "-vn", "-f", "f32le", "-acodec", "pcm_f32le",
                 "-ac", String(channels), "-ar", String(Int(rate.rounded())), "pipe:1"]
        let frameBytes = 4 * channels
        var pending = Data()
        func deliver(_ byteCount: Int) throws {
            let buffer = Self.buffer(pending.prefix(byteCount), rate: rate, channels: channels)
            try body(buffer.converted(to: channelOptions))
            pending.removeFirst(byteCount)
        }
        let status = try Subprocess.stream(ffmpegPath, args, cancellation: options.cancellation) { data in
            pending.append(data)
            let usable = pending.count / frameBytes * frameBytes
            if usable >= chunkFrames * frameBytes { try deliver(usable) }
        }
        if status.status != 0 {
            throw AudioError.decodingFailed("ffmpeg could not decode \(url.lastPathComponent): \(status.errorSummary)")
        }
        let usable = pending.count / frameBytes * frameBytes
        if usable > 0 { try deliver(usable) }
    }

    private func checkReadable(_ url: URL) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw AudioError.io("cannot read \(url.path): no such file or no permission")
        }
    }

    private static func buffer(_ bytes: Data, rate: Double, channels: Int) -> PCMBuffer {
        var samples = [Float](repeating: 0, count: bytes.count / 4)
        samples.withUnsafeMutableBytes { dst in _ = bytes.copyBytes(to: dst) }
        #if _endian(big)
        samples = samples.map { Float(bitPattern: UInt32(littleEndian: $0.bitPattern)) }
        #endif
        return PCMBuffer(sampleRate: rate, channelCount: channels, samples: samples)
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
#else
/// On platforms without subprocesses there is no ffmpeg; `init` always throws.
public struct FFmpegDecoder: AudioDecoding {
    public init(ffmpegPath: String? = nil) throws {
        throw AudioError.decoderMissing("ffmpeg cannot run on this platform; use a platform decoder")
    }
    public func decode(_ url: URL, options: DecodeOptions) throws -> PCMBuffer {
        throw AudioError.decoderMissing("ffmpeg cannot run on this platform")
    }
}
#endif
