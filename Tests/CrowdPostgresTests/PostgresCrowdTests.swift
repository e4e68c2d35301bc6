import Crowd
@testable import CrowdPostgres
import Foundation
import PostgresNIO
import Testing

/// The semantics (issue 7 and the lead's decisions) against a real PostgreSQL + PostGIS.
@Suite("PostgresCrowd semantics")
struct PostgresCrowdSemanticsTests {
    let lat = Geo.origin.lat
    let lon = Geo.origin.lon

    @Test("The SQL haversine gives the same doubles as CrowdRules.distance")
    func sameDistance() async throws {
        try await TestDatabase.withCrowd { _, schema in
            var generator = SystemRandomNumberGenerator()
            var pairs: [(Double, Double, Double, Double)] = [(0, 0, 0, 0), (90, 0, -90, 0), (0, -180, 0, 180), (0, 0, 0, 180)]
            for _ in 0..<200 {
                let a = Double.random(in: -90...90, using: &generator), b = Double.random(in: -180...180, using: &generator)
                let scale = [1e-6, 1e-4, 1e-2, 1, 100].randomElement(using: &generator)!
                pairs.append((a, b, max(-90, min(90, a + Double.random(in: -scale...scale, using: &generator))),
                              max(-180, min(180, b + Double.random(in: -scale...scale, using: &generator)))))
            }
            try await TestDatabase.withConnection { connection in
                for (lat1, lon1, lat2, lon2) in pairs {
                    let rows = try await connection.query(
                        "SELECT \(unescaped: "\"\(schema)\"").crowd_distance(\(lat1), \(lon1), \(lat2), \(lon2))",
                        logger: TestDatabase.logger)
                    for try await value in rows.decode(Double.self) {
                        let expected = CrowdRules.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
                        #expect(value.bitPattern == expected.bitPattern, "\(lat1),\(lon1) → \(lat2),\(lon2): \(value) vs \(expected)")
                    }
                }
            }
        }
    }

    @Test("Exactly 10 m (by the haversine) joins; the next double north founds a new location")
    func tenMetresInside() async throws {
        let edge = Geo.boundary(lat: lat, lon: lon, metres: 10)
        #expect(CrowdRules.distance(lat1: lat, lon1: lon, lat2: edge.inside, lon2: lon) <= 10)
        #expect(CrowdRules.distance(lat1: lat, lon1: lon, lat2: edge.outside, lon2: lon) > 10)
        try await TestDatabase.withCrowd { crowd, _ in
            let first = try await crowd.report("a", lat, lon)
            let joined = try await crowd.report("b", edge.inside, lon)
            #expect(joined.location.id == first.location.id)
            #expect(joined.location.people == 2)
            let apart = try await crowd.report("c", edge.outside, lon)
            #expect(apart.location.id != first.location.id)
            #expect(apart.location.lat == edge.outside && apart.location.lon == lon)
            #expect(apart.location.people == 1)
            let all = try await crowd.all()
            #expect(all.map(\.people).sorted() == [1, 2])
        }
    }

    @Test("A device within 10 m of its location's centre stays; the centre never moves")
    func stayAndFixedCentre() async throws {
        let eight = Geo.degrees(metres: 8)
        try await TestDatabase.withCrowd { crowd, _ in
            let a = try await crowd.report("a", lat, lon)
            let b = try await crowd.report("b", lat + eight, lon)  // joins, 8 m north
            #expect(b.location.id == a.location.id)
            // a walks 9 m south: still within 10 m of the centre, nothing moves.
            let stay = try await crowd.report("a", lat - Geo.degrees(metres: 9), lon)
            #expect(stay.location.id == a.location.id && stay.location.people == 2)
            #expect(stay.location.lat == lat && stay.location.lon == lon)
            // a leaves for good; the centre stays where a founded it, with b in it.
            let gone = try await crowd.report("a", lat + Geo.degrees(metres: 500), lon)
            #expect(gone.location.id != a.location.id)
            // c, 8 m south of the centre (16 m from b), joins the same location.
            let c = try await crowd.report("c", lat - eight, lon)
            #expect(c.location.id == a.location.id && c.location.people == 2)
            #expect(c.location.lat == lat && c.location.lon == lon)
        }
    }

    @Test("Ties between locations at the same distance go to the lowest id")
    func tiesLowestId() async throws {
        // Longitudes exact in binary, symmetric about the device: the distances are equal doubles.
        let base = 10.0, offset = 1.0 / 16384  // ≈ 6.8 m at this latitude
        let tieLat = 1.0
        #expect(CrowdRules.distance(lat1: tieLat, lon1: base, lat2: tieLat, lon2: base + offset)
            == CrowdRules.distance(lat1: tieLat, lon1: base, lat2: tieLat, lon2: base - offset))
        try await TestDatabase.withCrowd { crowd, _ in
            let east = try await crowd.report("east", tieLat, base + offset)  // founded first: lower id
            let west = try await crowd.report("west", tieLat, base - offset)
            #expect(east.location.id < west.location.id && east.location.id != west.location.id)
            let middle = try await crowd.report("middle", tieLat, base)
            #expect(middle.location.id == east.location.id)
            // And the nearest wins over a lower id: 1 m west of the middle is nearer the west one.
            let nearer = try await crowd.report("nearer", tieLat, base - offset / 4)
            #expect(nearer.location.id == west.location.id)
        }
    }

    @Test("An emptied location is deleted at once with its comments; ids are never reused")
    func emptiedDeleted() async throws {
        try await TestDatabase.withCrowd { crowd, schema in
            let first = try await crowd.report("a", lat, lon, comment: "hello")
            #expect(try await crowd.location(id: first.location.id, now: Geo.start)?.comments.map(\.text) == ["hello"])
            let moved = try await crowd.report("a", lat + Geo.degrees(metres: 100), lon, at: Geo.start + 1)
            #expect(moved.location.id > first.location.id)
            #expect(try await crowd.location(id: first.location.id, now: Geo.start + 1) == nil)
            #expect(try await TestDatabase.count("crowd_comments", schema: schema) == 0)
            // Someone at the old spot founds a new location: new id, no old comments.
            let again = try await crowd.report("b", lat, lon, at: Geo.start + 2)
            #expect(again.location.id > moved.location.id)
            #expect(try await crowd.location(id: again.location.id, now: Geo.start + 2)?.comments == [])
            #expect(try await TestDatabase.count("crowd_locations", schema: schema) == 2)
        }
    }

    @Test("Age and sex are replaced by every report, and cleared by a report without them")
    func ageAndSexReplaced() async throws {
        try await TestDatabase.withCrowd { crowd, _ in
            let a = try await crowd.report("a", lat, lon, age: 30, sex: .male)
            try await crowd.report("b", lat, lon, age: 41, sex: .female)
            var here = try #require(try await crowd.location(id: a.location.id, now: Geo.start)).location
            #expect(here.people == 2 && here.averageAge == 35.5 && here.men == 1 && here.women == 1)
            try await crowd.report("a", lat, lon)  // no age, no sex: unknown again
            here = try #require(try await crowd.location(id: a.location.id, now: Geo.start)).location
            #expect(here.people == 2 && here.averageAge == 41 && here.men == 0 && here.women == 1)
            try await crowd.report("b", lat, lon, age: 20, sex: .male)
            here = try #require(try await crowd.location(id: a.location.id, now: Geo.start)).location
            #expect(here.averageAge == 20 && here.men == 1 && here.women == 0)
            try await crowd.report("b", lat, lon)
            here = try #require(try await crowd.location(id: a.location.id, now: Geo.start)).location
            #expect(here.averageAge == nil && here.men == 0 && here.women == 0 && here.people == 2)
            // The average is a full-precision double: (1 + 2 + 2) / 3.
            try await crowd.report("a", lat, lon, age: 1)
            try await crowd.report("b", lat, lon, age: 2)
            try await crowd.report("c", lat, lon, age: 2)
            here = try #require(try await crowd.location(id: a.location.id, now: Geo.start)).location
            #expect(here.averageAge == 5.0 / 3.0)
            // A device moving away takes its age and sex with it.
            try await crowd.report("c", lat + 1, lon, age: 2)
            here = try #require(try await crowd.location(id: a.location.id, now: Geo.start)).location
            #expect(here.people == 2 && here.averageAge == 1.5)
        }
    }

    @Test("Expiry: strictly older than the expiry leaves; an emptied location goes")
    func expiry() async throws {
        try await TestDatabase.withCrowd(expiry: 60) { crowd, schema in
            let a = try await crowd.report("a", lat, lon, at: Geo.start, age: 20, comment: "x")
            try await crowd.report("b", lat, lon, at: Geo.start + 30, age: 40)
            // Exactly 60 s after a's report: a still counts.
            var here = try #require(try await crowd.location(id: a.location.id, now: Geo.start + 60)).location
            #expect(here.people == 2 && here.averageAge == 30)
            // Just past: a is gone, its age with it.
            here = try #require(try await crowd.location(id: a.location.id, now: Geo.start + 60.001)).location
            #expect(here.people == 1 && here.averageAge == 40)
            #expect(try await TestDatabase.count("crowd_devices", schema: schema) == 1)
            // A search expires too: b past its time, the location and its comment go.
            #expect(try await crowd.all(at: Geo.start + 90.5).isEmpty)
            #expect(try await TestDatabase.count("crowd_locations", schema: schema) == 0)
            #expect(try await TestDatabase.count("crowd_comments", schema: schema) == 0)
            // a reporting again founds a new location.
            let back = try await crowd.report("a", lat, lon, at: Geo.start + 100)
            #expect(back.location.id > a.location.id && back.location.people == 1)
        }
    }

    @Test("Comments: the latest 10, newest first, with their times; on the device's location after the move")
    func latestComments() async throws {
        try await TestDatabase.withCrowd { crowd, _ in
            var id: Int64 = 0
            for i in 0..<13 {
                id = try await crowd.report("a", lat, lon, at: Geo.start + Double(i) * 0.25, comment: "comment \(i)").location.id
            }
            let detail = try #require(try await crowd.location(id: id, now: Geo.start + 10))
            #expect(detail.comments.map(\.text) == (3..<13).reversed().map { "comment \($0)" })
            #expect(detail.comments.map(\.time) == (3..<13).reversed().map { Geo.start + Double($0) * 0.25 })
            // A report that moves and comments: the comment goes to the new location.
            let moved = try await crowd.report("b", lat + 0.01, lon, comment: "there")
            #expect(try await crowd.location(id: moved.location.id, now: Geo.start)?.comments.map(\.text) == ["there"])
            #expect(try await crowd.location(id: id, now: Geo.start + 10)?.comments.count == 10)
        }
    }

    @Test("Searches: inclusive radius, ordered by distance then id, distances in metres")
    func searchRadiusAndOrder() async throws {
        let edge = Geo.boundary(lat: lat, lon: lon, metres: 100)
        try await TestDatabase.withCrowd { crowd, _ in
            let inside = try await crowd.report("in", edge.inside, lon)
            let outside = try await crowd.report("out", Geo.boundary(lat: lat, lon: lon, metres: 200).outside, lon)
            // Two at the same distance east and west of the search point (exact in binary).
            let offset = 1.0 / 4096
            let east = try await crowd.report("east", lat, lon + offset)
            let west = try await crowd.report("west", lat, lon - offset)
            let near = try await crowd.report("near", lat - Geo.degrees(metres: 12), lon)  // east and west: ≈ 17.9 m
            let r100 = try await crowd.search(CrowdSearch(lat: lat, lon: lon, radius: 100, min: 1, max: 20), now: Geo.start)
            #expect(r100.locations.contains { $0.id == inside.location.id })
            #expect(!r100.truncated)
            let r200 = try await crowd.search(CrowdSearch(lat: lat, lon: lon, radius: 200, min: 1, max: 20), now: Geo.start)
            #expect(!r200.locations.contains { $0.id == outside.location.id })
            #expect(r200.locations.map(\.id) == [near.location.id, east.location.id, west.location.id, inside.location.id])
            for found in r200.locations {
                #expect(found.distance == CrowdRules.distance(lat1: lat, lon1: lon, lat2: found.lat, lon2: found.lon))
            }
            // The report's own search is centred on its position.
            let own = try await crowd.report("probe", edge.outside, lon, radius: 15)
            #expect(own.search.locations.map(\.id) == [inside.location.id])
        }
    }

    @Test("min and max bound the people; the minimum group k hides smaller locations everywhere")
    func minMaxAndMinimumGroup() async throws {
        try await TestDatabase.withCrowd(minGroup: 3) { crowd, schema in
            var ids: [Int: Int64] = [:]
            for (index, size) in [1, 2, 3, 5].enumerated() {
                let spot = lat + Geo.degrees(metres: 50 * Double(index + 1))
                for member in 0..<size {
                    let answer = try await crowd.report("\(size)-\(member)", spot, lon)
                    ids[size] = answer.location.id
                    // The own count is shown only from k on.
                    #expect(answer.location.people == (member + 1 >= 3 ? member + 1 : nil))
                }
            }
            func sizes(min: Int, max: Int) async throws -> [Int] {
                try await crowd.search(CrowdSearch(lat: lat, lon: lon, radius: 500, min: min, max: max), now: Geo.start)
                    .locations.map(\.people)
            }
            #expect(try await sizes(min: 1, max: 20) == [3, 5])
            #expect(try await sizes(min: 4, max: 20) == [5])
            #expect(try await sizes(min: 1, max: 4) == [3])
            #expect(try await sizes(min: 5, max: 5) == [5])
            #expect(try await crowd.location(id: ids[2]!, now: Geo.start) == nil)
            #expect(try await crowd.location(id: ids[3]!, now: Geo.start)?.location.people == 3)
            // The same database through a client with k = 1 shows everything.
            let open = try await PostgresCrowd.connect(url: TestDatabase.url(schema: schema),
                                                       settings: CrowdSettings(minGroup: 1), logger: TestDatabase.logger)
            let all = try await open.search(CrowdSearch(lat: lat, lon: lon, radius: 500, min: 1, max: 20), now: Geo.start)
            #expect(all.locations.map(\.people) == [1, 2, 3, 5])
            #expect(try await open.search(CrowdSearch(lat: lat, lon: lon, radius: 500, min: 2, max: 3), now: Geo.start)
                .locations.map(\.people) == [2, 3])
            #expect(try await open.location(id: ids[1]!, now: Geo.start)?.location.people == 1)
            await open.close()
        }
    }

    @Test("Truncation keeps the most crowded (ties: nearer, then lower id), listed by distance")
    func truncation() async throws {
        try await TestDatabase.withCrowd { crowd, _ in
            // Sizes by distance (50 m steps north): 4, 1, 2, 4, 3.
            var ids: [Int64] = []
            for (index, size) in [4, 1, 2, 4, 3].enumerated() {
                let spot = lat + Geo.degrees(metres: 50 * Double(index + 1))
                for member in 0..<size { ids.append(try await crowd.report("\(index)-\(member)", spot, lon).location.id) }
            }
            var unique: [Int64] = []
            for id in ids where !unique.contains(id) { unique.append(id) }
            func search(limit: Int) async throws -> CrowdSearchResult {
                try await crowd.search(CrowdSearch(lat: lat, lon: lon, radius: 1000, min: 1, max: 20, limit: limit), now: Geo.start)
            }
            let two = try await search(limit: 2)
            #expect(two.truncated && two.locations.map(\.people) == [4, 4])
            let three = try await search(limit: 3)
            #expect(three.truncated)
            #expect(three.locations.map(\.id) == [unique[0], unique[3], unique[4]])
            // A tie on people at the cut: the nearer 4 is kept.
            let one = try await search(limit: 1)
            #expect(one.truncated && one.locations.map(\.id) == [unique[0]])
            let five = try await search(limit: 5)
            #expect(!five.truncated)
            #expect(five.locations.map(\.id) == unique)
            let many = try await search(limit: 20_000)
            #expect(!many.truncated && many.locations.count == 5)
            // The report's search truncates the same way.
            let own = try await crowd.report("probe", lat, lon, radius: 1000, limit: 2)
            #expect(own.search.truncated && own.search.locations.map(\.people) == [4, 4])
        }
    }

    @Test("Bad values are refused naming the field, before anything changes")
    func validation() async throws {
        try await TestDatabase.withCrowd { crowd, schema in
            try await crowd.report("a", lat, lon, comment: "first")
            let bad: [(String, CrowdReport)] = [
                ("lat", CrowdReport(device: Geo.device("x"), lat: .nan, lon: lon)),
                ("lat", CrowdReport(device: Geo.device("x"), lat: .infinity, lon: lon)),
                ("lat", CrowdReport(device: Geo.device("x"), lat: 90.0001, lon: lon)),
                ("lon", CrowdReport(device: Geo.device("x"), lat: lat, lon: -.infinity)),
                ("lon", CrowdReport(device: Geo.device("x"), lat: lat, lon: 180.5)),
                ("radius", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, radius: 0)),
                ("radius", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, radius: 1_000_000_000)),
                ("min", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, min: 5, max: 4)),
                ("max", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, max: 101)),
                ("age", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, age: 151)),
                ("age", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, age: -1)),
                ("comment", CrowdReport(device: Geo.device("a"), lat: lat, lon: lon, comment: "<script>alert(1)</script>")),
                ("comment", CrowdReport(device: Geo.device("a"), lat: lat, lon: lon, comment: String(repeating: "x", count: 1 << 20))),
                ("comment", CrowdReport(device: Geo.device("a"), lat: lat, lon: lon, comment: "")),
                ("comment", CrowdReport(device: Geo.device("a"), lat: lat, lon: lon, comment: "bell\u{7}")),
                ("limit", CrowdReport(device: Geo.device("x"), lat: lat, lon: lon, limit: 20_001)),
                ("device", CrowdReport(device: DeviceKey(bytes: []), lat: lat, lon: lon)),
            ]
            for (field, report) in bad {
                let error = await #expect(throws: CrowdValidationError.self) { try await crowd.report(report, now: Geo.start + 1) }
                #expect(error?.field == field)
            }
            let badSearch = await #expect(throws: CrowdValidationError.self) {
                try await crowd.search(CrowdSearch(lat: lat, lon: lon, radius: 14), now: Geo.start)
            }
            #expect(badSearch?.field == "radius")
            #expect(try await TestDatabase.count("crowd_devices", schema: schema) == 1)
            #expect(try await TestDatabase.count("crowd_locations", schema: schema) == 1)
            #expect(try await TestDatabase.count("crowd_comments", schema: schema) == 1)
            let all = try await crowd.all()
            #expect(all.count == 1 && all[0].people == 1)
        }
    }

    @Test("Nothing of a device but its key, its location, its time, age and sex is stored")
    func storedDeviceRow() async throws {
        try await TestDatabase.withCrowd { crowd, schema in
            try await crowd.report("a", lat + 0.00001, lon, age: 33, sex: .female)
            try await TestDatabase.withConnection { connection in
                let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT column_name FROM information_schema.columns
                    WHERE table_schema = '\(schema)' AND table_name = 'crowd_devices' ORDER BY column_name
                    """), logger: TestDatabase.logger)
                var columns: [String] = []
                for try await name in rows.decode(String.self) { columns.append(name) }
                #expect(columns == ["age", "key", "last_report", "location_id", "sex"])
                let keys = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT key FROM \"\(schema)\".crowd_devices"), logger: TestDatabase.logger)
                for try await key in keys.decode(Data.self) { #expect(Array(key) == Geo.device("a").bytes) }
            }
        }
    }
}

@Suite("PostgresCrowd connections")
struct PostgresCrowdConnectionTests {
    let lat = Geo.origin.lat
    let lon = Geo.origin.lon

    @Test("Close and connect again: state, comments and the id sequence are kept")
    func reconnect() async throws {
        try await TestDatabase.withSchema { schema in
            let url = TestDatabase.url(schema: schema)
            let first = try await PostgresCrowd.connect(url: url, settings: CrowdSettings(minGroup: 1), logger: TestDatabase.logger)
            let a = try await first.report("a", lat, lon, age: 30, comment: "kept")
            let b = try await first.report("b", lat + 0.005, lon)
            try await first.report("b", lat + 0.01, lon)  // b's first location is deleted
            await first.close()
            let second = try await PostgresCrowd.connect(url: url, settings: CrowdSettings(minGroup: 1), logger: TestDatabase.logger)
            let detail = try #require(try await second.location(id: a.location.id, now: Geo.start))
            #expect(detail.location.people == 1 && detail.location.averageAge == 30)
            #expect(detail.comments.map(\.text) == ["kept"] && detail.comments.first?.time == Geo.start)
            let c = try await second.report("c", lat + 0.005, lon)
            #expect(c.location.id > b.location.id + 1)
            #expect(try await second.all().count == 3)
            await second.close()
        }
    }

    @Test("Two clients on one database, reporting side by side, keep the semantics")
    func twoClients() async throws {
        try await TestDatabase.withSchema { schema in
            let url = TestDatabase.url(schema: schema, pool: 6)
            let settings = CrowdSettings(minGroup: 1)
            async let one = PostgresCrowd.connect(url: url, settings: settings, logger: TestDatabase.logger)
            async let two = PostgresCrowd.connect(url: url, settings: settings, logger: TestDatabase.logger)
            let clients = try await [one, two]
            // 8 spots 3 m apart in a row (so joins compete), 60 devices, 4 rounds of moves.
            let spots = (0..<8).map { (lat + Geo.degrees(metres: 3 * Double($0)), lon) }
            let devices = 60
            for round in 0..<4 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for device in 0..<devices {
                        let client = clients[device % 2]
                        let spot = spots[(device * 7 + round * 3) % spots.count]
                        group.addTask {
                            try await client.report("d\(device)", spot.0, spot.1, at: Geo.start + Double(round),
                                                    age: device % 3 == 0 ? nil : 20 + device % 50,
                                                    sex: device % 2 == 0 ? .male : .female)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let all = try await clients[0].all(at: Geo.start + 4)
            #expect(all.reduce(0) { $0 + $1.people } == devices)
            // No two centres within 10 m of each other… unless the later one was founded while the
            // earlier was out of reach, which cannot happen here: every centre is one of the spots,
            // and a spot within 10 m of an existing centre joins it.
            for (i, p) in all.enumerated() {
                for q in all[(i + 1)...] {
                    #expect(CrowdRules.distance(lat1: p.lat, lon1: p.lon, lat2: q.lat, lon2: q.lon) > 10 || p.id == q.id)
                }
            }
            // The statistics agree with the devices' last reports (round 3).
            var men = 0, women = 0, ages: [Int] = []
            for device in 0..<devices {
                if device % 2 == 0 { men += 1 } else { women += 1 }
                if device % 3 != 0 { ages.append(20 + device % 50) }
            }
            #expect(all.reduce(0) { $0 + $1.men } == men && all.reduce(0) { $0 + $1.women } == women)
            let weighted = all.reduce(0.0) { sum, location in
                sum + (location.averageAge ?? 0) * Double(location.people)
            }
            #expect(weighted > 0)
            try await TestDatabase.withConnection { connection in
                let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT (SELECT coalesce(sum(age_sum), 0) FROM "\(schema)".crowd_locations)::bigint,
                           (SELECT coalesce(sum(age_count), 0) FROM "\(schema)".crowd_locations)::bigint,
                           (SELECT count(*) FROM "\(schema)".crowd_devices d
                            WHERE NOT EXISTS (SELECT 1 FROM "\(schema)".crowd_locations l WHERE l.id = d.location_id))
                    """), logger: TestDatabase.logger)
                for try await (sum, count, orphans) in rows.decode((Int, Int, Int).self) {
                    #expect(sum == ages.reduce(0, +) && count == ages.count && orphans == 0)
                }
            }
            for client in clients { await client.close() }
        }
    }

    @Test("URLs: both schemes, and errors that say what is wrong")
    func urls() async throws {
        let parsed = try PostgresCrowdURL("postgresql://u%40x:p%3Aw@db.example:6543/crowd?schema=crowd_a&pool=4")
        #expect(parsed.user == "u@x" && parsed.password == "p:w" && parsed.host == "db.example" && parsed.port == 6543)
        #expect(parsed.database == "crowd" && parsed.schema == "crowd_a" && parsed.pool == 4)
        #expect(try PostgresCrowdURL("postgres://u@h/d").port == 5432)
        for (url, words) in [
            ("mysql://u:p@h/d", "scheme"), ("postgres://u:p@/d", "host"), ("postgres://h:1/d", "user"),
            ("postgres://u:p@h:5432/", "database"), ("postgres://u:p@h/d?schema=Bad-Name", "schema"),
            ("postgres://u:p@h/d?pool=0", "pool"), ("postgres://u:p@h/d?sslmode=require", "sslmode"),
            ("postgres://u:p@h/d?colour=red", "colour"),
        ] {
            let error = #expect(throws: PostgresCrowdError.self) { try PostgresCrowdURL(url) }
            #expect(error?.message.contains(words) == true, "\(url): \(error?.message ?? "")")
        }
        // A wrong password: the server's own words, at once.
        let target = try PostgresCrowdURL(TestDatabase.url)
        let wrong = "postgres://\(target.user):wrong-password@\(target.host):\(target.port)/\(target.database)"
        let error = await #expect(throws: PostgresCrowdError.self) {
            _ = try await PostgresCrowd.connect(url: wrong, settings: CrowdSettings(), logger: TestDatabase.logger)
        }
        #expect(error?.message.contains("password") == true, "\(error?.message ?? "")")
    }

    @Test("Several processes migrating one schema at once end with one schema")
    func concurrentMigration() async throws {
        try await TestDatabase.withSchema { schema in
            let url = TestDatabase.url(schema: schema, pool: 1)
            let clients = try await withThrowingTaskGroup(of: PostgresCrowd.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await PostgresCrowd.connect(url: url, settings: CrowdSettings(minGroup: 1), logger: TestDatabase.logger) }
                }
                var all: [PostgresCrowd] = []
                for try await client in group { all.append(client) }
                return all
            }
            for (index, client) in clients.enumerated() {
                try await client.report("p\(index)", lat, lon)
            }
            #expect(try await clients[0].all().map(\.people) == [4])
            #expect(try await TestDatabase.count("crowd_schema", schema: schema) == 1)
            for client in clients { await client.close() }
        }
    }
}

