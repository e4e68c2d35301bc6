// Shapes: the collision geometry attached to a body, with material and filter.

/// Engine-wide tolerances (metres), the same values Box2D 2.x uses so that
/// figures can be compared directly.
public enum PhysicsSettings {
    /// Penetration allowed before the position solver pushes shapes apart.
    public static let linearSlop = 0.005
    /// Skin around polygons and segments: contacts form before the cores touch.
    public static let polygonRadius = 2 * linearSlop
    /// Margin of the broad phase's fat AABBs.
    public static let aabbMargin = 0.1
    /// How many steps of motion a re-inserted fat AABB reaches ahead.
    public static let aabbMultiplier = 4.0
    /// Largest position correction per position iteration.
    public static let maxLinearCorrection = 0.2
    /// Baumgarte factor of the position solver.
    public static let baumgarte = 0.2
    /// Below this approach speed (m/s) collisions are perfectly inelastic.
    public static let restitutionThreshold = 1.0
    /// A body whose speed stays below this (m/s) and below `angularSleepTolerance` accumulates sleep time.
    public static let linearSleepTolerance = 0.01
    /// Angular speed (rad/s) below which a body may sleep: 2°/s.
    public static let angularSleepTolerance = 2.0 / 180 * Double.pi
    /// An island falls asleep once every body in it has been slow this long (s).
    public static let timeToSleep = 0.5
    /// Largest translation of a body in one step (keeps explosions finite).
    public static let maxTranslation = 2.0
    /// Largest rotation of a body in one step.
    public static let maxRotation = 0.5 * Double.pi
    /// Angular error tolerated by joint limits (2°).
    public static let angularSlop = 2.0 / 180 * Double.pi
    /// Largest angular correction per position iteration (8°).
    public static let maxAngularCorrection = 8.0 / 180 * Double.pi
    /// Maximum number of polygon vertices.
    public static let maxPolygonVertices = 8
    /// Soft-step solver (`SolverKind.softStep`): stiffness of contacts (Hz; capped at a quarter
    /// of the sub-step rate), their damping ratio, and the fastest they push overlapping
    /// shapes apart (m/s) — Box2D v3's defaults.
    public static let contactHertz = 30.0
    public static let contactDampingRatio = 10.0
    public static let contactPushMaxVelocity = 3.0
    /// Soft step: shapes this close (m) already have contact points, so a contact the soft
    /// solve has pushed to exactly touching (separation 0) stays (Box2D v3's speculative
    /// distance, 4 × `linearSlop`); `World.speculativeDistance` starts at this.
    public static let speculativeDistance = 4 * linearSlop
}

/// Collision filtering: two shapes collide when each one's category is in the
/// other's mask, unless they share a group (positive: always collide, negative: never).
public struct Filter: Equatable, Sendable {
    public var categoryBits: UInt32
    public var maskBits: UInt32
    public var groupIndex: Int32
    public init(categoryBits: UInt32 = 1, maskBits: UInt32 = 0xFFFF_FFFF, groupIndex: Int32 = 0) {
        self.categoryBits = categoryBits; self.maskBits = maskBits; self.groupIndex = groupIndex
    }
    /// Whether shapes with these two filters may touch.
    public static func shouldCollide(_ a: Filter, _ b: Filter) -> Bool {
        if a.groupIndex == b.groupIndex && a.groupIndex != 0 { return a.groupIndex > 0 }
        return (a.maskBits & b.categoryBits) != 0 && (a.categoryBits & b.maskBits) != 0
    }
}

/// Errors raised when geometry is invalid.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
    case tooFewVertices(Int)
    case tooManyVertices(Int)
    case notConvex
    case degenerate
    /// A chain needs at least 2 vertices (3 for a loop).
    case tooFewChainVertices(Int)
    public var description: String {
        switch self {
        case .tooFewVertices(let n): return "a polygon needs at least 3 vertices (got \(n))"
        case .tooManyVertices(let n): return "a polygon has at most \(PhysicsSettings.maxPolygonVertices) vertices (got \(n))"
        case .notConvex: return "the polygon is not strictly convex and counter-clockwise"
        case .degenerate: return "the shape has no extent"
        case .tooFewChainVertices(let n): return "a chain needs at least 2 vertices, a loop 3 (got \(n))"
        }
    }
}

/// The geometry of a shape in body-local coordinates.
public enum Geometry: Equatable, Sendable {
    /// A circle of `radius` centred at `center`.
    case circle(center: Vec2, radius: Double)
    /// A convex polygon (3...8 vertices, counter-clockwise), with a skin of `PhysicsSettings.polygonRadius`.
    case polygon(Polygon)
    /// A two-sided line segment (zero mass), with the same skin as polygons.
    case segment(Vec2, Vec2)

    /// A box with half extents `hx`, `hy`, centred at `center` and turned by `angle`.
    public static func box(halfWidth hx: Double, halfHeight hy: Double, center: Vec2 = .zero, angle: Double = 0) -> Geometry {
        .polygon(Polygon.box(halfWidth: hx, halfHeight: hy, center: center, angle: angle))
    }
    /// A convex polygon; throws when the points are not strictly convex and counter-clockwise.
    public static func polygon(vertices: [Vec2]) throws(GeometryError) -> Geometry { .polygon(try Polygon(vertices: vertices)) }
}

