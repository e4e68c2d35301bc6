import Foundation

/// Reader of Ogg Vorbis and Ogg Opus files: codec parameters from the identification
/// header, tags from the comment header, duration from the last granule position.
///
/// Follows RFC 3533 (the Ogg encapsulation format: "OggS" pages with a 27-byte header and
/// a lacing table, packets continuing across pages while a lacing value is 255), the
/// Vorbis I specification §4.2 (identification and comment headers) and RFC 7845 (Ogg
/// Opus: "OpusHead", "OpusTags", pre-skip, granule positions always at 48 kHz).
///
/// ```swift
/// let info = try OggFile.read(FileByteSource(path: "song.opus"))
/// print(info.stream.codec, info.stream.duration ?? 0)   // "opus" 183.2
/// ```
///
/// Edge cases: only the first logical stream is read (after an Ogg Skeleton stream, if
/// any), pages of other streams are skipped;
/// the duration comes from the last page of that stream in the file's final 64 KiB, and is
/// nil when none is found; a file cut before the comment header has empty tags; FLAC in Ogg
/// (.oga) is read as codec "flac"; other codecs (Speex, Theora) are `.unrecognized`. Page
/// CRCs are checked only to tell the last page from look-alike bytes.
public enum OggFile {
    /// Bytes at the end of the file searched for the last page.
    static let tailLength = 64 * 1024
    /// At most this many pages are read looking for the header packets.
    static let maxPages = 20_000
    /// Header packets larger than this are refused (pictures in comments stay far below).
    static let maxPacketLength = 64 * 1024 * 1024
    /// At most this many candidate last pages have their CRC computed.
    static let maxCRCChecks = 64

    enum Codec { case vorbis, opus, flac }

    /// Reads tags and stream info from an Ogg Vorbis or Ogg Opus file.
    /// - Throws: `.unrecognized` without an "OggS" page at byte 0 or for another codec,
    ///   `.malformed` when the first packet is cut off.
    public static func read(_ source: some ByteSource) throws -> MediaInfo {
        guard try source.read(at: 0, length: 4) == Array("OggS".utf8) else {
            throw MediaTagsError.unrecognized("no \"OggS\" page at byte 0")
        }
        let (serial, packets, headerEnd) = try headerPackets(source, wanted: 2)
        guard let first = packets.first else { throw MediaTagsError.malformed("Ogg identification packet is cut off") }
        var stream: StreamInfo
        let codec: Codec
        var preSkip = 0
        // Where the comment block starts in the second packet, if that packet is one.
        let comment = packets.count > 1 ? packets[1] : []
        let commentStart: Int?
        var reader = ByteReader(first)
        if first.starts(with: [1] + Array("vorbis".utf8)) {
            codec = .vorbis
            try reader.skip(7 + 4)
            let channels = Int(try reader.uint8())
            let rate = Int(try reader.uint32LE())
            _ = try reader.uint32LE()
            let nominal = Int(Int32(bitPattern: try reader.uint32LE()))
            stream = StreamInfo(codec: "vorbis", bitrate: nominal > 0 ? nominal : nil,
                                sampleRate: rate > 0 ? rate : nil, channels: channels)
            commentStart = comment.starts(with: [3] + Array("vorbis".utf8)) ? 7 : nil
        } else if first.starts(with: Array("OpusHead".utf8)) {
            codec = .opus
            try reader.skip(9)
            let channels = Int(try reader.uint8())
            preSkip = Int(try reader.uint16LE())
            // The input rate that follows only says what the encoder was given: Opus always
            // decodes at 48 kHz (RFC 7845 §5.1).
            stream = StreamInfo(codec: "opus", sampleRate: 48_000, channels: channels)
            commentStart = comment.starts(with: Array("OpusTags".utf8)) ? 8 : nil
        } else if first.starts(with: [0x7F] + Array("FLAC".utf8)) {
            // Ogg FLAC mapping (xiph.org/flac/ogg_mapping.html): 0x7F "FLAC", version 1.0,
            // header count, "fLaC", a STREAMINFO block; then one metadata block per packet,
            // the first a VORBIS_COMMENT (type 4).
            codec = .flac
            try reader.skip(9)
            guard try reader.bytes(4) == Array("fLaC".utf8) else { throw MediaTagsError.malformed("Ogg FLAC header without \"fLaC\"") }
            try reader.skip(4)
            stream = try FLACFile.streamInfo(try reader.bytes(34))
            commentStart = comment.first.map { $0 & 0x7F } == 4 ? 4 : nil
        } else {
            throw MediaTagsError.unrecognized("Ogg stream of an unknown codec")
        }

        var tags = TagSet()
        if let commentStart {
            var comments = ByteReader(comment, offset: commentStart)
            tags = (try? VorbisComment.parse(&comments)) ?? TagSet()
        }

        if let granule = try lastGranule(source, serial: serial) {
            let rate = codec == .opus ? 48_000.0 : Double(stream.sampleRate ?? 0)
            let samples = Double(granule) - Double(preSkip)
            if rate > 0, samples > 0 {
                stream.duration = samples / rate
                // Without a nominal bitrate: the bytes after the comment header (so a large
                // embedded cover does not count as audio) over the duration.
                if stream.bitrate == nil, let seconds = stream.duration {
                    let bits = Double(max(0, source.count - headerEnd)) * 8 / seconds
                    if bits.isFinite, bits < Double(Int32.max) { stream.bitrate = Int(bits.rounded()) }
                }
            }
        }
        return MediaInfo(format: .ogg, tags: tags, stream: stream)
    }

