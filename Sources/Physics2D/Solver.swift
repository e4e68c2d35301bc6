// The contact solver: sequential impulses with warm starting, Coulomb friction,
// restitution and a 2×2 block solver for two-point manifolds, followed by a
// non-linear Gauss–Seidel position pass (Baumgarte-scaled, clamped) that
// removes the remaining overlap without adding energy.

/// What the solvers read and write of a body during a step: its velocities and pose, 64 bytes,
/// one cache line in `SolverBodies` (the masses and the local centre, read once per step, are
/// taken from the `Body`). Box2D v3 keeps its solver bodies small for the same reason: the
/// contact solve gathers eight bodies per bundle from anywhere in the array.
struct SolverBody {
    var v: Vec2
    var w: Double
    var c: Vec2
    var a: Double
    var q: Rot
}

/// The solver bodies of a step, in storage aligned to a cache line (an `Array`'s elements are
/// not: 64-byte bodies would then each straddle two lines). Reused from step to step.
final class SolverBodies {
    /// The bodies (its count is theirs) at the start of the storage.
    private(set) var buffer = UnsafeMutableBufferPointer<SolverBody>(start: nil, count: 0)
    private var capacity = 0

    /// Forgets the bodies, keeping the storage.
    func removeAll() { buffer = UnsafeMutableBufferPointer(start: buffer.baseAddress, count: 0) }

    func append(_ body: SolverBody) {
        let count = buffer.count
        if count == capacity { grow() }
        (buffer.baseAddress! + count).initialize(to: body)
        buffer = UnsafeMutableBufferPointer(start: buffer.baseAddress, count: count + 1)
    }

    private func grow() {
        let newCapacity = max(64, 2 * capacity)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: newCapacity * MemoryLayout<SolverBody>.stride, alignment: 64)
        let fresh = raw.bindMemory(to: SolverBody.self, capacity: newCapacity)
        if let old = buffer.baseAddress {
            fresh.moveInitialize(from: old, count: buffer.count)
            UnsafeMutableRawPointer(old).deallocate()
        }
        capacity = newCapacity
        buffer = UnsafeMutableBufferPointer(start: fresh, count: buffer.count)
    }

    deinit {
        if let old = buffer.baseAddress { UnsafeMutableRawPointer(old).deallocate() }
    }
}

struct ConstraintPoint {
    var rA = Vec2.zero
    var rB = Vec2.zero
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var normalMass = 0.0
    var tangentMass = 0.0
    var velocityBias = 0.0
    var localPoint = Vec2.zero
}

struct ContactConstraint {
    var a: Int
    var b: Int
    var mA = 0.0, iA = 0.0, mB = 0.0, iB = 0.0
    /// The bodies' centres of mass in their own frames (for the position pass).
    var localCenterA = Vec2.zero, localCenterB = Vec2.zero
    var normal = Vec2.zero
    var friction = 0.0
    var restitution = 0.0
    var pointCount = 0
    var p0 = ConstraintPoint()
    var p1 = ConstraintPoint()
    // Block solver: K and its inverse (two points only).
    var k11 = 0.0, k12 = 0.0, k22 = 0.0
    var m11 = 0.0, m12 = 0.0, m22 = 0.0
    // For the position pass.
    var type = ManifoldType.circles
    var localNormal = Vec2.zero
    var localPoint = Vec2.zero
    var manifoldPointCount = 0
    var radiusA = 0.0, radiusB = 0.0
    var contact: Int
}

/// The normal mass matrix K of a two-point contact and its inverse, for solving both points
/// at once (both solvers); nil when the points are nearly redundant (K ill-conditioned).
struct BlockMass {
    var k11: Double, k12: Double, k22: Double
    var m11: Double, m12: Double, m22: Double

