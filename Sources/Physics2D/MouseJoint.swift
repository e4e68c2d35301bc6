// The mouse joint (Box2D's name; the "target" joint): pulls a point of one body towards a
// target point in the world with a damped spring of limited force. It is what drags a
// body around under a finger or a mouse pointer.

/// How to create a mouse (target) joint on one dynamic body.
///
/// ```swift
/// // Touch began on a body: grab it where the finger is.
/// var def = MouseJointDef(body: box, target: fingerPoint)
/// def.maxForce = 1000 * box.mass              // strong enough to lift it
/// let drag = world.createMouseJoint(def)
/// // Touch moved:
/// drag.target = fingerPoint
/// // Touch ended:
/// world.removeJoint(drag)
/// ```
public struct MouseJointDef {
    /// The dragged body (dynamic).
    public var body: Body
    /// The target, in world coordinates; the grabbed point on the body is this point at creation.
    public var target: Vec2
    /// Largest force the joint may apply (N). Make it a multiple of the body's weight to lift it.
    public var maxForce = 0.0
    /// Natural frequency of the spring pulling the body (Hz); must be > 0.
    public var frequency = 5.0
    /// Damping ratio of the spring: 0 undamped, 1 critically damped.
    public var dampingRatio = 0.7
    public init(body: Body, target: Vec2) {
        self.body = body; self.target = target
    }
}

/// Pulls a point of one body towards `target` with a soft spring (`frequency`,
/// `dampingRatio`) whose force is capped at `maxForce` — the joint for dragging a body with
/// a finger. It has a single body: `bodyA` and `bodyB` are both the dragged body, and the
/// other end is the fixed world point `target`. Like Box2D's, it also slows the body's
/// spin a little (2 % per 1/60 s) so a body held off-centre does not swing for ever.
public final class MouseJoint: Joint {
    /// The grabbed point in the body's frame.
    public let localAnchor: Vec2
    /// Largest force (N).
    public var maxForce: Double
    /// Natural frequency (Hz) of the pulling spring.
    public var frequency: Double
    /// Damping ratio of the pulling spring.
    public var dampingRatio: Double
    /// Where the grabbed point is pulled to (world coordinates). Setting it wakes the body.
    public var target: Vec2 {
        didSet { bodyB.wake() }
    }

    var impulse = Vec2.zero
    var ib = 0
    var rB = Vec2.zero
    var mB = 0.0, iB = 0.0
    var k11 = 0.0, k12 = 0.0, k22 = 0.0
    var gamma = 0.0
    var positionBias = Vec2.zero
    var maxImpulse = 0.0

    init(_ def: MouseJointDef) {
        localAnchor = def.body.localPoint(def.target)
        maxForce = def.maxForce; frequency = def.frequency; dampingRatio = def.dampingRatio
        target = def.target
        // No second body: nothing to keep apart, so it never filters contacts.
        super.init(bodyA: def.body, bodyB: def.body, collideConnected: true)
    }

    /// The dragged body.
    public var body: Body { bodyB }
    /// The grabbed point in world coordinates.
    public var anchor: Vec2 { bodyB.worldPoint(localAnchor) }

    override func prepare(_ bodies: UnsafeMutableBufferPointer<SolverBody>, dt: Double, warmStart: Bool, subStepped: Bool) {
        ib = bodyB.index
        let b = bodies[ib]
        mB = bodyB.invMassValue; iB = bodyB.invI
        rB = b.q.apply(localAnchor - bodyB.localCenter)
        let mass = mB > 0 ? 1 / mB : 0
        let s = softness(frequency: frequency, dampingRatio: dampingRatio, mass: mass, dt: dt)
        gamma = s.gamma
        positionBias = s.biasRate * (b.c + rB - target)
        // K = [mB + iB·rB.y² + γ, −iB·rB.x·rB.y; …, mB + iB·rB.x² + γ].
        k11 = mB + iB * rB.y * rB.y + gamma
        k12 = -iB * rB.x * rB.y
        k22 = mB + iB * rB.x * rB.x + gamma
        maxImpulse = dt * maxForce
        bodies[ib].w *= max(0, 1 - 0.02 * (60 * dt))
        if warmStart {
            bodies[ib].v += mB * impulse
            bodies[ib].w += iB * cross(rB, impulse)
        } else {
            impulse = .zero
        }
    }

    override func solveVelocity(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        var vB = bodies[ib].v, wB = bodies[ib].w
        let cdot = vB + cross(wB, rB)
        var j = solve2(k11, k12, k22, -(cdot + positionBias + gamma * impulse))
        let old = impulse
        impulse += j
        if impulse.lengthSquared > maxImpulse * maxImpulse {
            impulse = (maxImpulse / impulse.length) * impulse
        }
        j = impulse - old
        vB += mB * j
        wB += iB * cross(rB, j)
        bodies[ib].v = vB; bodies[ib].w = wB
    }

    // No position pass: the spring is soft by design.
}

extension World {
    /// Pulls a body towards a target point, e.g. under a finger (see `MouseJointDef`).
    @discardableResult
    public func createMouseJoint(_ def: MouseJointDef) -> MouseJoint {
        precondition(def.frequency > 0, "a mouse joint needs a frequency > 0")
        return addJoint(MouseJoint(def))
    }
}
