import AudioCore
import Foundation
@testable import MediaTags

/// Builds ID3v1/ID3v2 tags, MPEG audio frames and WAV files in code, so tests need no
/// committed binaries.
enum ID3Build {
    static func synchsafe(_ n: Int) -> [UInt8] {
        [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)]
    }

    static func be32(_ n: Int) -> [UInt8] { [UInt8((n >> 24) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] }
    static func le32(_ n: Int) -> [UInt8] { be32(n).reversed() }
    static func le16(_ n: Int) -> [UInt8] { [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF)] }

    /// `text` in ID3 `encoding` (UTF-16 with a little-endian BOM for 1), without terminator.
    static func encode(_ text: String, _ encoding: UInt8, bigEndianBOM: Bool = false) -> [UInt8] {
        switch encoding {
        case 0: return text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case 1:
            let bom: [UInt8] = bigEndianBOM ? [0xFE, 0xFF] : [0xFF, 0xFE]
            return bom + text.utf16.flatMap { bigEndianBOM ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case 2: return text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        default: return Array(text.utf8)
        }
    }

    static func terminator(_ encoding: UInt8) -> [UInt8] { encoding == 1 || encoding == 2 ? [0, 0] : [0] }

    /// A text frame body: encoding byte, then the values separated by terminators.
    static func textBody(_ values: [String], _ encoding: UInt8 = 3) -> [UInt8] {
        var body: [UInt8] = [encoding]
        for (i, v) in values.enumerated() {
            if i > 0 { body += terminator(encoding) }
            body += encode(v, encoding)
        }
        return body
    }

    /// A frame with the header layout of ID3v2.`major` (3-letter ids and 24-bit sizes in 2.2,
    /// plain sizes in 2.3, synchsafe sizes in 2.4 unless `plainSize`).
    static func frame(_ id: String, _ body: [UInt8], major: Int, formatFlags: UInt8 = 0, plainSize: Bool = false) -> [UInt8] {
        if major == 2 { return Array(id.utf8) + Array(be32(body.count).dropFirst()) + body }
        let size = major == 4 && !plainSize ? synchsafe(body.count) : be32(body.count)
        return Array(id.utf8) + size + [0, formatFlags] + body
    }

    static func text(_ id: String, _ values: [String], _ encoding: UInt8 = 3, major: Int = 4) -> [UInt8] {
        frame(id, textBody(values, encoding), major: major)
    }

    static func comment(_ text: String, description: String = "", language: String = "eng",
                        _ encoding: UInt8 = 3, major: Int = 4) -> [UInt8] {
        let body = [encoding] + Array(language.utf8) + encode(description, encoding) + terminator(encoding) + encode(text, encoding)
        return frame(major == 2 ? "COM" : "COMM", body, major: major)
    }

    static func userText(_ description: String, _ values: [String], _ encoding: UInt8 = 3, major: Int = 4) -> [UInt8] {
        let body = [encoding] + encode(description, encoding) + terminator(encoding) + Array(textBody(values, encoding).dropFirst())
        return frame(major == 2 ? "TXX" : "TXXX", body, major: major)
    }

    /// APIC (or PIC in v2.2, where `mime` is the 3-letter image format).
    static func picture(_ data: [UInt8], mime: String = "image/jpeg", type: UInt8 = 3, description: String = "",
                        _ encoding: UInt8 = 0, major: Int = 4) -> [UInt8] {
        let format = major == 2 ? Array(mime.utf8.prefix(3)) : Array(mime.utf8) + [0]
        let body = [encoding] + format + [type] + encode(description, encoding) + terminator(encoding) + data
        return frame(major == 2 ? "PIC" : "APIC", body, major: major)
    }

    /// Inserts 0x00 after every 0xFF that precedes 0x00 or ≥ 0xE0, or ends the data (§6.1).
    static func unsynchronise(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            out.append(b)
            if b == 0xFF && (i + 1 == bytes.count || bytes[i + 1] == 0 || bytes[i + 1] >= 0xE0) { out.append(0) }
        }
        return out
    }

    /// A whole ID3v2 tag around `frames`.
    static func tag(major: Int, _ frames: [[UInt8]], padding: Int = 0, extendedHeader: Bool = false,
                    footer: Bool = false, unsynchronise: Bool = false) -> [UInt8] {
        var body: [UInt8] = []
        if extendedHeader {
            body += major == 3 ? be32(6) + [0, 0] + be32(padding) : synchsafe(6) + [1, 0]
        }
        body += frames.flatMap { $0 } + [UInt8](repeating: 0, count: padding)
        if unsynchronise && major < 4 { body = Self.unsynchronise(body) }
        var flags: UInt8 = 0
        if unsynchronise { flags |= 0x80 }
        if extendedHeader { flags |= 0x40 }
        if footer { flags |= 0x10 }
        let header = Array("ID3".utf8) + [UInt8(major), 0, flags] + synchsafe(body.count)
        return header + body + (footer ? Array("3DI".utf8) + Array(header.dropFirst(3)) : [])
    }

    /// A 128-byte ID3v1 tag (v1.1 when `track` is given).
    static func v1(title: String = "", artist: String = "", album: String = "", year: String = "",
                   comment: String = "", track: UInt8? = nil, genre: UInt8 = 255) -> [UInt8] {
        func field(_ s: String, _ n: Int) -> [UInt8] {
            let b = encode(s, 0).prefix(n)
            return Array(b) + [UInt8](repeating: 0, count: n - b.count)
        }
        var tag = Array("TAG".utf8) + field(title, 30) + field(artist, 30) + field(album, 30) + field(year, 4)
        if let track { tag += field(comment, 28) + [0, track] } else { tag += field(comment, 30) }
        return tag + [genre]
    }
}

