import Playground

/// Plain geometry for the map tests, written apart from Stage's paths so that the map is checked
/// against its own definition (Bézier formula, straight lines), not against the code that drives cars.
enum MapGeometry {
    /// B(t) = (1−t)³·a + 3t(1−t)²·b + 3t²(1−t)·c + t³·d, or the line's a + t·(d − a).
    static func point(_ segment: RoadSegment, _ t: Double) -> MapPoint {
        switch segment {
        case .line(let a, let d):
            return MapPoint(a.x + t * (d.x - a.x), a.y + t * (d.y - a.y))
        case .cubic(let a, let b, let c, let d):
            let u = 1 - t
            let (k0, k1, k2, k3) = (u * u * u, 3 * t * u * u, 3 * t * t * u, t * t * t)
            return MapPoint(k0 * a.x + k1 * b.x + k2 * c.x + k3 * d.x, k0 * a.y + k1 * b.y + k2 * c.y + k3 * d.y)
        }
    }

    /// The derivative dB/dt.
    static func derivative(_ segment: RoadSegment, _ t: Double) -> MapPoint {
        switch segment {
        case .line(let a, let d):
            return MapPoint(d.x - a.x, d.y - a.y)
        case .cubic(let a, let b, let c, let d):
            let u = 1 - t
            return MapPoint(3 * u * u * (b.x - a.x) + 6 * u * t * (c.x - b.x) + 3 * t * t * (d.x - c.x),
                            3 * u * u * (b.y - a.y) + 6 * u * t * (c.y - b.y) + 3 * t * t * (d.y - c.y))
        }
    }

    /// `perSegment` points of every segment plus the road's end, in driving order.
    static func samples(_ road: [RoadSegment], perSegment: Int) -> [MapPoint] {
        var points: [MapPoint] = []
        for segment in road {
            for k in 0..<perSegment { points.append(point(segment, Double(k) / Double(perSegment))) }
        }
        points.append(road[road.count - 1].end)
        return points
    }

    /// A car's pose along a road: its centre and unit heading, about every `step` points of arc
    /// (samples where the tangent vanishes, at a segment's end with a control on it, are skipped).
    static func poses(_ road: [RoadSegment], perSegment: Int) -> [(centre: MapPoint, heading: MapPoint)] {
        var poses: [(MapPoint, MapPoint)] = []
        for segment in road {
            for k in 0..<perSegment {
                let t = Double(k) / Double(perSegment)
                let d = derivative(segment, t)
                let length = (d.x * d.x + d.y * d.y).squareRoot()
                if length < 1e-9 { continue }
                poses.append((point(segment, t), MapPoint(d.x / length, d.y / length)))
            }
        }
        return poses
    }

    static func distance(_ p: MapPoint, _ q: MapPoint) -> Double {
        ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }

    /// Distance from `p` to the segment p0–p1.
    static func distance(_ p: MapPoint, toSegment p0: MapPoint, _ p1: MapPoint) -> Double {
        let (dx, dy) = (p1.x - p0.x, p1.y - p0.y)
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared == 0 ? 0 : ((p.x - p0.x) * dx + (p.y - p0.y) * dy) / lengthSquared
        t = min(max(t, 0), 1)
        return distance(p, MapPoint(p0.x + t * dx, p0.y + t * dy))
    }

    /// Distance from `p` to a road's centre line (a polyline of 4,000 points per segment: within
    /// a few thousandths of a point of the curve at these sizes).
    static func distance(_ p: MapPoint, toRoad road: [RoadSegment]) -> Double {
        let points = samples(road, perSegment: 4000)
        var best = Double.infinity
        for i in 0..<(points.count - 1) { best = min(best, distance(p, toSegment: points[i], points[i + 1])) }
        return best
    }

    /// Where two polylines cross.
    static func intersections(_ a: [MapPoint], _ b: [MapPoint]) -> [MapPoint] {
        var found: [MapPoint] = []
        for i in 0..<(a.count - 1) {
            let (p, r) = (a[i], MapPoint(a[i + 1].x - a[i].x, a[i + 1].y - a[i].y))
            for j in 0..<(b.count - 1) {
                let (q, s) = (b[j], MapPoint(b[j + 1].x - b[j].x, b[j + 1].y - b[j].y))
                let denominator = r.x * s.y - r.y * s.x
                if denominator == 0 { continue }
                let t = ((q.x - p.x) * s.y - (q.y - p.y) * s.x) / denominator
                let u = ((q.x - p.x) * r.y - (q.y - p.y) * r.x) / denominator
                if t >= 0, t < 1, u >= 0, u < 1 { found.append(MapPoint(p.x + t * r.x, p.y + t * r.y)) }
            }
        }
        return found
    }

    /// The corners of a car (length × width rectangle) centred on `centre`, its length along `heading`.
    static func corners(centre: MapPoint, heading: MapPoint, length: Double, width: Double) -> [MapPoint] {
        let side = MapPoint(-heading.y, heading.x)
        var result: [MapPoint] = []
        for (l, w) in [(-1.0, -1.0), (-1, 1), (1, -1), (1, 1)] {
            result.append(MapPoint(centre.x + l * heading.x * length / 2 + w * side.x * width / 2,
                                   centre.y + l * heading.y * length / 2 + w * side.y * width / 2))
        }
        return result
    }

    /// Whether two convex quadrilaterals overlap (separating axis test on their four edge normals).
    static func overlap(_ a: [MapPoint], axesA: [MapPoint], _ b: [MapPoint], axesB: [MapPoint]) -> Bool {
        for axis in axesA + axesB {
            let pa = a.map { $0.x * axis.x + $0.y * axis.y }
            let pb = b.map { $0.x * axis.x + $0.y * axis.y }
            if pa.max()! < pb.min()! || pb.max()! < pa.min()! { return false }
        }
        return true
    }
}
