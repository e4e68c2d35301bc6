// Joints: the common base class and the revolute joint (a shared pin, with optional
// angle limits and a motor). The distance, prismatic, weld and mouse joints live in
// their own files; every joint is solved with the contacts (velocity iterations, then
// position iterations) on the solver's body array.

/// A constraint between two bodies. Create one with a `World.createXJoint(_:)` method
/// (`createRevoluteJoint`, `createDistanceJoint`, `createPrismaticJoint`, `createWeldJoint`,
/// `createMouseJoint`) and remove it with `World.removeJoint(_:)`; removing a body removes
/// its joints. Jointed bodies share a sleeping island.
public class Joint {
    /// The first body (for a `MouseJoint`, the dragged body itself).
    public let bodyA: Body
    /// The second body (for a `MouseJoint`, the dragged body itself).
    public let bodyB: Body
    /// Whether the two bodies' shapes still collide with each other.
    public let collideConnected: Bool
    /// Anything the game wants to attach.
    public var userData: AnyObject?
    /// Index in the world's joint array (-1 once removed).
    var index = -1
    init(bodyA: Body, bodyB: Body, collideConnected: Bool) {
        self.bodyA = bodyA; self.bodyB = bodyB; self.collideConnected = collideConnected
    }

    /// Whether the joint is in a world (false once removed, or once one of its bodies was).
    public var isActive: Bool { index >= 0 }

    /// Per step (per sub-step on the soft step, `subStepped`): read the bodies' solver data,
    /// compute effective masses, apply the accumulated impulses when warm starting (zero them
    /// otherwise).
    func prepare(_ bodies: UnsafeMutableBufferPointer<SolverBody>, dt: Double, warmStart: Bool, subStepped: Bool) {}
    /// One velocity iteration.
    func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {}
    /// One position iteration; returns whether the error is within tolerance.
    func solvePosition(_ bodies: UnsafeMutableBufferPointer<SolverBody>) -> Bool { true }
}

/// How to create a revolute joint: two bodies pinned together at a world point.
public struct RevoluteJointDef {
    public var bodyA: Body
    public var bodyB: Body
    /// The pin, in world coordinates at creation time.
    public var anchor: Vec2
    /// Whether the two bodies' shapes still collide with each other.
    public var collideConnected = false
    public var enableLimit = false
    /// Limits of the angle of B relative to A (radians), measured from the angle at creation.
    public var lowerAngle = 0.0
    public var upperAngle = 0.0
    public var enableMotor = false
    /// Target relative angular velocity (rad/s).
    public var motorSpeed = 0.0
    /// Largest torque the motor may use (N·m).
    public var maxMotorTorque = 0.0
    public init(bodyA: Body, bodyB: Body, anchor: Vec2) {
        self.bodyA = bodyA; self.bodyB = bodyB; self.anchor = anchor
    }
}

/// Two bodies pinned together at one point; they may turn freely about it (within the limits,
/// driven by the motor when enabled).
public final class RevoluteJoint: Joint {
    public var enableLimit: Bool
    public var lowerAngle: Double
    public var upperAngle: Double
    public var enableMotor: Bool
    public var motorSpeed: Double
    public var maxMotorTorque: Double
    /// The pin in each body's frame (relative to the body origin).
    public let localAnchorA: Vec2
    public let localAnchorB: Vec2
    let referenceAngle: Double

    // Accumulated impulses (warm starting) and per-step solver data.
    var impulse = Vec2.zero
    var motorImpulse = 0.0
    var lowerImpulse = 0.0
    var upperImpulse = 0.0
    var ia = 0, ib = 0
    var rA = Vec2.zero, rB = Vec2.zero
    var mA = 0.0, mB = 0.0, iA = 0.0, iB = 0.0
    var axialMass = 0.0
    var dt = 0.0
    /// This step's limit is solved with the pin as one block (the soft step's; see
    /// `solveLimitWithPin`), not one after the other (the legacy step's).
    var limitWithPin = false

