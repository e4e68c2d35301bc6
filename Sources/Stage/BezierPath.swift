// BezierPath: roads for things that move — chained cubic Bézier segments and straight lines,
// with arc-length parameterisation so a body can move along them at constant speed.
//
// Arc length: each segment's length is ∫|B'(t)|dt, integrated by adaptive Gauss–Legendre
// quadrature (5 points per interval; an interval is split in two until the two halves agree
// with the whole within 1e-12 of the segment's control-polygon length, at most 24 levels).
// Each cubic also keeps a table of the arc length at 32 equal steps of t; a distance is
// turned into a parameter by finding its table step and solving s(t) = d there by Newton's
// method, safeguarded by bisection, to 1e-9 points. Lines are exact. The tests hold lengths to
// a 100,000-sample polyline within 1e-6 (relative) and constant-speed motion within 0.1 %
// (docs/playground.md, "Tweens, jugglers and paths").

import Physics2D

/// One piece of a path.
public enum PathSegment: Equatable, Sendable {
    /// B(t) = (1−t)³·p0 + 3t(1−t)²·p1 + 3t²(1−t)·p2 + t³·p3: leaves p0 towards p1, arrives at
    /// p3 from the direction of p2.
    case cubic(Vec2, Vec2, Vec2, Vec2)
    /// The straight line from the first point to the second.
    case line(Vec2, Vec2)

    /// Where the segment starts.
    public var start: Vec2 {
        switch self {
        case .cubic(let p0, _, _, _): p0
        case .line(let a, _): a
        }
    }

    /// Where the segment ends.
    public var end: Vec2 {
        switch self {
        case .cubic(_, _, _, let p3): p3
        case .line(_, let b): b
        }
    }

    /// The point at parameter `t` (0…1).
    public func point(at t: Double) -> Vec2 {
        switch self {
        case .cubic(let p0, let p1, let p2, let p3):
            let u = 1 - t
            let b0 = u * u * u, b1 = 3 * t * u * u, b2 = 3 * t * t * u, b3 = t * t * t
            return Vec2(b0 * p0.x + b1 * p1.x + b2 * p2.x + b3 * p3.x,
                        b0 * p0.y + b1 * p1.y + b2 * p2.y + b3 * p3.y)
        case .line(let a, let b):
            return Vec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
        }
    }

    /// The derivative dB/dt at `t` (its length is the speed in points per unit of t).
    public func derivative(at t: Double) -> Vec2 {
        switch self {
        case .cubic(let p0, let p1, let p2, let p3):
            let u = 1 - t
            let d0 = 3 * u * u, d1 = 6 * u * t, d2 = 3 * t * t
            return Vec2(d0 * (p1.x - p0.x) + d1 * (p2.x - p1.x) + d2 * (p3.x - p2.x),
                        d0 * (p1.y - p0.y) + d1 * (p2.y - p1.y) + d2 * (p3.y - p2.y))
        case .line(let a, let b):
            return b - a
        }
    }

    /// The unit direction of travel at `t`. Where the derivative vanishes (a control point on
    /// its end point, as in the top road's first and last segments) the direction is the limit
    /// of the nearby directions; a segment with all points equal has direction (1, 0).
    public func tangent(at t: Double) -> Vec2 {
        let d = derivative(at: t)
        let scale = controlLength
        if scale == 0 { return Vec2(1, 0) }
        if d.length > 1e-9 * scale { return d.normalized }
        // B'(t) ≈ 0: step a little towards the inside of the segment and use the chord.
        let h = 1e-4
        let a = point(at: t - h < 0 ? 0 : t - h)
        let b = point(at: t + h > 1 ? 1 : t + h)
        let chord = b - a
        if chord.length > 1e-12 * scale { return chord.normalized }
        return (end - start).length > 0 ? (end - start).normalized : Vec2(1, 0)
    }

    /// The length of the control polygon (an upper bound of the arc length).
    public var controlLength: Double {
        switch self {
        case .cubic(let p0, let p1, let p2, let p3):
            (p1 - p0).length + (p2 - p1).length + (p3 - p2).length
        case .line(let a, let b):
            (b - a).length
        }
    }

    /// The segment run the other way.
    public var reversed: PathSegment {
        switch self {
        case .cubic(let p0, let p1, let p2, let p3): .cubic(p3, p2, p1, p0)
        case .line(let a, let b): .line(b, a)
        }
    }

    /// The arc length between parameters `a` and `b` (a ≤ b), by adaptive Gauss–Legendre.
    public func arcLength(from a: Double, to b: Double) -> Double {
        switch self {
        case .line(let p, let q):
            return (q - p).length * (b - a)
        case .cubic:
            if !(b > a) { return 0 }
            let tolerance = 1e-12 * (controlLength > 1 ? controlLength : 1)
            return adaptive(a, b, gauss(a, b), tolerance, depth: 0)
        }
    }

