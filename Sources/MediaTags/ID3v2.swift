import Foundation

/// Reads ID3v2.2, 2.3 and 2.4 tags into a `TagSet`, following id3.org's "ID3v2 informal
/// standard" (v2.2.0, 1998), "ID3 tag version 2.3.0" (1999) and "ID3 tag version 2.4.0 —
/// Main Structure" (2000).
///
/// Edge cases: unsynchronisation is undone over the whole tag in v2.2/2.3 and per frame in
/// v2.4 (tag flag or frame flag); extended headers are skipped; a v2.4 footer counts in
/// `Header.totalSize`; v2.4 frame sizes are synchsafe, with a fallback to plain sizes when
/// the synchsafe reading does not land on a frame (iTunes wrote such tags); compressed or
/// encrypted frames, and v2.2 tags flagged as compressed, are skipped. A truncated tag
/// yields the frames that are complete. Text frames are split on NUL into several values in
/// every version (v2.3 says to ignore text after a NUL, but taggers such as mutagen and
/// foobar2000 write multiple values that way there too).
///
/// ```swift
/// let tags = try ID3v2.read(bytesStartingWithID3)
/// print(tags.title ?? "untitled")
/// ```
public enum ID3v2 {
    /// The most bytes of one tag that readers load (64 MiB): larger tags are read up to
    /// this limit, so a hostile size cannot make a reader hold a whole file in memory.
    public static let maxTagBytes = 64 << 20

    /// The 10-byte tag header (§3.1).
    public struct Header: Sendable, Equatable {
        /// 2, 3 or 4.
        public var major: Int
        public var revision: Int
        public var flags: UInt8
        /// Bytes after the header, excluding the footer (synchsafe on disk).
        public var size: Int

        /// Parses the first 10 bytes of `bytes`; nil unless they are an ID3v2.2–2.4 header.
        public init?(_ bytes: [UInt8]) {
            guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,
                  (2...4).contains(bytes[3]), bytes[4] != 0xFF,
                  bytes[6..<10].allSatisfy({ $0 < 0x80 }) else { return nil }
            major = Int(bytes[3])
            revision = Int(bytes[4])
            flags = bytes[5]
            size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        }

        public var isUnsynchronised: Bool { flags & 0x80 != 0 }
        /// v2.3/2.4 only: in v2.2 this bit means the (unreadable) compressed tag.
        public var hasExtendedHeader: Bool { major >= 3 && flags & 0x40 != 0 }
        public var hasFooter: Bool { major == 4 && flags & 0x10 != 0 }
        /// Header + body + footer: where the bytes after the tag begin.
        public var totalSize: Int { 10 + size + (hasFooter ? 10 : 0) }
    }

    /// The tags in `bytes`, which start with an ID3v2 header; the tag may be cut short.
    /// - Throws: `MediaTagsError.unrecognized` without an ID3v2.2–2.4 header,
    ///   `.malformed` when the extended header runs past the tag.
    public static func read(_ bytes: [UInt8]) throws -> TagSet {
        guard let header = Header(bytes) else { throw MediaTagsError.unrecognized("no ID3v2.2–2.4 header") }
        if header.major == 2 && header.flags & 0x40 != 0 { return TagSet() }
        var body = Array(bytes[10..<min(bytes.count, 10 + header.size)])
        if header.isUnsynchronised && header.major < 4 { body = resynchronised(body[...]) }
        var reader = ByteReader(body)
        if header.hasExtendedHeader {
            if header.major == 3 {
                try reader.skip(Int(try reader.uint32BE()))
            } else {
                let size = Int(try reader.synchsafe())
                guard size >= 6 else { throw MediaTagsError.malformed("ID3v2.4 extended header size \(size) below 6") }
                try reader.skip(size - 4)
            }
        }
        var collector = ID3FrameCollector()
        if header.major == 2 {
            readFramesV22(&reader, into: &collector)
        } else {
            readFrames(&reader, major: header.major, tagUnsync: header.isUnsynchronised, into: &collector)
        }
        return collector.finished()
    }

