import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import QuintetServer
import Testing

@Suite("Crowd page as served (tiles, attribution, geocoder)")
struct CrowdPageTests {
    @Test("a tile template must be http(s) with a host and {z}, {x}, {y}; the problem is said")
    func templates() {
        #expect(CrowdPage.tileTemplateProblem("https://tile.openstreetmap.org/{z}/{x}/{y}.png") == nil)
        #expect(CrowdPage.tileTemplateProblem("http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png?key=abc") == nil)
        #expect(CrowdPage.tileTemplateProblem("https://{s}.tile.example.org/{z}/{x}/{y}.png") == nil)
        #expect(CrowdPage.tileTemplateProblem("ftp://tiles.example.org/{z}/{x}/{y}.png")?.contains("http://") == true)
        #expect(CrowdPage.tileTemplateProblem("/tiles/{z}/{x}/{y}.png")?.contains("http://") == true)
        #expect(CrowdPage.tileTemplateProblem("javascript:alert(1)//{z}/{x}/{y}") != nil)
        #expect(CrowdPage.tileTemplateProblem("https://tiles.example.org/{z}/{x}.png") == "must contain {y} (zoom, column and row of a tile)")
        #expect(CrowdPage.tileTemplateProblem("https://tiles.example.org/tile.png")?.contains("{z}, {x}, {y}") == true)
        #expect(CrowdPage.tileTemplateProblem("https:///{z}/{x}/{y}.png") != nil)
        #expect(CrowdPage.tileTemplateProblem("https://tiles example.org/{z}/{x}/{y}.png") != nil)
        #expect(CrowdPage.geocoderProblem("https://nominatim.example.org") == nil)
        #expect(CrowdPage.geocoderProblem("http://127.0.0.1:9000/nominatim/") == nil)
        #expect(CrowdPage.geocoderProblem("nominatim.example.org") != nil)
        #expect(CrowdPage.geocoderProblem("https://nominatim.example.org/reverse?format=json") != nil)
    }

    @Test("the settings go into the metas' content, escaped; absent settings keep the file's value")
    func render() {
        let html = #"<head><meta name="crowd-geocoder" content=""><meta name="crowd-tiles" content=""><meta name="crowd-tiles-attribution" content="kept"></head>"#
        let page = CrowdPage(tiles: "https://t.example.org/{z}/{x}/{y}.png?a=1&b=2", tilesAttribution: nil, geocoder: true)
        #expect(page.render(html) == #"<head><meta name="crowd-geocoder" content="on"><meta name="crowd-tiles" content="https://t.example.org/{z}/{x}/{y}.png?a=1&amp;b=2"><meta name="crowd-tiles-attribution" content="kept"></head>"#)
        let hostile = CrowdPage(tiles: nil, tilesAttribution: #"© "x"><script>alert(1)</script>"#)
        let rendered = hostile.render(html)
        #expect(rendered.contains(#"content="© &quot;x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;""#))
        #expect(!rendered.contains("<script>"))
        #expect(CrowdPage().render(html) == html && !CrowdPage().writesPage)
    }

    @Test("GET and HEAD of /crowd/ and /crowd/index.html answer the page with the settings; other files pass on")
    func served() async throws {
        let page = CrowdPage(tiles: "http://127.0.0.1:9/{z}/{x}/{y}.png", tilesAttribution: "© Test & Co", geocoder: false)
        let s = try await CrowdServer.make(page: page)
        try await Application(router: s.router).test(.router) { client in
            for path in ["/crowd/", "/crowd/index.html"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains(#"<meta name="crowd-tiles" content="http://127.0.0.1:9/{z}/{x}/{y}.png">"#))
                #expect(html.contains(#"<meta name="crowd-tiles-attribution" content="© Test &amp; Co">"#))
                #expect(html.contains(#"<meta name="crowd-geocoder" content="">"#))
                #expect(html.contains(#"<script type="module" src="/crowd/crowd.js"></script>"#))
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == .ok && head.body.readableBytes == 0)
                #expect(head.headers[.contentLength] == String(response.body.readableBytes))
            }
            let script = try await client.execute(uri: "/crowd/crowd.js", method: .get)
            #expect(script.status == .ok && String(buffer: script.body).contains("crowd-geocoder"))
            let redirect = try await client.execute(uri: "/crowd", method: .get)
            #expect((300..<400).contains(redirect.status.code) && redirect.headers[.location] == "/crowd/")
        }
        await s.remove()

        // Without settings, the file goes out as it is.
        let plain = try await CrowdServer.make()
        try await Application(router: plain.router).test(.router) { client in
            let response = try await client.execute(uri: "/crowd/", method: .get)
            let file = try String(contentsOf: webDirectory.appendingPathComponent("crowd/index.html"), encoding: .utf8)
            #expect(String(buffer: response.body) == file)
        }
        await plain.remove()
    }
}
