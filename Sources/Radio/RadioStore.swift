import AudioCore
import Foundation
import GRDB
import MediaTags
import QuintetStore
import WireFormats

/// The radio's shows and episodes in the shared database, and the episode files under the
/// data folder (`DATA/radio/<show id>/<episode id>.mp3`). The server (sources, listeners,
/// podcast routes) and the CLI share it.
///
/// Every call reads the database afresh (no cache), so a show created by `quintet radio
/// create-show` is found by a server already running on the same data folder the next time
/// a source connects. Calls are synchronous and may block on SQLite (and, for
/// ``finishEpisode(id:endedAt:computePeaks:)``, on reading and decoding the file): call them
/// off event loops.
///
/// ```swift
/// let radio = RadioStore(database: database, decoder: AudioFileDecoder())
/// let show = try radio.createShow(owner: admin.id!, RadioStore.NewShow(title: "Morning"))
/// // a source connects to show.mount with user "source" and password show.streamKey:
/// guard let show = try radio.authenticateSource(mount: "/live/morning.mp3", key: password) else { … }
/// let episode = try radio.startEpisode(showID: show.id!)
/// // … append the broadcast's bytes to radio.fileURL(of: episode) …
/// let done = try radio.finishEpisode(id: episode.id!)   // exact duration, size, peaks; published
/// ```
public struct RadioStore: Sendable {
    /// The database (and through it the data folder).
    public let database: QuintetDatabase
    /// Turns episodes into PCM for their waveform peaks; nil: no peaks.
    public let decoder: (any AudioDecoding)?

    /// Every mount lives under this path: `/live/<slug>.mp3`. The app's own routes are
    /// `/api/…`, `/rest/…`, `/radio/…`, `/metrics`, `/status-json.xsl`, `/admin/…` and the
    /// pages of `Web/` (none named `live`), so a mount never shadows one of them.
    public static let mountPrefix = "/live/"
    /// Default longest broadcast: 4 hours.
    public static let defaultMaxEpisodeSeconds = 4 * 3600
    /// Bytes of randomness in a stream key (160 bits, 40 hex digits).
    public static let streamKeyBytes = 20
    /// Buckets of the waveform peaks computed for each episode.
    public static let waveformBuckets = 1000

    /// A store on `database` (opened with ``RadioSchema`` migrations applied). `decoder` turns
    /// episodes into PCM for their waveform peaks (the server and the CLI pass AudioCore's
    /// `AudioFileDecoder`, which runs ffmpeg); without one, episodes get no peaks.
    public init(database: QuintetDatabase, decoder: (any AudioDecoding)? = nil) {
        self.database = database
        self.decoder = decoder
    }

    /// The data folder.
    public var dataDirectory: URL { database.directory }

    // MARK: shows

    /// What a new show says; only the title is required.
    public struct NewShow: Sendable, Equatable {
        public var title: String
        public var description: String
        public var cover: String?
        public var language: String
        public var explicit: Bool
        public var location: String?
        public var publishAutomatically: Bool
        public var maxEpisodeSeconds: Int
        public var fallbackMount: String?
        /// Apple Podcasts category and subcategory (``PodcastCategory``), if any.
        public var category: String?
        public var subcategory: String?

        /// A new show's fields, with defaults for all but the title.
        public init(title: String, description: String = "", cover: String? = nil, language: String = "en",
                    explicit: Bool = false, location: String? = nil, publishAutomatically: Bool = true,
                    maxEpisodeSeconds: Int = RadioStore.defaultMaxEpisodeSeconds, fallbackMount: String? = nil,
                    category: String? = nil, subcategory: String? = nil) {
            self.category = category
            self.subcategory = subcategory
            self.title = title
            self.description = description
            self.cover = cover
            self.language = language
            self.explicit = explicit
            self.location = location
            self.publishAutomatically = publishAutomatically
            self.maxEpisodeSeconds = maxEpisodeSeconds
            self.fallbackMount = fallbackMount
        }
    }

