// The physics bridge (Sparrow's SPPhysics: SPWorld and SPPhysicsSprite): a container that owns
// a Physics2D `World`, steps it at a fixed 1/60 s from its enter-frame events, and keeps its
// `PhysicsSprite` children and their bodies in step.
//
// Axes: the physics world uses the container's own axes (x right, y down, angles clockwise on
// screen), scaled by `pointsPerMeter`: a body at (2, 1) m sits at (2·ppm, 1·ppm) points, and
// gravity (0, 9.8) pulls down the screen. Body angle and sprite rotation are the same number.

import Physics2D

/// Who moves whom between a physics sprite and its body.
public enum PhysicsDrive: Sendable {
    /// The body is simulated; after each step the sprite takes its position and angle (the default).
    case bodyDrivesDisplay
    /// The sprite is moved by the game (tweens, paths); before each step the body gets the
    /// velocity that brings it to the sprite's position and angle by the end of the frame's
    /// steps, so it collides, pushes and reports contacts as a moving body. Static bodies, and
    /// jumps faster than the solver allows (2 m or π/2 per step), are teleported instead.
    /// The sprite is never moved by the simulation.
    case displayDrivesBody
}

/// Two physics sprites that started or stopped touching (nil for a body that has no sprite).
public struct PhysicsContact {
    public let spriteA: PhysicsSprite?
    public let spriteB: PhysicsSprite?
    /// Physics2D's event: the shapes, the sensor flag, and for a begin the normal, points and approach speed.
    public let event: ContactEvent
    /// The other sprite of the pair, seen from `sprite` (nil if `sprite` is in neither slot).
    public func other(than sprite: PhysicsSprite) -> PhysicsSprite? {
        if spriteA === sprite { return spriteB }
        if spriteB === sprite { return spriteA }
        return nil
    }
}

/// A display object that owns a Physics2D body. Made by `PhysicsWorld.createSprite`; its
/// children are what is drawn (an image, a quad), centred as the game wants around the body's
/// origin (the sprite's origin).
public final class PhysicsSprite: Sprite {
    /// The body (in the world until the sprite leaves its `PhysicsWorld`).
    public let body: Body
    public var drive: PhysicsDrive
    /// The world the sprite is in; nil once it has been removed (its body is then gone for good).
    public internal(set) unowned(unsafe) var physicsWorld: PhysicsWorld?

    init(body: Body, drive: PhysicsDrive, world: PhysicsWorld) {
        self.body = body; self.drive = drive; physicsWorld = world
        super.init()
    }

    /// Attaches a shape given in metres (body-local); contacts of this shape report this sprite.
    @discardableResult
    public func addShape(_ def: ShapeDef) -> Shape {
        guard let w = physicsWorld else { preconditionFailure("addShape: the sprite has left its physics world") }
        let shape = w.world.createShape(on: body, def)
        w.shapeOwners.append((shape.id, self))   // ids grow: the list stays sorted
        return shape
    }

    /// Attaches a box `width` × `height` points centred at (`centerX`, `centerY`) points in the sprite's space.
    @discardableResult
    public func addBox(width: Double, height: Double, centerX: Double = 0, centerY: Double = 0,
                       density: Double = 1, friction: Double = 0.6, restitution: Double = 0,
                       isSensor: Bool = false, filter: Filter = Filter()) -> Shape {
        let k = 1 / (physicsWorld?.pointsPerMeter ?? 1)
        return addShape(ShapeDef(.box(halfWidth: width / 2 * k, halfHeight: height / 2 * k, center: Vec2(centerX * k, centerY * k)),
                                 density: density, friction: friction, restitution: restitution,
                                 filter: filter, isSensor: isSensor))
    }

    /// Attaches a circle of `radius` points centred at (`centerX`, `centerY`) points.
    @discardableResult
    public func addCircle(radius: Double, centerX: Double = 0, centerY: Double = 0,
                          density: Double = 1, friction: Double = 0.6, restitution: Double = 0,
                          isSensor: Bool = false, filter: Filter = Filter()) -> Shape {
        let k = 1 / (physicsWorld?.pointsPerMeter ?? 1)
        return addShape(ShapeDef(.circle(center: Vec2(centerX * k, centerY * k), radius: radius * k),
                                 density: density, friction: friction, restitution: restitution,
                                 filter: filter, isSensor: isSensor))
    }

