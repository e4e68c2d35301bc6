// What the world reports about contacts: begin/end (with the manifold and approach speed
// at the start of a touch) and post-solve (the impulses the solver applied in a step).
// Events are queued during the step and delivered after it with the world locked.

/// One point of a contact in world coordinates.
public struct ContactPoint: Equatable, Sendable {
    /// World position, midway between the two surfaces.
    public var point: Vec2
    /// Distance between the surfaces along the normal (negative: they overlap). Polygons and
    /// segments count their 0.01 m skin (`PhysicsSettings.polygonRadius`) as surface.
    public var separation: Double
    /// Impulse along the normal the solver applied at this point in the step (N·s; always ≥ 0).
    /// Zero in begin events (nothing has been solved yet).
    public var normalImpulse: Double
    /// Friction impulse along the tangent `normal.rightPerp` applied in the step (N·s); at most
    /// `friction × normalImpulse` in size. Zero in begin events.
    public var tangentImpulse: Double

    /// Makes a point (tests and tools; the world fills these in itself).
    public init(point: Vec2, separation: Double, normalImpulse: Double = 0, tangentImpulse: Double = 0) {
        self.point = point
        self.separation = separation
        self.normalImpulse = normalImpulse
        self.tangentImpulse = tangentImpulse
    }
}

/// The 0, 1 or 2 points of a contact, without an array allocation: `for p in event.points`,
/// `event.points.count`, `event.points[0]`.
public struct ContactPoints: RandomAccessCollection, Equatable, Sendable {
    /// Number of points (0 for end events and sensor events, otherwise 1 or 2).
    public let count: Int
    private let p0: ContactPoint
    private let p1: ContactPoint

    static let empty = ContactPoints(count: 0, p0: .zeroPoint, p1: .zeroPoint)

    init(count: Int, p0: ContactPoint, p1: ContactPoint) {
        self.count = count; self.p0 = p0; self.p1 = p1
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of points.
    public var endIndex: Int { count }
    /// The point at `i` (0 or 1, below `count`).
    public subscript(i: Int) -> ContactPoint {
        precondition(i >= 0 && i < count, "contact point index out of range")
        return i == 0 ? p0 : p1
    }
}

extension ContactPoint {
    static let zeroPoint = ContactPoint(point: .zero, separation: 0)
}

/// What the world reports when two shapes start or stop touching (`World.onBeginContact`,
/// `World.onEndContact`).
///
/// A begin event of a non-sensor pair carries the contact as it was found at the start of the
/// step in which the shapes began to touch: the world normal (from A to B), the contact points,
/// and how fast the shapes were approaching each other there (before the step's solve, so a
/// game can scale an impact sound or damage by it). End events and sensor events carry only
/// the shapes (no points, a zero normal, approach speed 0).
public struct ContactEvent {
    /// The first shape; `normal` points away from it.
    public let shapeA: Shape
    /// The second shape.
    public let shapeB: Shape
    /// True when either shape is a sensor (an overlap, no collision response).
    public let isSensor: Bool
    /// Unit normal from shape A towards shape B in world coordinates (zero when there are no points).
    public let normal: Vec2
    /// The contact points, in world coordinates (begin events of non-sensor pairs only).
    public let points: ContactPoints
    /// Largest closing speed over the points when the touch began, in m/s: the relative velocity
    /// of B with respect to A at the point, along −normal. Positive when the shapes were
    /// approaching; zero or negative if they touched while sliding or moving apart.
    /// 0 for end and sensor events.
    public let approachSpeed: Double
    /// The body of shape A (nil once it has left the world).
    public var bodyA: Body? { shapeA.body }
    /// The body of shape B (nil once it has left the world).
    public var bodyB: Body? { shapeB.body }

    /// An event without points (end events, sensors).
    init(shapeA: Shape, shapeB: Shape, isSensor: Bool) {
        self.shapeA = shapeA; self.shapeB = shapeB; self.isSensor = isSensor
        normal = .zero; points = .empty; approachSpeed = 0
    }

