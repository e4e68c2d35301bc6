import Crowd
import Foundation
import Testing

/// The semantics written again the plainest way (arrays, no index, everything recomputed), to
/// compare the engine against.
struct CrowdBruteForceModel {
    struct Device {
        var location: Int64
        var last: Double
        var age: Int?
        var sex: CrowdSex?
    }

    struct Location {
        var id: Int64
        var lat: Double
        var lon: Double
        var members: [Int] = []
        var comments: [CrowdComment] = []
    }

    let settings: CrowdSettings
    var devices: [Int: Device] = [:]
    var locations: [Location] = []
    var nextID: Int64 = 1

    init(settings: CrowdSettings) { self.settings = settings }

    func index(of id: Int64) -> Int? { locations.firstIndex { $0.id == id } }

    mutating func leave(_ device: Int) {
        guard let d = devices[device], let i = index(of: d.location) else { return }
        locations[i].members.removeAll { $0 == device }
        if locations[i].members.isEmpty { locations.remove(at: i) }
    }

    mutating func expire(now: Double) {
        for (n, d) in devices where now - d.last > settings.expiry {
            leave(n)
            devices[n] = nil
        }
    }

    func describe(_ l: Location, from lat: Double? = nil, _ lon: Double? = nil) -> CrowdLocation {
        let members: [Device] = l.members.map { devices[$0]! }
        let ages: [Int] = members.compactMap(\.age)
        var distance = 0.0
        if let lat, let lon { distance = CrowdRules.distance(lat1: lat, lon1: lon, lat2: l.lat, lon2: l.lon) }
        var average: Double? = nil
        if !ages.isEmpty { average = Double(ages.reduce(0, +)) / Double(ages.count) }
        let men = members.filter { $0.sex == .male }.count
        let women = members.filter { $0.sex == .female }.count
        return CrowdLocation(id: l.id, lat: l.lat, lon: l.lon, people: members.count, averageAge: average,
                             men: men, women: women, distance: distance)
    }

    mutating func report(device n: Int, _ r: CrowdReport, now: Date) -> CrowdReportResult {
        let t = now.timeIntervalSinceReferenceDate
        expire(now: t)
        var stays = false
        if let d = devices[n], let i = index(of: d.location) {
            stays = CrowdRules.distance(lat1: r.lat, lon1: r.lon, lat2: locations[i].lat, lon2: locations[i].lon) <= 10
            if !stays { leave(n) }
        }
        var target: Int64
        if stays {
            target = devices[n]!.location
        } else {
            var near: (distance: Double, id: Int64)? = nil
            for l in locations {
                let d: Double = CrowdRules.distance(lat1: r.lat, lon1: r.lon, lat2: l.lat, lon2: l.lon)
                guard d <= 10 else { continue }
                if let best = near, best.distance < d || (best.distance == d && best.id < l.id) { continue }
                near = (d, l.id)
            }
            if let near {
                target = near.id
            } else {
                target = nextID
                nextID += 1
                locations.append(Location(id: target, lat: r.lat, lon: r.lon))
            }
            locations[index(of: target)!].members.append(n)
        }
        devices[n] = Device(location: target, last: t, age: r.age, sex: r.sex)
        let i = index(of: target)!
        if let text = r.comment {
            locations[i].comments.append(CrowdComment(text: text, time: now))
            if locations[i].comments.count > 10 { locations[i].comments.removeFirst() }
        }
        let people = locations[i].members.count
        let own = CrowdOwnLocation(id: target, lat: locations[i].lat, lon: locations[i].lon,
                                   people: people >= settings.minGroup ? people : nil)
        return CrowdReportResult(location: own, search: search(r.search))
    }

    func search(_ s: CrowdSearch) -> CrowdSearchResult {
        let lower = max(s.min, settings.minGroup)
        var hits = locations.map { describe($0, from: s.lat, s.lon) }
            .filter { $0.distance <= Double(s.radius) && $0.people >= lower && $0.people <= s.max }
        var truncated = false
        if hits.count > s.limit {
            truncated = true
            hits.sort { ($0.people, -$0.distance, -$0.id) > ($1.people, -$1.distance, -$1.id) }
            hits = Array(hits.prefix(s.limit))
        }
        hits.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        return CrowdSearchResult(locations: hits, truncated: truncated)
    }

