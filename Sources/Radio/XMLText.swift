/// Text made safe for XML 1.0 character data and attribute values.
public enum XMLText {
    /// `text` with `& < > " '` escaped and every character XML 1.0 forbids or discourages
    /// removed: C0 controls except tab, newline and carriage return, DEL and the C1 controls
    /// (U+007F-U+009F), U+FFFE and U+FFFF (XML 1.0 §2.2).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
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
