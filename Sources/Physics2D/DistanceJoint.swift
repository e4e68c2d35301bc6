// The distance joint: keeps two anchor points at a set distance (a rigid rod), lets the
// distance vary between limits (a rope), or pulls it towards its rest length with a
// damped spring (a soft constraint, as in Box2D 2.4).

/// How to create a distance joint between an anchor on body A and one on body B.
///
/// - Rigid rod (the default): `frequency` 0 and no `minLength`/`maxLength`; the distance
///   stays `length`.
/// - Rope: `frequency` 0 and `maxLength` (and/or `minLength`) set; the distance is free
///   between `minLength` (default 0) and `maxLength` (default unbounded).
/// - Spring: `frequency` > 0; the distance is pulled towards `length` by a spring of that
///   natural frequency and `dampingRatio`, and kept within `minLength`/`maxLength` if set.
public struct DistanceJointDef {
    public var bodyA: Body
    public var bodyB: Body
    /// The anchor on body A, in world coordinates at creation time.
    public var anchorA: Vec2
    /// The anchor on body B, in world coordinates at creation time.
    public var anchorB: Vec2
    /// Rest length (m); nil: the distance between the two anchors at creation.
    public var length: Double?
    /// Shortest allowed distance (m); nil: 0, or `length` for a rigid rod.
    public var minLength: Double?
    /// Longest allowed distance (m); nil: unbounded, or `length` for a rigid rod.
    public var maxLength: Double?
    /// Natural frequency of the spring (Hz); 0 means no spring (rigid or rope).
    public var frequency = 0.0
    /// Damping ratio of the spring: 0 undamped, 1 critically damped.
    public var dampingRatio = 0.0
    /// Whether the two bodies' shapes still collide with each other.
    public var collideConnected = false
    public init(bodyA: Body, bodyB: Body, anchorA: Vec2, anchorB: Vec2) {
        self.bodyA = bodyA; self.bodyB = bodyB; self.anchorA = anchorA; self.anchorB = anchorB
    }
}

/// Keeps the distance between two anchor points at `length` (rigid), within
/// `minLength...maxLength` (rope), or pulled towards `length` by a spring.
public final class DistanceJoint: Joint {
    /// The anchors in each body's frame (relative to the body origin).
    public let localAnchorA: Vec2
    public let localAnchorB: Vec2
    /// Rest length (m): the rigid length, or where the spring is relaxed.
    public var length: Double
    /// Shortest allowed distance (m). Equal to `maxLength` for a rigid rod.
    public var minLength: Double
    /// Longest allowed distance (m, may be infinite). Equal to `minLength` for a rigid rod.
    public var maxLength: Double
    /// Natural frequency of the spring (Hz); 0: no spring. The spring acts only when
    /// `minLength < maxLength`.
    public var frequency: Double
    /// Damping ratio of the spring.
    public var dampingRatio: Double

    // Accumulated impulses (warm starting) and per-step solver data.
    var impulse = 0.0, lowerImpulse = 0.0, upperImpulse = 0.0
    var ia = 0, ib = 0
    var rA = Vec2.zero, rB = Vec2.zero, u = Vec2.zero
    var mA = 0.0, mB = 0.0, iA = 0.0, iB = 0.0
    var currentLength = 0.0
    var mass = 0.0, softMass = 0.0, gamma = 0.0, bias = 0.0
    var dt = 0.0

    init(_ def: DistanceJointDef) {
        localAnchorA = def.bodyA.localPoint(def.anchorA)
        localAnchorB = def.bodyB.localPoint(def.anchorB)
        let rest = max(def.length ?? (def.anchorB - def.anchorA).length, PhysicsSettings.linearSlop)
        length = rest
        if def.frequency <= 0 && def.minLength == nil && def.maxLength == nil {
            minLength = rest; maxLength = rest
        } else {
            minLength = max(def.minLength ?? 0, 0)
            maxLength = max(def.maxLength ?? .infinity, minLength)
        }
        frequency = def.frequency; dampingRatio = def.dampingRatio
        super.init(bodyA: def.bodyA, bodyB: def.bodyB, collideConnected: def.collideConnected)
    }

    /// The anchors in world coordinates.
    public var anchorA: Vec2 { bodyA.worldPoint(localAnchorA) }
    public var anchorB: Vec2 { bodyB.worldPoint(localAnchorB) }
    /// The current distance between the anchors.
    public var currentDistance: Double { (anchorB - anchorA).length }

