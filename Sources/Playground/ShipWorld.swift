// ShipWorld (docs/playground.md, "ShipWorld"): tilt the device (or drag a finger, or use the
// arrow keys / on-screen pad, which the page turns into tilt) to steer a little boat down a
// winding river to the harbour. The current carries the boat downstream; logs, ducks and buoys
// float on the river; bumping them or a bank slows the boat, never stops the game. Reaching the
// harbour wins; a touch on the boat or the harbour starts again.
//
// Built on Stage: a `PhysicsWorld` (zero gravity, 32 points per metre) holds the banks (one
// static loop chain), the floating obstacles and the boat. The game steps the world itself at a
// fixed 1/60 s, applying the forces of the water before each step: the current (a flow field
// along the centre line), water drag, the steering force and the obstacles' mooring springs.

import Physics2D
import Stage

/// The kinds of ShipWorld's events (docs/playground.md, "ShipWorld", events).
public enum ShipWorldEvent {
    public static let won: UInt16 = 3
    /// A bump: subject 0 bank, 1 log, 2 duck, 3 buoy; value the bumps so far; x, y the place.
    public static let bump: UInt16 = 4
    /// A new round (the boat or the harbour touched after a win).
    public static let newRound: UInt16 = 5
    /// The boat's position every 250 ms of game time: value = points along the river.
    public static let boat: UInt16 = 6
}

/// One ShipWorld game, deterministic from its seed and inputs.
public final class ShipWorld: PlaygroundGame {
    /// The sounds, by index in `SOUNDS.shipworld` (Web/playground/sound.js).
    public enum Sound: UInt16 { case bump = 0, quack = 1, won = 2, again = 3 }

    /// A floating obstacle: its sprite, what it is, and where it is moored.
    public final class Obstacle {
        public enum Kind: Int { case log = 1, duck = 2, buoy = 3 }
        public let kind: Kind
        public let sprite: PhysicsSprite
        /// The mooring point (points) and the angle it rests at.
        public let anchor: Vec2
        let restAngle: Double
        let picture: Image
        let phase: Double
        init(kind: Kind, sprite: PhysicsSprite, anchor: Vec2, restAngle: Double, picture: Image, phase: Double) {
            self.kind = kind; self.sprite = sprite; self.anchor = anchor; self.restAngle = restAngle
            self.picture = picture; self.phase = phase
        }
    }

    // MARK: the numbers (docs/playground.md explains them)

    public static let pointsPerMeter = 32.0
    /// The current along the centre line, m/s (0.75 m/s = 24 points/s), weaker near the banks.
    public static let currentSpeed = 0.75
    /// Water drag: the acceleration per m/s of speed relative to the water (1/s).
    public static let drag = 1.6
    /// Steering: m/s² per g of tilt away from level, the tilt counted up to `maxTilt` g.
    public static let steerAcceleration = 9.0
    public static let maxTilt = 0.6
    /// Tilt below this (g) is no tilt (a hand is never still).
    public static let deadZone = 0.04
    /// A touch steers like a tilt of (distance / touchReach) g toward it, up to `maxTilt`.
    public static let touchReach = 150.0
    /// A bump multiplies the boat's velocity by this; bumps within `bumpPause` s count once.
    public static let bumpSlowdown = 0.5
    public static let bumpPause = 0.35
    /// Bumps softer than this approach speed (m/s) are not bumps.
    public static let bumpSpeed = 0.3
    /// How many obstacles float on the river.
    public static let obstacleCount = 9

    public let stage: Stage
    let physics: PhysicsWorld
    public let river = ShipRiver()
    let riverLayer = Sprite()
    let effectLayer = Sprite()
    let hud = Sprite()
    let harbour: Image
    let star: Image
    public let boat: PhysicsSprite
    public private(set) var obstacles: [Obstacle] = []
    var ripples: [Image] = []
    var random: SeededRandom

