// The weld joint: glues two bodies together at a point (relative position and angle fixed).
// The angular part may be made soft (a damped angular spring, as in Box2D 2.4).

/// How to create a weld joint: two bodies glued at a world point, keeping their relative
/// angle at creation.
public struct WeldJointDef {
    public var bodyA: Body
    public var bodyB: Body
    /// The glue point, in world coordinates at creation time.
    public var anchor: Vec2
    /// Natural frequency (Hz) of the angular spring; 0: the angle is held rigidly.
    public var frequency = 0.0
    /// Damping ratio of the angular spring: 0 undamped, 1 critically damped.
    public var dampingRatio = 0.0
    /// Whether the two bodies' shapes still collide with each other.
    public var collideConnected = false
    public init(bodyA: Body, bodyB: Body, anchor: Vec2) {
        self.bodyA = bodyA; self.bodyB = bodyB; self.anchor = anchor
    }
}

/// Two bodies glued together: the anchor points coincide and the relative angle stays
/// what it was at creation (or is pulled back to it by an angular spring when
/// `frequency` > 0).
public final class WeldJoint: Joint {
    /// The glue point in each body's frame (relative to the body origin).
    public let localAnchorA: Vec2
    public let localAnchorB: Vec2
    /// Angle of B minus angle of A at creation.
    public let referenceAngle: Double
    /// Natural frequency (Hz) of the angular spring; 0: rigid.
    public var frequency: Double
    /// Damping ratio of the angular spring.
    public var dampingRatio: Double

    // Accumulated impulse (linear x, y and angular) and per-step solver data.
    var impulse = (0.0, 0.0, 0.0)
    var ia = 0, ib = 0
    var rA = Vec2.zero, rB = Vec2.zero
    var mA = 0.0, mB = 0.0, iA = 0.0, iB = 0.0
    var k11 = 0.0, k12 = 0.0, k13 = 0.0, k22 = 0.0, k23 = 0.0, k33 = 0.0
    var angularMass = 0.0, gamma = 0.0, bias = 0.0

    init(_ def: WeldJointDef) {
        localAnchorA = def.bodyA.localPoint(def.anchor)
        localAnchorB = def.bodyB.localPoint(def.anchor)
        referenceAngle = def.bodyB.angle - def.bodyA.angle
        frequency = def.frequency; dampingRatio = def.dampingRatio
        super.init(bodyA: def.bodyA, bodyB: def.bodyB, collideConnected: def.collideConnected)
    }

    /// The glue point on body A and on body B in world coordinates.
    public var anchorA: Vec2 { bodyA.worldPoint(localAnchorA) }
    public var anchorB: Vec2 { bodyB.worldPoint(localAnchorB) }
    /// The relative angle minus the reference angle (0 when held exactly).
    public var jointAngle: Double { bodyB.angle - bodyA.angle - referenceAngle }

    /// The 3×3 effective mass of (point, angle) for the given lever arms.
    @inline(__always) private func effectiveMass(_ rA: Vec2, _ rB: Vec2) {
        k11 = mA + mB + rA.y * rA.y * iA + rB.y * rB.y * iB
        k12 = -rA.y * rA.x * iA - rB.y * rB.x * iB
        k13 = -rA.y * iA - rB.y * iB
        k22 = mA + mB + rA.x * rA.x * iA + rB.x * rB.x * iB
        k23 = rA.x * iA + rB.x * iB
        k33 = iA + iB
    }

    override func prepare(_ bodies: UnsafeMutableBufferPointer<SolverBody>, dt: Double, warmStart: Bool, subStepped: Bool) {
        ia = bodyA.index; ib = bodyB.index
        let a = bodies[ia], b = bodies[ib]
        mA = bodyA.invMassValue; iA = bodyA.invI; mB = bodyB.invMassValue; iB = bodyB.invI
        rA = a.q.apply(localAnchorA - bodyA.localCenter)
        rB = b.q.apply(localAnchorB - bodyB.localCenter)
        effectiveMass(rA, rB)
        if frequency > 0 && k33 > 0 {
            let s = softness(frequency: frequency, dampingRatio: dampingRatio, mass: 1 / k33, dt: dt)
            gamma = s.gamma
            bias = (b.a - a.a - referenceAngle) * s.biasRate
            angularMass = 1 / (k33 + gamma)
        } else {
            gamma = 0; bias = 0
            angularMass = k33 > 0 ? 1 / k33 : 0
        }
        if warmStart {
            let p = Vec2(impulse.0, impulse.1)
            bodies[ia].v -= mA * p
            bodies[ia].w -= iA * (cross(rA, p) + impulse.2)
            bodies[ib].v += mB * p
            bodies[ib].w += iB * (cross(rB, p) + impulse.2)
        } else {
            impulse = (0, 0, 0)
        }
    }

