import Foundation

/// The comparison key of a title or name: Unicode NFC, case folded, whitespace trimmed and
/// collapsed to single spaces — and nothing more.
///
/// Nothing else is removed on purpose: stripping "(Live)", "(Remastered)", accents or
/// punctuation would link recordings that are different songs or different takes.
///
/// ```swift
/// NameKey("  Ève   Angeli ") == NameKey("ève angeli")   // true
/// NameKey("Song (Live)") == NameKey("Song")            // false
/// ```
public struct NameKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The normalised text.
    public let value: String

    public init(_ text: String) {
        if let ascii = Self.asciiKey(text) { value = ascii; return }
        let folded = text.precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive], locale: Self.posix)
            .precomposedStringWithCanonicalMapping
        value = folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Made once: creating a `Locale` per name was a twentieth of a library scan.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The key of pure-ASCII text without Foundation's Unicode machinery (ASCII is already
    /// NFC, and its case folding is lowercasing); nil when the text has other characters.
    private static func asciiKey(_ text: String) -> String? {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case 0x09...0x0D, 0x20: // the ASCII characters Character.isWhitespace accepts
                pendingSpace = !out.isEmpty
            default:
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var isEmpty: Bool { value.isEmpty }
    public var description: String { value }
    public static func < (lhs: NameKey, rhs: NameKey) -> Bool { lhs.value < rhs.value }

    /// The keys of a list of names as a set, empty names dropped: the identity of an artist or
    /// composer list (order and repetition do not matter, "A & B" is one name).
    public static func set(_ names: [String]) -> Set<NameKey> {
        Set(names.map(NameKey.init).filter { !$0.isEmpty })
    }
}

extension String {
    /// The text without leading and trailing whitespace (what `Character.isWhitespace`
    /// calls whitespace). Foundation's `trimmingCharacters(in:)` converts to UTF-16 and
    /// back, which showed as a tenth of a library scan; this returns `self` untouched in
    /// the common case and slices otherwise.
    func trimmingWhitespace() -> String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
        if plain(first) && plain(last) { return self }
        guard let start = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let end = lastIndex(where: { !$0.isWhitespace })!
        return String(self[start...end])
    }
}
