// The soft-step contact solver (issue 25), after Box2D v3's "soft step": every step is cut
// into sub-steps; in each, velocities are integrated, the accumulated impulses applied
// (warm start), the contacts solved as soft constraints (a spring–damper on the overlap,
// stiff at `contactHertz` and heavily damped, so pushing apart never adds energy), positions
// integrated, and the contacts solved once more without the overlap bias ("relax", which
// takes out the velocity the push added). Restitution is applied once after the sub-steps,
// from the approach speed measured before them. There is no position pass: the current
// overlap of a contact is computed from how far its bodies moved since the step began
// (the normal and the anchors are fixed for the step).
//
// Soft constraints after Catto, "Solver2D" (2024) and Box2D v3's contact_solver.c; the
// formulas are written here from the spring–damper model (see docs/physics.md, "Soft step").

/// The spring–damper coefficients of a soft constraint for one sub-step of length h.
struct Softness {
    /// How much of the position error is turned into a velocity target per second.
    var biasRate = 0.0
    /// Scales the effective mass (1 for a rigid constraint).
    var massScale = 1.0
    /// Scales the accumulated impulse subtracted each iteration (0 for a rigid constraint).
    var impulseScale = 0.0

    /// A spring of natural frequency `hertz` and damping ratio `zeta`, stepped implicitly with h.
    init(hertz: Double, zeta: Double, h: Double) {
        guard hertz > 0 else { return }
        let omega = 2 * Double.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }

    init() {}
}

struct SoftContactPoint {
    /// Anchors relative to the bodies' centres of mass at the start of the step (fixed).
    var rA = Vec2.zero
    var rB = Vec2.zero
    /// The anchors in the bodies' own frames, for the current separation.
    var localRA = Vec2.zero
    var localRB = Vec2.zero
    /// The separation at the step's start. Both anchors start at the same world point, so the
    /// current separation is this plus how far the anchors moved apart along the normal.
    var baseSeparation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    /// The largest normal impulse of any sub-step (restitution acts only on pushing points).
    var maxNormalImpulse = 0.0
    var normalMass = 0.0
    var tangentMass = 0.0
    /// Normal approach speed at the step's start (negative: approaching).
    var relativeVelocity = 0.0
    /// The impulses applied over the whole step (the sum of every sub-step's), for post-solve
    /// events: the accumulated impulses above are one sub-step's.
    var totalNormalImpulse = 0.0
    var totalTangentImpulse = 0.0
}

struct SoftContactConstraint {
    var a: Int
    var b: Int
    var mA = 0.0, iA = 0.0, mB = 0.0, iB = 0.0
    var normal = Vec2.zero
    var friction = 0.0
    var restitution = 0.0
    var pointCount = 0
    var p0 = SoftContactPoint()
    var p1 = SoftContactPoint()
    /// The inverse of the two points' normal mass matrix (block solve; `block` false when the
    /// points are nearly redundant or there is one point).
    var block = false
    var m11 = 0.0, m12 = 0.0, m22 = 0.0
    /// This contact's spring (see `SoftContactSolver.prepare`).
    var softness = Softness()
    var contact: Int
}

struct SoftContactSolver {
    var constraints: [SoftContactConstraint] = []
    /// The contacts that got the constraints, by index (`select`).
    var solvable: [Int32] = []
    /// The coloured constraints, four to a bundle, colour after colour (SoftSolverWide.swift);
    /// colour c's bundles are `colourBundles[c]..<colourBundles[c + 1]`.
    var widePairs: [WidePair] = []
    var widePoints0: [WidePoint] = []
    var widePoints1: [WidePoint] = []
    var colourBundles: [Int] = []
    /// Each constraint's colour (-1: overflow), and the overflow constraints, solved one at a time.
    var colourOf: [Int32] = []
    var overflow: [Int] = []
    /// Per colour, a bit per body: the bodies the colour already moves.
    var colourBits: [UInt64] = []
    /// Walk the constraints backwards: the overflow list from its end, then the colours from
    /// the last. The world turns this on every other step (see `World.solveSoft`).
    var backwards = false