    /// Game time in milliseconds (the sum of the frames' clamped times).
    public private(set) var elapsedMilliseconds = 0
    public var time: Double { Double(elapsedMilliseconds) / 1000 }
    /// Steps owed: 60 units per millisecond, 1000 per step (exact integers, no drift).
    var stepUnits = 0
    /// True from reaching the harbour until a touch starts again.
    public private(set) var hasWon = false
    public private(set) var bumps = 0
    var lastBumpTime = -10.0
    var nextBoatEvent = 0
    /// The level reading: the first tilt of a round (how the child holds the device).
    public private(set) var neutral: (x: Double, y: Double)?
    /// The newest tilt reading (g, device axes).
    public private(set) var tilt: (x: Double, y: Double, z: Double)?
    /// Touches held now: id and stage point.
    var touches: [(id: Int32, x: Double, y: Double)] = []
    var pending: [PlaygroundEvent] = []
    var drawBuffer = DrawList()

    public var stageWidth: Float { 1024 }
    public var stageHeight: Float { 768 }

    /// Bodies, effects still playing and the stage juggler's animations.
    public var liveObjects: Int {
        physics.world.bodies.count + effectLayer.numChildren + stage.juggler.count + touches.count
    }

    public init(seed: UInt32) {
        random = SeededRandom(seed: seed)
        stage = Stage(width: 1024, height: 768, color: Color.rgb(0xBFE3A6, alpha: 0))
        physics = PhysicsWorld(gravity: Vec2(0, 0), pointsPerMeter: Self.pointsPerMeter)
        physics.world.allowSleep = false
        physics.isPaused = true   // the game steps it (forces first)
        harbour = Self.image(.harbour)
        star = Self.image(.star)
        stage.addChild(Self.image(.background))
        for layer in [riverLayer, physics as Sprite, effectLayer, hud] {
            layer.touchable = false
            stage.addChild(layer)
        }
        boat = physics.createSprite(BodyDef(type: .dynamic), x: ShipRiver.start.x, y: ShipRiver.start.y)
        drawRiver()
        buildBanks()
        placeObstacles()
        buildBoat()
        buildHUD()
        physics.onBeginContact = { [unowned(unsafe) self] contact in self.contactBegan(contact) }
    }

    // MARK: building

    static func texture(_ region: ShipWorldArt.Region) -> TextureRegion {
        TextureRegion(atlas: ShipWorldArt.atlas, region: region.rawValue,
                      width: Double(region.width), height: Double(region.height))
    }

    static func image(_ region: ShipWorldArt.Region) -> Image { Image(texture: texture(region)) }

    /// An image centred on its sprite's origin.
    static func centred(_ region: ShipWorldArt.Region) -> Image {
        let picture = image(region)
        picture.x = -Double(region.width) / 2
        picture.y = -Double(region.height) / 2
        return picture
    }

    /// The river: bank-coloured discs a little wider than the water, then the water discs on
    /// every second sample of the centre line, then the ripples that drift with the current.
    func drawRiver() {
        for (radius, colour) in [(ShipRiver.halfWidth + 8, 0xE9D3A4 as UInt32), (ShipRiver.halfWidth, 0x8FCBE8)] {
            var i = 0
            while i < river.centre.count {
                let disc = Self.image(.disc)
                disc.imageWidth = 2 * radius
                disc.imageHeight = 2 * radius
                disc.x = river.centre[i].x - radius
                disc.y = river.centre[i].y - radius
                disc.tint = Color.rgb(colour)
                riverLayer.addChild(disc)
                i += i + 2 < river.centre.count ? 2 : max(1, river.centre.count - 1 - i)
            }
        }
        for _ in 0..<10 {
            let ripple = Self.image(.ripple)
            ripple.pivotX = Double(ShipWorldArt.Region.ripple.width) / 2
            ripple.pivotY = Double(ShipWorldArt.Region.ripple.height) / 2
            ripple.alpha = 0.8
            ripples.append(ripple)
            riverLayer.addChild(ripple)
        }
        placeRipples()
        harbour.x = ShipRiver.dock.x - 40
        harbour.y = ShipRiver.dock.y - 110
        riverLayer.addChild(harbour)
    }

