import Crowd
import Foundation
import Testing

/// Each rule of the semantics, one by one, on the engine over an in-memory SQLite database.
@Suite("Crowd engine: the semantics")
struct CrowdEngineTests {
    let lat0 = 44.4938, lon0 = 11.3426

    func engine(minGroup: Int = 1, expiry: TimeInterval = 1800) throws -> CrowdEngine {
        try CrowdEngine(inMemory: CrowdSettings(minGroup: minGroup, expiry: expiry))
    }

    func report(_ engine: CrowdEngine, _ device: Int, _ lat: Double, _ lon: Double, age: Int? = nil, sex: CrowdSex? = nil,
                comment: String? = nil, radius: Int = 200, min: Int = 1, max: Int = 100, limit: Int = 500,
                at clock: TestClock = TestClock()) async throws -> CrowdReportResult {
        try await engine.report(CrowdReport(device: deviceKey(device), lat: lat, lon: lon, age: age, sex: sex, comment: comment,
                                            radius: radius, min: min, max: max, limit: limit), now: clock.now)
    }

    @Test("the first device founds a location at its position; one within 10 m joins it; one beyond founds another")
    func foundAndJoin() async throws {
        let e = try engine()
        defer { e.close() }
        let a = try await report(e, 1, lat0, lon0)
        #expect(a.location == CrowdOwnLocation(id: 1, lat: lat0, lon: lon0, people: 1))
        let b = try await report(e, 2, lat0 + 5 / metresPerDegree, lon0)
        #expect(b.location.id == 1 && b.location.people == 2)
        let c = try await report(e, 3, lat0 + 10.5 / metresPerDegree, lon0)
        #expect(c.location.id == 2 && c.location.people == 1)
        #expect(c.search.locations.map(\.id) == [2, 1])
        #expect(e.stats == CrowdEngineStats(devices: 3, locations: 2, comments: 0))
    }