@Suite("PostgresCrowd edges of the map and of the locks")
struct PostgresCrowdEdgeTests {
    @Test("Joins across the antimeridian and at the poles")
    func antimeridianAndPoles() async throws {
        try await TestDatabase.withCrowd { crowd, _ in
            // 2e-5° of longitude at the equator ≈ 2.2 m: across ±180 the two are 4.4 m apart.
            let east = try await crowd.report("east", 0, 179.99998)
            let west = try await crowd.report("west", 0, -179.99998)
            #expect(west.location.id == east.location.id && west.location.people == 2)
            // At the north pole every longitude is the same point.
            let pole = try await crowd.report("pole-a", 90, 0)
            let other = try await crowd.report("pole-b", 90, 123.4)
            #expect(other.location.id == pole.location.id)
            let near = try await crowd.report("pole-c", 90 - Geo.degrees(metres: 9), -77)
            #expect(near.location.id == pole.location.id && near.location.people == 3)
            let south = try await crowd.report("south", -90, 10)
            #expect(south.location.id != pole.location.id && south.location.people == 1)
            // A search across the antimeridian finds the location on the other side.
            let found = try await crowd.search(CrowdSearch(lat: 0, lon: -179.9999, radius: 50), now: Geo.start)
            #expect(found.locations.map(\.id) == [east.location.id])
        }
    }

