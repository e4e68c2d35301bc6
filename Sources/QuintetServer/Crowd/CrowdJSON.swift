import Crowd
import Foundation
import Hummingbird
import WireFormats

/// The Crowd API's answers written straight into a `ByteBuffer` (the response body, so nothing
/// is copied afterwards): plain JSON and GeoJSON (RFC 7946: coordinates `[lon, lat]`). A search
/// at 2,000 m may list 13,000 locations, so no encoder walks a tree here: each listed location is
/// written with raw stores into room reserved for it (``CrowdJSONOut``).
///
/// Doubles are written so that they parse back to exactly the same double (docs/crowd.md,
/// "Numbers"): the shortest such form, as Swift's `description` writes it, but without the
/// `String` on the way: a fast path for values below 10⁸ with at most 7 decimals (a coordinate as
/// phones send it), an exact one with 15 to 17 significant digits for the rest of [2⁻⁸, 10¹⁵)
/// (distances, averages, full-precision coordinates), and `description` beyond.
struct CrowdJSONWriter {
    private(set) var buffer: ByteBuffer

    init(capacity: Int = 256) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }

    /// The bytes written so far (tests).
    var bytes: [UInt8] { Array(buffer.readableBytesView) }

    /// Writes through ``CrowdJSONOut`` into at least `room` bytes reserved for `body`, which must
    /// not write more than that.
    @inline(__always)
    private mutating func write(room: Int, _ body: (inout CrowdJSONOut) -> Void) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { raw in
            var out = CrowdJSONOut(raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            body(&out)
            assert(out.count <= room)
            return out.count
        }
    }

    mutating func raw(_ text: StaticString) {
        buffer.writeStaticString(text)
    }

    /// A whole number.
    mutating func int(_ value: some BinaryInteger) {
        if let value = Int64(exactly: value) {
            write(room: CrowdJSONOut.maxInt) { $0.int(value) }
        } else {
            buffer.writeString(String(value))
        }
    }

    /// A finite double so that it parses back to the same double; a non-finite one (never
    /// produced by the core) as null.
    mutating func double(_ value: Double) {
        write(room: CrowdJSONOut.maxDouble) { $0.double(value) }
    }

    mutating func optionalInt(_ value: Int?) {
        if let value { int(value) } else { raw("null") }
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// A JSON string (``JSONString``, standard escaping), written straight into the buffer.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            write(room: JSONString.maxQuotedLength(utf8Count: utf8.count)) { out in
                out.advance(by: JSONString.write(utf8, to: out.base + out.count))
            }
        }
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
        write(room: CrowdJSONOut.maxStatistics) { $0.statistics(location) }
    }

    /// One listed location: the statistics and `distance_m`.
    mutating func location(_ location: CrowdLocation) {
        write(room: CrowdJSONOut.maxLocation) { $0.location(location) }
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
                 body: .init(byteBuffer: buffer))
    }
}

