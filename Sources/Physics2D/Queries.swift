// World queries: shapes in a box, shapes under a point (for touching a body), ray casts.

/// The closest shape a ray hit.
public struct RayHit {
    public let shape: Shape
    /// World point where the ray enters the shape.
    public let point: Vec2
    /// Outward surface normal at that point.
    public let normal: Vec2
    /// Where along the ray, 0 at `from` and 1 at `to`.
    public let fraction: Double
}

extension World {
    /// Calls `visit` for every shape whose bounding box overlaps `box`; return false to stop.
    /// Shapes come in the broad phase's order.
    public func queryAABB(_ box: AABB, _ visit: (Shape) -> Bool) {
        tree.query(box) { proxy in
            guard let s = shape(forProxy: proxy), let b = s.body else { return true }
            if s.geometry.aabb(b.xf).overlaps(box) { return visit(s) }
            return true
        }
    }

    /// Shapes containing a world point (sensors included), sorted by id.
    public func shapes(at point: Vec2) -> [Shape] {
        var found: [Shape] = []
        queryAABB(AABB(lower: point, upper: point)) { s in
            if s.contains(worldPoint: point) { found.append(s) }
            return true
        }
        return found.sorted { $0.id < $1.id }
    }

    /// The first shape hit by the segment `from` → `to` (nil if none). `includeSensors` is off by default.
    public func rayCast(from p1: Vec2, to p2: Vec2, includeSensors: Bool = false) -> RayHit? {
        var best: RayHit?
        tree.rayCast(from: p1, to: p2, maxFraction: 1) { proxy, maxF in
            guard let s = shape(forProxy: proxy), let b = s.body else { return -1 }
            if s.isSensor && !includeSensors { return -1 }
            guard let (f, n) = s.geometry.rayCast(b.xf.applyInverse(p1), b.xf.applyInverse(p2), maxFraction: maxF) else { return -1 }
            // Ties (equal fractions) go to the lower shape id, so the answer does not depend on the tree.
            if let cur = best, f > cur.fraction || (f == cur.fraction && s.id > cur.shape.id) { return -1 }
            best = RayHit(shape: s, point: p1 + f * (p2 - p1), normal: b.xf.q.apply(n), fraction: f)
            return f
        }
        return best
    }
}

extension Geometry {
    /// Ray p1 → p2 in body coordinates; returns the entry fraction (≤ maxFraction) and the local normal.
    /// The polygon skin is not included: the ray hits the core outline.
    func rayCast(_ p1: Vec2, _ p2: Vec2, maxFraction: Double) -> (Double, Vec2)? {
        let d = p2 - p1
        switch self {
        case .circle(let c, let r):
            let s = p1 - c
            let b = dot(s, s) - r * r
            let cc = dot(s, d), rr = dot(d, d)
            let sigma = cc * cc - rr * b
            guard sigma >= 0, rr > 1e-24 else { return nil }
            let a = -(cc + sigma.squareRoot())
            guard a >= 0, a <= maxFraction * rr else { return nil }
            let f = a / rr
            return (f, (s + f * d).normalized)
        case .segment(let a, let b):
            let e = b - a
            let n0 = e.rightPerp.normalized
            let denom = dot(n0, d)
            guard abs(denom) > 1e-15 else { return nil }
            let t = dot(n0, a - p1) / denom
            guard t >= 0, t <= maxFraction else { return nil }
            let q = p1 + t * d
            let u = dot(q - a, e) / dot(e, e)
            guard u >= 0, u <= 1 else { return nil }
            return (t, denom > 0 ? -n0 : n0)
        case .polygon(let poly):
            var lower = 0.0, upper = maxFraction
            var index = -1
            for i in 0..<poly.vertices.count {
                // The ray is inside edge i's half-plane where numerator / denominator says.
                let numerator = dot(poly.normals[i], poly.vertices[i] - p1)
                let denominator = dot(poly.normals[i], d)
                if denominator == 0 {
                    if numerator < 0 { return nil }
                } else if denominator < 0 && numerator < lower * denominator {
                    lower = numerator / denominator
                    index = i
                } else if denominator > 0 && numerator < upper * denominator {
                    upper = numerator / denominator
                }
                if upper < lower { return nil }
            }
            guard index >= 0 else { return nil }   // starts inside
            return (lower, poly.normals[index])
        }
    }
}
