/// Sample encodings a WAV file can hold that `WAVReader` and `WAVWriter` support.
public enum WAVSampleFormat: String, Sendable, CaseIterable, Codable {
    /// 8-bit unsigned integer (128 is silence), as the WAV specification prescribes.
    case int8
    /// 16-bit signed little-endian integer.
    case int16
    /// 24-bit signed little-endian integer, packed in 3 bytes.
    case int24
    /// 32-bit signed little-endian integer.
    case int32
    /// 32-bit IEEE float.
    case float32
    /// 64-bit IEEE float.
    case float64

    /// Bits per sample as written in the `fmt ` chunk.
    public var bitsPerSample: Int {
        switch self {
        case .int8: 8
        case .int16: 16
        case .int24: 24
        case .int32: 32
        case .float32: 32
        case .float64: 64
        }
    }

    /// Bytes one sample of one channel takes.
    public var bytesPerSample: Int { bitsPerSample / 8 }

    /// Whether samples are IEEE floats (format tag 3) rather than PCM integers (tag 1).
    public var isFloat: Bool { self == .float32 || self == .float64 }
}

/// WAV format tags (the `fmt ` chunk's first field), after Microsoft's RIFF specification.
enum WAVFormatTag {
    static let pcm: UInt16 = 0x0001
    static let ieeeFloat: UInt16 = 0x0003
    static let extensible: UInt16 = 0xFFFE
    /// The 14 bytes that follow the two-byte format tag in a KSDATAFORMAT_SUBTYPE GUID.
    static let subformatGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]
}
