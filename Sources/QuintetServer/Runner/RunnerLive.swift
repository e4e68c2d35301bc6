import Cadence
import Foundation
import LibraryCore

/// One `/api/runner/live` conversation, without its transport: JSON text messages in, JSON
/// text messages out. The WebSocket route feeds it; tests drive it directly.
///
/// In (each a JSON object with `type`):
/// - `{"type":"settings","mode":"nearest"|"ranges","sprint":bool,"auto_switch":bool,"units":"auto"|"g"|"m/s2"}`
///   — every field optional; `units` only before the first samples.
/// - `{"type":"samples","samples":[[t,x,y,z],…]}` — `t` in seconds on the sender's clock
///   (any origin, increasing), acceleration with gravity, at most `maxSamplesPerMessage`.
/// - `{"type":"start"}`, `{"type":"next"}`, `{"type":"song_ended"}`, `{"type":"pause"}`,
///   `{"type":"resume"}`, `{"type":"stop"}` — the run's events (`RunSession`).
///
/// Out:
/// - `{"type":"ready","songs":N,"state":"idle","settings":{…}}` first;
/// - `{"type":"cadence","t","spm"|null,"confidence","state","steps"}` once per second of
///   samples, 2 s after that second (the window is centred on it);
/// - `{"type":"song","cause":"start"|"song_ended"|"next"|"auto_switch","cadence"|null,
///   "random":bool,"song":{id,title,artist,bpm,bpm_source,path,stream_url}|null,"target_bpm",
///   "effective_bpm","fallback","reason"?,"code"?}` — `song` null with `code`
///   `empty_library`/`no_tempo`/`all_played` when there is none; `cadence` is the one the song
///   was chosen for and `song.bpm` its effective tempo, for the page's list of songs played;
///   songs of the user's never-while-running list are never chosen;
/// - `{"type":"state","state":"running"|"paused"|"stopped"}` after each control;
/// - `{"type":"error","code","message"}` for a message that cannot be taken (the
///   conversation goes on).
struct RunnerLive {
    static let maxSamplesPerMessage = 5_000
    /// Largest text message accepted, bytes (5,000 samples at ~50 bytes each, with room).
    static let maxMessageBytes = 512 * 1024

    private var cadence = LiveCadence()
    private var run: RunSession
    /// The song behind a chosen id (the catalog's, read when a song is chosen).
    private let lookup: (Int64) -> CatalogSong?
    /// The user's "never while running" list, read before each message that may choose a song,
    /// so a song put on it during the run is not chosen next.
    private let never: () -> Set<Int64>
    private let songCount: Int
    /// Songs in the library, with a BPM or not: tells "nothing scanned" from "no BPMs yet".
    private let librarySongs: Int
    private var sawSamples = false
    /// Seconds on a monotonic clock (injectable for tests).
    private let now: () -> Double
    /// The first sample's time and the clock then: samples may not outrun real time by more than `slack`.
    private var firstSample: (t: Double, at: Double)?
    /// How far (s) the samples' clock may run ahead of real time: live data, not a replayed log.
    static let slack = 60.0

    /// `tempos`: the library's songs with a BPM (id, BPM); `lookup` gives a chosen song's
    /// details; `seed` makes the random first song reproducible.
    init(tempos: [(id: Int64, bpm: Double)], librarySongs: Int? = nil, lookup: @escaping (Int64) -> CatalogSong?,
         never: @escaping () -> Set<Int64> = { [] },
         seed: UInt64 = UInt64.random(in: 0...UInt64.max),
         now: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.now = now
        let candidates = RunnerPicker.candidates(tempos)
        songCount = candidates.count
        self.librarySongs = librarySongs ?? tempos.count
        self.lookup = lookup
        self.never = never
        run = RunSession(songs: candidates, seed: seed)
    }

