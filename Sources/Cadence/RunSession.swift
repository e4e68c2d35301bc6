import AudioCore

/// A run, as a state machine: cadence readings and playback events in, the song to play out.
///
/// ```
/// idle ──start──▶ running ──pause──▶ paused ──resume──▶ running
///                   │  ▲                │
///   songEnded/next ─┘  │ autoSwitch     └──stop──▶ stopped ◀──stop── running
/// ```
///
/// - **start** (from idle): with a known cadence (readings fed while idle count) the best
///   match; without one, like the original app, a random song from the lowest 20-BPM band
///   that holds any song (the RNG is seeded, so a session is reproducible).
/// - **songEnded / next** (running): the cadence is re-estimated from the latest readings
///   (their median over `estimateWindow` seconds; if there are none, the cadence the current
///   song was chosen for; if none either, the random lowest-band pick) and a song picked.
/// - **auto-switch** (running, optional): when every reading with a cadence has differed from
///   the current song's cadence by more than `switchThreshold` for more than `switchDuration`
///   seconds, a new song is picked for the new cadence. A song chosen at random (no cadence
///   known) is switched once a cadence has been steady for `switchDuration`. Readings without a
///   cadence (still) neither start nor break such a stretch.
/// - **pause** clears the sensor buffer (as the original app did); readings fed while paused
///   are ignored; **resume** goes on with the same song. **stop** ends the session for good.
///
/// No song is played twice in a session, and none of `excluded` is chosen. Events that do not apply to the current state
/// (a song end while paused, a start while running…) are ignored and return nil.
public struct RunSession: Sendable {
    public enum State: String, Sendable, Equatable { case idle, running, paused, stopped }

    /// Why a song was chosen.
    public enum Cause: String, Sendable, Equatable { case start, songEnded, next, autoSwitch }

    /// A choice of song (or the reason there is none).
    public struct Choice: Sendable, Equatable {
        public var cause: Cause
        /// The cadence the choice was made for; nil when none was known (random pick).
        public var cadence: Double?
        public var pick: SongPick
        /// True when the song was drawn at random from the lowest band (no cadence known).
        public var isRandom: Bool
    }

    public struct Settings: Sendable, Equatable {
        public var mode: SongMatcher.Mode = .nearest
        public var tolerance = 0.04
        public var sprint = false
        /// Auto-switch on a lasting change of cadence.
        public var autoSwitch = true
        /// Relative change of cadence that counts as a move (8 %).
        public var switchThreshold = 0.08
        /// How long the move must last, seconds.
        public var switchDuration = 10.0
        /// The latest cadence is the median of the readings of the last this many seconds.
        public var estimateWindow = 5.0

        public init(mode: SongMatcher.Mode = .nearest, sprint: Bool = false, autoSwitch: Bool = true,
                    switchThreshold: Double = 0.08, switchDuration: Double = 10) {
            self.mode = mode; self.sprint = sprint; self.autoSwitch = autoSwitch
            self.switchThreshold = switchThreshold; self.switchDuration = switchDuration
        }
    }

    public private(set) var state: State = .idle
    public let songs: [SongCandidate]
    public var settings: Settings
    /// Ids played so far, in order.
    public private(set) var history: [String] = []
    /// Ids never to choose, such as a runner's "never while running" list; may change between
    /// events (a song put on the list during a run is not chosen next). Unlike `history`,
    /// taking an id off makes the song a candidate again.
    public var excluded: Set<String> = []
    /// The song playing (nil before the start or when nothing was left).
    public private(set) var current: SongMatch?
    /// The cadence the current song was chosen for (nil: chosen at random).
    public private(set) var currentCadence: Double?
    /// The sensor buffer: recent readings (time, spm) in time order.
    public private(set) var readings: [(t: Double, spm: Double?)] = []

    private var rng: SplitMix64
    private var moveStart: Double?

    public init(songs: [SongCandidate], settings: Settings = Settings(), seed: UInt64 = 0) {
        self.songs = songs; self.settings = settings; rng = SplitMix64(seed: seed)
    }

    private var matcher: SongMatcher { SongMatcher(mode: settings.mode, tolerance: settings.tolerance) }

