// CarWorld (docs/playground.md, "CarWorld"): cars drive by themselves along three roads; a tap
// stops a car and another starts it again; a car that enters a crossing on green scores a
// point, one that enters on red, or two cars that touch, reset the score; the target score wins.
//
// Built on Stage like the original on Sparrow and SPPhysics: a `PhysicsWorld` (zero gravity,
// 1024 × 768) holds the cars, each a physics sprite with a sensor box, its own juggler and a path
// tween along its road; each light has a static 20 × 20 sensor box on its crossing. Contacts
// decide the rules: car–box (a crossing entered) and car–car (a crash).

import Physics2D
import Stage

/// One CarWorld game, deterministic from its seed and inputs.
///
/// ```swift
/// let game = CarWorld(seed: 7)
/// var events = PlaygroundEvents(frame: 1)
/// game.input(.touch(0, .began, x: 300, y: 330))
/// game.advance(milliseconds: 16, events: &events)
/// let bytes = game.drawList()
/// ```
public final class CarWorld: PlaygroundGame {
    /// The numbers this game plays by.
    public let rules: CarWorldRules
    /// The display tree: background, crossing glows, the physics world with the cars, the
    /// lights, the effects, the score and the trophy.
    public let stage: Stage
    /// The physics world of the cars and the sensor boxes (zero gravity).
    let physics: PhysicsWorld
    let glowLayer = Sprite()
    let lightLayer = Sprite()
    let effectLayer = Sprite()
    let hud = Sprite()
    let scoreText: TextField
    let trophy: Image
    /// The roads as Stage paths, indexed by `RoadID.rawValue`.
    let paths: [BezierPath]
    var lights: [TrafficLight] = []
    /// The cars on each road, front (oldest) first.
    var carsOnRoad: [[Car]] = [[], [], []]
    var carBySprite: [ObjectIdentifier: Car] = [:]
    var lightByBox: [ObjectIdentifier: Int] = [:]
    var nextSpawn: [Double] = [0, 0, 0]
    var finishedCars: [Car] = []
    var random: SeededRandom
    var nextCarID: UInt16 = 1
    /// Game time in milliseconds (the sum of the frames' clamped times).
    public private(set) var elapsedMilliseconds = 0
    /// Game time in seconds.
    public var time: Double { Double(elapsedMilliseconds) / 1000 }
    /// The current score.
    public private(set) var score = 0
    /// True from reaching the target score until the trophy is tapped.
    public internal(set) var hasWon = false
    /// Events raised during the current frame (by callbacks), handed to the host at its end.
    var pending: [PlaygroundEvent] = []
    var drawBuffer = DrawList()
    /// Where each road meets its crossings (the autopilot's map), made on its first call.
    var autopilotCrossings: [[CarWorldAutopilot.Meeting]]?
    /// Touch ids the autopilot's taps take turns with.
    var autopilotTouch: Int32 = 0

    public var stageWidth: Float { Float(CarWorldMap.width) }
    public var stageHeight: Float { Float(CarWorldMap.height) }

    /// The cars on the map, front of each road first, roads in `RoadID` order.
    public var cars: [Car] { carsOnRoad[0] + carsOnRoad[1] + carsOnRoad[2] }

    /// Cars, effects still playing, animations of the stage's juggler and bodies: what must stay
    /// bounded over a long game.
    public var liveObjects: Int {
        carsOnRoad[0].count + carsOnRoad[1].count + carsOnRoad[2].count + effectLayer.numChildren
            + stage.juggler.count + physics.world.bodies.count
    }

