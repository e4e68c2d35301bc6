// The prismatic joint (a slider): body B moves relative to body A along one axis only,
// without relative rotation; optional translation limits and a linear motor.

/// How to create a prismatic joint: body B slides along `axis` through `anchor`, fixed to A.
public struct PrismaticJointDef {
    public var bodyA: Body
    public var bodyB: Body
    /// A point on the slide line, in world coordinates at creation time.
    public var anchor: Vec2
    /// Direction of the slide in world coordinates at creation time (need not be unit
    /// length); it turns with body A.
    public var axis: Vec2
    /// Whether the two bodies' shapes still collide with each other.
    public var collideConnected = false
    public var enableLimit = false
    /// Limits of the translation of B's anchor along the axis (m), measured from creation.
    public var lowerTranslation = 0.0
    public var upperTranslation = 0.0
    public var enableMotor = false
    /// Target relative speed along the axis (m/s).
    public var motorSpeed = 0.0
    /// Largest force the motor may use (N).
    public var maxMotorForce = 0.0
    public init(bodyA: Body, bodyB: Body, anchor: Vec2, axis: Vec2) {
        self.bodyA = bodyA; self.bodyB = bodyB; self.anchor = anchor; self.axis = axis
    }
}

/// Body B slides along an axis fixed in body A and may not rotate relative to A (within
/// the translation limits, driven by the motor when enabled).
public final class PrismaticJoint: Joint {
    public var enableLimit: Bool
    public var lowerTranslation: Double
    public var upperTranslation: Double
    public var enableMotor: Bool
    public var motorSpeed: Double
    public var maxMotorForce: Double
    /// The anchor in each body's frame (relative to the body origin).
    public let localAnchorA: Vec2
    public let localAnchorB: Vec2
    /// The unit slide axis in body A's frame.
    public let localAxisA: Vec2
    let localPerpA: Vec2
    let referenceAngle: Double

    // Accumulated impulses (warm starting): (perpendicular, angular), motor, limits.
    var impulse = Vec2.zero
    var motorImpulse = 0.0, lowerImpulse = 0.0, upperImpulse = 0.0
    var ia = 0, ib = 0
    var mA = 0.0, mB = 0.0, iA = 0.0, iB = 0.0
    var axis = Vec2.zero, perp = Vec2.zero
    var a1 = 0.0, a2 = 0.0, s1 = 0.0, s2 = 0.0
    var axialMass = 0.0
    var k11 = 0.0, k12 = 0.0, k22 = 0.0
    var translation = 0.0
    var dt = 0.0

    init(_ def: PrismaticJointDef) {
        enableLimit = def.enableLimit
        lowerTranslation = min(def.lowerTranslation, def.upperTranslation)
        upperTranslation = max(def.lowerTranslation, def.upperTranslation)
        enableMotor = def.enableMotor; motorSpeed = def.motorSpeed; maxMotorForce = def.maxMotorForce
        localAnchorA = def.bodyA.localPoint(def.anchor)
        localAnchorB = def.bodyB.localPoint(def.anchor)
        let ax = def.bodyA.transform.q.applyInverse(def.axis).normalized
        precondition(ax != .zero, "the prismatic axis must not be zero")
        localAxisA = ax
        localPerpA = ax.leftPerp
        referenceAngle = def.bodyB.angle - def.bodyA.angle
        super.init(bodyA: def.bodyA, bodyB: def.bodyB, collideConnected: def.collideConnected)
    }

