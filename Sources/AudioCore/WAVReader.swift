import Foundation

/// Reads RIFF/WAVE files in pure Swift: PCM 8/16/24/32-bit integers and 32/64-bit floats,
/// any channel count, `WAVE_FORMAT_EXTENSIBLE`, and chunks of odd size (with their pad byte).
///
/// Follows Microsoft's "Multimedia Programming Interface and Data Specifications 1.0" (RIFF)
/// and the WAVE_FORMAT_EXTENSIBLE note. A data chunk whose size is `0xFFFFFFFF` (written by
/// streaming encoders that could not seek back) is read to the end of the file.
///
/// ```swift
/// let buffer = try WAVReader.read(contentsOf: URL(fileURLWithPath: "tone.wav"))
/// ```
public enum WAVReader {
    /// The format of a WAV file as its `fmt ` chunk declares it.
    public struct Header: Sendable, Equatable {
        public var format: WAVSampleFormat
        public var channelCount: Int
        public var sampleRate: Int

        public init(format: WAVSampleFormat, channelCount: Int, sampleRate: Int) {
            self.format = format
            self.channelCount = channelCount
            self.sampleRate = sampleRate
        }
    }

    /// Reads and decodes a WAV file. Throws `AudioError` on anything malformed.
    /// With `downmix`, the channels are averaged into one while reading, which saves
    /// building the interleaved buffer first (what analysis wants).
    public static func read(contentsOf url: URL, downmix: Bool = false) throws -> PCMBuffer {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw AudioError.io("cannot read \(url.path): \(error.localizedDescription)")
        }
        return try decode(data, downmix: downmix)
    }

    /// Decodes WAV bytes into a buffer (averaged to mono with `downmix`). Throws
    /// `AudioError` on anything malformed.
    public static func decode(_ data: Data, downmix: Bool = false) throws -> PCMBuffer {
        try data.withUnsafeBytes { raw in
            let (header, payload) = try parse(raw)
            let channels = header.channelCount
            let frameBytes = header.format.bytesPerSample * channels
            let frames = payload.count / frameBytes
            let bytes = UnsafeRawBufferPointer(rebasing: payload.prefix(frames * frameBytes))
            if downmix && channels > 1 {
                return PCMBuffer(sampleRate: Double(header.sampleRate), channelCount: 1,
                                 samples: convertMono(bytes, format: header.format, frames: frames, channels: channels))
            }
            return PCMBuffer(sampleRate: Double(header.sampleRate), channelCount: channels,
                             samples: convert(bytes, format: header.format, count: frames * channels))
        }
    }

    /// Reads only the header (format, channels, rate) of WAV bytes.
    public static func header(of data: Data) throws -> Header {
        try data.withUnsafeBytes { try parse($0).0 }
    }

    /// Finds the `fmt ` and `data` chunks; returns the header and the sample bytes.
    private static func parse(_ raw: UnsafeRawBufferPointer) throws -> (Header, Slice<UnsafeRawBufferPointer>) {
        guard raw.count >= 12 else { throw AudioError.notWAV("file is \(raw.count) bytes, shorter than a RIFF header") }
        let magic = fourCC(raw, 0)
        if magic == "RF64" { throw AudioError.unsupportedFormat("RF64 (WAV over 4 GiB) is not supported") }
        guard magic == "RIFF", fourCC(raw, 8) == "WAVE" else {
            throw AudioError.notWAV("missing RIFF/WAVE signature")
        }
        var offset = 12
        var header: Header?
        while offset + 8 <= raw.count {
            let id = fourCC(raw, offset)
            let size = Int(u32(raw, offset + 4))
            let body = offset + 8
            if id == "data" {
                guard let header else { throw AudioError.corruptWAV("data chunk comes before the fmt chunk") }
                let available = raw.count - body
                if size == Int(UInt32.max) { return (header, raw[body..<raw.count]) }
                guard size <= available else {
                    throw AudioError.truncated("data chunk declares \(size) bytes but only \(available) follow")
                }
                return (header, raw[body..<(body + size)])
            }
            guard size <= raw.count - body else {
                throw AudioError.truncated("chunk '\(id)' declares \(size) bytes but only \(raw.count - body) follow")
            }
            if id == "fmt " { header = try parseFormat(UnsafeRawBufferPointer(rebasing: raw[body..<(body + size)])) }
            offset = body + size + (size & 1) // chunks are padded to an even size
        }
        if header == nil { throw AudioError.corruptWAV("no fmt chunk") }
        throw AudioError.truncated("no data chunk")
    }

    private static func parseFormat(_ fmt: UnsafeRawBufferPointer) throws -> Header {
        guard fmt.count >= 16 else { throw AudioError.corruptWAV("fmt chunk is \(fmt.count) bytes, needs 16") }
        var tag = u16(fmt, 0)
        let channels = Int(u16(fmt, 2))
        let rate = Int(u32(fmt, 4))
        let blockAlign = Int(u16(fmt, 12))
        let bits = Int(u16(fmt, 14))
        if tag == WAVFormatTag.extensible {
            guard fmt.count >= 40 else { throw AudioError.corruptWAV("WAVE_FORMAT_EXTENSIBLE fmt chunk is too short") }
            let guidTail = (0..<14).map { fmt[26 + $0] }
            guard guidTail == WAVFormatTag.subformatGUIDTail else {
                throw AudioError.unsupportedFormat("unknown WAVE_FORMAT_EXTENSIBLE sub-format")
            }
            tag = u16(fmt, 24)
        }
        guard channels >= 1 else { throw AudioError.corruptWAV("fmt chunk declares 0 channels") }
        guard rate >= 1 else { throw AudioError.corruptWAV("fmt chunk declares a sample rate of 0") }
        let format: WAVSampleFormat
        switch (tag, bits) {
        case (WAVFormatTag.pcm, 8): format = .int8
        case (WAVFormatTag.pcm, 16): format = .int16
        case (WAVFormatTag.pcm, 24): format = .int24
        case (WAVFormatTag.pcm, 32): format = .int32
        case (WAVFormatTag.ieeeFloat, 32): format = .float32
        case (WAVFormatTag.ieeeFloat, 64): format = .float64
        case (WAVFormatTag.pcm, _), (WAVFormatTag.ieeeFloat, _):
            throw AudioError.unsupportedFormat("\(bits)-bit samples with format tag \(tag)")
        default:
            throw AudioError.unsupportedFormat("format tag 0x\(String(tag, radix: 16)) (compressed WAV); decode it with ffmpeg")
        }
        guard blockAlign == format.bytesPerSample * channels else {
            throw AudioError.corruptWAV("block align \(blockAlign) does not match \(channels) channels of \(bits) bits")
        }
        return Header(format: format, channelCount: channels, sampleRate: rate)
    }

    /// The average of each frame's channels.
    private static func convertMono(_ bytes: UnsafeRawBufferPointer, format: WAVSampleFormat, frames: Int, channels: Int) -> [Float] {
        var out = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        out.withUnsafeMutableBufferPointer { dst in
            if format == .int16, let base = bytes.baseAddress { // the common case, kept tight
                let factor = scale / 32768
                for f in 0..<frames {
                    var sum: Int32 = 0
                    for c in 0..<channels {
                        sum += Int32(Int16(littleEndian: base.loadUnaligned(fromByteOffset: (f * channels + c) * 2, as: Int16.self)))
                    }
                    dst[f] = Float(sum) * factor
                }
                return
            }
            for f in 0..<frames {
                let frame = UnsafeRawBufferPointer(rebasing: bytes[(f * channels * format.bytesPerSample)..<((f + 1) * channels * format.bytesPerSample)])
                dst[f] = convert(frame, format: format, count: channels).reduce(0, +) * scale
            }
        }
        return out
    }

    private static func convert(_ bytes: UnsafeRawBufferPointer, format: WAVSampleFormat, count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { dst in
            switch format {
            case .int8:
                for i in 0..<count { dst[i] = (Float(bytes[i]) - 128) / 128 }
            case .int16:
                for i in 0..<count {
                    dst[i] = Float(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))) / 32768
                }
            case .int24:
                for i in 0..<count {
                    let b = i * 3
                    let v = Int32(bytes[b]) | Int32(bytes[b + 1]) << 8 | Int32(Int8(bitPattern: bytes[b + 2])) << 16
                    dst[i] = Float(v) / 8_388_608
                }
            case .int32:
                for i in 0..<count {
                    dst[i] = Float(Double(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))) / 2_147_483_648)
                }
            case .float32:
                for i in 0..<count {
                    dst[i] = Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)))
                }
            case .float64:
                for i in 0..<count {
                    dst[i] = Float(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))))
                }
            }
        }
        return out
    }

    private static func fourCC(_ raw: UnsafeRawBufferPointer, _ at: Int) -> String {
        String(decoding: raw[at..<(at + 4)], as: UTF8.self)
    }

    private static func u16(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt16.self))
    }

    private static func u32(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
}