    @Test("The lock cells of a position cover every centre within 10 m (poles and antimeridian too)")
    func lockCellsCover() async throws {
        try await TestDatabase.withCrowd { _, schema in
            var generator = SystemRandomNumberGenerator()
            var cases: [(Double, Double, Double, Double)] = []
            let latitudes: [ClosedRange<Double>] = [-90...(-83.9), -84.1...84.1, 83.9...90, -1...1]
            for index in 0..<400 {
                let lat = Double.random(in: latitudes[index % latitudes.count], using: &generator)
                let lon = index % 5 == 0 ? Double.random(in: 179.9995...180, using: &generator) * (index % 2 == 0 ? 1 : -1)
                    : Double.random(in: -180...180, using: &generator)
                // A centre up to 10 m away in a random direction, kept if the haversine agrees.
                let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
                let metres = Double.random(in: 0...10, using: &generator)
                let dLat = Geo.degrees(metres: metres) * cos(bearing)
                let cosLat = max(cos(lat * .pi / 180), 1e-9)
                var cLat = lat + dLat, cLon = lon + Geo.degrees(metres: metres) * sin(bearing) / cosLat
                cLat = max(-90, min(90, cLat))
                if cLon > 180 { cLon -= 360 }
                if cLon < -180 { cLon += 360 }
                if CrowdRules.distance(lat1: lat, lon1: lon, lat2: cLat, lon2: cLon) <= 10 { cases.append((lat, lon, cLat, cLon)) }
            }
            #expect(cases.count > 200)
            try await TestDatabase.withConnection { connection in
                for (lat, lon, cLat, cLon) in cases {
                    let rows = try await connection.query("""
                        SELECT \(unescaped: "\"\(schema)\"").crowd_cell(\(cLat), \(cLon)) = ANY (\
                        \(unescaped: "\"\(schema)\"").crowd_area_keys(\(lat), \(lon)))
                        """, logger: TestDatabase.logger)
                    for try await covered in rows.decode(Bool.self) {
                        #expect(covered, "centre \(cLat), \(cLon) not covered from \(lat), \(lon)")
                    }
                }
            }
        }
    }

