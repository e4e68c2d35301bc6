import Foundation

/// Writes RIFF/WAVE files in pure Swift in any `WAVSampleFormat`.
///
/// Integer formats scale by 2^(bits-1), round to nearest and clamp, so a buffer read from
/// a WAV file of the same format writes back bit for bit. `WAVE_FORMAT_EXTENSIBLE` is used
/// when asked, or by default for more than two channels or more than 16 bits, as
/// Microsoft's WAVE_FORMAT_EXTENSIBLE note recommends. NaN samples become 0 and infinities
/// clamp to full scale in integer formats.
///
/// ```swift
/// let bytes = WAVWriter.encode(buffer, format: .int16)
/// try WAVWriter.write(buffer, to: url, format: .float32)
/// ```
public enum WAVWriter {
    /// Encodes a buffer as WAV bytes.
    public static func encode(_ buffer: PCMBuffer, format: WAVSampleFormat, extensible: Bool? = nil) -> Data {
        let useExtensible = extensible ?? (buffer.channelCount > 2 || format.bitsPerSample > 16)
        let channels = buffer.channelCount
        let blockAlign = channels * format.bytesPerSample
        let dataSize = buffer.samples.count * format.bytesPerSample
        let fmtSize = useExtensible ? 40 : 16
        var out = Data(capacity: 12 + 8 + fmtSize + 8 + dataSize + 1)
        out.append(contentsOf: Array("RIFF".utf8))
        append32(&out, UInt32(4 + 8 + fmtSize + 8 + dataSize + (dataSize & 1)))
        out.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(&out, UInt32(fmtSize))
        let tag = format.isFloat ? WAVFormatTag.ieeeFloat : WAVFormatTag.pcm
        append16(&out, useExtensible ? WAVFormatTag.extensible : tag)
        append16(&out, UInt16(channels))
        append32(&out, UInt32(Int(buffer.sampleRate.rounded())))
        append32(&out, UInt32(Int(buffer.sampleRate.rounded()) * blockAlign))
        append16(&out, UInt16(blockAlign))
        append16(&out, UInt16(format.bitsPerSample))
        if useExtensible {
            append16(&out, 22)
            append16(&out, UInt16(format.bitsPerSample))
            append32(&out, 0) // channel mask 0: no speaker positions claimed
            append16(&out, tag)
            out.append(contentsOf: WAVFormatTag.subformatGUIDTail)
        }
        out.append(contentsOf: Array("data".utf8))
        append32(&out, UInt32(dataSize))
        appendSamples(&out, buffer.samples, format: format)
        if dataSize & 1 == 1 { out.append(0) }
        return out
    }

    /// Encodes a buffer and writes it to `url` atomically.
    public static func write(_ buffer: PCMBuffer, to url: URL, format: WAVSampleFormat = .int16) throws {
        do { try encode(buffer, format: format).write(to: url, options: .atomic) } catch {
            throw AudioError.io("cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    private static func appendSamples(_ out: inout Data, _ samples: [Float], format: WAVSampleFormat) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(samples.count * format.bytesPerSample)
        func integer(_ x: Float, bits: Int) -> Int64 {
            let scale = Double(Int64(1) << (bits - 1))
            guard !x.isNaN else { return 0 } // NaN has no integer value: write silence
            let v = (Double(x) * scale).rounded()
            return Int64(min(max(v, -scale), scale - 1))
        }
        switch format {
        case .int8:
            for x in samples { bytes.append(UInt8(integer(x, bits: 8) + 128)) }
        case .int16, .int24, .int32:
            let width = format.bytesPerSample
            for x in samples {
                let v = UInt64(bitPattern: integer(x, bits: format.bitsPerSample))
                for b in 0..<width { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(b)))) }
            }
        case .float32:
            for x in samples {
                let v = x.bitPattern
                for b in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(b)))) }
            }
        case .float64:
            for x in samples {
                let v = Double(x).bitPattern
                for b in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(b)))) }
            }
        }
        out.append(contentsOf: bytes)
    }

    private static func append16(_ out: inout Data, _ v: UInt16) {
        out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8))
    }

    private static func append32(_ out: inout Data, _ v: UInt32) {
        for b in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(b)))) }
    }
}
