/// One MPEG-1, MPEG-2 or MPEG-2.5 Layer III frame header (ISO/IEC 11172-3 §2.4.2.3,
/// ISO/IEC 13818-3 and the unofficial MPEG 2.5 extension).
///
/// Only Layer III is accepted (what `audio/mpeg` streams carry). Free-format (bitrate index 0),
/// bad bitrate index 15, reserved versions, layers, sample rates and emphasis are rejected:
/// a free-format frame's length cannot be known from its header.
///
/// ```swift
/// if let header = MPEGAudioHeader(bytes[0], bytes[1], bytes[2], bytes[3]) {
///     print(header.bitrate, header.sampleRate, header.frameLength)   // 128000 44100 417
/// }
/// ```
public struct MPEGAudioHeader: Sendable, Hashable {
    /// The MPEG audio version of a frame.
    public enum Version: Sendable, Hashable {
        case mpeg1, mpeg2, mpeg25
    }

    /// The channel mode field.
    public enum ChannelMode: UInt8, Sendable, Hashable {
        case stereo = 0, jointStereo = 1, dualChannel = 2, mono = 3
    }

    /// The four header bytes as one big-endian word.
    public let word: UInt32
    /// MPEG version.
    public let version: Version
    /// Bits per second (8,000 to 320,000).
    public let bitrate: Int
    /// Samples per second per channel (8,000 to 48,000).
    public let sampleRate: Int
    /// Whether the frame carries one extra padding byte.
    public let padding: Bool
    /// Whether a 16-bit CRC follows the header.
    public let hasCRC: Bool
    /// Channel mode.
    public let channelMode: ChannelMode

    static let mpeg1Bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    static let mpeg2Bitrates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]

    /// Parses four header bytes; nil when they are not a valid Layer III header.
    public init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let version: Version
        switch (b1 >> 3) & 0b11 {
        case 0b00: version = .mpeg25
        case 0b10: version = .mpeg2
        case 0b11: version = .mpeg1
        default: return nil
        }
        guard (b1 >> 1) & 0b11 == 0b01 else { return nil }  // Layer III only
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 0b11)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3, b3 & 0b11 != 0b10 else { return nil }
        let baseRates = [44100, 48000, 32000]
        switch version {
        case .mpeg1:
            bitrate = Self.mpeg1Bitrates[bitrateIndex] * 1000
            sampleRate = baseRates[rateIndex]
        case .mpeg2:
            bitrate = Self.mpeg2Bitrates[bitrateIndex] * 1000
            sampleRate = baseRates[rateIndex] / 2
        case .mpeg25:
            bitrate = Self.mpeg2Bitrates[bitrateIndex] * 1000
            sampleRate = baseRates[rateIndex] / 4
        }
        self.version = version
        word = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
        padding = b2 & 0b10 != 0
        hasCRC = b1 & 1 == 0
        channelMode = ChannelMode(rawValue: b3 >> 6)!
    }

    /// Parses the header at `offset` of `bytes`; nil when fewer than 4 bytes remain or invalid.
    public init?(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let i = bytes.index(bytes.startIndex, offsetBy: offset)
        self.init(bytes[i], bytes[bytes.index(i, offsetBy: 1)], bytes[bytes.index(i, offsetBy: 2)],
                  bytes[bytes.index(i, offsetBy: 3)])
    }

    /// Channels decoded: 1 for mono, else 2.
    public var channels: Int { channelMode == .mono ? 1 : 2 }

    /// PCM samples per channel in one frame: 1152 for MPEG-1, 576 for MPEG-2 and 2.5.
    public var samplesPerFrame: Int { version == .mpeg1 ? 1152 : 576 }

    /// Bytes in the frame, header included.
    public var frameLength: Int {
        let coefficient = version == .mpeg1 ? 144 : 72
        return coefficient * bitrate / sampleRate + (padding ? 1 : 0)
    }

    /// Bytes of Layer III side information after the header (and CRC): 32/17 for MPEG-1
    /// stereo/mono, 17/9 for MPEG-2 and 2.5.
    public var sideInfoLength: Int {
        switch (version, channelMode) {
        case (.mpeg1, .mono): 17
        case (.mpeg1, _): 32
        case (_, .mono): 9
        default: 17
        }
    }

    /// Frame duration in seconds.
    public var duration: Double { Double(samplesPerFrame) / Double(sampleRate) }

    /// The bits that stay fixed within one stream (sync, version, layer, sample rate), used to
    /// check that consecutive frames belong together.
    var streamKey: UInt32 { word & 0xFFFE_0C00 }
}

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
