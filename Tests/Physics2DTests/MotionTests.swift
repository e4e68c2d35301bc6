import Foundation
import Testing
@testable import Physics2D

/// Motion against closed forms, mass properties, body kinds.
@Suite struct MotionTests {
    let dt = 1.0 / 60

    @Test(arguments: SolverKind.allCases) func freeFallMatchesClosedForm(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -10))
        world.solverKind = solver
        let body = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 100)))
        world.createShape(on: body, ShapeDef(.circle(center: .zero, radius: 0.5)))
        let n = 120
        for _ in 0..<n { world.step(dt) }
        let t = Double(n) * dt
        // Semi-implicit Euler in steps of h (dt, or dt / 4 with the soft step's sub-steps):
        // after k of them v = g·k·h, y = y0 + g·h²·k(k+1)/2.
        let h = dt / Double(integrations(world)), k = n * integrations(world)
        let discreteY = 100 - 10 * h * h * Double(k * (k + 1)) / 2
        #expect(abs(body.position.y - discreteY) < 1e-9)
        #expect(abs(body.linearVelocity.y - (-10 * t)) < 1e-9)
        // Within the integrator's first-order error (g·dt·t/2) of y0 − g t²/2.
        let exactY = 100 - 0.5 * 10 * t * t
        #expect(abs(body.position.y - exactY) <= 0.5 * 10 * dt * t + 1e-9)
        #expect(body.position.x == 0)
    }

    @Test(arguments: SolverKind.allCases) func projectileMatchesClosedForm(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -9.81))
        world.solverKind = solver
        let body = world.createBody(BodyDef(type: .dynamic, linearVelocity: Vec2(3, 12)))
        world.createShape(on: body, ShapeDef(.box(halfWidth: 0.1, halfHeight: 0.1)))
        let n = 90
        for _ in 0..<n { world.step(dt) }
        let t = Double(n) * dt
        #expect(abs(body.position.x - 3 * t) < 1e-9)
        let h = dt / Double(integrations(world)), k = n * integrations(world)
        let discreteY = 12 * t - 9.81 * h * h * Double(k * (k + 1)) / 2
        #expect(abs(body.position.y - discreteY) < 1e-9)
        #expect(abs(body.position.y - (12 * t - 0.5 * 9.81 * t * t)) <= 0.5 * 9.81 * dt * t + 1e-9)
        #expect(abs(body.angle) < 1e-12)
    }

    @Test(arguments: SolverKind.allCases) func gravityScaleAndDamping(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -10))
        world.solverKind = solver
        let floating = world.createBody(BodyDef(type: .dynamic, gravityScale: 0))
        world.createShape(on: floating, ShapeDef(.circle(center: .zero, radius: 0.5)))
        let damped = world.createBody(BodyDef(type: .dynamic, position: Vec2(10, 0), linearVelocity: Vec2(5, 0),
                                              linearDamping: 1, gravityScale: 0))
        world.createShape(on: damped, ShapeDef(.circle(center: .zero, radius: 0.5)))
        for _ in 0..<60 { world.step(dt) }
        #expect(floating.position == .zero)
        // v ← v / (1 + h·c) each integration (h = dt, or dt / 4 with the soft step).
        let h = dt / Double(integrations(world))
        let expected = 5 * pow(1 / (1 + h), Double(60 * integrations(world)))
        #expect(abs(damped.linearVelocity.x - expected) < 1e-12)
    }

    @Test(arguments: SolverKind.allCases) func massFromShapes(_ solver: SolverKind) {
        let world = World()
        world.solverKind = solver
        let box = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 1, halfHeight: 0.5), density: 2))
        #expect(abs(box.mass - 4) < 1e-12)                       // 2 m × 1 m × 2 kg/m²
        #expect(abs(box.inertia - 4 * (4 + 1) / 12) < 1e-12)     // m(w² + h²)/12
        let disc = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: disc, ShapeDef(.circle(center: Vec2(1, 0), radius: 1), density: 1))
        #expect(abs(disc.mass - Double.pi) < 1e-12)
        #expect(abs(disc.localCenterOfMass.x - 1) < 1e-12)
        #expect(abs(disc.inertia - Double.pi / 2) < 1e-12)       // about the centre of mass
        // Two shapes: the centre of mass sits between them.
        let dumbbell = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: dumbbell, ShapeDef(.circle(center: Vec2(-1, 0), radius: 0.5)))
        world.createShape(on: dumbbell, ShapeDef(.circle(center: Vec2(3, 0), radius: 0.5)))
        #expect(abs(dumbbell.localCenterOfMass.x - 1) < 1e-12)
        // A triangle: area ½·base·height, centroid at the vertex mean.
        let tri = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: tri, ShapeDef(try! .polygon(vertices: [Vec2(0, 0), Vec2(3, 0), Vec2(0, 3)])))
        #expect(abs(tri.mass - 4.5) < 1e-12)
        #expect(abs(tri.localCenterOfMass.x - 1) < 1e-12 && abs(tri.localCenterOfMass.y - 1) < 1e-12)
    }

    @Test(arguments: SolverKind.allCases) func zeroMassDynamicBodyGetsOneKilogram(_ solver: SolverKind) {
        let world = World()
        world.solverKind = solver
        let a = world.createBody(BodyDef(type: .dynamic))
        #expect(a.mass == 1 && a.invMass == 1)
        world.createShape(on: a, ShapeDef(.circle(center: .zero, radius: 1), density: 0))
        #expect(a.mass == 1)
        let s = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: s, ShapeDef(.segment(Vec2(0, 0), Vec2(1, 0))))
        #expect(s.mass == 1)
        let st = world.createBody(BodyDef(type: .static))
        world.createShape(on: st, ShapeDef(.box(halfWidth: 1, halfHeight: 1)))
        #expect(st.mass == 0 && st.invMass == 0)
    }

    @Test(arguments: SolverKind.allCases) func forcesTorquesAndImpulses(_ solver: SolverKind) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let b = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: b, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))   // 1 kg, I = 1/6
        b.applyLinearImpulseToCenter(Vec2(2, 0))
        #expect(b.linearVelocity == Vec2(2, 0))
        b.applyForceToCenter(Vec2(0, 60))
        world.step(dt)
        #expect(abs(b.linearVelocity.y - 1) < 1e-12)       // F·dt/m
        world.step(dt)
        #expect(abs(b.linearVelocity.y - 1) < 1e-12)       // forces last one step
        b.applyTorque(1)
        world.step(dt)
        #expect(abs(b.angularVelocity - 6 * dt) < 1e-12)    // τ·dt/I
        b.applyLinearImpulse(Vec2(0, 1), at: b.worldCenter + Vec2(0.5, 0))
        #expect(abs(b.angularVelocity - (6 * dt + 3)) < 1e-9)
    }

    @Test(arguments: SolverKind.allCases) func kinematicAndFixedRotation(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -10))
        world.solverKind = solver
        let k = world.createBody(BodyDef(type: .kinematic, linearVelocity: Vec2(1, 0), angularVelocity: 0.5))
        world.createShape(on: k, ShapeDef(.box(halfWidth: 2, halfHeight: 0.2)))
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 0.7), fixedRotation: true))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        #expect(box.inertia == 0)
        box.applyAngularImpulse(10)
        #expect(box.angularVelocity == 0)
        for _ in 0..<60 { world.step(dt) }
        #expect(abs(k.position.x - 1) < 1e-9)
        #expect(abs(k.angle - 0.5) < 1e-9)
        #expect(k.linearVelocity == Vec2(1, 0))
        #expect(box.angle == 0)
    }
}
