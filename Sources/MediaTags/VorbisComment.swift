import Foundation

/// Parsing of a Vorbis comment block into a `TagSet`.
///
/// Follows the Vorbis I specification, section 5 "comment field and header specification"
/// (xiph.org/vorbis/doc/v-comment.html): a little-endian 32-bit vendor length and UTF-8
/// vendor string, a 32-bit comment count, then that many length-prefixed `NAME=value`
/// entries with case-insensitive names. The same block sits in FLAC (VORBIS_COMMENT,
/// RFC 9639 §8.6), Ogg Vorbis (after "\u{3}vorbis") and Ogg Opus (after "OpusTags",
/// RFC 7845 §5.2).
///
/// Edge cases: a count larger than the bytes present is capped (each entry needs at least
/// 4 bytes); a truncated block keeps the entries read before the cut; entries without "="
/// and empty values are skipped; invalid UTF-8 is repaired with U+FFFD.
enum VorbisComment {
    /// Parses a comment block starting at `reader`'s offset, leaving the reader after the
    /// last entry read. Throws `MediaTagsError.malformed` only when the vendor string
    /// itself is cut off.
    static func parse(_ reader: inout ByteReader) throws -> TagSet {
        let vendorLength = Int(try reader.uint32LE())
        try reader.skip(vendorLength)
        var entries: [(name: String, value: String)] = []
        guard let rawCount = try? reader.uint32LE() else { return tags(from: entries) }
        let count = min(Int(rawCount), reader.remaining / 4)
        for _ in 0..<count {
            guard let length = try? reader.uint32LE(), let bytes = try? reader.bytes(Int(length)) else { break }
            guard let eq = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: bytes[..<eq], as: UTF8.self).uppercased()
            let value = String(decoding: bytes[(eq + 1)...], as: UTF8.self)
            guard !name.isEmpty else { continue }
            entries.append((name, value))
        }
        return tags(from: entries)
    }

    /// Parses a whole comment block held in `bytes`.
    static func parse(_ bytes: [UInt8]) throws -> TagSet {
        var reader = ByteReader(bytes)
        return try parse(&reader)
    }

    /// Maps upper-cased comment names to `TagSet` fields; unknown names go to `custom`.
    static func tags(from entries: [(name: String, value: String)]) -> TagSet {
        var tags = TagSet()
        var legacyCoverMime: String?
        var legacyCovers: [[UInt8]] = []
        for (name, value) in entries {
            if name == "COVERARTMIME" { legacyCoverMime = value; continue }
            guard !value.isEmpty else { continue }
            switch name {
            case "TITLE": if tags.title == nil { tags.title = value }
            case "ARTIST": tags.artists.append(value)
            case "ALBUM": if tags.album == nil { tags.album = value }
            case "ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST": tags.albumArtists.append(value)
            case "COMPOSER": tags.composers.append(value)
            case "GENRE": tags.genres.append(value)
            case "TRACKNUMBER":
                let pair = TagValues.numberPair(value)
                if tags.trackNumber == nil { tags.trackNumber = pair.number }
                if tags.trackTotal == nil { tags.trackTotal = pair.total }
            case "TRACKTOTAL", "TOTALTRACKS":
                if let total = TagValues.numberPair(value).number { tags.trackTotal = total }
            case "DISCNUMBER":
                let pair = TagValues.numberPair(value)
                if tags.discNumber == nil { tags.discNumber = pair.number }
                if tags.discTotal == nil { tags.discTotal = pair.total }
            case "DISCTOTAL", "TOTALDISCS":
                if let total = TagValues.numberPair(value).number { tags.discTotal = total }
            case "DATE":
                tags.date = value
                tags.year = TagValues.year(value) ?? tags.year
            case "YEAR":
                if tags.date == nil { tags.date = value }
                if tags.year == nil { tags.year = TagValues.year(value) }
            case "BPM": if tags.bpm == nil { tags.bpm = TagValues.bpm(value) }
            case "COMPILATION": tags.compilation = tags.compilation || TagValues.flag(value)
            case "COMMENT", "DESCRIPTION": if tags.comment == nil { tags.comment = value }
            case "PERFORMER": if let credit = TagSet.Credit(performer: value) { tags.credits.append(credit) }
            case "METADATA_BLOCK_PICTURE":
                if let data = Data(base64Encoded: value, options: .ignoreUnknownCharacters),
                   let picture = try? FLACFile.picture([UInt8](data)) {
                    tags.pictures.append(picture)
                }
            case "COVERART":
                if let data = Data(base64Encoded: value, options: .ignoreUnknownCharacters), !data.isEmpty {
                    legacyCovers.append([UInt8](data))
                }
            default: tags.custom[name, default: []].append(value)
            }
        }
        for bytes in legacyCovers {
            let mime = legacyCoverMime.flatMap { $0.isEmpty ? nil : $0 } ?? TagValues.imageMimeType(bytes)
            tags.pictures.append(TagSet.Picture(type: 3, mimeType: mime, description: "", data: Data(bytes)))
        }
        return tags
    }
}
