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
/// - values of an ID3v2.2/2.3 list frame (`TagSet.slashSeparated`), where "/" separates
///   names, are split there last (after the featuring split), except where the library
///   knows the joined text as one name (`slashSeparated(_:isKnown:)`): "Ada North/Ben Reed"
///   gives two artists, "AC/DC" stays whole when another song names "AC/DC" as one value;
/// - empty names and repeats (by `NameKey`) are dropped; order is kept.
///
/// ```swift
/// ArtistCredit.names(artists: ["Maya Okafor feat. Ada North & Ben North"], title: "Glass River")
/// // ["Maya Okafor", "Ada North", "Ben North"]
/// ArtistCredit.names(artists: ["AC/DC/Ada North"], title: nil, splittingAtSlash: true, knownNames: ["AC/DC"])
/// // ["AC/DC", "Ada North"]
/// ```
public enum ArtistCredit {
    public static func names(artists: [String], title: String?) -> [String] {
        names(artists: artists, title: title, key: { NameKey($0).value })
    }

    /// The credit of values written in an ID3v2.2/2.3 list frame when `splittingAtSlash`:
    /// "/" separates names, except in the runs of `knownNames` (compared by `NameKey`).
    public static func names(artists: [String], title: String?, splittingAtSlash: Bool, knownNames: Set<String>) -> [String] {
        let known = Set(knownNames.map { NameKey($0).value })
        return names(artists: artists, title: title, key: { NameKey($0).value },
                     slash: splittingAtSlash ? { slashSeparated($0, isKnown: { known.contains(NameKey($0).value) }) } : nil)
    }

    /// The same with the `NameKey` value of a name computed by `key` (the scanner caches
    /// them), and `slash` splitting each name of a "/"-separated list (nil: none is split).
    static func names(artists: [String], title: String?, key: (String) -> String,
                      slash: ((String) -> [String])? = nil) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        func add(_ name: String) {
            let trimmed = name.trimmingWhitespace()
            let key = key(trimmed)
            guard !key.isEmpty, seen.insert(key).inserted else { return }
            out.append(trimmed)
        }
        func addListed(_ name: String) {
            if let slash, name.utf8.contains(UInt8(ascii: "/")) { slash(name).forEach(add) } else { add(name) }
        }
        for value in artists {
            if let (main, featured) = splitFeaturing(value) {
                addListed(main)
                featuredNames(featured).forEach(addListed)
            } else {
                addListed(value)
            }
        }
        if let title, let (_, featured) = splitFeaturing(title), !out.isEmpty {
            featuredNames(featured).forEach(add)
        }
        return out
    }

    /// Longest run of pieces a known name may span (a hostile value of thousands of "/" costs
    /// no more than this many keys per piece).
    static let longestKnownRun = 8

    /// One name of an ID3v2.2/2.3 list frame split at "/" (ID3v2.3.0 §4.2.1): pieces trimmed,
    /// empty ones dropped, except that a run of neighbouring pieces (2 to 8) whose text joined
    /// by "/" `isKnown` stays one name — the longest such run first, from the left.
    ///
    /// ```swift
    /// ArtistCredit.slashSeparated("AC/DC / Ada North", isKnown: { $0 == "AC/DC" })   // ["AC/DC", "Ada North"]
    /// ```
    public static func slashSeparated(_ name: String, isKnown: (String) -> Bool) -> [String] {
        let pieces = name.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        guard pieces.count > 1 else { return [name] }
        var out: [String] = []
        var start = 0
        while start < pieces.count {
            var end = start   // the last piece of the run kept whole
            for last in stride(from: min(pieces.count - 1, start + longestKnownRun - 1), to: start, by: -1)
            where !pieces[last].isEmpty && !pieces[start].isEmpty && isKnown(pieces[start...last].joined(separator: "/")) {
                end = last
                break
            }
            let whole = pieces[start...end].joined(separator: "/")
            if !whole.isEmpty { out.append(whole) }
            start = end + 1
        }
        return out
    }

    /// Every run of 2 to 8 neighbouring pieces of a "/"-separated name, joined by "/": the
    /// names whose being known can change how `slashSeparated` splits it.
    static func slashRuns(_ name: String) -> [String] {
        let pieces = name.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        guard pieces.count > 1 else { return [] }
        var runs: [String] = []
        for start in pieces.indices where !pieces[start].isEmpty {
            for last in (start + 1)..<min(pieces.count, start + longestKnownRun) where !pieces[last].isEmpty {
                runs.append(pieces[start...last].joined(separator: "/"))
            }
        }
        return runs
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