    init(_ def: RevoluteJointDef) {
        enableLimit = def.enableLimit; lowerAngle = def.lowerAngle; upperAngle = def.upperAngle
        enableMotor = def.enableMotor; motorSpeed = def.motorSpeed; maxMotorTorque = def.maxMotorTorque
        localAnchorA = def.bodyA.localPoint(def.anchor)
        localAnchorB = def.bodyB.localPoint(def.anchor)
        referenceAngle = def.bodyB.angle - def.bodyA.angle
        super.init(bodyA: def.bodyA, bodyB: def.bodyB, collideConnected: def.collideConnected)
    }

    /// The angle of B relative to A, minus the angle at creation.
    public var jointAngle: Double { bodyB.angle - bodyA.angle - referenceAngle }
    /// The pin on body A and on body B in world coordinates (they agree up to the solver's tolerance).
    public var anchorA: Vec2 { bodyA.worldPoint(localAnchorA) }
    public var anchorB: Vec2 { bodyB.worldPoint(localAnchorB) }

    override func prepare(_ bodies: UnsafeMutableBufferPointer<SolverBody>, dt: Double, warmStart: Bool, subStepped: Bool) {
        self.dt = dt
        limitWithPin = subStepped && lowerAngle < upperAngle
        ia = bodyA.index; ib = bodyB.index
        let a = bodies[ia], b = bodies[ib]
        mA = bodyA.invMassValue; iA = bodyA.invI; mB = bodyB.invMassValue; iB = bodyB.invI
        rA = a.q.apply(localAnchorA - bodyA.localCenter)
        rB = b.q.apply(localAnchorB - bodyB.localCenter)
        let k = iA + iB
        axialMass = k > 0 ? 1 / k : 0
        if !enableMotor { motorImpulse = 0 }
        if !enableLimit { lowerImpulse = 0; upperImpulse = 0 }
        if warmStart {
            let axial = motorImpulse + lowerImpulse - upperImpulse
            bodies[ia].v -= mA * impulse
            bodies[ia].w -= iA * (cross(rA, impulse) + axial)
            bodies[ib].v += mB * impulse
            bodies[ib].w += iB * (cross(rB, impulse) + axial)
        } else {
            impulse = .zero; motorImpulse = 0; lowerImpulse = 0; upperImpulse = 0
        }
    }

