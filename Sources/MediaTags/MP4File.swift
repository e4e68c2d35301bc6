import Foundation

/// Reader of MP4/M4A audio files: duration and codec from the `moov` atom, tags from the
/// iTunes-style `ilst` item list.
///
/// Follows ISO/IEC 14496-12 (ISO base media file format: boxes with 32-bit sizes, size 1 →
/// 64-bit largesize, size 0 → to the end of the parent; `mvhd`/`mdhd` version 0 and 1;
/// `stsd` audio sample entries), ISO/IEC 14496-1 §7.2.6 (the `esds` ES and decoder config
/// descriptors) and Apple's QuickTime File Format "Metadata" chapter (`meta` → `ilst` →
/// item → `data` atoms with a 24-bit type: 1 UTF-8, 21 integer, 0 binary, 13/14 JPEG/PNG;
/// freeform `----` items with `mean` and `name`).
///
/// ```swift
/// let info = try MP4File.read(FileByteSource(path: "song.m4a"))
/// print(info.tags.trackNumber ?? 0, info.stream.codec)   // 3 "aac"
/// ```
///
/// Edge cases: the top level is walked through the `ByteSource`, so a `moov` after a large
/// `mdat` costs one small read per atom; an atom whose size runs past its parent is cut to
/// the parent (truncated files keep their tags); an atom smaller than its own header is
/// `.malformed`; a damaged leaf (`mvhd`, `stsd`, one `ilst` item) is passed over and costs
/// only its own values; nesting deeper than 16 levels is not followed.
public enum MP4File {
    static let maxDepth = 16
    static let maxTopLevelAtoms = 100_000
    static let maxMoovLength = 256 * 1024 * 1024
    static let topLevelTypes: Set<UInt32> = Set(["ftyp", "moov", "mdat", "free", "skip", "wide", "pdin", "uuid"].map(fourCC))

    /// Reads tags and stream info from an MP4/M4A file.
    /// - Throws: `.unrecognized` when the file does not start with an ISO BMFF atom,
    ///   `.malformed` when no `moov` atom is found or an atom size is impossible.
    public static func read(_ source: some ByteSource) throws -> MediaInfo {
        var offset = 0
        var moov: [UInt8]?
        for index in 0..<maxTopLevelAtoms {
            guard offset + 8 <= source.count else { break }
            let header = try source.read(at: offset, length: 16)
            if index == 0, !topLevelTypes.contains(header[4..<8].reduce(0) { $0 << 8 | UInt32($1) }) {
                throw MediaTagsError.unrecognized("first atom is not an MP4 atom such as ftyp or moov")
            }
            let atom = try atomHeader(header, available: source.count - offset)
            if atom.type == Atom.moov {
                let length = atom.size - atom.headerLength
                guard length <= maxMoovLength else { throw MediaTagsError.malformed("moov atom of \(length) bytes is too large") }
                moov = try source.read(at: offset + atom.headerLength, length: length)
                break
            }
            offset += atom.size
        }
        guard let moov else {
            if offset == 0 { throw MediaTagsError.unrecognized("file too short for an MP4 atom") }
            throw MediaTagsError.malformed("no moov atom")
        }
        var movie = Movie(data: moov)
        try movie.walk(0..<moov.count, depth: 0)
        var stream = movie.stream ?? StreamInfo(codec: "unknown")
        // A zero duration (fragmented files keep theirs in `moof` atoms) counts as unknown.
        if let duration = [movie.trackDuration, movie.movieDuration].compactMap({ $0 }).first(where: { $0 > 0 }) {
            stream.duration = duration
            if stream.bitrate == nil {
                let bits = Double(source.count) * 8 / duration
                if bits.isFinite, bits < Double(Int32.max) { stream.bitrate = Int(bits.rounded()) }
            }
        }
        return MediaInfo(format: .mp4, tags: movie.tags, stream: stream)
    }

