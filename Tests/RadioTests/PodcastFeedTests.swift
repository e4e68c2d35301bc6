import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Radio
import WireFormats
import Testing

/// Collects every element of a document: its qualified name, attributes and text.
final class ElementCollector: NSObject, XMLParserDelegate {
    struct Element { var name: String; var attributes: [String: String]; var text = "" }
    var elements: [Element] = []
    private var stack: [Int] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(Element(name: qualifiedName ?? name, attributes: attributes))
        stack.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = stack.last { elements[i].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}

@Suite("Podcast feed")
struct PodcastFeedTests {
    static let show = PodcastShow(
        title: "Night <script>alert(1)</script> & Co", description: "Live \u{07}talk\u{1F} & music",
        link: "https://radio.example/shows/1", feedURL: "https://radio.example/radio/shows/1/feed.xml",
        language: "it", author: "Ada \"The DJ\" O'Brien", imageURL: "https://radio.example/c.jpg?a=1&b=2",
        explicit: true, category: "Music", subcategory: "Music Commentary")

    static func episodes() -> [PodcastEpisode] {
        let hostile = XMLText.decode(utf8: Array("Bad \u{0}bytes ".utf8) + [0xFF, 0xC3] + Array(" ]]> end".utf8))
        return [
            PodcastEpisode(guid: "quintet-episode-2", title: hostile, description: "<b>bold</b>",
                           published: Date(timeIntervalSince1970: 1_795_615_533), duration: 3725.4,
                           enclosureURL: "https://radio.example/e/2.mp3?x=1&y=2", enclosureLength: 59_606_400),
            PodcastEpisode(guid: "quintet-episode-1", title: "First", description: "",
                           published: Date(timeIntervalSince1970: 1_795_000_000), duration: 59.6,
                           enclosureURL: "https://radio.example/e/1.mp3", enclosureLength: 1000, explicit: false),
        ]
    }

    static func parse(_ xml: String) throws -> ElementCollector {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = ElementCollector()
        parser.delegate = collector
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        return collector
    }

    @Test("well-formed RSS 2.0 with every channel element")
    func channel() throws {
        let xml = PodcastFeed(show: Self.show, episodes: Self.episodes()).xml()
        let doc = try Self.parse(xml)
        let rss = try #require(doc.all("rss").first)
        #expect(rss.attributes["version"] == "2.0")
        #expect(rss.attributes["xmlns:itunes"] == "http://www.itunes.com/dtds/podcast-1.0.dtd")
        #expect(rss.attributes["xmlns:podcast"] == "https://podcastindex.org/namespace/1.0")
        #expect(doc.all("title").first?.text == "Night <script>alert(1)</script> & Co")
        #expect(!xml.contains("<script>"))
        #expect(doc.all("description").first?.text == "Live talk & music")
        #expect(doc.all("language").first?.text == "it")
        #expect(doc.all("itunes:author").first?.text == "Ada \"The DJ\" O'Brien")
        #expect(doc.all("itunes:image").first?.attributes["href"] == "https://radio.example/c.jpg?a=1&b=2")
        #expect(doc.all("itunes:explicit").map(\.text) == ["true", "false"])
        let categories = doc.all("itunes:category").map { $0.attributes["text"] }
        #expect(categories == ["Music", "Music Commentary"])
        #expect(doc.all("podcast:guid").first?.text ==
                PodcastFeed.podcastGUID(feedURL: Self.show.feedURL).uuidString.lowercased())
        #expect(doc.all("atom:link").first?.attributes["href"] == Self.show.feedURL)
    }

    @Test("items: enclosure, guid, pubDate, duration, hostile text")
    func items() throws {
        let xml = PodcastFeed(show: Self.show, episodes: Self.episodes()).xml()
        // For scripts/check-feed.py (feedparser): QUINTET_FEED_OUT=/tmp/feed.xml swift test ...
        if let out = ProcessInfo.processInfo.environment["QUINTET_FEED_OUT"] {
            try Data(xml.utf8).write(to: URL(fileURLWithPath: out))
        }
        let doc = try Self.parse(xml)
        #expect(doc.all("item").count == 2)
        let enclosures = doc.all("enclosure")
        #expect(enclosures.map { $0.attributes["url"] } == ["https://radio.example/e/2.mp3?x=1&y=2", "https://radio.example/e/1.mp3"])
        #expect(enclosures.map { $0.attributes["length"] } == ["59606400", "1000"])
        #expect(enclosures.allSatisfy { $0.attributes["type"] == "audio/mpeg" })
        let guids = doc.all("guid")
        #expect(guids.map(\.text) == ["quintet-episode-2", "quintet-episode-1"])
        #expect(guids.allSatisfy { $0.attributes["isPermaLink"] == "false" })
        // Expected values from Python's email.utils.formatdate(..., usegmt=True).
        #expect(doc.all("pubDate").map(\.text) == ["Wed, 25 Nov 2026 14:05:33 GMT", "Wed, 18 Nov 2026 11:06:40 GMT"])
        #expect(doc.all("itunes:duration").map(\.text) == ["1:02:05", "0:01:00"])
        let title = try #require(doc.all("title").dropFirst().first?.text)
        #expect(title == "Bad bytes \u{FFFD}\u{FFFD} ]]> end")
        #expect(doc.all("description")[1].text == "<b>bold</b>")
    }

    @Test("empty feed still well-formed; durations and dates formatted")
    func formats() throws {
        let doc = try Self.parse(PodcastFeed(show: PodcastShow(title: "", description: "", link: "", feedURL: "x", author: ""), episodes: []).xml())
        #expect(doc.all("item").isEmpty && doc.all("itunes:image").isEmpty && doc.all("itunes:category").isEmpty)
        #expect(PodcastFeed.duration(0) == "0:00:00")
        #expect(PodcastFeed.duration(-3) == "0:00:00" && PodcastFeed.duration(.nan) == "0:00:00")
        #expect(PodcastFeed.duration(36_000 + 61) == "10:01:01")
        #expect(PodcastFeed.rfc2822(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(XMLText.escape("a\u{0}b\u{7F}c\u{85}d\u{FFFE}e\t\n") == "abcde\t\n")
    }

    @Test("UUIDv5 and podcast:guid match the specs' examples")
    func uuids() throws {
        // RFC 9562 / Python's uuid5(NAMESPACE_DNS, "python.org").
        let dns = try #require(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(PodcastFeed.uuidV5(namespace: dns, name: "python.org").uuidString.lowercased() ==
                "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        // Podcasting 2.0 namespace spec example: podnews.net/rss.
        let expected = "9b024349-ccf0-5f69-a609-6b82873eab3c"
        #expect(PodcastFeed.podcastGUID(feedURL: "https://podnews.net/rss").uuidString.lowercased() == expected)
        #expect(PodcastFeed.podcastGUID(feedURL: "http://podnews.net/rss//").uuidString.lowercased() == expected)
        #expect(PodcastFeed.podcastGUID(feedURL: "podnews.net/rss").uuidString.lowercased() == expected)
        #expect(PodcastFeed.podcastGUID(feedURL: "https://podnews.net/rss2").uuidString.lowercased() != expected)
    }
}
