// Rigid bodies: kinematic state, mass, forces, and the shapes attached to them.

/// How a body moves.
public enum BodyType: String, Sendable {
    /// Never moves (ground, walls); infinite mass.
    case `static`
    /// Moves with its set velocity, is not pushed by anything; infinite mass.
    case kinematic
    /// Moved by gravity, forces and contacts.
    case dynamic
}

/// The initial state of a body.
public struct BodyDef: Sendable {
    public var type: BodyType = .static
    public var position: Vec2 = .zero
    public var angle: Double = 0
    public var linearVelocity: Vec2 = .zero
    public var angularVelocity: Double = 0
    public var linearDamping: Double = 0
    public var angularDamping: Double = 0
    public var gravityScale: Double = 1
    public var fixedRotation = false
    /// Whether the body may fall asleep (see `Body.allowSleep`).
    public var allowSleep = true
    /// Whether the body starts awake (static bodies are never awake).
    public var isAwake = true
    /// A bullet is swept every step it moves, not only when it moves farther than its own
    /// size, and also against dynamic bodies (see `Body.isBullet`).
    public var isBullet = false
    public init(type: BodyType = .static, position: Vec2 = .zero, angle: Double = 0,
                linearVelocity: Vec2 = .zero, angularVelocity: Double = 0,
                linearDamping: Double = 0, angularDamping: Double = 0,
                gravityScale: Double = 1, fixedRotation: Bool = false) {
        self.type = type; self.position = position; self.angle = angle
        self.linearVelocity = linearVelocity; self.angularVelocity = angularVelocity
        self.linearDamping = linearDamping; self.angularDamping = angularDamping
        self.gravityScale = gravityScale; self.fixedRotation = fixedRotation
    }
}

/// A rigid body. Create it with `World.createBody(_:)`.
public final class Body {
    public let type: BodyType
    /// Shapes in the order they were attached.
    public var shapes: [Shape] { shapeList }
    /// The world this body lives in (nil once removed, or once the world is gone).
    /// Not `weak` (Embedded Swift has no weak references): the world clears it when it
    /// removes the body and in its deinit, so it never dangles.
    public internal(set) unowned(unsafe) var world: World?
    /// Anything the game wants to attach.
    public var userData: AnyObject?
    public var linearDamping: Double {
        get { linearDampingValue }
        set { linearDampingValue = newValue }
    }
    public var angularDamping: Double {
        get { angularDampingValue }
        set { angularDampingValue = newValue }
    }
    public var gravityScale: Double {
        get { gravityScaleValue }
        set { gravityScaleValue = newValue }
    }
    public private(set) var fixedRotation: Bool
    /// Stable id, assigned by the world in creation order.
    public internal(set) var id: Int = -1

    // Internal storage behind public properties the step reads for every body. Public
    // stored `var`s of a class keep dynamic exclusivity checks (a call into the Swift
    // runtime per access); internal ones are checked statically under whole-module
    // optimisation.
    var shapeList: [Shape] = []
    var linearDampingValue: Double
    var angularDampingValue: Double
    var gravityScaleValue: Double
    var invMassValue: Double = 0

    // Index in the world's body array (changes when other bodies are removed).
    var index: Int = -1
    // State: the centre of mass in world space and the angle; the transform of the origin derives from them.
    var center: Vec2
    var angleValue: Double
    var xf: Transform
    var localCenter: Vec2 = .zero
    var v: Vec2
    var w: Double
    var force: Vec2 = .zero
    var torque: Double = 0
    public private(set) var mass: Double = 0
    public var invMass: Double { invMassValue }
    /// Rotational inertia about the centre of mass.
    public private(set) var inertia: Double = 0
    var invI: Double = 0
    var isRemoved = false
    // Sleeping: `awake` is false for static bodies and for bodies of a sleeping island.
    var awake: Bool
    var allowSleepValue: Bool
    /// Seconds the body has stayed below the sleep tolerances.
    var sleepTime = 0.0
    /// Scratch for the world's island building (union–find parent).
    var islandParent = 0
    /// Joints attached to this body.
    var joints: [Joint] = []
    /// Chains attached to this body (their segments are in `shapeList` too).
    var chainList: [Chain] = []
    /// Continuous collision: the smallest extent of the body's shapes (a step moving the
    /// centre farther than this is swept), and the largest distance of a core point from the
    /// centre of mass. Set by `resetMassData`.
    var ccdExtent = Double.infinity
    var ccdRadius = 0.0
    var isBulletValue: Bool