    /// Moves the body to the sprite's current position and rotation at once (a teleport), for
    /// placing a `bodyDrivesDisplay` sprite by hand.
    public func moveBodyToDisplay() {
        guard let w = physicsWorld else { return }
        body.setTransform(position: Vec2(x / w.pointsPerMeter, y / w.pointsPerMeter), angle: rotation)
    }
}

/// A container that owns a Physics2D world and its physics sprites (Sparrow's SPWorld).
open class PhysicsWorld: Sprite {
    /// The simulation (gravity, iterations, raw Physics2D access).
    public let world: World
    /// Points per metre between the sprites' space (this container's) and the world's.
    public let pointsPerMeter: Double
    /// The fixed step, seconds.
    public let timeStep = 1.0 / 60
    /// At most this many steps per frame; a longer frame drops the rest (the game slows down
    /// rather than freezing to catch up).
    public var maxStepsPerFrame = 8
    /// A paused world ignores frames (no steps, its accumulator keeps its value).
    public var isPaused = false
    /// Called after a step for each pair of shapes that began touching in it, with the sprites
    /// already moved to the step's positions. Sprites may be removed from inside.
    public var onBeginContact: ((PhysicsContact) -> Void)?
    /// Called likewise for each pair that stopped touching (also when a body is removed).
    public var onEndContact: ((PhysicsContact) -> Void)?
    /// Steps taken since the world was made.
    public private(set) var stepCount = 0

    /// Unused time (seconds) below one step, carried to the next frame.
    public private(set) var accumulator = 0.0
    /// The physics sprites, in creation order.
    public private(set) var sprites: [PhysicsSprite] = []
    /// (shape id, sprite) sorted by id: which sprite a contact's shape belongs to (a binary
    /// search; no hashing, which would need a random seed in the wasm build).
    var shapeOwners: [(id: Int, sprite: PhysicsSprite)] = []
    var pendingContacts: [(begin: Bool, contact: PhysicsContact)] = []

    /// `gravity` in m/s² in this container's axes (y down: (0, 9.8) falls down the screen).
    public init(gravity: Vec2 = Vec2(0, 9.8), pointsPerMeter: Double = 32) {
        precondition(pointsPerMeter > 0, "pointsPerMeter must be positive")
        world = World(gravity: gravity)
        // The games' replay logs (native and wasm, bit for bit) were recorded with the legacy
        // solver; they move to the soft step when they are re-recorded (docs/physics.md).
        world.solverKind = .legacy
        self.pointsPerMeter = pointsPerMeter
        super.init()
        world.onBeginContact = { [unowned(unsafe) self] e in self.queue(e, begin: true) }
        world.onEndContact = { [unowned(unsafe) self] e in self.queue(e, begin: false) }
        addEventListener(EventType.enterFrame, as: EnterFrameEvent.self) { [unowned(unsafe) self] e in
            self.advance(time: e.passedTime)
        }
    }

    final func queue(_ e: ContactEvent, begin: Bool) {
        let c = PhysicsContact(spriteA: sprite(of: e.shapeA), spriteB: sprite(of: e.shapeB), event: e)
        pendingContacts.append((begin, c))
    }

    /// The sprite whose body `shape` is attached to (nil for shapes made outside the bridge).
    public func sprite(of shape: Shape) -> PhysicsSprite? {
        let i = ownerIndex(shape.id)
        return i < shapeOwners.count && shapeOwners[i].id == shape.id ? shapeOwners[i].sprite : nil
    }