    /// The ripples are spread along the river and drift at the current's speed.
    func placeRipples() {
        let count = Double(ripples.count)
        let drift = time * Self.currentSpeed * Self.pointsPerMeter
        for (k, ripple) in ripples.enumerated() {
            var s = (Double(k) + 0.5) * river.length / count + drift
            s -= (s / river.length).rounded(.down) * river.length
            let d = river.direction(along: s)
            let side = k % 2 == 0 ? 28.0 : -28.0
            let p = river.point(along: s) + d.leftPerp * side
            ripple.x = p.x
            ripple.y = p.y
            ripple.rotation = PortableMath.atan2(d.y, d.x)
        }
    }

    func buildBanks() {
        let banks = physics.createSprite(BodyDef(type: .static), x: 0, y: 0)
        let k = 1 / Self.pointsPerMeter
        var loop: [Vec2] = []
        for p in river.outline { loop.append(p * k) }
        do {
            _ = try physics.world.createChain(on: banks.body, ChainDef(vertices: loop, isLoop: true, friction: 0.2))
        } catch {
            preconditionFailure("the river's banks are not a chain")
        }
    }

    /// Obstacles spread along the river from 300 points after the start to 260 before the
    /// harbour, each at a random place across the river, of a random kind.
    func placeObstacles() {
        let first = 300.0, last = river.length - 260
        let gap = (last - first) / Double(Self.obstacleCount - 1)
        for i in 0..<Self.obstacleCount {
            let s = first + Double(i) * gap + random.uniform(-40...40)
            let d = river.direction(along: s)
            let across = random.uniform(-(ShipRiver.halfWidth - 30)...(ShipRiver.halfWidth - 30))
            let anchor = river.point(along: s) + d.leftPerp * across
            let kind = Obstacle.Kind(rawValue: 1 + random.below(3)) ?? .log
            let restAngle = kind == .log ? PortableMath.atan2(d.y, d.x) + random.uniform(-0.8...0.8) : 0
            let sprite = physics.createSprite(BodyDef(type: .dynamic, angularDamping: 2), x: anchor.x, y: anchor.y,
                                              rotation: restAngle)
            let picture: Image
            switch kind {
            case .log:
                sprite.addBox(width: 68, height: 18, density: 0.6, friction: 0.3)
                picture = Self.centred(.log)
            case .duck:
                sprite.addCircle(radius: 15, density: 0.5, friction: 0.3)
                picture = Self.centred(.duck)
            case .buoy:
                sprite.addCircle(radius: 13, density: 0.8, friction: 0.3)
                picture = Self.centred(.buoy)
            }
            let bob = Sprite()
            bob.addChild(picture)
            sprite.addChild(bob)
            obstacles.append(Obstacle(kind: kind, sprite: sprite, anchor: anchor, restAngle: restAngle,
                                      picture: picture, phase: random.uniform(0...6.28)))
        }
    }

    func buildBoat() {
        // The hull: an octagon 56 × 28 points (a box with its corners cut), facing right.
        let k = 1 / Self.pointsPerMeter
        let hull = [Vec2(28, -6), Vec2(28, 6), Vec2(18, 14), Vec2(-22, 14), Vec2(-28, 8), Vec2(-28, -8),
                    Vec2(-22, -14), Vec2(18, -14)].map { $0 * k }
        do {
            boat.addShape(ShapeDef(try Geometry.polygon(vertices: hull), density: 1, friction: 0.2, restitution: 0.2))
        } catch {
            preconditionFailure("the boat's hull is not a polygon")
        }
        boat.addChild(Self.centred(.boat))
    }