/// A convex polygon with its outward edge normals.
public struct Polygon: Equatable, Sendable {
    public internal(set) var vertices: [Vec2]
    public internal(set) var normals: [Vec2]
    public internal(set) var centroid: Vec2

    /// Checks that the vertices are 3...8 points, strictly convex, counter-clockwise.
    public init(vertices: [Vec2]) throws(GeometryError) {
        let n = vertices.count
        if n < 3 { throw GeometryError.tooFewVertices(n) }
        if n > PhysicsSettings.maxPolygonVertices { throw GeometryError.tooManyVertices(n) }
        for i in 0..<n {
            let a = vertices[i], b = vertices[(i + 1) % n], c = vertices[(i + 2) % n]
            if (b - a).lengthSquared < 1e-12 { throw GeometryError.degenerate }
            if cross(b - a, c - b) <= 1e-12 { throw GeometryError.notConvex }
        }
        self.init(unchecked: vertices)
    }

    init(unchecked vertices: [Vec2]) {
        self.vertices = vertices
        let n = vertices.count
        normals = (0..<n).map { i in (vertices[(i + 1) % n] - vertices[i]).rightPerp.normalized }
        // Area-weighted centroid (triangle fan from the first vertex).
        var area = 0.0, c = Vec2.zero
        for i in 1..<(n - 1) {
            let e1 = vertices[i] - vertices[0], e2 = vertices[i + 1] - vertices[0]
            let a = 0.5 * cross(e1, e2)
            area += a
            c += (a / 3) * (e1 + e2)
        }
        centroid = area > 0 ? vertices[0] + (1 / area) * c : vertices[0]
    }

    /// An oriented box.
    public static func box(halfWidth hx: Double, halfHeight hy: Double, center: Vec2 = .zero, angle: Double = 0) -> Polygon {
        let q = Rot(angle: angle)
        let corners = [Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)].map { q.apply($0) + center }
        return Polygon(unchecked: corners)
    }
}

/// Mass, centre of mass (body-local) and rotational inertia about the body origin.
public struct MassData: Equatable, Sendable {
    public var mass: Double
    public var center: Vec2
    /// Rotational inertia about the body origin.
    public var inertia: Double
}

extension Geometry {
    /// Mass properties for a given density. Segments have no area and no mass.
    public func massData(density: Double) -> MassData {
        switch self {
        case .circle(let p, let r):
            let m = density * Double.pi * r * r
            return MassData(mass: m, center: p, inertia: m * (0.5 * r * r + p.lengthSquared))
        case .segment(let a, let b):
            return MassData(mass: 0, center: 0.5 * (a + b), inertia: 0)
        case .polygon(let poly):
            let v = poly.vertices
            let s = v[0]
            var area = 0.0, c = Vec2.zero, inertia = 0.0
            for i in 1..<(v.count - 1) {
                let e1 = v[i] - s, e2 = v[i + 1] - s
                let d = cross(e1, e2)
                let triArea = 0.5 * d
                area += triArea
                c += (triArea / 3) * (e1 + e2)
                let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
                let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
                inertia += (0.25 / 3) * d * (intx2 + inty2)
            }
            let mass = density * area
            let cRel = area > 0 ? (1 / area) * c : .zero
            let center = cRel + s
            // inertia is about s; move it to the centroid, then to the origin.
            let i0 = density * inertia - mass * cRel.lengthSquared + mass * center.lengthSquared
            return MassData(mass: mass, center: center, inertia: i0)
        }
    }

    /// The radius of the skin (circle radius, or the polygon skin).
    var radius: Double {
        switch self {
        case .circle(_, let r): return r
        default: return PhysicsSettings.polygonRadius
        }
    }

    /// The bounding box under a transform, skin included.
    func aabb(_ xf: Transform) -> AABB {
        switch self {
        case .circle(let p, let r):
            let c = xf.apply(p)
            return AABB(lower: Vec2(c.x - r, c.y - r), upper: Vec2(c.x + r, c.y + r))
        case .segment(let a, let b):
            let wa = xf.apply(a), wb = xf.apply(b)
            return AABB(lower: vmin(wa, wb), upper: vmax(wa, wb)).expanded(by: PhysicsSettings.polygonRadius)
        case .polygon(let poly):
            var lo = xf.apply(poly.vertices[0]), hi = lo
            for i in 1..<poly.vertices.count {
                let w = xf.apply(poly.vertices[i])
                lo = vmin(lo, w); hi = vmax(hi, w)
            }
            return AABB(lower: lo, upper: hi).expanded(by: PhysicsSettings.polygonRadius)
        }
    }

    /// Whether a body-local point lies inside the shape (skin excluded).
    func contains(localPoint p: Vec2) -> Bool {
        switch self {
        case .circle(let c, let r): return (p - c).lengthSquared <= r * r
        case .segment: return false
        case .polygon(let poly):
            for i in 0..<poly.vertices.count where dot(poly.normals[i], p - poly.vertices[i]) > 0 { return false }
            return true
        }
    }
}

