// ShipWorld's river (docs/playground.md, "ShipWorld"): a centre line through hand-placed
// waypoints, from the start at the left edge to the harbour at the right of the bottom reach,
// winding across the 1024 × 768 stage in three reaches joined by two bends. Stage points, y down.
//
// The centre line is a Catmull-Rom spline through the waypoints, sampled 12 times per span;
// the river is the band of `halfWidth` around it: the banks (a static loop chain in the physics
// world) are the samples offset by `halfWidth` along the normal, and the water is drawn as discs
// of that radius on the samples, so the picture and the physics are the same band.

import Physics2D

/// The river of ShipWorld: its centre line, banks and current.
public struct ShipRiver {
    /// Where the river runs, in order, stage points: start (left edge) to harbour (right).
    public static let waypoints: [Vec2] = [
        Vec2(20, 110), Vec2(260, 118), Vec2(520, 108), Vec2(770, 136), Vec2(900, 236),
        Vec2(830, 352), Vec2(570, 384), Vec2(300, 372), Vec2(140, 452), Vec2(150, 584),
        Vec2(330, 652), Vec2(600, 652), Vec2(830, 628), Vec2(990, 625),
    ]
    /// Half the river's width (points): the banks lie this far from the centre line.
    public static let halfWidth = 72.0
    /// The boat's starting point (on the centre line near the start).
    public static let start = Vec2(80, 112)
    /// Where the boat docks: reaching `dockRadius` of it wins.
    public static let dock = Vec2(915, 626)
    public static let dockRadius = 56.0
    static let samplesPerSpan = 12

    /// The sampled centre line, start to end.
    public let centre: [Vec2]
    /// `along[i]`: the length of the centre line from the start to `centre[i]` (points).
    public let along: [Double]
    /// The left and right banks (seen going downstream), one point per sample.
    public let left: [Vec2], right: [Vec2]

    public init() {
        let w = Self.waypoints
        var points: [Vec2] = []
        let n = w.count
        for i in 0..<(n - 1) {
            let p0 = i == 0 ? w[0] * 2 - w[1] : w[i - 1]
            let p1 = w[i], p2 = w[i + 1]
            let p3 = i + 2 < n ? w[i + 2] : w[n - 1] * 2 - w[n - 2]
            for k in 0..<Self.samplesPerSpan {
                let t = Double(k) / Double(Self.samplesPerSpan)
                points.append(Self.catmullRom(p0, p1, p2, p3, t))
            }
        }
        points.append(w[n - 1])
        centre = points
        var lengths = [0.0]
        for i in 1..<points.count { lengths.append(lengths[i - 1] + (points[i] - points[i - 1]).length) }
        along = lengths
        var l: [Vec2] = [], r: [Vec2] = []
        for i in 0..<points.count {
            let a = points[max(0, i - 1)], b = points[min(points.count - 1, i + 1)]
            // y down: leftPerp of the heading points to the boat's right on screen; name by screen.
            let normal = (b - a).normalized.leftPerp
            r.append(points[i] + normal * Self.halfWidth)
            l.append(points[i] - normal * Self.halfWidth)
        }
        left = l
        right = r
    }

    static func catmullRom(_ p0: Vec2, _ p1: Vec2, _ p2: Vec2, _ p3: Vec2, _ t: Double) -> Vec2 {
        let t2 = t * t, t3 = t2 * t
        let a = p1 * 2
        let b = (p2 - p0) * t
        let c = (p0 * 2 - p1 * 5 + p2 * 4 - p3) * t2
        let d = (p1 * 3 - p0 - p2 * 3 + p3) * t3
        return (a + b + c + d) * 0.5
    }

    /// The length of the centre line (points).
    public var length: Double { along[along.count - 1] }

    /// The banks as one closed outline, wound so that the water is on every segment's colliding
    /// side (Physics2D chains are one-sided: shapes collide from the `rightPerp` side): the
    /// `right` bank downstream, then the `left` bank back up. The loop chain of the physics
    /// world, in points.
    public var outline: [Vec2] { right + left.reversed() }

    /// The point of the centre line nearest to `p`: its segment, the point, the distance from
    /// `p`, and how far along the river it is (points).
    public func nearest(_ p: Vec2) -> (segment: Int, point: Vec2, distance: Double, along: Double) {
        var best = (segment: 0, point: centre[0], distance: Double.infinity, along: 0.0)
        var bestSquared = Double.infinity
        for i in 0..<(centre.count - 1) {
            let a = centre[i], ab = centre[i + 1] - a
            let lengthSquared = ab.lengthSquared
            var t = lengthSquared > 0 ? ((p - a).x * ab.x + (p - a).y * ab.y) / lengthSquared : 0
            t = min(1, max(0, t))
            let q = a + ab * t
            let d = (p - q).lengthSquared
            if d < bestSquared {
                bestSquared = d
                best = (i, q, 0, along[i] + t * (along[i + 1] - along[i]))
            }
        }
        best.distance = bestSquared.squareRoot()
        return best
    }

    /// The downstream direction of segment `i` (a unit vector).
    public func direction(_ segment: Int) -> Vec2 {
        (centre[segment + 1] - centre[segment]).normalized
    }

    /// The point `s` points along the centre line (clamped to its ends).
    public func point(along s: Double) -> Vec2 {
        if s <= 0 { return centre[0] }
        if s >= length { return centre[centre.count - 1] }
        var lo = 0, hi = along.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if along[mid] <= s { lo = mid } else { hi = mid }
        }
        let span = along[hi] - along[lo]
        let t = span > 0 ? (s - along[lo]) / span : 0
        return centre[lo] + (centre[hi] - centre[lo]) * t
    }

    /// The downstream direction at `s` points along the river.
    public func direction(along s: Double) -> Vec2 {
        var lo = 0, hi = along.count - 1
        let c = min(max(s, 0), length)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if along[mid] <= c { lo = mid } else { hi = mid }
        }
        return direction(lo)
    }
}
