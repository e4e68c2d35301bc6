import Foundation
import Testing
import WireFormats

@Suite("JSON string escaping")
struct JSONStringTests {
    /// Every byte a writer might meet: controls, DEL, quote, backslash, slash, non-ASCII, the
    /// JavaScript line ends, an astral character.
    static let hostile = "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é\u{85}\u{2028}\u{2029}€😀z"

    @Test("standard: quote, backslash and C0 controls escaped (n, r, t short), the rest as UTF-8")
    func standard() {
        #expect(JSONString.quoted(Self.hostile)
            == "\"a\\\"b\\\\c/d\\u0000\\u0001\\u0008\\t\\n\\u000c\\r\\u001f\u{7F}é\u{85}\u{2028}\u{2029}€😀z\"")
        #expect(JSONString.quoted("") == "\"\"")
        #expect(JSONString.quoted("plain text") == "\"plain text\"")
    }

    /// The bytes of icecast 2.4.4's `/status-json.xsl` for a title holding every special
    /// character (its stylesheet escapes DEL as well); changing them breaks clients that compare
    /// against icecast's own answers.
    @Test("icecast: byte-identical to icecast's status JSON, DEL escaped")
    func icecast() {
        #expect(JSONString.quoted(Self.hostile, escaping: .icecast)
            == "\"a\\\"b\\\\c/d\\u0000\\u0001\\u0008\\t\\n\\u000c\\r\\u001f\\u007fé\u{85}\u{2028}\u{2029}€😀z\"")
        #expect(Array(JSONString.quoted("x\u{7F}", escaping: .icecast).utf8) == Array("\"x\\u007f\"".utf8))
    }

    @Test("javaScript: U+2028 and U+2029 escaped for JSONP, DEL kept")
    func javaScript() {
        #expect(JSONString.quoted(Self.hostile, escaping: .javaScript)
            == "\"a\\\"b\\\\c/d\\u0000\\u0001\\u0008\\t\\n\\u000c\\r\\u001f\u{7F}é\u{85}\\u2028\\u2029€😀z\"")
        // Other characters starting with byte E2 pass through (€ is E2 82 AC, U+2027 E2 80 A7).
        #expect(JSONString.quoted("€\u{2027}\u{202A}", escaping: .javaScript) == "\"€\u{2027}\u{202A}\"")
        // A cut-short sequence at the end is not misread.
        #expect(JSONString.quoted("x\u{2028}", escaping: .javaScript) == "\"x\\u2028\"")
    }

    @Test("every style parses back to the same text with JSONSerialization", arguments: [
        JSONEscaping.standard, .icecast, .javaScript,
    ])
    func roundTrip(escaping: JSONEscaping) throws {
        var text = ""
        for v in 0..<0x300 { text.unicodeScalars.append(Unicode.Scalar(UInt32(v))!) }
        text += "\u{2028}\u{2029}\u{FFFF}😀"
        let json = "[" + JSONString.quoted(text, escaping: escaping) + "]"
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(parsed == [text])
    }

    @Test("append and the raw writer agree; the writer stays within maxQuotedLength")
    func writerAgrees() {
        for text in [Self.hostile, "", "\u{0}\u{0}\u{0}", String(repeating: "\u{1}", count: 100)] {
            var out = "{\"k\":"
            JSONString.append(text, escaping: .icecast, to: &out)
            var copy = text
            let raw: [UInt8] = copy.withUTF8 { utf8 in
                let room = JSONString.maxQuotedLength(utf8Count: utf8.count)
                return [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                    count = JSONString.write(utf8, escaping: .icecast, to: buffer.baseAddress!)
                    #expect(count <= room)
                }
            }
            #expect(out == "{\"k\":" + String(decoding: raw, as: UTF8.self))
        }
    }
}
