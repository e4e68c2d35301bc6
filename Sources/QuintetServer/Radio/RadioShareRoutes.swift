import Foundation
import HTTPTypes
import Hummingbird
import QuintetStore
import Radio
import WireFormats

/// Sharing the radio (docs/radio.md, "Community: sharing, Subsonic podcasts and OPML"):
///
/// - `GET /radio/s/{id}`, `GET /radio/e/{id}`: a show's or an episode's share page, HTML with
///   OpenGraph and Twitter card tags and the oEmbed discovery link (``SharePage``); a deleted
///   show, or an episode that is deleted or not published, is a 404 page.
/// - `GET /api/oembed?url=&format=json&maxwidth=&maxheight=`: oEmbed 1.0 (``OEmbed``).
/// - `GET /api/radio/following.opml` (signed in): the shows the user follows (``FollowingOPML``).
///
/// Absolute URLs start with `--public-url`, else `http://` and the request's Host, as the feeds'.
public enum RadioShareRoutes {
    /// Adds the routes.
    public static func add(to router: Router<QuintetRequestContext>, radio: RadioStore, auth: Authenticator,
                           publicURL: String? = nil) {
        let routes = Handlers(radio: radio, base: RadioRoutes.Handlers(radio: radio, publicURL: publicURL.map(RadioRoutes.trimmedBase)))
        router.get("radio/s/{id}") { request, context in try await routes.showPage(request, context) }
        router.get("radio/e/{id}") { request, context in try await routes.episodePage(request, context) }
        router.get("api/oembed") { request, _ in try await routes.oEmbed(request) }
        router.group("api/radio").addSignIn(auth, required: true)
            .get("following.opml") { request, context in try await routes.opml(request, context) }
    }

    /// The show page a share link sends people to (another part of issue 24 builds it).
    static func showPagePath(_ showID: Int64) -> String { RadioStore.showPagePath(showID) }
    /// The embed player page.
    static func embedPath(_ target: OEmbed.Target) -> String {
        switch target {
        case .show(let id): "/radio/embed/?show=\(id)"
        case .episode(let id): "/radio/embed/?episode=\(id)"
        }
    }

    struct Handlers: Sendable {
        let radio: RadioStore
        /// The podcast routes' helpers: base URL, cover URL, audio path.
        let base: RadioRoutes.Handlers

        func showPage(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            guard let id = Int64(context.parameters.get("id") ?? ""), id > 0 else { return notFound() }
            let root = base.baseURL(request)
            let found = try await Blocking.run { () -> (RadioShow, Int)? in
                guard let show = try radio.publicShow(id: id) else { return nil }
                return (show, try radio.episodeCount(showID: id, states: [.published]))
            }
            guard let (show, count) = found else { return notFound() }
            let link = "\(root)/radio/s/\(id)"
            let page = SharePage(
                title: show.title, description: show.description.isEmpty ? "\(count) episodes" : show.description,
                url: link, type: "website", imageURL: base.coverURL(of: show, base: root),
                pageURL: "\(root)\(RadioShareRoutes.showPagePath(id))", oEmbedURL: oEmbedLink(root, link),
                language: show.language)
            return html(page.html(), status: .ok)
        }

        func episodePage(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            guard let id = Int64(context.parameters.get("id") ?? ""), id > 0 else { return notFound() }
            let root = base.baseURL(request)
            guard let (episode, show) = try await Blocking.run({ try radio.publicEpisode(id: id) }) else { return notFound() }
            let link = "\(root)/radio/e/\(id)"
            let size = OEmbed.size(maxWidth: nil, maxHeight: nil)
            let page = SharePage(
                title: episode.title, description: episode.description.isEmpty ? show.title : episode.description,
                url: link, type: "music.song", imageURL: base.coverURL(of: show, base: root),
                audioURL: "\(root)\(base.audioPath(of: episode))", audioType: episode.contentType,
                pageURL: "\(root)\(RadioShareRoutes.showPagePath(show.id!))", oEmbedURL: oEmbedLink(root, link),
                player: .init(url: "\(root)\(RadioShareRoutes.embedPath(.episode(id)))", width: size.width, height: size.height),
                language: show.language)
            return html(page.html(), status: .ok)
        }

