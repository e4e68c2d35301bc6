/// Which characters a JSON string literal escapes beyond the ones RFC 8259 §7 requires.
///
/// Every style escapes `"` and `\`, writes newline, carriage return and tab as `\n`, `\r`,
/// `\t`, and every other C0 control as `\u00xx` (lowercase hex); everything else passes through
/// as UTF-8. The options below are the contracts that differ between the answers Quintet
/// writes; pick the preset named for the answer.
///
/// ```swift
/// JSONString.quoted("a\"b\u{7F}", escaping: .icecast)   // "\"a\\\"b\\u007f\""
/// ```
public struct JSONEscaping: Sendable, Hashable {
    /// Whether DEL (U+007F) is written as `\u007f`: icecast 2.4's `status-json.xsl` does, and
    /// ``icecast`` keeps that answer byte-identical to icecast's captures.
    public var escapesDelete: Bool
    /// Whether U+2028 and U+2029 are written as `\u2028` and `\u2029`: legal in JSON but line
    /// ends in JavaScript before ES2019, so a JSONP answer (Subsonic's `f=jsonp`) must escape them.
    public var escapesLineSeparators: Bool

    public init(escapesDelete: Bool = false, escapesLineSeparators: Bool = false) {
        self.escapesDelete = escapesDelete
        self.escapesLineSeparators = escapesLineSeparators
    }

    /// The RFC 8259 minimum (plus the short forms of newline, carriage return and tab).
    public static let standard = JSONEscaping()
    /// Byte-identical to icecast 2.4.4's `/status-json.xsl`: DEL escaped too.
    public static let icecast = JSONEscaping(escapesDelete: true)
    /// Safe inside JavaScript source (JSONP): U+2028 and U+2029 escaped too.
    public static let javaScript = JSONEscaping(escapesLineSeparators: true)
}

/// JSON string literals (RFC 8259 §7): one escaper for every hand-written JSON answer.
///
/// It works on UTF-8 bytes (only ASCII bytes and the 3-byte forms of U+2028/U+2029 are ever
/// rewritten), so a hot path can write straight into memory it reserved
/// (``write(_:escaping:to:)``) and everyone else appends to a `String`.
///
/// ```swift
/// var out = "{\"name\":"
/// JSONString.append("Ann \"A\"", to: &out)      // {"name":"Ann \"A\""
/// ```
public enum JSONString {
    /// The most bytes ``write(_:escaping:to:)`` writes for `utf8Count` bytes of text: two
    /// quotes and at most six bytes per byte (`\u00xx`).
    @inlinable
    public static func maxQuotedLength(utf8Count: Int) -> Int { 2 + 6 * utf8Count }

    /// Writes `utf8` as a quoted, escaped JSON string at `out`, which must have room for
    /// ``maxQuotedLength(utf8Count:)`` bytes; returns the bytes written.
    @inlinable
    public static func write(_ utf8: UnsafeBufferPointer<UInt8>, escaping: JSONEscaping = .standard,
                             to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        @inline(__always) func put(_ byte: UInt8) { out[n] = byte; n += 1 }
        @inline(__always) func escape(_ byte: UInt8) { put(UInt8(ascii: "\\")); put(byte) }
        @inline(__always) func hex(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
        put(UInt8(ascii: "\""))
        var i = 0
        let count = utf8.count
        while i < count {
            let byte = utf8[i]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape(byte)
            case 0x0A: escape(UInt8(ascii: "n"))
            case 0x0D: escape(UInt8(ascii: "r"))
            case 0x09: escape(UInt8(ascii: "t"))
            case 0..<0x20:
                escape(UInt8(ascii: "u")); put(0x30); put(0x30); put(hex(byte >> 4)); put(hex(byte & 15))
            case 0x7F where escaping.escapesDelete:
                escape(UInt8(ascii: "u")); put(0x30); put(0x30); put(0x37); put(0x66)
            case 0xE2 where escaping.escapesLineSeparators && i + 2 < count
                && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                escape(UInt8(ascii: "u")); put(0x32); put(0x30); put(0x32); put(utf8[i + 2] == 0xA8 ? 0x38 : 0x39)
                i += 2
            default: put(byte)
            }
            i += 1
        }
        put(UInt8(ascii: "\""))
        return n
    }

    /// Appends `text` to `out` as a quoted, escaped JSON string.
    public static func append(_ text: String, escaping: JSONEscaping = .standard, to out: inout String) {
        var text = text
        text.withUTF8 { utf8 in
            if !needsEscaping(utf8, escaping: escaping) {
                out += "\""
                out += String(decoding: utf8, as: UTF8.self)
                out += "\""
                return
            }
            out += String(unsafeUninitializedCapacity: maxQuotedLength(utf8Count: utf8.count)) { buffer in
                write(utf8, escaping: escaping, to: buffer.baseAddress!)
            }
        }
    }

    /// `text` as a quoted, escaped JSON string.
    public static func quoted(_ text: String, escaping: JSONEscaping = .standard) -> String {
        var out = ""
        append(text, escaping: escaping, to: &out)
        return out
    }

    /// Whether any byte of `utf8` would be rewritten (the common answer is no).
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>, escaping: JSONEscaping) -> Bool {
        for byte in utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            if byte == 0x7F && escaping.escapesDelete { return true }
            if byte == 0xE2 && escaping.escapesLineSeparators { return true }
        }
        return false
    }
}