    /// A new game from `seed` (the first cars come within `rules.firstSpawn` seconds).
    public init(seed: UInt32, rules: CarWorldRules = CarWorldRules()) {
        self.rules = rules
        random = SeededRandom(seed: seed)
        // No background quad: the background image covers the stage.
        stage = Stage(width: CarWorldMap.width, height: CarWorldMap.height, color: Color.rgb(0xBFE3A6, alpha: 0))
        physics = PhysicsWorld(gravity: Vec2(0, 0))
        physics.world.allowSleep = false
        var roads: [BezierPath] = []
        for road in CarWorldMap.roads { roads.append(Self.path(road)) }
        paths = roads
        scoreText = TextField(width: 116, height: 40, text: "", fontSize: 28, color: Color.rgb(0x8A5A2B),
                              alignment: .center, font: .round(atlas: CarWorldArt.fontAtlas))
        trophy = Self.image(.trophy)

        // Every touch goes to the background (the layers above are not touchable), so one touch
        // event per frame reaches the stage, where `tap` finds the car.
        let background = Self.image(.background)
        stage.addChild(background)
        for layer in [glowLayer, physics as Sprite, lightLayer, effectLayer, hud] {
            layer.touchable = false
            stage.addChild(layer)
        }
        for (index, placement) in CarWorldMap.lights.enumerated() { addLight(index, placement) }
        buildHUD()
        for road in RoadID.allCases { nextSpawn[road.rawValue] = random.uniform(rules.firstSpawn) }

        physics.onBeginContact = { [unowned(unsafe) self] contact in self.contactBegan(contact) }
        stage.addEventListener(EventType.enterFrame, as: EnterFrameEvent.self) { [unowned(unsafe) self] event in
            self.cycleLights()
            self.moveCars(by: event.passedTime)
        }
        stage.addEventListener(EventType.touch, as: TouchEvent.self) { [unowned(unsafe) self] event in
            for touch in event.touches where touch.phase == .began { self.tap(x: touch.globalX, y: touch.globalY) }
        }
    }

    // MARK: PlaygroundGame

    public func input(_ input: PlaygroundInput) {
        switch input.kind {
        case .touch:
            guard let phase = TouchPhase(rawValue: input.phase.rawValue) else { return }
            stage.queueTouch(id: input.id, phase: phase, x: Double(input.x), y: Double(input.y))
        case .tilt:
            break   // CarWorld is played by touch only.
        }
    }

    /// One frame: the queued touches (taps), the stage's juggler (effects), the lights, the cars
    /// (their own jugglers, spawning, freeing), then the physics steps and their contacts.
    public func advance(milliseconds: Int32, events: inout PlaygroundEvents) {
        let ms = Int(min(100, max(0, milliseconds)))
        elapsedMilliseconds += ms
        stage.advance(time: Double(ms) / 1000)
        for e in pending { events.emit(e.kind, subject: e.subject, value: e.value, x: e.x, y: e.y) }
        pending.removeAll(keepingCapacity: true)
    }

    public func drawList() -> [UInt8] {
        stage.render(into: &drawBuffer)
        return drawBuffer.bytes
    }

    // MARK: building the scene

    static func texture(_ region: CarWorldArt.Region) -> TextureRegion {
        TextureRegion(atlas: CarWorldArt.atlas, region: region.rawValue,
                      width: Double(region.width), height: Double(region.height))
    }

    static func image(_ region: CarWorldArt.Region) -> Image { Image(texture: texture(region)) }

    static func vec(_ p: MapPoint) -> Vec2 { Vec2(p.x, p.y) }

    /// A map road as a Stage path (same points, same order).
    static func path(_ road: [RoadSegment]) -> BezierPath {
        var path = BezierPath(start: vec(road[0].start))
        for segment in road {
            switch segment {
            case .cubic(_, let b, let c, let d): path.addCubic(control1: vec(b), control2: vec(c), end: vec(d))
            case .line(_, let d): path.addLine(to: vec(d))
            }
        }
        return path
    }

    func buildHUD() {
        let panel = Self.image(.scorePanel)
        panel.x = 16
        panel.y = 12
        hud.addChild(panel)
        scoreText.x = 16 + 56
        scoreText.y = 12 + 8
        hud.addChild(scoreText)
        showScore()
        trophy.pivotX = Double(CarWorldArt.Region.trophy.width) / 2
        trophy.pivotY = Double(CarWorldArt.Region.trophy.height) / 2
        trophy.x = CarWorldMap.width / 2
        trophy.y = CarWorldMap.height / 2
        trophy.visible = false
        hud.addChild(trophy)
    }

    func showScore() {
        scoreText.text = String(score) + " / " + String(rules.targetScore)
    }

    // MARK: events

    func emit(_ kind: UInt16, subject: UInt16 = 0, value: Int32 = 0, x: Double = 0, y: Double = 0) {
        pending.append(PlaygroundEvent(frame: 0, kind: kind, subject: subject, value: value, x: Float(x), y: Float(y)))
    }

    func setScore(_ value: Int) {
        guard value != score else { return }
        score = value
        showScore()
        emit(CarWorldEvent.scoreChanged, value: Int32(value))
    }
}