    /// The median cadence of the readings of the last `estimateWindow` seconds, nil if none has one.
    public var latestCadence: Double? {
        guard let last = readings.last?.t else { return nil }
        let values = readings.filter { $0.t > last - settings.estimateWindow }.compactMap(\.spm).sorted()
        guard !values.isEmpty else { return nil }
        let m = values.count / 2
        return values.count % 2 == 1 ? values[m] : (values[m - 1] + values[m]) / 2
    }

    // MARK: events

    public mutating func start() -> Choice? {
        guard state == .idle else { return nil }
        state = .running
        return choose(.start, cadence: latestCadence)
    }

    /// A cadence reading (`spm` nil: no gait). Returns a choice when it triggers an auto-switch.
    public mutating func feed(t: Double, spm: Double?) -> Choice? {
        guard state == .idle || state == .running else { return nil }
        if let lastT = readings.last?.t, t < lastT { return nil } // out of order: ignored
        readings.append((t, spm))
        let keep = max(settings.estimateWindow, settings.switchDuration) + 1
        if let first = readings.first?.t, first < t - keep { readings.removeAll { $0.t < t - keep } }
        guard state == .running, settings.autoSwitch, let spm else { return nil }
        let moved = currentCadence.map { abs(spm / $0 - 1) > settings.switchThreshold } ?? true
        guard moved else { moveStart = nil; return nil }
        let since = moveStart ?? t
        moveStart = since
        guard t - since > settings.switchDuration else { return nil }
        // The new cadence: the median of the readings of the moved stretch's last window.
        let window = readings.filter { $0.t >= max(since, t - settings.estimateWindow) }.compactMap(\.spm).sorted()
        let m = window.count / 2
        let cadence = window.count % 2 == 1 ? window[m] : (window[m - 1] + window[m]) / 2
        return choose(.autoSwitch, cadence: cadence)
    }

    public mutating func songEnded() -> Choice? {
        guard state == .running else { return nil }
        return choose(.songEnded, cadence: latestCadence ?? currentCadence)
    }

    public mutating func next() -> Choice? {
        guard state == .running else { return nil }
        return choose(.next, cadence: latestCadence ?? currentCadence)
    }

    /// Pauses, clearing the sensor buffer. False if not running.
    @discardableResult public mutating func pause() -> Bool {
        guard state == .running else { return false }
        state = .paused; readings.removeAll(); moveStart = nil
        return true
    }

    /// Resumes with the same song. False if not paused.
    @discardableResult public mutating func resume() -> Bool {
        guard state == .paused else { return false }
        state = .running
        return true
    }

    /// Ends the session. False if already stopped.
    @discardableResult public mutating func stop() -> Bool {
        guard state != .stopped else { return false }
        state = .stopped; readings.removeAll(); moveStart = nil; current = nil
        return true
    }

    // MARK: choosing

    private mutating func choose(_ cause: Cause, cadence: Double?) -> Choice {
        moveStart = nil
        let played = excluded.union(history)
        var choice: Choice
        if let cadence {
            choice = Choice(cause: cause, cadence: cadence,
                            pick: matcher.pick(cadence: cadence, sprint: settings.sprint, from: songs, played: played),
                            isRandom: false)
        } else {
            choice = Choice(cause: cause, cadence: nil, pick: randomLowest(played: played), isRandom: true)
        }
        currentCadence = cadence
        current = choice.pick.match
        if let id = current?.id { history.append(id) }
        return choice
    }

    /// The original app's first song: a random one from the lowest 20-BPM band holding any unplayed song.
    private mutating func randomLowest(played: Set<String>) -> SongPick {
        guard !songs.isEmpty else { return .none(.emptyLibrary) }
        let known = songs.filter { $0.bpm > 0 && $0.bpm.isFinite }
        guard !known.isEmpty else { return .none(.noTempo) }
        let fresh = known.filter { !played.contains($0.id) }
        guard let lowest = fresh.map(\.bpm).min() else { return .none(.allPlayed) }
        let band = SongMatcher.band(of: lowest)
        let inBand = fresh.filter { band.contains($0.bpm) }.sorted { $0.id < $1.id }
        let song = inBand.randomElement(using: &rng)!
        return .song(SongMatch(id: song.id, bpm: song.bpm, effectiveBPM: song.bpm, target: song.bpm,
                               relativeDistance: 0, isFallback: false))
    }
}