    /// The size, type and header length of the atom whose first bytes are `header`, with
    /// `available` bytes left in its parent. A size past the parent is cut to the parent.
    static func atomHeader(_ bytes: [UInt8], at offset: Int = 0, end: Int? = nil,
                           available: Int) throws -> (type: UInt32, size: Int, headerLength: Int) {
        var reader = ByteReader(bytes, offset: offset, end: end ?? bytes.count)
        let size32 = try reader.uint32BE()
        let type = try reader.uint32BE()
        var headerLength = 8
        var size: UInt64 = UInt64(size32)
        if size32 == 1 {
            size = try reader.uint64BE()
            headerLength = 16
        } else if size32 == 0 {
            size = UInt64(max(0, available))
        }
        guard size >= UInt64(headerLength) else {
            throw MediaTagsError.malformed("atom size \(size) is smaller than its \(headerLength)-byte header")
        }
        guard available >= headerLength else { throw MediaTagsError.malformed("atom header cut off") }
        return (type, Int(min(size, UInt64(available))), headerLength)
    }

    /// A four-character code as a big-endian integer; "©" (U+00A9) becomes the byte 0xA9.
    static func fourCC(_ text: String) -> UInt32 {
        text.unicodeScalars.prefix(4).reduce(0) { $0 << 8 | ($1.value & 0xFF) }
    }
}

extension MP4File {
    /// The walk over the bytes of a `moov` atom, collecting what it finds.
    struct Movie {
        let data: [UInt8]
        var tags = TagSet()
        var stream: StreamInfo?
        var movieDuration: Double?
        /// Duration of the first audio track (its `mdhd`).
        var trackDuration: Double?
        private var currentTrackDuration: Double?

        init(data: [UInt8]) { self.data = data }

        /// The atoms directly inside `range`.
        func children(_ range: Range<Int>) throws -> [(type: UInt32, payload: Range<Int>)] {
            var result: [(type: UInt32, payload: Range<Int>)] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                let atom = try atomHeader(data, at: offset, end: min(offset + 16, range.upperBound),
                                          available: range.upperBound - offset)
                result.append((atom.type, (offset + atom.headerLength)..<(offset + atom.size)))
                offset += atom.size
            }
            return result
        }

        mutating func walk(_ range: Range<Int>, depth: Int) throws {
            guard depth < maxDepth else { return }
            for (type, payload) in try children(range) {
                switch type {
                case Atom.trak:
                    let hadStream = stream != nil
                    currentTrackDuration = nil
                    try walk(payload, depth: depth + 1)
                    if !hadStream, stream != nil { trackDuration = currentTrackDuration }
                case Atom.mdia, Atom.minf, Atom.stbl, Atom.udta:
                    try walk(payload, depth: depth + 1)
                // Leaf atoms that do not parse are passed over, so a damaged one costs only itself.
                case Atom.mvhd: movieDuration = (try? timeHeader(payload)) ?? nil
                case Atom.mdhd: currentTrackDuration = (try? timeHeader(payload)) ?? nil
                case Atom.stsd where stream == nil: try? sampleDescriptions(payload)
                case Atom.meta:
                    // A full box (4 bytes version/flags) in MP4; QuickTime files omit them.
                    let isQuickTime = payload.count >= 8 && Array(data[(payload.lowerBound + 4)..<(payload.lowerBound + 8)]) == Array("hdlr".utf8)
                    let start = isQuickTime ? payload.lowerBound : min(payload.upperBound, payload.lowerBound + 4)
                    try walk(start..<payload.upperBound, depth: depth + 1)
                case Atom.ilst:
                    for item in try children(payload) { try? self.item(item.type, item.payload) }
                default: break
                }
            }
        }

        /// Seconds from an `mvhd` or `mdhd` (version 0: 32-bit times, version 1: 64-bit);
        /// nil for a zero timescale or the "unknown" all-ones duration.
        func timeHeader(_ range: Range<Int>) throws -> Double? {
            var reader = ByteReader(data, offset: range.lowerBound, end: range.upperBound)
            let version = try reader.uint8()
            try reader.skip(3)
            let timescale: UInt32
            let duration: UInt64
            if version == 1 {
                try reader.skip(16)
                timescale = try reader.uint32BE()
                duration = try reader.uint64BE()
                if duration == UInt64.max { return nil }
            } else {
                try reader.skip(8)
                timescale = try reader.uint32BE()
                duration = UInt64(try reader.uint32BE())
                if duration == UInt64(UInt32.max) { return nil }
            }
            guard timescale > 0 else { return nil }
            return Double(duration) / Double(timescale)
        }

