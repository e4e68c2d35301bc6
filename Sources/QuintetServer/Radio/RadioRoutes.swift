import Foundation
import HTTPTypes
import Hummingbird
import QuintetStore
import Radio
import WireFormats

/// The radio's podcast side and its JSON API (docs/radio.md, "Podcast feed and downloads"):
///
/// - `GET /api/radio/shows`, `GET /api/radio/shows/{id}`: shows (never their stream keys).
/// - `GET /api/radio/episodes?show=&limit=`: recent episodes, newest first;
///   `GET /api/radio/episodes/{id}`: one episode with its waveform peaks;
///   `GET /api/radio/episodes/{id}/chat`: its live chat, kept after the broadcast (RadioRoutes+Chat.swift).
/// - `GET /radio/feeds/{id}.xml`: a show's RSS feed of its published episodes.
/// - `GET /radio/episodes/{id}.mp3` (or `.aac`): the episode file with HTTP Range.
/// - `GET /radio/covers/{id}`: a show's cover when it is a file in the data folder.
///
/// Published episodes are public. A signed-in owner (HTTP Basic or the web session) also
/// sees and downloads their own recorded and live episodes; an admin sees everyone's. Others
/// get 404 for those, as for ids that do not exist.
public enum RadioRoutes {
    /// Most episodes one listing returns.
    public static let maxLimit = 500

    /// Adds the routes. `publicURL` (e.g. `https://radio.example.org`) is the base of absolute
    /// URLs in feeds; when nil it is `http://` plus the request's `Host`.
    public static func add(to router: Router<QuintetRequestContext>, radio: RadioStore, auth: Authenticator,
                           publicURL: String? = nil) {
        let routes = Handlers(radio: radio, publicURL: publicURL.map(Self.trimmedBase))
        // Signing in is optional: it shows the owner's (or an admin's) unpublished episodes.
        let api = router.group("api/radio").addSignIn(auth, required: false)
        api.get("shows") { request, context in try await routes.shows(request, context) }
        api.get("shows/{id}") { request, context in try await routes.show(request, context) }
        api.get("episodes") { request, context in try await routes.episodes(request, context) }
        api.get("episodes/{id}") { request, context in try await routes.episode(request, context) }
        api.get("episodes/{id}/chat") { request, context in try await routes.episodeChat(request, context) }
        router.get("radio/feeds/{id}.xml") { request, context in try await routes.feed(request, context) }
        router.get("radio/covers/{id}") { request, context in try await routes.cover(request, context) }
        let files = router.group("radio/episodes").addSignIn(auth, required: false)
        files.get("{id}.mp3") { request, context in try await routes.download(request, context) }
        files.head("{id}.mp3") { request, context in try await routes.download(request, context) }
        files.get("{id}.aac") { request, context in try await routes.download(request, context) }
        files.head("{id}.aac") { request, context in try await routes.download(request, context) }
        RadioShowEditRoutes.add(to: router, routes: routes, auth: auth)
    }

