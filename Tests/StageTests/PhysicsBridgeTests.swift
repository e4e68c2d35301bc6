import Testing
import Physics2D
@testable import Stage

/// PhysicsWorld and PhysicsSprite: stepping from enter-frame, sprites following bodies, bodies
/// following sprites, contact callbacks with both sprites.
@Suite struct PhysicsBridgeTests {
    @Test func aFallingBodyMovesItsSprite() {
        let stage = Stage(width: 1024, height: 768)
        let physics = PhysicsWorld(gravity: Vec2(0, 9.8), pointsPerMeter: 32)
        stage.addChild(physics)
        let ball = physics.createSprite(x: 320, y: 64)
        ball.addCircle(radius: 16)
        ball.addChild(Quad(width: 32, height: 32))
        #expect(ball.body.position == Vec2(10, 2))
        var lastY = ball.y
        for _ in 0..<60 {
            stage.advance(time: 1.0 / 60)
            #expect(ball.y > lastY)
            lastY = ball.y
            #expect(ball.x == ball.body.position.x * 32 && ball.y == ball.body.position.y * 32)
        }
        #expect(physics.stepCount == 60)
        // Free fall for 1 s (semi-implicit Euler): about g/2 metres, within a step's error.
        let fallen = ball.body.position.y - 2
        #expect(abs(fallen - 4.9) < 0.1)
        // The sprite's drawing follows: its quad's stage transform is at the body.
        #expect(ball.children[0].transformationMatrix(to: stage).tx == ball.x)
    }

    @Test func fixedStepsFromFrameTimes() {
        let physics = PhysicsWorld(gravity: .zero)
        physics.advance(time: 0.010)
        #expect(physics.stepCount == 0)
        physics.advance(time: 0.010)   // 20 ms: one step, 3.33 ms left
        #expect(physics.stepCount == 1)
        physics.advance(time: 0.1)     // 103.3 ms: 6 steps
        #expect(physics.stepCount == 7)
        physics.advance(time: 1.0)     // capped at maxStepsPerFrame
        #expect(physics.stepCount == 15)
        #expect(physics.accumulator < physics.timeStep)
        physics.isPaused = true
        physics.advance(time: 1.0)
        #expect(physics.stepCount == 15)
    }

    @Test func rotationFollowsTheBodyAngle() {
        let physics = PhysicsWorld(gravity: .zero, pointsPerMeter: 50)
        let wheel = physics.createSprite(x: 100, y: 100)
        wheel.addCircle(radius: 10)
        wheel.body.angularVolocityForTest(2)
        for _ in 0..<30 { physics.advance(time: 1.0 / 60) }
        #expect(abs(wheel.rotation - 1) < 1e-9)
        #expect(wheel.rotation == DisplayObject.normalizedAngle(wheel.body.angle))
    }

    @Test func displayDrivesTheBody() {
        let physics = PhysicsWorld(gravity: .zero, pointsPerMeter: 32)
        let car = physics.createSprite(BodyDef(type: .dynamic), x: 0, y: 0, drive: .displayDrivesBody)
        car.addBox(width: 32, height: 16)
        car.x = 64; car.y = 32; car.rotation = 0.5   // e.g. a tween moved it this frame
        physics.advance(time: 1.0 / 60)
        #expect(abs(car.body.position.x - 2) < 1e-9 && abs(car.body.position.y - 1) < 1e-9)
        #expect(abs(car.body.angle - 0.5) < 1e-9)
        #expect(car.x == 64 && car.y == 32)   // the simulation never moves the sprite
        // Over a frame of three steps the body spreads the move and arrives at the end.
        car.x = 160
        physics.advance(time: 3.0 / 60)
        #expect(abs(car.body.position.x - 5) < 1e-9)
        // A jump beyond the solver's 2 m per step is a teleport.
        car.x = 1600
        physics.advance(time: 1.0 / 60)
        #expect(car.body.position.x == 50 && car.body.linearVelocity == .zero)
        car.x = 160
        physics.advance(time: 1.0 / 60)
        #expect(car.body.position.x == 5)
        // Standing still: it stays.
        physics.advance(time: 1.0 / 60)
        #expect(abs(car.body.position.x - 5) < 1e-9 && abs(car.body.linearVelocity.x) < 1e-9)
    }

    @Test func contactBeginAndEndReachTheCallbacksWithBothSprites() {
        let physics = PhysicsWorld(gravity: .zero, pointsPerMeter: 10)
        let sensor = physics.createSprite(BodyDef(type: .static), x: 100, y: 0)
        sensor.name = "sensor"
        sensor.addBox(width: 20, height: 20, isSensor: true)
        let car = physics.createSprite(BodyDef(type: .dynamic), x: 0, y: 0, drive: .displayDrivesBody)
        car.name = "car"
        car.addBox(width: 10, height: 10)
        var begins: [(a: String?, b: String?, x: Double)] = []
        var ends: [Double] = []
        physics.onBeginContact = { c in
            #expect(c.event.isSensor)
            #expect(c.other(than: car) === sensor && c.other(than: sensor) === car)
            begins.append((c.spriteA?.name, c.spriteB?.name, car.x))
        }
        physics.onEndContact = { c in
            #expect(c.other(than: car) === sensor)
            ends.append(car.x)
        }
        // Drive the car along x, 10 points a frame.
        for _ in 0..<20 {
            car.x += 10
            physics.advance(time: 1.0 / 60)
        }
        // The car's box (±5) overlaps the sensor (90…110) while its x is strictly between 85 and
        // 115. The world tests overlaps at the start of a step, with the positions the previous
        // step left: the step of the frame that sets x = 100 starts with the body at 90 (the
        // first overlap), the one that sets x = 130 with it at 120 (the first clear position).
        #expect(begins.count == 1 && ends.count == 1)
        #expect(Set([begins[0].a, begins[0].b]) == Set(["car", "sensor"]))
        #expect(begins[0].x == 100)
        #expect(ends[0] == 130)
    }

    @Test func removingASpriteRemovesItsBodyAndReportsTheEnd() {
        let physics = PhysicsWorld(gravity: .zero, pointsPerMeter: 10)
        let a = physics.createSprite(BodyDef(type: .static), x: 0, y: 0)
        a.addBox(width: 20, height: 20, isSensor: true)
        let b = physics.createSprite(BodyDef(type: .dynamic), x: 5, y: 0)
        b.addBox(width: 10, height: 10)
        var begun = 0
        var ended: [PhysicsSprite?] = []
        physics.onBeginContact = { c in
            begun += 1
            // Sprites may be removed from inside the callback.
            if begun == 1 { c.other(than: a)?.removeFromParent() }
        }
        physics.onEndContact = { c in ended.append(c.other(than: a)) }
        physics.advance(time: 1.0 / 60)
        #expect(begun == 1)
        #expect(b.physicsWorld == nil && b.parent == nil)
        #expect(physics.world.bodies.count == 1 && physics.sprites.count == 1)
        physics.advance(time: 1.0 / 60)
        #expect(ended.count == 1 && ended[0] === b)
        #expect(begun == 1)
    }
}

extension Body {
    func angularVolocityForTest(_ w: Double) { angularVelocity = w }
}