        /// The first `mp4a` or `alac` entry of an `stsd` (ISO/IEC 14496-12 §12.2.3, with the
        /// QuickTime sound description versions 1 and 2).
        mutating func sampleDescriptions(_ range: Range<Int>) throws {
            guard range.count >= 8 else { return }
            for (type, payload) in try children((range.lowerBound + 8)..<range.upperBound) {
                let codec: String
                switch type {
                case Atom.mp4a: codec = "aac"
                case Atom.alac: codec = "alac"
                default: continue
                }
                var reader = ByteReader(data, offset: payload.lowerBound, end: payload.upperBound)
                try reader.skip(8)
                let version = try reader.uint16BE()
                try reader.skip(6)
                var channels = Int(try reader.uint16BE())
                var bits = Int(try reader.uint16BE())
                try reader.skip(4)
                var rate = Int(try reader.uint32BE() >> 16)
                var childStart = payload.lowerBound + 28
                if version == 1 { childStart += 16 }
                if version == 2 {
                    try reader.skip(4)
                    rate = Int(exactly: Double(bitPattern: try reader.uint64BE()).rounded()) ?? 0
                    channels = Int(try reader.uint32BE())
                    try reader.skip(4)
                    bits = Int(try reader.uint32BE())
                    childStart += 36
                }
                var info = StreamInfo(codec: codec, sampleRate: rate > 0 ? rate : nil, channels: channels > 0 ? channels : nil,
                                      bitsPerSample: codec == "alac" && bits > 0 ? bits : nil)
                if childStart <= payload.upperBound {
                    try decoderConfig(childStart..<payload.upperBound, into: &info, depth: 0)
                }
                stream = info
                return
            }
        }

