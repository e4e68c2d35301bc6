// Chains: static terrain made of many segments (the ground of a car game, the shore of
// a lake) that bodies slide across without catching on the vertices between segments.
//
// A chain is not a shape of its own: `World.createChain` attaches one segment shape per
// edge, and each segment remembers its neighbours' far vertices ("ghost vertices", as in
// Box2D). The narrow phase uses them so that a contact never pushes sideways on an
// internal vertex: a normal that a neighbour would not allow (anything but the edge's own
// normal at a flat or concave joint) is replaced by the edge normal, and a vertex shared by
// two segments belongs to one of them only. Chain segments are one-sided: they collide
// with shapes whose centre is on their right-hand side (the side `rightPerp` of the
// direction v(i) → v(i+1) points to, like the outward normals of a counter-clockwise
// polygon) and let shapes coming from the other side through.

/// The description of a chain: a polyline (open) or a closed loop of segments.
///
/// Segments are one-sided: the solid side is to the left of the direction of travel and
/// shapes collide from the right (`rightPerp` of `vertices[i+1] - vertices[i]`). So a ground
/// polyline is listed from right to left (the right side of a leftward edge is up), a
/// counter-clockwise loop keeps bodies outside (a solid island), and a clockwise loop keeps
/// them inside (a lake shore, a container).
public struct ChainDef: Sendable {
    /// The vertices in body coordinates (at least 2; 3 for a loop). Consecutive vertices
    /// must differ.
    public var vertices: [Vec2]
    /// Whether the last vertex connects back to the first.
    public var isLoop: Bool
    /// Friction of every segment (mixed with the other shape's as `sqrt(fa·fb)`).
    public var friction: Double = 0.6
    /// Restitution of every segment (the larger of the two shapes' is used).
    public var restitution: Double = 0
    /// Collision filter of every segment.
    public var filter = Filter()
    /// A chain through `vertices`; see the type's description for the collision side.
    public init(vertices: [Vec2], isLoop: Bool = false, friction: Double = 0.6, restitution: Double = 0,
                filter: Filter = Filter()) {
        self.vertices = vertices; self.isLoop = isLoop
        self.friction = friction; self.restitution = restitution; self.filter = filter
    }
}

/// A chain attached to a body: its segment shapes, one per edge, in order.
public final class Chain {
    /// The body the chain belongs to (nil once the body is gone). Not `weak` (Embedded
    /// Swift has none): the body clears it in its deinit.
    public internal(set) unowned(unsafe) var body: Body?
    /// The vertices the chain was made from (body coordinates).
    public let vertices: [Vec2]
    /// Whether the chain is closed.
    public let isLoop: Bool
    /// One segment shape per edge: `shapes[i]` runs from `vertices[i]` to `vertices[i + 1]`
    /// (the last one of a loop back to `vertices[0]`).
    public internal(set) var shapes: [Shape] = []

    init(vertices: [Vec2], isLoop: Bool, body: Body) {
        self.vertices = vertices; self.isLoop = isLoop; self.body = body
    }

    // The segments' back references to the chain must not outlive it.
    deinit { for s in shapes { s.chain = nil } }
}

/// The neighbours of one chain segment (body coordinates), precomputed for the narrow phase.
/// A class, so that every other shape pays only a nil reference for it.
final class ChainGhosts {
    /// The vertex before the segment's start, and the vertex after its end.
    let prev: Vec2
    let next: Vec2
    let hasPrev: Bool
    let hasNext: Bool
    /// Collision normals of the previous and the next segment.
    let prevNormal: Vec2
    let nextNormal: Vec2
    /// Whether the joint at the start (end) is convex seen from the collision side.
    let convexStart: Bool
    let convexEnd: Bool

    init(v1: Vec2, v2: Vec2, prev: Vec2?, next: Vec2?) {
        let e = (v2 - v1).normalized
        self.prev = prev ?? v1; self.next = next ?? v2
        hasPrev = prev != nil; hasNext = next != nil
        let e0 = (v1 - self.prev).normalized, e2 = (self.next - v2).normalized
        prevNormal = hasPrev ? e0.rightPerp : e.rightPerp
        nextNormal = hasNext ? e2.rightPerp : e.rightPerp
        // Turning left (counter-clockwise, as around a counter-clockwise polygon) at a joint
        // makes it convex on the right-hand (collision) side.
        convexStart = hasPrev && cross(e0, e) > ChainGhosts.flatTolerance
        convexEnd = hasNext && cross(e, e2) > ChainGhosts.flatTolerance
    }

    /// Sine of the angle below which a joint counts as flat (and a normal as the edge's).
    static let flatTolerance = 1e-3
}

extension World {
    /// Attaches a chain of one-sided segments to a body (normally a static one), one segment
    /// shape per edge; returns the chain with its shapes. Chain segments have no mass, cannot be
    /// sensors, and carry the def's friction, restitution and filter. Throws
    /// `GeometryError.tooFewChainVertices` or `.degenerate` (two equal consecutive vertices).
    @discardableResult
    public func createChain(on body: Body, _ def: ChainDef) throws(GeometryError) -> Chain {
        precondition(body.world === self, "the body is not in this world")
        let v = def.vertices, n = v.count
        if n < 2 || (def.isLoop && n < 3) { throw GeometryError.tooFewChainVertices(n) }
        let edges = def.isLoop ? n : n - 1
        for i in 0..<edges where (v[(i + 1) % n] - v[i]).lengthSquared < 1e-12 { throw GeometryError.degenerate }
        let chain = Chain(vertices: v, isLoop: def.isLoop, body: body)
        for i in 0..<edges {
            let a = v[i], b = v[(i + 1) % n]
            let prev: Vec2? = def.isLoop ? v[(i + n - 1) % n] : (i > 0 ? v[i - 1] : nil)
            let next: Vec2? = def.isLoop ? v[(i + 2) % n] : (i + 2 < n ? v[i + 2] : nil)
            let shapeDef = ShapeDef(.segment(a, b), density: 0, friction: def.friction,
                                    restitution: def.restitution, filter: def.filter, isSensor: false)
            let s = Shape(def: shapeDef, body: body, ghosts: ChainGhosts(v1: a, v2: b, prev: prev, next: next))
            s.chain = chain
            insertShape(s, on: body)
            chain.shapes.append(s)
        }
        body.chainList.append(chain)
        return chain
    }
}