        func oEmbed(_ request: Request) async throws -> Response {
            let fields = FormFields(request.uri.query)
            guard let url = fields.get("url"), !url.isEmpty else {
                throw APIError(.badRequest, code: "invalid_input", message: "url is required (a share link of this site)")
            }
            guard url.count <= 2048, URLComponents(string: url)?.host != nil else {
                throw APIError(.badRequest, code: "invalid_input", message: "url must be an absolute http(s) URL")
            }
            let format = fields.get("format") ?? "json"
            guard format == "json" else {
                throw APIError(.notImplemented, message: "only format=json is offered, not '\(format.prefix(20))'")
            }
            func dimension(_ name: String) throws -> Int? {
                guard let text = fields.get(name), !text.isEmpty else { return nil }
                guard let n = Int(text), n > 0 else {
                    throw APIError(.badRequest, code: "invalid_input", message: "\(name) must be a positive integer, not '\(text.prefix(20))'")
                }
                return n
            }
            let size = OEmbed.size(maxWidth: try dimension("maxwidth"), maxHeight: try dimension("maxheight"))
            let root = base.baseURL(request)
            guard let target = OEmbed.target(of: url, base: root) else {
                throw APIError(.notFound, message: "not a share link of this site")
            }
            let found = try await Blocking.run { () -> (title: String, show: RadioShow, owner: String)? in
                let users = UserStore(database: radio.database)
                switch target {
                case .show(let id):
                    guard let show = try radio.publicShow(id: id) else { return nil }
                    return (show.title, show, try users.find(id: show.ownerID)?.name ?? "")
                case .episode(let id):
                    guard let (episode, show) = try radio.publicEpisode(id: id) else { return nil }
                    return (episode.title, show, try users.find(id: show.ownerID)?.name ?? "")
                }
            }
            guard let found else { throw APIError(.notFound, message: "nothing is shared at that link") }
            let answer = OEmbed.answer(
                title: found.title, authorName: found.owner.isEmpty ? found.show.title : found.owner,
                authorURL: "\(root)/radio/s/\(found.show.id!)", providerURL: "\(root)/radio/",
                thumbnailURL: base.coverURL(of: found.show, base: root),
                embedURL: "\(root)\(RadioShareRoutes.embedPath(target))", width: size.width, height: size.height)
            return try APIJSON.response(answer, headers: [.cacheControl: "public, max-age=300"], keys: .asDeclared)
        }

        func opml(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            guard let user = context.identity, let userID = user.id else {
                throw APIError(.unauthorized, message: "sign in to export the shows you follow")
            }
            let root = base.baseURL(request)
            let xml = try await Blocking.run {
                try radio.followingOPML(userID: userID, userName: user.name, base: root)
            }
            return Response(status: .ok, headers: [.contentType: "text/x-opml; charset=utf-8", .cacheControl: "private, no-cache",
                                                   .contentDisposition: "attachment; filename=\"following.opml\""],
                            body: .init(byteBuffer: ByteBuffer(string: xml)))
        }

        func oEmbedLink(_ root: String, _ link: String) -> String {
            // The link is a query value: every character but the unreserved ones encoded.
            let encoded = link.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? link
            return "\(root)/api/oembed?url=\(encoded)&format=json"
        }

        func html(_ text: String, status: HTTPResponse.Status) -> Response {
            Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "public, max-age=60"],
                     body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        func notFound() -> Response {
            Response(status: .notFound, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: """
                     <!doctype html>
                     <html lang="en"><head><meta charset="utf-8"><title>Not found · Quintet</title></head>
                     <body><h1>Not found</h1><p>Nothing is shared at this link: it may have been deleted.</p>
                     <p><a href="/radio/">Quintet radio</a></p></body></html>

                     """)))
        }
    }
}