    func buildHUD() {
        star.pivotX = Double(ShipWorldArt.Region.star.width) / 2
        star.pivotY = Double(ShipWorldArt.Region.star.height) / 2
        star.x = ShipRiver.dock.x - 40
        star.y = ShipRiver.dock.y - 170
        star.visible = false
        hud.addChild(star)
    }

    // MARK: PlaygroundGame

    public func input(_ input: PlaygroundInput) {
        switch input.kind {
        case .touch:
            let x = Double(input.x), y = Double(input.y)
            switch input.phase {
            case .began:
                touches.removeAll { $0.id == input.id }
                if hasWon {
                    if near(x, y) { startAgain() }
                    return
                }
                touches.append((input.id, x, y))
            case .moved, .stationary:
                if let i = touches.firstIndex(where: { $0.id == input.id }) { touches[i] = (input.id, x, y) }
            case .ended, .cancelled:
                touches.removeAll { $0.id == input.id }
            }
        case .tilt:
            let reading = (x: Double(input.x), y: Double(input.y), z: Double(input.z))
            tilt = reading
            if neutral == nil { neutral = (reading.x, reading.y) }
        }
    }

    /// A touch at (x, y) is on the boat or the harbour.
    func near(_ x: Double, _ y: Double) -> Bool {
        let p = Vec2(x, y)
        return (p - Vec2(boat.x, boat.y)).length < 70 || (p - ShipRiver.dock).length < 100
    }

    /// One frame: the fixed physics steps the frame's time owes (water forces, step, contacts),
    /// the pictures (heading, bobbing, ripples), the stage's juggler (effects).
    public func advance(milliseconds: Int32, events: inout PlaygroundEvents) {
        let ms = Int(min(100, max(0, milliseconds)))
        elapsedMilliseconds += ms
        stepUnits += 60 * ms
        var steps = 0
        while stepUnits >= 1000 {
            stepUnits -= 1000
            if steps < physics.maxStepsPerFrame {
                applyWaterForces()
                physics.step()
                steps += 1
            }
        }
        animate()
        stage.advance(time: Double(ms) / 1000)
        if elapsedMilliseconds >= nextBoatEvent {
            nextBoatEvent = elapsedMilliseconds + 250
            emit(ShipWorldEvent.boat, value: Int32(progress.rounded(.toNearestOrEven)), x: boat.x, y: boat.y)
        }
        for e in pending { events.emit(e.kind, subject: e.subject, value: e.value, x: e.x, y: e.y) }
        pending.removeAll(keepingCapacity: true)
    }

    public func drawList() -> [UInt8] {
        stage.render(into: &drawBuffer)
        return drawBuffer.bytes
    }

    // MARK: the water

    /// How far along the river the boat is (points of centre line).
    public var progress: Double { river.nearest(Vec2(boat.x, boat.y)).along }

    /// The water's velocity at `p` (points): the current along the river, m/s, full in the
    /// middle and half at the banks.
    func flow(at p: Vec2) -> Vec2 {
        let near = river.nearest(p)
        let across = min(1, near.distance / ShipRiver.halfWidth)
        return river.direction(near.segment) * (Self.currentSpeed * (1 - 0.5 * across * across))
    }

    /// The steering the child asks for, in g along stage x and y: a held touch pulls toward
    /// itself; otherwise the tilt away from level (a ball on the screen rolls downhill: the
    /// device's x reading pushes left, its y reading pushes down the stage), with a dead zone;
    /// at most `maxTilt`.
    public var steering: Vec2 {
        var want = Vec2.zero
        if let touch = touches.last {
            want = (Vec2(touch.x, touch.y) - Vec2(boat.x, boat.y)) * (1 / Self.touchReach)
        } else if let tilt, let neutral {
            want = Vec2(-(tilt.x - neutral.x), tilt.y - neutral.y)
            if want.length < Self.deadZone { want = .zero }
        }
        let size = want.length
        return size > Self.maxTilt ? want * (Self.maxTilt / size) : want
    }

