import Foundation
import Hummingbird
import QuintetStore
import Radio

/// The community's follow, discovery, search and public-profile routes (docs/radio.md,
/// "Community: follow, discovery and search"); the rules live in ``RadioFollows``,
/// ``RadioDiscovery``, ``RadioSearch`` and ``RadioPublicProfile``.
///
/// - `PUT`/`DELETE /api/radio/users/{name}/follow`, `PUT`/`DELETE /api/radio/shows/{id}/follow`
///   (signed in): follow, unfollow; 204.
/// - `GET /api/radio/users/{name}`, `…/followers`, `…/following`: the public profile and lists.
/// - `GET /api/radio/discover/shows|episodes?order=near|popular|favourites&lat=&lon=&live=&limit=`.
/// - `GET /api/radio/activity` (signed in), `GET /api/radio/search?q=&kind=shows|episodes|users&limit=`.
public enum RadioDiscoverRoutes {
    /// Most rows a list returns.
    public static let maxLimit = 200

    /// Adds the routes; `now` is the popular window's clock (tests inject one).
    public static func add(to router: Router<QuintetRequestContext>, database: QuintetDatabase, auth: Authenticator,
                           now: @escaping @Sendable () -> Date = { Date() }) {
        let h = Handlers(follows: RadioFollows(database: database, now: now),
                         discovery: RadioDiscovery(database: database, now: now), search: RadioSearch(database: database))
        let signed = router.group("api/radio").addSignIn(auth, required: true)
        signed.put("users/{name}/follow") { _, context in try await h.followUser(context, follow: true) }
        signed.delete("users/{name}/follow") { _, context in try await h.followUser(context, follow: false) }
        signed.put("shows/{id}/follow") { _, context in try await h.followShow(context, follow: true) }
        signed.delete("shows/{id}/follow") { _, context in try await h.followShow(context, follow: false) }
        signed.get("activity") { request, context in try await h.activity(request, context) }
        let open = router.group("api/radio").addSignIn(auth, required: false)
        open.get("users/{name}") { _, context in try await h.profile(context) }
        open.get("users/{name}/followers") { _, context in try await h.people(context, followers: true) }
        open.get("users/{name}/following") { _, context in try await h.people(context, followers: false) }
        open.get("discover/shows") { request, context in try await h.discoverShows(request, context) }
        open.get("discover/episodes") { request, context in try await h.discoverEpisodes(request, context) }
        open.get("search") { request, context in try await h.search(request, context) }
    }

    struct PersonView: Encodable { let name: String, displayName: String, url: String }

    struct ShowView: Encodable {
        let id: Int64, title: String, description: String, owner: String, url: String
        let coverURL: String?, live: Bool, mount: String, distanceKm: Int?, recentListens: Int, listens: Int, lastActivity: Date
        /// Whether the signed-in listener follows the show (false when nobody is signed in).
        let followedByYou: Bool
    }

    struct EpisodeView: Encodable {
        let id: Int64, showID: Int64, showTitle: String, showURL: String, title: String, description: String, state: String
        let owner: String, startedAt: Date, publishedAt: Date?, duration: Double, audioURL: String
        let distanceKm: Int?, recentListens: Int, listens: Int, lastActivity: Date
    }

    struct EventView: Encodable {
        let kind: String, at: Date, author: String, showID: Int64, showTitle: String, showURL: String
        let episodeID: Int64?, episodeTitle: String?
    }

    struct HitView: Encodable { let kind: String, id: Int64, title: String, detail: String, url: String, showID: Int64?, showTitle: String? }

    struct ProfileView: Encodable {
        struct Show: Encodable { let id: Int64, title: String, description: String, url: String, following: Bool }
        let id: Int64, name: String, displayName: String, description: String, town: String?, latitude: Double?, longitude: Double?
        let pictureURL: String?, followers: Int, following: Int, followedByYou: Bool, shows: [Show]
    }

    struct Handlers: Sendable {
        let follows: RadioFollows
        let discovery: RadioDiscovery
        let search: RadioSearch

        func followUser(_ context: QuintetRequestContext, follow: Bool) async throws -> Response {
            let me = try context.requireUser().id!
            let name = try Self.name(context)
            try await run { try follow ? follows.followUser(follower: me, name: name) : follows.unfollowUser(follower: me, name: name) }
            return Response(status: .noContent)
        }

