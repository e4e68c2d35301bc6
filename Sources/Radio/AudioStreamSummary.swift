import MediaTags
/// The exact length of a whole MP3 or ADTS AAC file or recorded stream, found by counting its
/// frames (duration = Σ samples per frame / sample rate), never estimated from the bitrate.
///
/// An ID3v2 tag at the start is skipped by its declared size (ID3v2.3/2.4 §3.1, footer
/// included). A Xing, Info or VBRI header frame (the first frame, written by LAME/ffmpeg to
/// describe the file) is not audio and is not counted. A last frame cut short is not counted
/// (its bytes are in ``truncatedBytes``); junk between frames is skipped by resynchronising
/// (``AudioFrameScanner``). Encoder delay and padding (the LAME tag) are not subtracted, as
/// `ffprobe` does not subtract them from the duration either.
///
/// ```swift
/// let summary = AudioStreamSummary(bytes: try Data(contentsOf: url), framing: .mpegAudio)
/// print(summary?.duration ?? 0)   // 5.041632653…
/// ```
public struct AudioStreamSummary: Sendable, Hashable {
    /// Audio frames counted (the Xing/Info frame and a truncated last frame excluded).
    public let frameCount: Int
    /// PCM samples per channel in those frames.
    public let sampleCount: Int
    /// Sample rate of the first audio frame.
    public let sampleRate: Int
    /// Exact duration in seconds (each frame's samples over its own sample rate).
    public let duration: Double
    /// Absolute offset of the first audio frame.
    public let firstFrameOffset: Int
    /// Bytes of the leading ID3v2 tag (0 when none).
    public let id3v2Length: Int
    /// Whether a Xing/Info/VBRI header frame was found and excluded.
    public let hasXingHeader: Bool
    /// Bytes outside frames after the tag (junk, garbage between frames, trailing tags).
    public let skippedBytes: Int
    /// Bytes of a last frame that was cut short.
    public let truncatedBytes: Int

    /// Summarises `bytes`; nil when no frame of `framing` is found.
    public init?(bytes: [UInt8], framing: AudioFraming) {
        guard framing != .none else { return nil }
        let tag = framing == .mpegAudio ? Self.id3v2Length(bytes) : 0
        var scanner = AudioFrameScanner(framing: framing)
        var frames = scanner.append(bytes[min(tag, bytes.count)...])
        frames += scanner.finish()
        var truncated = 0
        if let last = frames.last, tag + Int(last.offset) + last.length > bytes.count {
            truncated = bytes.count - tag - Int(last.offset)
            frames.removeLast()
        }
        guard let first = frames.first else { return nil }
        var xing = false
        if framing == .mpegAudio, Self.isXingFrame(bytes, at: tag + Int(first.offset)) {
            xing = true
            frames.removeFirst()
        }
        frameCount = frames.count
        sampleCount = frames.reduce(0) { $0 + $1.samples }
        sampleRate = frames.first?.sampleRate ?? first.sampleRate
        duration = frames.reduce(0.0) { $0 + Double($1.samples) / Double($1.sampleRate) }
        firstFrameOffset = tag + Int(frames.first?.offset ?? first.offset)
        id3v2Length = tag
        hasXingHeader = xing
        skippedBytes = Int(scanner.skippedBytes)
        truncatedBytes = truncated
    }

    /// The size of an ID3v2.2–2.4 tag at the start of `bytes` (header, body and, in v2.4, the
    /// footer; MediaTags' `ID3v2.Header`), clamped to the bytes at hand; 0 without a tag.
    public static func id3v2Length(_ bytes: [UInt8]) -> Int {
        ID3v2.Header(bytes).map { min(bytes.count, $0.totalSize) } ?? 0
    }

    /// Whether the MPEG frame at `offset` is a Xing/Info header (after the side information)
    /// or a VBRI header (at 32 bytes after the header).
    public static func isXingFrame(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard let header = MPEGAudioHeader(bytes, at: offset, accepting: .layerIII) else { return false }
        func tag(at position: Int, _ names: [String]) -> Bool {
            guard position + 4 <= bytes.count, position + 4 <= offset + header.frameLength else { return false }
            let word = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            return names.contains(word)
        }
        let xing = offset + header.xingOffset
        return tag(at: xing, ["Xing", "Info"]) || tag(at: offset + 36, ["VBRI"])
    }
}