extension Collide {
    /// A chain segment A (one-sided, with ghost vertices) against circle B.
    static func chainCircle(_ seg: PolyRef, _ g: ChainGhosts, _ xfA: Transform,
                            _ pB: Vec2, _ rB: Double, _ xfB: Transform, margin: Double = 0) -> Manifold {
        let c = xfA.applyInverse(xfB.apply(pB))
        let v1 = seg.vertices[0], v2 = seg.vertices[1], n = seg.normals[0]
        let offset = dot(n, c - v1)
        let r = PhysicsSettings.polygonRadius + rB + margin
        // One-sided: a centre behind the line does not collide.
        if offset < 0 || offset > r { return Manifold() }
        let e = v2 - v1
        let u = dot(c - v1, e)
        var m = Manifold()
        m.type = .faceA
        m.pointCount = 1
        m.p0 = ManifoldPoint(localPoint: pB, id: 0)
        if u <= 0 {
            // The start vertex: the previous segment owns it when the centre is over its face.
            if g.hasPrev && dot(v1 - g.prev, v1 - c) > 0 { return Manifold() }
            let d = c - v1
            if d.lengthSquared > r * r { return Manifold() }
            m.localNormal = d.lengthSquared > 1e-24 ? d.normalized : n
            m.localPoint = v1
        } else if u >= dot(e, e) {
            // The end vertex belongs to the next segment (as its start) when there is one.
            if g.hasNext { return Manifold() }
            let d = c - v2
            if d.lengthSquared > r * r { return Manifold() }
            m.localNormal = d.lengthSquared > 1e-24 ? d.normalized : n
            m.localPoint = v2
        } else {
            m.localNormal = n
            m.localPoint = 0.5 * (v1 + v2)
        }
        return m
    }

    /// A chain segment A against polygon (or segment) B whose centroid is `centroidB` (body B's
    /// coordinates). SAT over the edge normal (one side only) and B's normals; B's face is the
    /// reference only when its normal is one the chain allows at this segment, otherwise the
    /// segment's own face is, so an internal vertex never pushes sideways.
    static func chainPolygon(_ seg: PolyRef, _ g: ChainGhosts, _ xfA: Transform,
                             _ polyB: PolyRef, _ centroidB: Vec2, _ xfB: Transform, margin: Double = 0) -> Manifold {
        let totalR = 2 * PhysicsSettings.polygonRadius + margin
        let v1 = seg.vertices[0], v2 = seg.vertices[1], n = seg.normals[0]
        if dot(n, xfA.applyInverse(xfB.apply(centroidB)) - v1) < 0 { return Manifold() }
        // B in A's frame.
        let q = Rot(c: xfA.q.c * xfB.q.c + xfA.q.s * xfB.q.s, s: xfA.q.c * xfB.q.s - xfA.q.s * xfB.q.c)
        let t = xfA.q.applyInverse(xfB.p - xfA.p)
        var sepEdge = Double.greatestFiniteMagnitude
        var edgeB = 0, sepB = -Double.greatestFiniteMagnitude
        for i in 0..<polyB.count {
            let p = q.apply(polyB.vertices[i]) + t
            let s = dot(n, p - v1)
            if s < sepEdge { sepEdge = s }
            let nb = q.apply(polyB.normals[i])
            let si = min(dot(nb, v1 - p), dot(nb, v2 - p))
            if si > sepB { sepB = si; edgeB = i }
        }
        if sepEdge > totalR || sepB > totalR { return Manifold() }
        if sepB > sepEdge + 0.1 * PhysicsSettings.linearSlop
            && allows(-q.apply(polyB.normals[edgeB]), seg, g) {
            return clipped(reference: polyB, xfB, edge: edgeB, incident: seg, xfA, flip: true, margin: margin)
        }
        return clipped(reference: seg, xfA, edge: 0, incident: polyB, xfB, flip: false, margin: margin)
    }

    /// Whether `m` (A's frame, pointing from the segment to the other shape) is a normal the
    /// chain allows at this segment: its own normal, or at a convex joint a normal between it
    /// and the neighbour's; at an open end of the chain anything goes.
    static func allows(_ m: Vec2, _ seg: PolyRef, _ g: ChainGhosts) -> Bool {
        let n = seg.normals[0]
        let tol = ChainGhosts.flatTolerance
        if abs(cross(m, n)) <= tol && dot(m, n) > 0 { return true }
        let tangent = seg.vertices[1] - seg.vertices[0]
        if dot(m, tangent) < 0 {
            guard g.hasPrev else { return true }
            guard g.convexStart else { return false }
            return cross(g.prevNormal, m) >= -tol && cross(m, n) >= -tol
        } else {
            guard g.hasNext else { return true }
            guard g.convexEnd else { return false }
            return cross(n, m) >= -tol && cross(m, g.nextNormal) >= -tol
        }
    }
}