enum MPEGBuild {
    /// A frame header: version bits 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5; layer 1–3.
    static func header(versionBits: UInt8 = 3, layer: Int = 3, bitrateIndex: UInt8, rateIndex: UInt8 = 0,
                       padding: Bool = false, mono: Bool = false) -> [UInt8] {
        [0xFF, 0xE0 | versionBits << 3 | UInt8(4 - layer) << 1 | 1,
         bitrateIndex << 4 | rateIndex << 2 | (padding ? 2 : 0), mono ? 0xC0 : 0x00]
    }

    /// One zero-filled frame with `header`, of the length the header implies.
    static func frame(_ header: [UInt8]) -> [UInt8] {
        let parsed = MPEGAudioHeader(header[0], header[1], header[2], header[3])!
        return header + [UInt8](repeating: 0, count: parsed.frameLength - 4)
    }

    /// `count` MPEG-1 Layer III frames at `kbps` (bitrate index `index`) and `rate` Hz,
    /// padded the way encoders do so the average length is exact.
    static func cbr(count: Int, index: UInt8 = 9, kbps: Int = 128, rateIndex: UInt8 = 0, rate: Int = 44100) -> [UInt8] {
        var out: [UInt8] = []
        let exact = 144 * kbps * 1000
        for i in 0..<count {
            let padded = (i + 1) * exact / rate - i * exact / rate > exact / rate
            out += frame(header(bitrateIndex: index, rateIndex: rateIndex, padding: padded))
        }
        return out
    }

