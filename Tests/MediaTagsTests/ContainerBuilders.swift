import AudioCore
import Foundation
import Testing
@testable import MediaTags

// Builders of FLAC, Ogg and MP4 files in memory, so tests need no committed binaries.

/// Integers as bytes.
enum PackedBytes {
    static func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    static func u24BE(_ value: Int) -> [UInt8] { [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    /// A small JPEG-looking payload (signature plus filler).
    static func jpeg(_ size: Int = 64) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + (0..<max(0, size - 4)).map { UInt8($0 & 0xFF) } }
    static func png(_ size: Int = 64) -> [UInt8] { [0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 7, count: max(0, size - 4)) }
}

/// A ByteSource that counts the bytes it hands out (to prove readers skip audio data).
final class ReadCountingByteSource: ByteSource {
    let inner: DataByteSource
    private(set) var bytesRead = 0
    init(_ bytes: [UInt8]) { inner = DataByteSource(bytes) }
    var count: Int { inner.count }
    func read(_ range: Range<Int>) throws -> [UInt8] {
        let bytes = try inner.read(range)
        bytesRead += bytes.count
        return bytes
    }
}

/// Vorbis comment blocks (Vorbis I §5).
enum VorbisCommentBuilder {
    static func block(vendor: String = "quintet tests", _ comments: [String]) -> [UInt8] {
        var out = PackedBytes.le(UInt32(vendor.utf8.count)) + Array(vendor.utf8) + PackedBytes.le(UInt32(comments.count))
        for comment in comments { out += PackedBytes.le(UInt32(comment.utf8.count)) + Array(comment.utf8) }
        return out
    }
}

/// FLAC streams (RFC 9639 §8).
enum FLACBuilder {
    static func streamInfo(sampleRate: Int = 44_100, channels: Int = 2, bits: Int = 16, samples: UInt64) -> [UInt8] {
        var out = PackedBytes.be(UInt16(4096)) + PackedBytes.be(UInt16(4096)) + PackedBytes.u24BE(0) + PackedBytes.u24BE(0)
        let packed = UInt64(sampleRate) << 44 | UInt64(channels - 1) << 41 | UInt64(bits - 1) << 36 | (samples & 0xF_FFFF_FFFF)
        out += PackedBytes.be(packed)
        return out + [UInt8](repeating: 0xAB, count: 16)
    }

    static func picture(type: UInt32 = 3, mime: String = "image/jpeg", description: String = "", width: UInt32 = 1,
                        data: [UInt8]) -> [UInt8] {
        PackedBytes.be(type) + PackedBytes.be(UInt32(mime.utf8.count)) + Array(mime.utf8) + PackedBytes.be(UInt32(description.utf8.count))
            + Array(description.utf8) + PackedBytes.be(width) + PackedBytes.be(width) + PackedBytes.be(UInt32(24)) + PackedBytes.be(UInt32(0))
            + PackedBytes.be(UInt32(data.count)) + data
    }

    /// "fLaC", the blocks (the last one flagged), then `audio` bytes of fake frames.
    static func file(blocks: [(type: UInt8, body: [UInt8])], audio: Int = 1_000, id3: [UInt8] = []) -> [UInt8] {
        var out = id3 + Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let last: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            out += [last | block.type] + PackedBytes.u24BE(block.body.count) + block.body
        }
        return out + (0..<audio).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    }

    /// A typical tagged file: STREAMINFO, PADDING, VORBIS_COMMENT, PICTURE.
    static func tagged(samples: UInt64 = 132_300, comments: [String], pictures: [[UInt8]] = [], audio: Int = 1_000) -> [UInt8] {
        var blocks: [(type: UInt8, body: [UInt8])] = [(0, streamInfo(samples: samples)), (1, [UInt8](repeating: 0, count: 100)),
                                                      (4, VorbisCommentBuilder.block(comments))]
        blocks += pictures.map { (6, $0) }
        return file(blocks: blocks, audio: audio)
    }

