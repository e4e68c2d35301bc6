import Foundation

/// The `Content-Disposition` header of a download (RFC 6266), written once for every file
/// the server hands out with a name.
///
/// Both parameters are sent, as RFC 6266 §4.3 recommends: a plain ASCII `filename="…"`
/// first, for clients that read only that one (or split the header on `filename=`), then
/// `filename*=UTF-8''…` (RFC 8187 encoding of the exact UTF-8 name), which readers that know
/// it prefer.
///
/// The ASCII fallback: letters lose their accents (NFD, combining marks dropped: "Lucía" →
/// "Lucia"); every other character outside printable ASCII, control characters, `"`, `\`
/// and `%` (which some clients take for an escape, §4.3) become `_`. An empty name is
/// "download".
///
/// ```swift
/// ContentDisposition.attachment(filename: "Glass River.mp3")
/// // attachment; filename="Glass River.mp3"; filename*=UTF-8''Glass%20River.mp3
/// ContentDisposition.attachment(filename: "Café \"Noir\".flac")
/// // attachment; filename="Cafe _Noir_.flac"; filename*=UTF-8''Caf%C3%A9%20%22Noir%22.flac
/// ```
public enum ContentDisposition {
    /// `attachment` with both file name parameters.
    public static func attachment(filename: String) -> String {
        let name = filename.isEmpty ? "download" : filename
        return "attachment; filename=\"\(asciiFallback(name))\"; filename*=UTF-8''\(extendedValue(name))"
    }

    /// The name in printable ASCII with no quote, backslash or percent sign (see the type's comment).
    public static func asciiFallback(_ name: String) -> String {
        var out = ""
        for scalar in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            switch scalar.value {
            case 0x22, 0x25, 0x5C: out.append("_")                     // " % \
            case 0x20...0x7E: out.unicodeScalars.append(scalar)
            default: out.append("_")
            }
        }
        return out.isEmpty ? "download" : out
    }

    /// RFC 8187 §3.2.1 `value-chars`: UTF-8 bytes, `attr-char` as they are, the rest `%XX`.
    public static func extendedValue(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            if isAttrChar(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    private static func isAttrChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
