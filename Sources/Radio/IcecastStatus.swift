import Foundation
import WireFormats

/// One live mount as `/status-json.xsl` lists it (PROTOCOL.md §4).
public struct IcecastMountStatus: Sendable, Hashable {
    /// `genre` (from `Ice-Genre`).
    public var genre: String
    /// `listener_peak`.
    public var listenerPeak: Int
    /// `listeners`.
    public var listeners: Int
    /// `relays`: other Icecast servers relaying the mount (Quintet's own key, issue 24 §4);
    /// absent when nil. `listeners` then counts listeners without them.
    public var relays: Int?
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
    public init(genre: String, listenerPeak: Int, listeners: Int, relays: Int? = nil, listenURL: String,
                serverDescription: String, serverName: String, serverType: String,
                serverURL: String, streamStart: Date, title: String? = nil) {
        self.relays = relays
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
        if let relays = m.relays { out += "\"relays\":\(relays)," }
        out += "\"server_description\":\(quote(m.serverDescription)),"
        out += "\"server_name\":\(quote(m.serverName)),\"server_type\":\(quote(m.serverType)),"
        out += "\"server_url\":\(quote(m.serverURL)),"
        out += "\"stream_start\":\(quote(rfc822(m.streamStart))),"
        out += "\"stream_start_iso8601\":\(quote(iso8601(m.streamStart))),"
        if let title = m.title { out += "\"title\":\(quote(title)),"}
        return out + "\"dummy\":null}"
    }

    /// `s` as a JSON string literal as icecast writes it: quote, backslash, control characters
    /// and DEL escaped, the rest passed through as UTF-8 (``JSONEscaping/icecast``).
    public static func quote(_ s: String) -> String { JSONString.quoted(s, escaping: .icecast) }

    /// `Sun, 22 Nov 2026 03:18:15 +0000` (UTC), icecast's spelling of RFC 822.
    public static func rfc822(_ date: Date) -> String { UTCDate.rfc822(date, zone: .numeric) }

    /// `2026-11-22T03:18:15+0000` (UTC).
    public static func iso8601(_ date: Date) -> String {
        let c = UTCDate(date)
        return "\(c.year)-\(c.pad(c.month))-\(c.pad(c.day))T\(c.pad(c.hour)):\(c.pad(c.minute)):\(c.pad(c.second))+0000"
    }
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
