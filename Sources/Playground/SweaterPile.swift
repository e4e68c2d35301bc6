// The sweater pile (docs/playground.md, "The sweater pile"): the story's reward screen. The seed
// is the number of sweaters won (0…10, more counts as 10); they drop one after another onto a
// shelf inside the chest's drawer and stack. The tenth lands off-centre and the pile topples
// onto the drawer's floor. When everything has come to rest the game reports kind 3 ("won",
// value: the count). A touch on a sweater lifts it a little: it wobbles.
//
// Built like CarWorld on Stage: a `PhysicsWorld` (gravity 9.8 m/s² down, 32 points per metre)
// holds the static shelf, floor and walls and one dynamic body per sweater, a 150 × 42 point box
// with its corners cut by 6 points (an octagon: a box with rounded corners).

import Physics2D
import Stage

/// The events of the sweater pile (kind 1 is a sound, as in every game).
public enum SweaterPileEvent {
    /// A sweater touched the pile, the shelf or the floor for the first time: subject = its
    /// index (0…), value = how many have landed, x/y = where (stage points).
    public static let landed: UInt16 = 2
    /// Everything has come to rest (once): value = the number of sweaters.
    public static let won: UInt16 = 3
    /// The tenth sweater landed and the pile topples (once): value = the number of sweaters.
    public static let toppled: UInt16 = 4
}

/// The sounds the pile asks for (the page's `SOUNDS.sweaters`, in this order).
public enum SweaterPileSound {
    /// A sweater lands: a soft "plop".
    public static let plop: UInt16 = 0
    /// A touched sweater hops: a little "boing".
    public static let boing: UInt16 = 1
    /// The pile topples: a tumbling run of notes.
    public static let tumble: UInt16 = 2
}

/// One sweater pile, deterministic from its seed (the count) and inputs.
public final class SweaterPile: PlaygroundGame {
    // MARK: the numbers it plays by

    public static let width = 1024.0, height = 768.0
    /// The most sweaters a pile holds (the seed is clamped to it); the last one topples it.
    public static let maxSweaters = 10
    public static let sweaterWidth = 150.0, sweaterHeight = 42.0
    /// The cut corners of a sweater's body (points).
    public static let corner = 6.0
    /// The shelf's top edge and its ends (points; the background draws it there).
    public static let shelfTop = 560.0, shelfLeft = 150.0, shelfRight = 640.0
    /// The drawer's floor (top edge) and its side walls (inner edges).
    public static let floorTop = 728.0, wallLeft = 34.0, wallRight = 990.0
    /// The pile's column: where the sweaters drop (its centre line).
    public static let column = 395.0
    /// Where a sweater appears (its centre), above the top of the stage.
    public static let dropY = -30.0
    /// The first sweater drops after this many milliseconds, the next ones every `dropEvery`.
    public static let firstDrop = 300, dropEvery = 400
    /// Each sweater's offset from the column (points): a hand-piled, slightly crooked pile. The
    /// tenth lands off-centre, `tenthOffset` to the right.
    public static let offsets: [Double] = [0, 4, -3, 5, -2, 3, -4, 2, 4]
    public static let tenthOffset = 62.0
    /// When the tenth lands the pile starts turning about its bottom sweater's right-hand lower
    /// corner at this many rad/s (every sweater gets the velocity of that rotation): it topples.
    public static let toppleSpin = 0.9
    /// Linear damping (1/s) of a falling sweater and of one that has landed.
    public static let fallingDamping = 0.6, restingDamping = 0.1
    /// A touch lifts a sweater by this change of speed (m/s), applied at the touched point.
    public static let hop = 1.5
    /// At rest: every sweater slower than `restSpeed` (m/s and rad/s) for `restFrames` frames
    /// in a row, or asleep; or `restCap` ms after the last drop whatever happens.
    public static let restSpeed = 0.05, restFrames = 30, restCap = 15_000
    /// An empty pile (seed 0) reports that it is done after this many milliseconds.
    public static let emptyDone = 500

    // MARK: state

    public let stage: Stage
    let physics: PhysicsWorld
    /// The number of sweaters this pile drops.
    public let count: Int
    /// The sweaters dropped so far, in order.
    public private(set) var sweaters: [PhysicsSprite] = []
    /// Whether each dropped sweater has touched something yet.
    public private(set) var landed: [Bool] = []
    public private(set) var elapsedMilliseconds = 0
    public private(set) var hasWon = false
    public private(set) var hasToppled = false
    var restingFrames = 0
    var lastDropAt = 0
    var touches: [(x: Double, y: Double)] = []
    var pending: [PlaygroundEvent] = []
    var drawBuffer = DrawList()

