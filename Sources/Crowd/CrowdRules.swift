import Foundation

/// The fixed numbers of the semantics and the validation every backend applies first.
public enum CrowdRules {
    /// Mean Earth radius (IUGG), metres: the sphere of every distance here.
    public static let earthRadius = 6_371_008.8
    /// A device within this many metres (inclusive) of a location's centre belongs to it.
    public static let joinDistance = 10.0
    /// Comments a location shows.
    public static let commentsShown = 10
    public static let radiusRange = 15...2000
    public static let peopleRange = 1...100
    public static let ageRange = 0...150
    public static let commentLength = 1...200
    public static let deviceLength = 1...64
    public static let limitRange = 1...20_000
    public static let defaultRadius = 200
    public static let defaultMin = 1
    public static let defaultMax = 20
    public static let defaultLimit = 500

    /// Great-circle distance in metres between two points in degrees: the haversine formula on
    /// a sphere of ``earthRadius``, in doubles, written once and used everywhere.
    @inlinable
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let toRadians = Double.pi / 180
        return distance(lat1: lat1, lon1: lon1, cosLat1: cos(lat1 * toRadians),
                        lat2: lat2, lon2: lon2, cosLat2: cos(lat2 * toRadians))
    }

    /// The same distance, bit for bit, with the cosines of both latitudes given
    /// (`cos(lat · π/180)`): for a caller that measures one point against many and keeps them.
    @inlinable
    public static func distance(lat1: Double, lon1: Double, cosLat1: Double, lat2: Double, lon2: Double, cosLat2: Double) -> Double {
        let toRadians = Double.pi / 180
        let dPhi = (lat2 - lat1) * toRadians
        let dLambda = (lon2 - lon1) * toRadians
        let s1 = sin(dPhi / 2), s2 = sin(dLambda / 2)
        let a = s1 * s1 + cosLat1 * cosLat2 * s2 * s2
        return 2 * earthRadius * asin(Swift.min(1, a.squareRoot()))
    }

    /// Checks a latitude/longitude pair: finite, lat in [-90, 90], lon in [-180, 180].
    public static func validate(lat: Double, lon: Double) throws {
        guard lat.isFinite, (-90...90).contains(lat) else {
            throw CrowdValidationError(field: "lat", reason: "must be a number in [-90, 90]")
        }
        guard lon.isFinite, (-180...180).contains(lon) else {
            throw CrowdValidationError(field: "lon", reason: "must be a number in [-180, 180]")
        }
    }

    /// Checks a search's numbers.
    public static func validate(_ search: CrowdSearch) throws {
        try validate(lat: search.lat, lon: search.lon)
        try validate(radius: search.radius, min: search.min, max: search.max, limit: search.limit)
    }

    static func validate(radius: Int, min: Int, max: Int, limit: Int) throws {
        guard radiusRange.contains(radius) else {
            throw CrowdValidationError(field: "radius", reason: "must be an integer in [15, 2000] (metres)")
        }
        guard peopleRange.contains(min) else { throw CrowdValidationError(field: "min", reason: "must be an integer in [1, 100]") }
        guard peopleRange.contains(max) else { throw CrowdValidationError(field: "max", reason: "must be an integer in [1, 100]") }
        guard min <= max else { throw CrowdValidationError(field: "min", reason: "must not be greater than max") }
        guard limitRange.contains(limit) else {
            throw CrowdValidationError(field: "limit", reason: "must be an integer in [1, 20000]")
        }
    }

    /// Checks a report's numbers and comment.
    public static func validate(_ report: CrowdReport) throws {
        try validate(lat: report.lat, lon: report.lon)
        if let age = report.age, !ageRange.contains(age) {
            throw CrowdValidationError(field: "age", reason: "must be an integer in [0, 150]")
        }
        if let comment = report.comment { try validate(comment: comment) }
        try validate(radius: report.radius, min: report.min, max: report.max, limit: report.limit)
    }

    /// Checks a device token's length (before it is hashed): 1...64 characters (Unicode scalars,
    /// as Python's `len` counts them).
    public static func validate(deviceToken token: String) throws {
        guard deviceLength.contains(token.unicodeScalars.count) else {
            throw CrowdValidationError(field: "device", reason: "must be a string of 1 to 64 characters")
        }
    }

    /// Comments are plain text: 1...200 characters (Unicode scalars), no control characters,
    /// no `<` or `>`.
    public static func validate(comment: String) throws {
        guard commentLength.contains(comment.unicodeScalars.count) else {
            throw CrowdValidationError(field: "comment", reason: "must be 1 to 200 characters")
        }
        for scalar in comment.unicodeScalars {
            if scalar == "<" || scalar == ">" {
                throw CrowdValidationError(field: "comment", reason: "must not contain < or >")
            }
            if scalar.properties.generalCategory == .control {
                throw CrowdValidationError(field: "comment", reason: "must not contain control characters")
            }
        }
    }
}