    /// The anchor on body A and on body B in world coordinates (B's slides along the axis through A's).
    public var anchorA: Vec2 { bodyA.worldPoint(localAnchorA) }
    public var anchorB: Vec2 { bodyB.worldPoint(localAnchorB) }
    /// The slide axis in world coordinates.
    public var worldAxis: Vec2 { bodyA.transform.q.apply(localAxisA) }
    /// Translation of B's anchor from A's anchor along the axis (0 at creation).
    public var jointTranslation: Double {
        dot(bodyB.worldPoint(localAnchorB) - bodyA.worldPoint(localAnchorA), worldAxis)
    }
    /// Relative speed along the axis.
    public var jointSpeed: Double {
        let pA = bodyA.worldPoint(localAnchorA), pB = bodyB.worldPoint(localAnchorB)
        let ax = worldAxis
        return dot(pB - pA, cross(bodyA.angularVelocity, ax))
            + dot(ax, bodyB.velocity(atWorldPoint: pB) - bodyA.velocity(atWorldPoint: pA))
    }

    override func prepare(_ bodies: UnsafeMutableBufferPointer<SolverBody>, dt: Double, warmStart: Bool, subStepped: Bool) {
        self.dt = dt
        ia = bodyA.index; ib = bodyB.index
        let a = bodies[ia], b = bodies[ib]
        mA = bodyA.invMassValue; iA = bodyA.invI; mB = bodyB.invMassValue; iB = bodyB.invI
        let rA = a.q.apply(localAnchorA - bodyA.localCenter)
        let rB = b.q.apply(localAnchorB - bodyB.localCenter)
        let d = b.c - a.c + rB - rA
        axis = a.q.apply(localAxisA)
        a1 = cross(d + rA, axis); a2 = cross(rB, axis)
        let km = mA + mB + iA * a1 * a1 + iB * a2 * a2
        axialMass = km > 0 ? 1 / km : 0
        perp = a.q.apply(localPerpA)
        s1 = cross(d + rA, perp); s2 = cross(rB, perp)
        k11 = mA + mB + iA * s1 * s1 + iB * s2 * s2
        k12 = iA * s1 + iB * s2
        k22 = iA + iB
        if k22 == 0 { k22 = 1 }  // both bodies without rotation: the angular row is idle
        translation = dot(axis, d)
        if !enableMotor { motorImpulse = 0 }
        if !enableLimit { lowerImpulse = 0; upperImpulse = 0 }
        if warmStart {
            let axial = motorImpulse + lowerImpulse - upperImpulse
            let p = impulse.x * perp + axial * axis
            let lA = impulse.x * s1 + impulse.y + axial * a1
            let lB = impulse.x * s2 + impulse.y + axial * a2
            bodies[ia].v -= mA * p; bodies[ia].w -= iA * lA
            bodies[ib].v += mB * p; bodies[ib].w += iB * lB
        } else {
            impulse = .zero; motorImpulse = 0; lowerImpulse = 0; upperImpulse = 0
        }
    }