    /// A conversation over a list of songs (tests, small libraries).
    init(songs: [CatalogSong], never: @escaping () -> Set<Int64> = { [] },
         seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        let byID = Dictionary(songs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.init(tempos: songs.compactMap { song in song.bpm.map { (song.id, $0) } }, librarySongs: songs.count,
                  lookup: { byID[$0] }, never: never, seed: seed)
    }

    var isStopped: Bool { run.state == .stopped }

    /// The first message of the conversation.
    func greeting() -> String {
        Self.encode(Out(type: "ready", songs: songCount, state: run.state.rawValue, settings: settingsOut()))
    }

    /// What a client sends (every field but `type` optional; which apply depends on `type`).
    struct In: Decodable {
        var type: String
        var samples: [[Double]]?
        var mode: String?
        var sprint: Bool?
        var autoSwitch: Bool?
        var units: String?
        enum CodingKeys: String, CodingKey { case type, samples, mode, sprint, autoSwitch = "auto_switch", units }
    }

    /// What the server sends: one shape, the fields of each `type` set (nil ones left out).
    struct Out: Encodable {
        var type: String
        var songs: Int?
        var state: String?
        var settings: SettingsOut?
        // cadence
        var t: Double?
        var spm: Double??
        var confidence: Double?
        var steps: Int?
        // song
        var cause: String?
        var cadence: Double??
        var random: Bool?
        var song: RunnerRoutes.SongSummary??
        var targetBPM: Double?
        var effectiveBPM: Double?
        var fallback: Bool?
        var reason: String?
        // error (and song: why there is none)
        var code: String?
        var message: String?

        enum CodingKeys: String, CodingKey {
            case type, songs, state, settings, t, spm, confidence, steps, cause, cadence, random, song
            case targetBPM = "target_bpm", effectiveBPM = "effective_bpm", fallback, reason, code, message
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(type, forKey: .type)
            try c.encodeIfPresent(songs, forKey: .songs)
            try c.encodeIfPresent(state, forKey: .state)
            try c.encodeIfPresent(settings, forKey: .settings)
            try c.encodeIfPresent(t, forKey: .t)
            if let spm { try c.encode(spm, forKey: .spm) } // Optional(nil) → null
            try c.encodeIfPresent(confidence, forKey: .confidence)
            try c.encodeIfPresent(steps, forKey: .steps)
            try c.encodeIfPresent(cause, forKey: .cause)
            if let cadence { try c.encode(cadence, forKey: .cadence) }
            try c.encodeIfPresent(random, forKey: .random)
            if let song { try c.encode(song, forKey: .song) }
            try c.encodeIfPresent(targetBPM, forKey: .targetBPM)
            try c.encodeIfPresent(effectiveBPM, forKey: .effectiveBPM)
            try c.encodeIfPresent(fallback, forKey: .fallback)
            try c.encodeIfPresent(reason, forKey: .reason)
            try c.encodeIfPresent(code, forKey: .code)
            try c.encodeIfPresent(message, forKey: .message)
        }
    }

    struct SettingsOut: Encodable {
        var mode: String, sprint: Bool, autoSwitch: Bool, units: String
        enum CodingKeys: String, CodingKey { case mode, sprint, autoSwitch = "auto_switch", units }
    }


    /// The answers to one incoming text message.
    mutating func handle(_ text: String) -> [String] {
        let message: In
        do { message = try JSONDecoder().decode(In.self, from: Data(text.utf8)) } catch {
            return [self.error("invalid_message", Self.describe(error))]
        }
        let type = message.type
        if run.state == .stopped && type != "stop" {
            return [error("stopped", "the run has stopped; open a new connection for another")]
        }
        switch type {
        case "start", "next", "song_ended": refreshNever()
        case "samples" where run.state == .running && run.settings.autoSwitch: refreshNever() // may auto-switch
        default: break
        }
        switch type {
        case "settings": return settings(message)
        case "samples": return samples(message.samples)
        case "start":
            guard run.state == .idle else { return [error("invalid_state", "the run has started already")] }
            let choice = run.start()
            return [state()] + (choice.map { [song($0)] } ?? [])
        case "next", "song_ended":
            guard run.state == .running else { return [error("invalid_state", "no song is playing: the run is \(run.state.rawValue)")] }
            let choice = type == "next" ? run.next() : run.songEnded()
            return choice.map { [song($0)] } ?? []
        case "pause":
            guard run.pause() else { return [error("invalid_state", "only a running run can pause; it is \(run.state.rawValue)")] }
            cadence.reset()
            return [state()]
        case "resume":
            guard run.resume() else { return [error("invalid_state", "only a paused run can resume; it is \(run.state.rawValue)")] }
            return [state()]
        case "stop":
            run.stop()
            cadence.reset()
            return [state()]
        default:
            return [error("invalid_message", "unknown message type \"\(type.prefix(40))\"; see docs/runner.md")]
        }
    }

    // MARK: messages

    private mutating func settings(_ message: In) -> [String] {
        var next = run.settings
        if let name = message.mode {
            guard let mode = SongMatcher.Mode(rawValue: name) else {
                return [error("invalid_message", "mode must be one of \(SongMatcher.Mode.allCases.map(\.rawValue).joined(separator: ", "))")]
            }
            next.mode = mode
        }
        if let sprint = message.sprint { next.sprint = sprint }
        if let autoSwitch = message.autoSwitch { next.autoSwitch = autoSwitch }
        if let name = message.units {
            guard let units = LiveCadence.Units(rawValue: name) else {
                return [error("invalid_message", "units must be one of \(LiveCadence.Units.allCases.map(\.rawValue).joined(separator: ", "))")]
            }
            guard !sawSamples else { return [error("invalid_state", "units can only be set before the first samples")] }
            cadence = LiveCadence(units: units)
        }
        run.settings = next
        return [Self.encode(Out(type: "settings", settings: settingsOut()))]
    }

    private mutating func samples(_ rows: [[Double]]?) -> [String] {
        guard let rows else {
            return [error("invalid_samples", "samples is an array of [t, x, y, z] arrays (seconds; g or m/s²)")]
        }
        guard rows.count <= Self.maxSamplesPerMessage else {
            return [error("invalid_samples", "at most \(Self.maxSamplesPerMessage) samples per message, not \(rows.count)")]
        }
        var parsed = [AccelerationSample]()
        parsed.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row.count == 4, row.allSatisfy(\.isFinite) else {
                return [error("invalid_samples", "sample \(index) is not [t, x, y, z] with four finite numbers; no sample of this message was taken")]
            }
            parsed.append(AccelerationSample(t: row[0], x: row[1], y: row[2], z: row[3]))
        }
        guard run.state == .idle || run.state == .running else { return [] } // paused: ignored, the sensor is off
        // Each second of samples costs an estimate: a client must not send hours of them in a
        // moment (a recorded log goes to POST /api/runner/cadence instead).
        if let first = parsed.first {
            let origin = firstSample ?? (first.t, now())
            firstSample = origin
            if let last = parsed.map(\.t).max(), last - origin.t > now() - origin.at + Self.slack {
                return [error("invalid_samples", "the samples run ahead of real time by more than \(Int(Self.slack)) s: this socket takes live data; send a recorded log to POST /api/runner/cadence")]
            }
        }
        sawSamples = true
        let readings: [CadenceReading]
        do { readings = try cadence.add(parsed) } catch {
            cadence.reset()
            return [self.error("invalid_samples", error.description)]
        }
        var out = [String]()
        for reading in readings {
            out.append(Self.encode(Out(
                type: "cadence", state: reading.state.rawValue, t: reading.t,
                spm: .some(reading.spm.map { ($0 * 10).rounded() / 10 }),
                confidence: (reading.confidence * 100).rounded() / 100, steps: reading.steps)))
            if let choice = run.feed(t: reading.t, spm: reading.spm) { out.append(song(choice)) }
        }
        return out
    }

