import Crowd
import Foundation
import GRDB
import Testing

/// The engine over a real SQLite file: what a report acknowledged is on disk, and a reopened
/// engine answers as the one closed.
@Suite("Crowd engine: SQLite persistence")
struct CrowdPersistenceTests {
    let lat0 = 44.4938, lon0 = 11.3426

    @Test("counts, statistics, comments, expiry times and the next id survive a reopen")
    func reopen() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("crowd.sqlite").path
        let settings = CrowdSettings(minGroup: 1, expiry: 600)
        var clock = TestClock()
        var engine = try CrowdEngine(databasePath: path, settings: settings)
        for n in 0..<5 {
            _ = try await engine.report(CrowdReport(device: deviceKey(n), lat: lat0, lon: lon0, age: 20 + n,
                                                    sex: n % 2 == 0 ? .male : .female), now: clock.now)
        }
        for i in 0..<13 {
            clock.advance(1)
            _ = try await engine.report(CrowdReport(device: deviceKey(0), lat: lat0, lon: lon0, age: 20, sex: .male,
                                                    comment: "comment \(i)"), now: clock.now)
        }
        // Locations 2 and 3 come and go: their ids must not come back.
        _ = try await engine.report(CrowdReport(device: deviceKey(9), lat: lat0 + 0.001, lon: lon0), now: clock.now)
        _ = try await engine.report(CrowdReport(device: deviceKey(9), lat: lat0 + 0.002, lon: lon0), now: clock.now)
        _ = try await engine.report(CrowdReport(device: deviceKey(9), lat: lat0, lon: lon0 + 0.001, comment: "alone"), now: clock.now)
        let search = CrowdSearch(lat: lat0, lon: lon0, radius: 500, min: 1, max: 100)
        let before = try await engine.search(search, now: clock.now)
        let detail1 = try await engine.location(id: 1, now: clock.now)
        let detail4 = try await engine.location(id: 4, now: clock.now)
        let stats = engine.stats
        #expect(stats == CrowdEngineStats(devices: 6, locations: 2, comments: 11))
        engine.close()
        // After close the stored rows hold the statistics too, and only the kept comments.
        let stored = try DatabaseQueue(path: path)
        let rows = try stored.read { db in
            try Row.fetchAll(db, sql: "SELECT id, people, age_sum, age_count, men, women FROM locations ORDER BY id")
        }
        #expect(rows.map { [$0[0], $0[1], $0[2], $0[3], $0[4], $0[5]] as [Int] } == [[1, 5, 20 + 21 + 22 + 23 + 24, 5, 3, 2], [4, 1, 0, 0, 0, 0]])
        let storedComments = try await stored.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM comments") }
        #expect(storedComments == 11)
        try stored.close()