    func applyWaterForces() {
        let body = boat.body
        if hasWon {
            // Moored at the harbour: a spring to the dock, well damped.
            let toDock = ShipRiver.dock * (1 / Self.pointsPerMeter) - body.position
            body.applyForceToCenter((toDock * 8 - body.linearVelocity * 4) * body.mass)
            body.angularVelocity = body.angularVelocity * 0.9
        } else {
            let water = flow(at: Vec2(boat.x, boat.y))
            let push = steering * Self.steerAcceleration + (water - body.linearVelocity) * Self.drag
            body.applyForceToCenter(push * body.mass)
            // The boat turns to where it goes.
            let v = body.linearVelocity
            if v.length > 0.4 {
                let turn = DisplayObject.normalizedAngle(PortableMath.atan2(v.y, v.x) - body.angle)
                body.angularVelocity = min(5, max(-5, turn * 6))
            } else {
                body.angularVelocity = body.angularVelocity * 0.9
            }
        }
        // Floating things: dragged by the water, held by their mooring spring (a top-down
        // "buoyancy": they bob back to where they float), turned back to their rest angle.
        for o in obstacles {
            let b = o.sprite.body
            let water = flow(at: Vec2(o.sprite.x, o.sprite.y))
            let stiffness = o.kind == .buoy ? 6.0 : o.kind == .duck ? 2.5 : 1.5
            let toAnchor = o.anchor * (1 / Self.pointsPerMeter) - b.position
            b.applyForceToCenter((toAnchor * stiffness + (water - b.linearVelocity) * 2) * b.mass)
            if o.kind == .log {
                let turn = DisplayObject.normalizedAngle(o.restAngle - b.angle)
                b.applyTorque(turn * 0.5 * b.inertia)
            }
        }
        if !hasWon && (Vec2(boat.x, boat.y) - ShipRiver.dock).length < ShipRiver.dockRadius { win() }
    }

    // MARK: pictures

    func animate() {
        let t = time
        for o in obstacles {
            // Bobbing: the picture swells and shrinks a little, as if rising on the water.
            let s = 1 + 0.05 * PortableMath.sin(t * 4 + o.phase)
            let bob = o.picture.parent
            bob?.scaleX = s
            bob?.scaleY = s
        }
        placeRipples()
    }

    // MARK: rules

    /// The boat began touching something: the banks (a chain with no sprite) or an obstacle.
    func contactBegan(_ contact: PhysicsContact) {
        guard !hasWon, contact.spriteA === boat || contact.spriteB === boat else { return }
        guard let other = contact.other(than: boat) else { bumped(subject: 0, contact); return }
        guard let o = obstacles.first(where: { $0.sprite === other }) else { return }
        bumped(subject: UInt16(o.kind.rawValue), contact)
    }

    func bumped(subject: UInt16, _ contact: PhysicsContact) {
        guard contact.event.approachSpeed > Self.bumpSpeed, time - lastBumpTime >= Self.bumpPause else { return }
        lastBumpTime = time
        bumps += 1
        boat.body.linearVelocity = boat.body.linearVelocity * Self.bumpSlowdown
        let at = contact.event.points.count > 0
            ? contact.event.points[0].point * Self.pointsPerMeter : Vec2(boat.x, boat.y)
        emit(ShipWorldEvent.bump, subject: subject, value: Int32(bumps), x: at.x, y: at.y)
        emit(PlaygroundEvent.sound, subject: subject == 2 ? Sound.quack.rawValue : Sound.bump.rawValue, x: at.x, y: at.y)
        showSplash(at: at)
    }

    func win() {
        hasWon = true
        touches.removeAll()
        emit(ShipWorldEvent.won, value: 1, x: ShipRiver.dock.x, y: ShipRiver.dock.y)
        emit(PlaygroundEvent.sound, subject: Sound.won.rawValue, x: ShipRiver.dock.x, y: ShipRiver.dock.y)
        showStar()
    }