    override func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        var vA = bodies[ia].v, wA = bodies[ia].w, vB = bodies[ib].v, wB = bodies[ib].w
        if frequency > 0 && k33 > 0 {
            // Soft angle first: λ = −m (Ċ + bias + γ λ_acc); then the point, as a 2×2 block.
            let j2 = -angularMass * (wB - wA + bias + gamma * impulse.2)
            impulse.2 += j2
            wA -= iA * j2; wB += iB * j2
            let cdot = vB + cross(wB, rB) - vA - cross(wA, rA)
            let j = solve2(k11, k12, k22, -cdot)
            impulse.0 += j.x; impulse.1 += j.y
            vA -= mA * j; wA -= iA * cross(rA, j)
            vB += mB * j; wB += iB * cross(rB, j)
        } else {
            let cdot = vB + cross(wB, rB) - vA - cross(wA, rA)
            var jx: Double, jy: Double, jz: Double
            if k33 > 0 {
                (jx, jy, jz) = solve3(k11, k12, k13, k22, k23, k33, (-cdot.x, -cdot.y, -(wB - wA)))
            } else {
                // Neither body turns: only the point.
                let j = solve2(k11, k12, k22, -cdot)
                jx = j.x; jy = j.y; jz = 0
            }
            impulse.0 += jx; impulse.1 += jy; impulse.2 += jz
            let p = Vec2(jx, jy)
            vA -= mA * p; wA -= iA * (cross(rA, p) + jz)
            vB += mB * p; wB += iB * (cross(rB, p) + jz)
        }
        bodies[ia].v = vA; bodies[ia].w = wA
        bodies[ib].v = vB; bodies[ib].w = wB
    }

    /// Position pass: the anchors back together and, when rigid, the angle back to the reference.
    override func solvePosition(_ bodies: UnsafeMutableBufferPointer<SolverBody>) -> Bool {
        var cA = bodies[ia].c, aA = bodies[ia].a, cB = bodies[ib].c, aB = bodies[ib].a
        let rA = bodies[ia].q.apply(localAnchorA - bodyA.localCenter)
        let rB = bodies[ib].q.apply(localAnchorB - bodyB.localCenter)
        effectiveMass(rA, rB)
        let c1 = cB + rB - cA - rA
        let positionError = c1.length
        var angularError = 0.0
        var p = Vec2.zero, l = 0.0
        if frequency > 0 && k33 > 0 {
            p = solve2(k11, k12, k22, -c1)
        } else {
            let c2 = aB - aA - referenceAngle
            angularError = abs(c2)
            if k33 > 0 {
                let (jx, jy, jz) = solve3(k11, k12, k13, k22, k23, k33, (-c1.x, -c1.y, -c2))
                p = Vec2(jx, jy); l = jz
            } else {
                p = solve2(k11, k12, k22, -c1)
            }
        }
        cA -= mA * p; aA -= iA * (cross(rA, p) + l)
        cB += mB * p; aB += iB * (cross(rB, p) + l)
        bodies[ia].c = cA; bodies[ia].a = aA; bodies[ia].q = Rot(angle: aA)
        bodies[ib].c = cB; bodies[ib].a = aB; bodies[ib].q = Rot(angle: aB)
        return positionError <= PhysicsSettings.linearSlop && angularError <= PhysicsSettings.angularSlop
    }
}

extension World {
    /// Glues two bodies together (see `WeldJointDef`).
    @discardableResult
    public func createWeldJoint(_ def: WeldJointDef) -> WeldJoint {
        addJoint(WeldJoint(def))
    }
}
