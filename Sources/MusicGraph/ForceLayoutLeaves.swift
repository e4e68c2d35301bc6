import Foundation

/// The last step of `ForceLayout`: leaves (nodes with one link, such as the songs of an album
/// that nothing else links) set on rings around the node they hang from, as a flower.
///
/// Forces alone leave an album's songs in a loose crowd, mostly on the side away from the
/// rest of the map, mixed with the next album's songs: at map scale the album is a smear, and
/// a song's nearest node is as often a stranger as its album. Rings give every album (or any
/// hub) a compact, readable shape of its own:
///
/// - the hub's leaves, in node order, fill rings of radius ρ, 2ρ, 3ρ, … with neighbours on a
///   ring at least 1.15ρ apart, so ring r holds ⌊2πr / 1.15⌋ leaves (5, 10, 16, 21, …). The
///   first ring's 5 leaves are each nearer their hub than any other leaf; 6 would tie.
/// - the whole flower stays within 0.45 of the distance from the hub to its nearest other
///   non-leaf node, so two flowers never overlap: ρ = min(K, 0.45·d / rings);
/// - the rings are turned so that their first leaf points away from the hub's other links
///   (an album's songs open away from its artist), alternate rings offset by half a place.
///
/// Nodes whose one link is to another one-link node (a pair alone) keep their places.
extension ForceLayout {
    /// Neighbours on a ring are at least this many ring gaps apart.
    static let leafSpacing: Float = 1.15
    /// A flower's radius as a share of the distance from its hub to the nearest other hub.
    static let flowerShare: Float = 0.45

    /// How many leaves ring `r` (1-based) holds.
    static func ringCapacity(_ r: Int) -> Int { max(1, Int(2 * Float.pi * Float(r) / leafSpacing)) }

    static func ringLeaves(_ points: inout [SIMD2<Float>], level: ForceLayoutLevel, edgeLength: Float) {
        let n = level.count
        guard n == points.count, n > 2 else { return }
        // Leaves by hub, in node order.
        var hubOf = [Int32](repeating: -1, count: n)
        var leafCount = [Int32](repeating: 0, count: n)
        for i in 0..<n where level.degree(i) == 1 {
            let h = Int(level.neighbours[Int(level.offsets[i])])
            if level.degree(h) >= 2 { hubOf[i] = Int32(h); leafCount[h] += 1 }
        }
        var core: [Int] = []
        core.reserveCapacity(n)
        for i in 0..<n where hubOf[i] < 0 { core.append(i) }
        guard core.count < n else { return }
        var leavesStart = [Int32](repeating: 0, count: n + 1)
        for i in 0..<n { leavesStart[i + 1] = leavesStart[i] + leafCount[i] }
        var leaves = [Int32](repeating: 0, count: Int(leavesStart[n]))
        var fill = Array(leavesStart.prefix(n))
        for i in 0..<n where hubOf[i] >= 0 {
            let h = Int(hubOf[i])
            leaves[Int(fill[h])] = Int32(i)
            fill[h] += 1
        }
        let grid = NearestGrid(points: points, members: core)
        for h in 0..<n where leafCount[h] > 0 {
            let count = Int(leafCount[h])
            var rings = 0, room = 0
            while room < count { rings += 1; room += ringCapacity(rings) }
            let hub = points[h]
            var rho = edgeLength
            if let d = grid.nearestDistance(to: hub, excluding: h), d.isFinite, d > 0 {
                rho = min(rho, flowerShare * d / Float(rings))
            }
            // Open away from the hub's other (non-leaf) links.
            var away = SIMD2<Float>(0, 0)
            for e in Int(level.offsets[h])..<Int(level.offsets[h + 1]) {
                let j = Int(level.neighbours[e])
                if hubOf[j] != Int32(h) { away += hub - points[j] }
            }
            let base = (away.x * away.x + away.y * away.y) > 1e-12 ? atan2(away.y, away.x) : 0
            var placed = 0, ring = 1
            let first = Int(leavesStart[h])
            while placed < count {
                let onRing = min(ringCapacity(ring), count - placed)
                let radius = rho * Float(ring)
                let phase = ring % 2 == 0 ? 0.5 : 0
                for t in 0..<onRing {
                    let angle = base + 2 * Float.pi * (Float(t) + Float(phase)) / Float(onRing)
                    points[Int(leaves[first + placed + t])] = hub + radius * SIMD2(cos(angle), sin(angle))
                }
                placed += onRing
                ring += 1
            }
        }
    }
}

