// Points, rectangles and 2D affine matrices of the display tree (Sparrow's SPPoint, SPRectangle,
// SPMatrix). Everything is `Double`, like Physics2D, so native and wasm builds agree bit for bit;
// the draw list narrows to `Float` only when it writes a frame.

import Physics2D

/// A point or a vector in some display object's coordinate space (points, y down).
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    /// Distance between two points.
    @inlinable public static func distance(_ a: Point, _ b: Point) -> Double { (a - b).length }
}

/// An axis-aligned rectangle: origin (top-left, y down) and size.
public struct Rectangle: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let zero = Rectangle(x: 0, y: 0, width: 0, height: 0)
    @inlinable public var left: Double { x }
    @inlinable public var top: Double { y }
    @inlinable public var right: Double { x + width }
    @inlinable public var bottom: Double { y + height }
    /// True when `p` lies inside, left/top edges included, right/bottom edges excluded.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= x && p.y >= y && p.x < x + width && p.y < y + height
    }
    /// True when the rectangles overlap in an area (touching edges do not count).
    @inlinable public func intersects(_ r: Rectangle) -> Bool {
        r.x < right && r.right > x && r.y < bottom && r.bottom > y
    }
    /// The smallest rectangle holding both.
    @inlinable public func union(_ r: Rectangle) -> Rectangle {
        let l = min(x, r.x), t = min(y, r.y)
        return Rectangle(x: l, y: t, width: max(right, r.right) - l, height: max(bottom, r.bottom) - t)
    }
}

/// A 2D affine transform in Sparrow's convention: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`
/// (the draw list's six numbers, in this order).
public struct Matrix: Equatable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    @inlinable public init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, tx: Double = 0, ty: Double = 0) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = Matrix()

    /// The transform that applies `self` first, then `m` (Sparrow's `appendMatrix:`).
    @inlinable public func concatenated(_ m: Matrix) -> Matrix {
        Matrix(a: m.a * a + m.c * b, b: m.b * a + m.d * b,
               c: m.a * c + m.c * d, d: m.b * c + m.d * d,
               tx: m.a * tx + m.c * ty + m.tx, ty: m.b * tx + m.d * ty + m.ty)
    }
    /// `self` followed by a translation.
    @inlinable public func translated(_ dx: Double, _ dy: Double) -> Matrix {
        Matrix(a: a, b: b, c: c, d: d, tx: tx + dx, ty: ty + dy)
    }
    /// `self` followed by a scale about the origin.
    @inlinable public func scaled(_ sx: Double, _ sy: Double) -> Matrix {
        Matrix(a: a * sx, b: b * sy, c: c * sx, d: d * sy, tx: tx * sx, ty: ty * sy)
    }
    /// `self` followed by a rotation by `angle` radians (clockwise on screen, y down).
    public func rotated(_ angle: Double) -> Matrix {
        let cs = PortableMath.cos(angle), sn = PortableMath.sin(angle)
        return concatenated(Matrix(a: cs, b: sn, c: -sn, d: cs))
    }
    /// The determinant `a·d − b·c` (0: the transform collapses space and has no inverse).
    @inlinable public var determinant: Double { a * d - b * c }
    /// The inverse transform. A singular matrix (determinant 0: scaled to nothing) has none;
    /// it inverts to all zeros, mapping every point to the origin (hit tests skip such objects).
    public var inverted: Matrix {
        let det = determinant
        if det == 0 { return Matrix(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0) }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Matrix(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
    /// Applies the transform to a point.
    @inlinable public func transform(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }
    /// Applies the transform to a point given by its coordinates.
    @inlinable public func transform(x: Double, y: Double) -> Point {
        Point(a * x + c * y + tx, b * x + d * y + ty)
    }
    /// The axis-aligned bounds of rectangle `r` after the transform.
    public func bounds(of r: Rectangle) -> Rectangle {
        let p0 = transform(x: r.x, y: r.y), p1 = transform(x: r.right, y: r.y)
        let p2 = transform(x: r.x, y: r.bottom), p3 = transform(x: r.right, y: r.bottom)
        let l = min(min(p0.x, p1.x), min(p2.x, p3.x)), r = max(max(p0.x, p1.x), max(p2.x, p3.x))
        let t = min(min(p0.y, p1.y), min(p2.y, p3.y)), b = max(max(p0.y, p1.y), max(p2.y, p3.y))
        return Rectangle(x: l, y: t, width: r - l, height: b - t)
    }
}

/// Colours are `UInt32` `0xRRGGBBAA`, the draw list's format.
public enum Color {
    /// An opaque colour from `0xRRGGBB`.
    @inlinable public static func rgb(_ rgb: UInt32) -> UInt32 { (rgb << 8) | 0xFF }
    /// A colour from `0xRRGGBB` and an alpha 0…255.
    @inlinable public static func rgb(_ rgb: UInt32, alpha: UInt8) -> UInt32 { (rgb << 8) | UInt32(alpha) }
    public static let white: UInt32 = 0xFFFF_FFFF
    public static let black: UInt32 = 0x0000_00FF
}