    /// Whether continuous collision sweeps this body every step it moves (more than the
    /// linear slop), as Box2D's bullets, against static shapes and non-bullet dynamic bodies
    /// (held at their end-of-step pose). Without the flag a dynamic body is swept only in
    /// steps where it moves farther than its smallest extent, and against static shapes only.
    public var isBullet: Bool {
        get { isBulletValue }
        set { isBulletValue = newValue }
    }
    /// Chains attached to this body, in creation order.
    public var chains: [Chain] { chainList }

    // Shapes and chains the caller still holds must not point at a freed body (their
    // back references are `unowned(unsafe)`, not `weak`: Embedded Swift has none).
    deinit {
        for s in shapeList { s.body = nil }
        for c in chainList { c.body = nil }
    }

    init(def: BodyDef) {
        type = def.type
        linearDampingValue = def.linearDamping
        angularDampingValue = def.angularDamping
        gravityScaleValue = def.gravityScale
        fixedRotation = def.fixedRotation
        xf = Transform(position: def.position, angle: def.angle)
        center = def.position
        angleValue = def.angle
        v = def.type == .static ? .zero : def.linearVelocity
        w = def.type == .static ? 0 : def.angularVelocity
        awake = def.type != .static && def.isAwake
        allowSleepValue = def.allowSleep
        isBulletValue = def.isBullet
        if type == .dynamic { mass = 1; invMassValue = 1 }
    }

    // MARK: sleeping

    /// Whether the body is simulated. A sleeping body is neither integrated nor solved until
    /// something wakes it: a force, torque, impulse or velocity change, a new touching contact,
    /// a joint to an awake body, the removal of a body it touches, or `isAwake = true`.
    /// Static bodies are never awake. Setting false puts only this body to sleep (velocities
    /// and forces zeroed); the next step wakes it again if it touches an awake body.
    public var isAwake: Bool {
        get { awake }
        set {
            if newValue { wake() } else { sleep() }
        }
    }

    /// Whether this body may fall asleep (default true); setting false wakes it.
    public var allowSleep: Bool {
        get { allowSleepValue }
        set {
            allowSleepValue = newValue
            if !newValue { wake() }
        }
    }

    func wake() {
        guard type != .static, !awake else { return }
        awake = true
        sleepTime = 0
    }

    func sleep() {
        guard type != .static else { return }
        awake = false
        sleepTime = 0
        v = .zero; w = 0
        force = .zero; torque = 0
    }

    // MARK: state

    /// Position of the body origin.
    public var position: Vec2 { xf.p }
    /// Angle in radians (counter-clockwise, not wrapped).
    public var angle: Double { angleValue }
    /// The transform of the body origin.
    public var transform: Transform { xf }
    /// The centre of mass in world coordinates.
    public var worldCenter: Vec2 { center }
    /// The centre of mass in body coordinates.
    public var localCenterOfMass: Vec2 { localCenter }

    public var linearVelocity: Vec2 {
        get { v }
        set {
            guard type != .static else { return }
            if newValue != .zero { wake() }
            v = newValue
        }
    }
    public var angularVelocity: Double {
        get { w }
        set {
            guard type != .static && !fixedRotation else { return }
            if newValue != 0 { wake() }
            w = newValue
        }
    }

    /// Moves the body (teleport) and wakes it. Contacts are updated on the next step.
    public func setTransform(position: Vec2, angle: Double) {
        wake()
        xf = Transform(position: position, angle: angle)
        angleValue = angle
        center = xf.apply(localCenter)
        world?.bodyMoved(self)
    }

    /// Turns rotation off or on; recomputes the mass.
    public func setFixedRotation(_ flag: Bool) {
        fixedRotation = flag
        if flag { w = 0 }
        resetMassData()
    }

