// FishWorld (docs/playground.md, "FishWorld"): nine little fish of three colours school in the
// sea; a finger is a lure that the fish of the nearest group follow; a fish that reaches the
// reef of its colour settles there; all nine home wins.
//
// Built on Stage and Physics2D: each fish is a physics sprite with a dynamic circle body in a
// zero-gravity world whose bodies have linear damping (the water's drag). Every fixed step
// (1/60 s) each fish gets a steering force (FishWorldSteering.swift): schooling with its own
// colour (cohesion, alignment), separation from every fish, a seeded wander, the lure, its
// reef's call, a wrong reef's push, soft walls, and a current from tilt. Fish do not collide
// with each other or with the reefs (reefs are zones, not bodies): nothing can trap a fish.

import Physics2D
import Stage

/// One fish: a physics sprite (a circle body) with its image as a child.
public final class Fish {
    /// 0…8, in the order the fish were made (colours interleaved: red, yellow, purple, red, …).
    public let index: Int
    public let colour: FishColour
    let sprite: PhysicsSprite
    let image: Image
    /// Where the fish started (it swims back there after a new round).
    let start: FishWorldPoint
    /// Settled in its reef.
    public internal(set) var isHome = false
    /// Its place in the reef (0…2), while home.
    var slot = 0
    /// The wander's direction, radians.
    var wanderAngle: Double
    /// Seconds left swimming out of its reef after a new round (it cannot settle meanwhile).
    public internal(set) var leaving = 0.0
    /// The reef of another colour it is being pushed out of, or -1.
    var inWrongReef = -1

    init(index: Int, colour: FishColour, sprite: PhysicsSprite, image: Image, start: FishWorldPoint, wanderAngle: Double) {
        self.index = index; self.colour = colour; self.sprite = sprite; self.image = image
        self.start = start; self.wanderAngle = wanderAngle
    }

    /// The fish's centre in stage points.
    public var x: Double { sprite.x }
    public var y: Double { sprite.y }
    /// Free: neither home nor swimming out after a new round (a lure and the reefs act on it).
    public var isFree: Bool { !isHome && leaving <= 0 }
}

/// A finger on the glass: the fish of its colour's group follow it.
struct FishLure {
    let id: Int32
    var x: Double, y: Double
    /// The group it lures: the colour of the free fish nearest to where it began.
    let colour: FishColour
}

/// One FishWorld game, deterministic from its seed and inputs.
///
/// ```swift
/// let game = FishWorld(seed: 1)
/// var events = PlaygroundEvents(frame: 1)
/// game.input(.touch(1, .began, x: 500, y: 260))
/// game.advance(milliseconds: 16, events: &events)
/// let bytes = game.drawList()
/// ```
public final class FishWorld: PlaygroundGame {
    public let rules: FishWorldRules
    /// The display tree: background, reefs, the physics world with the fish, the effects
    /// (bubbles), the starfish of the win.
    public let stage: Stage
    let physics: PhysicsWorld
    let reefLayer = Sprite()
    let effectLayer = Sprite()
    let hud = Sprite()
    let starfish: Image
    /// The fish, by index.
    public private(set) var fish: [Fish] = []
    var lures: [FishLure] = []
    var bubbles: [FishBubble] = []
    var random: SeededRandom
    /// Game time in milliseconds (the sum of the frames' clamped times).
    public private(set) var elapsedMilliseconds = 0
    /// Time not yet stepped, in thirds of a millisecond (a step is 1/60 s = 50 thirds).
    var stepRemainder = 0
    /// Seconds of game time when the next ambient bubble rises.
    var nextBubble = 0.0
    /// The device's gravity, in g (the last tilt input).
    var tilt = (x: 0.0, y: 0.0)
    /// Fish settled now.
    public private(set) var homeCount = 0
    /// True from the moment every fish is home until a touch starts a new round.
    public private(set) var hasWon = false
    var wonAtMilliseconds = 0
    var pending: [PlaygroundEvent] = []
    var drawBuffer = DrawList()
    /// The scripted player's state (FishWorldAutopilot.swift).
    var autopilot = FishAutopilot()

    public static let width = 1024.0
    public static let height = 768.0
    public var stageWidth: Float { Float(Self.width) }
    public var stageHeight: Float { Float(Self.height) }

    /// Fish, touches held, the bubble pool's images, the stage juggler's animations (the
    /// starfish's growth) and the physics bodies: what must stay bounded over a long game.
    public var liveObjects: Int {
        fish.count + lures.count + effectLayer.numChildren + stage.juggler.count + physics.world.bodies.count
    }

    /// Seconds of game time.
    public var time: Double { Double(elapsedMilliseconds) / 1000 }