    override func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        var vA = bodies[ia].v, wA = bodies[ia].w, vB = bodies[ib].v, wB = bodies[ib].w
        if enableMotor {
            let cdot = dot(axis, vB - vA) + a2 * wB - a1 * wA
            let maxImpulse = dt * maxMotorForce
            let old = motorImpulse
            motorImpulse = min(max(old + axialMass * (motorSpeed - cdot), -maxImpulse), maxImpulse)
            let j = motorImpulse - old
            let p = j * axis
            vA -= mA * p; wA -= iA * j * a1
            vB += mB * p; wB += iB * j * a2
        }
        if enableLimit {
            // Lower: C = translation − lower ≥ 0; speculative while above it (bias C/dt).
            do {
                let c = translation - lowerTranslation
                let bias = max(c, 0) / dt
                let cdot = dot(axis, vB - vA) + a2 * wB - a1 * wA
                let old = lowerImpulse
                lowerImpulse = max(old - axialMass * (cdot + bias), 0)
                let j = lowerImpulse - old
                let p = j * axis
                vA -= mA * p; wA -= iA * j * a1
                vB += mB * p; wB += iB * j * a2
            }
            do {
                let c = upperTranslation - translation
                let bias = max(c, 0) / dt
                let cdot = dot(axis, vA - vB) + a1 * wA - a2 * wB
                let old = upperImpulse
                upperImpulse = max(old - axialMass * (cdot + bias), 0)
                let j = upperImpulse - old
                let p = j * axis
                vA += mA * p; wA += iA * j * a1
                vB -= mB * p; wB -= iB * j * a2
            }
        }
        // Stay on the line (perpendicular velocity zero) and keep the relative angle.
        let cdot = Vec2(dot(perp, vB - vA) + s2 * wB - s1 * wA, wB - wA)
        let j = solve2(k11, k12, k22, -cdot)
        impulse += j
        let p = j.x * perp
        vA -= mA * p; wA -= iA * (j.x * s1 + j.y)
        vB += mB * p; wB += iB * (j.x * s2 + j.y)
        bodies[ia].v = vA; bodies[ia].w = wA
        bodies[ib].v = vB; bodies[ib].w = wB
    }

    /// Position pass: back onto the line, back to the reference angle and, when a limit is
    /// violated, back inside it (solved together as one 3×3 block).
    override func solvePosition(_ bodies: UnsafeMutableBufferPointer<SolverBody>) -> Bool {
        var cA = bodies[ia].c, aA = bodies[ia].a, cB = bodies[ib].c, aB = bodies[ib].a
        let qA = bodies[ia].q, qB = bodies[ib].q
        let rA = qA.apply(localAnchorA - bodyA.localCenter)
        let rB = qB.apply(localAnchorB - bodyB.localCenter)
        let d = cB + rB - cA - rA
        let axis = qA.apply(localAxisA), perp = qA.apply(localPerpA)
        let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
        let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
        let c1 = Vec2(dot(perp, d), aB - aA - referenceAngle)
        var linearError = abs(c1.x)
        let angularError = abs(c1.y)
        var c2 = 0.0, active = false
        if enableLimit {
            let t = dot(axis, d)
            let slop = PhysicsSettings.linearSlop, maxC = PhysicsSettings.maxLinearCorrection
            if upperTranslation - lowerTranslation < 2 * slop {
                c2 = min(max(t - lowerTranslation, -maxC), maxC)
                linearError = max(linearError, abs(t - lowerTranslation)); active = true
            } else if t <= lowerTranslation {
                c2 = min(max(t - lowerTranslation + slop, -maxC), 0)
                linearError = max(linearError, lowerTranslation - t); active = true
            } else if t >= upperTranslation {
                c2 = min(max(t - upperTranslation - slop, 0), maxC)
                linearError = max(linearError, t - upperTranslation); active = true
            }
        }
        let k11 = mA + mB + iA * s1 * s1 + iB * s2 * s2
        let k12 = iA * s1 + iB * s2
        var k22 = iA + iB
        if k22 == 0 { k22 = 1 }
        var jx = 0.0, jy = 0.0, jz = 0.0
        if active {
            let k13 = iA * s1 * a1 + iB * s2 * a2
            let k23 = iA * a1 + iB * a2
            let k33 = mA + mB + iA * a1 * a1 + iB * a2 * a2
            (jx, jy, jz) = solve3(k11, k12, k13, k22, k23, k33, (-c1.x, -c1.y, -c2))
        } else {
            let j = solve2(k11, k12, k22, -c1)
            jx = j.x; jy = j.y
        }
        let p = jx * perp + jz * axis
        cA -= mA * p; aA -= iA * (jx * s1 + jy + jz * a1)
        cB += mB * p; aB += iB * (jx * s2 + jy + jz * a2)
        bodies[ia].c = cA; bodies[ia].a = aA; bodies[ia].q = Rot(angle: aA)
        bodies[ib].c = cB; bodies[ib].a = aB; bodies[ib].q = Rot(angle: aB)
        return linearError <= PhysicsSettings.linearSlop && angularError <= PhysicsSettings.angularSlop
    }
}

extension World {
    /// Makes body B slide along an axis of body A (see `PrismaticJointDef`).
    @discardableResult
    public func createPrismaticJoint(_ def: PrismaticJointDef) -> PrismaticJoint {
        addJoint(PrismaticJoint(def))
    }
}