/// Raw stores of JSON pieces from a pointer on: the writer reserves room first (every piece
/// has a known longest form), so nothing here checks capacity.
struct CrowdJSONOut {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    /// The longest whole number (`-9223372036854775808`).
    static let maxInt = 20
    /// The longest double: a sign, 15 integer digits, the point and 17 more digits, or Swift's
    /// exponent form (at most 24).
    static let maxDouble = 40
    /// The longest statistics object (keys ~60 bytes, 3 doubles, 4 whole numbers).
    static let maxStatistics = 64 + 3 * maxDouble + 4 * maxInt
    /// The longest listed location (statistics plus `distance_m`).
    static let maxLocation = maxStatistics + 16 + maxDouble

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        // withUTF8Buffer, not utf8Start: a one-character literal may be stored as a scalar.
        text.withUTF8Buffer { utf8 in
            (base + count).update(from: utf8.baseAddress!, count: utf8.count)
            count += utf8.count
        }
    }

    /// Counts `n` bytes that a writer of its own stored from `base + count` on.
    @inline(__always)
    mutating func advance(by n: Int) { count += n }

    /// "00", "01", … "99": two digits per division.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// `value`'s last `digits` decimal digits (zeros in front if it has fewer), written to
    /// `start ..< start + digits`.
    @inline(__always)
    private func digits(_ value: UInt64, _ digits: Int, at start: Int) {
        let pairs = Self.digitPairs.utf8Start
        var rest = value
        var at = start + digits
        while at - start >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            at -= 2
            base[at] = pairs[pair]
            base[at + 1] = pairs[pair + 1]
        }
        if at > start { base[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
    }

    /// How many decimal digits `value` has (1 for 0).
    @inline(__always)
    private static func digitCount(_ value: UInt64) -> Int {
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20, value >= limit {
            digits += 1
            limit = limit &* 10
        }
        return digits
    }

    /// The decimal digits of `value`, most significant first.
    @inline(__always)
    mutating func uint(_ value: UInt64) {
        let n = Self.digitCount(value)
        digits(value, n, at: count)
        count += n
    }

    @inline(__always)
    mutating func int(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        uint(value.magnitude)
    }

    @inline(__always)
    mutating func int(_ value: Int) { int(Int64(value)) }

    /// A double that parses back to exactly `value` (JSON has no NaN or infinity: those are
    /// written as null; the core never produces them).
    mutating func double(_ value: Double) {
        guard value.isFinite else { raw("null"); return }
        if value.sign == .minus { byte(UInt8(ascii: "-")) }
        let m = value.magnitude
        if m == 0 { raw("0.0"); return }
        // At most 7 decimals: m·10⁷ rounded is the decimal (parsing `scaled / 10⁷` rounds to the
        // double nearest it, which IEEE division gives too, so the test below is the round trip;
        // and below 10⁸ the error of m·10⁷ against any decimal of 7 places that parses to m is
        // under 0.14, so if one exists this finds it, and dropping trailing zeros makes it the
        // shortest).
        if m < 1e8 {
            let scaled = (m * 1e7).rounded()
            if scaled / 1e7 == m {
                fixed(UInt64(scaled), decimals: 7)
                return
            }
        }
        if m >= 0x1p-8, m < 1e15 {
            shortest(m)
            return
        }
        var text = m.description
        text.withUTF8 { utf8 in
            (base + count).update(from: utf8.baseAddress!, count: utf8.count)
            count += utf8.count
        }
    }

    /// `value / 10^decimals` with trailing zeros dropped and at least one decimal.
    private mutating func fixed(_ value: UInt64, decimals: Int) {
        let power = Self.powerOfTen(decimals)
        uint(value / power)
        fraction(value % power, decimals: decimals)
    }

    /// `.` and the `decimals` digits of `fraction` (zeros in front as needed), trailing zeros
    /// dropped, at least one digit.
    @inline(__always)
    private mutating func fraction(_ fraction: UInt64, decimals: Int) {
        byte(UInt8(ascii: "."))
        if fraction == 0 { byte(UInt8(ascii: "0")); return }
        var fraction = fraction, decimals = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        digits(fraction, decimals, at: count)
        count += decimals
    }

    /// 10ᵏ for k in 0…19 (a switch: no array, no lazy global on the way).
    @inline(__always)
    static func powerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// `m` (in [2⁻⁸, 10¹⁵)) in its shortest form that parses back to it, with 15, 16 or 17
    /// significant digits (17 always suffice; any shorter form would be a 15-digit one with
    /// trailing zeros), trailing zeros dropped. Exact: the fraction is a multiple of the
    /// spacing 2⁻ˢ (`s = 52 − e`, 3…60), i.e. `n / 2ˢ` with `n < 2ˢ`, so its first `k` decimals are
    /// `n · 10ᵏ / 2ˢ`, computed in 128 bits and rounded half to even; that decimal parses back to
    /// `m` when it lies within half a spacing of it: `|q · 2ˢ − n · 10ᵏ| < 10ᵏ / 2`.
    private mutating func shortest(_ m: Double) {
        let whole = m.rounded(.towardZero)
        var integer = UInt64(whole)
        let shift = 52 - (Int((m.bitPattern >> 52) & 0x7FF) - 1023)
        let n = UInt64((m - whole) * Double(sign: .plus, exponent: shift, significand: 1))
        // Decimals that make `digits` significant: after the integer's digits, or after the
        // zeros that follow the point.
        var offset: Int
        if integer > 0 {
            offset = -Self.digitCount(integer)
        } else {
            offset = m >= 0.1 ? 0 : (m >= 0.01 ? 1 : 2)
        }
        let mask: UInt64 = (1 << UInt64(shift)) - 1, half: UInt64 = 1 << UInt64(shift - 1)
        // A power of two has a nearer neighbour below: only 17 digits are sure there.
        let first = m.significandBitPattern == 0 ? 17 : 15
        var fraction: UInt64 = 0, decimals = 0
        for digits in first...17 {
            decimals = digits + offset
            let power = Self.powerOfTen(decimals)
            let (high, low) = n.multipliedFullWidth(by: power)
            fraction = high << UInt64(64 - shift) | low >> UInt64(shift)
            let rest = low & mask
            let distance: UInt64
            if rest > half || (rest == half && fraction & 1 == 1) {
                fraction += 1
                distance = mask + 1 - rest
            } else {
                distance = rest
            }
            if digits == 17 || 2 * distance < power {
                if fraction >= power {
                    integer += 1
                    fraction -= power
                }
                break
            }
        }
        uint(integer)
        self.fraction(fraction, decimals: decimals)
    }

    /// `{"id", "lat", "lon", "people", "avg_age", "men", "women"` (the object left open).
    mutating func statistics(_ location: CrowdLocation) {
        raw("{\"id\":"); int(location.id)
        raw(",\"lat\":"); double(location.lat)
        raw(",\"lon\":"); double(location.lon)
        raw(",\"people\":"); int(location.people)
        raw(",\"avg_age\":")
        if let age = location.averageAge { double(age) } else { raw("null") }
        raw(",\"men\":"); int(location.men)
        raw(",\"women\":"); int(location.women)
    }

    /// One listed location: the statistics and `distance_m`.
    mutating func location(_ location: CrowdLocation) {
        statistics(location)
        raw(",\"distance_m\":"); double(location.distance)
        raw("}")
    }
}
