import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WireFormats

@Suite("XML escaping")
struct XMLTextTests {
    static let hostile = "a&b<c>d\"e'f\tg\nh\ri\u{0}j\u{1F}k\u{7F}l\u{85}m\u{9F}n\u{FFFE}o\u{FFFF}pé😀"

    @Test("text (RSS, icecast): markup as entities, whitespace kept, invalid, DEL and C1 removed")
    func text() {
        #expect(XMLText.escape(Self.hostile, .text)
            == "a&amp;b&lt;c&gt;d&quot;e&apos;f\tg\nh\rijklmnopé😀")
        #expect(XMLText.escape("a\u{0}b\u{7F}c\u{85}d\u{FFFE}e\t\n") == "abcde\t\n")  // .text is the default
    }

    @Test("attribute (Subsonic): whitespace as references, invalid as U+FFFD, DEL and C1 kept")
    func attribute() {
        #expect(XMLText.escape(Self.hostile, .attribute)
            == "a&amp;b&lt;c&gt;d&quot;e&apos;f&#9;g&#10;h&#13;i\u{FFFD}j\u{FFFD}k\u{7F}l\u{85}m\u{9F}n\u{FFFD}o\u{FFFD}pé😀")
    }

    @Test("both parse with XMLParser and give back what they keep", arguments: [XMLEscaping.text, .attribute])
    func parses(options: XMLEscaping) throws {
        let escaped = XMLText.escape(Self.hostile, options)
        let document = "<r a=\"\(escaped)\">\(escaped)</r>"
        let reader = Reader()
        let parser = XMLParser(data: Data(document.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        if options.referencesWhitespace {
            #expect(reader.attribute?.contains("\tg\nh\ri") == true)
        }
        #expect(reader.text.hasPrefix("a&b<c>d\"e'f\tg\nh"))
    }

    final class Reader: NSObject, XMLParserDelegate {
        var attribute: String?
        var text = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            attribute = attributes["a"]
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }
}