        engine = try CrowdEngine(databasePath: path, settings: settings)
        defer { engine.close() }
        #expect(engine.stats == stats)
        #expect(try await engine.search(search, now: clock.now) == before)
        #expect(try await engine.location(id: 1, now: clock.now) == detail1)
        #expect(try await engine.location(id: 4, now: clock.now) == detail4)
        #expect(detail1?.comments.first?.text == "comment 12" && detail1?.comments.count == 10)
        let next = try await engine.report(CrowdReport(device: deviceKey(20), lat: lat0 - 0.01, lon: lon0), now: clock.now)
        #expect(next.location.id == 5)
        // The stored last-report times are exact: devices 1...4 expire 600 s after their
        // reports (at the first clock value), device 0 later.
        clock.seconds = TestClock().seconds + 600
        #expect(try await engine.location(id: 1, now: clock.now)?.location.people == 5)
        clock.seconds = clock.seconds.nextUp
        #expect(try await engine.location(id: 1, now: clock.now)?.location.people == 1)
    }

    @Test("an acknowledged report is already committed: another connection sees it while the engine runs")
    func acknowledgedIsCommitted() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("crowd.sqlite").path
        let engine = try CrowdEngine(databasePath: path, settings: CrowdSettings(minGroup: 1))
        defer { engine.close() }
        let reader = try DatabaseQueue(path: path)
        defer { try? reader.close() }
        let clock = TestClock()
        // Concurrent reports: each one answered is visible to a separate connection.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<200 {
                group.addTask {
                    _ = try await engine.report(CrowdReport(device: deviceKey(n), lat: lat0 + Double(n) * 0.0002, lon: lon0,
                                                            age: n % 90, comment: "hi \(n)"), now: clock.now)
                    let stored = try reader.read { db in
                        try Row.fetchOne(db, sql: """
                            SELECT d.age, l.people, (SELECT count(*) FROM comments c WHERE c.location_id = l.id)
                            FROM devices d JOIN locations l ON l.id = d.location_id WHERE d.key = ?
                            """, arguments: [Data(deviceKey(n).bytes)])
                    }
                    #expect(stored?[0] == n % 90)
                    #expect((stored?[1] as Int?) ?? 0 >= 1)
                    #expect((stored?[2] as Int?) ?? 0 >= 1)
                }
            }
            try await group.waitForAll()
        }
        // The token never appears: the device column holds the key given, and no position.
        let columns = try await reader.read { db in try db.columns(in: "devices").map(\.name) }
        #expect(columns == ["key", "location_id", "last_seen", "age", "sex"])
    }

    @Test("a reopen after thousands of random reports answers every search and detail as before")
    func reopenAfterManyReports() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("crowd.sqlite").path
        let settings = CrowdSettings(minGroup: 2, expiry: 120)
        var random = SeededRandom(state: 42)
        var clock = TestClock()
        var engine = try CrowdEngine(databasePath: path, settings: settings)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for step in 0..<4000 {
                clock.advance(0.05)
                let (lat, lon) = CrowdTestArea.city.point(&random)
                let r = CrowdReport(device: deviceKey(Int.random(in: 0..<600, using: &random)), lat: lat, lon: lon,
                                    age: Int.random(in: 0...150, using: &random),
                                    sex: Bool.random(using: &random) ? .male : nil,
                                    comment: step % 7 == 0 ? "step \(step)" : nil)
                let now = clock.now, running = engine
                group.addTask { _ = try await running.report(r, now: now) }
                if step % 200 == 0 { try await group.waitForAll() }  // keeps the clock order per batch
            }
            try await group.waitForAll()
        }
        let searches = (0..<40).map { _ in
            let (lat, lon) = CrowdTestArea.city.point(&random)
            return CrowdSearch(lat: lat, lon: lon, radius: [15, 50, 100, 200].randomElement(using: &random)!, min: 1, max: 100,
                               limit: Int.random(in: 1...100, using: &random))
        }
        var answers: [CrowdSearchResult] = []
        for s in searches { answers.append(try await engine.search(s, now: clock.now)) }
        var details: [CrowdLocationDetail?] = []
        let maxID = answers.flatMap(\.locations).map(\.id).max() ?? 1
        for id in 1...maxID { details.append(try await engine.location(id: id, now: clock.now)) }
        let stats = engine.stats
        #expect(stats.devices > 500 && stats.comments > 0)
        engine.close()

        engine = try CrowdEngine(databasePath: path, settings: settings)
        defer { engine.close() }
        #expect(engine.stats == stats)
        for (s, answer) in zip(searches, answers) { #expect(try await engine.search(s, now: clock.now) == answer) }
        for id in 1...maxID { #expect(try await engine.location(id: id, now: clock.now) == details[Int(id) - 1]) }
    }

    @Test("an engine dropped without close() stops its writer; what it acknowledged is there on reopen")
    func droppedWithoutClose() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("crowd.sqlite").path
        let settings = CrowdSettings(minGroup: 1)
        do {
            let engine = try CrowdEngine(databasePath: path, settings: settings)
            for n in 0..<20 {
                _ = try await engine.report(CrowdReport(device: deviceKey(n), lat: lat0, lon: lon0, comment: "n\(n)"), now: TestClock().now)
            }
        }
        let engine = try CrowdEngine(databasePath: path, settings: settings)
        defer { engine.close() }
        #expect(engine.stats == CrowdEngineStats(devices: 20, locations: 1, comments: 10))
        #expect(try await engine.location(id: 1, now: TestClock().now)?.comments.first?.text == "n19")
    }
}
