import MediaTags

/// One ADTS (Audio Data Transport Stream) AAC frame header, ISO/IEC 13818-7 §6.2 / 14496-3
/// §1.A.2: what `audio/aac` streams carry. Each frame holds 1024 samples per raw data block.
///
/// Reserved sample-rate indexes (13-15), a non-zero layer field and frame lengths shorter than
/// the header itself are rejected.
public struct ADTSHeader: Sendable, Hashable {
    /// Samples per second per channel.
    public let sampleRate: Int
    /// The channel configuration field (0 = defined in the stream, 1-7 = channel layouts).
    public let channelConfiguration: Int
    /// The profile field (0 = Main, 1 = LC, 2 = SSR, 3 = reserved/LTP).
    public let profile: Int
    /// Bytes in the frame, header included.
    public let frameLength: Int
    /// Whether a 16-bit CRC follows the 7-byte header (making it 9 bytes).
    public let hasCRC: Bool
    /// Raw data blocks in the frame (1 to 4).
    public let rawDataBlocks: Int
    /// The fixed header bits (sync, ID, layer, profile, rate, channels), used to check that
    /// consecutive frames belong together.
    let streamKey: UInt32

    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000,
                              12000, 11025, 8000, 7350]

    /// Parses the 7 header bytes at `offset`; nil when fewer remain or they are invalid.
    public init?(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int) {
        guard offset >= 0, offset + 7 <= bytes.count else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        func byte(_ k: Int) -> UInt8 { bytes[bytes.index(start, offsetBy: k)] }
        guard byte(0) == 0xFF, byte(1) & 0xF6 == 0xF0 else { return nil }  // sync, layer 00
        let b = (byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6))
        let rateIndex = Int((b.2 >> 2) & 0x0F)
        guard rateIndex < Self.sampleRates.count else { return nil }
        hasCRC = b.1 & 1 == 0
        let length = Int(b.3 & 0x03) << 11 | Int(b.4) << 3 | Int(b.5 >> 5)
        guard length >= (hasCRC ? 9 : 7) else { return nil }
        sampleRate = Self.sampleRates[rateIndex]
        profile = Int(b.2 >> 6)
        channelConfiguration = Int(b.2 & 1) << 2 | Int(b.3 >> 6)
        frameLength = length
        rawDataBlocks = Int(b.6 & 0x03) + 1
        streamKey = UInt32(b.0) << 24 | UInt32(b.1) << 16 | UInt32(b.2 & 0xFD) << 8 | UInt32(b.3 & 0xC0)
    }

    /// PCM samples per channel in the frame: 1024 per raw data block.
    public var samplesPerFrame: Int { 1024 * rawDataBlocks }
}
