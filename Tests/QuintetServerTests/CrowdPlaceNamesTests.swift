import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Locking
@testable import QuintetServer
import Testing

/// A stand-in geocoder for ``CrowdPlaceNames``: answers every request with `body` and records
/// each URL, its headers and when it came.
final class RecordingGeocoder: Sendable {
    struct Request: Sendable { let url: URL; let headers: [String: String]; let time: ContinuousClock.Instant }
    private let log = Lock([Request]())
    let status: Int
    let body: String

    init(status: Int = 200, body: String = CrowdPlaceNamesTests.milan) {
        self.status = status
        self.body = body
    }

    var requests: [Request] { log.withLock { $0 } }

    var fetch: CrowdPlaceNames.Fetch {
        { url, headers, _ in
            self.log.withLock {
                $0.append(Request(url: url, headers: Dictionary(headers, uniquingKeysWith: { a, _ in a }), time: .now))
            }
            return (self.status, Array(self.body.utf8))
        }
    }
}

@Suite("Crowd place names (reverse geocoder)")
struct CrowdPlaceNamesTests {
    /// Nominatim's jsonv2 reverse answer for a point in Milan (shape of the 4.x API, trimmed).
    static let milan = #"""
    {"place_id":1,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright","osm_type":"way",
     "lat":"45.4719","lon":"9.1877","category":"highway","type":"residential","place_rank":26,"addresstype":"road",
     "name":"Via Fiori Chiari","display_name":"Via Fiori Chiari, Brera, Municipio 1, Milano, Lombardia, 20121, Italia",
     "address":{"road":"Via Fiori Chiari","suburb":"Brera","city_district":"Municipio 1","city":"Milano",
     "ISO3166-2-lvl6":"IT-MI","state":"Lombardia","postcode":"20121","country":"Italia","country_code":"it"}}
    """#
    static let base = URL(string: "http://geocoder.test:8088/nominatim/")!

    @Test("coordinates are rounded to 0.001° (thousandths as integers) before the key and the request")
    func rounding() {
        let a = PlaceKey(lat: 45.46421, lon: 9.18996, language: "it")
        #expect(a.lat == 45464 && a.lon == 9190)
        // Two points 30 m apart in the same 0.001° cell are one place: one cache entry, one request.
        #expect(PlaceKey(lat: 45.4641, lon: 9.1898, language: nil) == PlaceKey(lat: 45.46435, lon: 9.19015, language: nil))
        #expect(PlaceKey(lat: 45.464, lon: 9.19, language: "it") != PlaceKey(lat: 45.464, lon: 9.19, language: "en"))
        #expect(PlaceKey(lat: -33.86882, lon: 151.20929, language: nil).lat == -33869)
        #expect(PlaceKey.degrees(45464) == "45.464")
        #expect(PlaceKey.degrees(-5) == "-0.005")
        #expect(PlaceKey.degrees(0) == "0.000")
        #expect(PlaceKey.degrees(-180_000) == "-180.000")
        #expect(PlaceKey.degrees(9190) == "9.190")
    }

    @Test("the upstream request holds the rounded point, zoom, format and language only")
    func upstreamURL() throws {
        let url = PlaceKey(lat: 45.46421, lon: 9.18996, language: "it").url(base: Self.base, zoom: 17)
        let parts = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(parts.host == "geocoder.test" && parts.port == 8088)
        #expect(parts.path == "/nominatim/reverse")
        let query = Dictionary(uniqueKeysWithValues: (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query == ["format": "jsonv2", "lat": "45.464", "lon": "9.190", "zoom": "17", "accept-language": "it"])
        let bare = PlaceKey(lat: 1, lon: 2, language: nil).url(base: URL(string: "https://nominatim.example.org")!, zoom: 17)
        #expect(bare.absoluteString == "https://nominatim.example.org/reverse?format=jsonv2&lat=1.000&lon=2.000&zoom=17")
    }

    @Test("at most one upstream start per interval; a turn more than maxWait away is refused")
    func spacing() {
        var spacing = UpstreamSpacing(interval: .seconds(1), maxWait: .seconds(2))
        let t0 = ContinuousClock.now
        #expect(spacing.reserve(now: t0) == .zero)
        #expect(spacing.reserve(now: t0 + .milliseconds(100)) == .milliseconds(900))
        #expect(spacing.reserve(now: t0 + .milliseconds(200)) == .milliseconds(1800))
        // The next turn is 3 s after t0: 2.7 s away, over the 2 s allowed; nothing is reserved.
        #expect(spacing.reserve(now: t0 + .milliseconds(300)) == nil)
        #expect(spacing.wait(now: t0 + .milliseconds(300)) == .milliseconds(2700))
        #expect(spacing.reserve(now: t0 + .milliseconds(1000)) == .seconds(2))
        // Long after: at once again.
        #expect(spacing.reserve(now: t0 + .seconds(10)) == .zero)
        #expect(spacing.reserve(now: t0 + .seconds(10) + .milliseconds(999)) == .milliseconds(1))
    }

    @Test("the gate before sending keeps actual starts an interval apart, even after a late start")
    func gate() {
        var spacing = UpstreamSpacing(interval: .seconds(1), maxWait: .seconds(2))
        let t0 = ContinuousClock.now
        #expect(spacing.reserve(now: t0) == .zero)
        #expect(spacing.reserve(now: t0) == .seconds(1))            // planned for t0 + 1 s
        #expect(spacing.start(now: t0 + .milliseconds(50)) == nil)  // the first one sent 50 ms late
        // The second, woken at its planned turn, must wait for 1 s after the first was sent.
        #expect(spacing.start(now: t0 + .seconds(1)) == .milliseconds(50))
        #expect(spacing.start(now: t0 + .milliseconds(1050)) == nil)
        // The next free turn is an interval after that.
        #expect(spacing.wait(now: t0 + .milliseconds(1050)) == .seconds(1))
    }

    @Test("a reverse answer becomes a short name: neighbourhood or street, then the town")
    func parsing() {
        #expect(NominatimReverse.outcome(json: Array(Self.milan.utf8), source: "geo.test")
            == .found(.init(name: "Brera, Milano", source: "geo.test",
                            licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright")))
        let village = #"{"address":{"road":"Via Roma","village":"Castelletto","country":"Italia"}}"#
        #expect(NominatimReverse.outcome(json: Array(village.utf8), source: "g") == .found(.init(name: "Via Roma, Castelletto", source: "g", licence: nil)))
        let townOnly = #"{"name":"","address":{"town":"Chiavenna","state":"Lombardia"}}"#
        #expect(NominatimReverse.outcome(json: Array(townOnly.utf8), source: "g") == .found(.init(name: "Chiavenna", source: "g", licence: nil)))
        let displayOnly = #"{"display_name":"Mare Adriatico, , Italia"}"#
        #expect(NominatimReverse.outcome(json: Array(displayOnly.utf8), source: "g") == .found(.init(name: "Mare Adriatico", source: "g", licence: nil)))
        // Control characters are dropped; a very long name is cut.
        let noisy = "{\"address\":{\"suburb\":\"Bre\\u0007ra\\n\",\"city\":\"\(String(repeating: "M", count: 300))\"}}"
        if case .found(let place) = NominatimReverse.outcome(json: Array(noisy.utf8), source: "g") {
            #expect(place.name.hasPrefix("Brera, MMM") && place.name.count == NominatimReverse.maxLength && place.name.hasSuffix("…"))
        } else {
            Issue.record("no name from a noisy answer")
        }
        #expect(NominatimReverse.outcome(json: Array(#"{"error":"Unable to geocode"}"#.utf8), source: "g") == .nothing)
        #expect(NominatimReverse.outcome(json: Array(#"{"address":{"postcode":"20121"}}"#.utf8), source: "g") == .nothing)
        if case .unavailable = NominatimReverse.outcome(json: Array("<html>busy</html>".utf8), source: "g") {} else {
            Issue.record("HTML taken for an answer")
        }
        if case .unavailable = NominatimReverse.outcome(json: Array("[1,2]".utf8), source: "g") {} else {
            Issue.record("an array taken for an answer")
        }
    }

    @Test("the cache keeps at most its capacity, drops expired places first, then the oldest")
    func cache() {
        var cache = PlaceCache(capacity: 2)
        let now = ContinuousClock.now
        let a = PlaceKey(lat: 1, lon: 1, language: nil), b = PlaceKey(lat: 2, lon: 2, language: nil), c = PlaceKey(lat: 3, lon: 3, language: nil)
        cache.store(.nothing, for: a, until: now + .seconds(60))
        cache.store(.nothing, for: b, until: now + .seconds(60))
        cache.store(.nothing, for: c, until: now + .seconds(60))
        #expect(cache.count == 2)
        #expect(cache.value(for: a, now: now) == nil && cache.value(for: b, now: now) == .nothing && cache.value(for: c, now: now) == .nothing)
        // Expired entries answer nothing and are the first to go.
        #expect(cache.value(for: b, now: now + .seconds(61)) == nil)
        var expiring = PlaceCache(capacity: 2)
        expiring.store(.nothing, for: a, until: now + .seconds(60))
        expiring.store(.nothing, for: b, until: now - .seconds(1))
        expiring.store(.nothing, for: c, until: now + .seconds(60))
        #expect(expiring.value(for: a, now: now) == .nothing && expiring.value(for: c, now: now) == .nothing)
    }

    @Test("one request per place (cache, shared in-flight), spaced requests, no token or cookie upstream")
    func lookups() async throws {
        let geocoder = RecordingGeocoder()
        var configuration = CrowdPlaceNames.Configuration(base: Self.base)
        configuration.interval = .milliseconds(300)
        let places = CrowdPlaceNames(configuration: configuration, fetch: geocoder.fetch)
        // Two lookups of one place at once, and then a third 30 m away: one request.
        async let first = places.lookup(lat: 45.4642, lon: 9.1900, language: "it")
        async let second = places.lookup(lat: 45.4642, lon: 9.1900, language: "it")
        let (one, two) = await (first, second)
        #expect(one == two)
        guard case .found(let place) = one else { Issue.record("no place: \(one)"); return }
        #expect(place.name == "Brera, Milano" && place.source == "geocoder.test")
        #expect(await places.lookup(lat: 45.46435, lon: 9.19015, language: "it") == one)
        #expect(geocoder.requests.count == 1)
        // Another place: a second request, at least one interval after the first.
        _ = await places.lookup(lat: 45.4700, lon: 9.1900, language: "it")
        let requests = geocoder.requests
        #expect(requests.count == 2)
        // The gate reads the clock before the URL is built and the stand-in reads its own: a
        // millisecond of slack between the two readings.
        #expect(requests[1].time - requests[0].time >= .milliseconds(299))
        #expect(places.cachedCount == 2)
        for request in requests {
            #expect(Set(request.headers.keys) == ["User-Agent", "Accept"])
            #expect(request.headers["User-Agent"]?.hasPrefix("Quintet/") == true)
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
            #expect(Set(query) == ["format", "lat", "lon", "zoom", "accept-language"])
        }
    }

    @Test("a lookup whose turn is too far is answered busy at once; failures are not cached")
    func busyAndFailures() async throws {
        let geocoder = RecordingGeocoder(status: 502, body: "bad gateway")
        var configuration = CrowdPlaceNames.Configuration(base: Self.base)
        configuration.interval = .seconds(30)
        configuration.maxWait = .zero
        let places = CrowdPlaceNames(configuration: configuration, fetch: geocoder.fetch)
        guard case .unavailable(let reason) = await places.lookup(lat: 10, lon: 10, language: nil) else {
            Issue.record("a 502 was not unavailable"); return
        }
        #expect(reason.contains("502"))
        let started = ContinuousClock.now
        guard case .busy(let wait) = await places.lookup(lat: 10, lon: 10, language: nil) else {
            Issue.record("the second lookup within the interval was not busy"); return
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(wait > .seconds(28) && wait <= .seconds(30))
        #expect(geocoder.requests.count == 1 && places.cachedCount == 0)
    }

    @Test("a lookup waiting for its turn stops at once when its request is cancelled (the server stopping)")
    func cancellation() async throws {
        let geocoder = RecordingGeocoder()
        var configuration = CrowdPlaceNames.Configuration(base: Self.base)
        configuration.interval = .seconds(20)
        configuration.maxWait = .seconds(30)
        let places = CrowdPlaceNames(configuration: configuration, fetch: geocoder.fetch)
        _ = await places.lookup(lat: 1, lon: 1, language: nil)
        let waiting = Task { await places.lookup(lat: 2, lon: 2, language: nil) }   // its turn is 20 s away
        let started = ContinuousClock.now
        waiting.cancel()   // whether it is already asleep in its turn or not yet started, it ends now
        guard case .unavailable = await waiting.value else { Issue.record("a cancelled lookup found something"); return }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(geocoder.requests.count == 1 && places.cachedCount == 1)
    }

    @Test("GET /api/crowd/place: off by default, bad fields named, the name from the geocoder, busy with Retry-After")
    func route() async throws {
        let off = try await CrowdServer.make()
        try await Application(router: off.router).test(.router) { client in
            let response = try await client.execute(uri: "/api/crowd/place?lat=45.4642&lon=9.19", method: .get)
            #expect(response.status == .notFound)
            #expect(try CrowdHTTP.error(response)["code"] as? String == "geocoder_off")
        }
        await off.remove()

        let geocoder = RecordingGeocoder()
        var configuration = CrowdPlaceNames.Configuration(base: Self.base)
        configuration.interval = .seconds(30)
        configuration.maxWait = .zero
        let places = CrowdPlaceNames(configuration: configuration, fetch: geocoder.fetch)
        let on = try await CrowdServer.make(places: places)
        try await Application(router: on.router).test(.router) { client in
            for (query, field) in [("lat=91&lon=9", "lat"), ("lon=9", "lat"), ("lat=45&lon=nan", "lon"), ("lat=45&lon=-180.5", "lon"),
                                   ("lat=45&lon=9&lang=EN", "lang"), ("lat=45&lon=9&lang=english", "lang")] {
                let response = try await client.execute(uri: "/api/crowd/place?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                #expect(try CrowdHTTP.error(response)["field"] as? String == field, "\(query)")
            }
            #expect(geocoder.requests.isEmpty)
            let response = try await client.execute(uri: "/api/crowd/place?lat=45.4642&lon=9.19&lang=it", method: .get,
                                                    headers: [.cookie: "quintet_session=secret-session"])
            #expect(response.status == .ok)
            let body = try CrowdHTTP.json(response)
            #expect(body["name"] as? String == "Brera, Milano" && body["source"] as? String == "geocoder.test")
            #expect((body["licence"] as? String)?.contains("OpenStreetMap") == true)
            #expect(geocoder.requests.count == 1 && !geocoder.requests[0].headers.values.contains { $0.contains("secret") })
            // The same place again comes from the cache; another one finds the budget taken.
            #expect(try await client.execute(uri: "/api/crowd/place?lat=45.46425&lon=9.19&lang=it", method: .get).status == .ok)
            let busy = try await client.execute(uri: "/api/crowd/place?lat=40&lon=9&lang=it", method: .get)
            #expect(busy.status == .serviceUnavailable)
            #expect(try CrowdHTTP.error(busy)["code"] as? String == "geocoder_busy")
            #expect(Int(busy.headers[.retryAfter] ?? "") ?? 0 >= 29)
            #expect(geocoder.requests.count == 1)
        }
        await on.remove()
    }
}