    init(shapeA: Shape, shapeB: Shape, isSensor: Bool, normal: Vec2, points: ContactPoints, approachSpeed: Double) {
        self.shapeA = shapeA; self.shapeB = shapeB; self.isSensor = isSensor
        self.normal = normal; self.points = points; self.approachSpeed = approachSpeed
    }
}

/// The impulses the solver applied to one touching contact in one step (`World.onPostSolve`),
/// like Box2D's `b2ContactImpulse`. Reported for every touching, non-sensor contact with an
/// awake body, once per step (per sub-step with `step(_:subSteps:)`).
///
/// Normal and points are where the impulses were applied: the contact as the solver prepared
/// it, at the bodies' positions before the step moved them. The impulse on B is
/// `Σ (normalImpulse · normal + tangentImpulse · normal.rightPerp)` over the points (A gets
/// the opposite); divide by the step's `dt` for the average force.
public struct PostSolveEvent {
    /// The first shape; `normal` points away from it.
    public let shapeA: Shape
    /// The second shape.
    public let shapeB: Shape
    /// Unit normal from shape A towards shape B in world coordinates.
    public let normal: Vec2
    /// The contact points with the normal and tangent impulses applied at each.
    public let points: ContactPoints
    /// The body of shape A (nil once it has left the world).
    public var bodyA: Body? { shapeA.body }
    /// The body of shape B (nil once it has left the world).
    public var bodyB: Body? { shapeB.body }
    /// Sum of the normal impulses over the points (N·s).
    public var totalNormalImpulse: Double { points.reduce(0) { $0 + $1.normalImpulse } }
    /// Largest normal impulse at a single point (N·s): a measure of how hard the hit was.
    public var maxNormalImpulse: Double { points.reduce(0) { max($0, $1.normalImpulse) } }
}

extension World {
    /// The event for a contact that just started (`begin`) or stopped touching. A begin of a
    /// non-sensor pair gets its world manifold and approach speed, computed from the bodies'
    /// current transforms and velocities (start of the step); this runs only when the touch
    /// changes and a begin handler is set.
    func contactEvent(_ c: Contact, begin: Bool) -> ContactEvent {
        guard begin, !c.isSensor, onBeginContact != nil, c.manifold.pointCount > 0 else {
            return ContactEvent(shapeA: c.shapeA, shapeB: c.shapeB, isSensor: c.isSensor)
        }
        let a = c.bodyA, b = c.bodyB
        let wm = WorldManifold(c.manifold, a.xf, c.shapeA.radius, b.xf, c.shapeB.radius)
        let n = wm.normal
        var speed = -Double.infinity
        for i in 0..<c.manifold.pointCount {
            let p = i == 0 ? wm.point0 : wm.point1
            let vRel = b.velocity(atWorldPoint: p) - a.velocity(atWorldPoint: p)
            speed = max(speed, -dot(vRel, n))
        }
        let points = ContactPoints(count: c.manifold.pointCount,
                                   p0: ContactPoint(point: wm.point0, separation: wm.separation0),
                                   p1: c.manifold.pointCount > 1 ? ContactPoint(point: wm.point1, separation: wm.separation1) : .zeroPoint)
        return ContactEvent(shapeA: c.shapeA, shapeB: c.shapeB, isSensor: false, normal: n, points: points,
                            approachSpeed: speed)
    }

    /// Queues a post-solve event for every solved contact constraint of either solver, only
    /// when `onPostSolve` is set: the legacy step calls it after the velocity iterations, the
    /// soft step after its sub-steps; both before the bodies are written back (their
    /// transforms are still the ones the constraints were prepared with).
    func queuePostSolve<C: SolvedContactConstraint>(_ constraints: [C], _ contacts: [Contact]) {
        for cc in constraints {
            let c = contacts[cc.contact]
            let a = c.bodyA, b = c.bodyB
            let wm = WorldManifold(c.manifold, a.xf, c.shapeA.radius, b.xf, c.shapeB.radius)
            let count = cc.reportedPointCount
            let (n0, t0, n1, t1) = cc.reportedImpulses
            let p0 = ContactPoint(point: wm.point0, separation: wm.separation0, normalImpulse: n0, tangentImpulse: t0)
            let p1 = count < 2 ? ContactPoint.zeroPoint
                : ContactPoint(point: wm.point1, separation: wm.separation1, normalImpulse: n1, tangentImpulse: t1)
            pendingPostSolve.append(PostSolveEvent(shapeA: c.shapeA, shapeB: c.shapeB, normal: cc.normal,
                                                   points: ContactPoints(count: count, p0: p0, p1: p1)))
        }
    }

    /// Delivers the queued post-solve events (called by `deliverEvents`, world locked).
    func deliverPostSolve() {
        var events: [PostSolveEvent] = []
        swap(&events, &pendingPostSolve)
        for e in events { onPostSolve?(e) }
        // Hand the emptied buffer back so the next step appends without reallocating.
        events.removeAll(keepingCapacity: true)
        if pendingPostSolve.isEmpty { swap(&events, &pendingPostSolve) }
    }
}
