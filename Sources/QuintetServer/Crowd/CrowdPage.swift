import Foundation
import Hummingbird
import WireFormats

/// What the server writes into the crowd page (`Web/crowd/index.html`) as it serves it: the
/// map's tile template and its credit (`serve --crowd-tiles`, `--crowd-tiles-attribution`) and
/// whether place names can be asked (`--crowd-geocoder`). Each goes into the `content` of the
/// page's own `<meta name="crowd-tiles">`, `<meta name="crowd-tiles-attribution">` and
/// `<meta name="crowd-geocoder">`; a setting that is not given leaves the file's value as it is.
///
/// ```swift
/// let page = try CrowdPage(tiles: "https://tile.example.org/{z}/{x}/{y}.png", tilesAttribution: "© OSM", geocoder: false)
/// let html = page.render(template)      // the metas filled in, HTML-escaped
/// ```
public struct CrowdPage: Sendable, Equatable {
    /// The tile URL template (`https://…/{z}/{x}/{y}.png`), checked by ``tileTemplateProblem(_:)``.
    public var tiles: String?
    /// The tile provider's required credit, shown in the map's corner.
    public var tilesAttribution: String?
    /// Whether `GET /api/crowd/place` has a geocoder behind it.
    public var geocoder: Bool

    public init(tiles: String? = nil, tilesAttribution: String? = nil, geocoder: Bool = false) {
        self.tiles = tiles
        self.tilesAttribution = tilesAttribution
        self.geocoder = geocoder
    }

    /// Whether anything is written into the page (else the file is served as it is).
    public var writesPage: Bool { tiles != nil || tilesAttribution != nil || geocoder }

    /// What is wrong with a tile URL template, or nil when it is usable: an http(s) URL with a
    /// host and the placeholders `{z}`, `{x}` and `{y}` (`{s}` is allowed: the page fills in `a`).
    public static func tileTemplateProblem(_ template: String) -> String? {
        guard template.count <= 2000 else { return "is longer than 2000 characters" }
        let lower = template.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return "must start with http:// or https://" }
        let missing = ["{z}", "{x}", "{y}"].filter { !template.contains($0) }
        guard missing.isEmpty else { return "must contain \(missing.joined(separator: ", ")) (zoom, column and row of a tile)" }
        var sample = template
        for slot in ["{z}", "{x}", "{y}", "{s}"] { sample = sample.replacingOccurrences(of: slot, with: "0") }
        guard let url = URL(string: sample), let host = url.host, !host.isEmpty else {
            return "is not a valid URL (spaces, quotes or other braces must be percent-encoded)"
        }
        return nil
    }

    /// What is wrong with a geocoder's base URL, or nil: an http(s) URL with a host, without a
    /// query or fragment (`/reverse?…` is added to its path).
    public static func geocoderProblem(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
              let parts = URLComponents(string: text), let host = parts.host, !host.isEmpty else {
            return "must be an http(s) URL like https://nominatim.example.org"
        }
        guard parts.query == nil, parts.fragment == nil else { return "must not have a query or fragment (the server adds /reverse?…)" }
        return nil
    }

    /// `html` with the metas' `content` set to the settings given (escaped for an attribute).
    public func render(_ html: String) -> String {
        var page = html
        if let tiles { page = Self.setting(page, meta: "crowd-tiles", to: tiles) }
        if let tilesAttribution { page = Self.setting(page, meta: "crowd-tiles-attribution", to: tilesAttribution) }
        if geocoder { page = Self.setting(page, meta: "crowd-geocoder", to: "on") }
        return page
    }

    /// Sets the `content` of `<meta name="NAME" content="…">` (written in that form, as the page
    /// has it); a page without that meta is left as it is.
    static func setting(_ html: String, meta name: String, to value: String) -> String {
        let opening = "<meta name=\"\(name)\" content=\""
        guard let start = html.range(of: opening),
              let close = html[start.upperBound...].firstIndex(of: "\"") else { return html }
        var page = html
        page.replaceSubrange(start.upperBound..<close, with: XMLText.escape(value, .attribute))
        return page
    }
}

/// Answers `GET`/`HEAD` of the crowd page (`/crowd/`, `/crowd/index.html`) with the page as
/// ``CrowdPage`` renders it. It stands before the file middleware, which would otherwise
/// serve the file untouched; every other request passes on.
struct CrowdPageMiddleware<Context: RequestContext>: RouterMiddleware {
    let page: CrowdPage
    let file: URL

    init(page: CrowdPage, webDirectory: URL) {
        self.page = page
        file = webDirectory.appendingPathComponent("crowd/index.html")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get || request.method == .head, path == "/crowd/" || path == "/crowd/index.html" else {
            return try await next(request, context)
        }
        let file = self.file
        let html = page.render(try await Blocking.run { try String(contentsOf: file, encoding: .utf8) })
        let bytes = ByteBuffer(string: html)
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: request.method == .head ? .init() : .init(byteBuffer: bytes))
    }
}
