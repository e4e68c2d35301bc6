import Foundation
import GRDB
import QuintetStore

/// The listener's lists of shows and episodes — **near you**, **most popular**,
/// **favourites** — and the recent activity of followed authors (docs/radio.md, "Community:
/// follow, discovery and search").
///
/// Everything leaves out deleted shows and episodes (`deleted_at` set) and episodes that are
/// not published (the live list holds live ones instead). The orders, one core
/// (``ordered(_:by:)``) for shows and episodes, each ending on the row id so two calls over the
/// same data always agree:
/// - ``Order/near``: distance (haversine, km) from the listener to the show's position — its
///   owner's profile position (`radio_profiles`, already coarse: 0.01°); rows without one come
///   last; ties by most recent activity, then id ascending. Only the distance rounded to a
///   whole km leaves this type, never a position.
/// - ``Order/popular``: listens in the last ``popularWindow`` (`radio_listens.at ≥ now − 7 d`;
///   for a show, summed over its episodes); ties by all-time listens, then newest activity,
///   then id ascending.
/// - ``Order/favourites``: shows whose author the listener follows plus shows the listener
///   follows (for episodes: the episodes of those shows), newest activity first, then id.
///
/// A show's activity is the latest of its creation and its visible episodes' publication
/// (or start, for a live one); an episode's is its publication (or start while live).
public struct RadioDiscovery: Sendable {
    /// The shared database.
    public let database: QuintetDatabase
    /// The clock the popular window is counted from (tests inject one).
    public let now: @Sendable () -> Date
    /// "Most popular" counts the listens of the last 7 days.
    public static let popularWindow: TimeInterval = 7 * 24 * 3600
    /// Mean Earth radius (IUGG), km.
    public static let earthRadiusKm = 6371.0088