    private func adaptive(_ a: Double, _ b: Double, _ whole: Double, _ tolerance: Double,
                          depth: Int) -> Double {
        let m = 0.5 * (a + b)
        let left = gauss(a, m)
        let right = gauss(m, b)
        let sum = left + right
        let difference = sum - whole
        if depth >= 24 || (difference < 0 ? -difference : difference) <= tolerance { return sum }
        return adaptive(a, m, left, 0.5 * tolerance, depth: depth + 1)
            + adaptive(m, b, right, 0.5 * tolerance, depth: depth + 1)
    }

    /// 5-point Gauss–Legendre quadrature of |B'(t)| on [a, b] (exact for degree-9 polynomials).
    private func gauss(_ a: Double, _ b: Double) -> Double {
        let half = 0.5 * (b - a)
        let mid = 0.5 * (a + b)
        let x1 = 0.906_179_845_938_664_0, w1 = 0.236_926_885_056_189_1
        let x2 = 0.538_469_310_105_683_1, w2 = 0.478_628_670_499_366_5
        let w0 = 0.568_888_888_888_888_9
        var sum = w0 * derivative(at: mid).length
        sum += w1 * (derivative(at: mid - half * x1).length + derivative(at: mid + half * x1).length)
        sum += w2 * (derivative(at: mid - half * x2).length + derivative(at: mid + half * x2).length)
        return sum * half
    }
}

/// Why a path could not be built.
public enum PathError: Error, Equatable, Sendable {
    /// Segment `index` does not start where the previous one ends.
    case discontinuous(index: Int)
    /// A path needs at least one segment.
    case empty
}

/// A path of chained segments, each starting where the previous one ends.
///
/// Positions along it are given either by a parameter `t` in 0…1 (segment `i` of `n` covers
/// `i/n … (i+1)/n`, uniformly in each segment's own parameter — not uniform in distance) or by
/// a distance in points from the start, 0…`length` (uniform: constant speed).
public struct BezierPath: Sendable {
    /// The segments, in order.
    public private(set) var segments: [PathSegment] = []
    /// The path's total length in points.
    public private(set) var length: Double = 0

    /// The distance from the path's start to each segment's start; one more entry than segments.
    private var segmentStarts: [Double] = [0]
    /// For each cubic, its arc length at t = k/tableSteps, k = 0…tableSteps (empty for lines).
    private var tables: [[Double]] = []
    static let tableSteps = 32

    /// A path that starts at `start` and has no segments yet (add some with `addCubic`/`addLine`).
    public init(start: Vec2) {
        self.start = start
    }

    /// A path of `segments`, each of which must start where the previous one ends (within
    /// 1e-9 points).
    public init(segments: [PathSegment]) throws(PathError) {
        guard let first = segments.first else { throw .empty }
        start = first.start
        for (index, segment) in segments.enumerated() {
            if index > 0 && (segment.start - segments[index - 1].end).length > 1e-9 {
                throw .discontinuous(index: index)
            }
            append(segment)
        }
    }

    /// A straight path from `a` to `b`.
    public static func line(from a: Vec2, to b: Vec2) -> BezierPath {
        var path = BezierPath(start: a)
        path.addLine(to: b)
        return path
    }

    /// Where the path starts.
    public let start: Vec2

    /// Where the path ends (its start while it has no segments).
    public var end: Vec2 { segments.last?.end ?? start }

    /// Appends a cubic segment from the current end through controls `c1`, `c2` to `end`.
    public mutating func addCubic(control1 c1: Vec2, control2 c2: Vec2, end p3: Vec2) {
        append(.cubic(end, c1, c2, p3))
    }

    /// Appends a straight segment from the current end to `point`.
    public mutating func addLine(to point: Vec2) {
        append(.line(end, point))
    }

    private mutating func append(_ segment: PathSegment) {
        var table: [Double] = []
        var segmentLength: Double
        switch segment {
        case .line(let a, let b):
            segmentLength = (b - a).length
        case .cubic:
            let steps = BezierPath.tableSteps
            table.reserveCapacity(steps + 1)
            table.append(0)
            var total = 0.0
            for k in 0..<steps {
                total += segment.arcLength(from: Double(k) / Double(steps), to: Double(k + 1) / Double(steps))
                table.append(total)
            }
            segmentLength = total
        }
        segments.append(segment)
        tables.append(table)
        length += segmentLength
        segmentStarts.append(length)
    }

