/// One MPEG-1, MPEG-2 or MPEG-2.5 audio frame header, Layers I–III (ISO/IEC 11172-3
/// §2.4.2.3, ISO/IEC 13818-3, and the unofficial MPEG 2.5 extension): the one parser for tag
/// reading (``MP3File``) and for the radio's stream framing.
///
/// Free format (bitrate index 0), bitrate index 15, reserved versions, layers, sample rates and
/// emphasis are rejected: a free-format frame's length cannot be known from its header, and a
/// reserved field means the bytes are not a header. `accepting: .layerIII` narrows a parse to
/// what `audio/mpeg` radio streams carry.
///
/// ```swift
/// if let header = MPEGAudioHeader(0xFF, 0xFB, 0x90, 0x44) {
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

    /// Which layers a parse accepts.
    public enum Layers: Sendable, Hashable {
        /// Layers I, II and III (files: ``MP3File`` reads `.mp2` and `.mp1` too).
        case all
        /// Layer III only (a radio's `audio/mpeg` stream is MP3; anything else is junk to skip).
        case layerIII
    }

    /// The four header bytes as one big-endian word.
    public let word: UInt32
    /// MPEG version.
    public let version: Version
    /// 1, 2 or 3.
    public let layer: Int
    /// Bits per second (8,000 to 448,000).
    public let bitrate: Int
    /// Samples per second per channel (8,000 to 48,000).
    public let sampleRate: Int
    /// Whether the frame carries one extra padding slot.
    public let padding: Bool
    /// Whether a 16-bit CRC follows the header.
    public let hasCRC: Bool
    /// Channel mode.
    public let channelMode: ChannelMode

    private static let bitrates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448], // V1 L1
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],    // V1 L2
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],     // V1 L3
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],    // V2 L1
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],         // V2 L2/L3
    ]

    /// Parses four header bytes; nil when they are not a valid header of an accepted layer.
    public init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, accepting layers: Layers = .all) {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let versionBits = (b1 >> 3) & 3, layerBits = (b1 >> 1) & 3
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 3)
        guard versionBits != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3,
              b3 & 0b11 != 0b10 else { return nil }
        guard layers == .all || layerBits == 1 else { return nil }
        version = versionBits == 3 ? .mpeg1 : (versionBits == 2 ? .mpeg2 : .mpeg25)
        layer = 4 - Int(layerBits)
        let table = version == .mpeg1 ? layer - 1 : (layer == 1 ? 3 : 4)
        bitrate = Self.bitrates[table][bitrateIndex] * 1000
        let base = [44100, 48000, 32000][rateIndex]
        sampleRate = version == .mpeg1 ? base : (version == .mpeg2 ? base / 2 : base / 4)
        padding = b2 & 0x02 != 0
        hasCRC = b1 & 1 == 0
        channelMode = ChannelMode(rawValue: b3 >> 6)!
        word = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// Parses the header at `offset` of `bytes`; nil when fewer than 4 bytes remain or invalid.
    public init?(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int, accepting layers: Layers = .all) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let i = bytes.index(bytes.startIndex, offsetBy: offset)
        self.init(bytes[i], bytes[bytes.index(i, offsetBy: 1)], bytes[bytes.index(i, offsetBy: 2)],
                  bytes[bytes.index(i, offsetBy: 3)], accepting: layers)
    }

    /// Channels decoded: 1 for mono, else 2.
    public var channels: Int { channelMode == .mono ? 1 : 2 }

    /// PCM samples per channel in one frame: 384 (Layer I), 1152 (Layer II, Layer III of
    /// MPEG-1), 576 (Layer III of MPEG-2 and 2.5).
    public var samplesPerFrame: Int {
        switch layer {
        case 1: 384
        case 2: 1152
        default: version == .mpeg1 ? 1152 : 576
        }
    }

    /// Bytes in the frame, header included.
    public var frameLength: Int {
        if layer == 1 { return (12 * bitrate / sampleRate + (padding ? 1 : 0)) * 4 }
        let coefficient = layer == 3 && version != .mpeg1 ? 72 : 144
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

    /// Offset from the frame start of a Xing/Info header: the header, its CRC if any, and the
    /// Layer III side information.
    public var xingOffset: Int { 4 + (hasCRC ? 2 : 0) + sideInfoLength }

    /// Frame duration in seconds.
    public var duration: Double { Double(samplesPerFrame) / Double(sampleRate) }

    /// The bits that stay fixed within one stream (sync, version, layer, sample rate); two
    /// frames of one stream have the same key.
    public var streamKey: UInt32 { word & 0xFFFE_0C00 }

    /// Whether `other` can follow this frame in the same stream (same version, layer, rate).
    public func isCompatible(with other: MPEGAudioHeader) -> Bool { streamKey == other.streamKey }
}