    @Test("Reports on two clients while devices expire keep counts, statistics and comments consistent")
    func concurrentExpiry() async throws {
        try await TestDatabase.withSchema { schema in
            let url = TestDatabase.url(schema: schema, pool: 4)
            let settings = CrowdSettings(minGroup: 1, expiry: 2)
            let clients = [
                try await PostgresCrowd.connect(url: url, settings: settings, logger: TestDatabase.logger),
                try await PostgresCrowd.connect(url: url, settings: settings, logger: TestDatabase.logger),
            ]
            let lat = Geo.origin.lat, lon = Geo.origin.lon
            let spots = (0..<6).map { (lat + Geo.degrees(metres: 4 * Double($0)), lon) }
            // 40 devices; each reports two rounds of every four, so it falls silent for 3 s, longer
            // than the expiry (2 s; one round = 1 s), and is swept mid-run, then comes back.
            // Each device has its own clock offset within a round (as several server processes
            // would), so one call's sweep can expire devices that a concurrent call still counts.
            var last: [Int: Date] = [:]
            for round in 0..<8 {
                let now = Geo.start + Double(round)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for device in 0..<40 where (device + round) % 4 < 2 {
                        let client = clients[(device + round) % 2]
                        let spot = spots[(device * 5 + round) % spots.count]
                        let time = now + Double(device) * 0.02
                        group.addTask {
                            try await client.report("e\(device)", spot.0, spot.1, at: time, age: device % 7 == 0 ? nil : 18 + device,
                                                    comment: device % 4 == 0 ? "r\(round)" : nil)
                        }
                        last[device] = time
                    }
                    // Searches running alongside (they may sweep too).
                    group.addTask { _ = try await clients[1].all(at: now + 0.9) }
                    try await group.waitForAll()
                }
            }
            let now = Geo.start + 7.9
            let all = try await clients[0].all(at: now)
            let alive = last.filter { now.timeIntervalSince($0.value) <= 2 }
            #expect(all.reduce(0) { $0 + $1.people } == alive.count)
            try await TestDatabase.withConnection { connection in
                let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT (SELECT count(*) FROM "\(schema)".crowd_devices)::bigint,
                           (SELECT count(*) FROM "\(schema)".crowd_locations l WHERE l.people <> (
                                SELECT count(*) FROM "\(schema)".crowd_devices d WHERE d.location_id = l.id)
                              OR l.age_sum <> (SELECT coalesce(sum(age), 0) FROM "\(schema)".crowd_devices d WHERE d.location_id = l.id)
                              OR l.age_count <> (SELECT count(age) FROM "\(schema)".crowd_devices d WHERE d.location_id = l.id))::bigint,
                           (SELECT count(*) FROM "\(schema)".crowd_comments c
                            WHERE NOT EXISTS (SELECT 1 FROM "\(schema)".crowd_locations l WHERE l.id = c.location_id))::bigint,
                           (SELECT count(*) FROM "\(schema)".crowd_locations WHERE people <= 0)::bigint
                    """), logger: TestDatabase.logger)
                for try await (devices, wrong, orphanComments, empty) in rows.decode((Int, Int, Int, Int).self) {
                    #expect(devices == alive.count)
                    #expect(wrong == 0)
                    #expect(orphanComments == 0)
                    #expect(empty == 0)
                }
            }
            for client in clients { await client.close() }
        }
    }
}
