/// Why audio could not be read, decoded or written. Every case carries a message a user can act on.
public enum AudioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not a RIFF/WAVE file at all.
    case notWAV(String)
    /// The file claims to be WAV but a chunk or header is malformed.
    case corruptWAV(String)
    /// The file ended before the data its headers promise.
    case truncated(String)
    /// The WAV encoding is valid but not one this reader handles (e.g. ADPCM).
    case unsupportedFormat(String)
    /// The `ffmpeg` (or `ffprobe`) binary could not be found.
    case decoderMissing(String)
    /// The file exists but holds no audio stream a decoder understands.
    case notAudio(String)
    /// The decoder ran and failed; the message holds its own explanation.
    case decodingFailed(String)
    /// The file could not be opened or written.
    case io(String)

    public var description: String {
        switch self {
        case .notWAV(let m): "not a WAV file: \(m)"
        case .corruptWAV(let m): "corrupt WAV file: \(m)"
        case .truncated(let m): "truncated audio file: \(m)"
        case .unsupportedFormat(let m): "unsupported audio format: \(m)"
        case .decoderMissing(let m): "audio decoder missing: \(m)"
        case .notAudio(let m): "not an audio file: \(m)"
        case .decodingFailed(let m): "decoding failed: \(m)"
        case .io(let m): "I/O error: \(m)"
        }
    }
}
