import Foundation
import Locking

/// Place names for the crowd page's location panel, from a Nominatim-compatible reverse
/// geocoder (`serve --crowd-geocoder URL`; off by default). The page asks this server
/// (`GET /api/crowd/place`), never the geocoder, so the geocoder sees neither the phone's
/// address nor its device token; this server asks it with nothing but rounded coordinates.
///
/// - **Rounding**: coordinates are rounded to 0.001° (111 m north–south, 79 m east–west at
///   45°) before anything else: the cache key and the upstream request hold only that.
/// - **Upstream request**: `<URL>/reverse?format=jsonv2&lat=&lon=&zoom=17[&accept-language=]`,
///   with a `User-Agent` naming Quintet (Nominatim's usage policy asks for one) and `Accept`;
///   no cookie, token, device id or client address.
/// - **One request a second at most, across the server** (``UpstreamSpacing``; starts 1.1 s
///   apart): a lookup that would wait up to ``Configuration/maxWait`` (3 s) waits its turn; a
///   later one is refused at once with a "try again in N s" (``Outcome/busy(retryAfter:)``).
/// - **Cache** (``PlaceCache``): in memory, at most ``Configuration/cacheCapacity`` places, a
///   name kept 24 h, "no name here" 1 h; failures are not kept. Two lookups of one place at
///   once share one upstream request.
///
/// ```swift
/// let places = CrowdPlaceNames(configuration: .init(base: URL(string: "https://nominatim.example.org")!))
/// switch try await places.lookup(lat: 45.4642, lon: 9.19, language: "it") {
/// case .found(let place): print(place.name)        // "Brera, Milano"
/// case .nothing, .busy, .unavailable: break
/// }
/// ```
public final class CrowdPlaceNames: Sendable {
    /// How the geocoder is asked.
    public struct Configuration: Sendable {
        /// The geocoder's base URL; `/reverse` is appended to its path.
        public var base: URL
        /// Nominatim's `zoom`: 17 is "major and minor streets".
        public var zoom = 17
        /// Least time between the starts of two upstream requests: Nominatim's policy allows one
        /// a second; a tenth more leaves room for a slow connection set-up or network jitter, so
        /// the requests also *arrive* at least a second apart.
        public var interval: Duration = .milliseconds(1100)
        /// Longest a lookup waits for its turn before it is refused as busy.
        public var maxWait: Duration = .seconds(3)
        /// Longest an upstream request may take, connection included.
        public var timeout: Duration = .seconds(5)
        /// Most places kept.
        public var cacheCapacity = 10_000
        /// How long a name is kept.
        public var nameLifetime: Duration = .seconds(24 * 3600)
        /// How long "the geocoder knows no place here" is kept.
        public var nothingLifetime: Duration = .seconds(3600)

        public init(base: URL) { self.base = base }
    }

    /// A name and where it came from.
    public struct Place: Sendable, Equatable {
        /// A short name: neighbourhood or street, then the town (`Brera, Milano`).
        public var name: String
        /// The geocoder's host (`nominatim.openstreetmap.org`).
        public var source: String
        /// The data's licence as the geocoder states it (Nominatim's `licence`), if any.
        public var licence: String?
    }

    /// What a lookup gives.
    public enum Outcome: Sendable, Equatable {
        case found(Place)
        /// The geocoder answered but knows no place there (the sea, the middle of nowhere).
        case nothing
        /// Not now: another request is waiting; try again after this long.
        case busy(retryAfter: Duration)
        /// The geocoder did not answer usefully (a timeout, a refusal, an error status).
        case unavailable(String)
    }

    /// Fetches a URL with the given headers (``HTTPGet/fetch(_:headers:timeout:maxBytes:)`` in
    /// the server; tests pass a stand-in that records what it is asked).
    public typealias Fetch = @Sendable (URL, [(String, String)], Duration) async throws -> (status: Int, body: [UInt8])

    public let configuration: Configuration
    private let fetch: Fetch
    private let state: Lock<State>

    private struct State {
        var cache: PlaceCache
        var spacing: UpstreamSpacing
        var inFlight: [PlaceKey: Task<Outcome, Never>] = [:]
    }

    public init(configuration: Configuration, fetch: Fetch? = nil) {
        self.configuration = configuration
        self.fetch = fetch ?? { url, headers, timeout in
            let answer = try await HTTPGet.fetch(url, headers: headers, timeout: timeout, maxBytes: 256 * 1024)
            return (answer.status, answer.body)
        }
        state = Lock(State(cache: PlaceCache(capacity: configuration.cacheCapacity),
                           spacing: UpstreamSpacing(interval: configuration.interval, maxWait: configuration.maxWait)))
    }