    override func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        var vA = bodies[ia].v, wA = bodies[ia].w, vB = bodies[ib].v, wB = bodies[ib].w
        let fixedRotation = iA + iB == 0
        if enableMotor && !fixedRotation {
            let cdot = wB - wA - motorSpeed
            let maxImpulse = dt * maxMotorTorque
            let old = motorImpulse
            motorImpulse = min(max(old - axialMass * cdot, -maxImpulse), maxImpulse)
            let d = motorImpulse - old
            wA -= iA * d; wB += iB * d
        }
        if enableLimit && !fixedRotation && limitWithPin {
            // The soft step: the nearer limit and the pin as one 3×3 block (see below).
            let angle = bodies[ib].a - bodies[ia].a - referenceAngle
            let lower = angle - lowerAngle <= upperAngle - angle
            solveLimitWithPin(lower ? 1 : -1, gap: lower ? angle - lowerAngle : upperAngle - angle,
                              &vA, &wA, &vB, &wB)
            bodies[ia].v = vA; bodies[ia].w = wA
            bodies[ib].v = vB; bodies[ib].w = wB
            return
        }
        if enableLimit && !fixedRotation {
            let angle = bodies[ib].a - bodies[ia].a - referenceAngle
            // Lower limit: C = angle − lower ≥ 0; speculative while apart (bias C/dt).
            do {
                let c = angle - lowerAngle
                let bias = c > 0 ? c / dt : 0
                let cdot = wB - wA
                let old = lowerImpulse
                lowerImpulse = max(old - axialMass * (cdot + bias), 0)
                let d = lowerImpulse - old
                wA -= iA * d; wB += iB * d
            }
            do {
                let c = upperAngle - angle
                let bias = c > 0 ? c / dt : 0
                let cdot = wA - wB
                let old = upperImpulse
                upperImpulse = max(old - axialMass * (cdot + bias), 0)
                let d = upperImpulse - old
                wA += iA * d; wB -= iB * d
            }
        }
        // The pin: relative velocity of the two anchor points is zero.
        let cdot = vB + cross(wB, rB) - vA - cross(wA, rA)
        let (k11, k12, k22) = pinMass(rA, rB)
        let j = solve2(k11, k12, k22, -cdot)
        impulse += j
        vA -= mA * j; wA -= iA * cross(rA, j)
        vB += mB * j; wB += iB * cross(rB, j)
        bodies[ia].v = vA; bodies[ia].w = wA
        bodies[ib].v = vB; bodies[ib].w = wB
    }

    /// The soft step's limit: the pin and the nearer limit (`sign` +1: the lower, −1: the upper;
    /// `gap`: how far the angle is from it, negative past it) solved together, as Box2D 2.3's
    /// 3×3 block. Solved one after the other, the pin hands the swing back to the limit through
    /// the bob's own small inertia, and with the soft step's two passes per sub-step a pendulum
    /// bounced off its stop like a spring; the block stops it in one pass. While apart the
    /// limit is speculative (the gap may close within the sub-step); when the block would pull,
    /// the limit's impulse is let go and the pin alone is solved.
    @inline(__always)
    private func solveLimitWithPin(_ sign: Double, gap: Double,
                                   _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double) {
        let (k11, k12, k22) = pinMass(rA, rB)
        let k13 = sign * (-iA * rA.y - iB * rB.y), k23 = sign * (iA * rA.x + iB * rB.x), k33 = iA + iB
        let cdot1 = vB + cross(wB, rB) - vA - cross(wA, rA)
        let cdot2 = sign * (wB - wA) + (gap > 0 ? gap / dt : 0)
        let (x, y, z) = solve3(k11, k12, k13, k22, k23, k33, (-cdot1.x, -cdot1.y, -cdot2))
        // The other limit lets go of what it held.
        let other = sign > 0 ? upperImpulse : lowerImpulse
        var held = sign > 0 ? lowerImpulse : upperImpulse
        var p = Vec2(x, y), axial = z
        if held + z >= 0 {
            held += z
        } else {
            p = solve2(k11, k12, k22, Vec2(-cdot1.x + held * k13, -cdot1.y + held * k23))
            axial = -held
            held = 0
        }
        if sign > 0 { lowerImpulse = held; upperImpulse = 0 } else { upperImpulse = held; lowerImpulse = 0 }
        let turn = sign * axial + (sign > 0 ? other : -other)
        impulse += p
        vA -= mA * p; wA -= iA * (cross(rA, p) + turn)
        vB += mB * p; wB += iB * (cross(rB, p) + turn)
    }

    /// The pin's 2×2 effective mass matrix [k11 k12; k12 k22] for the anchors `rA`, `rB`.
    @inline(__always)
    private func pinMass(_ rA: Vec2, _ rB: Vec2) -> (Double, Double, Double) {
        (mA + mB + iA * rA.y * rA.y + iB * rB.y * rB.y,
         -iA * rA.x * rA.y - iB * rB.x * rB.y,
         mA + mB + iA * rA.x * rA.x + iB * rB.x * rB.x)
    }

    /// Position pass: pulls the anchors together and the angle back inside the limits.
    /// Returns whether the error is within tolerance.
    override func solvePosition(_ bodies: UnsafeMutableBufferPointer<SolverBody>) -> Bool {
        var cA = bodies[ia].c, aA = bodies[ia].a, cB = bodies[ib].c, aB = bodies[ib].a
        var angularError = 0.0
        if enableLimit && iA + iB > 0 {
            let angle = aB - aA - referenceAngle
            var c = 0.0
            if angle < lowerAngle { c = min(max(angle - lowerAngle + 2 * PhysicsSettings.angularSlop, -PhysicsSettings.maxAngularCorrection), 0) }
            else if angle > upperAngle { c = min(max(angle - upperAngle - 2 * PhysicsSettings.angularSlop, 0), PhysicsSettings.maxAngularCorrection) }
            angularError = abs(c)
            let limitImpulse = -axialMass * c
            aA -= iA * limitImpulse; aB += iB * limitImpulse
        }
        let qA = Rot(angle: aA), qB = Rot(angle: aB)
        let rA = qA.apply(localAnchorA - bodyA.localCenter)
        let rB = qB.apply(localAnchorB - bodyB.localCenter)
        let c = cB + rB - cA - rA
        let positionError = c.length
        let (k11, k12, k22) = pinMass(rA, rB)
        let j = solve2(k11, k12, k22, -c)
        cA -= mA * j; aA -= iA * cross(rA, j)
        cB += mB * j; aB += iB * cross(rB, j)
        bodies[ia].c = cA; bodies[ia].a = aA; bodies[ia].q = Rot(angle: aA)
        bodies[ib].c = cB; bodies[ib].a = aB; bodies[ib].q = Rot(angle: aB)
        return positionError <= PhysicsSettings.linearSlop && angularError <= PhysicsSettings.angularSlop
    }
}

