import Foundation
import WireFormats

/// oEmbed 1.0 (oembed.com) for the radio's share links: which link a consumer asks about,
/// and the `rich` answer with the embed player in an `<iframe>`.
public enum OEmbed {
    /// What a share link points at.
    public enum Target: Sendable, Hashable {
        case show(Int64)
        case episode(Int64)
    }

    /// The player's natural size, used when the consumer sets no maximum.
    public static let defaultWidth = 480
    public static let defaultHeight = 160

    /// The target of `url` when it is one of this site's share links (`{base}/radio/s/{id}`,
    /// `{base}/radio/e/{id}`, or the show page `{base}/radio/show/?id={id}`); nil for another
    /// site's link or another path. `base` is `scheme://host[:port]`; the scheme may differ
    /// (`http` or `https`), the host is compared without case.
    public static func target(of url: String, base: String) -> Target? {
        guard let link = URLComponents(string: url), let own = URLComponents(string: base),
              let scheme = link.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = link.host?.lowercased(), host == own.host?.lowercased(),
              link.port == own.port else { return nil }
        let path = link.path
        func number(_ text: Substring) -> Int64? {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int64(text), value > 0 else { return nil }
            return value
        }
        for (prefix, make) in [("/radio/s/", Target.show), ("/radio/e/", Target.episode)] where path.hasPrefix(prefix) {
            return number(path.dropFirst(prefix.count)).map(make)
        }
        if path == "/radio/show/" || path == "/radio/show" || path == "/radio/show/index.html",
           let id = link.queryItems?.first(where: { $0.name == "id" })?.value {
            return number(Substring(id)).map(Target.show)
        }
        return nil
    }

    /// The `rich` answer (oEmbed 1.0 §2.3.4, §2.3.5) as JSON object fields.
    public struct Answer: Encodable, Sendable, Hashable {
        public let type = "rich"
        public let version = "1.0"
        public var title: String
        public var authorName: String
        public var authorURL: String
        public var providerName: String
        public var providerURL: String
        public var cacheAge: Int = 3600
        public var thumbnailURL: String?
        public var html: String
        public var width: Int
        public var height: Int

        enum CodingKeys: String, CodingKey {
            case type, version, title, html, width, height
            case authorName = "author_name", authorURL = "author_url", providerName = "provider_name"
            case providerURL = "provider_url", cacheAge = "cache_age", thumbnailURL = "thumbnail_url"
        }
    }

    /// The size of the player within the consumer's maxima (oEmbed §2.2: never larger).
    public static func size(maxWidth: Int?, maxHeight: Int?) -> (width: Int, height: Int) {
        (min(defaultWidth, maxWidth ?? .max), min(defaultHeight, maxHeight ?? .max))
    }

    /// The answer for a player at `embedURL` of `width` × `height`.
    public static func answer(title: String, authorName: String, authorURL: String, providerURL: String,
                              thumbnailURL: String?, embedURL: String, width: Int, height: Int) -> Answer {
        let e: (String) -> String = { XMLText.escape($0, .text) }
        let html = "<iframe src=\"\(e(embedURL))\" width=\"\(width)\" height=\"\(height)\" "
            + "title=\"\(e(title))\" frameborder=\"0\" scrolling=\"no\" allow=\"autoplay\" loading=\"lazy\"></iframe>"
        return Answer(title: title, authorName: authorName, authorURL: authorURL, providerName: "Quintet",
                      providerURL: providerURL, thumbnailURL: thumbnailURL, html: html, width: width, height: height)
    }
}