        /// Bitrate (and for ALAC the exact format) from `esds`, `alac` or a QuickTime `wave`.
        func decoderConfig(_ range: Range<Int>, into info: inout StreamInfo, depth: Int) throws {
            guard depth < 4 else { return }
            for (type, payload) in try children(range) {
                var reader = ByteReader(data, offset: payload.lowerBound, end: payload.upperBound)
                switch type {
                case Atom.esds:
                    guard let config = try? MP4File.esdsDecoderConfig(&reader) else { continue }
                    if let bitrate = config.bitrate { info.bitrate = bitrate }
                    if let channels = config.channels { info.channels = channels }
                case Atom.alac:
                    // ALACSpecificConfig: version/flags, frameLength, compatibleVersion, bitDepth,
                    // pb, mb, kb, numChannels, maxRun, maxFrameBytes, avgBitRate, sampleRate.
                    guard (try? reader.skip(9)) != nil else { continue }
                    let bits = Int(try reader.uint8())
                    try reader.skip(3)
                    let channels = Int(try reader.uint8())
                    try reader.skip(6)
                    let bitrate = Int(try reader.uint32BE())
                    let rate = Int(try reader.uint32BE())
                    if bits > 0 { info.bitsPerSample = bits }
                    if channels > 0 { info.channels = channels }
                    if bitrate > 0 { info.bitrate = bitrate }
                    if rate > 0 { info.sampleRate = rate }
                case Atom.wave: try decoderConfig(payload, into: &info, depth: depth + 1)
                default: break
                }
            }
        }
    }

    /// The average bitrate and channel count of an `esds` payload: ES_Descriptor (tag 3),
    /// DecoderConfigDescriptor (tag 4: objectType, streamType, bufferSize, maxBitrate,
    /// avgBitrate), DecoderSpecificInfo (tag 5: the AudioSpecificConfig, whose 4-bit channel
    /// configuration is more reliable than the sample entry's channel count, which writers
    /// often leave at 2). ISO/IEC 14496-1 §7.2.6, ISO/IEC 14496-3 §1.6.2.1.
    static func esdsDecoderConfig(_ reader: inout ByteReader) throws -> (bitrate: Int?, channels: Int?) {
        var bitrate: Int?
        try reader.skip(4)
        for _ in 0..<8 where !reader.isAtEnd {
            let tag = try reader.uint8()
            var length = 0
            for _ in 0..<4 {
                let byte = try reader.uint8()
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            switch tag {
            case 3:
                try reader.skip(2)
                let flags = try reader.uint8()
                if flags & 0x80 != 0 { try reader.skip(2) }
                if flags & 0x40 != 0 { try reader.skip(Int(try reader.uint8())) }
                if flags & 0x20 != 0 { try reader.skip(2) }
            case 4:
                try reader.skip(9)
                let average = Int(try reader.uint32BE())
                bitrate = average > 0 ? average : nil
            case 5:
                // Bits: object type (5, or 5 + 6 when 31), frequency index (4, + 24 when 15), channels (4).
                let bits = try reader.bytes(min(length, 6, reader.remaining)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                var available = 8 * min(length, 6)
                func take(_ count: Int) -> UInt64? {
                    guard available >= count else { return nil }
                    available -= count
                    return (bits >> UInt64(available)) & ((1 << UInt64(count)) - 1)
                }
                if take(5) == 31 { _ = take(6) }
                if take(4) == 15 { _ = take(24) }
                let channels = take(4).map(Int.init) ?? 0
                return (bitrate, (1...6).contains(channels) ? channels : channels == 7 ? 8 : nil)
            default:
                try reader.skip(length)
            }
        }
        return (bitrate, nil)
    }
}

extension MP4File.Movie {
    /// One `ilst` item: its `data` atoms (and for `----` its `name`) mapped onto `tags`.
    mutating func item(_ type: UInt32, _ range: Range<Int>) throws {
        var values: [(type: UInt32, bytes: [UInt8])] = []
        var freeformName: String?
        for (child, payload) in try children(range) where payload.count >= 4 {
            if child == Atom.data, payload.count >= 8 {
                let kind = UInt32(data[payload.lowerBound + 1]) << 16 | UInt32(data[payload.lowerBound + 2]) << 8
                    | UInt32(data[payload.lowerBound + 3])
                values.append((kind, Array(data[(payload.lowerBound + 8)..<payload.upperBound])))
            } else if child == Atom.name {
                freeformName = String(decoding: data[(payload.lowerBound + 4)..<payload.upperBound], as: UTF8.self)
            }
        }
        let texts = values.compactMap { value -> String? in
            let text: String? = switch value.type {
            case 1: String(decoding: value.bytes, as: UTF8.self)
            case 2: String(bytes: value.bytes, encoding: .utf16BigEndian)
            default: nil
            }
            // Some writers end strings with NULs; they are not part of the value.
            let trimmed = text.map { $0.utf8.last == 0 ? String($0.reversed().drop { $0 == "\u{0}" }.reversed()) : $0 }
            return trimmed.flatMap { $0.isEmpty ? nil : $0 }
        }
        let integer = values.first.flatMap { Self.integer($0.bytes) }
        switch type {
        case Atom.cNam: tags.title = tags.title ?? texts.first
        case Atom.cART: tags.artists += texts
        case Atom.aART: tags.albumArtists += texts
        case Atom.cAlb: tags.album = tags.album ?? texts.first
        case Atom.cWrt: tags.composers += texts
        case Atom.cGen: tags.genres += texts
        case Atom.cCmt: tags.comment = tags.comment ?? texts.first
        case Atom.cDay:
            if let date = texts.first {
                tags.date = date
                tags.year = TagValues.year(date)
            }
        case Atom.gnre:
            if let index = integer, index > 0, let name = ID3Genre.name(index - 1) { tags.genres.append(name) }
        case Atom.trkn, Atom.disk:
            guard let bytes = values.first?.bytes, bytes.count >= 4 else { break }
            let number = Int(bytes[2]) << 8 | Int(bytes[3])
            let total = bytes.count >= 6 ? Int(bytes[4]) << 8 | Int(bytes[5]) : 0
            if type == Atom.trkn {
                tags.trackNumber = number > 0 ? number : nil
                tags.trackTotal = total > 0 ? total : nil
            } else {
                tags.discNumber = number > 0 ? number : nil
                tags.discTotal = total > 0 ? total : nil
            }
        case Atom.tmpo:
            if let bpm = integer, bpm > 0, bpm < 1_000 { tags.bpm = Double(bpm) }
        case Atom.cpil: tags.compilation = (integer ?? 0) != 0
        case Atom.covr:
            for value in values where !value.bytes.isEmpty {
                let mime = switch value.type {
                case 13: "image/jpeg"
                case 14: "image/png"
                case 27: "image/bmp"
                default: TagValues.imageMimeType(value.bytes)
                }
                tags.pictures.append(TagSet.Picture(type: 3, mimeType: mime, description: "", data: Data(value.bytes)))
            }
        case Atom.freeform:
            guard let name = freeformName, !name.isEmpty, !texts.isEmpty else { break }
            if name.uppercased() == "PERFORMER" {
                tags.credits += texts.compactMap { TagSet.Credit(performer: $0) }
            } else {
                tags.custom[name.uppercased(), default: []] += texts
            }
        default: break
        }
    }

    /// A big-endian unsigned integer of 1 to 8 bytes (data type 21 or 0); nil otherwise.
    static func integer(_ bytes: [UInt8]) -> Int? {
        guard (1...8).contains(bytes.count) else { return nil }
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(exactly: value)
    }
}

/// The four-character codes the MP4 reader matches, as big-endian integers (constants, so a
/// `switch` over atom types compares integers instead of building codes from strings).
enum Atom {
    static let freeform: UInt32 = 0x2D2D2D2D // "----"
    static let cART: UInt32 = 0xA9415254 // "©ART"
    static let cAlb: UInt32 = 0xA9616C62 // "©alb"
    static let cCmt: UInt32 = 0xA9636D74 // "©cmt"
    static let cDay: UInt32 = 0xA9646179 // "©day"
    static let cGen: UInt32 = 0xA967656E // "©gen"
    static let cNam: UInt32 = 0xA96E616D // "©nam"
    static let cWrt: UInt32 = 0xA9777274 // "©wrt"
    static let aART: UInt32 = 0x61415254 // "aART"
    static let alac: UInt32 = 0x616C6163 // "alac"
    static let covr: UInt32 = 0x636F7672 // "covr"
    static let cpil: UInt32 = 0x6370696C // "cpil"
    static let data: UInt32 = 0x64617461 // "data"
    static let disk: UInt32 = 0x6469736B // "disk"
    static let esds: UInt32 = 0x65736473 // "esds"
    static let gnre: UInt32 = 0x676E7265 // "gnre"
    static let ilst: UInt32 = 0x696C7374 // "ilst"
    static let mdhd: UInt32 = 0x6D646864 // "mdhd"
    static let mdia: UInt32 = 0x6D646961 // "mdia"
    static let meta: UInt32 = 0x6D657461 // "meta"
    static let minf: UInt32 = 0x6D696E66 // "minf"
    static let moov: UInt32 = 0x6D6F6F76 // "moov"
    static let mp4a: UInt32 = 0x6D703461 // "mp4a"
    static let mvhd: UInt32 = 0x6D766864 // "mvhd"
    static let name: UInt32 = 0x6E616D65 // "name"
    static let stbl: UInt32 = 0x7374626C // "stbl"
    static let stsd: UInt32 = 0x73747364 // "stsd"
    static let tmpo: UInt32 = 0x746D706F // "tmpo"
    static let trak: UInt32 = 0x7472616B // "trak"
    static let trkn: UInt32 = 0x74726B6E // "trkn"
    static let udta: UInt32 = 0x75647461 // "udta"
    static let wave: UInt32 = 0x77617665 // "wave"
}