/// Solves the symmetric 3×3 system [k11 k12 k13; k12 k22 k23; k13 k23 k33]·x = b by Cramer's
/// rule (zero if singular); returns (x, y, z).
@inline(__always) func solve3(_ k11: Double, _ k12: Double, _ k13: Double, _ k22: Double, _ k23: Double,
                              _ k33: Double, _ b: (Double, Double, Double)) -> (Double, Double, Double) {
    // Cofactors of the symmetric matrix.
    let c11 = k22 * k33 - k23 * k23
    let c12 = k13 * k23 - k12 * k33
    let c13 = k12 * k23 - k13 * k22
    var det = k11 * c11 + k12 * c12 + k13 * c13
    if det != 0 { det = 1 / det }
    let c22 = k11 * k33 - k13 * k13
    let c23 = k12 * k13 - k11 * k23
    let c33 = k11 * k22 - k12 * k12
    return (det * (c11 * b.0 + c12 * b.1 + c13 * b.2),
            det * (c12 * b.0 + c22 * b.1 + c23 * b.2),
            det * (c13 * b.0 + c23 * b.1 + c33 * b.2))
}

/// Soft-constraint coefficients (Catto, "Soft Constraints", GDC 2011; Box2D 2.4): a spring of
/// `frequency` Hz and `dampingRatio` acting on a constraint of effective mass `mass`, stepped
/// implicitly over `dt`. The velocity solve then uses `λ = −m_soft (Ċ + bias + γ·λ_acc)` with
/// `m_soft = 1 / (1/mass + γ)`. Returns (γ, bias / C): multiply the second by C.
@inline(__always) func softness(frequency: Double, dampingRatio: Double, mass: Double, dt: Double) -> (gamma: Double, biasRate: Double) {
    let omega = 2 * Double.pi * frequency
    let k = mass * omega * omega          // spring stiffness
    let c = 2 * mass * dampingRatio * omega  // damper coefficient
    var gamma = dt * (c + dt * k)
    gamma = gamma != 0 ? 1 / gamma : 0
    return (gamma, dt * k * gamma)
}

/// Solves the symmetric 2×2 system [k11 k12; k12 k22]·x = b (zero if singular).
@inline(__always) func solve2(_ k11: Double, _ k12: Double, _ k22: Double, _ b: Vec2) -> Vec2 {
    var det = k11 * k22 - k12 * k12
    if det != 0 { det = 1 / det }
    return Vec2(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k12 * b.x))
}
