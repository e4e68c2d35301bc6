// Continuous collision: fast bodies are swept against static shapes after the position
// update and moved back to their first time of impact, so they cannot tunnel through
// thin walls.
//
// The time of impact is found by conservative advancement on the distance between the
// shapes' cores: at the current time t the closest points give a distance d and a unit
// normal n, and no point of the moving shape approaches the static one faster than
// dot(Δc, n) + |Δa|·r (Δc, Δa: the step's motion of the centre and the angle; r: the largest
// distance of a core point from the centre of mass), so t can advance by
// (d − target) / that bound without passing the impact. Without rotation the distance along
// a straight sweep is a convex function of t and this is Newton's method from the left: it
// never overshoots and converges in a few iterations. The target distance is Box2D's
// (`max(slop, rA + rB − 3·slop)`), so the body stops with its skins overlapping by about
// 3·slop and the next step's contact solver takes over.

/// A fast body of the current step: its index and its pose before the step.
struct Sweep {
    let index: Int
    let c0: Vec2
    let a0: Double
}

/// A shape's core in world coordinates, for the distance routine.
struct WorldCore {
    var points: [Vec2] = []
    var normals: [Vec2] = []

    init() {}

    /// The core of `shape` under `xf`: its polygon or segment vertices, or its circle's centre.
    init(_ shape: Shape, _ xf: Transform) { set(shape, xf) }

    mutating func set(_ shape: Shape, _ xf: Transform) {
        points.removeAll(keepingCapacity: true)
        normals.removeAll(keepingCapacity: true)
        let core = shape.coreRef
        if core.count == 0 {
            points.append(xf.apply(shape.circleCenter))
            return
        }
        for i in 0..<core.count {
            points.append(xf.apply(core.vertices[i]))
            normals.append(xf.q.apply(core.normals[i]))
        }
    }

    /// Edge i: from points[i] to the next point (a point core has one degenerate edge, a
    /// segment one edge).
    var edgeCount: Int { points.count <= 2 ? 1 : points.count }
    func edge(_ i: Int) -> (Vec2, Vec2) {
        (points[i], points[points.count == 1 ? 0 : (i + 1) % points.count])
    }
}

/// The closest point to `p` on the segment a–b.
@inline(__always) private func closestPoint(_ p: Vec2, _ a: Vec2, _ b: Vec2) -> Vec2 {
    let e = b - a
    let ee = dot(e, e)
    if ee < 1e-24 { return a }
    let u = min(1, max(0, dot(p - a, e) / ee))
    return a + u * e
}

/// Whether the largest separation along `axes` is positive (a separating axis exists).
private func separated(_ axesOf: WorldCore, _ other: WorldCore) -> Bool {
    for i in 0..<axesOf.normals.count {
        let n = axesOf.normals[i], v = axesOf.points[i]
        var smallest = Double.greatestFiniteMagnitude
        for p in other.points { smallest = min(smallest, dot(n, p - v)) }
        if smallest > 0 { return true }
    }
    return false
}

/// Distance between two convex cores and the unit normal from A's closest point to B's
/// (distance 0 when the cores overlap).
private func coreDistance(_ a: WorldCore, _ b: WorldCore) -> (Double, Vec2) {
    if a.points.count > 1 || b.points.count > 1 {
        if !separated(a, b) && !separated(b, a) { return (0, .zero) }
    }
    var best = Double.greatestFiniteMagnitude, normal = Vec2.zero
    for p in a.points {
        for j in 0..<b.edgeCount {
            let (e0, e1) = b.edge(j)
            let q = closestPoint(p, e0, e1)
            let d2 = distanceSquared(p, q)
            if d2 < best { best = d2; normal = q - p }
        }
    }
    for p in b.points {
        for j in 0..<a.edgeCount {
            let (e0, e1) = a.edge(j)
            let q = closestPoint(p, e0, e1)
            let d2 = distanceSquared(p, q)
            if d2 < best { best = d2; normal = p - q }
        }
    }
    let d = best.squareRoot()
    return (d, d > 1e-12 ? (1 / d) * normal : .zero)
}

extension World {
    /// Before the write-back of a step: records the dynamic bodies that moved farther than
    /// `share` of their smallest extent (bullets: farther than the slop), with their pose
    /// before the step. One comparison per awake dynamic body; nothing else runs when no body
    /// is fast. The legacy step sweeps past the whole extent; the soft step past half of it
    /// (Box2D v3's safety factor): its contacts keep points only within the speculative
    /// distance, so a body arriving at a wall faster than that per step needs the sweep.
    func findFastBodies(_ solved: UnsafeMutableBufferPointer<SolverBody>, share: Double) {
        sweeps.removeAll(keepingCapacity: true)
        let slop2 = PhysicsSettings.linearSlop * PhysicsSettings.linearSlop
        for k in 0..<bodies.count {
            unowned(unsafe) let b = bodies[k]  // the array keeps it alive; no retain
            guard b.type == .dynamic && b.awake else { continue }
            let d2 = (solved[k].c - b.center).lengthSquared
            let turn = abs(solved[k].a - b.angleValue) * b.ccdRadius
            let e = share * b.ccdExtent
            let fast = b.isBulletValue
                ? d2 > slop2 || turn > PhysicsSettings.linearSlop
                : d2 > e * e || turn > e
            if fast { sweeps.append(Sweep(index: k, c0: b.center, a0: b.angleValue)) }
        }
    }

