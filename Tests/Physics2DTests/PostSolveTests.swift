import Foundation
import Testing
@testable import Physics2D

/// Post-solve events (impulses per step) and the details of begin events (manifold, approach speed).
@Suite struct PostSolveTests {
    let dt = 1.0 / 60
    let g = 10.0

    /// Total normal impulse of the contacts of `body` in each step's post-solve events.
    final class ImpulseLog {
        var perStep: [Double] = []
        var current = 0.0
        var events: [PostSolveEvent] = []
    }

    @Test(arguments: SolverKind.allCases) func restingBoxReportsItsWeightTimesDtPerStep(_ solver: SolverKind) {
        let (world, ground) = worldWithGround()
        world.solverKind = solver
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 0.5 + 2 * PhysicsSettings.polygonRadius)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), density: 2))   // 2 kg
        world.allowSleep = false      // a sleeping contact is not solved, so it reports nothing
        let log = ImpulseLog()
        world.onPostSolve = { e in
            #expect(world.isLocked)
            log.events.append(e)
            log.current += e.totalNormalImpulse
        }
        for _ in 0..<120 {
            log.current = 0
            world.step(dt)
            log.perStep.append(log.current)
        }
        let weightImpulse = box.mass * g * dt
        #expect(abs(box.mass - 2) < 1e-12)
        // After the first half second the box rests: each step the ground pushes exactly m·g·dt.
        for j in log.perStep[30...] {
            #expect(abs(j - weightImpulse) <= 0.01 * weightImpulse, "\(j) vs \(weightImpulse)")
        }
        let last = log.events.last!
        #expect(last.bodyA === ground && last.bodyB === box)            // the ground's box came first
        #expect(abs(last.normal.x) < 1e-9 && abs(last.normal.y - 1) < 1e-9)   // from A (ground) to B (box)
        #expect(last.points.count == 2)
        #expect(last.points.allSatisfy { $0.normalImpulse > 0 })
        // No friction on a box at rest: nothing pushes it sideways. (The soft step keeps the
        // contact from the first step on, so static friction may hold a tension from the
        // landing, equal and opposite at the two corners: 2e-7 N·s against 0.17 N·s.)
        #expect(abs(last.points.reduce(0) { $0 + $1.tangentImpulse }) < 1e-9)
        #expect(last.points.allSatisfy { abs($0.tangentImpulse) < 1e-5 * $0.normalImpulse })
        #expect(last.points.allSatisfy { abs($0.point.y) < 0.02 && abs(abs($0.point.x) - 0.5) < 0.02 })
        #expect(abs(last.maxNormalImpulse - weightImpulse / 2) < 0.01 * weightImpulse)   // split between the corners
    }

    @Test(arguments: SolverKind.allCases) func boxOnASlopeReportsNormalAndFrictionImpulses(_ solver: SolverKind) {
        // At rest on a 20° slope (μ = 0.6 holds it): the ground pushes m·g·cos θ·dt along the
        // normal and friction holds m·g·sin θ·dt along the slope, every step.
        let slope = 20 * Double.pi / 180
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let ramp = world.createBody(BodyDef(type: .static, angle: slope))
        world.createShape(on: ramp, ShapeDef(.box(halfWidth: 20, halfHeight: 0.5)))
        let q = Rot(angle: slope)
        let box = world.createBody(BodyDef(type: .dynamic, position: q.apply(Vec2(0, 1 + 2 * PhysicsSettings.polygonRadius)), angle: slope))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        world.allowSleep = false
        var normal = 0.0, tangent = 0.0, n = Vec2.zero
        world.onPostSolve = { e in
            normal = e.totalNormalImpulse
            tangent = e.points.reduce(0) { $0 + $1.tangentImpulse }
            n = e.normal
        }
        for _ in 0..<90 { world.step(dt) }
        let m = box.mass
        #expect(abs(normal - m * g * cos(slope) * dt) <= 0.01 * m * g * cos(slope) * dt)
        #expect(abs(abs(tangent) - m * g * sin(slope) * dt) <= 0.01 * m * g * sin(slope) * dt)
        // The friction impulse on the box points up the slope: tangent is normal.rightPerp.
        let onBox = tangent * n.rightPerp
        #expect(dot(onBox, q.apply(Vec2(1, 0))) > 0)
        #expect(abs(dot(n, q.apply(Vec2(0, 1))) - 1) < 1e-9)
    }

    @Test(arguments: SolverKind.allCases) func droppedBallReportsItsMomentumAtLanding(_ solver: SolverKind) {
        // Restitution 0: the landing step stops the ball, so the peak impulse is its momentum,
        // m·sqrt(2gh) from the fall (plus the one step of gravity the same solve cancels).
        let h = 5.0
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, h + 0.5 + PhysicsSettings.polygonRadius)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        var peak = 0.0, peakStep = -1, step = 0
        var vBefore = 0.0, vAtPeak = 0.0
        world.onPostSolve = { e in
            if e.maxNormalImpulse > peak { peak = e.maxNormalImpulse; peakStep = step; vAtPeak = vBefore }
        }
        for k in 0..<120 {
            step = k
            vBefore = ball.linearVelocity.y
            world.step(dt)
        }
        let m = ball.mass
        #expect(abs(m - Double.pi / 4) < 1e-12)
        let expected = m * (2 * g * h).squareRoot()
        #expect(abs(peak - expected) <= 0.05 * expected, "\(peak) vs \(expected)")
        // Exactly: the impulse that brings the velocity of that step (−|v| − g·dt) to zero.
        #expect(abs(peak - m * (abs(vAtPeak) + g * dt)) <= 0.01 * peak)
        #expect(vAtPeak < -9)                            // it was the landing, not a later step
        #expect(peakStep > 0 && abs(ball.linearVelocity.y) < 0.05)
    }

    @Test func noPostSolveWorkWithoutAHandler() {
        // Begin events are delivered before the step's post-solve events, so a begin handler
        // sees the post-solve queue of its step: empty without a post-solve handler.
        func run(withHandler: Bool) -> (queued: [Int], bytes: [Double]) {
            let (world, _) = worldWithGround()
            let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(-3, 0.52)))
            world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
            let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(3, 2)))
            world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5), restitution: 0.3))
            world.allowSleep = false
            var queued: [Int] = []
            world.onBeginContact = { _ in queued.append(world.pendingPostSolve.count) }
            var delivered = 0
            if withHandler { world.onPostSolve = { _ in delivered += 1 } }
            for _ in 0..<120 { world.step(dt) }
            #expect(world.pendingPostSolve.isEmpty)
            #expect(withHandler ? delivered >= 120 : delivered == 0)
            let bytes = [box.position.x, box.position.y, box.angle, ball.position.x, ball.position.y, ball.angle,
                         ball.linearVelocity.y, ball.angularVelocity]
            return (queued, bytes)
        }
        let without = run(withHandler: false), with = run(withHandler: true)
        #expect(without.queued.count >= 2 && without.queued.allSatisfy { $0 == 0 })
        #expect(with.queued.count == without.queued.count && with.queued.contains { $0 > 0 })
        // The handler only observes: the simulation is bit-identical either way.
        #expect(with.bytes == without.bytes)
    }

    @Test(arguments: SolverKind.allCases) func removingABodyInsideThePostSolveHandlerIsSafe(_ solver: SolverKind) {
        let (world, ground) = worldWithGround()
        world.solverKind = solver
        var balls: [Body] = []
        for i in 0..<6 {
            let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(Double(i) * 2 - 5, 1 + Double(i))))
            world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 0.5)))
            balls.append(b)
        }
        var removed: [ObjectIdentifier] = [], ends = 0, eventsAfterRemoval = 0
        world.onEndContact = { _ in ends += 1 }
        world.onPostSolve = { e in
            #expect(world.isLocked)
            guard let a = e.bodyA, let b = e.bodyB else { Issue.record("a body left before its event"); return }
            let ball = a === ground ? b : a
            if removed.contains(ObjectIdentifier(ball)) {
                eventsAfterRemoval += 1
                #expect(ball.world === world)   // still there until the handlers of the step are done
                return
            }
            // Remove a ball on its first hard hit (more than a resting step's m·g·dt).
            if e.maxNormalImpulse > 2 * ball.mass * 10 * (1.0 / 60) {
                world.removeBody(ball)
                world.removeBody(ball)
                #expect(ball.world === world)   // deferred
                removed.append(ObjectIdentifier(ball))
            }
        }
        for _ in 0..<200 { world.step(dt) }
        #expect(removed.count == 6)
        #expect(ends == 6)                      // each removal ends its touching contact
        #expect(eventsAfterRemoval == 0)        // one contact per ball: nothing else reported for it
        #expect(balls.allSatisfy { $0.world == nil })
        #expect(world.bodies.count == 1 && world.contactCount == 0)
    }

    @Test(arguments: SolverKind.allCases) func subStepsReportEachSubStep(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 0.5 + 2 * PhysicsSettings.polygonRadius)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        world.allowSleep = false
        var impulses: [Double] = []
        world.onPostSolve = { impulses.append($0.totalNormalImpulse) }
        for _ in 0..<60 { world.step(dt, subSteps: 4) }
        // One event per sub-step once touching (the box starts exactly at skin distance, so the
        // very first sub-step may not see the contact yet).
        #expect(impulses.count >= 239 && impulses.count <= 240)
        let sub = box.mass * g * dt / 4
        for j in impulses[120...] { #expect(abs(j - sub) <= 0.01 * sub) }
    }

    // MARK: begin events

    @Test func beginEventCarriesNormalPointsAndApproachSpeed() {
        let h = 2.0
        let (world, ground) = worldWithGround()
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(1, h + 0.5 + PhysicsSettings.polygonRadius)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        var begins: [ContactEvent] = [], vBefore = 0.0, vAtBegin = 0.0
        world.onBeginContact = { begins.append($0); vAtBegin = vBefore }
        var ends: [ContactEvent] = []
        world.onEndContact = { ends.append($0) }
        for _ in 0..<60 {
            vBefore = ball.linearVelocity.y
            world.step(dt)
        }
        #expect(begins.count == 1)
        let e = begins[0]
        #expect(e.bodyA === ground && e.bodyB === ball && !e.isSensor)
        #expect(abs(e.normal.x) < 1e-12 && abs(e.normal.y - 1) < 1e-12)
        #expect(e.points.count == 1)
        let p = e.points[0]
        #expect(abs(p.point.x - 1) < 1e-9)
        #expect(p.separation <= 0 && p.separation > -0.2)    // touching, at most one step's travel deep
        #expect(abs(p.point.y - (PhysicsSettings.polygonRadius + p.separation / 2)) < 1e-9)
        #expect(p.normalImpulse == 0 && p.tangentImpulse == 0)
        // The speed it had when the touch was found (the start of that step)…
        #expect(abs(e.approachSpeed - abs(vAtBegin)) < 1e-9)
        // …which is the free-fall speed from h, within one step of gravity.
        #expect(abs(e.approachSpeed - (2 * g * h).squareRoot()) <= g * dt)
        // Pull it off the ground: the end event has no points.
        ball.setTransform(position: Vec2(1, 10), angle: 0)
        world.step(dt)
        #expect(ends.count == 1 && ends[0].points.isEmpty && ends[0].normal == .zero && ends[0].approachSpeed == 0)
    }

    @Test(arguments: SolverKind.allCases) func boxLandingFlatBeginsWithTwoPoints(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 1.5), linearVelocity: Vec2(2, 0)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        var begin: ContactEvent?
        var xAtBegin = 0.0, xBefore = 0.0
        world.onBeginContact = { begin = $0; xAtBegin = xBefore }
        for _ in 0..<60 {
            xBefore = box.position.x
            world.step(dt)
        }
        let e = try! #require(begin)
        #expect(e.points.count == 2)
        let xs = e.points.map(\.point.x).sorted()
        #expect(abs(xs[0] - (xAtBegin - 0.5)) < 1e-6 && abs(xs[1] - (xAtBegin + 0.5)) < 1e-6)
        #expect(e.points.allSatisfy { $0.separation <= 0 })
        // Sliding sideways at 2 m/s does not count: only the closing speed along the normal.
        let vy = (2 * g * (1.0 - 2 * PhysicsSettings.polygonRadius)).squareRoot()
        #expect(abs(e.approachSpeed - vy) <= g * dt)
    }

    @Test(arguments: SolverKind.allCases) func sensorBeginHasNoPoints(_ solver: SolverKind) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let zone = world.createBody(BodyDef(type: .static))
        world.createShape(on: zone, ShapeDef(.box(halfWidth: 1, halfHeight: 1), isSensor: true))
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(-3, 0), linearVelocity: Vec2(5, 0)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        var events: [ContactEvent] = []
        world.onBeginContact = { events.append($0) }
        var postSolves = 0
        world.onPostSolve = { _ in postSolves += 1 }
        for _ in 0..<60 { world.step(dt) }
        #expect(events.count == 1)
        #expect(events[0].isSensor && events[0].points.isEmpty && events[0].approachSpeed == 0)
        #expect(postSolves == 0)      // sensors are never solved
    }
}

extension PostSolveTests {
    @Test(arguments: SolverKind.allCases) func sleepingContactsReportNothingUntilWoken(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 0.52)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        var count = 0
        world.onPostSolve = { _ in count += 1 }
        for _ in 0..<120 { world.step(dt) }
        #expect(!box.isAwake)
        count = 0
        for _ in 0..<10 { world.step(dt) }
        #expect(count == 0)
        box.applyLinearImpulseToCenter(Vec2(0.1, 0))
        world.step(dt)
        #expect(count == 1)
    }
}