    @Test("exactly 10 m counts as inside; the next double beyond does not")
    func exactlyTenMetres() async throws {
        // Near the equator latitudes are fine enough for a distance of exactly 10.0 m.
        let lat0 = 0.0
        let inside = try #require(latitude(exactly: 10, northOf: lat0, lon: lon0))
        let outside = latitude(justBeyond: 10, northOf: lat0, lon: lon0)
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, lat0, lon0)
        #expect(try await report(e, 2, inside, lon0).location.id == 1)
        #expect(try await report(e, 3, outside, lon0).location.id == 2)
        // A member exactly 10 m from its centre stays put when it reports there again.
        #expect(try await report(e, 2, inside, lon0).location.id == 1)
    }

    @Test("equally near locations: the lowest id wins, whatever the side", arguments: [false, true])
    func tiesGoToLowestID(swapped: Bool) async throws {
        // On the equator, ±0.00005° of longitude are exactly equally far from longitude 0
        // (5.56 m each) and 11.1 m apart: two locations.
        let west = -0.00005, east = 0.00005
        let e = try engine()
        defer { e.close() }
        let first = try await report(e, 1, 0, swapped ? east : west)
        let second = try await report(e, 2, 0, swapped ? west : east)
        #expect(first.location.id == 1 && second.location.id == 2)
        #expect(CrowdRules.distance(lat1: 0, lon1: 0, lat2: 0, lon2: west) == CrowdRules.distance(lat1: 0, lon1: 0, lat2: 0, lon2: east))
        #expect(try await report(e, 3, 0, 0).location.id == 1)
    }

    @Test("the nearest location within 10 m wins over a lower id")
    func nearestWins() async throws {
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, lat0, lon0)                              // id 1
        _ = try await report(e, 2, lat0 + 12 / metresPerDegree, lon0)       // id 2, 12 m north
        let r = try await report(e, 3, lat0 + 7 / metresPerDegree, lon0)    // 7 m from 1, 5 m from 2
        #expect(r.location.id == 2)
    }

    @Test("centres never move: joining from 8 m away leaves the founder's position")
    func centresStay() async throws {
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, lat0, lon0)
        let r = try await report(e, 2, lat0 + 8 / metresPerDegree, lon0)
        #expect(r.location.lat == lat0 && r.location.lon == lon0)
        // The founder leaves; the location keeps its centre with only the joiner in it.
        _ = try await report(e, 1, lat0 + 100 / metresPerDegree, lon0)
        let detail = try #require(try await e.location(id: 1, now: TestClock().now))
        #expect(detail.location.lat == lat0 && detail.location.lon == lon0 && detail.location.people == 1)
    }

    @Test("a location that empties is deleted at once with its comments; ids are never reused")
    func emptiedLocationDeleted() async throws {
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, lat0, lon0, comment: "hello")
        #expect(e.stats.comments == 1)
        let moved = try await report(e, 1, lat0 + 50 / metresPerDegree, lon0)
        #expect(moved.location.id == 2)
        #expect(try await e.location(id: 1, now: TestClock().now) == nil)
        #expect(e.stats == CrowdEngineStats(devices: 1, locations: 1, comments: 0))
        let back = try await report(e, 2, lat0, lon0)
        #expect(back.location.id == 3)
        #expect(try await e.location(id: 3, now: TestClock().now)?.comments == [])
    }

    @Test("statistics: average over those who gave an age, men and women; age and sex replaced by every report")
    func statistics() async throws {
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, lat0, lon0, age: 20, sex: .male)
        _ = try await report(e, 2, lat0, lon0, age: 31, sex: .female)
        _ = try await report(e, 3, lat0, lon0)
        var l = try #require(try await e.location(id: 1, now: TestClock().now)).location
        #expect(l.people == 3 && l.averageAge == 25.5 && l.men == 1 && l.women == 1)
        // Device 1 reports again from 3 m away (stays): now 40, female.
        _ = try await report(e, 1, lat0 + 3 / metresPerDegree, lon0, age: 40, sex: .female)
        l = try #require(try await e.location(id: 1, now: TestClock().now)).location
        #expect(l.people == 3 && l.averageAge == 35.5 && l.men == 0 && l.women == 2)
        // A report without them makes the device unknown again.
        _ = try await report(e, 1, lat0, lon0)
        _ = try await report(e, 2, lat0, lon0)
        l = try #require(try await e.location(id: 1, now: TestClock().now)).location
        #expect(l.people == 3 && l.averageAge == nil && l.men == 0 && l.women == 0)
        // The average is a full-precision double.
        _ = try await report(e, 1, lat0, lon0, age: 1)
        _ = try await report(e, 2, lat0, lon0, age: 1)
        _ = try await report(e, 3, lat0, lon0, age: 2)
        l = try #require(try await e.location(id: 1, now: TestClock().now)).location
        #expect(l.averageAge == 4.0 / 3.0)
    }

    @Test("expiry: at exactly the expiry a device still counts, strictly after it does not; a later report re-joins")
    func expiry() async throws {
        let e = try engine(expiry: 90)
        defer { e.close() }
        var clock = TestClock()
        _ = try await report(e, 1, lat0, lon0, age: 30, at: clock)
        clock.advance(30)
        _ = try await report(e, 2, lat0, lon0, age: 50, at: clock)
        clock.advance(60)  // device 1 is exactly 90 s old
        var detail = try #require(try await e.location(id: 1, now: clock.now))
        #expect(detail.location.people == 2 && detail.location.averageAge == 40)
        clock.seconds = clock.seconds.nextUp
        detail = try #require(try await e.location(id: 1, now: clock.now))
        #expect(detail.location.people == 1 && detail.location.averageAge == 50)
        #expect(e.stats.devices == 1)
        _ = try await report(e, 1, lat0, lon0, at: clock)
        #expect(try await e.location(id: 1, now: clock.now)?.location.people == 2)
        // Everyone gone: the location is deleted, and the next report founds a new id.
        clock.advance(1000)
        let search = try await e.search(CrowdSearch(lat: lat0, lon: lon0), now: clock.now)
        #expect(search.locations.isEmpty && e.stats == CrowdEngineStats(devices: 0, locations: 0, comments: 0))
        #expect(try await report(e, 1, lat0, lon0, at: clock).location.id == 2)
    }

    @Test("a comment goes to the location the device is in after the move; the latest 10 are shown, newest first")
    func comments() async throws {
        let e = try engine()
        defer { e.close() }
        var clock = TestClock()
        _ = try await report(e, 1, lat0, lon0, at: clock)
        _ = try await report(e, 2, lat0, lon0, at: clock)  // keeps location 1 alive
        let moved = try await report(e, 1, lat0 + 30 / metresPerDegree, lon0, comment: "over here", at: clock)
        #expect(moved.location.id == 2)
        #expect(try await e.location(id: 1, now: clock.now)?.comments == [])
        #expect(try await e.location(id: 2, now: clock.now)?.comments == [CrowdComment(text: "over here", time: clock.now)])
        for i in 1...12 {
            clock.advance(1)
            _ = try await report(e, 2, lat0, lon0, comment: "c\(i)", at: clock)
        }
        let shown = try #require(try await e.location(id: 1, now: clock.now)).comments
        #expect(shown.map(\.text) == (3...12).reversed().map { "c\($0)" })
        #expect(shown.first?.time == clock.now)
        #expect(e.stats.comments == 11)
    }

    @Test("search: radius inclusive, min and max, ordered by distance then id")
    func search() async throws {
        // On the prime meridian ±0.0005° of longitude are exactly equally far; on the equator
        // a latitude exactly 100.0 m north exists.
        let lat0 = 0.0, lon0 = 0.0
        let e = try engine()
        defer { e.close() }
        let atRadius = try #require(latitude(exactly: 100, northOf: lat0, lon: lon0))
        let beyond = latitude(justBeyond: 100, northOf: lat0, lon: lon0)
        _ = try await report(e, 1, atRadius, lon0)                        // id 1, 1 person, exactly 100 m
        _ = try await report(e, 2, beyond, lon0 + 0.001)                  // id 2, > 100 m
        _ = try await report(e, 3, beyond, lon0)                          // a hair from 1: joins it
        // Two locations equally far east and west on the same parallel: ordered by id.
        _ = try await report(e, 4, lat0, lon0 + 0.0005)                   // id 3
        _ = try await report(e, 5, lat0, lon0 - 0.0005)                   // id 4
        _ = try await report(e, 6, lat0, lon0 - 0.0005)                   // id 4 has 2
        let all = try await e.search(CrowdSearch(lat: lat0, lon: lon0, radius: 100, min: 1, max: 100), now: TestClock().now)
        #expect(all.locations.map(\.id) == [3, 4, 1])
        #expect(all.locations.map(\.people) == [1, 2, 2])
        #expect(all.locations[0].distance == all.locations[1].distance)
        #expect(all.locations[2].distance == 100)
        #expect(!all.truncated)
        let two = try await e.search(CrowdSearch(lat: lat0, lon: lon0, radius: 100, min: 2, max: 2), now: TestClock().now)
        #expect(two.locations.map(\.id) == [4, 1])
        let one = try await e.search(CrowdSearch(lat: lat0, lon: lon0, radius: 100, min: 1, max: 1), now: TestClock().now)
        #expect(one.locations.map(\.id) == [3])
    }

    @Test("truncation keeps the most crowded (ties: nearer, then lower id) and still orders by distance")
    func truncation() async throws {
        let e = try engine()
        defer { e.close() }
        // Five locations 20 m apart going north; people 1, 3, 2, 3, 1.
        let people = [1, 3, 2, 3, 1]
        var device = 0
        for (i, n) in people.enumerated() {
            for _ in 0..<n {
                device += 1
                _ = try await report(e, device, lat0 + Double(i) * 20 / metresPerDegree, lon0)
            }
        }
        let cut = try await e.search(CrowdSearch(lat: lat0, lon: lon0, radius: 500, min: 1, max: 100, limit: 3), now: TestClock().now)
        #expect(cut.truncated)
        #expect(cut.locations.map(\.id) == [2, 3, 4])
        let tie = try await e.search(CrowdSearch(lat: lat0, lon: lon0, radius: 500, min: 1, max: 100, limit: 1), now: TestClock().now)
        #expect(tie.locations.map(\.id) == [2])
        let exact = try await e.search(CrowdSearch(lat: lat0, lon: lon0, radius: 500, min: 1, max: 100, limit: 5), now: TestClock().now)
        #expect(!exact.truncated && exact.locations.count == 5)
    }

    @Test("minimum group k: searches, details and the own count hide groups smaller than k")
    func minimumGroup() async throws {
        let e = try engine(minGroup: 3)
        defer { e.close() }
        let a = try await report(e, 1, lat0, lon0)
        #expect(a.location.people == nil && a.search.locations.isEmpty)
        _ = try await report(e, 2, lat0, lon0)
        #expect(try await e.location(id: 1, now: TestClock().now) == nil)
        let c = try await report(e, 3, lat0, lon0)
        #expect(c.location.people == 3 && c.search.locations.map(\.id) == [1])
        #expect(try await e.location(id: 1, now: TestClock().now)?.location.people == 3)
        // min below k is raised to k.
        let s = try await e.search(CrowdSearch(lat: lat0, lon: lon0, min: 1, max: 2), now: TestClock().now)
        #expect(s.locations.isEmpty)
    }

    @Test("across the antimeridian and around the poles")
    func wrapAndPoles() async throws {
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, 10, 179.9999)
        _ = try await report(e, 2, 10, -179.9999)
        _ = try await report(e, 3, 10, 180)
        let east = try await e.search(CrowdSearch(lat: 10, lon: -180, radius: 50), now: TestClock().now)
        #expect(Set(east.locations.map(\.id)) == [1, 2, 3])
        // −180 and 180 are the same meridian: device 4 at −180 joins location 3 (0 m away).
        #expect(try await report(e, 4, 10, -180).location.id == 3)
        // Near the north pole every longitude is close.
        for (i, lon) in [-180.0, -135, -90, -45, 0, 45, 90, 135, 180].enumerated() {
            _ = try await report(e, 10 + i, 89.9995, lon)
        }
        let pole = try await e.search(CrowdSearch(lat: 90, lon: 0, radius: 60), now: TestClock().now)
        #expect(pole.locations.count == 8)
        for l in pole.locations { #expect(abs(l.distance - 0.0005 * metresPerDegree) < 1e-6) }
        let south = try await report(e, 30, -90, 0)
        #expect(south.location.id > 0)
        #expect(try await report(e, 31, -89.99995, 77).location.id == south.location.id)
    }

    @Test("bad values are refused naming the field, and change nothing")
    func validation() async throws {
        let e = try engine()
        defer { e.close() }
        _ = try await report(e, 1, lat0, lon0)
        let before = e.stats
        let bad: [(String, CrowdReport)] = [
            ("lat", CrowdReport(device: deviceKey(2), lat: .nan, lon: lon0)),
            ("lat", CrowdReport(device: deviceKey(2), lat: .infinity, lon: lon0)),
            ("lon", CrowdReport(device: deviceKey(2), lat: lat0, lon: 180.5)),
            ("radius", CrowdReport(device: deviceKey(2), lat: lat0, lon: lon0, radius: 0)),
            ("radius", CrowdReport(device: deviceKey(2), lat: lat0, lon: lon0, radius: 1_000_000_000)),
            ("min", CrowdReport(device: deviceKey(2), lat: lat0, lon: lon0, min: 5, max: 4)),
            ("age", CrowdReport(device: deviceKey(2), lat: lat0, lon: lon0, age: 151)),
            ("comment", CrowdReport(device: deviceKey(2), lat: lat0, lon: lon0, comment: String(repeating: "x", count: 1_000_000))),
            ("comment", CrowdReport(device: deviceKey(2), lat: lat0, lon: lon0, comment: "<script>alert(1)</script>")),
            ("device", CrowdReport(device: DeviceKey(bytes: []), lat: lat0, lon: lon0)),
        ]
        for (field, r) in bad {
            let error = await #expect(throws: CrowdValidationError.self) { try await e.report(r, now: TestClock().now) }
            #expect(error?.field == field)
        }
        #expect(e.stats == before)
        let error = await #expect(throws: CrowdValidationError.self) {
            try await e.search(CrowdSearch(lat: lat0, lon: lon0, limit: 0), now: TestClock().now)
        }
        #expect(error?.field == "limit")
    }
}
