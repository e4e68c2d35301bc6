import Foundation
import MediaTags

/// Who a song credits: the artists it links to, from the artist tag's values.
///
/// Rules (conservative on purpose — "Kite & Crane", "AC/DC" and "Simon & Garfunkel" are
/// one name each):
/// - every value of a multi-valued tag is an artist (ID3v2.4 NUL-separated values,
///   repeated Vorbis `ARTIST` comments): that is how taggers write duets;
/// - within one value, a featuring marker — "feat.", "feat", "ft.", "featuring" as a whole
///   word, case-insensitive, optionally inside "(…)" or "[…]" — splits the main artist
///   from the featured ones; the featured part is split further at ", " and " & ";
/// - a title's "(feat. X)" credits X as well;
/// - empty names and repeats (by `NameKey`) are dropped; order is kept.
///
/// ```swift
/// ArtistCredit.names(artists: ["Maya Okafor feat. Ada North & Ben North"], title: "Glass River")
/// // ["Maya Okafor", "Ada North", "Ben North"]
/// ```
public enum ArtistCredit {
    public static func names(artists: [String], title: String?) -> [String] {
        names(artists: artists, title: title, key: { NameKey($0).value })
    }

    /// The same with the `NameKey` value of a name computed by `key` (the scanner caches them).
    static func names(artists: [String], title: String?, key: (String) -> String) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        func add(_ name: String) {
            let trimmed = name.trimmingWhitespace()
            let key = key(trimmed)
            guard !key.isEmpty, seen.insert(key).inserted else { return }
            out.append(trimmed)
        }
        for value in artists {
            if let (main, featured) = splitFeaturing(value) {
                add(main)
                featuredNames(featured).forEach(add)
            } else {
                add(value)
            }
        }
        if let title, let (_, featured) = splitFeaturing(title), !out.isEmpty {
            featuredNames(featured).forEach(add)
        }
        return out
    }

    /// The text before and after a featuring marker, or nil when there is none. A closing
    /// bracket after the featured names is dropped.
    static func splitFeaturing(_ text: String) -> (String, String)? {
        guard mayFeature(text) else { return nil }
        let lower = text.lowercased()
        let markers = ["featuring ", "feat. ", "feat ", "ft. "]
        var best: Range<String.Index>?
        for marker in markers {
            var searchStart = lower.startIndex
            while let range = lower.range(of: marker, range: searchStart..<lower.endIndex) {
                // a whole word: at the start, or after a space or an opening bracket
                let atWordStart = range.lowerBound == lower.startIndex
                    || [" ", "(", "["].contains(lower[lower.index(before: range.lowerBound)])
                if atWordStart {
                    if best == nil || range.lowerBound < best!.lowerBound { best = range }
                    break
                }
                searchStart = range.upperBound
            }
        }
        guard let found = best, found.lowerBound != lower.startIndex else { return nil }
        // Same offsets in the original text (lowercasing kept the length in characters for
        // everything but rare scripts; fall back to no split when it did not).
        guard lower.count == text.count else { return nil }
        let start = text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: found.lowerBound))
        let end = text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: found.upperBound))
        var main = String(text[..<start]).trimmingSpaces()
        if main.hasSuffix("(") || main.hasSuffix("[") { main.removeLast() }
        var featured = String(text[end...]).trimmingSpaces()
        if let close = featured.firstIndex(where: { $0 == ")" || $0 == "]" }) { featured = String(featured[..<close]) }
        return (main.trimmingSpaces(), featured)
    }

    /// A cheap first look: does the text contain "feat" or "ft." in any case? Most names do
    /// not, and they skip the lowercasing and searching.
    static func mayFeature(_ text: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            let b = byte | 0x20 // ASCII lower case (harmless for the other bytes here)
            if beforePrevious == 0x66, previous == 0x65, b == 0x61 { return true }          // "fea"
            if beforePrevious == 0x66, previous == 0x74, byte == 0x2E { return true }      // "ft."
            beforePrevious = previous
            previous = b
        }
        return false
    }

    static func featuredNames(_ text: String) -> [String] {
        text.components(separatedBy: ", ").flatMap { $0.components(separatedBy: " & ") }
    }
}
