// CarWorld's traffic lights and the rules their crossings enforce: a car entering a crossing's
// sensor box on green scores, on red resets the score, on yellow does neither; two cars
// touching reset the score.

import Physics2D
import Stage

/// A traffic light: its post and lamps, the glow on its crossing, its sensor box, its state.
final class TrafficLight {
    let index: Int
    let placement: LightPlacement
    private(set) var state: LightState
    let post = Sprite()
    let lamps: [Image]   // green, yellow, red: LightState order
    let glow: Image
    let box: PhysicsSprite
    /// Game time (milliseconds) of the next change while the lights cycle.
    var nextChange = 0

    init(index: Int, placement: LightPlacement, glow: Image, box: PhysicsSprite) {
        self.index = index
        self.placement = placement
        self.glow = glow
        self.box = box
        state = placement.startsRed ? .red : .green
        var lamps: [Image] = []
        for region in [CarWorldArt.Region.lampGreen, .lampYellow, .lampRed] {
            let lamp = CarWorld.image(region)
            let offset = CarWorldArt.lampOffset(region)
            lamp.x = Double(offset.x)
            lamp.y = Double(offset.y)
            lamps.append(lamp)
        }
        self.lamps = lamps
        post.addChild(CarWorld.image(.lightPost))
        for lamp in lamps { post.addChild(lamp) }
        // The light's position is the foot of its post (the post's bottom centre).
        post.x = placement.position.x - Double(CarWorldArt.Region.lightPost.width) / 2
        post.y = placement.position.y - Double(CarWorldArt.Region.lightPost.height)
        show(state)
    }

    /// Shows `state`: its lamp lit, the crossing glowing in its colour.
    func show(_ newState: LightState) {
        state = newState
        for (i, lamp) in lamps.enumerated() { lamp.visible = i == Int(newState.rawValue) }
        glow.tint = TrafficLight.colour(newState)
    }

    /// The glow's tint for each state (the lamps' colours).
    static func colour(_ state: LightState) -> UInt32 {
        switch state {
        case .green: Color.rgb(0x6FDC7A)
        case .yellow: Color.rgb(0xFFD54A)
        case .red: Color.rgb(0xFF6B6B)
        }
    }
}

extension CarWorld {
    func addLight(_ index: Int, _ placement: LightPlacement) {
        let crossing = CarWorldMap.crossings[placement.crossing]
        let glow = Self.image(.crossingGlow)
        glow.x = crossing.box.x - Double(CarWorldArt.Region.crossingGlow.width) / 2
        glow.y = crossing.box.y - Double(CarWorldArt.Region.crossingGlow.height) / 2
        glowLayer.addChild(glow)
        let box = physics.createSprite(BodyDef(type: .static), x: crossing.box.x, y: crossing.box.y)
        box.addBox(width: CarWorldMap.sensorBoxSide, height: CarWorldMap.sensorBoxSide, isSensor: true)
        let light = TrafficLight(index: index, placement: placement, glow: glow, box: box)
        lightLayer.addChild(light.post)
        lights.append(light)
        lightByBox[ObjectIdentifier(box)] = index
        light.nextChange = milliseconds(of: light.state)
    }

    func duration(of state: LightState) -> Double {
        switch state {
        case .green: rules.greenTime
        case .yellow: rules.yellowTime
        case .red: rules.redTime
        }
    }

    /// Milliseconds a state lasts (the rules' seconds, to the millisecond).
    func milliseconds(of state: LightState) -> Int {
        Int((duration(of: state) * 1000).rounded(.toNearestOrEven))
    }

    /// Each frame: every light whose time is up moves on in its cycle. Times are counted in whole
    /// milliseconds of game time from the start, so a cycle never drifts: a change falls in the
    /// first frame that reaches its time.
    func cycleLights() {
        guard rules.lightsCycle else { return }
        for light in lights {
            while elapsedMilliseconds >= light.nextChange {
                setLight(light.index, to: light.state.next)
                light.nextChange += max(1, milliseconds(of: light.state))
            }
        }
    }

    /// Sets light `index` to `state` (the cycle, or a test).
    func setLight(_ index: Int, to state: LightState) {
        let light = lights[index]
        guard light.state != state else { return }
        light.show(state)
        emit(CarWorldEvent.lightChanged, subject: UInt16(index), value: state.rawValue)
    }

    /// The state light `index` shows.
    public func lightState(_ index: Int) -> LightState { lights[index].state }

    /// The physics world's contact callback: car–box and car–car pairs that began to touch.
    func contactBegan(_ contact: PhysicsContact) {
        guard let a = contact.spriteA, let b = contact.spriteB else { return }
        let carA = carBySprite[ObjectIdentifier(a)], carB = carBySprite[ObjectIdentifier(b)]
        if let carA, let carB {
            crash(carA, carB)
        } else if let car = carA ?? carB, let light = lightByBox[ObjectIdentifier(carA == nil ? a : b)] {
            entered(car, light: lights[light])
        }
    }

    /// A car entered a crossing's box: green scores, red resets, yellow does nothing.
    func entered(_ car: Car, light: TrafficLight) {
        let box = CarWorldMap.crossings[light.placement.crossing].box
        switch light.state {
        case .green:
            guard !hasWon else { return }
            emit(CarWorldEvent.point, subject: UInt16(light.placement.crossing), value: Int32(car.id), x: box.x, y: box.y)
            emit(PlaygroundEvent.sound, subject: CarWorldSound.point, x: box.x, y: box.y)
            showPoint(from: box)
            setScore(score + 1)
            if score >= rules.targetScore { win() }
        case .yellow:
            break
        case .red:
            reset(why: CarWorldEvent.resetByRedLight, car: car, x: box.x, y: box.y)
        }
    }

    func crash(_ a: Car, _ b: Car) {
        let (x, y) = ((a.x + b.x) / 2, (a.y + b.y) / 2)
        reset(why: CarWorldEvent.resetByCrash, car: a, x: x, y: y)
    }

    /// The score goes back to 0 (the cloud and its sound even when it already was 0); while
    /// the trophy shows, nothing is lost.
    func reset(why: UInt16, car: Car, x: Double, y: Double) {
        guard !hasWon else { return }
        emit(CarWorldEvent.reset, subject: why, value: Int32(car.id), x: x, y: y)
        emit(PlaygroundEvent.sound, subject: CarWorldSound.crash, x: x, y: y)
        showCloud(at: x, y)
        setScore(0)
    }

    func win() {
        hasWon = true
        emit(CarWorldEvent.won, value: Int32(score))
        emit(PlaygroundEvent.sound, subject: CarWorldSound.won)
        showTrophy()
    }

    /// The trophy was tapped: the score starts again from 0; the cars and lights go on.
    func newRound() {
        hasWon = false
        trophy.visible = false
        stage.juggler.removeAll(with: trophy)
        emit(CarWorldEvent.newRound)
        setScore(0)
    }
}