    public init(seed: UInt32, rules: FishWorldRules = FishWorldRules()) {
        self.rules = rules
        random = SeededRandom(seed: seed)
        stage = Stage(width: Self.width, height: Self.height, color: Color.rgb(0x7FC8E0, alpha: 0))
        physics = PhysicsWorld(gravity: Vec2(0, 0))
        physics.world.allowSleep = false
        // The game steps the world itself, a steering force before each step.
        physics.isPaused = true
        starfish = Self.image(.starfish)

        stage.addChild(Self.image(.background))
        for layer in [reefLayer, physics as Sprite, effectLayer, hud] {
            layer.touchable = false
            stage.addChild(layer)
        }
        for colour in FishColour.allCases {
            let reef = Self.image(FishWorldArt.reefs[colour.rawValue])
            let centre = rules.reefs[colour.rawValue]
            reef.pivotX = Double(reef.imageWidth) / 2
            reef.pivotY = Double(reef.imageHeight) / 2
            reef.x = centre.x
            reef.y = centre.y
            reefLayer.addChild(reef)
        }
        addWalls()
        addFish()
        makeBubbles()
        starfish.pivotX = Double(FishWorldArt.Region.starfish.width) / 2
        starfish.pivotY = Double(FishWorldArt.Region.starfish.height) / 2
        starfish.x = Self.width / 2
        starfish.y = 300
        starfish.visible = false
        hud.addChild(starfish)
        nextBubble = random.uniform(rules.bubbleInterval)
    }

    static func image(_ region: FishWorldArt.Region) -> Image {
        Image(texture: TextureRegion(atlas: FishWorldArt.atlas, region: region.rawValue,
                                     width: Double(region.width), height: Double(region.height)))
    }

    /// Hard walls just outside the stage (the soft walls inside keep the fish off them).
    func addWalls() {
        let t = 40.0
        let boxes: [(x: Double, y: Double, w: Double, h: Double)] = [
            (Self.width / 2, -t / 2, Self.width + 2 * t, t), (Self.width / 2, Self.height + t / 2, Self.width + 2 * t, t),
            (-t / 2, Self.height / 2, t, Self.height), (Self.width + t / 2, Self.height / 2, t, Self.height),
        ]
        for b in boxes {
            let wall = physics.createSprite(BodyDef(type: .static), x: b.x, y: b.y)
            wall.addBox(width: b.w, height: b.h, friction: 0, filter: Filter(categoryBits: 1, maskBits: 0xFFFF_FFFF))
        }
    }

    /// Nine fish, colours interleaved, at seeded places in the start box, facing a seeded way.
    func addFish() {
        let count = rules.fishPerColour * FishColour.allCases.count
        for i in 0..<count {
            let colour = FishColour(rawValue: i % FishColour.allCases.count) ?? .red
            let start = FishWorldPoint(rules.startOrigin.x + random.unit() * rules.startSize.x,
                                 rules.startOrigin.y + random.unit() * rules.startSize.y)
            let sprite = physics.createSprite(
                BodyDef(type: .dynamic, linearDamping: rules.waterDrag, fixedRotation: true), x: start.x, y: start.y)
            // Fish touch only the walls (category 1), never each other.
            sprite.addCircle(radius: rules.fishRadius, friction: 0, restitution: 0.3,
                             filter: Filter(categoryBits: 2, maskBits: 1))
            let image = Self.image(FishWorldArt.fish[colour.rawValue])
            image.pivotX = Double(image.imageWidth) / 2
            image.pivotY = Double(image.imageHeight) / 2
            sprite.addChild(image)
            let angle = random.unit() * 2 * Double.pi
            fish.append(Fish(index: i, colour: colour, sprite: sprite, image: image, start: start, wanderAngle: angle))
        }
    }

    // MARK: PlaygroundGame

    public func input(_ input: PlaygroundInput) {
        switch input.kind {
        case .tilt:
            tilt = (Double(input.x), Double(input.y))
        case .touch:
            let (x, y) = (Double(input.x), Double(input.y))
            switch input.phase {
            case .began: touchBegan(id: input.id, x: x, y: y)
            case .moved, .stationary:
                if let i = lures.firstIndex(where: { $0.id == input.id }) { lures[i].x = x; lures[i].y = y }
            case .ended, .cancelled:
                lures.removeAll { $0.id == input.id }
            }
        }
    }

    /// One frame: the fixed physics steps that fit (each after its steering forces), the
    /// settling and the win, the fish's faces, then the stage's juggler (effects).
    public func advance(milliseconds: Int32, events: inout PlaygroundEvents) {
        let ms = Int(min(100, max(0, milliseconds)))
        elapsedMilliseconds += ms
        stepRemainder += 3 * ms
        var steps = stepRemainder / 50
        stepRemainder -= 50 * steps
        if steps > physics.maxStepsPerFrame { steps = physics.maxStepsPerFrame }
        for _ in 0..<steps {
            steer(dt: physics.timeStep)
            physics.step()
            settle()
        }
        for f in fish { face(f) }
        bubbleNow()
        animate(dt: Double(ms) / 1000)
        stage.advance(time: Double(ms) / 1000)
        for e in pending { events.emit(e.kind, subject: e.subject, value: e.value, x: e.x, y: e.y) }
        pending.removeAll(keepingCapacity: true)
    }

