import Foundation

/// Reads the 128-byte ID3v1 and ID3v1.1 tag found at the end of MP3 files (the "TAG"
/// layout of Eric Kemp's ID3v1 and Michael Mutschler's v1.1 track extension, id3.org).
///
/// Fields are ISO-8859-1, cut at the first NUL and trimmed of spaces; a comment whose 29th
/// byte is 0 and 30th is not carries the track number (v1.1); genre 255 or an unknown
/// index means no genre.
public enum ID3v1 {
    /// The tag in `bytes` (exactly the last 128 bytes of a file), or nil without "TAG".
    public static func read(_ bytes: [UInt8]) -> TagSet? {
        guard bytes.count == 128, bytes[0] == 0x54, bytes[1] == 0x41, bytes[2] == 0x47 else { return nil }
        func field(_ start: Int, _ length: Int) -> String? {
            let raw = bytes[start..<(start + length)]
            let text = ID3Text.latin1(raw.prefix { $0 != 0 }).trimmingSpaces()
            return text.isEmpty ? nil : text
        }
        var tags = TagSet()
        tags.title = field(3, 30)
        if let artist = field(33, 30) { tags.artists = [artist] }
        tags.album = field(63, 30)
        if let year = field(93, 4) {
            tags.year = TagValues.year(year)
            if tags.year != nil { tags.date = year }
        }
        tags.comment = field(97, 30)
        if bytes[125] == 0 && bytes[126] != 0 {
            tags.comment = field(97, 28)
            tags.trackNumber = Int(bytes[126])
        }
        if let genre = ID3Genre.name(Int(bytes[127])) { tags.genres = [genre] }
        return tags
    }
}