    /// The User-Agent of every upstream request.
    public static let userAgent = "Quintet/\(QuintetVersion.current) (self-hosted server; crowd map place names)"

    /// The place at (`lat`, `lon`) in `language` (a two- or three-letter code, or nil for the
    /// geocoder's default); coordinates must be in range (the route checks them).
    public func lookup(lat: Double, lon: Double, language: String?) async -> Outcome {
        let key = PlaceKey(lat: lat, lon: lon, language: language)
        let now = ContinuousClock.now
        let pending: Task<Outcome, Never>
        switch state.withLock({ state -> Either in
            if let cached = state.cache.value(for: key, now: now) { return .done(cached) }
            if let task = state.inFlight[key] { return .wait(task) }
            guard let delay = state.spacing.reserve(now: now) else {
                return .done(.busy(retryAfter: state.spacing.wait(now: now) - state.spacing.maxWait))
            }
            let task = Task { await self.ask(key, after: delay) }
            state.inFlight[key] = task
            return .wait(task)
        }) {
        case .done(let outcome): return outcome
        case .wait(let task): pending = task
        }
        // A cancelled request (the server stopping) stops the lookup it waits for at once: its
        // turn's sleep and its upstream request end, and nothing is cached. Another request
        // sharing that lookup then gets "unavailable" too, and asks again next time.
        return await withTaskCancellationHandler { await pending.value } onCancel: { pending.cancel() }
    }

    private enum Either { case done(Outcome), wait(Task<Outcome, Never>) }

    /// Waits for the reserved turn (and, should an earlier request have started late, for one
    /// interval after it), asks the geocoder, keeps what it said.
    private func ask(_ key: PlaceKey, after delay: Duration) async -> Outcome {
        let outcome = await askUpstream(key, after: delay)
        let now = ContinuousClock.now
        state.withLock { state in
            state.inFlight[key] = nil
            switch outcome {
            case .found: state.cache.store(outcome, for: key, until: now + configuration.nameLifetime)
            case .nothing: state.cache.store(outcome, for: key, until: now + configuration.nothingLifetime)
            case .busy, .unavailable: break
            }
        }
        return outcome
    }

    private func askUpstream(_ key: PlaceKey, after delay: Duration) async -> Outcome {
        if delay > .zero { try? await Task.sleep(for: delay) }
        while true {
            if Task.isCancelled { return .unavailable("the server is stopping") }
            guard let wait = state.withLock({ $0.spacing.start(now: .now) }) else { break }
            try? await Task.sleep(for: wait)
        }
        do {
            let (status, body) = try await fetch(key.url(base: configuration.base, zoom: configuration.zoom),
                                                 [("User-Agent", Self.userAgent), ("Accept", "application/json")],
                                                 configuration.timeout)
            guard status == 200 else { return .unavailable("the geocoder answered HTTP \(status)") }
            return NominatimReverse.outcome(json: body, source: configuration.base.host ?? "geocoder")
        } catch {
            return .unavailable("the geocoder did not answer: \(error)")
        }
    }

    /// Places kept now (for tests).
    var cachedCount: Int { state.withLock { $0.cache.count } }
}

/// A place as the cache and the geocoder see it: coordinates rounded to 0.001° (as integers
/// of thousandths, so equal places are equal keys) and the language asked for.
struct PlaceKey: Hashable, Sendable {
    let lat: Int
    let lon: Int
    let language: String?

    init(lat: Double, lon: Double, language: String?) {
        self.lat = Int((lat * 1000).rounded())
        self.lon = Int((lon * 1000).rounded())
        self.language = language
    }