    /// The serial number of the first page, the first `wanted` packets of that stream and
    /// the offset just past the page where the last of them ends. Stops early (with fewer
    /// packets) at the end of the file, a broken page or the end of the stream.
    static func headerPackets(_ source: some ByteSource, wanted: Int) throws -> (serial: UInt32, packets: [[UInt8]], end: Int) {
        var offset = 0
        var serial: UInt32?
        var packets: [[UInt8]] = []
        var partial: [UInt8] = []
        var skipped: UInt32?
        for _ in 0..<maxPages {
            guard let page = try readPage(source, at: offset) else { break }
            offset = page.end
            if serial == nil {
                // An Ogg Skeleton stream ("fishead") may come first: pass over it.
                if page.isFirst, page.body.starts(with: Array("fishead\u{0}".utf8)) { skipped = page.serial; continue }
                if page.serial == skipped { continue }
                serial = page.serial
            }
            guard page.serial == serial else { continue }
            var bodyOffset = 0
            for lacing in page.lacing {
                let take = min(lacing, page.body.count - bodyOffset)
                partial += page.body[bodyOffset..<(bodyOffset + take)]
                bodyOffset += take
                guard partial.count <= maxPacketLength else {
                    throw MediaTagsError.malformed("Ogg header packet over \(maxPacketLength) bytes")
                }
                // A lacing value below 255 ends a packet; 255 at the page's end continues it.
                if lacing < 255 {
                    packets.append(partial)
                    partial = []
                    if packets.count >= wanted { return (page.serial, packets, page.end) }
                }
            }
            if page.isLast { break }
        }
        return (serial ?? 0, packets, offset)
    }

    struct Page {
        var serial: UInt32
        var granule: UInt64
        var isFirst: Bool
        var isLast: Bool
        var lacing: [Int]
        var body: [UInt8]
        var end: Int
    }

    /// The page at `offset` (RFC 3533 §6), or nil when there is none or it is cut off.
    static func readPage(_ source: some ByteSource, at offset: Int) throws -> Page? {
        let header = try source.read(at: offset, length: 27)
        guard header.count == 27, header.starts(with: Array("OggS".utf8)), header[4] == 0 else { return nil }
        var reader = ByteReader(header)
        try reader.skip(5)
        let flags = try reader.uint8()
        let granule = try reader.uint64LE()
        let serial = try reader.uint32LE()
        try reader.skip(8)
        let segments = Int(try reader.uint8())
        let table = try source.read(at: offset + 27, length: segments)
        guard table.count == segments else { return nil }
        let bodyLength = table.reduce(0) { $0 + Int($1) }
        let body = try source.read(at: offset + 27 + segments, length: bodyLength)
        guard body.count == bodyLength else { return nil }
        return Page(serial: serial, granule: granule, isFirst: flags & 0x02 != 0, isLast: flags & 0x04 != 0, lacing: table.map(Int.init),
                    body: body, end: offset + 27 + segments + bodyLength)
    }

    /// The granule position of the last page of stream `serial` in the file's tail, or nil.
    /// A granule of −1 (no packet ends on that page) is passed over, and so is an "OggS"
    /// inside packet data: the last page with a valid CRC wins; a page cut off by the end of
    /// the file (whose CRC cannot be checked) is used only when no page checks out.
    static func lastGranule(_ source: some ByteSource, serial: UInt32) throws -> UInt64? {
        let start = max(0, source.count - tailLength)
        let tail = try source.read(at: start, length: source.count - start)
        guard tail.count >= 27 else { return nil }
        var index = tail.count - 27
        var unchecked: UInt64?
        var crcChecks = 0
        // Hostile tails full of look-alike pages cost at most `maxCRCChecks` page checksums.
        while index >= 0, crcChecks < maxCRCChecks {
            defer { index -= 1 }
            guard tail[index] == 0x4F, tail[index + 1] == 0x67, tail[index + 2] == 0x67, tail[index + 3] == 0x53,
                  tail[index + 4] == 0 else { continue }
            var reader = ByteReader(tail, offset: index + 6)
            let granule = try reader.uint64LE()
            let pageSerial = try reader.uint32LE()
            guard pageSerial == serial, granule != UInt64.max, granule < UInt64(1) << 62 else { continue }
            guard let end = pageEnd(tail, at: index) else {
                if unchecked == nil { unchecked = granule }
                continue
            }
            crcChecks += 1
            if hasValidCRC(tail[index..<end]) { return granule }
        }
        return unchecked
    }

    /// One past the last byte of the page at `index` in `bytes`, or nil when it runs past them.
    static func pageEnd(_ bytes: [UInt8], at index: Int) -> Int? {
        let segments = Int(bytes[index + 26])
        guard index + 27 + segments <= bytes.count else { return nil }
        let end = index + 27 + segments + bytes[(index + 27)..<(index + 27 + segments)].reduce(0) { $0 + Int($1) }
        return end <= bytes.count ? end : nil
    }

    /// Whether a whole page's CRC field (bytes 22–25, little-endian) matches its content:
    /// CRC-32 with polynomial 0x04C11DB7, initial value 0, no reflection (RFC 3533 §6).
    static func hasValidCRC(_ page: ArraySlice<UInt8>) -> Bool {
        var crc: UInt32 = 0
        for (offset, byte) in page.enumerated() {
            let value = (22..<26).contains(offset) ? 0 : byte
            crc = (crc << 8) ^ crcTable[Int((crc >> 24) ^ UInt32(value))]
        }
        let base = page.startIndex
        let stored = UInt32(page[base + 22]) | UInt32(page[base + 23]) << 8 | UInt32(page[base + 24]) << 16 | UInt32(page[base + 25]) << 24
        return crc == stored
    }

    static let crcTable: [UInt32] = (0..<256).map { index in
        var r = UInt32(index) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }
}
