import Foundation
import GRDB

/// One message of a show's live chat, kept with the episode that was live when it was sent.
/// A row of `radio_chat_messages` (``RadioSchema``).
///
/// ``text`` is plain text (``RadioChatText/clean(_:)``): clients must show it as text, never
/// as markup.
public struct RadioChatMessage: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The table.
    public static let databaseTableName = "radio_chat_messages"
    /// Row id (nil before insertion); ids grow with time.
    public var id: Int64?
    /// The show (`radio_shows.id`).
    public var showID: Int64
    /// The episode live when the message was sent (`radio_episodes.id`).
    public var episodeID: Int64
    /// The author (`users.id`); nil once that user has been deleted.
    public var userID: Int64?
    /// The author's display name when the message was sent (the user's name).
    public var name: String
    /// The message: plain text, 1–``RadioChatText/maxScalars`` Unicode scalars.
    public var text: String
    /// When it was sent.
    public var sentAt: Date
    /// Whether the show's owner or an admin deleted it (kept, never shown again).
    public var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, text, deleted
        case showID = "show_id"
        case episodeID = "episode_id"
        case userID = "user_id"
        case sentAt = "sent_at"
    }

    /// Records the id GRDB assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A user muted in a show's chat until a time. A row of `radio_chat_mutes`.
public struct RadioChatMute: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    /// The table.
    public static let databaseTableName = "radio_chat_mutes"
    /// The show.
    public var showID: Int64
    /// The muted user.
    public var userID: Int64
    /// Until when the user's messages are refused.
    public var until: Date

    enum CodingKeys: String, CodingKey {
        case until
        case showID = "show_id"
        case userID = "user_id"
    }
}

/// The rules of a chat message's text.
public enum RadioChatText {
    /// Longest message, in Unicode scalars.
    public static let maxScalars = 500

    /// The text as it is stored: tabs and line breaks become spaces, other control characters
    /// (Unicode category Cc) and the bidirectional overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069, which could make a message read as another's) are removed, and
    /// white space is trimmed at both ends. Nil when nothing is left or when more than
    /// ``maxScalars`` scalars are.
    ///
    /// ```swift
    /// RadioChatText.clean("  hi\u{7}\n there ")   // "hi  there"
    /// RadioChatText.clean("<b>x</b>")            // "<b>x</b>" (plain text: kept as is)
    /// ```
    public static func clean(_ raw: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                scalars.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                scalars.append(scalar)
            }
        }
        let text = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.unicodeScalars.count <= maxScalars else { return nil }
        return text
    }
}

/// A sliding-window rate limit per key (a user): at most ``limit`` events in any ``window``
/// seconds. Times are seconds on a monotonic clock chosen by the caller.
///
/// ```swift
/// var limiter = RadioChatRateLimiter(limit: 5, window: 10)
/// switch limiter.admit(userID, at: now) {
/// case .allowed: send()
/// case .limited(let retryAfter): refuse(retryAfter)   // seconds until the oldest event leaves the window
/// }
/// ```
public struct RadioChatRateLimiter<Key: Hashable & Sendable>: Sendable {
    /// What ``admit(_:at:)`` decided.
    public enum Decision: Sendable, Equatable {
        /// The event is within the limit and was counted.
        case allowed
        /// Over the limit: not counted; try again after this many seconds (> 0).
        case limited(retryAfter: Double)
    }

    /// Events allowed per window.
    public let limit: Int
    /// The window, in seconds.
    public let window: Double
    private var events: [Key: [Double]] = [:]
    private var admitted = 0

    /// A limiter of `limit` events (≥ 1) per `window` seconds (> 0).
    public init(limit: Int, window: Double) {
        precondition(limit >= 1 && window > 0, "a rate limit needs at least one event per positive window")
        self.limit = limit
        self.window = window
    }

    /// Counts an event of `key` at `now` when fewer than ``limit`` of its events are in the
    /// window `(now - window, now]`; otherwise refuses it, uncounted.
    public mutating func admit(_ key: Key, at now: Double) -> Decision {
        var times = events[key, default: []]
        times.removeAll { $0 <= now - window }
        if times.count >= limit {
            events[key] = times
            return .limited(retryAfter: max(times[0] + window - now, 0.001))
        }
        times.append(now)
        events[key] = times
        admitted += 1
        if admitted % 1024 == 0 { forget(before: now - window) }
        return .allowed
    }

    /// Keys with an event in the window now (the rest are forgotten from time to time).
    public var trackedKeys: Int { events.count }

    private mutating func forget(before cutoff: Double) {
        events = events.filter { _, times in times.contains { $0 > cutoff } }
    }
}