    /// Thousandths of a degree as a decimal (`45464` → `45.464`, `-5` → `-0.005`).
    static func degrees(_ thousandths: Int) -> String {
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// The reverse query: `<base>/reverse?format=jsonv2&lat=&lon=&zoom=[&accept-language=]`.
    func url(base: URL, zoom: Int) -> URL {
        var parts = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        let path = parts.percentEncodedPath
        parts.percentEncodedPath = (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/reverse"
        var items = [URLQueryItem(name: "format", value: "jsonv2"),
                     URLQueryItem(name: "lat", value: Self.degrees(lat)),
                     URLQueryItem(name: "lon", value: Self.degrees(lon)),
                     URLQueryItem(name: "zoom", value: String(zoom))]
        if let language { items.append(URLQueryItem(name: "accept-language", value: language)) }
        parts.queryItems = items
        parts.fragment = nil
        return parts.url ?? base
    }
}

/// At most one upstream request per `interval`, across the server: each lookup that needs the
/// geocoder reserves the next free start time. A reservation more than `maxWait` away is
/// refused (the caller answers "busy, try again"), so a burst of lookups never queues for long.
/// Reservations are planned turns; ``start(now:)`` is the gate each request passes just before
/// it is sent, so two requests start at least `interval` apart even when one of them ran late.
struct UpstreamSpacing: Sendable {
    let interval: Duration
    let maxWait: Duration
    /// When the next unreserved request may start; nil before the first.
    private(set) var nextStart: ContinuousClock.Instant?
    /// When the last request was sent.
    private(set) var lastStart: ContinuousClock.Instant?

    init(interval: Duration, maxWait: Duration) {
        self.interval = interval
        self.maxWait = maxWait
    }

    /// How long until a request could start, from `now`.
    func wait(now: ContinuousClock.Instant) -> Duration {
        guard let nextStart, nextStart > now else { return .zero }
        return nextStart - now
    }

    /// Reserves the next start and answers how long to wait for it, or nil (nothing reserved)
    /// when that is over `maxWait`.
    mutating func reserve(now: ContinuousClock.Instant) -> Duration? {
        let delay = wait(now: now)
        guard delay <= maxWait else { return nil }
        nextStart = now + delay + interval
        return delay
    }

    /// Lets a request start at `now` (nil, and it counts as sent) or answers how long it must
    /// still wait: until one `interval` after the last request sent.
    mutating func start(now: ContinuousClock.Instant) -> Duration? {
        if let lastStart, now < lastStart + interval { return lastStart + interval - now }
        lastStart = now
        if let planned = nextStart, planned >= now + interval { return nil }
        nextStart = now + interval
        return nil
    }
}

/// Outcomes by place, each until its expiry; at most `capacity`: storing into a full cache
/// drops the expired places, then the one stored longest ago. (Stores come at most once a
/// second, behind ``UpstreamSpacing``, so the linear search for the oldest costs nothing.)
struct PlaceCache: Sendable {
    let capacity: Int
    private var entries: [PlaceKey: (outcome: CrowdPlaceNames.Outcome, until: ContinuousClock.Instant, order: Int)] = [:]
    private var stored = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    /// The outcome kept for `key`, nil when there is none or it expired.
    func value(for key: PlaceKey, now: ContinuousClock.Instant) -> CrowdPlaceNames.Outcome? {
        guard let entry = entries[key], entry.until > now else { return nil }
        return entry.outcome
    }

    mutating func store(_ outcome: CrowdPlaceNames.Outcome, for key: PlaceKey, until: ContinuousClock.Instant) {
        if entries[key] == nil, entries.count >= capacity {
            let now = ContinuousClock.now
            entries = entries.filter { $0.value.until > now }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.order < $1.value.order })?.key {
                entries[oldest] = nil
            }
        }
        stored += 1
        entries[key] = (outcome, until, stored)
    }
}

/// Nominatim's `reverse` answer in `jsonv2` (https://nominatim.org/release-docs/latest/api/Reverse/):
/// `display_name`, `name`, `address` {road, suburb, city, town, village, country, …}, `licence`;
/// `{"error": "Unable to geocode"}` where there is nothing.
enum NominatimReverse {
    /// The keys of `address` that name a part of a town, most local first, then a street.
    static let areaKeys = ["neighbourhood", "suburb", "quarter", "city_district", "borough",
                           "road", "pedestrian", "square", "footway", "hamlet", "isolated_dwelling"]
    /// The keys that name the town.
    static let townKeys = ["city", "town", "village", "municipality", "county", "state", "country"]
    /// The longest name given out (characters).
    static let maxLength = 120

    /// What an answer says: a short name, "nothing here", or unavailable when it is not the
    /// JSON of a reverse answer.
    static func outcome(json bytes: [UInt8], source: String) -> CrowdPlaceNames.Outcome {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            return .unavailable("the geocoder's answer is not a JSON object")
        }
        if object["error"] != nil { return .nothing }
        let address = object["address"] as? [String: Any] ?? [:]
        let text = { (key: String) -> String? in clean(address[key]) }
        var parts: [String] = []
        if let area = areaKeys.lazy.compactMap(text).first { parts.append(area) }
        if let town = townKeys.lazy.compactMap(text).first, !parts.contains(town) { parts.append(town) }
        if parts.isEmpty, let name = clean(object["name"]) { parts.append(name) }
        if parts.isEmpty, let display = clean(object["display_name"]) {
            parts = display.split(separator: ",").prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        guard !parts.isEmpty else { return .nothing }
        var name = parts.joined(separator: ", ")
        if name.count > maxLength { name = String(name.prefix(maxLength - 1)) + "…" }
        return .found(.init(name: name, source: source, licence: clean(object["licence"])))
    }

    /// A non-empty string without control characters, trimmed; nil for anything else.
    static func clean(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            !($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
        })).trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }
}