    public var stageWidth: Float { Float(Self.width) }
    public var stageHeight: Float { Float(Self.height) }

    /// Sweaters, bodies (the static ones included) and animations: bounded by the count.
    public var liveObjects: Int { sweaters.count + physics.world.bodies.count + stage.juggler.count + touches.count }

    /// The sweaters' centres in stage points, in drop order.
    public var positions: [(x: Double, y: Double)] { sweaters.map { ($0.x, $0.y) } }

    /// A pile of `seed` sweaters (clamped to 0…10).
    public init(seed: UInt32) {
        count = Int(min(seed, UInt32(Self.maxSweaters)))
        stage = Stage(width: Self.width, height: Self.height, color: Color.rgb(0xF8E6CF, alpha: 0))
        physics = PhysicsWorld(gravity: Vec2(0, 9.8), pointsPerMeter: 32)
        let background = Image(texture: Self.texture(.background))
        background.touchable = false
        physics.touchable = false
        stage.addChild(background)
        stage.addChild(physics)
        // The shelf, the floor and the walls: static bodies exactly on the background's edges.
        addStatic(x: (Self.shelfLeft + Self.shelfRight) / 2, y: Self.shelfTop + 13, width: Self.shelfRight - Self.shelfLeft, height: 26)
        addStatic(x: Self.width / 2, y: Self.floorTop + 40, width: Self.width + 200, height: 80)
        addStatic(x: Self.wallLeft - 40, y: Self.height / 2 - 400, width: 80, height: Self.height + 800)
        addStatic(x: Self.wallRight + 40, y: Self.height / 2 - 400, width: 80, height: Self.height + 800)
        physics.onBeginContact = { [unowned(unsafe) self] contact in self.contactBegan(contact) }
    }

    func addStatic(x: Double, y: Double, width: Double, height: Double) {
        let s = physics.createSprite(BodyDef(type: .static), x: x, y: y)
        s.addBox(width: width, height: height, friction: 0.8)
    }

    static func texture(_ region: SweatersArt.Region) -> TextureRegion {
        TextureRegion(atlas: SweatersArt.atlas, region: region.rawValue, width: Double(region.width), height: Double(region.height))
    }

    // MARK: PlaygroundGame

    public func input(_ input: PlaygroundInput) {
        guard input.kind == .touch, input.phase == .began else { return }
        // A small child's hand may send many: one hop per frame at most is applied (the first).
        if touches.isEmpty { touches.append((Double(input.x), Double(input.y))) }
    }

    /// The pile "wins" by itself: a scripted player does nothing.
    public func autopilotInputs() -> [PlaygroundInput] { [] }

    /// One frame: the touch (a hop), the drops that are due, the physics steps (landings, the
    /// topple), then the rest check.
    public func advance(milliseconds: Int32, events: inout PlaygroundEvents) {
        let ms = Int(min(100, max(0, milliseconds)))
        elapsedMilliseconds += ms
        for t in touches { hop(x: t.x, y: t.y) }
        touches.removeAll(keepingCapacity: true)
        while sweaters.count < count && elapsedMilliseconds >= Self.firstDrop + sweaters.count * Self.dropEvery {
            drop()
        }
        stage.advance(time: Double(ms) / 1000)
        checkRest()
        for e in pending { events.emit(e.kind, subject: e.subject, value: e.value, x: e.x, y: e.y) }
        pending.removeAll(keepingCapacity: true)
    }

    public func drawList() -> [UInt8] {
        stage.render(into: &drawBuffer)
        return drawBuffer.bytes
    }

    // MARK: the pile

    func drop() {
        let i = sweaters.count
        let tenth = i == Self.maxSweaters - 1
        let x = Self.column + (tenth ? Self.tenthOffset : Self.offsets[i % Self.offsets.count])
        let body = BodyDef(type: .dynamic, linearDamping: Self.fallingDamping, angularDamping: 0.4)
        let s = physics.createSprite(body, x: x, y: Self.dropY)
        let k = 1 / physics.pointsPerMeter
        let hx = Self.sweaterWidth / 2 * k, hy = Self.sweaterHeight / 2 * k, c = Self.corner * k
        // Counter-clockwise in Physics2D's sense (x right, y down on screen), convex: it passes.
        let geometry: Geometry
        do {
            geometry = try Geometry.polygon(vertices: [
                Vec2(-hx + c, -hy), Vec2(hx - c, -hy), Vec2(hx, -hy + c), Vec2(hx, hy - c),
                Vec2(hx - c, hy), Vec2(-hx + c, hy), Vec2(-hx, hy - c), Vec2(-hx, -hy + c),
            ])
        } catch {
            geometry = .box(halfWidth: hx, halfHeight: hy)
        }
        s.addShape(ShapeDef(geometry, density: 1, friction: 0.7, restitution: 0))
        let picture = Image(texture: Self.texture(SweatersArt.sweaters[i % SweatersArt.sweaters.count]))
        picture.x = -Self.sweaterWidth / 2
        picture.y = -Self.sweaterHeight / 2
        picture.touchable = false
        s.addChild(picture)
        sweaters.append(s)
        landed.append(false)
        lastDropAt = elapsedMilliseconds
        restingFrames = 0
    }