    override func prepare(_ bodies: UnsafeMutableBufferPointer<SolverBody>, dt: Double, warmStart: Bool, subStepped: Bool) {
        self.dt = dt
        ia = bodyA.index; ib = bodyB.index
        let a = bodies[ia], b = bodies[ib]
        mA = bodyA.invMassValue; iA = bodyA.invI; mB = bodyB.invMassValue; iB = bodyB.invI
        rA = a.q.apply(localAnchorA - bodyA.localCenter)
        rB = b.q.apply(localAnchorB - bodyB.localCenter)
        let d = b.c + rB - a.c - rA
        currentLength = d.length
        u = currentLength > PhysicsSettings.linearSlop ? (1 / currentLength) * d : .zero
        let crA = cross(rA, u), crB = cross(rB, u)
        let invMass = mA + iA * crA * crA + mB + iB * crB * crB
        mass = invMass != 0 ? 1 / invMass : 0
        if minLength < maxLength && frequency > 0 {
            let s = softness(frequency: frequency, dampingRatio: dampingRatio, mass: mass, dt: dt)
            gamma = s.gamma
            bias = (currentLength - length) * s.biasRate
            let k = invMass + gamma
            softMass = k != 0 ? 1 / k : 0
        } else {
            gamma = 0; bias = 0; softMass = mass
            impulse = minLength < maxLength ? 0 : impulse   // no spring: nothing to warm start there
        }
        if minLength >= maxLength { lowerImpulse = 0; upperImpulse = 0 }
        if warmStart {
            let p = (impulse + lowerImpulse - upperImpulse) * u
            bodies[ia].v -= mA * p
            bodies[ia].w -= iA * cross(rA, p)
            bodies[ib].v += mB * p
            bodies[ib].w += iB * cross(rB, p)
        } else {
            impulse = 0; lowerImpulse = 0; upperImpulse = 0
        }
    }

    override func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        var vA = bodies[ia].v, wA = bodies[ia].w, vB = bodies[ib].v, wB = bodies[ib].w
        if minLength < maxLength {
            if frequency > 0 {
                // Spring: λ = −m_soft (Ċ + bias + γ λ_acc).
                let cdot = dot(u, vB + cross(wB, rB) - vA - cross(wA, rA))
                let j = -softMass * (cdot + bias + gamma * impulse)
                impulse += j
                let p = j * u
                vA -= mA * p; wA -= iA * cross(rA, p)
                vB += mB * p; wB += iB * cross(rB, p)
            }
            if minLength > 0 {
                // Lower limit: C = length − min ≥ 0; speculative while longer (bias C/dt).
                let c = currentLength - minLength
                let bias = max(c, 0) / dt
                let cdot = dot(u, vB + cross(wB, rB) - vA - cross(wA, rA))
                let old = lowerImpulse
                lowerImpulse = max(old - mass * (cdot + bias), 0)
                let p = (lowerImpulse - old) * u
                vA -= mA * p; wA -= iA * cross(rA, p)
                vB += mB * p; wB += iB * cross(rB, p)
            }
            if maxLength < .infinity {
                // Upper limit: C = max − length ≥ 0.
                let c = maxLength - currentLength
                let bias = max(c, 0) / dt
                let cdot = dot(u, vA + cross(wA, rA) - vB - cross(wB, rB))
                let old = upperImpulse
                upperImpulse = max(old - mass * (cdot + bias), 0)
                let p = (upperImpulse - old) * u
                vA += mA * p; wA += iA * cross(rA, p)
                vB -= mB * p; wB -= iB * cross(rB, p)
            }
        } else {
            // Rigid: the anchors' relative velocity along u is zero.
            let cdot = dot(u, vB + cross(wB, rB) - vA - cross(wA, rA))
            let j = -mass * cdot
            impulse += j
            let p = j * u
            vA -= mA * p; wA -= iA * cross(rA, p)
            vB += mB * p; wB += iB * cross(rB, p)
        }
        bodies[ia].v = vA; bodies[ia].w = wA
        bodies[ib].v = vB; bodies[ib].w = wB
    }

    /// Position pass: a rigid rod is pulled back to its length, a rope or spring back
    /// inside its limits (the spring itself is not corrected here).
    override func solvePosition(_ bodies: UnsafeMutableBufferPointer<SolverBody>) -> Bool {
        var cA = bodies[ia].c, aA = bodies[ia].a, cB = bodies[ib].c, aB = bodies[ib].a
        let rA = bodies[ia].q.apply(localAnchorA - bodyA.localCenter)
        let rB = bodies[ib].q.apply(localAnchorB - bodyB.localCenter)
        var d = cB + rB - cA - rA
        let len = d.length
        d = len > 1e-12 ? (1 / len) * d : .zero
        var c: Double
        if minLength >= maxLength { c = len - minLength }
        else if len < minLength { c = len - minLength }
        else if len > maxLength { c = len - maxLength }
        else { return true }
        c = min(max(c, -PhysicsSettings.maxLinearCorrection), PhysicsSettings.maxLinearCorrection)
        let crA = cross(rA, d), crB = cross(rB, d)
        let k = mA + iA * crA * crA + mB + iB * crB * crB
        let p = (k != 0 ? -c / k : 0) * d
        cA -= mA * p; aA -= iA * cross(rA, p)
        cB += mB * p; aB += iB * cross(rB, p)
        bodies[ia].c = cA; bodies[ia].a = aA; bodies[ia].q = Rot(angle: aA)
        bodies[ib].c = cB; bodies[ib].a = aB; bodies[ib].q = Rot(angle: aB)
        return abs(c) < PhysicsSettings.linearSlop
    }
}

extension World {
    /// Keeps two anchors at a distance, within limits, or on a spring (see `DistanceJointDef`).
    @discardableResult
    public func createDistanceJoint(_ def: DistanceJointDef) -> DistanceJoint {
        addJoint(DistanceJoint(def))
    }
}