        func followShow(_ context: QuintetRequestContext, follow: Bool) async throws -> Response {
            let me = try context.requireUser().id!
            let id = try context.parameters.id()
            try await run { try follow ? follows.followShow(follower: me, showID: id) : follows.unfollowShow(follower: me, showID: id) }
            return Response(status: .noContent)
        }

        func people(_ context: QuintetRequestContext, followers: Bool) async throws -> Response {
            let name = try Self.name(context)
            let list = try await run { try followers ? follows.followers(of: name) : follows.following(of: name) }
            return try APIJSON.response(list.map {
                PersonView(name: $0.name, displayName: $0.displayName, url: "/radio/people/?name=\(Self.query($0.name))")
            })
        }

        func profile(_ context: QuintetRequestContext) async throws -> Response {
            let name = try Self.name(context)
            let viewer = context.identity?.id
            let p = try await run { try RadioPublicProfile.load(database: follows.database, name: name, viewer: viewer) }
            return try APIJSON.response(ProfileView(
                id: p.id, name: p.name, displayName: p.displayName, description: p.description, town: p.town,
                latitude: p.latitude, longitude: p.longitude, pictureURL: p.pictureURL, followers: p.followers,
                following: p.following, followedByYou: p.followedByViewer,
                shows: p.shows.map { .init(id: $0.id, title: $0.title, description: $0.description, url: "/radio/show/?id=\($0.id)",
                                           following: $0.followedByViewer) }))
        }

        func discoverShows(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let q = try Self.listQuery(request, context)
            let (entries, followed) = try await run {
                (try discovery.shows(order: q.order, position: q.position, viewer: q.viewer, liveOnly: q.live, limit: q.limit),
                 Set(try q.viewer.map { try follows.followedShowIDs($0) } ?? []))
            }
            return try APIJSON.response(entries.map { e in
                ShowView(id: e.show.id!, title: e.show.title, description: e.show.description,
                         owner: e.ownerName, url: "/radio/show/?id=\(e.show.id!)",
                         coverURL: e.show.cover == nil ? nil : (e.show.cover!.lowercased().hasPrefix("http") ? e.show.cover : "/radio/covers/\(e.show.id!)"),
                         live: e.live, mount: e.show.mount, distanceKm: e.distanceKm, recentListens: e.recentListens,
                         listens: e.allTimeListens, lastActivity: e.lastActivity, followedByYou: followed.contains(e.show.id!))
            })
        }

        func discoverEpisodes(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let q = try Self.listQuery(request, context)
            let entries = try await run {
                try discovery.episodes(order: q.order, position: q.position, viewer: q.viewer, liveOnly: q.live, limit: q.limit)
            }
            return try APIJSON.response(entries.map { e in
                EpisodeView(id: e.episode.id!, showID: e.show.id!, showTitle: e.show.title, showURL: "/radio/show/?id=\(e.show.id!)",
                            title: e.episode.title, description: e.episode.description, state: e.episode.state.rawValue,
                            owner: e.ownerName, startedAt: e.episode.startedAt, publishedAt: e.episode.publishedAt,
                            duration: e.episode.duration,
                            audioURL: e.episode.state == .live ? e.show.mount
                                : "/radio/episodes/\(e.episode.id!).\((e.episode.file as NSString).pathExtension)",
                            distanceKm: e.distanceKm, recentListens: e.recentListens, listens: e.episode.listens,
                            lastActivity: e.lastActivity)
            })
        }

        func activity(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let me = try context.requireUser().id!
            let limit = try Self.limit(FormFields(request.uri.query))
            let events = try await run { try discovery.activity(viewer: me, limit: limit) }
            return try APIJSON.response(events.map {
                EventView(kind: $0.kind, at: $0.at, author: $0.author, showID: $0.showID, showTitle: $0.showTitle,
                          showURL: "/radio/show/?id=\($0.showID)", episodeID: $0.episodeID, episodeTitle: $0.episodeTitle)
            })
        }

