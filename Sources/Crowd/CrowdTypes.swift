import Foundation

// The Crowd core's vocabulary: what a report and a search are, what comes back, the rules'
// limits, and the service protocol both backends (the in-memory engine over SQLite here, the
// PL/pgSQL function over PostGIS in `CrowdPostgres`) implement. docs/crowd.md has the semantics.

/// Sex as a report gives it (`"m"` or `"f"`).
public enum CrowdSex: String, Sendable, Hashable, Codable {
    case male = "m"
    case female = "f"
}

/// The server's keyed hash of a device token (HMAC-SHA-256 under a per-data-folder secret):
/// the only form in which a device is known past the HTTP layer. Never the token itself.
public struct DeviceKey: Sendable, Hashable {
    /// The 32 hash bytes.
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A search: locations whose centre lies within `radius` metres (inclusive) of a point, with
/// `min ≤ people ≤ max` (and at least the server's minimum group, see ``CrowdSettings``).
public struct CrowdSearch: Sendable, Hashable {
    public var lat: Double
    public var lon: Double
    /// Metres, an integer in 15...2000 (default 200).
    public var radius: Int
    /// People, integers in 1...100, min ≤ max (defaults 1 and 20).
    public var min: Int
    public var max: Int
    /// At most this many locations (1...20,000, default 500); when more match, the most
    /// crowded are kept and the answer says `truncated`.
    public var limit: Int

    public init(lat: Double, lon: Double, radius: Int = 200, min: Int = 1, max: Int = 20, limit: Int = 500) {
        self.lat = lat
        self.lon = lon
        self.radius = radius
        self.min = min
        self.max = max
        self.limit = limit
    }
}

/// One report: a device's position (and optional age, sex, comment) plus the search it asks.
/// The search is centred on the report's position.
public struct CrowdReport: Sendable, Hashable {
    public var device: DeviceKey
    public var lat: Double
    public var lon: Double
    /// 0...150, or nil: the device is "unknown" for the average age from now on.
    public var age: Int?
    /// nil: counted neither as a man nor as a woman from now on.
    public var sex: CrowdSex?
    /// 1...200 characters of plain text (no control characters, no `<` or `>`), attached to the
    /// location the device is in after this report.
    public var comment: String?
    public var radius: Int
    public var min: Int
    public var max: Int
    public var limit: Int

    public init(device: DeviceKey, lat: Double, lon: Double, age: Int? = nil, sex: CrowdSex? = nil,
                comment: String? = nil, radius: Int = 200, min: Int = 1, max: Int = 20, limit: Int = 500) {
        self.device = device
        self.lat = lat
        self.lon = lon
        self.age = age
        self.sex = sex
        self.comment = comment
        self.radius = radius
        self.min = min
        self.max = max
        self.limit = limit
    }

    /// The search this report asks, centred on its position.
    public var search: CrowdSearch { CrowdSearch(lat: lat, lon: lon, radius: radius, min: min, max: max, limit: limit) }
}

/// A location as a search lists it.
public struct CrowdLocation: Sendable, Hashable {
    public var id: Int64
    /// The centre: where its first member stood; it never moves.
    public var lat: Double
    public var lon: Double
    public var people: Int
    /// Mean age of the members who gave one; nil when nobody did.
    public var averageAge: Double?
    public var men: Int
    public var women: Int
    /// Haversine distance from the search point, metres (0 where no point was given).
    public var distance: Double

    public init(id: Int64, lat: Double, lon: Double, people: Int, averageAge: Double?, men: Int, women: Int, distance: Double) {
        self.id = id
        self.lat = lat
        self.lon = lon
        self.people = people
        self.averageAge = averageAge
        self.men = men
        self.women = women
        self.distance = distance
    }
}

/// The answer to a search: ordered by distance, then id.
public struct CrowdSearchResult: Sendable, Hashable {
    public var locations: [CrowdLocation]
    /// More locations matched than `limit`: the most crowded were kept.
    public var truncated: Bool

    public init(locations: [CrowdLocation], truncated: Bool) {
        self.locations = locations
        self.truncated = truncated
    }
}

/// The reporting device's own location after a report.
public struct CrowdOwnLocation: Sendable, Hashable {
    public var id: Int64
    public var lat: Double
    public var lon: Double
    /// Members now, the device included; nil when below the server's minimum group (the
    /// count would tell the device whether anyone else stands within 10 m of it).
    public var people: Int?

    public init(id: Int64, lat: Double, lon: Double, people: Int?) {
        self.id = id
        self.lat = lat
        self.lon = lon
        self.people = people
    }
}

/// The answer to a report.
public struct CrowdReportResult: Sendable, Hashable {
    public var location: CrowdOwnLocation
    public var search: CrowdSearchResult

    public init(location: CrowdOwnLocation, search: CrowdSearchResult) {
        self.location = location
        self.search = search
    }
}

/// A comment as a location shows it: no author.
public struct CrowdComment: Sendable, Hashable {
    public var text: String
    public var time: Date

    public init(text: String, time: Date) {
        self.text = text
        self.time = time
    }
}

/// One location's statistics and its latest comments (at most 10, newest first).
public struct CrowdLocationDetail: Sendable, Hashable {
    /// `distance` is 0.
    public var location: CrowdLocation
    public var comments: [CrowdComment]

    public init(location: CrowdLocation, comments: [CrowdComment]) {
        self.location = location
        self.comments = comments
    }
}

/// The server's settings that change answers.
public struct CrowdSettings: Sendable, Hashable {
    /// A location is shown (searches, details, own count) only with at least this many people
    /// (default 3; 1 reproduces the original app).
    public var minGroup: Int
    /// A device that has not reported for this long no longer counts (default 30 minutes).
    public var expiry: TimeInterval

    public init(minGroup: Int = 3, expiry: TimeInterval = 30 * 60) {
        self.minGroup = minGroup
        self.expiry = expiry
    }
}

/// A value outside the rules: `field` names the request field (`lat`, `radius`, `comment`…).
public struct CrowdValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}

/// What both backends do. Every call takes the server's clock (`now`): expiry is judged on it.
/// Implementations validate with ``CrowdRules`` and throw ``CrowdValidationError`` before
/// changing anything.
public protocol CrowdService: Sendable {
    /// Applies a report (move, join or found, statistics, comment) and answers its search.
    /// Returns once the change is durable.
    func report(_ report: CrowdReport, now: Date) async throws -> CrowdReportResult
    /// A search only; changes nothing (except expiring devices whose time is up).
    func search(_ search: CrowdSearch, now: Date) async throws -> CrowdSearchResult
    /// One location with its latest comments; nil when there is no such location now or it is
    /// below the minimum group.
    func location(id: Int64, now: Date) async throws -> CrowdLocationDetail?
}