    /// An ID3v2.4 tag of `size` body bytes (a TIT2 frame and padding).
    static func id3v2(bodySize: Int = 200, footer: Bool = false) -> [UInt8] {
        func synchsafe(_ n: Int) -> [UInt8] { [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)] }
        var body = Array("TIT2".utf8) + synchsafe(3) + [0, 3] + Array("X".utf8)
        body += [UInt8](repeating: 0, count: bodySize - body.count)
        var out = Array("ID3".utf8) + [4, 0, footer ? 0x10 : 0] + synchsafe(bodySize) + body
        if footer { out += Array("3DI".utf8) + [4, 0, 0x10] + synchsafe(bodySize) }
        return out
    }
}

/// Ogg pages (RFC 3533) with Vorbis (Vorbis I §4.2) and Opus (RFC 7845 §5) headers.
enum OggBuilder {
    /// CRC-32 with polynomial 0x04C11DB7, initial value 0, no reflection, no final xor.
    static let crcTable: [UInt32] = (0..<256).map { index in
        var r = UInt32(index) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(UInt32(0)) { ($0 << 8) ^ crcTable[Int(($0 >> 24) ^ UInt32($1))] }
    }

    static func page(serial: UInt32, sequence: UInt32, granule: UInt64, flags: UInt8, lacing: [UInt8], body: [UInt8]) -> [UInt8] {
        var out = Array("OggS".utf8) + [0, flags] + PackedBytes.le(granule) + PackedBytes.le(serial) + PackedBytes.le(sequence)
        out += [0, 0, 0, 0, UInt8(lacing.count)] + lacing + body
        let checksum = PackedBytes.le(crc(out))
        out.replaceSubrange(22..<26, with: checksum)
        return out
    }

    /// One packet laid out on as many pages as it needs (255 segments each); only the last
    /// page carries `granule`, earlier ones −1 and later ones the continuation flag.
    static func pages(packet: [UInt8], serial: UInt32, sequence: inout UInt32, granule: UInt64,
                      first: Bool = false, last: Bool = false) -> [UInt8] {
        var lacing = [UInt8](repeating: 255, count: packet.count / 255) + [UInt8(packet.count % 255)]
        var out: [UInt8] = []
        var bodyOffset = 0
        var continued = false
        while !lacing.isEmpty {
            let chunk = Array(lacing.prefix(255))
            lacing.removeFirst(chunk.count)
            let length = chunk.reduce(0) { $0 + Int($1) }
            let isLastPage = lacing.isEmpty
            var flags: UInt8 = continued ? 1 : 0
            if first && !continued { flags |= 2 }
            if last && isLastPage { flags |= 4 }
            out += page(serial: serial, sequence: sequence, granule: isLastPage ? granule : UInt64.max, flags: flags,
                        lacing: chunk, body: Array(packet[bodyOffset..<(bodyOffset + length)]))
            sequence += 1
            bodyOffset += length
            continued = true
        }
        return out
    }

    static func vorbisIdentification(channels: UInt8 = 2, rate: UInt32 = 44_100, nominal: Int32 = 128_000) -> [UInt8] {
        [1] + Array("vorbis".utf8) + PackedBytes.le(UInt32(0)) + [channels] + PackedBytes.le(rate) + PackedBytes.le(Int32(0))
            + PackedBytes.le(nominal) + PackedBytes.le(Int32(0)) + [0xB8, 1]
    }

    static func vorbisComments(_ comments: [String]) -> [UInt8] {
        [3] + Array("vorbis".utf8) + VorbisCommentBuilder.block(comments) + [1]
    }

    static func opusHead(channels: UInt8 = 2, preSkip: UInt16 = 312, inputRate: UInt32 = 44_100) -> [UInt8] {
        Array("OpusHead".utf8) + [1, channels] + PackedBytes.le(preSkip) + PackedBytes.le(inputRate) + PackedBytes.le(Int16(0)) + [0]
    }

    static func opusTags(_ comments: [String]) -> [UInt8] { Array("OpusTags".utf8) + VorbisCommentBuilder.block(comments) }