    /// The path run from its end to its start (a car going the other way along the same road).
    public var reversed: BezierPath {
        var path = BezierPath(start: end)
        for segment in segments.reversed() { path.append(segment.reversed) }
        return path
    }

    // MARK: by parameter

    /// The segment index and its local parameter for a path parameter `t` (clamped to 0…1).
    public func segmentParameter(at t: Double) -> (index: Int, t: Double) {
        let n = segments.count
        if n == 0 { return (0, 0) }
        let clamped = t < 0 ? 0 : (t > 1 ? 1 : t)
        let scaled = clamped * Double(n)
        var index = Int(scaled.rounded(.down))
        if index >= n { index = n - 1 }
        return (index, scaled - Double(index))
    }

    /// The point at path parameter `t` (0…1, see the type's note).
    public func point(at t: Double) -> Vec2 {
        if segments.isEmpty { return start }
        let (index, local) = segmentParameter(at: t)
        return segments[index].point(at: local)
    }

    /// The unit direction of travel at path parameter `t`.
    public func tangent(at t: Double) -> Vec2 {
        if segments.isEmpty { return Vec2(1, 0) }
        let (index, local) = segmentParameter(at: t)
        return segments[index].tangent(at: local)
    }

    /// The distance along the path from its start to parameter `t`.
    public func distance(at t: Double) -> Double {
        if segments.isEmpty { return 0 }
        let (index, local) = segmentParameter(at: t)
        return segmentStarts[index] + distanceInSegment(index, local)
    }

    // MARK: by distance

    /// The path parameter `t` at `distance` points from the start (clamped to 0…length).
    public func parameter(atDistance distance: Double) -> Double {
        let (index, local) = locate(distance)
        return (Double(index) + local) / Double(segments.count > 0 ? segments.count : 1)
    }

    /// The point `distance` points along the path from its start (clamped to 0…length).
    public func point(atDistance distance: Double) -> Vec2 {
        if segments.isEmpty { return start }
        let (index, local) = locate(distance)
        return segments[index].point(at: local)
    }

    /// The unit direction of travel `distance` points along the path.
    public func tangent(atDistance distance: Double) -> Vec2 {
        if segments.isEmpty { return Vec2(1, 0) }
        let (index, local) = locate(distance)
        return segments[index].tangent(at: local)
    }

    /// The segment and its local parameter `distance` points along the path.
    public func locate(_ distance: Double) -> (index: Int, t: Double) {
        let n = segments.count
        if n == 0 { return (0, 0) }
        if !(distance > 0) { return (0, 0) }
        if distance >= length { return (n - 1, 1) }
        // The last segment whose start is ≤ distance.
        var low = 0, high = n - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segmentStarts[mid] <= distance { low = mid } else { high = mid - 1 }
        }
        let index = low
        let within = distance - segmentStarts[index]
        switch segments[index] {
        case .line(let a, let b):
            let l = (b - a).length
            return (index, l > 0 ? min(1, within / l) : 0)
        case .cubic:
            return (index, solveCubic(index, within))
        }
    }

    private func distanceInSegment(_ index: Int, _ t: Double) -> Double {
        switch segments[index] {
        case .line(let a, let b):
            return (b - a).length * t
        case .cubic:
            let steps = BezierPath.tableSteps
            var k = Int((t * Double(steps)).rounded(.down))
            if k >= steps { k = steps - 1 }
            if k < 0 { k = 0 }
            let t0 = Double(k) / Double(steps)
            return tables[index][k] + segments[index].arcLength(from: t0, to: t)
        }
    }

    /// The local parameter of cubic `index` at arc length `s` from its start.
    private func solveCubic(_ index: Int, _ s: Double) -> Double {
        let table = tables[index]
        let segment = segments[index]
        let steps = BezierPath.tableSteps
        // The table step holding s.
        var low = 0, high = steps - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if table[mid] <= s { low = mid } else { high = mid - 1 }
        }
        let k = low
        let t0 = Double(k) / Double(steps)
        let t1 = Double(k + 1) / Double(steps)
        let s0 = table[k], s1 = table[k + 1]
        if !(s1 > s0) { return t0 }
        if s >= s1 { return t1 }
        var lo = t0, hi = t1
        var t = t0 + (s - s0) / (s1 - s0) * (t1 - t0)
        for _ in 0..<40 {
            let f = s0 + segment.arcLength(from: t0, to: t) - s
            if (f < 0 ? -f : f) <= 1e-9 { return t }
            if f > 0 { hi = t } else { lo = t }
            let speed = segment.derivative(at: t).length
            var next = speed > 0 ? t - f / speed : 0.5 * (lo + hi)
            if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
            t = next
            if hi - lo < 1e-15 { break }
        }
        return t
    }
}
