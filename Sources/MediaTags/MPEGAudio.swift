/// One MPEG-1/2/2.5 audio frame header (ISO/IEC 11172-3 §2.4.2.3, ISO/IEC 13818-3, and the
/// unofficial MPEG 2.5 extension): version, layer, bitrate, sample rate, padding, channels.
///
/// Free-format (bitrate index 0) and reserved values are rejected, since their frame
/// length cannot be computed from the header alone.
struct MPEGFrameHeader: Equatable {
    enum Version: Equatable { case mpeg1, mpeg2, mpeg25 }
    var version: Version
    /// 1, 2 or 3.
    var layer: Int
    /// Bits per second.
    var bitrate: Int
    var sampleRate: Int
    var padding: Bool
    /// 0 stereo, 1 joint stereo, 2 dual channel, 3 mono.
    var channelMode: Int

    var channels: Int { channelMode == 3 ? 1 : 2 }

    var samplesPerFrame: Int {
        switch layer {
        case 1: 384
        case 2: 1152
        default: version == .mpeg1 ? 1152 : 576
        }
    }

    /// Bytes in the frame, header included.
    var frameLength: Int {
        if layer == 1 { return (12 * bitrate / sampleRate + (padding ? 1 : 0)) * 4 }
        let factor = layer == 3 && version != .mpeg1 ? 72 : 144
        return factor * bitrate / sampleRate + (padding ? 1 : 0)
    }

    /// Offset from the frame start of a Xing/Info header: 4 header bytes + Layer III side info.
    var xingOffset: Int {
        4 + (version == .mpeg1 ? (channels == 1 ? 17 : 32) : (channels == 1 ? 9 : 17))
    }

    private static let bitrates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448], // V1 L1
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],    // V1 L2
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],     // V1 L3
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],    // V2 L1
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],         // V2 L2/L3
    ]

    /// Parses 4 header bytes; nil unless they hold a valid, non-free-format header.
    init?(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let versionBits = (b1 >> 3) & 3, layerBits = (b1 >> 1) & 3
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 3)
        guard versionBits != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        version = versionBits == 3 ? .mpeg1 : (versionBits == 2 ? .mpeg2 : .mpeg25)
        layer = 4 - Int(layerBits)
        let table = version == .mpeg1 ? layer - 1 : (layer == 1 ? 3 : 4)
        bitrate = Self.bitrates[table][bitrateIndex] * 1000
        let base = [44100, 48000, 32000][rateIndex]
        sampleRate = version == .mpeg1 ? base : (version == .mpeg2 ? base / 2 : base / 4)
        padding = b2 & 0x02 != 0
        channelMode = Int(b3 >> 6)
    }

    /// The header at `offset` in `bytes`, if the bytes are there and valid.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        self.init(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
    }

    /// Whether `other` can follow this frame in the same stream (same version, layer, rate).
    func isCompatible(with other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }
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
    init?(_ data: [UInt8], frameAt offset: Int, header: MPEGFrameHeader) {
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
    static func firstFrame(in bytes: [UInt8], from start: Int) -> (offset: Int, header: MPEGFrameHeader)? {
        var i = max(0, start)
        while i + 4 <= bytes.count {
            if bytes[i] == 0xFF, let header = MPEGFrameHeader(bytes, at: i) {
                let next = i + header.frameLength
                if next + 4 > bytes.count { return (i, header) }
                if let following = MPEGFrameHeader(bytes, at: next), header.isCompatible(with: following) { return (i, header) }
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
        var first: MPEGFrameHeader?
        while position + 4 <= end, frames < maxFrames {
            if position + 4 > chunkStart + chunk.count {
                chunkStart = position
                chunk = try source.read(at: position, length: min(65_536, end - position))
                guard chunk.count >= 4 else { break }
            }
            let i = position - chunkStart
            guard let header = MPEGFrameHeader(chunk, at: i), first.map({ $0.isCompatible(with: header) }) ?? true,
                  position + header.frameLength <= end else { break }
            first = first ?? header
            frames += 1
            samples += header.samplesPerFrame
            position += header.frameLength
        }
        return (frames, samples, position - offset)
    }
}
