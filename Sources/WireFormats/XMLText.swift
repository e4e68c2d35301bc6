/// How ``XMLText/escape(_:_:)`` treats the characters beyond the five markup ones: the
/// contract differences between the XML documents Quintet writes, made explicit.
///
/// ```swift
/// XMLText.escape("a\tb\u{1}", .attribute)   // "a&#9;b\u{FFFD}"
/// ```
public struct XMLEscaping: Sendable, Hashable {
    /// What becomes of a character XML 1.0 cannot carry at all (§2.2: the C0 controls other
    /// than tab, newline and carriage return; U+FFFE; U+FFFF).
    public enum Invalid: Sendable, Hashable {
        /// Left out.
        case removed
        /// Replaced by U+FFFD, so the reader sees that something was there.
        case replaced
    }

    /// Whether tab, newline and carriage return are written as character references
    /// (`&#9;`, `&#10;`, `&#13;`): an attribute value needs them to survive attribute-value
    /// normalisation (XML 1.0 §3.3.3), which turns literal ones into spaces.
    public var referencesWhitespace: Bool
    /// What becomes of a character XML 1.0 cannot carry.
    public var invalid: Invalid
    /// Whether DEL and the C1 controls (U+007F–U+009F), which XML 1.0 allows but discourages
    /// (§2.2), are left out too.
    public var removesDiscouraged: Bool

    public init(referencesWhitespace: Bool, invalid: Invalid, removesDiscouraged: Bool) {
        self.referencesWhitespace = referencesWhitespace
        self.invalid = invalid
        self.removesDiscouraged = removesDiscouraged
    }

    /// Element text of feeds and icecast answers (RSS 2.0, `/admin/metadata`): whitespace as it
    /// is, invalid, DEL and C1 controls left out.
    public static let text = XMLEscaping(referencesWhitespace: false, invalid: .removed, removesDiscouraged: true)
    /// Subsonic's XML, where most values are attributes: whitespace as character references,
    /// invalid characters replaced by U+FFFD, DEL and C1 controls kept.
    public static let attribute = XMLEscaping(referencesWhitespace: true, invalid: .replaced, removesDiscouraged: false)
}

/// Text made safe for XML 1.0 character data and attribute values.
public enum XMLText {
    /// `text` with `& < > " '` as entities and the rest as `options` says.
    ///
    /// ```swift
    /// XMLText.escape("Tom & \"Jerry\"")   // "Tom &amp; &quot;Jerry&quot;"
    /// ```
    public static func escape(_ text: String, _ options: XMLEscaping = .text) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r":
                if options.referencesWhitespace { out += "&#\(v);" } else { out.unicodeScalars.append(scalar) }
            case _ where v < 0x20 || v == 0xFFFE || v == 0xFFFF:
                if options.invalid == .replaced { out.unicodeScalars.append("\u{FFFD}") }
            case _ where options.removesDiscouraged && (0x7F...0x9F).contains(v):
                continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text from bytes that should be UTF-8 (a tag, a form field): invalid sequences become
    /// U+FFFD, so the result is always valid Unicode.
    public static func decode(utf8 bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
