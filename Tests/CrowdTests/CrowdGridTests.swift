@testable import Crowd
import Foundation
import Testing

@Suite("Crowd grid index")
struct CrowdGridTests {
    /// Points clustered around a centre (most within a few kilometres, some anywhere).
    func points(around centre: (Double, Double), count: Int, random: inout SeededRandom) -> [(Double, Double)] {
        (0..<count).map { _ in
            let spread = [0.0005, 0.005, 0.03].randomElement(using: &random)!
            var lat = centre.0 + Double.random(in: -spread...spread, using: &random)
            var lon = centre.1 + Double.random(in: -spread...spread, using: &random) / max(0.01, cos(centre.0 * .pi / 180))
            lat = min(90, max(-90, lat))
            while lon > 180 { lon -= 360 }
            while lon < -180 { lon += 360 }
            return (lat, lon)
        }
    }

    @Test("every point within the radius is a candidate: cities, the antimeridian, both poles, the equator",
          arguments: [(44.49, 11.34), (-33.9, 179.999), (10, -180), (89.999, 0), (-89.9995, 120), (89.98, -179.99), (0, 0)])
    func candidatesAreASuperset(centre: (Double, Double)) {
        var random = SeededRandom(state: UInt64(bitPattern: Int64((centre.0 * 1000 + centre.1).rounded())))
        var grid = CrowdGrid()
        let all = points(around: centre, count: 2500, random: &random)
        for (i, p) in all.enumerated() { grid.insert(slot: Int32(i), row: grid.row(lat: p.0), column: grid.column(lon: p.1)) }
        for query in points(around: centre, count: 120, random: &random) {
            for radius in [10.0, 15, 200, 500, 2000] {
                var candidates = Set<Int32>()
                var visits = 0
                grid.forEachCandidate(lat: query.0, lon: query.1, radius: radius) { candidates.insert($0); visits += 1 }
                #expect(visits == candidates.count, "a slot was visited twice")
                for (i, p) in all.enumerated()
                where CrowdRules.distance(lat1: query.0, lon1: query.1, lat2: p.0, lon2: p.1) <= radius {
                    #expect(candidates.contains(Int32(i)), "missed \(p) from \(query) at \(radius) m")
                }
            }
        }
    }

    @Test("the walk stays local: at 200 m in a city few cells are visited, and removal empties the index")
    func localAndRemovable() {
        var grid = CrowdGrid()
        var slot: Int32 = 0
        var filed: [(Int32, Int32, Int32)] = []
        // One location every 0.0001° over a 0.02° square.
        for i in 0..<200 {
            for j in 0..<200 {
                let row = grid.row(lat: 44.4 + Double(i) * 0.0001), column = grid.column(lon: 11.3 + Double(j) * 0.0001)
                grid.insert(slot: slot, row: row, column: column)
                filed.append((slot, row, column))
                slot += 1
            }
        }
        var visits = 0
        grid.forEachCandidate(lat: 44.41, lon: 11.31, radius: 200) { _ in visits += 1 }
        // The circle covers ~0.126 km²; its cells (0.0111 × 0.0080 km² each, 100 points each)
        // about 5 × 6 of them: far fewer than the 40,000 points.
        #expect(visits > 1000 && visits <= 4200)
        for (s, row, column) in filed { grid.remove(slot: s, row: row, column: column) }
        #expect(grid.cellCount == 0)
    }
}
