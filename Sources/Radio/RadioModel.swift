import AudioCore
import Foundation
import GRDB

/// A radio show: who owns it, where its source connects (``mount`` with ``streamKey``) and
/// what its podcast feed says. A row of `radio_shows` (``RadioSchema``).
///
/// ``streamKey`` is the source password: never put a `RadioShow` in a public answer as is.
public struct RadioShow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The table.
    public static let databaseTableName = "radio_shows"
    /// Row id (nil before insertion).
    public var id: Int64?
    /// The owning user (`users.id`).
    public var ownerID: Int64
    /// URL-safe name derived from the title, unique (`morning-show`).
    public var slug: String
    /// Show title (podcast `<title>`, Icecast `icy-name` default).
    public var title: String
    /// Plain-text description.
    public var description: String
    /// Cover art: an absolute URL or a path under the data folder; nil when none.
    public var cover: String?
    /// Language tag for the feed (`en`, `it-IT`).
    public var language: String
    /// Whether the feed says `itunes:explicit` true.
    public var explicit: Bool
    /// Free-text place the show is broadcast from, if given.
    public var location: String?
    /// The source password (user `source`), ≥ 128 random bits in hex. Compare it only with
    /// ``RadioStore/keysMatch(_:_:)``.
    public var streamKey: String
    /// Where sources connect and listeners tune in: `/live/<slug>.mp3` (``RadioStore/mountPrefix``).
    public var mount: String
    /// Whether a finished broadcast goes straight to the feed (else it stays `recorded`).
    public var publishAutomatically: Bool
    /// The longest broadcast allowed, in seconds.
    public var maxEpisodeSeconds: Int
    /// A mount listeners are moved to when this show's broadcast ends, if any.
    public var fallbackMount: String?
    /// When the show was created.
    public var createdAt: Date
    /// Apple Podcasts category (``PodcastCategory``), e.g. `Music`; nil when none.
    public var category: String? = nil
    /// A subcategory of ``category``, e.g. `Music Commentary`; nil when none.
    public var subcategory: String? = nil
    /// When the owner deleted the show (hidden from everyone else; restorable for
    /// ``RadioStore/undoDays`` days, then purged); nil while it is online.
    public var deletedAt: Date? = nil

    enum CodingKeys: String, CodingKey {
        case id, slug, title, description, cover, language, explicit, location, mount, category, subcategory
        case deletedAt = "deleted_at"
        case ownerID = "owner_id"
        case streamKey = "stream_key"
        case publishAutomatically = "publish_automatically"
        case maxEpisodeSeconds = "max_episode_seconds"
        case fallbackMount = "fallback_mount"
        case createdAt = "created_at"
    }

    /// Records the id GRDB assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Where an episode is in its life: on air, recorded (not in the feed yet), in the feed.
public enum EpisodeState: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    /// The broadcast is on air and its file is growing.
    case live
    /// Finished and finalised, waiting for the owner to publish it.
    case recorded
    /// In the podcast feed and downloadable by anyone.
    case published
}

/// One broadcast of a show (or an imported recording). A row of `radio_episodes`.
public struct RadioEpisode: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The table.
    public static let databaseTableName = "radio_episodes"
    /// Row id (nil before insertion).
    public var id: Int64?
    /// The show (`radio_shows.id`).
    public var showID: Int64
    /// Episode title.
    public var title: String
    /// Plain-text description.
    public var description: String
    /// ``EpisodeState``.
    public var state: EpisodeState
    /// When the broadcast started.
    public var startedAt: Date
    /// When it ended (nil while live).
    public var endedAt: Date?
    /// When it entered the feed (nil unless published).
    public var publishedAt: Date?
    /// Exact duration in seconds, counted from the audio frames (``RadioStore/summarize(fileAt:contentType:)``).
    public var duration: Double
    /// The audio file, relative to the data folder (`radio/<show id>/<episode id>.mp3`).
    public var file: String
    /// MIME type of the file (`audio/mpeg`, `audio/aac`).
    public var contentType: String
    /// File size in bytes.
    public var size: Int64
    /// Downloads started plus live listeners (see docs/radio.md for what counts once).
    public var listens: Int
    /// Most listeners at once while live.
    public var peakListeners: Int
    /// JSON of AudioCore's `WaveformPeaks` (nil until computed); see ``waveform``.
    public var peaks: String?
    /// Stable identifier for the feed's `<guid>`, generated at creation.
    public var guid: String
    /// When the owner deleted the episode (hidden from everyone else; restorable for
    /// ``RadioStore/undoDays`` days, then purged); nil while it is online.
    public var deletedAt: Date? = nil

    enum CodingKeys: String, CodingKey {
        case id, title, description, state, duration, file, size, listens, peaks, guid
        case deletedAt = "deleted_at"
        case showID = "show_id"
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case publishedAt = "published_at"
        case contentType = "content_type"
        case peakListeners = "peak_listeners"
    }

    /// Records the id GRDB assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The decoded waveform peaks, if computed.
    public var waveform: WaveformPeaks? {
        guard let peaks else { return nil }
        return try? JSONDecoder().decode(WaveformPeaks.self, from: Data(peaks.utf8))
    }
}

/// Why the radio store refused an operation. Messages say what to fix.
public enum RadioStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No user with this id (a show needs an existing owner).
    case ownerNotFound(Int64)
    /// No show with this id or mount.
    case showNotFound(String)
    /// No episode with this id.
    case episodeNotFound(Int64)
    /// A field was refused (empty title, bad duration, bad mount…).
    case invalid(String)
    /// The operation needs another state (e.g. finishing an episode that is not live).
    case wrongState(String)
    /// The audio file is missing, unreadable or holds no audio frames.
    case badAudio(String)
    /// The user may not change this show (only its owner or an admin may).
    case forbidden(String)

    public var description: String {
        switch self {
        case .ownerNotFound(let id): "no user with id \(id) (a show's owner must exist)"
        case .showNotFound(let what): "no show \(what)"
        case .episodeNotFound(let id): "no episode \(id)"
        case .invalid(let m): m
        case .wrongState(let m): m
        case .badAudio(let m): m
        case .forbidden(let m): m
        }
    }
}