    /// A whole file: identification page, comment pages, `audioPages` pages of fake audio
    /// whose granule grows to `finalGranule`, the last one flagged end-of-stream.
    static func file(identification: [UInt8], comments: [UInt8], finalGranule: UInt64, audioPages: Int = 4,
                     audioPageSize: Int = 500, serial: UInt32 = 0x1234_5678) -> [UInt8] {
        var sequence: UInt32 = 0
        var out = pages(packet: identification, serial: serial, sequence: &sequence, granule: 0, first: true)
        out += pages(packet: comments, serial: serial, sequence: &sequence, granule: 0)
        for index in stride(from: 1, through: audioPages, by: 1) {
            let granule = finalGranule * UInt64(index) / UInt64(audioPages)
            let audio = (0..<audioPageSize).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            out += pages(packet: audio, serial: serial, sequence: &sequence, granule: granule, last: index == audioPages)
        }
        return out
    }
}

/// MP4 atom trees (ISO/IEC 14496-12, iTunes `ilst`).
enum MP4Builder {
    static func code(_ type: String) -> [UInt8] { type.unicodeScalars.map { UInt8($0.value & 0xFF) } }
    static func atom(_ type: String, _ payload: [UInt8]) -> [UInt8] { PackedBytes.be(UInt32(payload.count + 8)) + code(type) + payload }
    static func atom64(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        PackedBytes.be(UInt32(1)) + code(type) + PackedBytes.be(UInt64(payload.count + 16)) + payload
    }
    static func full(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { atom(type, [version, 0, 0, 0] + payload) }

    static func ftyp() -> [UInt8] { atom("ftyp", code("M4A ") + PackedBytes.be(UInt32(0)) + code("M4A ") + code("mp42") + code("isom")) }

    /// `mvhd` or `mdhd` with the given timescale and duration, version 0 or 1.
    static func timeHeader(_ type: String, timescale: UInt32, duration: UInt64, version: UInt8 = 0) -> [UInt8] {
        let times = version == 1 ? PackedBytes.be(UInt64(0)) + PackedBytes.be(UInt64(0)) + PackedBytes.be(timescale) + PackedBytes.be(duration)
            : PackedBytes.be(UInt32(0)) + PackedBytes.be(UInt32(0)) + PackedBytes.be(timescale) + PackedBytes.be(UInt32(truncatingIfNeeded: duration))
        return full(type, version: version, times + [UInt8](repeating: 0, count: type == "mvhd" ? 80 : 4))
    }

    /// An `esds` with an optional AudioSpecificConfig (e.g. [0x12, 0x08]: AAC LC, 44.1 kHz, mono).
    static func esds(averageBitrate: UInt32, audioSpecificConfig: [UInt8] = []) -> [UInt8] {
        let specific: [UInt8] = audioSpecificConfig.isEmpty ? [] : [5, UInt8(audioSpecificConfig.count)] + audioSpecificConfig
        let decoderConfig: [UInt8] = [4, UInt8(13 + specific.count), 0x40, 0x15] + PackedBytes.u24BE(0) + PackedBytes.be(UInt32(200_000))
            + PackedBytes.be(averageBitrate) + specific
        let es: [UInt8] = [3, UInt8(3 + decoderConfig.count + 3), 0, 1, 0] + decoderConfig + [6, 1, 2]
        return full("esds", es)
    }

    /// An audio sample entry; `soundVersion` 1 adds the 16 bytes of a QuickTime version 1
    /// sound description, 2 writes the version 2 layout (rate as a Float64).
    static func audioEntry(_ type: String, channels: UInt16 = 2, bits: UInt16 = 16, rate: UInt32 = 44_100,
                           soundVersion: UInt16 = 0, children: [UInt8]) -> [UInt8] {
        var body = [UInt8](repeating: 0, count: 6) + PackedBytes.be(UInt16(1)) + PackedBytes.be(soundVersion) + [UInt8](repeating: 0, count: 6)
        if soundVersion == 2 {
            body += PackedBytes.be(UInt16(3)) + PackedBytes.be(UInt16(16)) + PackedBytes.be(UInt16(0xFFFE)) + PackedBytes.be(UInt16(0))
                + PackedBytes.be(UInt32(65_536)) + PackedBytes.be(UInt32(72)) + PackedBytes.be(Double(rate).bitPattern)
                + PackedBytes.be(UInt32(channels)) + PackedBytes.be(UInt32(0x7F00_0000)) + PackedBytes.be(UInt32(bits))
                + [UInt8](repeating: 0, count: 12)
        } else {
            body += PackedBytes.be(channels) + PackedBytes.be(bits) + PackedBytes.be(UInt32(0)) + PackedBytes.be(rate << 16)
            if soundVersion == 1 { body += [UInt8](repeating: 0, count: 16) }
        }
        return atom(type, body + children)
    }

    static func alacConfig(bits: UInt8 = 24, channels: UInt8 = 2, bitrate: UInt32 = 900_000, rate: UInt32 = 96_000) -> [UInt8] {
        full("alac", PackedBytes.be(UInt32(4096)) + [0, bits, 40, 10, 14, channels] + PackedBytes.be(UInt16(255)) + PackedBytes.be(UInt32(0))
             + PackedBytes.be(bitrate) + PackedBytes.be(rate))
    }

    static func trak(timescale: UInt32 = 44_100, duration: UInt64, entry: [UInt8], version: UInt8 = 0) -> [UInt8] {
        let stsd = full("stsd", PackedBytes.be(UInt32(1)) + entry)
        let hdlr = full("hdlr", PackedBytes.be(UInt32(0)) + code("soun") + [UInt8](repeating: 0, count: 13))
        let minf = atom("minf", atom("stbl", stsd))
        return atom("trak", atom("mdia", timeHeader("mdhd", timescale: timescale, duration: duration, version: version) + hdlr + minf))
    }

    static func data(_ type: UInt32, _ bytes: [UInt8]) -> [UInt8] { atom("data", PackedBytes.be(type) + PackedBytes.be(UInt32(0)) + bytes) }
    static func text(_ type: String, _ values: String...) -> [UInt8] { atom(type, values.flatMap { data(1, Array($0.utf8)) }) }
    static func pair(_ type: String, _ number: UInt16, _ total: UInt16) -> [UInt8] {
        atom(type, data(0, [0, 0] + PackedBytes.be(number) + PackedBytes.be(total) + (type == "trkn" ? [0, 0] : [])))
    }
    static func freeform(mean: String = "com.apple.iTunes", name: String, _ value: String) -> [UInt8] {
        atom("----", full("mean", Array(mean.utf8)) + full("name", Array(name.utf8)) + data(1, Array(value.utf8)))
    }

    /// `udta` → `meta` (full box) → `hdlr` + `ilst`.
    static func udta(items: [[UInt8]]) -> [UInt8] {
        let hdlr = full("hdlr", PackedBytes.be(UInt32(0)) + code("mdir") + code("appl") + [UInt8](repeating: 0, count: 9))
        return atom("udta", full("meta", hdlr + atom("ilst", items.flatMap { $0 })))
    }

    /// ftyp, then moov and mdat in the chosen order.
    static func file(moovChildren: [UInt8], mdatSize: Int = 2_000, moovFirst: Bool = true, mdat64: Bool = false) -> [UInt8] {
        let payload = [UInt8](repeating: 0x21, count: mdatSize)
        let mdat = mdat64 ? atom64("mdat", payload) : atom("mdat", payload)
        let moov = atom("moov", moovChildren)
        return ftyp() + (moovFirst ? moov + mdat : mdat + moov)
    }
}

enum ContainerMutator {
    /// `seed`'s copy of `bytes` with a few byte flips, an overwritten 32-bit size, a cut or a
    /// duplicated slice.
    static func mutate(_ bytes: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        guard !out.isEmpty else { return out }
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: out[Int.random(in: 0..<out.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 1:
                let at = Int.random(in: 0..<out.count, using: &rng)
                let huge: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 1], [0, 0, 0, 0], [0x80, 0, 0, 0]]
                    .randomElement(using: &rng)!
                for (i, b) in huge.enumerated() where at + i < out.count { out[at + i] = b }
            case 2: out.removeLast(Int.random(in: 0..<out.count, using: &rng))
            case 3:
                let from = Int.random(in: 0..<out.count, using: &rng)
                let slice = out[from..<min(out.count, from + Int.random(in: 1...64, using: &rng))]
                out.insert(contentsOf: slice, at: Int.random(in: 0...out.count, using: &rng))
            default:
                let at = Int.random(in: 0..<out.count, using: &rng)
                out[at] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            }
            if out.isEmpty { break }
        }
        return out
    }
}

