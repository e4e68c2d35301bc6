import Foundation

/// Recognises a listener that is another Icecast server relaying a live mount (issue 24 §4).
///
/// Debian's `icecast2` pulls a mount of a `<relay>` block with
/// `GET /live/x.mp3 HTTP/1.0`, `User-Agent: Icecast 2.4.4`, `Icy-MetaData: 1` (observed with
/// icecast 2.4.4). A relay is counted apart from listeners: it is one connection feeding many
/// listeners elsewhere, not a person listening. Any other relaying software can say it is one
/// with the query `?relay=1` or the header `X-Quintet-Relay: 1`.
///
/// ```swift
/// IcecastRelay.isRelay(userAgent: "Icecast 2.4.4", query: nil, relayHeader: nil)   // true
/// IcecastRelay.isRelay(userAgent: "VLC/3.0.18", query: "relay=1", relayHeader: nil) // true
/// ```
public enum IcecastRelay {
    /// The header a relay may send to be counted as one: `X-Quintet-Relay: 1`.
    public static let header = "x-quintet-relay"

    /// Whether a listener's request comes from a relay: its `User-Agent` is icecast's
    /// (`Icecast` followed by a space or `/`, any case), its query has `relay=1`, or its
    /// ``header`` is `1`.
    public static func isRelay(userAgent: String?, query: String?, relayHeader: String?) -> Bool {
        if let agent = userAgent?.trimmingCharacters(in: .whitespaces).lowercased(), agent.hasPrefix("icecast") {
            let rest = agent.dropFirst("icecast".count)
            if let next = rest.first, next == " " || next == "/" { return true }
        }
        if relayHeader?.trimmingCharacters(in: .whitespaces) == "1" { return true }
        guard let query else { return false }
        return query.split(separator: "&").contains { $0 == "relay=1" }
    }
}