    /// An MPEG-1 Layer III 128 kbps 44.1 kHz stereo frame carrying a Xing (or Info) header.
    static func xing(frames: Int?, bytes: Int?, tag: String = "Xing", lame: (delay: Int, padding: Int)? = nil,
                     versionBits: UInt8 = 3, mono: Bool = false) -> [UInt8] {
        let h = header(versionBits: versionBits, bitrateIndex: 9, mono: mono)
        var f = frame(h)
        let parsed = MPEGAudioHeader(h[0], h[1], h[2], h[3])!
        var body = Array(tag.utf8)
        var flags = 0
        if frames != nil { flags |= 1 }
        if bytes != nil { flags |= 2 }
        body += ID3Build.be32(flags | 4)
        if let frames { body += ID3Build.be32(frames) }
        if let bytes { body += ID3Build.be32(bytes) }
        body += [UInt8](repeating: 7, count: 100)
        if let lame {
            body += Array("LAME3.100".utf8) + [UInt8](repeating: 0, count: 12)
            let packed = lame.delay << 12 | lame.padding
            body += [UInt8(packed >> 16), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF)]
        }
        f.replaceSubrange(parsed.xingOffset..<(parsed.xingOffset + body.count), with: body)
        return f
    }

    /// A 44.1 kHz 128 kbps frame with a Fraunhofer VBRI header at offset 36.
    static func vbri(frames: Int, bytes: Int) -> [UInt8] {
        var f = frame(header(bitrateIndex: 9))
        let body = Array("VBRI".utf8) + [0, 1, 0, 0, 0, 50] + ID3Build.be32(bytes) + ID3Build.be32(frames)
        f.replaceSubrange(36..<(36 + body.count), with: body)
        return f
    }
}

enum WAVBuild {
    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + ID3Build.le32(body.count) + body + (body.count & 1 == 1 ? [0] : [])
    }

    static func format(tag: Int = 1, channels: Int = 2, rate: Int = 44100, bits: Int = 16, subFormat: Int? = nil) -> [UInt8] {
        let align = channels * bits / 8
        var body = ID3Build.le16(tag) + ID3Build.le16(channels) + ID3Build.le32(rate) + ID3Build.le32(rate * align)
            + ID3Build.le16(align) + ID3Build.le16(bits)
        if let subFormat {
            body += ID3Build.le16(22) + ID3Build.le16(bits) + ID3Build.le32(3) + ID3Build.le16(subFormat)
                + [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
        }
        return chunk("fmt ", body)
    }

    /// A LIST/INFO chunk; each value is NUL-terminated as RIFF writers do.
    static func info(_ items: [(String, String)]) -> [UInt8] {
        chunk("LIST", Array("INFO".utf8) + items.flatMap { chunk($0.0, Array($0.1.utf8) + [0]) })
    }

    /// A RIFF/WAVE file of `chunks`.
    static func file(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = Array("WAVE".utf8) + chunks.flatMap { $0 }
        return Array("RIFF".utf8) + ID3Build.le32(body.count) + body
    }

    static func data(_ count: Int) -> [UInt8] { chunk("data", [UInt8](repeating: 0, count: count)) }
}

enum ID3Fuzz {
    /// `iterations` mutants of `seed` bytes: byte flips, truncations, 0xFF runs (huge sizes), insertions.
    static func mutants(of seed: [UInt8], iterations: Int = 3_000, rngSeed: UInt64 = 42) -> [[UInt8]] {
        var rng = SplitMix64(seed: rngSeed)
        var result: [[UInt8]] = []
        for _ in 0..<iterations {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.removeSubrange(i...)
                case 2: for j in i..<min(bytes.count, i + 4) { bytes[j] = 0xFF }
                case 3: for j in i..<min(bytes.count, i + 4) { bytes[j] = 0x7F }
                default: bytes.insert(contentsOf: [UInt8](repeating: UInt8.random(in: 0...255, using: &rng), count: 3), at: i)
                }
            }
            result.append(bytes)
        }
        return result
    }
}

/// A source that records how many bytes were read, to prove readers fetch only head and tail.
final class ID3CountingByteSource: ByteSource {
    let base: DataByteSource
    private(set) var bytesRead = 0
    init(_ bytes: [UInt8]) { base = DataByteSource(bytes) }
    var count: Int { base.count }
    func read(_ range: Range<Int>) throws -> [UInt8] {
        let bytes = try base.read(range)
        bytesRead += bytes.count
        return bytes
    }
}