    /// Builds constraints from the touching, non-sensor contacts with an awake body.
    ///
    /// Each contact's spring: `hertz` between two moving bodies, twice that against a body
    /// that does not move (as Box2D v3). (Stiffening contacts between unequal masses by the
    /// square root of their ratio, so that a light box could carry a hundred times heavier one,
    /// made columns of alternating masses topple sideways and the 1,000-body pile restless:
    /// tried and left out.)
    mutating func prepare(_ contacts: [Contact], _ bodies: UnsafeMutableBufferPointer<SolverBody>, _ inputs: PrepareInputs) {
        select(contacts)
        withPrepareBuffers(contacts) { solvable, cs, out in
            Self.build(0..<solvable.count, solvable, cs, out, bodies, inputs)
        }
    }

    /// What building a constraint reads besides its contact and bodies.
    struct PrepareInputs {
        var warmStart: Bool
        var equal: Softness, fixed: Softness
        init(warmStart: Bool, hertz: Double, zeta: Double, h: Double) {
            self.warmStart = warmStart
            equal = Softness(hertz: hertz, zeta: zeta, h: h)
            fixed = Softness(hertz: 2 * hertz, zeta: zeta, h: h)
        }
    }

    /// The first half of `prepare`: the contacts that get a constraint (touching, not a sensor,
    /// with an awake body), in order, and as many constraints (their old values are all
    /// overwritten by `build`; growing is the only fill).
    mutating func select(_ contacts: [Contact]) {
        solvable.removeAll(keepingCapacity: true)
        for ci in 0..<contacts.count {
            unowned(unsafe) let contact = contacts[ci]  // the caller's array keeps it alive; no retain
            guard contact.touching && !contact.isSensor else { continue }
            guard contact.bodyA.awake || contact.bodyB.awake else { continue }
            solvable.append(Int32(ci))
        }
        let n = solvable.count
        if constraints.count < n {
            constraints.append(contentsOf: repeatElement(SoftContactConstraint(a: 0, b: 0, contact: 0), count: n - constraints.count))
        } else if constraints.count > n {
            constraints.removeLast(constraints.count - n)
        }
    }

