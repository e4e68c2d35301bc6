import Foundation
import WireFormats

/// An OPML 2.0 subscription list (opml.org/spec2): the shows a user follows, each an
/// `<outline type="rss">` with its feed (`xmlUrl`) and page (`htmlUrl`), as podcast apps
/// import them. Every text is XML-escaped with controls removed (``XMLText/escape(_:_:)``).
///
/// ```swift
/// let xml = FollowingOPML(owner: "ada", created: Date(), shows: [
///     .init(title: "Morning", feedURL: "https://r.example/radio/feeds/1.xml", pageURL: "https://r.example/radio/show/?id=1"),
/// ]).xml()
/// ```
public struct FollowingOPML: Sendable, Hashable {
    /// One followed show.
    public struct Show: Sendable, Hashable {
        public var title: String
        public var feedURL: String
        public var pageURL: String

        public init(title: String, feedURL: String, pageURL: String) {
            self.title = title
            self.feedURL = feedURL
            self.pageURL = pageURL
        }
    }

    /// The user whose list this is (in `<title>` and `<ownerName>`).
    public var owner: String
    /// `<dateCreated>`.
    public var created: Date
    /// The shows, in the order written.
    public var shows: [Show]

    public init(owner: String, created: Date, shows: [Show]) {
        self.owner = owner
        self.created = created
        self.shows = shows
    }

    /// The document (UTF-8).
    public func xml() -> String {
        let a: (String) -> String = { XMLText.escape($0, .attribute) }
        let e: (String) -> String = { XMLText.escape($0, .text) }
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
        <head>
        <title>\(e("Shows \(owner) follows on Quintet"))</title>
        <dateCreated>\(UTCDate.rfc822(created, zone: .gmt))</dateCreated>
        <ownerName>\(e(owner))</ownerName>
        </head>
        <body>

        """
        for show in shows {
            out += "<outline type=\"rss\" text=\"\(a(show.title))\" title=\"\(a(show.title))\" "
                + "xmlUrl=\"\(a(show.feedURL))\" htmlUrl=\"\(a(show.pageURL))\"/>\n"
        }
        return out + "</body>\n</opml>\n"
    }
}

extension RadioStore {
    /// The page of a show (`/radio/show/?id=N`), where share links and the OPML's `htmlUrl` lead.
    public static func showPagePath(_ showID: Int64) -> String { "/radio/show/?id=\(showID)" }

    /// The OPML of the non-deleted shows `userID` follows, with absolute URLs under `base`
    /// (`https://radio.example`): the route `/api/radio/following.opml` and `quintet radio opml`.
    public func followingOPML(userID: Int64, userName: String, base: String, now: Date = Date()) throws -> String {
        let shows = try followedShows(userID: userID).map { show in
            FollowingOPML.Show(title: show.title, feedURL: "\(base)/radio/feeds/\(show.id!).xml",
                               pageURL: "\(base)\(Self.showPagePath(show.id!))")
        }
        return FollowingOPML(owner: userName, created: now, shows: shows).xml()
    }
}