    init?(_ n: Vec2, _ rA0: Vec2, _ rB0: Vec2, _ rA1: Vec2, _ rB1: Vec2, mA: Double, iA: Double, mB: Double, iB: Double) {
        let rn1A = cross(rA0, n), rn1B = cross(rB0, n)
        let rn2A = cross(rA1, n), rn2B = cross(rB1, n)
        k11 = mA + mB + iA * rn1A * rn1A + iB * rn1B * rn1B
        k22 = mA + mB + iA * rn2A * rn2A + iB * rn2B * rn2B
        k12 = mA + mB + iA * rn1A * rn2A + iB * rn1B * rn2B
        let det = k11 * k22 - k12 * k12
        guard k11 * k11 < 1000 * det else { return nil }
        let inv = 1 / det
        m11 = inv * k22; m12 = -inv * k12; m22 = inv * k11
    }
}

struct ContactSolver {
    var constraints: [ContactConstraint] = []

    /// Builds constraints from the touching, non-sensor contacts.
    mutating func prepare(_ contacts: [Contact], _ bodies: UnsafeMutableBufferPointer<SolverBody>, warmStart: Bool) {
        constraints.removeAll(keepingCapacity: true)
        for ci in 0..<contacts.count {
            unowned(unsafe) let contact = contacts[ci]  // the caller's array keeps it alive; no retain
            guard contact.touching && !contact.isSensor else { continue }
            // Contacts of sleeping bodies (with each other or the ground) are not solved.
            guard contact.bodyA.awake || contact.bodyB.awake else { continue }
            let m = contact.manifold
            let ia = contact.bodyA.index, ib = contact.bodyB.index
            let bA = bodies[ia], bB = bodies[ib]
            unowned(unsafe) let bodyA = contact.bodyA, bodyB = contact.bodyB
            var cc = ContactConstraint(a: ia, b: ib, contact: ci)
            cc.mA = bodyA.invMassValue; cc.iA = bodyA.invI; cc.mB = bodyB.invMassValue; cc.iB = bodyB.invI
            cc.localCenterA = bodyA.localCenter; cc.localCenterB = bodyB.localCenter
            cc.friction = contact.friction
            cc.restitution = contact.restitution
            cc.type = m.type
            cc.localNormal = m.localNormal
            cc.localPoint = m.localPoint
            cc.manifoldPointCount = m.pointCount
            cc.radiusA = contact.shapeA.radius
            cc.radiusB = contact.shapeB.radius
            let xfA = Transform(p: bA.c - bA.q.apply(cc.localCenterA), q: bA.q)
            let xfB = Transform(p: bB.c - bB.q.apply(cc.localCenterB), q: bB.q)
            let wm = WorldManifold(m, xfA, cc.radiusA, xfB, cc.radiusB)
            cc.normal = wm.normal
            cc.pointCount = m.pointCount
            let n = wm.normal, t = n.rightPerp
            for i in 0..<m.pointCount {
                var p = ConstraintPoint()
                let point = i == 0 ? wm.point0 : wm.point1
                p.localPoint = m[i].localPoint
                p.normalImpulse = warmStart ? m[i].normalImpulse : 0
                p.tangentImpulse = warmStart ? m[i].tangentImpulse : 0
                p.rA = point - bA.c
                p.rB = point - bB.c
                let rnA = cross(p.rA, n), rnB = cross(p.rB, n)
                let kn = cc.mA + cc.mB + cc.iA * rnA * rnA + cc.iB * rnB * rnB
                p.normalMass = kn > 0 ? 1 / kn : 0
                let rtA = cross(p.rA, t), rtB = cross(p.rB, t)
                let kt = cc.mA + cc.mB + cc.iA * rtA * rtA + cc.iB * rtB * rtB
                p.tangentMass = kt > 0 ? 1 / kt : 0
                let vRel = dot(n, bB.v + cross(bB.w, p.rB) - bA.v - cross(bA.w, p.rA))
                p.velocityBias = vRel < -PhysicsSettings.restitutionThreshold ? -cc.restitution * vRel : 0
                if i == 0 { cc.p0 = p } else { cc.p1 = p }
            }
            if cc.pointCount == 2 {
                if let block = BlockMass(n, cc.p0.rA, cc.p0.rB, cc.p1.rA, cc.p1.rB, mA: cc.mA, iA: cc.iA, mB: cc.mB, iB: cc.iB) {
                    cc.k11 = block.k11; cc.k12 = block.k12; cc.k22 = block.k22
                    cc.m11 = block.m11; cc.m12 = block.m12; cc.m22 = block.m22
                } else {
                    // Nearly redundant points: solve only the first.
                    cc.pointCount = 1
                }
            }
            constraints.append(cc)
        }
    }