    /// Back to the start: the boat at the start, the obstacles at their moorings, level to be
    /// read again from the next tilt.
    func startAgain() {
        hasWon = false
        star.visible = false
        stage.juggler.removeAll(with: star)
        boat.body.setTransform(position: ShipRiver.start * (1 / Self.pointsPerMeter), angle: 0)
        boat.body.linearVelocity = .zero
        boat.body.angularVelocity = 0
        boat.x = ShipRiver.start.x; boat.y = ShipRiver.start.y; boat.rotation = 0
        for o in obstacles {
            o.sprite.body.setTransform(position: o.anchor * (1 / Self.pointsPerMeter), angle: o.restAngle)
            o.sprite.body.linearVelocity = .zero
            o.sprite.body.angularVelocity = 0
            o.sprite.x = o.anchor.x; o.sprite.y = o.anchor.y; o.sprite.rotation = o.restAngle
        }
        neutral = nil
        if let tilt { neutral = (tilt.x, tilt.y) }
        bumps = 0
        emit(ShipWorldEvent.newRound)
        emit(PlaygroundEvent.sound, subject: Sound.again.rawValue, x: ShipRiver.start.x, y: ShipRiver.start.y)
    }

    func emit(_ kind: UInt16, subject: UInt16 = 0, value: Int32 = 0, x: Double = 0, y: Double = 0) {
        pending.append(PlaygroundEvent(frame: 0, kind: kind, subject: subject, value: value, x: Float(x), y: Float(y)))
    }

    // MARK: effects

    /// Drops of water spring up where the boat bumped and fade (0.6 s).
    func showSplash(at p: Vec2) {
        let splash = Self.image(.splash)
        splash.pivotX = Double(ShipWorldArt.Region.splash.width) / 2
        splash.pivotY = Double(ShipWorldArt.Region.splash.height) / 2
        splash.x = p.x
        splash.y = p.y
        splash.scaleX = 0.5
        splash.scaleY = 0.5
        effectLayer.addChild(splash)
        let fade = Tween(target: splash, time: 0.6, transition: .easeOut)
        fade.animate(.scale, to: 1.2)
        fade.animate(.alpha, to: 0)
        fade.onComplete = { [unowned(unsafe) splash] in splash.removeFromParent() }
        stage.juggler.add(fade)
    }

    /// A star grows over the harbour (0.8 s, overshooting a little).
    func showStar() {
        star.visible = true
        star.scaleX = 0.01
        star.scaleY = 0.01
        let grow = Tween(target: star, time: 0.8, transition: .easeOutBack)
        grow.animate(.scale, to: 1)
        stage.juggler.add(grow)
    }

    // MARK: the scripted player

    /// What a player steering along the centre line would do now: a level reading first (the
    /// game takes the first reading as level), then a tilt toward the point of the centre line
    /// 110 points downstream of the boat, 0.5 g, rounded to 1/1024 g as the page does. Nothing
    /// once the boat is in the harbour.
    public func autopilotInputs() -> [PlaygroundInput] {
        if hasWon { return [] }
        guard let neutral else { return [.tilt(x: 0, y: 0, z: 1)] }
        let here = Vec2(boat.x, boat.y)
        let s = river.nearest(here).along
        let target = s + 110 >= river.length ? ShipRiver.dock : river.point(along: s + 110)
        let dir = (target - here).normalized
        let g = 0.5
        let x = Self.round1024(neutral.x - dir.x * g), y = Self.round1024(neutral.y + dir.y * g)
        let z = Self.round1024(max(0, 1 - x * x - y * y).squareRoot())
        return [.tilt(x: Float(x), y: Float(y), z: Float(z))]
    }

    static func round1024(_ v: Double) -> Double { (v * 1024).rounded(.toNearestOrEven) / 1024 }
}
