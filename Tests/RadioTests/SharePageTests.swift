import AudioCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GRDB
import QuintetStore
import Radio
import Testing

/// Sharing's cores (issue 24 §2, §3): the share page's tags, oEmbed's link parsing and sizes,
/// the OPML export, and the public queries that hide deleted shows and episodes.
@Suite("Sharing: share pages, oEmbed, OPML")
struct SharePageTests {
    static let hostile = #"Night "DJ" <script>alert('x')</script> & Co"#

    /// The `<meta>` tags of a page: property or name → content, read back with the entities undone.
    static func metaTags(_ html: String) -> [String: String] {
        var tags: [String: String] = [:]
        let pattern = try! NSRegularExpression(pattern: #"<meta (property|name)="([^"]+)" content="([^"]*)">"#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let key = String(html[Range(match.range(at: 2), in: html)!])
            let value = String(html[Range(match.range(at: 3), in: html)!])
            tags[key] = value.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        return tags
    }

    @Test("an episode's page: OpenGraph, a player card, oEmbed discovery; hostile text escaped")
    func episodePage() {
        let page = SharePage(
            title: Self.hostile, description: "Line one\u{07}\n" + String(repeating: "x", count: 400),
            url: "https://r.example/radio/e/7", type: "music.song", imageURL: "https://r.example/radio/covers/2?a=1&b=\"2\"",
            audioURL: "https://r.example/radio/episodes/7.mp3", audioType: "audio/mpeg",
            pageURL: "https://r.example/radio/show/?id=2", oEmbedURL: "https://r.example/api/oembed?url=x&format=json",
            player: .init(url: "https://r.example/radio/embed/?episode=7", width: 480, height: 160), language: "it")
        let html = page.html()
        #expect(!html.contains("<script>") && !html.contains("\u{07}"))
        #expect(html.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; Co"))
        let tags = Self.metaTags(html)
        #expect(tags["og:title"] == Self.hostile)
        #expect(tags["og:image"] == "https://r.example/radio/covers/2?a=1&b=\"2\"")
        #expect(tags["og:audio"] == "https://r.example/radio/episodes/7.mp3" && tags["og:audio:type"] == "audio/mpeg")
        #expect(tags["og:url"] == "https://r.example/radio/e/7" && tags["og:type"] == "music.song")
        #expect(tags["og:site_name"] == "Quintet")
        #expect(tags["og:description"]?.count == SharePage.maxDescription)
        #expect(tags["twitter:card"] == "player")
        #expect(tags["twitter:player"] == "https://r.example/radio/embed/?episode=7")
        #expect(tags["twitter:player:width"] == "480" && tags["twitter:player:height"] == "160")
        #expect(html.contains(#"<link rel="alternate" type="application/json+oembed" href="https://r.example/api/oembed?url=x&amp;format=json""#))
        #expect(html.contains(#"<meta http-equiv="refresh" content="0; url=https://r.example/radio/show/?id=2">"#))
        #expect(html.contains(#"<html lang="it">"#))
    }

    @Test("a show's page is a summary card without audio")
    func showPage() {
        let html = SharePage(title: "Morning", description: "", url: "http://h/radio/s/1", type: "website", imageURL: nil,
                             pageURL: "http://h/radio/show/?id=1", oEmbedURL: "http://h/api/oembed").html()
        let tags = Self.metaTags(html)
        #expect(tags["twitter:card"] == "summary" && tags["twitter:player"] == nil)
        #expect(tags["og:audio"] == nil && tags["og:image"] == nil && tags["og:type"] == "website")
    }

    @Test("oEmbed: this site's share links are targets; other hosts, ports and paths are not")
    func oEmbedTargets() {
        let base = "https://radio.example"
        #expect(OEmbed.target(of: "https://radio.example/radio/e/12", base: base) == .episode(12))
        #expect(OEmbed.target(of: "http://RADIO.example/radio/s/3?utm=x", base: base) == .show(3))
        #expect(OEmbed.target(of: "https://radio.example/radio/show/?id=4", base: base) == .show(4))
        #expect(OEmbed.target(of: "https://evil.example/radio/e/12", base: base) == nil)
        #expect(OEmbed.target(of: "https://radio.example:8443/radio/e/12", base: base) == nil)
        #expect(OEmbed.target(of: "https://radio.example/radio/e/0", base: base) == nil)
        #expect(OEmbed.target(of: "https://radio.example/radio/e/12abc", base: base) == nil)
        #expect(OEmbed.target(of: "https://radio.example/radio/e/99999999999999999999", base: base) == nil)
        #expect(OEmbed.target(of: "ftp://radio.example/radio/e/1", base: base) == nil)
        #expect(OEmbed.target(of: "http://127.0.0.1:8080/radio/e/5", base: "http://127.0.0.1:8080") == .episode(5))
        let narrow = OEmbed.size(maxWidth: 300, maxHeight: nil)
        #expect(narrow.width == 300 && narrow.height == OEmbed.defaultHeight)
        let short = OEmbed.size(maxWidth: 2000, maxHeight: 90)
        #expect(short.width == OEmbed.defaultWidth && short.height == 90)
        let answer = OEmbed.answer(title: #"A "quoted" <b>"#, authorName: "a", authorURL: "u", providerURL: "p",
                                   thumbnailURL: nil, embedURL: "https://r/radio/embed/?episode=1&x=\"", width: 480, height: 160)
        #expect(answer.html.hasPrefix(#"<iframe src="https://r/radio/embed/?episode=1&amp;x=&quot;" width="480" height="160""#))
        #expect(answer.html.contains(#"title="A &quot;quoted&quot; &lt;b&gt;""#))
    }

    @Test("OPML 2.0: one rss outline per show, hostile titles escaped, well-formed")
    func opml() throws {
        let xml = FollowingOPML(owner: "ada <3", created: Date(timeIntervalSince1970: 0), shows: [
            .init(title: Self.hostile + "\u{01}", feedURL: "https://r/radio/feeds/1.xml?a=1&b=2", pageURL: "https://r/radio/show/?id=1"),
            .init(title: "Two", feedURL: "https://r/radio/feeds/2.xml", pageURL: "https://r/radio/show/?id=2"),
        ]).xml()
        let elements = ElementCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = elements
        #expect(parser.parse(), "\(xml)")
        #expect(elements.all("opml").first?.attributes["version"] == "2.0")
        let outlines = elements.all("outline")
        #expect(outlines.count == 2)
        #expect(outlines[0].attributes["type"] == "rss")
        #expect(outlines[0].attributes["text"] == Self.hostile + "\u{FFFD}")
        #expect(outlines[0].attributes["title"] == Self.hostile + "\u{FFFD}")
        #expect(outlines[0].attributes["xmlUrl"] == "https://r/radio/feeds/1.xml?a=1&b=2")
        #expect(outlines[1].attributes["htmlUrl"] == "https://r/radio/show/?id=2")
        #expect(elements.all("ownerName").first?.text == "ada <3")
        #expect(elements.all("dateCreated").first?.text == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test("public queries hide deleted shows and episodes and unpublished episodes; follows skip deleted shows")
    func publicQueries() throws {
        let f = try RadioStoreTests.Folder()
        defer { f.remove() }
        let tone = try RadioStoreTests.liveStream(seconds: 1, in: f.directory)
        let kept = try f.radio.createShow(owner: f.owner.id!, .init(title: "Kept"))
        let gone = try f.radio.createShow(owner: f.owner.id!, .init(title: "Gone"))
        let aired = try f.radio.importEpisode(showID: kept.id!, file: tone, title: "Aired", publish: true, computePeaks: false)
        let draft = try f.radio.importEpisode(showID: kept.id!, file: tone, title: "Draft", publish: false, computePeaks: false)
        let binned = try f.radio.importEpisode(showID: kept.id!, file: tone, title: "Binned", publish: true, computePeaks: false)
        let orphan = try f.radio.importEpisode(showID: gone.id!, file: tone, title: "Orphan", publish: true, computePeaks: false)
        try f.database.pool.write { db in
            try db.execute(sql: "UPDATE radio_shows SET deleted_at = ? WHERE id = ?", arguments: [Date(), gone.id!])
            try db.execute(sql: "UPDATE radio_episodes SET deleted_at = ? WHERE id = ?", arguments: [Date(), binned.id!])
            for show in [kept.id!, gone.id!] {
                try db.execute(sql: "INSERT INTO radio_show_follows (follower_id, show_id, created_at) VALUES (?, ?, ?)",
                               arguments: [f.owner.id!, show, Date()])
            }
        }
        #expect(try f.radio.publicShow(id: kept.id!) != nil)
        #expect(try f.radio.publicShow(id: gone.id!) == nil)
        #expect(try f.radio.publicShows().map(\.id) == [kept.id])
        #expect(try f.radio.publicShows(ids: [gone.id!]).isEmpty)
        #expect(try f.radio.publicEpisode(id: aired.id!)?.show.id == kept.id)
        for hidden in [draft, binned, orphan] { #expect(try f.radio.publicEpisode(id: hidden.id!) == nil) }
        #expect(try f.radio.publicEpisodes(limit: 10).map(\.id) == [aired.id])
        #expect(try f.radio.followedShows(userID: f.owner.id!).map(\.id) == [kept.id])
        let opml = try f.radio.followingOPML(userID: f.owner.id!, userName: "host", base: "https://r.example")
        #expect(opml.contains(#"xmlUrl="https://r.example/radio/feeds/\#(kept.id!).xml""#))
        #expect(!opml.contains("Gone"))
    }
}