/// Runs `read` on every prefix and on 3,000 mutations of `fixture`; any error other than
/// a `MediaTagsError` is returned as a failure description.
func containerRobustnessFailures(_ fixture: [UInt8], seed: UInt64, iterations: Int = 3_000,
                        read: ([UInt8]) throws -> MediaInfo) -> [String] {
    var failures: [String] = []
    func attempt(_ bytes: [UInt8], _ what: String) {
        do { _ = try read(bytes) } catch is MediaTagsError {} catch { failures.append("\(what): \(error)") }
    }
    for length in 0...fixture.count { attempt(Array(fixture.prefix(length)), "prefix \(length)") }
    var rng = SplitMix64(seed: seed)
    for index in 0..<iterations { attempt(ContainerMutator.mutate(fixture, using: &rng), "mutation \(index)") }
    return failures
}

/// Runs ffmpeg to make a real file `name` (extension picks the container) with a 3 s sine
/// and the tags `expectContainerFFmpegTags` checks, plus a 16×16 PNG front cover when `cover` is
/// set. ffmpeg is found as AudioCore finds it (`$QUINTET_FFMPEG`, else the PATH); without it the
/// test fails with install advice (scripts/bootstrap.sh installs it), it is never skipped.
func ffmpegContainerFixture(_ name: String, codecArguments: [String] = [], cover: Bool = false) throws -> URL {
    let ffmpeg = try FFmpegDecoder()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediatags-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    func run(_ arguments: [String]) throws { try ffmpeg.run(arguments) }
    var inputs = ["-f", "lavfi", "-i", "sine=frequency=440:duration=3"]
    if cover {
        let png = folder.appendingPathComponent("cover.png").path
        try run(["-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1", "-y", png])
        inputs += ["-i", png, "-map", "0", "-map", "1", "-c:v", "copy", "-disposition:v", "attached_pic"]
    }
    let output = folder.appendingPathComponent(name)
    let tags = ["title=Sine Title", "artist=Sine Artist", "album=Sine Album", "album_artist=Sine Band",
                "composer=Sine Composer", "genre=Jazz", "date=2001", "track=3/12", "disc=1/2"]
    try run(inputs + codecArguments + tags.flatMap { ["-metadata", $0] } + ["-y", output.path])
    return output
}

/// The tags `ffmpegContainerFixture` writes, as every reader must read them back.
func expectContainerFFmpegTags(_ tags: TagSet, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(tags.title == "Sine Title", sourceLocation: sourceLocation)
    #expect(tags.artists == ["Sine Artist"], sourceLocation: sourceLocation)
    #expect(tags.album == "Sine Album", sourceLocation: sourceLocation)
    #expect(tags.albumArtists == ["Sine Band"], sourceLocation: sourceLocation)
    #expect(tags.composers == ["Sine Composer"], sourceLocation: sourceLocation)
    #expect(tags.genres == ["Jazz"], sourceLocation: sourceLocation)
    #expect(tags.year == 2001, sourceLocation: sourceLocation)
    #expect(tags.trackNumber == 3 && tags.trackTotal == 12, sourceLocation: sourceLocation)
    #expect(tags.discNumber == 1 && tags.discTotal == 2, sourceLocation: sourceLocation)
}