    func warmStart(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        constraints.withUnsafeBufferPointer { cs in
        for k in 0..<cs.count {
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

    mutating func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        constraints.withUnsafeMutableBufferPointer { cs in
            for k in 0..<cs.count {
                Self.solve(&cs[k], bodies)
            }
        }
    }

    @inline(__always)
    private static func solve(_ cc: inout ContactConstraint, _ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        let mA = cc.mA, iA = cc.iA, mB = cc.mB, iB = cc.iB
        var vA = bodies[cc.a].v, wA = bodies[cc.a].w, vB = bodies[cc.b].v, wB = bodies[cc.b].w
        let n = cc.normal, t = n.rightPerp
        let friction = cc.friction

        // Friction first, bounded by the current normal impulse.
        do {
            let rA = cc.p0.rA, rB = cc.p0.rB
            let dvx = vB.x - wB * rB.y - vA.x + wA * rA.y
            let dvy = vB.y + wB * rB.x - vA.y - wA * rA.x
            let vt = dvx * t.x + dvy * t.y
            let maxF = friction * cc.p0.normalImpulse
            let old = cc.p0.tangentImpulse
            let newImpulse = min(max(old - cc.p0.tangentMass * vt, -maxF), maxF)
            cc.p0.tangentImpulse = newImpulse
            let lambda = newImpulse - old
            let P = lambda * t
            vA -= mA * P; wA -= iA * cross(rA, P)
            vB += mB * P; wB += iB * cross(rB, P)
        }
        if cc.pointCount == 2 {
            let rA = cc.p1.rA, rB = cc.p1.rB
            let dvx = vB.x - wB * rB.y - vA.x + wA * rA.y
            let dvy = vB.y + wB * rB.x - vA.y - wA * rA.x
            let vt = dvx * t.x + dvy * t.y
            let maxF = friction * cc.p1.normalImpulse
            let old = cc.p1.tangentImpulse
            let newImpulse = min(max(old - cc.p1.tangentMass * vt, -maxF), maxF)
            cc.p1.tangentImpulse = newImpulse
            let lambda = newImpulse - old
            let P = lambda * t
            vA -= mA * P; wA -= iA * cross(rA, P)
            vB += mB * P; wB += iB * cross(rB, P)
        }

        if cc.pointCount == 1 {
            var p = cc.p0
            let dv = vB + cross(wB, p.rB) - vA - cross(wA, p.rA)
            let vn = dot(dv, n)
            var lambda = -p.normalMass * (vn - p.velocityBias)
            let newImpulse = max(p.normalImpulse + lambda, 0)
            lambda = newImpulse - p.normalImpulse
            p.normalImpulse = newImpulse
            let P = lambda * n
            vA -= mA * P; wA -= iA * cross(p.rA, P)
            vB += mB * P; wB += iB * cross(p.rB, P)
            cc.p0 = p
        } else {
            // Two points: solve the 2×2 linear complementarity problem exactly by trying
            // the four active sets (both pushing, only one, none).
            let a1 = cc.p0.normalImpulse, a2 = cc.p1.normalImpulse
            let dv1 = vB + cross(wB, cc.p0.rB) - vA - cross(wA, cc.p0.rA)
            let dv2 = vB + cross(wB, cc.p1.rB) - vA - cross(wA, cc.p1.rA)
            let vn1 = dot(dv1, n), vn2 = dot(dv2, n)
            // b = vn - bias - K·a
            let b1 = vn1 - cc.p0.velocityBias - (cc.k11 * a1 + cc.k12 * a2)
            let b2 = vn2 - cc.p1.velocityBias - (cc.k12 * a1 + cc.k22 * a2)
            var x1 = 0.0, x2 = 0.0
            var solved = false
            // Both active: x = -K⁻¹ b.
            x1 = -(cc.m11 * b1 + cc.m12 * b2)
            x2 = -(cc.m12 * b1 + cc.m22 * b2)
            if x1 >= 0 && x2 >= 0 { solved = true }
            if !solved {
                // Only the first point pushes.
                x1 = -cc.p0.normalMass * b1; x2 = 0
                let v2 = cc.k12 * x1 + b2
                if x1 >= 0 && v2 >= 0 { solved = true }
            }
            if !solved {
                x1 = 0; x2 = -cc.p1.normalMass * b2
                let v1 = cc.k12 * x2 + b1
                if x2 >= 0 && v1 >= 0 { solved = true }
            }
            if !solved {
                x1 = 0; x2 = 0
                if b1 >= 0 && b2 >= 0 { solved = true }
            }
            if solved {
                let d1 = x1 - a1, d2 = x2 - a2
                let P1 = d1 * n, P2 = d2 * n
                vA -= mA * (P1 + P2)
                wA -= iA * (cross(cc.p0.rA, P1) + cross(cc.p1.rA, P2))
                vB += mB * (P1 + P2)
                wB += iB * (cross(cc.p0.rB, P1) + cross(cc.p1.rB, P2))
                cc.p0.normalImpulse = x1
                cc.p1.normalImpulse = x2
            }
        }
        bodies[cc.a].v = vA; bodies[cc.a].w = wA
        bodies[cc.b].v = vB; bodies[cc.b].w = wB
    }

    /// One non-linear Gauss–Seidel pass over positions; returns whether overlap is within tolerance.
    func solvePositions(_ bodies: UnsafeMutableBufferPointer<SolverBody>) -> Bool {
        var minSeparation = 0.0
        let slop = PhysicsSettings.linearSlop
        constraints.withUnsafeBufferPointer { cs in
        for k in 0..<cs.count {
            let cc = cs[k]
            let mA = cc.mA, iA = cc.iA, mB = cc.mB, iB = cc.iB
            var cA = bodies[cc.a].c, aA = bodies[cc.a].a, cB = bodies[cc.b].c, aB = bodies[cc.b].a
            var qA = bodies[cc.a].q, qB = bodies[cc.b].q
            let lcA = cc.localCenterA, lcB = cc.localCenterB
            for i in 0..<cc.manifoldPointCount {
                let xfA = Transform(p: cA - qA.apply(lcA), q: qA)
                let xfB = Transform(p: cB - qB.apply(lcB), q: qB)
                let lp = i == 0 ? cc.p0.localPoint : cc.p1.localPoint
                var normal: Vec2, point: Vec2, separation: Double
                switch cc.type {
                case .circles:
                    let pA = xfA.apply(cc.localPoint), pB = xfB.apply(lp)
                    normal = distanceSquared(pA, pB) > 1e-20 ? (pB - pA).normalized : Vec2(1, 0)
                    point = 0.5 * (pA + pB)
                    separation = dot(pB - pA, normal) - cc.radiusA - cc.radiusB
                case .faceA:
                    normal = qA.apply(cc.localNormal)
                    let plane = xfA.apply(cc.localPoint)
                    point = xfB.apply(lp)
                    separation = dot(point - plane, normal) - cc.radiusA - cc.radiusB
                case .faceB:
                    normal = qB.apply(cc.localNormal)
                    let plane = xfB.apply(cc.localPoint)
                    point = xfA.apply(lp)
                    separation = dot(point - plane, normal) - cc.radiusA - cc.radiusB
                    normal = -normal
                }
                let rA = point - cA, rB = point - cB
                minSeparation = min(minSeparation, separation)
                let C = min(max(PhysicsSettings.baumgarte * (separation + slop), -PhysicsSettings.maxLinearCorrection), 0)
                let rnA = cross(rA, normal), rnB = cross(rB, normal)
                let K = mA + mB + iA * rnA * rnA + iB * rnB * rnB
                let impulse = K > 0 ? -C / K : 0
                let P = impulse * normal
                cA -= mA * P
                cB += mB * P
                let dA = -iA * cross(rA, P), dB = iB * cross(rB, P)
                aA += dA; aB += dB
                qA = qA.rotated(by: dA)
                qB = qB.rotated(by: dB)
            }
            bodies[cc.a].c = cA; bodies[cc.a].a = aA; bodies[cc.a].q = qA
            bodies[cc.b].c = cB; bodies[cc.b].a = aB; bodies[cc.b].q = qB
        }
        }
        return minSeparation >= -3 * slop
    }
}

extension Rot {
    /// This rotation turned further by a small angle: a Taylor series for the tiny
    /// corrections of the position pass (error below 1e-12 rad for |d| < 0.01), sin/cos otherwise.
    @inline(__always) func rotated(by d: Double) -> Rot {
        if d == 0 { return self }
        let cd: Double, sd: Double
        if abs(d) < 0.01 {
            let d2 = d * d
            cd = 1 - d2 * (0.5 - d2 * (1.0 / 24))
            sd = d * (1 - d2 * (1.0 / 6 - d2 * (1.0 / 120)))
        } else {
            cd = _cos(d); sd = _sin(d)
        }
        return Rot(c: c * cd - s * sd, s: s * cd + c * sd)
    }
}

/// What the world reads back from either contact solver's constraints after a step: the
/// impulses each manifold point keeps for the next step's warm start, and those its
/// post-solve event reports.
protocol SolvedContactConstraint {
    /// Index in the world's contact array.
    var contact: Int { get }
    var normal: Vec2 { get }
    /// The manifold points the event reports.
    var reportedPointCount: Int { get }
    /// Normal and tangent impulse of points 0 and 1 to keep for the warm start.
    var keptImpulses: (Double, Double, Double, Double) { get }
    /// The same as reported by the post-solve event.
    var reportedImpulses: (Double, Double, Double, Double) { get }
}

extension ContactConstraint: SolvedContactConstraint {
    var reportedPointCount: Int { manifoldPointCount }
    var keptImpulses: (Double, Double, Double, Double) {
        (p0.normalImpulse, p0.tangentImpulse, p1.normalImpulse, p1.tangentImpulse)
    }
    /// A nearly redundant second point is left out of the solve (`pointCount` 1): no impulse
    /// was applied there.
    var reportedImpulses: (Double, Double, Double, Double) {
        (p0.normalImpulse, p0.tangentImpulse, pointCount > 1 ? p1.normalImpulse : 0, pointCount > 1 ? p1.tangentImpulse : 0)
    }
}

extension World {
    /// Keeps the solver's accumulated impulses in the manifolds, for the next step's warm start.
    func storeImpulses<C: SolvedContactConstraint>(_ constraints: [C], _ contacts: [Contact]) {
        for cc in constraints {
            unowned(unsafe) let c = contacts[cc.contact]  // the caller's array keeps it alive
            let (n0, t0, n1, t1) = cc.keptImpulses
            c.manifold.p0.normalImpulse = n0
            c.manifold.p0.tangentImpulse = t0
            if c.manifold.pointCount > 1 {
                c.manifold.p1.normalImpulse = n1
                c.manifold.p1.tangentImpulse = t1
            }
        }
    }
}
