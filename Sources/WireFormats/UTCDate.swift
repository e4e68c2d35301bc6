import Foundation

/// Calendar fields of a date in UTC, for the fixed-format dates of Icecast and RSS.
public struct UTCDate: Sendable {
    public let year, month, day, hour, minute, second, weekday: Int

    /// The fields by integer arithmetic on the Unix time (days → civil date, the proleptic
    /// Gregorian calendar), with no `Calendar`, `TimeZone` or ICU: these dates are formatted on
    /// many threads at once, and the CF/ICU-backed date formatters of Linux Foundation are
    /// not safe there (a lazily created CF calendar frees memory it did not allocate,
    /// swift-corelibs-foundation#5533).
    public init(_ date: Date) {
        let t = Int64(date.timeIntervalSince1970.rounded(.down))
        var days = t / 86_400
        var seconds = t % 86_400
        if seconds < 0 {
            seconds += 86_400
            days -= 1
        }
        hour = Int(seconds / 3600)
        minute = Int(seconds % 3600 / 60)
        second = Int(seconds % 60)
        weekday = Int(((days % 7 + 7) % 7 + 4) % 7) + 1   // 1970-01-01 was a Thursday; Sunday = 1
        // Days since 1970-01-01 to year/month/day: count from 0000-03-01 in 400-year eras of
        // 146,097 days, so that leap days fall at the end of each year.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153          // 0 = March … 11 = February
        day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    public var weekdayName: String { ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday - 1] }
    public var monthName: String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
    }

    public func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// How an RFC 822 date names its zone (always UTC here).
public enum RFC822Zone: String, Sendable, Hashable {
    /// `GMT`: HTTP's IMF-fixdate (RFC 9110 §5.6.7), RSS 2.0's `pubDate`.
    case gmt = "GMT"
    /// `+0000`: what icecast's `/status-json.xsl` prints (`server_start`, `stream_start`).
    case numeric = "+0000"
}

extension UTCDate {
    /// The RFC 822 / RFC 5322 date-time with a four-digit year, `Sun, 22 Nov 2026 03:18:15 GMT`
    /// (or `+0000`); the fractional second is dropped.
    ///
    /// ```swift
    /// UTCDate.rfc822(Date(timeIntervalSince1970: 0))   // "Thu, 01 Jan 1970 00:00:00 GMT"
    /// ```
    public static func rfc822(_ date: Date, zone: RFC822Zone = .gmt) -> String {
        let c = UTCDate(date)
        return "\(c.weekdayName), \(c.pad(c.day)) \(c.monthName) \(c.year) \(c.pad(c.hour)):\(c.pad(c.minute)):\(c.pad(c.second)) \(zone.rawValue)"
    }

    /// An HTTP date (`Last-Modified`, `Date`, `If-Range`): RFC 9110's IMF-fixdate,
    /// `Sun, 22 Nov 2026 03:18:15 GMT`.
    public static func http(_ date: Date) -> String { rfc822(date, zone: .gmt) }
}
