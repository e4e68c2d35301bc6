import Crypto
import Foundation
import WireFormats

/// A show as its podcast feed describes it.
public struct PodcastShow: Sendable, Hashable {
    /// `<title>`.
    public var title: String
    /// `<description>` (plain text).
    public var description: String
    /// `<link>`: the show's web page.
    public var link: String
    /// The feed's own URL (`atom:link rel="self"`, and the source of `podcast:guid`).
    public var feedURL: String
    /// `<language>`, e.g. `en` or `it-IT`.
    public var language: String
    /// `<itunes:author>`.
    public var author: String
    /// `<itunes:image href>`: cover art URL (Apple asks for 1400-3000 px square), if any.
    public var imageURL: String?
    /// `<itunes:explicit>`.
    public var explicit: Bool
    /// `<itunes:category text>` (an Apple Podcasts category, e.g. `Music`), if any.
    public var category: String?
    /// A nested `<itunes:category>` inside `category`, e.g. `Music Commentary`.
    public var subcategory: String?

    /// A show; optional fields may be left out.
    public init(title: String, description: String, link: String, feedURL: String,
                language: String = "en", author: String, imageURL: String? = nil,
                explicit: Bool = false, category: String? = nil, subcategory: String? = nil) {
        self.title = title
        self.description = description
        self.link = link
        self.feedURL = feedURL
        self.language = language
        self.author = author
        self.imageURL = imageURL
        self.explicit = explicit
        self.category = category
        self.subcategory = subcategory
    }
}

/// One published episode as an RSS `<item>`.
public struct PodcastEpisode: Sendable, Hashable {
    /// `<guid isPermaLink="false">`: stable forever (use the episode's id, not its URL).
    public var guid: String
    /// `<title>`.
    public var title: String
    /// `<description>` (plain text).
    public var description: String
    /// `<pubDate>`.
    public var published: Date
    /// `<itunes:duration>` in seconds, written `H:MM:SS` (rounded to the nearest second).
    public var duration: Double
    /// `<enclosure url>`.
    public var enclosureURL: String
    /// `<enclosure length>`: the file size in bytes.
    public var enclosureLength: Int64
    /// `<enclosure type>`, e.g. `audio/mpeg`.
    public var enclosureType: String
    /// `<itunes:explicit>` for this episode, when it differs from the show.
    public var explicit: Bool?

    /// An episode.
    public init(guid: String, title: String, description: String, published: Date, duration: Double,
                enclosureURL: String, enclosureLength: Int64, enclosureType: String = "audio/mpeg",
                explicit: Bool? = nil) {
        self.guid = guid
        self.title = title
        self.description = description
        self.published = published
        self.duration = duration
        self.enclosureURL = enclosureURL
        self.enclosureLength = enclosureLength
        self.enclosureType = enclosureType
        self.explicit = explicit
    }
}

/// One show's RSS 2.0 podcast feed (RSS 2.0.11) with Apple's iTunes namespace and the
/// Podcasting 2.0 namespace (`podcast:guid`). Every text is XML-escaped with controls removed
/// (``XMLText/escape(_:_:)``).
///
/// ```swift
/// let xml = PodcastFeed(show: show, episodes: episodes).xml()   // serve as application/rss+xml
/// ```
public struct PodcastFeed: Sendable, Hashable {
    /// The show.
    public var show: PodcastShow
    /// The episodes, newest first.
    public var episodes: [PodcastEpisode]

    /// The Podcasting 2.0 namespace UUID for `podcast:guid`.
    public static let podcastNamespace = UUID(uuidString: "ead4c236-bf58-58c6-a2c6-a6b28d128cb6")!

    /// A feed of `show` with `episodes` (newest first).
    public init(show: PodcastShow, episodes: [PodcastEpisode]) {
        self.show = show
        self.episodes = episodes
    }

    /// The feed document (UTF-8).
    public func xml() -> String {
        let e: (String) -> String = { XMLText.escape($0, .text) }
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
        xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom">
        <channel>
        <title>\(e(show.title))</title>
        <link>\(e(show.link))</link>
        <description>\(e(show.description))</description>
        <language>\(e(show.language))</language>
        <atom:link href="\(e(show.feedURL))" rel="self" type="application/rss+xml"/>
        <podcast:guid>\(Self.podcastGUID(feedURL: show.feedURL).uuidString.lowercased())</podcast:guid>
        <itunes:author>\(e(show.author))</itunes:author>
        <itunes:explicit>\(show.explicit)</itunes:explicit>

        """
        if let image = show.imageURL { out += "<itunes:image href=\"\(e(image))\"/>\n" }
        if let category = show.category {
            if let sub = show.subcategory {
                out += "<itunes:category text=\"\(e(category))\"><itunes:category text=\"\(e(sub))\"/></itunes:category>\n"
            } else {
                out += "<itunes:category text=\"\(e(category))\"/>\n"
            }
        }
        if let newest = episodes.map(\.published).max() {
            out += "<lastBuildDate>\(Self.rfc2822(newest))</lastBuildDate>\n"
        }
        for episode in episodes {
            out += "<item>\n"
            out += "<title>\(e(episode.title))</title>\n"
            out += "<description>\(e(episode.description))</description>\n"
            out += "<guid isPermaLink=\"false\">\(e(episode.guid))</guid>\n"
            out += "<pubDate>\(Self.rfc2822(episode.published))</pubDate>\n"
            out += "<enclosure url=\"\(e(episode.enclosureURL))\" length=\"\(episode.enclosureLength)\" type=\"\(e(episode.enclosureType))\"/>\n"
            out += "<itunes:duration>\(Self.duration(episode.duration))</itunes:duration>\n"
            if let explicit = episode.explicit { out += "<itunes:explicit>\(explicit)</itunes:explicit>\n" }
            out += "</item>\n"
        }
        return out + "</channel>\n</rss>\n"
    }

    /// `podcast:guid` of a feed: the UUIDv5 (RFC 9562 §5.5, SHA-1) of the feed URL with its
    /// scheme (`https://`) and trailing slashes removed, in ``podcastNamespace``, as the
    /// Podcasting 2.0 namespace specifies (`podnews.net/rss` →
    /// `9b024349-ccf0-5f69-a609-6b82873eab3c`).
    public static func podcastGUID(feedURL: String) -> UUID {
        var name = Substring(feedURL)
        if let scheme = name.range(of: "://") { name = name[scheme.upperBound...] }
        while name.hasSuffix("/") { name = name.dropLast() }
        return uuidV5(namespace: podcastNamespace, name: String(name))
    }

    /// A name-based UUID, version 5 (RFC 9562 §5.5): SHA-1 of the namespace's 16 bytes then the
    /// name's UTF-8 bytes, first 16 bytes, version and variant bits set.
    public static func uuidV5(namespace: UUID, name: String) -> UUID {
        let ns = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var b = Array(Insecure.SHA1.hash(data: ns + Array(name.utf8)).prefix(16))
        b[6] = (b[6] & 0x0F) | 0x50
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// RFC 2822 date in GMT: `Wed, 25 Nov 2026 14:25:33 GMT`.
    public static func rfc2822(_ date: Date) -> String { UTCDate.rfc822(date, zone: .gmt) }

    /// `H:MM:SS` for `seconds` rounded to the nearest second (negative and NaN give `0:00:00`).
    public static func duration(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(seconds.rounded()) : 0
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return "\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)"
    }
}
