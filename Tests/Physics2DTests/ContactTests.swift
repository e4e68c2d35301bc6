import Foundation
import Testing
@testable import Physics2D

/// Collision response: restitution, friction, stacking, every shape pair.
@Suite struct ContactTests {
    let dt = 1.0 / 60

    /// Drops a ball from `height` (bottom of the ball above the ground) and returns the peak after the first bounce.
    func bouncePeak(restitution: Double, height: Double) -> (peak: Double, ball: Body) {
        let (world, _) = worldWithGround(restitution: restitution)
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, height + 0.5)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5), restitution: restitution))
        var bounced = false, peak = -Double.infinity
        for _ in 0..<240 {
            world.step(dt)
            if ball.linearVelocity.y > 0 { bounced = true }
            if bounced { peak = max(peak, ball.position.y - 0.5) }
        }
        return (peak, ball)
    }

    @Test func restitutionZeroDoesNotBounce() {
        let (peak, ball) = bouncePeak(restitution: 0, height: 3)
        // At most the position solver's push-out, never a bounce.
        #expect(peak < 0.02)
        #expect(abs(ball.linearVelocity.y) < 0.05)
        #expect(abs(ball.position.y - 0.5) < 0.02)
    }

    @Test func restitutionOneBouncesBackToTheDropHeight() {
        let (peak, _) = bouncePeak(restitution: 1, height: 3)
        // Energy is kept up to the time-step error of where the impact happens.
        #expect(abs(peak - 3) < 0.1 * 3)
    }

    /// A box on a slope turned by `slope` radians; returns how far it travelled along the slope in 2 s.
    func slide(slope: Double, friction: Double) -> Double {
        let world = World(gravity: Vec2(0, -10))
        let ramp = world.createBody(BodyDef(type: .static, angle: slope))
        world.createShape(on: ramp, ShapeDef(.box(halfWidth: 20, halfHeight: 0.5), friction: friction))
        let q = Rot(angle: slope)
        let start = q.apply(Vec2(0, 1.0 + PhysicsSettings.polygonRadius * 2))
        let box = world.createBody(BodyDef(type: .dynamic, position: start, angle: slope))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), friction: friction))
        for _ in 0..<120 { world.step(dt) }
        return (box.position - start).length
    }

    @Test func frictionHoldsBelowTheFrictionAngle() {
        // μ = 0.6: the friction angle is atan(0.6) ≈ 31°.
        #expect(slide(slope: 20 * Double.pi / 180, friction: 0.6) < 0.01)
        #expect(slide(slope: 28 * Double.pi / 180, friction: 0.6) < 0.01)
    }

    @Test func boxSlidesAboveTheFrictionAngle() {
        let d = slide(slope: 40 * Double.pi / 180, friction: 0.6)
        // a = g(sin θ − μ cos θ) ≈ 1.83 m/s² → about 3.7 m in 2 s.
        let a = 10 * (sin(40 * Double.pi / 180) - 0.6 * cos(40 * Double.pi / 180))
        #expect(abs(d - 0.5 * a * 4) < 0.25)
    }

    // The 20-row pyramid: AcceptanceTests.pyramidOfTwentyRowsStandsBySceneFigures (SCENES.md's figure, 1000 steps).

    /// Drops a dynamic shape onto a static shape and returns the resting height of the dynamic body.
    func restHeight(ground: Geometry, falling: Geometry, startY: Double = 2) -> (Double, Body) {
        let world = World(gravity: Vec2(0, -10))
        let g = world.createBody(BodyDef(type: .static))
        world.createShape(on: g, ShapeDef(ground))
        let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, startY)))
        world.createShape(on: b, ShapeDef(falling))
        for _ in 0..<180 { world.step(dt) }
        return (b.position.y, b)
    }

    @Test func everyShapePairComesToRest() {
        let skin = PhysicsSettings.polygonRadius, slop = PhysicsSettings.linearSlop
        let circle = Geometry.circle(center: .zero, radius: 0.5)
        let box = Geometry.box(halfWidth: 0.5, halfHeight: 0.5)
        let groundBox = Geometry.box(halfWidth: 5, halfHeight: 0.5, center: Vec2(0, -0.5))
        let segment = Geometry.segment(Vec2(-5, 0), Vec2(5, 0))
        let groundCircle = Geometry.circle(center: Vec2(0, -5), radius: 5)
        let cases: [(Geometry, Geometry, Double)] = [
            (groundCircle, circle, 0.5),            // circle–circle
            (groundBox, circle, 0.5 + skin),       // polygon–circle
            (groundBox, box, 0.5 + 2 * skin),      // polygon–polygon
            (segment, circle, 0.5 + skin),         // segment–circle
            (segment, box, 0.5 + 2 * skin),        // segment–polygon
        ]
        for (ground, falling, expected) in cases {
            let (y, body) = restHeight(ground: ground, falling: falling)
            // Resting within the allowed penetration (linear slop) of touching.
            #expect(abs(y - expected) < 2 * slop, "\(ground) vs \(falling): \(y) vs \(expected)")
            #expect(body.linearVelocity.length < 0.05)
        }
    }

    @Test func polygonCollidesAtItsCorner() {
        // A box turned by 45° lands on its corner and tips over onto a face.
        let (world, _) = worldWithGround()
        let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 2), angle: Double.pi / 4 + 0.05))
        world.createShape(on: b, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        for _ in 0..<300 { world.step(dt) }
        #expect(abs(b.position.y - (0.5 + 2 * PhysicsSettings.polygonRadius)) < 0.02)
        let a = b.angle.truncatingRemainder(dividingBy: Double.pi / 2)
        #expect(min(abs(a), abs(abs(a) - Double.pi / 2)) < 0.02)
    }

    @Test(arguments: SolverKind.allCases) func filtersKeepShapesApart(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let noFloor = Filter(categoryBits: 2, maskBits: ~1)    // ignores category 1 (the ground)
        let ghost = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 1)))
        world.createShape(on: ghost, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), filter: noFloor))
        let a = world.createBody(BodyDef(type: .dynamic, position: Vec2(3, 0.51)))
        world.createShape(on: a, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), filter: Filter(groupIndex: -1)))
        let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(3, 1.52)))
        world.createShape(on: b, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), filter: Filter(groupIndex: -1)))
        for _ in 0..<60 { world.step(dt) }
        #expect(ghost.position.y < -3)                        // fell through the ground
        #expect(abs(a.position.y - 0.52) < 0.02)              // rests on the ground
        #expect(b.position.y < a.position.y + 0.2)            // fell into a (same negative group)
        #expect(Filter.shouldCollide(Filter(groupIndex: 3), Filter(categoryBits: 0, maskBits: 0, groupIndex: 3)))
    }

    @Test(arguments: SolverKind.allCases) func sensorsDoNotPush(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let zone = world.createBody(BodyDef(type: .static, position: Vec2(0, 2)))
        world.createShape(on: zone, ShapeDef(.box(halfWidth: 1, halfHeight: 1), isSensor: true))
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 5)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.25)))
        for _ in 0..<120 { world.step(dt) }
        #expect(abs(ball.position.y - (0.25 + PhysicsSettings.polygonRadius)) < 0.02)
    }
}