/// What a first frame's VBR header says: the Xing/Info header (Xing Technology's VBR
/// header, with LAME's extension tag for encoder delay and padding) or Fraunhofer's VBRI.
struct MPEGVBRHeader: Equatable {
    /// Audio frames in the stream, the header frame excluded.
    var frames: Int?
    /// Bytes of audio, the header frame included.
    var bytes: Int?
    /// LAME encoder delay and end padding, in samples (0 without a LAME tag).
    var encoderDelay = 0
    var encoderPadding = 0

    /// Reads a Xing/Info or VBRI header from the frame `header` that starts at `offset` in
    /// `data`; nil when the frame has neither. Fields past the data are left nil.
    init?(_ data: [UInt8], frameAt offset: Int, header: MPEGAudioHeader) {
        var reader = ByteReader(data, offset: offset + header.xingOffset)
        if let tag = try? reader.fourCC(), tag == "Xing" || tag == "Info" {
            guard let flags = try? reader.uint32BE() else { return nil }
            if flags & 1 != 0 { frames = (try? reader.uint32BE()).map(Int.init) }
            if flags & 2 != 0 { bytes = (try? reader.uint32BE()).map(Int.init) }
            if flags & 4 != 0 { _ = try? reader.skip(100) }
            if flags & 8 != 0 { _ = try? reader.skip(4) }
            // LAME tag: 9-byte encoder string, then delay/padding as 12+12 bits at +21.
            if let encoder = try? reader.bytes(4), encoder == Array("LAME".utf8) || encoder == Array("Lavc".utf8) || encoder == Array("Lavf".utf8) {
                if (try? reader.skip(17)) != nil, let packed = try? reader.uint24BE() {
                    encoderDelay = Int(packed >> 12)
                    encoderPadding = Int(packed & 0xFFF)
                }
            }
            return
        }
        reader = ByteReader(data, offset: offset + 36)
        guard let tag = try? reader.fourCC(), tag == "VBRI", (try? reader.skip(6)) != nil,
              let size = try? reader.uint32BE(), let count = try? reader.uint32BE() else { return nil }
        bytes = Int(size)
        frames = Int(count)
    }
}

/// Stream facts of an MPEG audio stream: where its first frame is, and its duration.
enum MPEGAudio {
    /// Offset in `bytes` of the first frame header at or after `start` that is followed by a
    /// compatible header (or by the end of `bytes`), which rules out most false syncs.
    static func firstFrame(in bytes: [UInt8], from start: Int) -> (offset: Int, header: MPEGAudioHeader)? {
        var i = max(0, start)
        while i + 4 <= bytes.count {
            if bytes[i] == 0xFF, let header = MPEGAudioHeader(bytes, at: i) {
                let next = i + header.frameLength
                if next + 4 > bytes.count { return (i, header) }
                if let following = MPEGAudioHeader(bytes, at: next), header.isCompatible(with: following) { return (i, header) }
            }
            i += 1
        }
        return nil
    }

    /// Counts the frames from `offset` to `end` by walking headers, reading `source` in
    /// 64 KiB chunks; stops at the first byte that is not a frame header, after at most
    /// `maxFrames` frames. Returns (frames, samples, bytes walked).
    static func scanFrames(_ source: some ByteSource, from offset: Int, to end: Int,
                           maxFrames: Int = 2_000_000) throws -> (frames: Int, samples: Int, bytes: Int) {
        var position = offset, frames = 0, samples = 0
        var chunk: [UInt8] = [], chunkStart = offset
        var first: MPEGAudioHeader?
        while position + 4 <= end, frames < maxFrames {
            if position + 4 > chunkStart + chunk.count {
                chunkStart = position
                chunk = try source.read(at: position, length: min(65_536, end - position))
                guard chunk.count >= 4 else { break }
            }
            let i = position - chunkStart
            guard let header = MPEGAudioHeader(chunk, at: i), first.map({ $0.isCompatible(with: header) }) ?? true,
                  position + header.frameLength <= end else { break }
            first = first ?? header
            frames += 1
            samples += header.samplesPerFrame
            position += header.frameLength
        }
        return (frames, samples, position - offset)
    }
}