        func search(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
            let fields = FormFields(request.uri.query)
            let text = fields.get("q") ?? ""
            guard text.count <= 1000 else { throw Self.invalid("q has at most 1000 characters", field: "q") }
            let kindText = fields.get("kind") ?? "shows"
            guard let kind = RadioSearch.Kind(rawValue: kindText) else {
                throw Self.invalid("kind must be shows, episodes or users, not '\(kindText.prefix(40))'", field: "kind")
            }
            let limit = min(try Self.limit(fields, default: 20), 100)
            let hits = try await run { try search.search(text, kind: kind, limit: limit) }
            return try APIJSON.response(hits.map { hit in
                let url = switch kind {
                case .shows: "/radio/show/?id=\(hit.id)"
                case .episodes: "/radio/show/?id=\(hit.showID ?? 0)&episode=\(hit.id)"
                case .users: "/radio/people/?name=\(Self.query(hit.title))"
                }
                return HitView(kind: kind.rawValue, id: hit.id, title: hit.title, detail: hit.detail, url: url,
                               showID: hit.showID, showTitle: hit.showTitle)
            })
        }

        // MARK: input

        struct ListQuery: Sendable {
            var order: RadioDiscovery.Order, position: RadioDiscovery.Position?, viewer: Int64?, live: Bool, limit: Int
        }

        static func listQuery(_ request: Request, _ context: QuintetRequestContext) throws -> ListQuery {
            let fields = FormFields(request.uri.query)
            let orderText = fields.get("order") ?? "popular"
            guard let order = RadioDiscovery.Order(rawValue: orderText) else {
                throw invalid("order must be near, popular or favourites, not '\(orderText.prefix(40))'", field: "order")
            }
            var position: RadioDiscovery.Position?
            let lat = fields.get("lat"), lon = fields.get("lon")
            if lat != nil || lon != nil {
                guard let latText = lat, let lonText = lon else { throw invalid("give both lat and lon", field: lat == nil ? "lat" : "lon") }
                guard let latitude = Double(latText), latitude.isFinite, (-90...90).contains(latitude) else {
                    throw invalid("lat must be a number from -90 to 90, not '\(latText.prefix(40))'", field: "lat")
                }
                guard let longitude = Double(lonText), longitude.isFinite, (-180...180).contains(longitude) else {
                    throw invalid("lon must be a number from -180 to 180, not '\(lonText.prefix(40))'", field: "lon")
                }
                position = try RadioDiscovery.Position(latitude: latitude, longitude: longitude)
            }
            if order == .near, position == nil { throw invalid("order=near needs lat and lon", field: "lat") }
            if order == .favourites, context.identity == nil {
                throw APIError(.unauthorized, code: "unauthorized", message: "sign in to see your favourites")
            }
            let liveText = fields.get("live") ?? "false"
            guard ["true", "false", "1", "0"].contains(liveText) else { throw invalid("live must be true or false", field: "live") }
            return ListQuery(order: order, position: position, viewer: context.identity?.id,
                             live: liveText == "true" || liveText == "1", limit: try limit(fields))
        }

        static func limit(_ fields: FormFields, default value: Int = 50) throws -> Int {
            guard let text = fields.get("limit") else { return value }
            guard let n = Int(text), (1...RadioDiscoverRoutes.maxLimit).contains(n) else {
                throw invalid("limit must be an integer from 1 to \(RadioDiscoverRoutes.maxLimit), not '\(text.prefix(40))'", field: "limit")
            }
            return n
        }

        static func name(_ context: QuintetRequestContext) throws -> String {
            let raw = context.parameters.get("name") ?? ""
            let name = raw.removingPercentEncoding ?? raw
            guard !name.isEmpty, name.count <= 200 else { throw invalid("name must be a user's name", field: "name") }
            return name
        }

        static func invalid(_ message: String, field: String) -> APIError {
            var error = APIError(.badRequest, code: "invalid_input", message: message)
            error.field = field
            return error
        }

        static func query(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }

        /// Runs store work on the blocking pool; community errors become 404 and 400.
        func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            do {
                return try await Blocking.run(body)
            } catch let error as RadioCommunityError {
                switch error {
                case .notFound(let m): throw APIError(.notFound, message: m)
                case .invalid(let m): throw APIError(.badRequest, code: "invalid_input", message: m)
                }
            }
        }
    }
}