    /// The first index in `shapeOwners` whose id is not below `id`.
    final func ownerIndex(_ id: Int) -> Int {
        var lo = 0, hi = shapeOwners.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if shapeOwners[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Makes a body at (`x`, `y`) points with `rotation` radians and a sprite for it, added on top
    /// of this container's children. Attach shapes with `addBox`, `addCircle` or `addShape`.
    /// `def`'s position and angle are replaced by `x`, `y`, `rotation`.
    @discardableResult
    public func createSprite(_ def: BodyDef = BodyDef(type: .dynamic), x: Double, y: Double, rotation: Double = 0,
                             drive: PhysicsDrive = .bodyDrivesDisplay) -> PhysicsSprite {
        var d = def
        d.position = Vec2(x / pointsPerMeter, y / pointsPerMeter)
        d.angle = rotation
        let body = world.createBody(d)
        let sprite = PhysicsSprite(body: body, drive: drive, world: self)
        sprite.x = x; sprite.y = y; sprite.rotation = rotation
        sprites.append(sprite)
        addChild(sprite)
        return sprite
    }

    /// Removing a physics sprite from this container removes its body from the world (end
    /// contact events follow with the next step's).
    open override func didRemoveChild(_ child: DisplayObject) {
        guard let s = child as? PhysicsSprite, s.physicsWorld === self else { return }
        s.physicsWorld = nil
        if let i = sprites.firstIndex(where: { $0 === s }) { sprites.remove(at: i) }
        let shapes = s.body.shapes
        world.removeBody(s.body)
        // After the removal: its end contacts have been queued with the sprite still known.
        for shape in shapes {
            let i = ownerIndex(shape.id)
            if i < shapeOwners.count && shapeOwners[i].id == shape.id { shapeOwners.remove(at: i) }
        }
    }

    /// Adds `time` seconds and takes as many fixed steps as fit (at most `maxStepsPerFrame`).
    /// Called by this container's enter-frame listener; call it yourself for a world that is
    /// not on a stage.
    public func advance(time: Double) {
        if isPaused || !(time > 0) { return }
        accumulator += time
        var n = Int((accumulator / timeStep).rounded(.down))
        if n > maxStepsPerFrame {
            n = maxStepsPerFrame
            // Keep what is left below one step; drop the rest.
            let whole = (accumulator / timeStep).rounded(.down)
            accumulator = accumulator - whole * timeStep + Double(n) * timeStep
        }
        var i = 0
        while i < n {
            step(remainingSteps: n - i)
            accumulator -= timeStep
            i += 1
        }
        if accumulator < 0 { accumulator = 0 }
    }

    /// One fixed step: display-driven bodies get their velocities, the world steps, the other
    /// sprites follow their bodies, then the contact callbacks run.
    public func step() { step(remainingSteps: 1) }

    final func step(remainingSteps: Int) {
        for s in sprites where s.drive == .displayDrivesBody { driveBody(of: s, steps: remainingSteps) }
        world.step(timeStep)
        stepCount += 1
        for s in sprites where s.drive == .bodyDrivesDisplay {
            let p = s.body.position
            s.x = p.x * pointsPerMeter
            s.y = p.y * pointsPerMeter
            s.rotation = s.body.angle
        }
        deliverContacts()
    }

    final func driveBody(of s: PhysicsSprite, steps: Int) {
        let target = Vec2(s.x / pointsPerMeter, s.y / pointsPerMeter)
        let b = s.body
        if b.type == .static {
            if b.position != target || b.angle != s.rotation { b.setTransform(position: target, angle: s.rotation) }
            return
        }
        let span = Double(steps) * timeStep
        let move = target - b.position
        let turn = DisplayObject.normalizedAngle(s.rotation - b.angle)
        // The solver clamps a step's motion (Box2D's 2 m and π/2): a bigger jump is a teleport.
        if move.length >= 0.99 * PhysicsSettings.maxTranslation * Double(steps)
            || abs(turn) >= 0.99 * PhysicsSettings.maxRotation * Double(steps) {
            b.setTransform(position: target, angle: b.angle + turn)
            b.linearVelocity = .zero
            b.angularVelocity = 0
            return
        }
        b.linearVelocity = move * (1 / span)
        b.angularVelocity = turn / span
    }

    final func deliverContacts() {
        if pendingContacts.isEmpty { return }
        var batch: [(begin: Bool, contact: PhysicsContact)] = []
        swap(&batch, &pendingContacts)
        for (begin, c) in batch {
            if begin { onBeginContact?(c) } else { onEndContact?(c) }
        }
        batch.removeAll(keepingCapacity: true)
        if pendingContacts.isEmpty { swap(&batch, &pendingContacts) }
    }
}