    /// Calls `body` with the selected contacts' indices, the contacts and the constraints.
    @inline(__always)
    mutating func withPrepareBuffers<R>(_ contacts: [Contact], _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Contact>,
                                                                        UnsafeMutableBufferPointer<SoftContactConstraint>) -> R) -> R {
        let solvable = self.solvable
        return solvable.withUnsafeBufferPointer { sel in
            contacts.withUnsafeBufferPointer { cs in
                constraints.withUnsafeMutableBufferPointer { out in body(sel, cs, out) }
            }
        }
    }

    /// The second half of `prepare`: the constraints `range` of the selected contacts. Each is
    /// its own, so any split of the selection (the worker pool's) gives the same constraints.
    static func build(_ range: Range<Int>, _ solvable: UnsafeBufferPointer<Int32>, _ contacts: UnsafeBufferPointer<Contact>,
                      _ out: UnsafeMutableBufferPointer<SoftContactConstraint>, _ bodies: UnsafeMutableBufferPointer<SolverBody>,
                      _ inputs: PrepareInputs) {
        let warmStart = inputs.warmStart
        for j in range {
            let ci = Int(solvable[j])
            unowned(unsafe) let contact = contacts[ci]  // the caller's array keeps it alive; no retain
            let m = contact.manifold
            let ia = contact.bodyA.index, ib = contact.bodyB.index
            let bA = bodies[ia], bB = bodies[ib]
            unowned(unsafe) let bodyA = contact.bodyA, bodyB = contact.bodyB
            var cc = SoftContactConstraint(a: ia, b: ib, contact: ci)
            cc.mA = bodyA.invMassValue; cc.iA = bodyA.invI; cc.mB = bodyB.invMassValue; cc.iB = bodyB.invI
            cc.friction = contact.friction
            cc.restitution = contact.restitution
            cc.softness = cc.mA == 0 || cc.mB == 0 ? inputs.fixed : inputs.equal
            let xfA = Transform(p: bA.c - bA.q.apply(bodyA.localCenter), q: bA.q)
            let xfB = Transform(p: bB.c - bB.q.apply(bodyB.localCenter), q: bB.q)
            let wm = WorldManifold(m, xfA, contact.shapeA.radius, xfB, contact.shapeB.radius)
            let n = wm.normal, t = n.rightPerp
            cc.normal = n
            cc.pointCount = m.pointCount
            let (mA, iA, mB, iB) = (cc.mA, cc.iA, cc.mB, cc.iB)
            // Written in place (a point built aside and copied in was 2 % of the pile's step).
            func fill(_ p: inout SoftContactPoint, _ i: Int, _ point: Vec2, _ separation: Double) {
                p.normalImpulse = warmStart ? m[i].normalImpulse : 0
                p.tangentImpulse = warmStart ? m[i].tangentImpulse : 0
                p.rA = point - bA.c
                p.rB = point - bB.c
                p.localRA = bA.q.applyInverse(p.rA)
                p.localRB = bB.q.applyInverse(p.rB)
                p.baseSeparation = separation
                let rnA = cross(p.rA, n), rnB = cross(p.rB, n)
                let kn = mA + mB + iA * rnA * rnA + iB * rnB * rnB
                p.normalMass = kn > 0 ? 1 / kn : 0
                let rtA = cross(p.rA, t), rtB = cross(p.rB, t)
                let kt = mA + mB + iA * rtA * rtA + iB * rtB * rtB
                p.tangentMass = kt > 0 ? 1 / kt : 0
                p.relativeVelocity = dot(n, bB.v + cross(bB.w, p.rB) - bA.v - cross(bA.w, p.rA))
            }
            if m.pointCount > 0 { fill(&cc.p0, 0, wm.point0, wm.separation0) }
            if m.pointCount > 1 { fill(&cc.p1, 1, wm.point1, wm.separation1) }
            if cc.pointCount == 2,
               let block = BlockMass(n, cc.p0.rA, cc.p0.rB, cc.p1.rA, cc.p1.rB, mA: cc.mA, iA: cc.iA, mB: cc.mB, iB: cc.iB) {
                cc.block = true
                cc.m11 = block.m11; cc.m12 = block.m12; cc.m22 = block.m22
            }
            out[j] = cc
        }
    }

    /// The two kinds of pass over the contacts in a sub-step.
    enum Pass { case warmStart, solve }

    /// One pass over every constraint: the coloured ones by `coloured` (the bundles here, or
    /// the worker pool's stage), and the overflow one at a time after them — before them when
    /// walking `backwards`. The only place that order is decided.
    @inline(__always)
    mutating func pass(_ kind: Pass, _ bodies: UnsafeMutableBufferPointer<SolverBody>, invH: Double = 0,
                       useBias: Bool = false, coloured: (inout SoftContactSolver) -> Void) {
        if backwards { overflowPass(kind, bodies, invH: invH, useBias: useBias) }
        coloured(&self)
        if !backwards { overflowPass(kind, bodies, invH: invH, useBias: useBias) }
    }

    /// Applies the accumulated impulses (at the start of every sub-step), on this thread.
    mutating func warmStart(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        pass(.warmStart, bodies) { $0.warmStartWide(bodies) }
    }

    /// One solve pass on this thread. With `useBias` an overlap is pushed out softly; without,
    /// only the velocity is made non-approaching (relax). A gap still open is allowed to close
    /// within the sub-step (speculative contact) in both.
    mutating func solve(_ bodies: UnsafeMutableBufferPointer<SolverBody>, invH: Double, useBias: Bool) {
        pass(.solve, bodies, invH: invH, useBias: useBias) { $0.solveWide(bodies, invH: invH, useBias: useBias) }
    }

    private mutating func overflowPass(_ kind: Pass, _ bodies: UnsafeMutableBufferPointer<SolverBody>,
                                       invH: Double, useBias: Bool) {
        switch kind {
        case .warmStart: warmStartOverflow(bodies)
        case .solve: solveOverflow(bodies, invH: invH, useBias: useBias)
        }
    }

    private func warmStartOverflow(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        let overflow = self.overflow, backwards = self.backwards
        constraints.withUnsafeBufferPointer { cs in
            for i in 0..<overflow.count {
                let k = overflow[walkIndex(i, overflow.count, backwards: backwards)]
                let cc = cs[k]
                let n = cc.normal, t = n.rightPerp
                var vA = bodies[cc.a].v, wA = bodies[cc.a].w, vB = bodies[cc.b].v, wB = bodies[cc.b].w
                for i in 0..<cc.pointCount {
                    let p = i == 0 ? cc.p0 : cc.p1
                    let P = p.normalImpulse * n + p.tangentImpulse * t
                    wA -= cc.iA * cross(p.rA, P)
                    vA -= cc.mA * P
                    wB += cc.iB * cross(p.rB, P)
                    vB += cc.mB * P
                }
                bodies[cc.a].v = vA; bodies[cc.a].w = wA
                bodies[cc.b].v = vB; bodies[cc.b].w = wB
            }
        }
    }

    private mutating func solveOverflow(_ bodies: UnsafeMutableBufferPointer<SolverBody>, invH: Double, useBias: Bool) {
        let maxPush = PhysicsSettings.contactPushMaxVelocity
        let overflow = self.overflow, backwards = self.backwards
        constraints.withUnsafeMutableBufferPointer { cs in
            for i in 0..<overflow.count {
                let k = overflow[walkIndex(i, overflow.count, backwards: backwards)]
                Self.solve(&cs[k], bodies, invH: invH, softness: cs[k].softness, useBias: useBias, maxPush: maxPush)
            }
        }
    }

    @inline(__always)
    private static func solvePoint(_ p: inout SoftContactPoint, _ n: Vec2, _ cc: SoftContactConstraint,
                                   _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double,
                                   cA: Vec2, qA: Rot, cB: Vec2, qB: Rot,
                                   invH: Double, softness: Softness, useBias: Bool, maxPush: Double) {
        // The current separation, from where the anchors are now.
        let d = (cB + qB.apply(p.localRB)) - (cA + qA.apply(p.localRA))
        let s = dot(d, n) + p.baseSeparation
        var bias = 0.0, massScale = 1.0, impulseScale = 0.0
        if s > 0 {
            bias = s * invH  // not touching yet: let the gap close, no more
        }
        let dv = vB + cross(wB, p.rB) - vA - cross(wA, p.rA)
        let vn = dot(dv, n)
        // Soft unless the soft solve would let the shapes sink more than the slop into each other
        // within this sub-step (a share 1 − massScale of the approach is left for the relax pass
        // to stop): a bullet at 120 m/s would go 2–3 cm into a wall. Such impacts are stopped
        // rigidly; restitution comes after the sub-steps. (Any approach faster than the push
        // speed, 3 m/s, stopped rigidly left the 1,000-body pile ten times as restless.)
        if s <= 0 && useBias && (1 - softness.massScale) * -vn <= PhysicsSettings.linearSlop * invH {
            bias = max(softness.biasRate * s, -maxPush)
            massScale = softness.massScale
            impulseScale = softness.impulseScale
        }
        let impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse
        let newImpulse = max(p.normalImpulse + impulse, 0)
        let lambda = newImpulse - p.normalImpulse
        p.normalImpulse = newImpulse
        p.maxNormalImpulse = max(p.maxNormalImpulse, lambda)
        let P = lambda * n
        vA -= cc.mA * P; wA -= cc.iA * cross(p.rA, P)
        vB += cc.mB * P; wB += cc.iB * cross(p.rB, P)
    }

    /// Both points of a two-point contact at once, when both overlap and press gently (the soft
    /// branch for both) and the joint solution pushes at both; returns false to fall back to
    /// one point after the other.
    @inline(__always)
    private static func solveBlock(_ cc: inout SoftContactConstraint, _ n: Vec2,
                                   _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double,
                                   cA: Vec2, qA: Rot, cB: Vec2, qB: Rot,
                                   invH: Double, softness: Softness, useBias: Bool, maxPush: Double) -> Bool {
        let d1 = (cB + qB.apply(cc.p1.localRB)) - (cA + qA.apply(cc.p1.localRA))
        let d0 = (cB + qB.apply(cc.p0.localRB)) - (cA + qA.apply(cc.p0.localRA))
        let s0 = dot(d0, n) + cc.p0.baseSeparation, s1 = dot(d1, n) + cc.p1.baseSeparation
        guard s0 <= 0, s1 <= 0 else { return false }
        let vn0 = dot(vB + cross(wB, cc.p0.rB) - vA - cross(wA, cc.p0.rA), n)
        let vn1 = dot(vB + cross(wB, cc.p1.rB) - vA - cross(wA, cc.p1.rA), n)
        var b0 = 0.0, b1 = 0.0, massScale = 1.0, impulseScale = 0.0
        if useBias {
            let fast = PhysicsSettings.linearSlop * invH / (1 - softness.massScale)
            guard -vn0 <= fast, -vn1 <= fast else { return false }
            b0 = max(softness.biasRate * s0, -maxPush)
            b1 = max(softness.biasRate * s1, -maxPush)
            massScale = softness.massScale
            impulseScale = softness.impulseScale
        }
        let a0 = cc.p0.normalImpulse, a1 = cc.p1.normalImpulse
        let x0 = a0 - massScale * (cc.m11 * (vn0 + b0) + cc.m12 * (vn1 + b1)) - impulseScale * a0
        let x1 = a1 - massScale * (cc.m12 * (vn0 + b0) + cc.m22 * (vn1 + b1)) - impulseScale * a1
        guard x0 >= 0, x1 >= 0 else { return false }
        let l0 = x0 - a0, l1 = x1 - a1
        cc.p0.normalImpulse = x0; cc.p1.normalImpulse = x1
        cc.p0.maxNormalImpulse = max(cc.p0.maxNormalImpulse, l0)
        cc.p1.maxNormalImpulse = max(cc.p1.maxNormalImpulse, l1)
        let P0 = l0 * n, P1 = l1 * n
        vA -= cc.mA * (P0 + P1); wA -= cc.iA * (cross(cc.p0.rA, P0) + cross(cc.p1.rA, P1))
        vB += cc.mB * (P0 + P1); wB += cc.iB * (cross(cc.p0.rB, P0) + cross(cc.p1.rB, P1))
        return true
    }

    @inline(__always)
    private static func frictionPoint(_ p: inout SoftContactPoint, _ t: Vec2, _ friction: Double, _ cc: SoftContactConstraint,
                                      _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double) {
        let dv = vB + cross(wB, p.rB) - vA - cross(wA, p.rA)
        let vt = dot(dv, t)
        let maxF = friction * p.normalImpulse
        let old = p.tangentImpulse
        let newImpulse = min(max(old - p.tangentMass * vt, -maxF), maxF)
        p.tangentImpulse = newImpulse
        let P = (newImpulse - old) * t
        vA -= cc.mA * P; wA -= cc.iA * cross(p.rA, P)
        vB += cc.mB * P; wB += cc.iB * cross(p.rB, P)
    }

    @inline(__always)
    private static func solve(_ cc: inout SoftContactConstraint, _ bodies: UnsafeMutableBufferPointer<SolverBody>,
                              invH: Double, softness: Softness, useBias: Bool, maxPush: Double) {
        let bA = bodies[cc.a], bB = bodies[cc.b]
        var vA = bA.v, wA = bA.w, vB = bB.v, wB = bB.w
        let n = cc.normal, t = n.rightPerp
        // Normal points first, then friction bounded by the new normal impulses (as Box2D v3).
        // Two points that both press are solved together (a 2×2 block, like the legacy
        // solver): one after the other, the first point's push turns the body, friction turns
        // that into sideways motion, and a column of boxes walks off its base.
        if !(cc.block && solveBlock(&cc, n, &vA, &wA, &vB, &wB, cA: bA.c, qA: bA.q, cB: bB.c, qB: bB.q,
                                    invH: invH, softness: softness, useBias: useBias, maxPush: maxPush)) {
            solvePoint(&cc.p0, n, cc, &vA, &wA, &vB, &wB, cA: bA.c, qA: bA.q, cB: bB.c, qB: bB.q,
                       invH: invH, softness: softness, useBias: useBias, maxPush: maxPush)
            if cc.pointCount == 2 {
                solvePoint(&cc.p1, n, cc, &vA, &wA, &vB, &wB, cA: bA.c, qA: bA.q, cB: bB.c, qB: bB.q,
                           invH: invH, softness: softness, useBias: useBias, maxPush: maxPush)
            }
        }
        frictionPoint(&cc.p0, t, cc.friction, cc, &vA, &wA, &vB, &wB)
        if cc.pointCount == 2 { frictionPoint(&cc.p1, t, cc.friction, cc, &vA, &wA, &vB, &wB) }
        bodies[cc.a].v = vA; bodies[cc.a].w = wA
        bodies[cc.b].v = vB; bodies[cc.b].w = wB
    }

    /// At the end of a sub-step: adds what it applied to the step's totals.
    mutating func accumulateTotals() {
        accumulateTotalsWide()
        let overflow = self.overflow
        constraints.withUnsafeMutableBufferPointer { cs in
            for k in overflow {
                cs[k].p0.totalNormalImpulse += cs[k].p0.normalImpulse
                cs[k].p0.totalTangentImpulse += cs[k].p0.tangentImpulse
                cs[k].p1.totalNormalImpulse += cs[k].p1.normalImpulse
                cs[k].p1.totalTangentImpulse += cs[k].p1.tangentImpulse
            }
        }
    }

    /// After the sub-steps: points that pushed and approached faster than the threshold
    /// leave at `restitution` times their approach speed.
    mutating func applyRestitution(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        let threshold = PhysicsSettings.restitutionThreshold
        // In place: only the points that bounce are read in full and written (copying every
        // constraint in and out was 3 % of the pile's step, whose contacts all have restitution).
        func bounces(_ p: SoftContactPoint) -> Bool { p.relativeVelocity < -threshold && p.maxNormalImpulse > 0 }
        constraints.withUnsafeMutableBufferPointer { cs in
            for k in 0..<cs.count where cs[k].restitution != 0 {
                guard bounces(cs[k].p0) || (cs[k].pointCount == 2 && bounces(cs[k].p1)) else { continue }
                let a = cs[k].a, b = cs[k].b, n = cs[k].normal, restitution = cs[k].restitution
                let mA = cs[k].mA, iA = cs[k].iA, mB = cs[k].mB, iB = cs[k].iB
                var vA = bodies[a].v, wA = bodies[a].w, vB = bodies[b].v, wB = bodies[b].w
                func bounce(_ p: inout SoftContactPoint) {
                    guard bounces(p) else { return }
                    let dv = vB + cross(wB, p.rB) - vA - cross(wA, p.rA)
                    let vn = dot(dv, n)
                    let impulse = -p.normalMass * (vn + restitution * p.relativeVelocity)
                    let newImpulse = max(p.normalImpulse + impulse, 0)
                    let lambda = newImpulse - p.normalImpulse
                    p.normalImpulse = newImpulse
                    p.totalNormalImpulse += lambda
                    p.maxNormalImpulse = max(p.maxNormalImpulse, lambda)
                    let P = lambda * n
                    vA -= mA * P; wA -= iA * cross(p.rA, P)
                    vB += mB * P; wB += iB * cross(p.rB, P)
                }
                bounce(&cs[k].p0)
                if cs[k].pointCount == 2 { bounce(&cs[k].p1) }
                bodies[a].v = vA; bodies[a].w = wA
                bodies[b].v = vB; bodies[b].w = wB
            }
        }
    }
}