    func index(of sprite: PhysicsSprite?) -> Int? {
        guard let sprite else { return nil }
        for (i, s) in sweaters.enumerated() where s === sprite { return i }
        return nil
    }

    func contactBegan(_ contact: PhysicsContact) {
        for (mine, other) in [(contact.spriteA, contact.spriteB), (contact.spriteB, contact.spriteA)] {
            guard let i = index(of: mine), !landed[i] else { continue }
            // Two sweaters still falling side by side do not count: the other must be the shelf,
            // the floor, a wall or a sweater that has landed.
            if let j = index(of: other), !landed[j] { continue }
            landed[i] = true
            let s = sweaters[i]
            // Air slows a falling sweater (a soft landing); on the pile it moves freely.
            s.body.linearDamping = Self.restingDamping
            var n: Int32 = 0
            for l in landed where l { n += 1 }
            emit(PlaygroundEvent.sound, subject: SweaterPileSound.plop, x: s.x, y: s.y)
            emit(SweaterPileEvent.landed, subject: UInt16(i), value: n, x: s.x, y: s.y)
            if i == Self.maxSweaters - 1 && !hasToppled { topple() }
        }
    }

    /// The tenth has landed off-centre: the whole pile turns about the bottom sweater's
    /// right-hand lower corner (each sweater gets that rotation's velocity at its centre).
    func topple() {
        hasToppled = true
        let k = 1 / physics.pointsPerMeter
        let pivot = Vec2((sweaters[0].x + Self.sweaterWidth / 2) * k, Self.shelfTop * k)
        let w = Self.toppleSpin
        for s in sweaters {
            let r = s.body.position - pivot
            s.body.linearVelocity = Vec2(-w * r.y, w * r.x)
            s.body.angularVelocity = w
            s.body.isAwake = true
        }
        emit(PlaygroundEvent.sound, subject: SweaterPileSound.tumble, x: sweaters[0].x, y: sweaters[0].y)
        emit(SweaterPileEvent.toppled, value: Int32(count))
    }

    /// A touch on a sweater lifts it at the touched point: it hops and wobbles. A sweater already
    /// rising is left alone (no pumping it out of the drawer).
    func hop(x: Double, y: Double) {
        let k = 1 / physics.pointsPerMeter
        let point = Vec2(x * k, y * k)
        for shape in physics.world.shapes(at: point) {
            guard let i = index(of: physics.sprite(of: shape)) else { continue }
            let body = sweaters[i].body
            guard body.linearVelocity.y > -0.5 else { return }
            body.isAwake = true
            body.applyLinearImpulse(Vec2(0, -Self.hop / body.invMass), at: point)
            emit(PlaygroundEvent.sound, subject: SweaterPileSound.boing, x: x, y: y)
            return
        }
    }

    func checkRest() {
        guard !hasWon else { return }
        if count == 0 {
            if elapsedMilliseconds >= Self.emptyDone { win() }
            return
        }
        guard sweaters.count == count else { return }
        var still = true
        for (i, s) in sweaters.enumerated() {
            if !landed[i] { still = false; break }
            let b = s.body
            if b.isAwake && (b.linearVelocity.length > Self.restSpeed || abs(b.angularVelocity) > Self.restSpeed) {
                still = false
                break
            }
        }
        restingFrames = still ? restingFrames + 1 : 0
        if restingFrames >= Self.restFrames || elapsedMilliseconds - lastDropAt >= Self.restCap { win() }
    }

    func win() {
        hasWon = true
        emit(SweaterPileEvent.won, value: Int32(count))
    }

    func emit(_ kind: UInt16, subject: UInt16 = 0, value: Int32 = 0, x: Double = 0, y: Double = 0) {
        pending.append(PlaygroundEvent(frame: 0, kind: kind, subject: subject, value: value, x: Float(x), y: Float(y)))
    }
}