    /// Creates a show owned by user `owner`, with a slug and mount from the title (`-2`, `-3`…
    /// appended when taken) and a fresh stream key (in the returned show's ``RadioShow/streamKey``).
    /// The title, description, language and category are checked as ``editShow(id:by:_:)``
    /// checks them; the cover is stored relative to the data folder (``normalizedCover(_:)``).
    /// Throws ``RadioStoreError/ownerNotFound(_:)`` or ``RadioStoreError/invalid(_:)``.
    public func createShow(owner: Int64, _ new: NewShow) throws -> RadioShow {
        let title = try Self.checkedTitle(new.title)
        let description = try Self.checkedDescription(new.description)
        guard new.maxEpisodeSeconds > 0 else { throw RadioStoreError.invalid("the longest episode must be positive") }
        let language = try Self.checkedLanguage(new.language)
        let category = try PodcastCategory.validate(new.category, new.subcategory)
        let cover = try normalizedCover(new.cover)
        if let fallback = new.fallbackMount, !Self.isMount(fallback) {
            throw RadioStoreError.invalid("a fallback mount is a path under \(Self.mountPrefix)")
        }
        let base = Self.slug(title)
        let key = Self.newStreamKey()
        return try database.pool.write { db in
            guard try Row.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [owner]) != nil else {
                throw RadioStoreError.ownerNotFound(owner)
            }
            var slug = base
            var n = 1
            while try RadioShow.filter(Column("slug") == slug).fetchCount(db) > 0 {
                n += 1
                slug = "\(base)-\(n)"
            }
            var show = RadioShow(
                id: nil, ownerID: owner, slug: slug, title: title, description: description,
                cover: cover, language: language, explicit: new.explicit,
                location: new.location?.isEmpty == true ? nil : new.location, streamKey: key,
                mount: "\(Self.mountPrefix)\(slug).mp3", publishAutomatically: new.publishAutomatically,
                maxEpisodeSeconds: new.maxEpisodeSeconds, fallbackMount: new.fallbackMount, createdAt: Date(),
                category: category.category, subcategory: category.subcategory)
            try show.insert(db)
            return show
        }
    }

    /// The show with this id, or nil; a deleted show only with `includeDeleted` (its owner's views).
    public func show(id: Int64, includeDeleted: Bool = false) throws -> RadioShow? {
        try database.pool.read { db in
            let show = try RadioShow.fetchOne(db, key: id)
            return includeDeleted || show?.deletedAt == nil ? show : nil
        }
    }

    /// The show on this mount (exact path, e.g. `/live/morning.mp3`), or nil; never a deleted
    /// one (its source is refused).
    public func show(mount: String) throws -> RadioShow? {
        try database.pool.read { db in
            try RadioShow.filter(Column("mount") == mount && Column("deleted_at") == nil).fetchOne(db)
        }
    }

    /// Every show (or those of one owner), oldest first; deleted ones only with `includeDeleted`.
    public func shows(owner: Int64? = nil, includeDeleted: Bool = false) throws -> [RadioShow] {
        try database.pool.read { db in
            var request = RadioShow.order(Column("id"))
            if let owner { request = request.filter(Column("owner_id") == owner) }
            if !includeDeleted { request = request.filter(Column("deleted_at") == nil) }
            return try request.fetchAll(db)
        }
    }

    /// The show on `mount` when `key` is its stream key, else nil. The key comparison takes
    /// the same time wherever the first difference is (``keysMatch(_:_:)``); an unknown mount
    /// is compared against a dummy key so it costs as much as a wrong key.
    public func authenticateSource(mount: String, key: String) throws -> RadioShow? {
        let show = try self.show(mount: mount)
        let expected = show?.streamKey ?? String(repeating: "0", count: 2 * Self.streamKeyBytes)
        let ok = Self.keysMatch(key, expected)
        return ok ? show : nil
    }

    /// Whether `key` is `show`'s stream key (constant time, ``keysMatch(_:_:)``).
    public static func verify(_ show: RadioShow, key: String) -> Bool {
        keysMatch(key, show.streamKey)
    }

    /// Gives a show a new stream key (the old one stops working for the next source that
    /// connects) and returns the show with it.
    public func resetStreamKey(showID: Int64) throws -> RadioShow {
        let key = Self.newStreamKey()
        return try database.pool.write { db in
            guard var show = try RadioShow.fetchOne(db, key: showID) else {
                throw RadioStoreError.showNotFound("with id \(showID)")
            }
            show.streamKey = key
            try show.update(db)
            return show
        }
    }

    /// Constant-time string equality: every byte of the longer input is looked at whatever
    /// the contents, so the time taken does not reveal how much of a key was right.
    public static func keysMatch(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }

    /// A new stream key: ``streamKeyBytes`` bytes from the system's secure generator, in hex.
    public static func newStreamKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<streamKeyBytes).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }

    /// A URL-safe slug of `title`: ASCII letters and digits lowercased, other runs turned into
    /// one `-`, at most 48 characters; `show` when nothing is left.
    public static func slug(_ title: String) -> String {
        var out = ""
        var dash = false
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if dash, !out.isEmpty { out.append("-") }
                dash = false
                out.unicodeScalars.append(scalar)
                if out.count >= 48 { break }
            } else {
                dash = true
            }
        }
        out = out.lowercased()
        return out.isEmpty ? "show" : out
    }

    /// Whether `path` is a well-formed mount: `/live/` then a non-empty name of letters,
    /// digits, `-`, `_` and `.`.
    public static func isMount(_ path: String) -> Bool {
        guard path.hasPrefix(mountPrefix) else { return false }
        let name = path.dropFirst(mountPrefix.count)
        return !name.isEmpty && name.count <= 100 && name.allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".")
        }
    }

    // MARK: episodes

    /// Starts a live episode of show `showID`: a row in state `live` with a fresh guid and its
    /// file path (the folder is created; the file is not). The title defaults to the show's
    /// title and the UTC start time. Write the broadcast to ``fileURL(of:)``.
    public func startEpisode(showID: Int64, title: String? = nil, description: String = "",
                             contentType: String = "audio/mpeg", at start: Date = Date()) throws -> RadioEpisode {
        try newEpisode(showID: showID, title: title, description: description, contentType: contentType,
                       state: .live, start: start)
    }

    func newEpisode(showID: Int64, title: String?, description: String, contentType: String,
                            state: EpisodeState, start: Date) throws -> RadioEpisode {
        let episode: RadioEpisode = try database.pool.write { db in
            guard let show = try RadioShow.fetchOne(db, key: showID), show.deletedAt == nil else {
                throw RadioStoreError.showNotFound("with id \(showID)")
            }
            let chosen = title?.trimmingCharacters(in: .whitespacesAndNewlines)
            var episode = RadioEpisode(
                id: nil, showID: showID,
                title: (chosen?.isEmpty ?? true) ? "\(show.title) — \(Self.stamp(start))" : chosen!,
                description: description, state: state, startedAt: start, endedAt: nil, publishedAt: nil,
                duration: 0, file: "", contentType: contentType, size: 0, listens: 0, peakListeners: 0,
                peaks: nil, guid: UUID().uuidString.lowercased())
            try episode.insert(db)
            let ext = AudioFraming(contentType: contentType) == .adts ? "aac" : "mp3"
            episode.file = "radio/\(showID)/\(episode.id!).\(ext)"
            try episode.update(db)
            return episode
        }
        try FileManager.default.createDirectory(at: fileURL(of: episode).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        return episode
    }

    /// The episode's audio file on disk.
    public func fileURL(of episode: RadioEpisode) -> URL {
        dataDirectory.appendingPathComponent(episode.file)
    }

    /// Records a live episode's progress (duration and bytes written so far), for status pages.
    public func updateLiveEpisode(id: Int64, duration: Double, size: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: "UPDATE radio_episodes SET duration = ?, size = ? WHERE id = ? AND state = 'live'",
                           arguments: [duration, size, id])
        }
    }

    /// Ends a live episode: reads its file for the exact duration (frame count) and size,
    /// computes waveform peaks when `computePeaks` (with the store's decoder; none without one), and sets the
    /// state to `published` (or `recorded` when the show does not publish automatically).
    /// A file with no audio frames throws ``RadioStoreError/badAudio(_:)`` and leaves the
    /// episode live: delete it with ``deleteEpisode(id:)``.
    @discardableResult
    public func finishEpisode(id: Int64, endedAt: Date = Date(), computePeaks: Bool = true) throws -> RadioEpisode {
        guard let episode = try episode(id: id, includeDeleted: true) else { throw RadioStoreError.episodeNotFound(id) }
        guard episode.state == .live else {
            throw RadioStoreError.wrongState("episode \(id) is \(episode.state.rawValue), not live")
        }
        return try finalise(episode, endedAt: endedAt, computePeaks: computePeaks)
    }

    func finalise(_ episode: RadioEpisode, endedAt: Date?, computePeaks: Bool) throws -> RadioEpisode {
        let url = fileURL(of: episode)
        if AudioFraming(contentType: episode.contentType) == .mpegAudio {
            // Players read the duration (and seek) from this frame; a recording has none. Best
            // effort: when it cannot be written (a full disk), the file stays as it was.
            _ = try? MP3SeekHeader.add(toFileAt: url)
        }
        let summary = try Self.summarize(fileAt: url, contentType: episode.contentType)
        let peaks = computePeaks ? waveformJSON(of: url) : nil
        return try database.pool.write { db in
            guard var row = try RadioEpisode.fetchOne(db, key: episode.id) else {
                throw RadioStoreError.episodeNotFound(episode.id ?? 0)
            }
            guard row.state == .live else {
                throw RadioStoreError.wrongState("episode \(row.id ?? 0) is \(row.state.rawValue), not live")
            }
            let show = try RadioShow.fetchOne(db, key: row.showID)
            row.duration = summary.duration
            row.size = summary.size
            row.endedAt = endedAt ?? row.startedAt.addingTimeInterval(summary.duration)
            if let peaks { row.peaks = peaks }
            // Auto-publish stops at the owner's plan limit: the episode stays `recorded`.
            let withinPlan = show.map { (try? RadioPlans.checkPublish(db, ownerID: $0.ownerID)) != nil } ?? true
            if show?.publishAutomatically ?? true, withinPlan {
                row.state = .published
                row.publishedAt = row.endedAt
            } else {
                row.state = .recorded
            }
            try row.update(db)
            return row
        }
    }

    /// (Re)computes an episode's waveform peaks from its file (nothing changes without a
    /// decoder or when it fails). For episodes finalised without them, e.g. by a quick recovery at start.
    public func computePeaks(episodeID: Int64) throws {
        guard let episode = try episode(id: episodeID, includeDeleted: true) else { throw RadioStoreError.episodeNotFound(episodeID) }
        guard let peaks = waveformJSON(of: fileURL(of: episode)) else { return }
        try database.pool.write { db in
            try db.execute(sql: "UPDATE radio_episodes SET peaks = ? WHERE id = ?", arguments: [peaks, episodeID])
        }
    }

    /// Puts a recorded episode in the feed (a published one stays as it is). Throws
    /// ``PlanLimitError`` when the owner's plan has as many episodes online as it allows.
    @discardableResult
    public func publish(episodeID: Int64, at date: Date = Date()) throws -> RadioEpisode {
        try database.pool.write { db in
            guard var episode = try RadioEpisode.fetchOne(db, key: episodeID) else {
                throw RadioStoreError.episodeNotFound(episodeID)
            }
            switch episode.state {
            case .live: throw RadioStoreError.wrongState("episode \(episodeID) is still live")
            case .published: return episode
            case .recorded:
                if let show = try RadioShow.fetchOne(db, key: episode.showID) {
                    try RadioPlans.checkPublish(db, ownerID: show.ownerID)  // PlanLimitError at the limit
                }
                episode.state = .published
                episode.publishedAt = date
                try episode.update(db)
                return episode
            }
        }
    }

    /// The episode with this id, or nil; one that is deleted (or whose show is) only with
    /// `includeDeleted` (its owner's views).
    public func episode(id: Int64, includeDeleted: Bool = false) throws -> RadioEpisode? {
        try database.pool.read { db in
            var request = RadioEpisode.filter(key: id)
            if !includeDeleted { request = request.filter(sql: Self.onlineEpisode) }
            return try request.fetchOne(db)
        }
    }

    /// SQL condition on `radio_episodes`: neither the episode nor its show is deleted.
    static let onlineEpisode = "deleted_at IS NULL AND show_id IN (SELECT id FROM radio_shows WHERE deleted_at IS NULL)"

    /// Episodes, newest start first: of one show or of all, in the given states (all when
    /// nil), at most `limit`; deleted ones (or those of a deleted show) only with `includeDeleted`.
    public func episodes(showID: Int64? = nil, states: Set<EpisodeState>? = nil, limit: Int = 50,
                         includeDeleted: Bool = false) throws -> [RadioEpisode] {
        try database.pool.read { db in
            var request = RadioEpisode.order(Column("started_at").desc, Column("id").desc)
            if !includeDeleted { request = request.filter(sql: Self.onlineEpisode) }
            if let showID { request = request.filter(Column("show_id") == showID) }
            if let states { request = request.filter(states.map(\.rawValue).contains(Column("state"))) }
            return try request.limit(max(0, limit)).fetchAll(db)
        }
    }

    /// How many episodes a show has online (in the given states; all when nil).
    public func episodeCount(showID: Int64, states: Set<EpisodeState>? = nil) throws -> Int {
        try database.pool.read { db in
            var request = RadioEpisode.filter(Column("show_id") == showID).filter(sql: Self.onlineEpisode)
            if let states { request = request.filter(states.map(\.rawValue).contains(Column("state"))) }
            return try request.fetchCount(db)
        }
    }

    /// Adds one listen to an episode (a live listener connecting, or a download starting): the
    /// all-time `listens` column grows by one and a `radio_listens` row (episode, show, `at`)
    /// records when, for "most popular" over a window (``RadioDiscovery``). `at` is now unless a
    /// test gives its own clock.
    public func countListen(episodeID: Int64, at: Date = Date()) throws {
        try database.pool.write { db in
            try db.execute(sql: "UPDATE radio_episodes SET listens = listens + 1 WHERE id = ?", arguments: [episodeID])
            try db.execute(sql: """
                INSERT INTO radio_listens (episode_id, show_id, at) SELECT id, show_id, ? FROM radio_episodes WHERE id = ?
                """, arguments: [at, episodeID])
        }
    }

    /// Raises the episode's peak listeners to `current` if it is higher.
    public func recordListeners(episodeID: Int64, current: Int) throws {
        try database.pool.write { db in
            try db.execute(sql: "UPDATE radio_episodes SET peak_listeners = MAX(peak_listeners, ?) WHERE id = ?",
                           arguments: [current, episodeID])
        }
    }

    /// What ``recoverInterruptedEpisodes(computePeaks:)`` did.
    public struct Recovery: Sendable, Equatable {
        /// Episodes finalised from their files.
        public var finalised: [RadioEpisode] = []
        /// Episodes removed because their file was missing or held no audio.
        public var discarded: [RadioEpisode] = []
        /// Nothing recovered.
        public init() {}
    }

    /// At server start, before any source connects: every episode still `live` was cut off
    /// (crash, `kill -9`). Each is finalised from its file on disk (exact duration and size,
    /// end time = start + duration, peaks) and published or recorded as its show says; one
    /// whose file is missing or holds no audio frame is deleted.
    public func recoverInterruptedEpisodes(computePeaks: Bool = true) throws -> Recovery {
        var recovery = Recovery()
        for episode in try episodes(states: [.live], limit: .max, includeDeleted: true) {
            do {
                recovery.finalised.append(try finalise(episode, endedAt: nil, computePeaks: computePeaks))
            } catch RadioStoreError.badAudio {
                try purgeEpisode(id: episode.id!)
                recovery.discarded.append(episode)
            }
        }
        return recovery
    }

    /// Removes an episode's row and its file at once, deleted or not (a missing file is not
    /// an error); ``deleteEpisode(id:at:)`` is the owner's delete with undo.
    public func purgeEpisode(id: Int64) throws {
        guard let episode = try episode(id: id, includeDeleted: true) else { throw RadioStoreError.episodeNotFound(id) }
        try database.pool.write { db in _ = try RadioEpisode.deleteOne(db, key: id) }
        try? FileManager.default.removeItem(at: fileURL(of: episode))
    }

    /// `2026-11-25 19:30 UTC` (no DateFormatter: see ``UTCDate``).
    private static func stamp(_ date: Date) -> String {
        let c = UTCDate(date)
        return "\(c.year)-\(c.pad(c.month))-\(c.pad(c.day)) \(c.pad(c.hour)):\(c.pad(c.minute)) UTC"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