extension SoftContactConstraint: SolvedContactConstraint {
    var reportedPointCount: Int { pointCount }
    var keptImpulses: (Double, Double, Double, Double) {
        (p0.normalImpulse, p0.tangentImpulse, p1.normalImpulse, p1.tangentImpulse)
    }
    /// The whole step's impulses (the sum over the sub-steps), as the legacy step reports.
    var reportedImpulses: (Double, Double, Double, Double) {
        (p0.totalNormalImpulse, p0.totalTangentImpulse, p1.totalNormalImpulse, p1.totalTangentImpulse)
    }
}

/// Which solver steps a world.
public enum SolverKind: Sendable, Equatable, CaseIterable {
    /// Box2D 2.x's: sequential impulses (velocity iterations), then a non-linear Gauss–Seidel
    /// position pass. What the games' replay logs were recorded with.
    case legacy
    /// Box2D v3's soft step: sub-steps with soft contacts, relaxation and restitution last.
    case softStep
}

/// What a body gains per second in the soft step's sub-steps, and its damping per sub-step.
struct SoftAcceleration {
    var linear = Vec2.zero
    var angular = 0.0
    var linearDamping = 1.0
    var angularDamping = 1.0
}

#if !hasFeature(Embedded)
/// The second half of the soft step's `prepare` on the worker pool: the selected contacts cut
/// into consecutive ranges, each thread building its range's constraints.
final class SoftPrepareStage: ParallelStage {
    var solvable = UnsafeBufferPointer<Int32>(start: nil, count: 0)
    var contacts = UnsafeBufferPointer<Contact>(start: nil, count: 0)
    var out = UnsafeMutableBufferPointer<SoftContactConstraint>(start: nil, count: 0)
    var bodies = UnsafeMutableBufferPointer<SolverBody>(start: nil, count: 0)
    var inputs: SoftContactSolver.PrepareInputs?