    private func song(_ choice: RunSession.Choice) -> String {
        var out = Out(type: "song", cause: Self.causeName(choice.cause),
                      cadence: .some(choice.cadence.map { ($0 * 10).rounded() / 10 }), random: choice.isRandom)
        switch choice.pick {
        case .song(let match):
            guard let song = Int64(match.id).flatMap(lookup) else {
                out.song = .some(nil)
                out.code = "not_found"
                out.reason = "song \(match.id) has left the library since the run began; ask for the next"
                return Self.encode(out)
            }
            out.song = .some(RunnerRoutes.SongSummary(song))
            out.targetBPM = (match.target * 100).rounded() / 100
            out.effectiveBPM = match.effectiveBPM
            out.fallback = match.isFallback
            out.reason = RunnerPicker.fallbackReason(match, matcher: SongMatcher(mode: run.settings.mode, tolerance: run.settings.tolerance))
        case .none(let matcherReason):
            let why = RunnerPicker.reason(matcherReason, librarySongs: librarySongs)
            out.song = .some(nil)
            out.code = RunnerPicker.Failure.noSong(why).code
            out.reason = RunnerPicker.Failure.noSong(why).description
        }
        return Self.encode(out)
    }

    private mutating func refreshNever() {
        run.excluded = Set(never().map(String.init))
    }

    private func state() -> String { Self.encode(Out(type: "state", state: run.state.rawValue)) }

    private func error(_ code: String, _ message: String) -> String {
        Self.encode(Out(type: "error", code: code, message: message))
    }

    private func settingsOut() -> SettingsOut {
        SettingsOut(mode: run.settings.mode.rawValue, sprint: run.settings.sprint,
                    autoSwitch: run.settings.autoSwitch, units: cadence.units.rawValue)
    }

    // MARK: helpers

    static func causeName(_ cause: RunSession.Cause) -> String {
        switch cause {
        case .start: "start"
        case .songEnded: "song_ended"
        case .next: "next"
        case .autoSwitch: "auto_switch"
        }
    }

    /// A decoding error in a sentence, naming the field at fault.
    static func describe(_ error: any Error) -> String {
        let path: ([any CodingKey]) -> String = { keys in
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop(while: { $0 == "." }).description
        }
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let at = path(context.codingPath)
            return at.isEmpty ? "a message is a JSON object with a \"type\"" : "\(at) has the wrong type"
        case .keyNotFound(let key, _):
            return "the message has no \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            let at = path(context.codingPath)
            return at.isEmpty ? "the message is not JSON" : "\(at) is not valid"
        default:
            return "the message is not JSON"
        }
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }
}