/// Material and flags of a shape, given when it is attached to a body.
public struct ShapeDef: Sendable {
    public var geometry: Geometry
    public var density: Double = 1
    public var friction: Double = 0.6
    public var restitution: Double = 0
    public var filter = Filter()
    /// A sensor reports overlaps (begin/end events) and never pushes anything.
    public var isSensor = false
    public init(_ geometry: Geometry, density: Double = 1, friction: Double = 0.6, restitution: Double = 0,
                filter: Filter = Filter(), isSensor: Bool = false) {
        self.geometry = geometry; self.density = density; self.friction = friction
        self.restitution = restitution; self.filter = filter; self.isSensor = isSensor
    }
}

/// A shape attached to a body (Box2D's "fixture").
public final class Shape {
    /// The body this shape belongs to (nil once the body is gone). Not `weak` (Embedded
    /// Swift has none): the body clears it in its deinit.
    public internal(set) unowned(unsafe) var body: Body?
    public let geometry: Geometry
    public let density: Double
    public var friction: Double
    public var restitution: Double
    public let isSensor: Bool
    /// Changing the filter takes effect for new pairs; call `World.refilter(_:)` to re-examine existing contacts.
    public var filter: Filter
    /// Anything the game wants to attach.
    public var userData: AnyObject?
    /// Stable id, assigned by the world in creation order.
    public internal(set) var id: Int = -1
    var proxyId: Int32 = -1
    /// A static shape's leaf in the world's tree of static shapes (-1 for the others).
    var staticProxyId: Int32 = -1
    let radius: Double
    /// Polygon or segment core used by the narrow phase (nil for circles).
    let core: Polygon?
    /// Circle centre (body-local); unused for other kinds.
    let circleCenter: Vec2
    /// The core's vertices then its normals (2 × count), for the narrow phase and the
    /// bounding box; nil for circles. Freed in deinit.
    private let coreBuffer: UnsafeMutablePointer<Vec2>?
    /// The core as the narrow phase reads it (count 0 for circles).
    let coreRef: PolyRef
    /// For a segment of a chain: its neighbours (ghost vertices); nil for every other shape.
    let ghosts: ChainGhosts?
    /// The chain this shape is a segment of (nil for ordinary shapes). Not `weak`: the
    /// chain clears it in its deinit.
    public internal(set) unowned(unsafe) var chain: Chain?
    /// Whether this shape is one segment of a chain (one-sided, smooth across its vertices).
    public var isChainSegment: Bool { ghosts != nil }
    /// The type of the body (fixed for a body's life), read without the back reference.
    let bodyType: BodyType

    init(def: ShapeDef, body: Body, ghosts: ChainGhosts? = nil) {
        self.ghosts = ghosts
        bodyType = body.type
        self.body = body
        geometry = def.geometry
        density = def.density
        friction = def.friction
        restitution = def.restitution
        isSensor = def.isSensor
        filter = def.filter
        radius = def.geometry.radius
        switch def.geometry {
        case .circle(let c, _): core = nil; circleCenter = c
        case .polygon(let p): core = p; circleCenter = p.centroid
        case .segment(let a, let b): core = Polygon(unchecked: [a, b]); circleCenter = 0.5 * (a + b)
        }
        if let core {
            let n = core.vertices.count
            let buf = UnsafeMutablePointer<Vec2>.allocate(capacity: 2 * n)
            for i in 0..<n { (buf + i).initialize(to: core.vertices[i]); (buf + n + i).initialize(to: core.normals[i]) }
            coreBuffer = buf
            coreRef = PolyRef(vertices: buf, normals: buf + n, count: n)
        } else {
            let none = UnsafeMutablePointer<Vec2>(bitPattern: MemoryLayout<Vec2>.alignment)!
            coreBuffer = nil
            coreRef = PolyRef(vertices: none, normals: none, count: 0)
        }
    }

    deinit { coreBuffer?.deallocate() }

    /// The bounding box under a transform, skin included: the same figures as
    /// `geometry.aabb(_:)`, read from the core buffer (no array copies).
    func aabb(_ xf: Transform) -> AABB {
        let n = coreRef.count
        if n == 0 {
            let c = xf.apply(circleCenter), r = radius
            return AABB(lower: Vec2(c.x - r, c.y - r), upper: Vec2(c.x + r, c.y + r))
        }
        let v = coreRef.vertices
        var lo = xf.apply(v[0]), hi = lo
        for i in 1..<n {
            let w = xf.apply(v[i])
            lo = vmin(lo, w); hi = vmax(hi, w)
        }
        return AABB(lower: lo, upper: hi).expanded(by: PhysicsSettings.polygonRadius)
    }

    /// Whether a world point lies inside this shape.
    public func contains(worldPoint p: Vec2) -> Bool {
        guard let body else { return false }
        return geometry.contains(localPoint: body.transform.applyInverse(p))
    }
}