    /// Below this many constraints the caller builds them alone (as for the body loops, not
    /// tuned; tests lower it).
    var minimumConstraints = 512

    func work(share: Int, of shares: Int) {
        SoftContactSolver.build(shareOf(0..<solvable.count, share, shares), solvable, contacts, out, bodies, inputs!)
    }

    /// `SoftContactSolver.prepare`, its constraints built on the pool's threads when they are many.
    func prepare(_ solver: inout SoftContactSolver, _ contacts: [Contact], _ bodies: UnsafeMutableBufferPointer<SolverBody>,
                 _ inputs: SoftContactSolver.PrepareInputs, pool: WorkerPool) {
        solver.select(contacts)
        solver.withPrepareBuffers(contacts) { solvable, cs, out in
            guard solvable.count >= minimumConstraints else {
                SoftContactSolver.build(0..<solvable.count, solvable, cs, out, bodies, inputs)
                return
            }
            self.solvable = solvable; self.contacts = cs; self.out = out; self.bodies = bodies; self.inputs = inputs
            pool.run(self)
            self.solvable = UnsafeBufferPointer(start: nil, count: 0); self.contacts = UnsafeBufferPointer(start: nil, count: 0)
            self.out = UnsafeMutableBufferPointer(start: nil, count: 0); self.bodies = UnsafeMutableBufferPointer(start: nil, count: 0)
            self.inputs = nil
        }
    }
}
#endif