    /// Undoes unsynchronisation: every 0xFF 0x00 becomes 0xFF (§6.1).
    static func resynchronised(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { out.append(byte) }
            previous = byte
        }
        return out
    }

    private static func isFrameID(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func readFramesV22(_ reader: inout ByteReader, into collector: inout ID3FrameCollector) {
        while reader.remaining >= 6 {
            guard let idBytes = try? reader.bytes(3), isFrameID(idBytes[...]),
                  let size = try? Int(reader.uint24BE()), let body = try? reader.bytes(size) else { return }
            let id = ID3Text.latin1(idBytes)
            if let mapped = ID3FrameCollector.v22[id] {
                collector.add(id: mapped, body: body)
            } else if id.hasPrefix("T") {
                collector.add(id: id, body: body)
            }
        }
    }

    private static func readFrames(_ reader: inout ByteReader, major: Int, tagUnsync: Bool,
                                   into collector: inout ID3FrameCollector) {
        while reader.remaining >= 10 {
            guard let idBytes = try? reader.bytes(4), isFrameID(idBytes[...]),
                  let sizeBytes = try? reader.bytes(4), let flags = try? reader.bytes(2) else { return }
            let plain = sizeBytes.reduce(0) { $0 << 8 | Int($1) }
            var size = plain
            if major == 4 && sizeBytes.allSatisfy({ $0 < 0x80 }) {
                let synchsafe = sizeBytes.reduce(0) { $0 << 7 | Int($1) }
                size = synchsafe
                if synchsafe != plain && !landsOnFrame(reader, after: synchsafe) && landsOnFrame(reader, after: plain) {
                    size = plain
                }
            }
            guard let raw = try? reader.bytes(size) else { return }
            let id = ID3Text.latin1(idBytes)
            if let body = frameBody(raw, format: flags[1], major: major, tagUnsync: tagUnsync) {
                collector.add(id: id, body: body)
            }
        }
    }

    /// Whether a frame of `size` bytes ends at the tag's end, in padding, or before another frame id.
    private static func landsOnFrame(_ reader: ByteReader, after size: Int) -> Bool {
        guard size <= reader.remaining else { return false }
        let next = reader.offset + size
        if next == reader.end || reader.data[next] == 0 { return true }
        return next + 4 <= reader.end && isFrameID(reader.data[next..<next + 4])
    }

    /// The frame's data with grouping/length bytes removed and unsynchronisation undone;
    /// nil for compressed or encrypted frames.
    private static func frameBody(_ raw: [UInt8], format: UInt8, major: Int, tagUnsync: Bool) -> [UInt8]? {
        var body = raw[...]
        if major == 3 {
            guard format & 0xC0 == 0 else { return nil }
            if format & 0x20 != 0 { body = body.dropFirst() }
            return Array(body)
        }
        guard format & 0x0C == 0 else { return nil }
        if format & 0x40 != 0 { body = body.dropFirst() }
        if format & 0x01 != 0 { body = body.dropFirst(4) }
        return format & 0x02 != 0 || tagUnsync ? resynchronised(body) : Array(body)
    }
}

/// Fills the gaps of one `TagSet` from another, used to merge several ID3 tags of one file
/// (ID3v2 over ID3v1, a file's first ID3v2 tag over later ones, an `id3 ` chunk over RIFF INFO).
enum ID3Merge {
    /// Copies every field of `other` that `base` lacks; `base` keeps all it has.
    static func fill(_ base: inout TagSet, from other: TagSet) {
        base.title = base.title ?? other.title
        base.album = base.album ?? other.album
        if base.artists.isEmpty { base.artists = other.artists }
        if base.albumArtists.isEmpty { base.albumArtists = other.albumArtists }
        if base.composers.isEmpty { base.composers = other.composers }
        if base.genres.isEmpty { base.genres = other.genres }
        if base.trackNumber == nil { base.trackNumber = other.trackNumber; base.trackTotal = base.trackTotal ?? other.trackTotal }
        if base.discNumber == nil { base.discNumber = other.discNumber; base.discTotal = base.discTotal ?? other.discTotal }
        if base.date == nil { base.date = other.date }
        if base.year == nil { base.year = other.year }
        base.bpm = base.bpm ?? other.bpm
        base.compilation = base.compilation || other.compilation
        base.comment = base.comment ?? other.comment
        for (key, values) in other.custom where base.custom[key] == nil { base.custom[key] = values }
        if base.pictures.isEmpty { base.pictures = other.pictures }
        if base.credits.isEmpty { base.credits = other.credits }
    }
}