/// A uniform grid over some of the points, for the distance from a point to the nearest of them.
struct NearestGrid {
    private let minX, minY, cell: Float
    private let columns, rows: Int
    private var start: [Int32]
    private var members: [Int32]
    private let points: [SIMD2<Float>]

    init(points: [SIMD2<Float>], members list: [Int]) {
        self.points = points
        var lo = SIMD2<Float>(.infinity, .infinity), hi = SIMD2<Float>(-.infinity, -.infinity)
        for i in list { lo = pointwiseMin(lo, points[i]); hi = pointwiseMax(hi, points[i]) }
        if list.isEmpty { lo = .zero; hi = .zero }
        let width = max(hi.x - lo.x, 1e-3), height = max(hi.y - lo.y, 1e-3)
        // About one member per cell.
        let side = max((width * height / Float(max(list.count, 1))).squareRoot(), max(width, height) / 4_096)
        minX = lo.x; minY = lo.y; cell = side
        columns = min(4_097, Int(width / side) + 1)
        rows = min(4_097, Int(height / side) + 1)
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var slot = [Int32](repeating: 0, count: list.count)
        for (k, i) in list.enumerated() {
            let c = Self.index(points[i], minX, minY, side, columns, rows)
            slot[k] = Int32(c)
            counts[c + 1] += 1
        }
        for c in 0..<(columns * rows) { counts[c + 1] += counts[c] }
        start = counts
        members = [Int32](repeating: 0, count: list.count)
        var fill = Array(counts.prefix(columns * rows))
        for (k, i) in list.enumerated() {
            members[Int(fill[Int(slot[k])])] = Int32(i)
            fill[Int(slot[k])] += 1
        }
    }

    private static func index(_ p: SIMD2<Float>, _ minX: Float, _ minY: Float, _ cell: Float,
                              _ columns: Int, _ rows: Int) -> Int {
        let c = min(columns - 1, max(0, Int((p.x - minX) / cell)))
        let r = min(rows - 1, max(0, Int((p.y - minY) / cell)))
        return r * columns + c
    }

    /// The distance from `p` to the nearest member other than `excluded`; nil when there is none.
    func nearestDistance(to p: SIMD2<Float>, excluding excluded: Int) -> Float? {
        let c0 = min(columns - 1, max(0, Int((p.x - minX) / cell)))
        let r0 = min(rows - 1, max(0, Int((p.y - minY) / cell)))
        var best = Float.infinity
        var radius = 0
        while radius <= max(columns, rows) {
            // Cells at Chebyshev distance `radius` from (c0, r0); none nearer than (radius − 1)·cell.
            if best.isFinite, Float(radius - 1) * cell > best.squareRoot() { break }
            for r in (r0 - radius)...(r0 + radius) where r >= 0 && r < rows {
                let edgeRow = r == r0 - radius || r == r0 + radius
                var c = c0 - radius
                while c <= c0 + radius {
                    if c >= 0 && c < columns {
                        let k = r * columns + c
                        for m in Int(start[k])..<Int(start[k + 1]) where Int(members[m]) != excluded {
                            let d = points[Int(members[m])] - p
                            best = min(best, d.x * d.x + d.y * d.y)
                        }
                    }
                    c += edgeRow || radius == 0 ? 1 : 2 * radius
                }
            }
            radius += 1
        }
        return best.isFinite ? best.squareRoot() : nil
    }
}
