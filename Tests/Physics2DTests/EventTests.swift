import Foundation
import Testing
@testable import Physics2D

/// Begin/end events, sensors, removal from callbacks, determinism.
@Suite struct EventTests {
    let dt = 1.0 / 60

    final class Log {
        var begins: [(Int, Int)] = []
        var ends: [(Int, Int)] = []
    }

    func record(_ world: World) -> Log {
        let log = Log()
        world.onBeginContact = { log.begins.append(($0.shapeA.id, $0.shapeB.id)) }
        world.onEndContact = { log.ends.append(($0.shapeA.id, $0.shapeB.id)) }
        return log
    }

    @Test(arguments: SolverKind.allCases) func sensorOverlapBeginsAndEndsExactlyOnce(_ solver: SolverKind) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let zone = world.createBody(BodyDef(type: .static))
        let zoneShape = world.createShape(on: zone, ShapeDef(.box(halfWidth: 1.5, halfHeight: 1.5), isSensor: true))
        let car = world.createBody(BodyDef(type: .dynamic, position: Vec2(-6, 0), linearVelocity: Vec2(5, 0)))
        let carShape = world.createShape(on: car, ShapeDef(.box(halfWidth: 1, halfHeight: 0.5), isSensor: true))
        let log = record(world)
        var touchingSteps = 0
        for _ in 0..<150 {   // 2.5 s: the car crosses the zone completely
            world.step(dt)
            if world.touchingCount > 0 { touchingSteps += 1 }
        }
        #expect(log.begins.count == 1)
        #expect(log.ends.count == 1)
        #expect(Set([log.begins[0].0, log.begins[0].1]) == Set([zoneShape.id, carShape.id]))
        // Overlapping while |x| < 2.5 m (plus skins): 5 m at 5 m/s is 60 steps.
        #expect(abs(touchingSteps - 60) <= 2)
        #expect(car.position.x > 6)
        #expect(abs(car.linearVelocity.x - 5) < 1e-12)   // sensors do not slow anything down
    }

    @Test(arguments: SolverKind.allCases) func restingContactBeginsOnceAndNeverEnds(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 3)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        let log = record(world)
        for _ in 0..<300 { world.step(dt) }
        #expect(log.begins.count == 1)
        #expect(log.ends.isEmpty)
    }

    @Test func eachPassBeginsAgain() {
        // A kinematic sensor sweeps back and forth over a dynamic ball three times.
        let world = World(gravity: .zero)
        let ball = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        let sweeper = world.createBody(BodyDef(type: .kinematic, position: Vec2(-5, 0), linearVelocity: Vec2(10, 0)))
        world.createShape(on: sweeper, ShapeDef(.box(halfWidth: 0.5, halfHeight: 2), isSensor: true))
        let log = record(world)
        for pass in 0..<3 {
            for _ in 0..<60 { world.step(dt) }
            sweeper.linearVelocity = pass % 2 == 0 ? Vec2(-10, 0) : Vec2(10, 0)
        }
        #expect(log.begins.count == 3)
        #expect(log.ends.count == 3)
    }

    @Test(arguments: SolverKind.allCases) func removingABodyInsideACallbackIsSafe(_ solver: SolverKind) {
        let (world, ground) = worldWithGround()
        world.solverKind = solver
        var balls: [Body] = []
        for i in 0..<10 {
            let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(Double(i) * 1.5 - 7, 1 + Double(i) * 0.3)))
            world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 0.5)))
            balls.append(b)
        }
        var removedInCallback = 0, ends = 0
        world.onBeginContact = { e in
            guard let a = e.bodyA, let b = e.bodyB else { return }
            let ball = a === ground ? b : a
            #expect(world.isLocked)
            world.removeBody(ball)
            world.removeBody(ball)          // twice is harmless
            #expect(ball.world === world)   // deferred until the callbacks are done
            removedInCallback += 1
        }
        world.onEndContact = { _ in ends += 1 }
        for _ in 0..<200 { world.step(dt) }
        #expect(removedInCallback == 10)
        #expect(ends == 10)                  // each removed body ends its touching contact
        #expect(world.bodies.count == 1)
        #expect(world.contactCount == 0)
        #expect(balls.allSatisfy { $0.world == nil })
        #expect(world.bodies.first === ground)
        world.removeBody(balls[0])           // no longer in the world: ignored
        world.step(dt)
    }

    @Test(arguments: SolverKind.allCases) func removingOutsideAStepReportsEnd(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 0.5)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        let log = record(world)
        for _ in 0..<10 { world.step(dt) }
        #expect(log.begins.count == 1)
        world.removeBody(box)
        #expect(log.ends.count == 1)
        #expect(world.bodies.count == 1)
    }

    @Test(arguments: SolverKind.allCases) func creatingBodiesInsideACallbackIsSafe(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 2)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        var spawned = 0
        world.onBeginContact = { _ in
            guard spawned < 3 else { return }
            spawned += 1
            let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(Double(spawned) * 3, 2)))
            world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 0.5)))
        }
        for _ in 0..<300 { world.step(dt) }
        #expect(spawned == 3)
        #expect(world.bodies.count == 5)
        #expect(world.bodies.dropFirst().allSatisfy { abs($0.position.y - 0.5 - PhysicsSettings.polygonRadius) < 0.02 })
    }

    /// A busy scene: pile of mixed shapes in a container, with events.
    func busyRun() -> [UInt8] {
        let world = World(gravity: Vec2(0, -10))
        let walls = world.createBody(BodyDef(type: .static))
        world.createShape(on: walls, ShapeDef(.box(halfWidth: 6, halfHeight: 0.5, center: Vec2(0, -0.5))))
        world.createShape(on: walls, ShapeDef(.segment(Vec2(-6, 0), Vec2(-6, 20))))
        world.createShape(on: walls, ShapeDef(.box(halfWidth: 0.5, halfHeight: 10, center: Vec2(6.5, 10), angle: 0)))
        // Every event goes into the bytes: kind, step, shapes, normal, points, approach speed, impulses.
        var eventBytes: [UInt8] = []
        var events = 0
        func put(_ d: Double) { withUnsafeBytes(of: d.bitPattern.littleEndian) { eventBytes += $0 } }
        func log(_ kind: Double, _ a: Shape, _ b: Shape, _ n: Vec2, _ points: ContactPoints, _ speed: Double) {
            events += 1
            put(kind); put(Double(world.stepCount)); put(Double(a.id)); put(Double(b.id)); put(n.x); put(n.y); put(speed)
            for p in points { put(p.point.x); put(p.point.y); put(p.separation); put(p.normalImpulse); put(p.tangentImpulse) }
        }
        world.onBeginContact = { log(1, $0.shapeA, $0.shapeB, $0.normal, $0.points, $0.approachSpeed) }
        world.onEndContact = { log(2, $0.shapeA, $0.shapeB, $0.normal, $0.points, $0.approachSpeed) }
        world.onPostSolve = { log(3, $0.shapeA, $0.shapeB, $0.normal, $0.points, 0) }
        var k = 0
        for row in 0..<8 {
            for col in 0..<8 {
                let p = Vec2(-4.5 + Double(col) * 1.25 + (row % 2 == 0 ? 0 : 0.3), 1 + Double(row) * 1.25)
                let b = world.createBody(BodyDef(type: .dynamic, position: p, angle: Double(k) * 0.37))
                switch k % 3 {
                case 0: world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 0.4), restitution: 0.2))
                case 1: world.createShape(on: b, ShapeDef(.box(halfWidth: 0.4, halfHeight: 0.3)))
                default: world.createShape(on: b, ShapeDef(try! .polygon(vertices: [Vec2(-0.4, -0.3), Vec2(0.4, -0.3), Vec2(0, 0.45)])))
                }
                k += 1
            }
        }
        for _ in 0..<300 { world.step(dt) }
        var bytes: [UInt8] = []
        func putBody(_ d: Double) { withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes += $0 } }
        #expect(world.bodies.count == 65)
        for b in world.bodies {
            putBody(b.position.x); putBody(b.position.y); putBody(b.angle)
            putBody(b.linearVelocity.x); putBody(b.linearVelocity.y); putBody(b.angularVelocity)
        }
        putBody(Double(events))
        #expect(events > 1000)      // hundreds of begins and ends, and a post-solve per contact per step
        return bytes + eventBytes
    }

    @Test func twoRunsGiveIdenticalBytes() {
        let a = busyRun(), b = busyRun()
        #expect(a.count > 65 * 6 * 8 + 8)
        #expect(a == b)
    }
}
