import Crowd
import Foundation
import Hummingbird

/// The Crowd API's answers written straight into bytes: plain JSON and GeoJSON (RFC 7946:
/// coordinates `[lon, lat]`). A search at 2,000 m may list 13,000 locations, so no encoder
/// walks a tree here; doubles are written at full precision (Swift's shortest round-trip form).
struct CrowdJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A whole number, written digit by digit (no String on the way: a 2,000 m search writes
    /// tens of thousands of them).
    mutating func int(_ value: some BinaryInteger) {
        var magnitude = UInt64(value.magnitude)
        var digits: (UInt64, Int) = (0, 0) // reversed digits packed 4 bits each, and their count
        repeat {
            digits.0 = digits.0 << 4 | (magnitude % 10)
            digits.1 += 1
            magnitude /= 10
        } while magnitude > 0 && digits.1 < 16
        if magnitude > 0 {
            // More than 16 digits: rare enough for the plain way.
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        for _ in 0..<digits.1 {
            bytes.append(UInt8(ascii: "0") + UInt8(digits.0 & 15))
            digits.0 >>= 4
        }
    }

    /// A finite double at full precision; a non-finite one (never produced by the core) as null.
    mutating func double(_ value: Double) {
        guard value.isFinite else { raw("null"); return }
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func optionalDouble(_ value: Double?) {
        if let value { double(value) } else { raw("null") }
    }

    mutating func optionalInt(_ value: Int?) {
        if let value { int(value) } else { raw("null") }
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\u00XX`.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0..<0x20:
                raw("\\u00")
                let digits: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// ISO 8601 in UTC with milliseconds (`2026-11-25T18:04:05.123Z`).
    mutating func time(_ date: Date) {
        string(CrowdJSONWriter.format(date))
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }

    // MARK: plain JSON

    /// `{"id", "lat", "lon", "people", "avg_age", "men", "women"` (the object left open).
    private mutating func statistics(_ location: CrowdLocation) {
        raw("{\"id\":"); int(location.id)
        raw(",\"lat\":"); double(location.lat)
        raw(",\"lon\":"); double(location.lon)
        raw(",\"people\":"); int(location.people)
        raw(",\"avg_age\":"); optionalDouble(location.averageAge)
        raw(",\"men\":"); int(location.men)
        raw(",\"women\":"); int(location.women)
    }

    /// One listed location: the statistics and `distance_m`.
    mutating func location(_ location: CrowdLocation) {
        statistics(location)
        raw(",\"distance_m\":"); double(location.distance)
        raw("}")
    }

    /// `"locations": [...], "truncated": bool` (inside an open object).
    private mutating func searchMembers(_ result: CrowdSearchResult) {
        raw("\"locations\":[")
        for (index, location) in result.locations.enumerated() {
            if index > 0 { raw(",") }
            self.location(location)
        }
        raw("],\"truncated\":"); bool(result.truncated)
    }

    /// `{"locations": [...], "truncated": bool}`.
    mutating func search(_ result: CrowdSearchResult) {
        raw("{"); searchMembers(result); raw("}")
    }

    private mutating func own(_ location: CrowdOwnLocation) {
        raw("{\"id\":"); int(location.id)
        raw(",\"lat\":"); double(location.lat)
        raw(",\"lon\":"); double(location.lon)
        raw(",\"people\":"); optionalInt(location.people)
        raw("}")
    }

    /// `{"location": {"id", "lat", "lon", "people"}, "locations": [...], "truncated": bool}`.
    mutating func report(_ result: CrowdReportResult) {
        raw("{\"location\":"); own(result.location)
        raw(","); searchMembers(result.search); raw("}")
    }

    private mutating func comments(_ comments: [CrowdComment]) {
        raw("[")
        for (index, comment) in comments.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"text\":"); string(comment.text)
            raw(",\"time\":"); time(comment.time)
            raw("}")
        }
        raw("]")
    }

    /// One location's statistics plus `"comments": [{"text", "time"}]`, newest first.
    mutating func detail(_ detail: CrowdLocationDetail) {
        statistics(detail.location)
        raw(",\"comments\":"); comments(detail.comments)
        raw("}")
    }

    // MARK: GeoJSON

    private mutating func point(_ lat: Double, _ lon: Double) {
        raw("{\"type\":\"Point\",\"coordinates\":["); double(lon); raw(","); double(lat); raw("]}")
    }

    /// A Feature whose properties are the listed location's fields (id, people, avg_age, men,
    /// women, distance_m).
    mutating func feature(_ location: CrowdLocation) {
        raw("{\"type\":\"Feature\",\"id\":"); int(location.id)
        raw(",\"geometry\":"); point(location.lat, location.lon)
        raw(",\"properties\":"); self.location(location)
        raw("}")
    }

    private mutating func featureCollection(_ result: CrowdSearchResult) {
        raw("\"type\":\"FeatureCollection\",\"features\":[")
        for (index, location) in result.locations.enumerated() {
            if index > 0 { raw(",") }
            feature(location)
        }
        raw("],\"truncated\":"); bool(result.truncated)
    }

    /// A FeatureCollection of the search, with the foreign member `truncated`.
    mutating func geoSearch(_ result: CrowdSearchResult) {
        raw("{"); featureCollection(result); raw("}")
    }

    /// A FeatureCollection of the search, with the foreign members `truncated` and `location`
    /// (the reporter's own, as in the plain answer).
    mutating func geoReport(_ result: CrowdReportResult) {
        raw("{"); featureCollection(result.search)
        raw(",\"location\":"); own(result.location)
        raw("}")
    }

    /// A Feature of one location: properties are the statistics and the comments.
    mutating func geoDetail(_ detail: CrowdLocationDetail) {
        raw("{\"type\":\"Feature\",\"id\":"); int(detail.location.id)
        raw(",\"geometry\":"); point(detail.location.lat, detail.location.lon)
        raw(",\"properties\":"); self.detail(detail)
        raw("}")
    }

    /// The bytes as a 200 response of `contentType`.
    func response(contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