    /// Velocity of a world point attached to this body.
    public func velocity(atWorldPoint p: Vec2) -> Vec2 { v + cross(w, p - center) }
    /// World coordinates of a body-local point.
    public func worldPoint(_ local: Vec2) -> Vec2 { xf.apply(local) }
    /// Body-local coordinates of a world point.
    public func localPoint(_ world: Vec2) -> Vec2 { xf.applyInverse(world) }

    // MARK: forces (dynamic bodies only; forces last one step)

    /// Applies a force (N) at a world point until the end of the next step.
    public func applyForce(_ f: Vec2, at point: Vec2) {
        guard type == .dynamic else { return }
        wake()
        force += f
        torque += cross(point - center, f)
    }
    /// Applies a force at the centre of mass.
    public func applyForceToCenter(_ f: Vec2) {
        guard type == .dynamic else { return }
        wake()
        force += f
    }
    /// Applies a torque (N·m) until the end of the next step.
    public func applyTorque(_ t: Double) {
        guard type == .dynamic else { return }
        wake()
        torque += t
    }
    /// Changes the velocity at once by impulse / mass (N·s) at a world point.
    public func applyLinearImpulse(_ j: Vec2, at point: Vec2) {
        guard type == .dynamic else { return }
        wake()
        v += invMassValue * j
        w += invI * cross(point - center, j)
    }
    /// Applies an impulse at the centre of mass.
    public func applyLinearImpulseToCenter(_ j: Vec2) {
        guard type == .dynamic else { return }
        wake()
        v += invMassValue * j
    }
    /// Applies an angular impulse (N·m·s).
    public func applyAngularImpulse(_ j: Double) {
        guard type == .dynamic else { return }
        wake()
        w += invI * j
    }

    // MARK: shapes and mass

    /// Recomputes `ccdExtent` and `ccdRadius` from the non-sensor shapes.
    func updateSweepExtents() {
        var extent = Double.infinity, radius = 0.0
        for s in shapeList where !s.isSensor {
            switch s.geometry {
            case .circle(let p, let r):
                extent = min(extent, r)
                radius = max(radius, (p - localCenter).length)
            case .polygon(let poly):
                var inner = Double.infinity
                for i in 0..<poly.vertices.count {
                    inner = min(inner, dot(poly.normals[i], poly.vertices[i] - poly.centroid))
                    radius = max(radius, (poly.vertices[i] - localCenter).length)
                }
                extent = min(extent, inner + PhysicsSettings.polygonRadius)
            case .segment(let a, let b):
                extent = min(extent, PhysicsSettings.polygonRadius)
                radius = max(radius, (a - localCenter).length, (b - localCenter).length)
            }
        }
        ccdExtent = extent; ccdRadius = radius
    }

    func attach(_ shape: Shape) {
        shapeList.append(shape)
        resetMassData()
    }

    func detach(_ shape: Shape) {
        shapeList.removeAll { $0 === shape }
        shape.body = nil   // this body's deinit no longer reaches the shape to clear it
        resetMassData()
    }

    /// Recomputes mass, centre of mass and inertia from the shapes' densities.
    /// A dynamic body without mass gets 1 kg (as Box2D does).
    func resetMassData() {
        mass = 0; invMassValue = 0; inertia = 0; invI = 0; localCenter = .zero
        guard type == .dynamic else {
            center = xf.p
            return
        }
        var c = Vec2.zero, iOrigin = 0.0
        for s in shapes where s.density > 0 {
            let md = s.geometry.massData(density: s.density)
            mass += md.mass
            c += md.mass * md.center
            iOrigin += md.inertia
        }
        if mass > 0 {
            invMassValue = 1 / mass
            c = invMassValue * c
        } else {
            mass = 1; invMassValue = 1
        }
        if iOrigin > 0 && !fixedRotation {
            inertia = iOrigin - mass * c.lengthSquared
            invI = inertia > 0 ? 1 / inertia : 0
        } else {
            inertia = 0; invI = 0
        }
        let oldCenter = center
        localCenter = c
        center = xf.apply(localCenter)
        updateSweepExtents()
        // Keep the velocity of the new centre consistent with the rotation.
        v += cross(w, center - oldCenter)
    }
}
