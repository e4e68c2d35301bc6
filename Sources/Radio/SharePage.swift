import Foundation
import WireFormats

/// The HTML a share link (`/radio/s/{id}`, `/radio/e/{id}`) answers: the OpenGraph
/// (ogp.me) and Twitter card tags a chat app reads to draw a card, the oEmbed discovery link,
/// and a body that sends people on to the show's page. Every value is escaped for HTML
/// (``XMLText/escape(_:_:)``: `& < > " '` as entities, controls removed).
public struct SharePage: Sendable, Hashable {
    /// The embed player an episode card plays (`twitter:player`).
    public struct Player: Sendable, Hashable {
        public var url: String
        public var width: Int
        public var height: Int

        public init(url: String, width: Int, height: Int) {
            self.url = url
            self.width = width
            self.height = height
        }
    }

    /// `og:title` and `<title>`.
    public var title: String
    /// `og:description` (plain text, cut to ``maxDescription`` characters).
    public var description: String
    /// `og:url`: the share link itself.
    public var url: String
    /// `og:type`: `website` for a show, `music.song` for an episode.
    public var type: String
    /// `og:image`: the cover (absolute), if any.
    public var imageURL: String?
    /// `og:audio` (absolute) and its type, for an episode.
    public var audioURL: String?
    public var audioType: String?
    /// `og:site_name`.
    public var siteName: String
    /// Where people go: the show's page.
    public var pageURL: String
    /// The oEmbed endpoint for this link (`<link rel="alternate" type="application/json+oembed">`).
    public var oEmbedURL: String
    /// The embed player: an episode's card is a `player` card, a show's a `summary`.
    public var player: Player?
    /// `<html lang>`.
    public var language: String

    /// Longest `og:description` written.
    public static let maxDescription = 300

    public init(title: String, description: String, url: String, type: String, imageURL: String?,
                audioURL: String? = nil, audioType: String? = nil, siteName: String = "Quintet",
                pageURL: String, oEmbedURL: String, player: Player? = nil, language: String = "en") {
        self.title = title
        self.description = description
        self.url = url
        self.type = type
        self.imageURL = imageURL
        self.audioURL = audioURL
        self.audioType = audioType
        self.siteName = siteName
        self.pageURL = pageURL
        self.oEmbedURL = oEmbedURL
        self.player = player
        self.language = language
    }

    /// The page.
    public func html() -> String {
        let e: (String) -> String = { XMLText.escape($0, .text) }
        // Controls go before the cut (the escaping drops them too), so a long text keeps exactly maxDescription characters.
        var text = String.UnicodeScalarView()
        text.append(contentsOf: description.unicodeScalars.filter { $0 == "\n" || $0 == "\t" || $0.properties.generalCategory != .control })
        let plain = String(text)
        let summary = plain.count > Self.maxDescription ? String(plain.prefix(Self.maxDescription - 1)) + "…" : plain
        var meta: [(attribute: String, key: String, value: String)] = [
            ("property", "og:title", title), ("property", "og:description", summary), ("property", "og:url", url),
            ("property", "og:type", type), ("property", "og:site_name", siteName),
        ]
        if let imageURL { meta.append(("property", "og:image", imageURL)) }
        if let audioURL {
            meta.append(("property", "og:audio", audioURL))
            if let audioType { meta.append(("property", "og:audio:type", audioType)) }
        }
        meta.append(("name", "twitter:card", player == nil ? "summary" : "player"))
        meta.append(("name", "twitter:title", title))
        meta.append(("name", "twitter:description", summary))
        if let imageURL { meta.append(("name", "twitter:image", imageURL)) }
        if let player {
            meta.append(("name", "twitter:player", player.url))
            meta.append(("name", "twitter:player:width", String(player.width)))
            meta.append(("name", "twitter:player:height", String(player.height)))
        }
        var out = """
        <!doctype html>
        <html lang="\(e(language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(e(title)) · \(e(siteName))</title>
        <meta name="description" content="\(e(summary))">

        """
        for m in meta { out += "<meta \(m.attribute)=\"\(m.key)\" content=\"\(e(m.value))\">\n" }
        out += """
        <link rel="canonical" href="\(e(url))">
        <link rel="alternate" type="application/json+oembed" href="\(e(oEmbedURL))" title="\(e(title))">
        <meta http-equiv="refresh" content="0; url=\(e(pageURL))">
        </head>
        <body>
        <h1>\(e(title))</h1>
        <p>\(e(summary))</p>
        <p><a href="\(e(pageURL))">\(e(pageURL))</a></p>
        </body>
        </html>

        """
        return out
    }
}
