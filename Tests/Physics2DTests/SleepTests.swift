import Foundation
import Testing
@testable import Physics2D

/// Sleeping islands: falling asleep, waking, opting out, determinism.
@Suite struct SleepTests {
    let dt = 1.0 / 60

    func dropBox(_ world: World, at p: Vec2) -> Body {
        let b = world.createBody(BodyDef(type: .dynamic, position: p))
        world.createShape(on: b, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), density: 1, friction: 0.6))
        return b
    }

    /// Steps until `done` holds (at most `limit` steps); returns the steps taken, or nil.
    func stepUntil(_ world: World, limit: Int, _ done: () -> Bool) -> Int? {
        for n in 1...limit {
            world.step(dt)
            if done() { return n }
        }
        return nil
    }

    @Test(arguments: SolverKind.allCases) func restingBoxFallsAsleepWithinASecondOfSettling(_ solver: SolverKind) {
        let (world, ground) = worldWithGround()
        world.solverKind = solver
        #expect(world.allowSleep && !ground.isAwake)
        let box = dropBox(world, at: Vec2(0, 0.5 + PhysicsSettings.polygonRadius))  // already resting
        #expect(box.isAwake && box.allowSleep)
        let n = stepUntil(world, limit: 120) { !box.isAwake }
        #expect(n != nil)
        #expect((n ?? 999) >= 30)          // not before 0.5 s of rest
        #expect(box.linearVelocity == .zero && box.angularVelocity == 0)
        // Asleep: it does not move at all, even under gravity.
        let p = box.position
        for _ in 0..<60 { world.step(dt) }
        #expect(box.position == p && !box.isAwake)
    }

    @Test(arguments: SolverKind.allCases) func droppedBoxSleepsSoonAfterLanding(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let box = dropBox(world, at: Vec2(0, 3))
        // Lands after ~0.7 s; asleep within about a second of settling.
        let n = stepUntil(world, limit: 180) { !box.isAwake }
        #expect(n != nil)
        #expect(abs(box.position.y - 0.5) < 0.03)
    }

    @Test(arguments: SolverKind.allCases) func pyramidFallsAsleepAndAnImpulseWakesItsIsland(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let boxes = addPyramid(world, rows: 6)
        let n = stepUntil(world, limit: 600) { boxes.allSatisfy { !$0.isAwake } }
        #expect(n != nil)
        let rest = boxes.map(\.position)
        for _ in 0..<30 { world.step(dt) }
        #expect(boxes.map(\.position) == rest)
        // An impulse on the top box wakes it at once, and its whole island with the next step.
        let top = boxes.last!
        top.applyLinearImpulseToCenter(Vec2(0.5, 0))
        #expect(top.isAwake)
        #expect(boxes.filter { $0.isAwake }.count == 1)
        world.step(dt)
        #expect(boxes.allSatisfy { $0.isAwake })
        // And it falls asleep again afterwards.
        #expect(stepUntil(world, limit: 600) { boxes.allSatisfy { !$0.isAwake } } != nil)
    }

    @Test(arguments: SolverKind.allCases) func separateIslandsSleepSeparately(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let left = dropBox(world, at: Vec2(-5, 0.51))
        let right = dropBox(world, at: Vec2(5, 0.51))
        #expect(stepUntil(world, limit: 120) { !left.isAwake && !right.isAwake } != nil)
        // Static ground does not join islands: waking one leaves the other asleep.
        left.linearVelocity = Vec2(1, 0)
        for _ in 0..<5 { world.step(dt) }
        #expect(left.isAwake && !right.isAwake)
    }

    @Test(arguments: SolverKind.allCases) func fallingBodyWakesASleepingStack(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let stack = (0..<3).map { dropBox(world, at: Vec2(0, 0.5 + Double($0))) }
        #expect(stepUntil(world, limit: 600) { stack.allSatisfy { !$0.isAwake } } != nil)
        let falling = dropBox(world, at: Vec2(0.2, 6))
        var wokeAll = false
        for _ in 0..<120 {
            world.step(dt)
            if stack.allSatisfy({ $0.isAwake }) { wokeAll = true; break }
        }
        #expect(wokeAll)
        // It lands on the stack rather than passing through the sleeping boxes.
        for _ in 0..<120 { world.step(dt) }
        #expect(falling.position.y > 3.2)
    }

    @Test(arguments: SolverKind.allCases) func removingATouchingBodyWakesWhatRestsOnIt(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let lower = dropBox(world, at: Vec2(0, 0.5))
        let upper = dropBox(world, at: Vec2(0, 1.5))
        #expect(stepUntil(world, limit: 600) { !lower.isAwake && !upper.isAwake } != nil)
        let y = upper.position.y
        world.removeBody(lower)
        #expect(upper.isAwake)
        for _ in 0..<60 { world.step(dt) }
        #expect(upper.position.y < y - 0.5)
    }

    @Test(arguments: SolverKind.allCases) func jointToAnAwakeBodyWakesTheSleepingOne(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let sleeper = dropBox(world, at: Vec2(0, 0.5))
        #expect(stepUntil(world, limit: 120) { !sleeper.isAwake } != nil)
        let swinger = world.createBody(BodyDef(type: .dynamic, position: Vec2(3, 3)))
        world.createShape(on: swinger, ShapeDef(.circle(center: .zero, radius: 0.25)))
        world.createRevoluteJoint(RevoluteJointDef(bodyA: sleeper, bodyB: swinger, anchor: Vec2(0, 1)))
        #expect(sleeper.isAwake)
        for _ in 0..<10 { world.step(dt) }
        #expect(sleeper.isAwake && swinger.isAwake)
    }

    @Test func sleepCanBeTurnedOff() {
        // World-wide.
        let (world, _) = worldWithGround()
        world.allowSleep = false
        let boxes = addPyramid(world, rows: 3)
        for _ in 0..<300 { world.step(dt) }
        #expect(boxes.allSatisfy { $0.isAwake })
        // Per body: its island never sleeps, a separate island does.
        let (world2, _) = worldWithGround()
        let insomniac = dropBox(world2, at: Vec2(-3, 0.5))
        insomniac.allowSleep = false
        let onTop = dropBox(world2, at: Vec2(-3, 1.5))
        let other = dropBox(world2, at: Vec2(3, 0.5))
        for _ in 0..<300 { world2.step(dt) }
        #expect(insomniac.isAwake && onTop.isAwake)
        #expect(!other.isAwake)
        // Turning the world flag off wakes everything.
        world2.allowSleep = false
        #expect(other.isAwake)
    }

    @Test func sceneWithoutSleepNeverSleeps() throws {
        let scene = try Scene(json: Data(SceneTests.pyramidJSON.utf8))
        #expect(!scene.allowSleep)
        let (world, bodies) = scene.makeWorld()
        #expect(!world.allowSleep)
        for _ in 0..<scene.steps { world.step(scene.dt) }
        #expect(bodies.filter { $0.type != .static }.allSatisfy { $0.isAwake })
        let sleepy = SceneTests.pyramidJSON.replacingOccurrences(of: "\"allow_sleep\": false", with: "\"allow_sleep\": true")
        let scene2 = try Scene(json: Data(sleepy.utf8))
        let (world2, bodies2) = scene2.makeWorld()
        #expect(world2.allowSleep)
        for _ in 0..<scene2.steps { world2.step(scene2.dt) }
        #expect(bodies2.filter { $0.type == .dynamic }.allSatisfy { !$0.isAwake })
    }

    /// Falling asleep and waking up give the same bytes on every run.
    func sleepyRun() -> [UInt8] {
        let (world, _) = worldWithGround()
        let boxes = addPyramid(world, rows: 5)
        var bytes: [UInt8] = []
        func put(_ d: Double) { withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes += $0 } }
        for n in 0..<600 {
            if n == 300 { boxes[3].applyLinearImpulseToCenter(Vec2(0, 2)) }
            if n == 400 { _ = dropBox(world, at: Vec2(0.3, 8)) }
            world.step(dt)
            put(Double(world.bodies.filter { $0.isAwake }.count))
        }
        for b in world.bodies {
            put(b.position.x); put(b.position.y); put(b.angle)
            put(b.linearVelocity.x); put(b.linearVelocity.y); put(b.angularVelocity)
        }
        return bytes
    }

    @Test func sleepingIsDeterministic() {
        #expect(sleepyRun() == sleepyRun())
    }
}