    static func trimmedBase(_ url: String) -> String {
        var base = url.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Whether a download of `range` (nil: the whole file) counts as a listen: it must start at
    /// byte 0 and ask for more than 2 bytes, so a player's follow-up ranges and the
    /// `bytes=0-1` probe podcast apps send first are not counted. HEAD never counts.
    public static func countsAsListen(_ range: ClosedRange<Int64>?) -> Bool {
        guard let range else { return true }
        return range.lowerBound == 0 && range.upperBound >= 2
    }

    // MARK: views

    struct ShowView: Encodable {
        let id: Int64, slug: String, title: String, description: String, coverURL: String?, language: String
        let explicit: Bool, location: String?, mount: String, owner: String, publishAutomatically: Bool
        let maxEpisodeSeconds: Int, fallbackMount: String?, createdAt: Date, feedURL: String, episodeCount: Int
        let category: String?, subcategory: String?
        /// Whether the viewer may edit the show (its owner or an admin).
        let editable: Bool
        /// When it was deleted (only in its owner's views of deleted shows).
        let deletedAt: Date?
        /// How many follow it, and whether the viewer does (only in `GET /api/radio/shows/{id}`;
        /// `followed_by_you` is false when signed out).
        var followers: Int? = nil
        var followedByYou: Bool? = nil
    }

    struct EpisodeView: Encodable {
        let id: Int64, showID: Int64, showTitle: String, title: String, description: String, state: String
        let startedAt: Date, endedAt: Date?, publishedAt: Date?, duration: Double, size: Int64, contentType: String
        let listens: Int, peakListeners: Int, guid: String, audioURL: String
        /// When it was deleted (only in its owner's views of deleted episodes).
        let deletedAt: Date?
        var peaks: PeaksView?
    }

    struct PeaksView: Encodable { let minima: [Float], maxima: [Float] }

    struct Handlers: Sendable {
        let radio: RadioStore
        let publicURL: String?

        // MARK: JSON

        func shows(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let viewer = context.identity
            let base = baseURL(request)
            let views = try await blocking {
                try radio.shows().map { try view(of: $0, viewer: viewer, base: base) }
            }
            return try APIJSON.response(views)
        }

        func show(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let id = try context.parameters.id()
            let viewer = context.identity
            let base = baseURL(request)
            let found = try await blocking { () -> ShowView? in
                guard let show = try radio.show(id: id) else { return nil }
                var found = try view(of: show, viewer: viewer, base: base)
                let follows = RadioFollows(database: radio.database)
                found.followers = try follows.followerCount(showID: id)
                found.followedByYou = try viewer?.id.map { try follows.follows($0, show: id) } ?? false
                return found
            }
            guard let found else { throw APIError(.notFound, message: "no show \(id)") }
            return try APIJSON.response(found)
        }

        func episodes(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let fields = FormFields(request.uri.query)
            var chosenShow: Int64?
            if let text = fields.get("show") {
                guard let id = Int64(text), id > 0 else {
                    throw APIError(.badRequest, code: "invalid_input", message: "show must be a positive integer id, not '\(text.prefix(40))'")
                }
                chosenShow = id
            }
            var chosenLimit = 50
            if let text = fields.get("limit") {
                guard let n = Int(text), (1...maxLimit).contains(n) else {
                    throw APIError(.badRequest, code: "invalid_input", message: "limit must be an integer from 1 to \(maxLimit), not '\(text.prefix(40))'")
                }
                chosenLimit = n
            }
            let viewer = context.identity
            let (showID, limit) = (chosenShow, chosenLimit)
            let views = try await blocking { () -> [EpisodeView]? in
                if let showID, try radio.show(id: showID) == nil { return nil }
                var shows: [Int64: RadioShow] = [:]
                for show in try radio.shows() { shows[show.id!] = show }
                // Public listings hold published episodes; a signed-in owner or admin also
                // gets the others they may see.
                let visibleStates: Set<EpisodeState>? = viewer == nil ? [.published] : nil
                var out: [EpisodeView] = []
                var offsetLimit = limit
                while true {
                    let page = try radio.episodes(showID: showID, states: visibleStates, limit: offsetLimit)
                    out = page.compactMap { episode in
                        guard let show = shows[episode.showID], may(viewer, see: episode, of: show) else { return nil }
                        return view(of: episode, show: show)
                    }
                    // Rare: episodes hidden from this viewer took places; ask for more.
                    if out.count >= limit || page.count < offsetLimit || offsetLimit >= 10 * limit { break }
                    offsetLimit *= 2
                }
                return Array(out.prefix(limit))
            }
            guard let views else { throw APIError(.notFound, message: "no show \(showID ?? 0)") }
            return try APIJSON.response(views)
        }

        func episode(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let id = try context.parameters.id()
            let viewer = context.identity
            let found = try await blocking { try visibleEpisode(id, viewer: viewer) }
            var view = view(of: found.episode, show: found.show)
            if let waveform = found.episode.waveform { view.peaks = PeaksView(minima: waveform.minima, maxima: waveform.maxima) }
            return try APIJSON.response(view)
        }

        // MARK: feed

        func feed(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let id = try context.parameters.id()
            let base = baseURL(request)
            let xml = try await blocking { () -> String? in
                guard let show = try radio.show(id: id) else { return nil }
                let owner = try UserStore(database: radio.database).find(id: show.ownerID)?.name ?? "Quintet"
                let feedURL = "\(base)/radio/feeds/\(id).xml"
                let podcast = PodcastShow(
                    title: show.title, description: show.description.isEmpty ? show.title : show.description,
                    link: "\(base)/radio/show/?id=\(id)", feedURL: feedURL, language: show.language, author: owner,
                    imageURL: coverURL(of: show, base: base), explicit: show.explicit,
                    category: show.category, subcategory: show.subcategory)
                let items = try radio.episodes(showID: id, states: [.published], limit: .max).map { episode in
                    PodcastEpisode(
                        guid: episode.guid, title: episode.title,
                        description: episode.description.isEmpty ? episode.title : episode.description,
                        published: episode.publishedAt ?? episode.endedAt ?? episode.startedAt,
                        duration: episode.duration, enclosureURL: "\(base)\(audioPath(of: episode))",
                        enclosureLength: episode.size, enclosureType: episode.contentType)
                }
                return PodcastFeed(show: podcast, episodes: items).xml()
            }
            guard let xml else { throw APIError(.notFound, message: "no show \(id)") }
            return Response(status: .ok, headers: [.contentType: "application/rss+xml; charset=utf-8",
                                                   .cacheControl: "public, max-age=60"],
                            body: .init(byteBuffer: ByteBuffer(string: xml)))
        }

        // MARK: files

        func download(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let id = try context.parameters.id()
            let viewer = context.identity
            let found = try await blocking { try visibleEpisode(id, viewer: viewer) }
            let episode = found.episode
            guard request.uri.path.hasSuffix("." + (episode.file as NSString).pathExtension) else {
                throw APIError(.notFound, message: "episode \(id) is at \(audioPath(of: episode))")
            }
            let url = radio.fileURL(of: episode)
            return try await FileAnswer(
                path: url.path, contentType: episode.contentType,
                cacheControl: episode.state == .published ? "public, max-age=3600" : "private, no-cache",
                missing: APIError(.notFound, code: "file_missing", message: "the file of episode \(id) is missing from the data folder"),
                described: "episode \(id)"
            ).response(to: request, context: context) { range in
                if RadioRoutes.countsAsListen(range) {
                    try await blocking { try radio.countListen(episodeID: id) }
                }
            }
        }

        func cover(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let id = try context.parameters.id()
            guard let show = try await blocking({ try radio.show(id: id) }), let cover = show.cover,
                  !Self.isRemote(cover) else {
                throw APIError(.notFound, message: "show \(id) has no cover file")
            }
            // Relative to the data folder, or absolute inside it (as older versions stored it).
            guard let url = radio.coverFile(of: show), let facts = try await Blocking.run({ FileFacts(path: url.path) }),
                  facts.size <= 16 << 20 else {
                throw APIError(.notFound, message: "the cover of show \(id) is missing")
            }
            let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif"]
            let type = types[url.pathExtension.lowercased()] ?? "application/octet-stream"
            let body = try await FileIO().loadFile(path: url.path, context: context)
            return Response(status: .ok, headers: [.contentType: type, .contentLength: String(facts.size),
                                                   .cacheControl: "public, max-age=3600"], body: body)
        }

        // MARK: helpers

        /// The episode if `viewer` may see it, else 404 (the same answer as a missing id).
        func visibleEpisode(_ id: Int64, viewer: User?) throws -> (episode: RadioEpisode, show: RadioShow) {
            guard let episode = try radio.episode(id: id), let show = try radio.show(id: episode.showID),
                  may(viewer, see: episode, of: show) else {
                throw APIError(.notFound, message: "no episode \(id)")
            }
            return (episode, show)
        }

        func may(_ viewer: User?, see episode: RadioEpisode, of show: RadioShow) -> Bool {
            if episode.state == .published { return true }
            guard let viewer else { return false }
            return viewer.role == .admin || viewer.id == show.ownerID
        }

        func view(of show: RadioShow, viewer: User?, base: String) throws -> ShowView {
            let owner = try UserStore(database: radio.database).find(id: show.ownerID)?.name ?? ""
            let count = try radio.episodeCount(showID: show.id!, states: [.published])
            return ShowView(
                id: show.id!, slug: show.slug, title: show.title, description: show.description,
                coverURL: coverURL(of: show, base: base), language: show.language, explicit: show.explicit,
                location: show.location, mount: show.mount, owner: owner,
                publishAutomatically: show.publishAutomatically, maxEpisodeSeconds: show.maxEpisodeSeconds,
                fallbackMount: show.fallbackMount, createdAt: show.createdAt,
                feedURL: "\(base)/radio/feeds/\(show.id!).xml", episodeCount: count,
                category: show.category, subcategory: show.subcategory,
                editable: viewer.map { RadioStore.may($0, edit: show) } ?? false, deletedAt: show.deletedAt)
        }

        func view(of episode: RadioEpisode, show: RadioShow) -> EpisodeView {
            EpisodeView(
                id: episode.id!, showID: show.id!, showTitle: show.title, title: episode.title,
                description: episode.description, state: episode.state.rawValue, startedAt: episode.startedAt,
                endedAt: episode.endedAt, publishedAt: episode.publishedAt, duration: episode.duration,
                size: episode.size, contentType: episode.contentType, listens: episode.listens,
                peakListeners: episode.peakListeners, guid: episode.guid, audioURL: audioPath(of: episode),
                deletedAt: episode.deletedAt)
        }

        func audioPath(of episode: RadioEpisode) -> String {
            "/radio/episodes/\(episode.id!).\((episode.file as NSString).pathExtension)"
        }

        func coverURL(of show: RadioShow, base: String) -> String? {
            guard let cover = show.cover else { return nil }
            return Self.isRemote(cover) ? cover : "\(base)/radio/covers/\(show.id!)"
        }

        static func isRemote(_ cover: String) -> Bool {
            cover.lowercased().hasPrefix("http://") || cover.lowercased().hasPrefix("https://")
        }

        /// The configured public URL, else `http://` and the request's Host (when it is a
        /// plain host[:port]; anything else falls back to `localhost`).
        func baseURL(_ request: Request) -> String {
            if let publicURL { return publicURL }
            let host = request.head.authority ?? ""
            let allowed = host.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || c == 0x2E || c == 0x2D || c == 0x3A || c == 0x5B || c == 0x5D
            }
            return "http://\(!host.isEmpty && allowed && host.count <= 255 ? host : "localhost")"
        }

        /// Runs blocking store work on the blocking pool (``Blocking``); store errors become HTTP errors.
        func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            do {
                return try await Blocking.run(body)
            } catch let error as RadioStoreError {
                switch error {
                case .showNotFound, .episodeNotFound: throw APIError(.notFound, message: error.description)
                case .invalid, .ownerNotFound: throw APIError(.badRequest, code: "invalid_input", message: error.description)
                case .wrongState: throw APIError(.conflict, message: error.description)
                case .badAudio: throw APIError(.unprocessableContent, message: error.description)
                case .forbidden: throw APIError(.forbidden, code: "forbidden", message: error.description)
                }
            }
        }
    }
}
