import Foundation

/// One live mount as `/status-json.xsl` lists it (PROTOCOL.md §4).
public struct IcecastMountStatus: Sendable, Hashable {
    /// `genre` (from `Ice-Genre`).
    public var genre: String
    /// `listener_peak`.
    public var listenerPeak: Int
    /// `listeners`.
    public var listeners: Int
    /// `listenurl`: `http://<host>:<port><mount>`.
    public var listenURL: String
    /// `server_description` (from `Ice-Description`).
    public var serverDescription: String
    /// `server_name` (from `Ice-Name`).
    public var serverName: String
    /// `server_type` (the source's `Content-Type`).
    public var serverType: String
    /// `server_url` (from `Ice-URL`).
    public var serverURL: String
    /// `stream_start` and `stream_start_iso8601`.
    public var streamStart: Date
    /// `title`, present only once a title was set.
    public var title: String?

    /// A mount's status; every field as icecast names it.
    public init(genre: String, listenerPeak: Int, listeners: Int, listenURL: String,
                serverDescription: String, serverName: String, serverType: String,
                serverURL: String, streamStart: Date, title: String? = nil) {
        self.genre = genre
        self.listenerPeak = listenerPeak
        self.listeners = listeners
        self.listenURL = listenURL
        self.serverDescription = serverDescription
        self.serverName = serverName
        self.serverType = serverType
        self.serverURL = serverURL
        self.streamStart = streamStart
        self.title = title
    }
}

/// Icecast's `/status-json.xsl` document (PROTOCOL.md §4), byte for byte in icecast's shape:
/// keys in icecast's order, no spaces, `"dummy":null` closing each source object (and
/// `icestats` itself when no mount is live), `source` an object
/// for one live mount, an array for two or more and absent for none; dates as
/// `Sun, 22 Nov 2026 03:18:15 +0000` and `2026-11-22T03:18:15+0000` (UTC).
///
/// ```swift
/// let json = IcecastStatus(admin: "a@b", host: "127.0.0.1", location: "here",
///                          serverStart: start, mounts: live).json()
/// ```
public struct IcecastStatus: Sendable, Hashable {
    /// `admin` (contact address).
    public var admin: String
    /// `host`.
    public var host: String
    /// `location`.
    public var location: String
    /// `server_id`.
    public var serverID: String
    /// `server_start` and `server_start_iso8601`.
    public var serverStart: Date
    /// The live mounts, in the order to list them.
    public var mounts: [IcecastMountStatus]

    /// A status document; `serverID` defaults to icecast's own (`Icecast 2.4.4`), which some
    /// clients test for.
    public init(admin: String, host: String, location: String, serverID: String = "Icecast 2.4.4",
                serverStart: Date, mounts: [IcecastMountStatus]) {
        self.admin = admin
        self.host = host
        self.location = location
        self.serverID = serverID
        self.serverStart = serverStart
        self.mounts = mounts
    }

    /// The JSON text (UTF-8, no trailing newline).
    public func json() -> String {
        var out = "{\"icestats\":{"
        out += "\"admin\":\(Self.quote(admin)),\"host\":\(Self.quote(host)),"
        out += "\"location\":\(Self.quote(location)),\"server_id\":\(Self.quote(serverID)),"
        out += "\"server_start\":\(Self.quote(Self.rfc822(serverStart))),"
        out += "\"server_start_iso8601\":\(Self.quote(Self.iso8601(serverStart))),"
        // icecast's stylesheet closes the last object with "dummy":null: icestats' own when no
        // mount is live, else the source's.
        switch mounts.count {
        case 0: out += "\"dummy\":null"
        case 1: out += "\"source\":" + Self.object(mounts[0])
        default: out += "\"source\":[" + mounts.map(Self.object).joined(separator: ",") + "]"
        }
        return out + "}}"
    }

    static func object(_ m: IcecastMountStatus) -> String {
        var out = "{\"genre\":\(quote(m.genre)),\"listener_peak\":\(m.listenerPeak),"
        out += "\"listeners\":\(m.listeners),\"listenurl\":\(quote(m.listenURL)),"
        out += "\"server_description\":\(quote(m.serverDescription)),"
        out += "\"server_name\":\(quote(m.serverName)),\"server_type\":\(quote(m.serverType)),"
        out += "\"server_url\":\(quote(m.serverURL)),"
        out += "\"stream_start\":\(quote(rfc822(m.streamStart))),"
        out += "\"stream_start_iso8601\":\(quote(iso8601(m.streamStart))),"
        if let title = m.title { out += "\"title\":\(quote(title)),"}
        return out + "\"dummy\":null}"
    }

    /// `s` as a JSON string literal: quote, backslash and control characters escaped, the rest
    /// passed through as UTF-8.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `Sun, 22 Nov 2026 03:18:15 +0000` (UTC).
    public static func rfc822(_ date: Date) -> String {
        let c = UTCDate(date)
        return "\(c.weekdayName), \(c.pad(c.day)) \(c.monthName) \(c.year) \(c.pad(c.hour)):\(c.pad(c.minute)):\(c.pad(c.second)) +0000"
    }

    /// `2026-11-22T03:18:15+0000` (UTC).
    public static func iso8601(_ date: Date) -> String {
        let c = UTCDate(date)
        return "\(c.year)-\(c.pad(c.month))-\(c.pad(c.day))T\(c.pad(c.hour)):\(c.pad(c.minute)):\(c.pad(c.second))+0000"
    }
}

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

/// Icecast's XML answers to `/admin/metadata` (PROTOCOL.md §3), byte-exact, served as
/// `text/xml; charset=utf-8`.
public enum IcecastAdminResponse {
    /// The answer to a successful `mode=updinfo` (113 bytes, trailing newline included).
    public static let metadataUpdated = answer(message: "Metadata update successful", success: true)
    /// The answer to any other `mode` (101 bytes), still with status 200.
    public static let noSuchAction = answer(message: "No such action", success: false)

    /// An `iceresponse` document with `message` (XML-escaped) and `return` 1 or 0.
    public static func answer(message: String, success: Bool) -> String {
        "<?xml version=\"1.0\"?>\n<iceresponse><message>\(XMLText.escape(message))</message><return>\(success ? 1 : 0)</return></iceresponse>\n"
    }
}