    /// Lists over `database`; `now` is when the popular window ends.
    public init(database: QuintetDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// How a list is ordered.
    public enum Order: String, Sendable, CaseIterable {
        case near, popular, favourites
    }

    /// A listener's position, validated: finite, latitude in −90…90, longitude in −180…180.
    public struct Position: Sendable, Equatable {
        public let latitude: Double
        public let longitude: Double

        /// Throws ``RadioCommunityError/invalid(_:)`` when out of range or not a number.
        public init(latitude: Double, longitude: Double) throws {
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw RadioCommunityError.invalid("lat must be a number from -90 to 90")
            }
            guard longitude.isFinite, (-180...180).contains(longitude) else {
                throw RadioCommunityError.invalid("lon must be a number from -180 to 180")
            }
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// Great-circle distance in km (haversine).
    public static func distanceKm(_ a: Position, _ b: Position) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(h)))
    }

    /// What the orders look at, for one show or episode.
    public struct Ranking: Sendable, Equatable {
        public var id: Int64
        /// km from the listener, nil when the row has no position (or no listener position was given).
        public var distance: Double?
        public var activity: Date
        public var recentListens: Int
        public var allTimeListens: Int

        public init(id: Int64, distance: Double? = nil, activity: Date, recentListens: Int = 0, allTimeListens: Int = 0) {
            self.id = id
            self.distance = distance
            self.activity = activity
            self.recentListens = recentListens
            self.allTimeListens = allTimeListens
        }
    }

    /// The one ordering core: `items` in `order` with the tie-breaks above (favourites: newest activity, then id).
    public static func ordered(_ items: [Ranking], by order: Order) -> [Ranking] {
        items.sorted { a, b in
            switch order {
            case .near:
                switch (a.distance, b.distance) {
                case let (x?, y?) where x != y: return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: break
                }
            case .popular:
                if a.recentListens != b.recentListens { return a.recentListens > b.recentListens }
                if a.allTimeListens != b.allTimeListens { return a.allTimeListens > b.allTimeListens }
            case .favourites: break
            }
            if a.activity != b.activity { return a.activity > b.activity }
            return a.id < b.id
        }
    }

    /// A show in a list.
    public struct ShowEntry: Sendable {
        /// The show (its stream key included: never put it in an answer as is).
        public var show: RadioShow
        public var ownerName: String
        /// Distance from the listener rounded to a whole km, when both positions are known.
        public var distanceKm: Int?
        /// Whether an episode of the show is live now.
        public var live: Bool
        public var recentListens: Int
        public var allTimeListens: Int
        public var lastActivity: Date
    }

    /// An episode in a list.
    public struct EpisodeEntry: Sendable {
        public var episode: RadioEpisode
        public var show: RadioShow
        public var ownerName: String
        public var distanceKm: Int?
        public var recentListens: Int
        public var lastActivity: Date
    }

    /// Shows in `order` (at most `limit`). `liveOnly`: only shows on air now. `near` needs
    /// `position`; `favourites` needs `viewer` (else ``RadioCommunityError/invalid(_:)``).
    public func shows(order: Order, position: Position? = nil, viewer: Int64? = nil, liveOnly: Bool = false,
                      limit: Int = 50) throws -> [ShowEntry] {
        try check(order, position, viewer)
        let since = now().addingTimeInterval(-Self.popularWindow)
        return try database.pool.read { db in
            var sql = """
                SELECT s.*, u.name AS owner_name, p.latitude AS owner_latitude, p.longitude AS owner_longitude,
                  MAX(s.created_at, COALESCE((SELECT MAX(COALESCE(e.published_at, e.started_at)) FROM radio_episodes e
                    WHERE e.show_id = s.id AND e.deleted_at IS NULL AND e.state IN ('published', 'live')), s.created_at)) AS activity,
                  EXISTS (SELECT 1 FROM radio_episodes e WHERE e.show_id = s.id AND e.deleted_at IS NULL AND e.state = 'live') AS is_live,
                  (SELECT COUNT(*) FROM radio_listens l JOIN radio_episodes e ON e.id = l.episode_id
                    WHERE l.show_id = s.id AND l.at >= ? AND e.deleted_at IS NULL) AS recent,
                  (SELECT COALESCE(SUM(e.listens), 0) FROM radio_episodes e WHERE e.show_id = s.id AND e.deleted_at IS NULL) AS total
                FROM radio_shows s JOIN users u ON u.id = s.owner_id LEFT JOIN radio_profiles p ON p.user_id = s.owner_id
                WHERE s.deleted_at IS NULL
                """
            var arguments: StatementArguments = [since]
            if order == .favourites, let viewer {
                sql += Self.favouriteShowFilter
                arguments += [viewer, viewer]
            }
            var entries: [Int64: ShowEntry] = [:]
            var rankings: [Ranking] = []
            for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                let live: Bool = row["is_live"]
                if liveOnly && !live { continue }
                let show = try RadioShow(row: row)
                let distance = Self.distance(from: position, row)
                let activity: Date = row["activity"]
                let entry = ShowEntry(show: show, ownerName: row["owner_name"], distanceKm: distance.map { Int($0.rounded()) },
                                      live: live, recentListens: row["recent"], allTimeListens: row["total"], lastActivity: activity)
                entries[show.id!] = entry
                rankings.append(Ranking(id: show.id!, distance: distance, activity: activity,
                                        recentListens: entry.recentListens, allTimeListens: entry.allTimeListens))
            }
            return Self.ordered(rankings, by: order).prefix(max(0, limit)).compactMap { entries[$0.id] }
        }
    }

    /// Published episodes (`liveOnly`: live ones instead) in `order`, at most `limit`.
    public func episodes(order: Order, position: Position? = nil, viewer: Int64? = nil, liveOnly: Bool = false,
                         limit: Int = 50) throws -> [EpisodeEntry] {
        try check(order, position, viewer)
        let since = now().addingTimeInterval(-Self.popularWindow)
        return try database.pool.read { db in
            var sql = """
                SELECT e.*, u.name AS owner_name, p.latitude AS owner_latitude, p.longitude AS owner_longitude,
                  COALESCE(e.published_at, e.started_at) AS activity,
                  (SELECT COUNT(*) FROM radio_listens l WHERE l.episode_id = e.id AND l.at >= ?) AS recent
                FROM radio_episodes e JOIN radio_shows s ON s.id = e.show_id JOIN users u ON u.id = s.owner_id
                LEFT JOIN radio_profiles p ON p.user_id = s.owner_id
                WHERE e.deleted_at IS NULL AND s.deleted_at IS NULL AND e.state = ?
                """
            var arguments: StatementArguments = [since, liveOnly ? EpisodeState.live.rawValue : EpisodeState.published.rawValue]
            if order == .favourites, let viewer {
                sql += Self.favouriteShowFilter
                arguments += [viewer, viewer]
            }
            var entries: [Int64: (RadioEpisode, String, Int?, Int, Date)] = [:]
            var rankings: [Ranking] = []
            for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                let episode = try RadioEpisode(row: row)
                let distance = Self.distance(from: position, row)
                let activity: Date = row["activity"]
                let recent: Int = row["recent"]
                entries[episode.id!] = (episode, row["owner_name"], distance.map { Int($0.rounded()) }, recent, activity)
                rankings.append(Ranking(id: episode.id!, distance: distance, activity: activity,
                                        recentListens: recent, allTimeListens: episode.listens))
            }
            let chosen = Self.ordered(rankings, by: order).prefix(max(0, limit)).compactMap { entries[$0.id] }
            var shows: [Int64: RadioShow] = [:]
            for id in Set(chosen.map(\.0.showID)) { shows[id] = try RadioShow.fetchOne(db, key: id) }
            return chosen.compactMap { item in
                let (episode, owner, km, recent, activity) = item
                return shows[episode.showID].map {
                    EpisodeEntry(episode: episode, show: $0, ownerName: owner, distanceKm: km, recentListens: recent, lastActivity: activity)
                }
            }
        }
    }

    /// `s` is a show by an author `?` follows, or a show `?` follows.
    static let favouriteShowFilter = """
         AND (s.owner_id IN (SELECT followed_id FROM radio_user_follows WHERE follower_id = ?)
              OR s.id IN (SELECT show_id FROM radio_show_follows WHERE follower_id = ?))
        """

    private func check(_ order: Order, _ position: Position?, _ viewer: Int64?) throws {
        if order == .near, position == nil { throw RadioCommunityError.invalid("near needs the listener's lat and lon") }
        if order == .favourites, viewer == nil { throw RadioCommunityError.invalid("favourites needs a signed-in listener") }
    }

    private static func distance(from position: Position?, _ row: Row) -> Double? {
        guard let position, let lat: Double = row["owner_latitude"], let lon: Double = row["owner_longitude"],
              let there = try? Position(latitude: lat, longitude: lon) else { return nil }
        return distanceKm(position, there)
    }

    // MARK: activity

    /// One thing a followed author (or a followed show) did.
    public struct Event: Sendable, Equatable {
        /// `show` (a new show), `published` (a new episode in the feed), `live` (on air now).
        public var kind: String
        public var at: Date
        public var author: String
        public var showID: Int64
        public var showTitle: String
        public var episodeID: Int64?
        public var episodeTitle: String?
    }

    /// The latest events of the authors `viewer` follows and of the shows `viewer` follows,
    /// newest first (ties: kind, then episode or show id descending), at most `limit`. Deleted
    /// shows and episodes leave no event.
    public func activity(viewer: Int64, limit: Int = 50) throws -> [Event] {
        try database.pool.read { db in
            let followed = """
                s.deleted_at IS NULL AND (s.owner_id IN (SELECT followed_id FROM radio_user_follows WHERE follower_id = :viewer)
                  OR s.id IN (SELECT show_id FROM radio_show_follows WHERE follower_id = :viewer))
                """
            let sql = """
                SELECT * FROM (
                  SELECT 'show' AS kind, s.created_at AS at, u.name AS author, s.id AS show_id, s.title AS show_title,
                    NULL AS episode_id, NULL AS episode_title
                  FROM radio_shows s JOIN users u ON u.id = s.owner_id WHERE \(followed)
                  UNION ALL
                  SELECT 'published', e.published_at, u.name, s.id, s.title, e.id, e.title
                  FROM radio_episodes e JOIN radio_shows s ON s.id = e.show_id JOIN users u ON u.id = s.owner_id
                  WHERE e.state = 'published' AND e.published_at IS NOT NULL AND e.deleted_at IS NULL AND \(followed)
                  UNION ALL
                  SELECT 'live', e.started_at, u.name, s.id, s.title, e.id, e.title
                  FROM radio_episodes e JOIN radio_shows s ON s.id = e.show_id JOIN users u ON u.id = s.owner_id
                  WHERE e.state = 'live' AND e.deleted_at IS NULL AND \(followed)
                ) ORDER BY at DESC, kind, COALESCE(episode_id, show_id) DESC LIMIT :limit
                """
            return try Row.fetchAll(db, sql: sql, arguments: ["viewer": viewer, "limit": max(0, limit)]).map {
                Event(kind: $0["kind"], at: $0["at"], author: $0["author"], showID: $0["show_id"], showTitle: $0["show_title"],
                      episodeID: $0["episode_id"], episodeTitle: $0["episode_title"])
            }
        }
    }
}