    public func drawList() -> [UInt8] {
        stage.render(into: &drawBuffer)
        return drawBuffer.bytes
    }

    // MARK: rules

    func emit(_ kind: UInt16, subject: UInt16 = 0, value: Int32 = 0, x: Double = 0, y: Double = 0) {
        pending.append(PlaygroundEvent(frame: 0, kind: kind, subject: subject, value: value, x: Float(x), y: Float(y)))
    }

    /// A touch began: after the win (and its animation) a new round; otherwise a lure for the
    /// group of the nearest free fish, whose fish nearby dart toward it.
    func touchBegan(id: Int32, x: Double, y: Double) {
        lures.removeAll { $0.id == id }
        if hasWon {
            if elapsedMilliseconds - wonAtMilliseconds >= Int(rules.winPause * 1000) { newRound() }
            return
        }
        var nearest: Fish?
        var best = Double.infinity
        for f in fish where !f.isHome {
            let d = (f.x - x) * (f.x - x) + (f.y - y) * (f.y - y)
            if d < best { best = d; nearest = f }
        }
        guard let group = nearest?.colour else { return }
        lures.append(FishLure(id: id, x: x, y: y, colour: group))
        var darted: Int32 = 0
        let ppm = physics.pointsPerMeter
        for f in fish where f.isFree && f.colour == group {
            let dx = x - f.x, dy = y - f.y
            let d = (dx * dx + dy * dy).squareRoot()
            guard d <= rules.dartRadius, d > 1 else { continue }
            let body = f.sprite.body
            let k = body.mass * rules.dartSpeed / ppm / d
            body.applyLinearImpulseToCenter(Vec2(dx * k, dy * k))
            darted += 1
        }
        emit(FishWorldEvent.lure, subject: UInt16(group.rawValue), value: darted, x: x, y: y)
        if darted > 0 { emit(PlaygroundEvent.sound, subject: FishWorldSound.dart, x: x, y: y) }
        addBubble(x: x, y: y, rise: 120, time: 1.2, scale: 0.6)
    }

    /// After each step: a free fish inside its own reef's home circle settles; every fish home wins.
    func settle() {
        for f in fish where f.isFree {
            let reef = rules.reefs[f.colour.rawValue]
            let dx = f.x - reef.x, dy = f.y - reef.y
            guard dx * dx + dy * dy < rules.homeRadius * rules.homeRadius else { continue }
            f.slot = fish.reduce(0) { $0 + ($1.isHome && $1.colour == f.colour ? 1 : 0) } % FishWorldRules.slots.count
            f.isHome = true
            f.inWrongReef = -1
            homeCount += 1
            emit(FishWorldEvent.fishHome, subject: UInt16(f.index), value: Int32(f.colour.rawValue), x: reef.x, y: reef.y)
            emit(FishWorldEvent.homeCount, value: Int32(homeCount))
            emit(PlaygroundEvent.sound, subject: FishWorldSound.home, x: reef.x, y: reef.y)
            for k in 0..<3 { addBubble(x: reef.x - 30 + 30 * Double(k), y: reef.y - 30, rise: 200, time: 1.6, scale: 0.8) }
            if homeCount == fish.count && !hasWon { win() }
        }
        // Lures of a group that is all home move to the nearest free fish's group.
        for i in lures.indices where !fish.contains(where: { $0.colour == lures[i].colour && !$0.isHome }) {
            var nearest: Fish?
            var best = Double.infinity
            for f in fish where !f.isHome {
                let d = (f.x - lures[i].x) * (f.x - lures[i].x) + (f.y - lures[i].y) * (f.y - lures[i].y)
                if d < best { best = d; nearest = f }
            }
            if let colour = nearest?.colour { lures[i] = FishLure(id: lures[i].id, x: lures[i].x, y: lures[i].y, colour: colour) }
        }
    }

    func win() {
        hasWon = true
        wonAtMilliseconds = elapsedMilliseconds
        emit(FishWorldEvent.won, value: Int32(fish.count))
        emit(PlaygroundEvent.sound, subject: FishWorldSound.won, x: Self.width / 2, y: 300)
        celebrate()
    }

    /// A touch after the win: every fish swims out of its reef toward where it started.
    func newRound() {
        hasWon = false
        homeCount = 0
        for f in fish {
            f.isHome = false
            f.leaving = rules.leaveTime
            f.inWrongReef = -1
        }
        starfish.visible = false
        emit(FishWorldEvent.newRound)
        emit(FishWorldEvent.homeCount, value: 0)
        emit(PlaygroundEvent.sound, subject: FishWorldSound.newRound)
    }
}