    func detail(id: Int64) -> CrowdLocationDetail? {
        guard let i = index(of: id), locations[i].members.count >= settings.minGroup else { return nil }
        return CrowdLocationDetail(location: describe(locations[i]), comments: locations[i].comments.reversed())
    }
}

/// A small deterministic generator (SplitMix64) so a failing run can be repeated.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Where the randomized crowds stand.
enum CrowdTestArea: String, CaseIterable, CustomTestStringConvertible {
    case city, antimeridian, northPole

    var testDescription: String { rawValue }

    /// A random point of the area: a square of about 150 m (the pole: a disc of 80 m).
    func point(_ random: inout SeededRandom) -> (Double, Double) {
        switch self {
        case .city:
            return (44.4938 + Double.random(in: -0.0007...0.0007, using: &random),
                    11.3426 + Double.random(in: -0.0009...0.0009, using: &random))
        case .antimeridian:
            var lon = 180 + Double.random(in: -0.0008...0.0008, using: &random)
            if lon > 180 { lon -= 360 }
            return (-33.9 + Double.random(in: -0.0007...0.0007, using: &random), lon)
        case .northPole:
            return (90 - Double.random(in: 0...0.0007, using: &random), Double.random(in: -180...180, using: &random))
        }
    }
}

@Suite("Crowd engine against a brute-force model")
struct CrowdModelTests {
    @Test("thousands of random reports, searches and details answer exactly as the model",
          arguments: [(CrowdTestArea.city, 1), (.city, 3), (.antimeridian, 1), (.northPole, 2)])
    func randomized(area: CrowdTestArea, minGroup: Int) async throws {
        let settings = CrowdSettings(minGroup: minGroup, expiry: 240)
        let engine = try CrowdEngine(inMemory: settings)
        defer { engine.close() }
        var model = CrowdBruteForceModel(settings: settings)
        var random = SeededRandom(state: UInt64(minGroup) * 7919 + UInt64(area.rawValue.count))
        var clock = TestClock()
        let radii = [15, 20, 35, 60, 100, 200, 2000]
        for step in 0..<3000 {
            clock.advance(Double.random(in: 0...0.5, using: &random))
            let device = Int.random(in: 0..<400, using: &random)
            let (lat, lon) = area.point(&random)
            let low = Int.random(in: 1...4, using: &random)
            let limit = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...6, using: &random) : 500
            let r = CrowdReport(device: deviceKey(device), lat: lat, lon: lon,
                                age: Int.random(in: 0..<3, using: &random) == 0 ? nil : Int.random(in: 0...150, using: &random),
                                sex: [nil, CrowdSex.male, .female].randomElement(using: &random)!,
                                comment: Int.random(in: 0..<5, using: &random) == 0 ? "note \(step)" : nil,
                                radius: radii.randomElement(using: &random)!, min: low,
                                max: Int.random(in: low...100, using: &random), limit: limit)
            let got = try await engine.report(r, now: clock.now)
            let want = model.report(device: device, r, now: clock.now)
            #expect(got == want, "report \(step)")
            if got != want { return }
            if step % 10 == 0 {
                let (slat, slon) = area.point(&random)
                let s = CrowdSearch(lat: slat, lon: slon, radius: radii.randomElement(using: &random)!, min: 1, max: 100,
                                    limit: Int.random(in: 1...50, using: &random))
                #expect(try await engine.search(s, now: clock.now) == model.search(s), "search \(step)")
                let id = Int64.random(in: 1...model.nextID, using: &random)
                #expect(try await engine.location(id: id, now: clock.now) == model.detail(id: id), "detail \(step)")
            }
        }
        // Everything expires at last.
        clock.advance(241)
        let s = CrowdSearch(lat: area.point(&random).0, lon: 0, radius: 2000)
        #expect(try await engine.search(s, now: clock.now).locations.isEmpty)
        #expect(engine.stats == CrowdEngineStats(devices: 0, locations: 0, comments: 0))
    }
}
