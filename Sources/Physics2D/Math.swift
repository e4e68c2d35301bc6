// Small 2D math types used by every part of the engine: vectors, rotations,
// rigid transforms and axis-aligned boxes. Everything is `Double`, so results
// do not depend on the platform's float flavour and stay deterministic.

/// A 2D vector (metres, metres per second, newtons...).
public struct Vec2: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public static let zero = Vec2(0, 0)

    public var description: String { "(\(x), \(y))" }

    @inlinable public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inlinable public static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    @inlinable public static func * (s: Double, a: Vec2) -> Vec2 { Vec2(s * a.x, s * a.y) }
    @inlinable public static func * (a: Vec2, s: Double) -> Vec2 { Vec2(s * a.x, s * a.y) }
    @inlinable public static func += (a: inout Vec2, b: Vec2) { a.x += b.x; a.y += b.y }
    @inlinable public static func -= (a: inout Vec2, b: Vec2) { a.x -= b.x; a.y -= b.y }

    /// Euclidean length.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// Squared length (no square root).
    @inlinable public var lengthSquared: Double { x * x + y * y }
    /// This vector scaled to length 1 (or zero when it is too short to have a direction).
    @inlinable public var normalized: Vec2 {
        let l = length
        return l < 1e-12 ? .zero : Vec2(x / l, y / l)
    }
    /// The vector turned a quarter turn counter-clockwise.
    @inlinable public var leftPerp: Vec2 { Vec2(-y, x) }
    /// The vector turned a quarter turn clockwise.
    @inlinable public var rightPerp: Vec2 { Vec2(y, -x) }
}

@inlinable func dot(_ a: Vec2, _ b: Vec2) -> Double { a.x * b.x + a.y * b.y }
@inlinable func cross(_ a: Vec2, _ b: Vec2) -> Double { a.x * b.y - a.y * b.x }
/// cross(vector, scalar): the vector turned clockwise and scaled.
@inlinable func cross(_ a: Vec2, _ s: Double) -> Vec2 { Vec2(s * a.y, -s * a.x) }
/// cross(scalar, vector): the vector turned counter-clockwise and scaled (ω × r).
@inlinable func cross(_ s: Double, _ a: Vec2) -> Vec2 { Vec2(-s * a.y, s * a.x) }
@inlinable func vmin(_ a: Vec2, _ b: Vec2) -> Vec2 { Vec2(min(a.x, b.x), min(a.y, b.y)) }
@inlinable func vmax(_ a: Vec2, _ b: Vec2) -> Vec2 { Vec2(max(a.x, b.x), max(a.y, b.y)) }
@inlinable func distanceSquared(_ a: Vec2, _ b: Vec2) -> Double { (a - b).lengthSquared }

/// A rotation stored as its cosine and sine.
public struct Rot: Equatable, Sendable {
    public var c: Double
    public var s: Double
    @inlinable public init(angle: Double) { (s, c) = PortableMath.sincos(angle) }
    @inlinable init(c: Double, s: Double) { self.c = c; self.s = s }
    public static let identity = Rot(c: 1, s: 0)
    /// Rotate a vector.
    @inlinable public func apply(_ v: Vec2) -> Vec2 { Vec2(c * v.x - s * v.y, s * v.x + c * v.y) }
    /// Rotate a vector by the inverse rotation.
    @inlinable public func applyInverse(_ v: Vec2) -> Vec2 { Vec2(c * v.x + s * v.y, -s * v.x + c * v.y) }
    /// The angle in radians, in (-π, π].
    public var angle: Double { _atan2(s, c) }
}

/// A rigid transform: rotate, then translate.
public struct Transform: Equatable, Sendable {
    public var p: Vec2
    public var q: Rot
    @inlinable public init(p: Vec2, q: Rot) { self.p = p; self.q = q }
    @inlinable public init(position: Vec2, angle: Double) { p = position; q = Rot(angle: angle) }
    public static let identity = Transform(p: .zero, q: .identity)
    /// Local point to world point.
    @inlinable public func apply(_ v: Vec2) -> Vec2 {
        Vec2(q.c * v.x - q.s * v.y + p.x, q.s * v.x + q.c * v.y + p.y)
    }
    /// World point to local point.
    @inlinable public func applyInverse(_ v: Vec2) -> Vec2 { q.applyInverse(v - p) }
}

/// An axis-aligned bounding box.
public struct AABB: Equatable, Sendable {
    public var lower: Vec2
    public var upper: Vec2
    @inlinable public init(lower: Vec2, upper: Vec2) { self.lower = lower; self.upper = upper }
    @inlinable public func overlaps(_ o: AABB) -> Bool {
        !(o.lower.x > upper.x || o.lower.y > upper.y || lower.x > o.upper.x || lower.y > o.upper.y)
    }
    @inlinable public func contains(_ o: AABB) -> Bool {
        lower.x <= o.lower.x && lower.y <= o.lower.y && o.upper.x <= upper.x && o.upper.y <= upper.y
    }
    @inlinable public func contains(point v: Vec2) -> Bool {
        v.x >= lower.x && v.x <= upper.x && v.y >= lower.y && v.y <= upper.y
    }
    @inlinable public func union(_ o: AABB) -> AABB { AABB(lower: vmin(lower, o.lower), upper: vmax(upper, o.upper)) }
    /// Half the perimeter... times two: the surface-area heuristic cost in 2D.
    @inlinable public var perimeter: Double { 2 * ((upper.x - lower.x) + (upper.y - lower.y)) }
    @inlinable public func expanded(by m: Double) -> AABB {
        AABB(lower: Vec2(lower.x - m, lower.y - m), upper: Vec2(upper.x + m, upper.y + m))
    }
}

// Trigonometry from PortableMath (plain Swift arithmetic), never the platform's libm: the
// native and the wasm builds must agree bit for bit (docs/playground.md).
@inlinable func _cos(_ x: Double) -> Double { PortableMath.cos(x) }
@inlinable func _sin(_ x: Double) -> Double { PortableMath.sin(x) }
@inlinable func _atan2(_ y: Double, _ x: Double) -> Double { PortableMath.atan2(y, x) }
