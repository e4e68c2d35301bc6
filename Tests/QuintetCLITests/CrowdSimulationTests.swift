import Crowd
import Foundation
@testable import quintet
import Testing

/// The crowd simulation of `quintet crowd simulate` (CLI-only code, so tested beside the CLI).
@Suite("crowd simulation")
struct CrowdSimulationTests {
    static let area = CrowdSimulation.Area(lat: 45.4642, lon: 9.19, radius: 1000)

    @Test("tokens are sim-<seed>-<index>, the same every round; one seed gives the same crowd")
    func deterministic() {
        var a = CrowdSimulation(devices: 50, area: Self.area, hotspots: 10, seed: 7)
        var b = CrowdSimulation(devices: 50, area: Self.area, hotspots: 10, seed: 7)
        #expect(a.token(0) == "sim-7-0" && a.token(49) == "sim-7-49")
        let first = a.round(0), again = b.round(0)
        #expect(first == again)
        #expect(first.map(\.device) == (0..<50).map { "sim-7-\($0)" })
        #expect(a.round(1).map(\.device) == first.map(\.device))
    }

    @Test("every report lies within the area (plus the 4 m jitter) and is valid JSON")
    func reportsInArea() throws {
        var crowd = CrowdSimulation(devices: 200, area: Self.area, hotspots: 40, seed: 3)
        for report in crowd.round(0) + crowd.round(1) {
            #expect(CrowdRules.distance(lat1: Self.area.lat, lon1: Self.area.lon, lat2: report.lat, lon2: report.lon) <= 1005)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
            #expect(object["device"] as? String == report.device)
            #expect(object["comment"] as? String == report.comment)
        }
    }
}