    /// After the write-back: sweeps each fast body from its pose before the step to its pose
    /// now against the static shapes its swept box overlaps (a bullet also against non-bullet
    /// dynamic bodies, held at their end-of-step pose), and moves it back to the earliest time
    /// of impact (velocities are kept; the next step's contacts stop it).
    func solveContinuous() {
        var moving = WorldCore(), fixed = WorldCore()
        let proxyShapes = self.proxyShapes  // a local: no exclusivity check per candidate
        for sweep in sweeps {
            let b = bodies[sweep.index]
            let c0 = sweep.c0, a0 = sweep.a0, c1 = b.center, a1 = b.angleValue
            let lc = b.localCenter
            let q0 = Rot(angle: a0)
            let xf0 = Transform(p: c0 - q0.apply(lc), q: q0)
            var box: AABB?
            for s in b.shapeList where !s.isSensor {
                let swept = s.aabb(xf0).union(s.aabb(b.xf))
                box = box.map { $0.union(swept) } ?? swept
            }
            guard let box else { continue }
            var tMin = 1.0
            let bullet = b.isBulletValue
            // Static shapes for every fast body, from the tree of static shapes; a bullet also
            // meets non-bullet dynamic bodies, taken where they are at the end of the step, so it
            // walks the main tree. (The earliest impact is the smallest of the candidates' times,
            // whatever order they come in.)
            let staticTree = self.staticTree
            let candidates = bullet ? tree : staticTree
            candidates.queryUnchanging(box) { leaf in  // the visit reads the tree, never changes it
                let proxy = bullet ? leaf : staticTree.data(leaf)
                // (The body type is read from the shape first: most of a bullet's candidates in
                // a pile are dynamic and rejected here.)
                guard let other = proxyShapes[Int(proxy)], !other.isSensor,
                      other.bodyType == .static || (bullet && other.bodyType == .dynamic),
                      let ob = other.body, ob !== b,
                      ob.type == .static || !ob.isBulletValue else { return }
                for j in b.joints where !j.collideConnected && (j.bodyA === ob || j.bodyB === ob) { return }
                for s in b.shapeList where !s.isSensor && Filter.shouldCollide(s.filter, other.filter) {
                    fixed.set(other, ob.xf)
                    if let t = World.timeOfImpact(s, &moving, fixed, other, ob.xf,
                                                  c0: c0, a0: a0, c1: c1, a1: a1, localCenter: lc,
                                                  rotationBound: b.ccdRadius, before: tMin) {
                        tMin = t
                    }
                }
            }
            sweptCount += 1
            guard tMin < 1 else { continue }
            impactCount += 1
            let c = c0 + tMin * (c1 - c0), a = a0 + tMin * (a1 - a0)
            let q = Rot(angle: a)
            b.center = c; b.angleValue = a
            b.xf = Transform(p: c - q.apply(lc), q: q)
            for s in b.shapeList where tree.moveProxy(s.proxyId, tight: s.aabb(b.xf)) { markMoved(s.proxyId) }
        }
        sweeps.removeAll(keepingCapacity: true)
    }

    /// The first time t in [0, before) at which shape `s` of a body sweeping (c0, a0) → (c1, a1)
    /// comes within the target distance of the shape `other` held at `xfO` (core `fixed`), or nil.
    /// A pair already within reach at t = 0 is left to the contact solver (nil), and so is a
    /// chain segment the shape starts behind (chains are one-sided).
    static func timeOfImpact(_ s: Shape, _ moving: inout WorldCore, _ fixed: WorldCore,
                             _ other: Shape, _ xfO: Transform,
                             c0: Vec2, a0: Double, c1: Vec2, a1: Double, localCenter: Vec2,
                             rotationBound: Double, before tMax: Double) -> Double? {
        let slop = PhysicsSettings.linearSlop
        let target = max(slop, s.radius + other.radius - 3 * slop)
        let tolerance = 0.25 * slop
        let dc = c1 - c0, da = a1 - a0
        func pose(_ t: Double) -> Transform {
            let q = Rot(angle: a0 + t * da)
            return Transform(p: c0 + t * dc - q.apply(localCenter), q: q)
        }
        if other.ghosts != nil {
            let start = pose(0).apply(s.circleCenter)
            let v1 = xfO.apply(other.coreRef.vertices[0]), n = xfO.q.apply(other.coreRef.normals[0])
            if dot(n, start - v1) < 0 { return nil }
        }
        var t = 0.0
        for iteration in 0..<30 {
            moving.set(s, pose(t))
            let (d, n) = coreDistance(moving, fixed)
            if d < target + tolerance { return iteration == 0 ? nil : t }
            let approach = dot(dc, n) + abs(da) * rotationBound
            if approach <= 0 { return nil }
            t += (d - target) / approach
            if t >= tMax { return nil }
        }
        return t
    }
}
