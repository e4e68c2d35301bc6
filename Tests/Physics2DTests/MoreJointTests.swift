import Foundation
import Testing
@testable import Physics2D

/// Distance, prismatic, weld and mouse joints, and what all joints share (removal,
/// sleeping, collideConnected, determinism).
@Suite struct MoreJointTests {
    let dt = 1.0 / 60
    let g = 10.0

    func ball(_ world: World, at p: Vec2, radius: Double = 0.25) -> Body {
        let b = world.createBody(BodyDef(type: .dynamic, position: p))
        world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: radius), density: 1))
        return b
    }

    func box(_ world: World, at p: Vec2, halfWidth: Double = 0.5, halfHeight: Double = 0.5) -> Body {
        let b = world.createBody(BodyDef(type: .dynamic, position: p))
        world.createShape(on: b, ShapeDef(.box(halfWidth: halfWidth, halfHeight: halfHeight), density: 1, friction: 0.6))
        return b
    }

    // MARK: distance

    @Test(arguments: SolverKind.allCases) func distanceJointKeepsItsLengthUnderGravity(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let pivot = world.createBody(BodyDef(type: .static, position: Vec2(0, 10)))
        // A box hung off-centre, so the rod also has to turn it.
        let bob = box(world, at: Vec2(4, 10), halfWidth: 0.3, halfHeight: 0.2)
        let joint = world.createDistanceJoint(DistanceJointDef(bodyA: pivot, bodyB: bob,
                                                               anchorA: Vec2(0, 10), anchorB: Vec2(3.8, 10)))
        #expect(abs(joint.length - 3.8) < 1e-12)     // default: the distance at creation
        #expect(joint.minLength == joint.maxLength)  // rigid
        var worst = 0.0, lowest = 10.0
        for _ in 0..<600 {
            world.step(dt)
            worst = max(worst, abs(joint.currentDistance - 3.8) / 3.8)
            lowest = min(lowest, joint.anchorB.y)
        }
        #expect(worst < 0.005)
        #expect(lowest < 10 - 3.7)   // it swung down through the bottom
    }

    @Test func springOscillatesAtItsFrequency() {
        for f in [1.0, 2.0] {
            let world = World(gravity: .zero)
            let anchor = world.createBody(BodyDef(type: .static))
            let b = ball(world, at: Vec2(3, 0))
            var def = DistanceJointDef(bodyA: anchor, bodyB: b, anchorA: .zero, anchorB: Vec2(3, 0))
            def.length = 2            // starts stretched by 1 m
            def.frequency = f
            def.dampingRatio = 0
            world.createDistanceJoint(def)
            // Upward crossings of the rest length (linear interpolation between steps).
            var crossings: [Double] = []
            var previous = b.position.x - 2
            for n in 1...600 {
                world.step(dt)
                let x = b.position.x - 2
                if previous < 0 && x >= 0 { crossings.append(dt * (Double(n - 1) + previous / (previous - x))) }
                previous = x
            }
            #expect(crossings.count >= 4)
            let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
            #expect(abs(period * f - 1) < 0.03, "f = \(f) Hz: period \(period) s")
            // It stays on its line (nothing pushes it sideways).
            #expect(abs(b.position.y) < 1e-9)
        }
    }

    @Test(arguments: SolverKind.allCases) func dampedSpringSettlesAtItsRestLength(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let ceiling = world.createBody(BodyDef(type: .static, position: Vec2(0, 10)))
        let b = ball(world, at: Vec2(0, 8))
        var def = DistanceJointDef(bodyA: ceiling, bodyB: b, anchorA: Vec2(0, 10), anchorB: Vec2(0, 8))
        def.frequency = 2; def.dampingRatio = 1
        world.createDistanceJoint(def)
        for _ in 0..<600 { world.step(dt) }
        // Hooke: the spring stretches by m·g / k = g / ω² (k = m ω²).
        let omega = 2 * Double.pi * 2
        let stretch = g / (omega * omega)
        #expect(abs((10 - b.position.y) - (2 + stretch)) < 0.01 * stretch)
    }

    @Test(arguments: SolverKind.allCases) func ropeGoesSlackAndTaut(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let hook = world.createBody(BodyDef(type: .static, position: Vec2(0, 10)))
        let b = ball(world, at: Vec2(0, 8))
        var def = DistanceJointDef(bodyA: hook, bodyB: b, anchorA: Vec2(0, 10), anchorB: Vec2(0, 8))
        def.maxLength = 3
        let rope = world.createDistanceJoint(def)
        #expect(rope.minLength == 0 && rope.maxLength == 3)
        // Slack: free fall (semi-implicit Euler in steps of h, k of them: y = y0 − g·h²·k(k+1)/2;
        // h = dt, or dt / 4 with the soft step) until the rope is 3 m long.
        let h = dt / Double(integrations(world))
        var n = 0
        while true {
            world.step(dt)
            n += 1
            let k = n * integrations(world)
            let free = 8 - g * h * h * Double(k * (k + 1)) / 2
            if free < 7 { break }
            #expect(abs(b.position.y - free) < 1e-9)
        }
        // Taut: it hangs at 3 m and never stretches beyond 0.5 %.
        var longest = 0.0
        for _ in 0..<300 {
            world.step(dt)
            longest = max(longest, rope.currentDistance)
        }
        #expect(longest < 3 * 1.005)
        #expect(abs(rope.currentDistance - 3) < 0.01)
        #expect(abs(b.linearVelocity.y) < 0.05)
        // Thrown up: slack again, and in free flight (the rope does not pull while slack).
        b.linearVelocity = Vec2(0, 6)
        var shortest = 3.0
        for _ in 0..<30 {
            let v0 = b.linearVelocity.y
            world.step(dt)
            if rope.currentDistance < 2.9 { #expect(abs(b.linearVelocity.y - (v0 - g * dt)) < 1e-9) }
            shortest = min(shortest, rope.currentDistance)
        }
        #expect(shortest < 1.5)
    }

    // MARK: prismatic

    func slider(gravity: Vec2, limit: ClosedRange<Double>? = nil) -> (World, Body, PrismaticJoint) {
        let world = World(gravity: gravity)
        let base = world.createBody(BodyDef(type: .static, position: Vec2(0, 5)))
        let b = box(world, at: Vec2(0, 5), halfWidth: 0.5, halfHeight: 0.25)
        // The rail holds the box by a corner: off the centre of mass, so gravity along the rail
        // would turn it if the angular row did not hold it.
        var def = PrismaticJointDef(bodyA: base, bodyB: b, anchor: Vec2(0.5, 5.25), axis: Vec2(1, 1))
        if let limit {
            def.enableLimit = true
            def.lowerTranslation = limit.lowerBound
            def.upperTranslation = limit.upperBound
        }
        return (world, b, world.createPrismaticJoint(def))
    }

    @Test(arguments: SolverKind.allCases) func prismaticSlidesAlongItsAxisWithoutTurning(_ solver: SolverKind) {
        let (world, b, joint) = slider(gravity: Vec2(0, -g))
        world.solverKind = solver
        let axis = Vec2(1, 1).normalized
        var worstOff = 0.0, worstAngle = 0.0
        for _ in 0..<60 {
            world.step(dt)
            worstOff = max(worstOff, abs(cross(axis, joint.anchorB - Vec2(0.5, 5.25))))
            worstAngle = max(worstAngle, abs(b.angle))
        }
        #expect(worstOff < 1e-3)
        #expect(worstAngle < 1e-3)
        // Down a 45° frictionless rail: a = g·sin 45°; after k integrations of h (semi-implicit
        // Euler; h = dt, or dt / 4 with the soft step) the distance travelled is a·h²·k(k+1)/2.
        let a = g * 0.5.squareRoot()
        let h = dt / Double(integrations(world)), k = 60 * integrations(world)
        let expected = -a * h * h * Double(k * (k + 1)) / 2
        #expect(abs(joint.jointTranslation - expected) < 0.01 * abs(expected))
        #expect(abs(joint.jointSpeed + a * 1) < 0.01 * a)
    }

    @Test func prismaticLimitsStopIt() {
        let (world, b, joint) = slider(gravity: Vec2(0, -g), limit: -2...1)
        var lowest = 0.0
        for _ in 0..<300 {
            world.step(dt)
            lowest = min(lowest, joint.jointTranslation)
        }
        #expect(lowest > -2 - 0.05)
        #expect(abs(joint.jointTranslation + 2) < 0.01)
        #expect(abs(b.angle) < 1e-3)
        // Pushed the other way it stops at the upper limit.
        world.gravity = Vec2(0, g)
        b.isAwake = true                             // it fell asleep on the limit; gravity changes wake nothing
        var highest = -2.0
        for _ in 0..<300 {
            world.step(dt)
            highest = max(highest, joint.jointTranslation)
        }
        #expect(highest < 1 + 0.05)
        #expect(abs(joint.jointTranslation - 1) < 0.01)
    }

    @Test func prismaticMotorReachesItsSpeed() {
        let (world, b, joint) = slider(gravity: .zero)
        joint.enableMotor = true
        joint.motorSpeed = 2
        joint.maxMotorForce = 1000
        for _ in 0..<30 { world.step(dt) }
        #expect(abs(joint.jointSpeed - 2) < 1e-6)
        #expect(abs(b.linearVelocity.length - 2) < 1e-6)
        // A weak motor only accelerates: force / mass (the box is 1 × 0.5 m, density 1).
        joint.maxMotorForce = 0.1
        joint.motorSpeed = 100
        let s0 = joint.jointSpeed
        world.step(dt)
        #expect(abs(joint.jointSpeed - (s0 + dt * 0.1 / 0.5)) < 1e-9)
    }

    // MARK: weld

    @Test(arguments: SolverKind.allCases) func weldHoldsACantilever(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        world.allowSleep = false
        let wall = world.createBody(BodyDef(type: .static, position: Vec2(0, 5)))
        world.createShape(on: wall, ShapeDef(.box(halfWidth: 0.5, halfHeight: 2), density: 0))
        // Four 1 m × 0.2 m planks welded end to end, sticking out of the wall.
        var previous = wall
        var planks: [Body] = []
        for i in 0..<4 {
            let p = box(world, at: Vec2(1 + Double(i), 5), halfWidth: 0.5, halfHeight: 0.1)
            world.createWeldJoint(WeldJointDef(bodyA: previous, bodyB: p, anchor: Vec2(0.5 + Double(i), 5)))
            planks.append(p)
            previous = p
        }
        let tip = planks[3]
        var drops: [Double] = []
        for n in 1...600 {
            world.step(dt)
            if n % 30 == 0 { drops.append(5 - tip.worldPoint(Vec2(0.5, 0)).y) }
        }
        // Small: at most 2 % of the 4 m span while the iterative solver catches up with the
        // load (four light links in a row), then under 0.25 % and steady (creeping by less
        // than 2 mm per second, upwards: warm starting converges on the exact impulses).
        #expect(drops.allSatisfy { $0 < 0.08 })
        #expect(drops.last! < 0.01)
        #expect(drops[drops.count - 3] - drops.last! < 0.002)
        #expect(drops[drops.count - 3] >= drops.last!)
        #expect(abs(tip.angle) < 0.005)
        // The links stay glued end to end.
        for i in 1..<4 {
            let gap = planks[i - 1].worldPoint(Vec2(0.5, 0)) - planks[i].worldPoint(Vec2(-0.5, 0))
            #expect(gap.length < 0.005)
        }
    }

    @Test(arguments: SolverKind.allCases) func softWeldBendsLikeAnAngularSpring(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let wall = world.createBody(BodyDef(type: .static, position: Vec2(0, 5)))
        let bar = box(world, at: Vec2(1, 5), halfWidth: 1, halfHeight: 0.1)
        var def = WeldJointDef(bodyA: wall, bodyB: bar, anchor: Vec2(0, 5))
        def.frequency = 2; def.dampingRatio = 1
        let joint = world.createWeldJoint(def)
        for _ in 0..<600 { world.step(dt) }
        // Equilibrium of the angular spring k = I·ω² (I: the bar's inertia about its centre,
        // the angular row's effective mass) against gravity's torque about the weld:
        // k·θ = m·g·(L/2)·cos θ.
        let m = 2 * 0.2, inertia = m * (4 + 0.04) / 12
        let omega = 2 * Double.pi * 2
        let k = inertia * omega * omega
        var theta = 0.0
        for _ in 0..<50 { theta = m * g * 1 * cos(theta) / k }
        #expect(abs(-joint.jointAngle - theta) < 0.02 * theta, "bent \(-joint.jointAngle), expected \(theta)")
        // The glue point itself stays put.
        #expect((joint.anchorB - Vec2(0, 5)).length < 0.01)
    }

    // MARK: mouse

    @Test(arguments: SolverKind.allCases) func mouseJointPullsWithAtMostItsMaxForce(_ solver: SolverKind) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let b = box(world, at: .zero)            // 1 kg
        var def = MouseJointDef(body: b, target: .zero)
        def.maxForce = 10
        let drag = world.createMouseJoint(def)
        #expect(drag.bodyA === b && drag.bodyB === b && drag.body === b)
        drag.target = Vec2(5, 0)
        // Far from the target the spring asks for far more than 10 N: the force is capped, so
        // the body accelerates at exactly F/m (semi-implicit Euler in steps of h, k of them:
        // x = a·h²·k(k+1)/2; the soft step's joints run at its sub-step rate).
        var worstAcceleration = 0.0
        var previous = b.linearVelocity
        let h = dt / Double(integrations(world))
        for n in 1...240 {
            world.step(dt)
            worstAcceleration = max(worstAcceleration, (b.linearVelocity - previous).length / dt)
            previous = b.linearVelocity
            let k = n * integrations(world)
            if n <= 30 { #expect(abs(b.position.x - 10 * h * h * Double(k * (k + 1)) / 2) < 1e-9) }
        }
        #expect(worstAcceleration <= 10 * (1 + 1e-9))   // F / m, also while braking
        #expect(abs(b.position.y) < 1e-12)
    }

    @Test(arguments: SolverKind.allCases) func mouseJointDragsToTheTarget(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let b = box(world, at: .zero)            // 1 kg
        var def = MouseJointDef(body: b, target: Vec2(0.3, 0.2))   // grabbed off-centre
        def.maxForce = 1000 * b.mass
        let drag = world.createMouseJoint(def)
        // Dragged along a path like a finger, then held.
        for n in 1...120 {
            drag.target = Vec2(0.3 + 4 * Double(n) / 120, 0.2 + 2 * Double(n) / 120)
            world.step(dt)
        }
        // It kept up with the finger: a damped spring following a target moving at speed v
        // trails it by 2ζv/ω, and gravity stretches it by g/ω² (k = m·ω²): 1 cm at 5 Hz.
        let omega = 2 * Double.pi * 5
        let lag = 2 * 0.7 * (Vec2(4, 2).length / 2) / omega
        let sag = g / (omega * omega)
        #expect((drag.anchor - drag.target).length < lag + sag + 0.01)
        // Held: it swings under the grabbed point like a pendulum and settles there.
        for _ in 0..<900 { world.step(dt) }
        #expect((drag.anchor - Vec2(4.3, 2.2 - sag)).length < 0.002)
        #expect(abs(b.worldCenter.x - drag.anchor.x) < 0.02)
        #expect(b.worldCenter.y < drag.anchor.y)
        #expect(b.linearVelocity.length < 0.05)
    }

    @Test(arguments: SolverKind.allCases) func weakMouseJointCannotLiftTheBody(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let b = box(world, at: .zero)            // 1 kg: weight 10 N
        var def = MouseJointDef(body: b, target: .zero)
        def.maxForce = 5
        world.createMouseJoint(def)
        for _ in 0..<60 { world.step(dt) }
        // Net downward acceleration at least g − F/m = 5 m/s²: after 1 s, at least 2.5 m down
        // (less the semi-implicit Euler's half-step: 5·h·(n+1)/2·n·h = 2.54 m).
        #expect(b.position.y < -2.5)
    }

    @Test(arguments: SolverKind.allCases) func mouseTargetWakesTheBody(_ solver: SolverKind) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let b = box(world, at: .zero)
        var def = MouseJointDef(body: b, target: .zero)
        def.maxForce = 100
        let drag = world.createMouseJoint(def)
        for _ in 0..<120 { world.step(dt) }
        #expect(!b.isAwake)          // at the target and still: asleep with its joint
        drag.target = Vec2(1, 0)
        #expect(b.isAwake)
        for _ in 0..<120 { world.step(dt) }
        #expect((drag.anchor - Vec2(1, 0)).length < 0.01)
    }

    /// The finger-drag example of docs/physics.md, run: grab, move, release.
    @Test(arguments: SolverKind.allCases) func docsFingerDragExample(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let crate = box(world, at: Vec2(0, 0.5))
        var drag: MouseJoint?
        func touchBegan(at p: Vec2) {
            guard let body = world.shapes(at: p).compactMap({ $0.body }).first(where: { $0.type == .dynamic }) else { return }
            var def = MouseJointDef(body: body, target: p)
            def.maxForce = 1000 * body.mass
            def.frequency = 5
            def.dampingRatio = 0.7
            drag = world.createMouseJoint(def)
        }
        func touchMoved(to p: Vec2) { drag?.target = p }
        func touchEnded() {
            if let d = drag { world.removeJoint(d) }
            drag = nil
        }
        touchBegan(at: Vec2(5, 5))          // nothing there
        #expect(drag == nil)
        touchBegan(at: Vec2(0.1, 0.6))
        #expect(drag?.body === crate)
        for n in 1...60 {
            touchMoved(to: Vec2(0.1 + 2 * Double(n) / 60, 0.6 + 2 * Double(n) / 60))
            world.step(dt)
        }
        for _ in 0..<60 { world.step(dt) }
        #expect(crate.worldCenter.y > 1.5)    // lifted off the ground
        touchEnded()
        #expect(world.joints.isEmpty)
        for _ in 0..<120 { world.step(dt) }
        #expect(crate.worldCenter.y < 1)      // released: it fell back down
    }

    // MARK: all joints

    @Test(arguments: SolverKind.allCases) func removingABodyRemovesAllItsJoints(_ solver: SolverKind) {
        let world = World(gravity: Vec2(0, -g))
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        let a = box(world, at: Vec2(0, 2))
        let b = box(world, at: Vec2(3, 2))
        let distance = world.createDistanceJoint(DistanceJointDef(bodyA: ground, bodyB: a, anchorA: .zero, anchorB: Vec2(0, 2)))
        let prismatic = world.createPrismaticJoint(PrismaticJointDef(bodyA: a, bodyB: b, anchor: Vec2(3, 2), axis: Vec2(1, 0)))
        let weld = world.createWeldJoint(WeldJointDef(bodyA: ground, bodyB: b, anchor: Vec2(3, 2)))
        var md = MouseJointDef(body: a, target: Vec2(0, 2)); md.maxForce = 100
        let mouse = world.createMouseJoint(md)
        #expect(world.joints.count == 4)
        #expect(a.joints.count == 3)            // the mouse joint is listed once
        for _ in 0..<10 { world.step(dt) }
        world.removeBody(a)
        #expect(world.joints.count == 1 && world.joints[0] === weld)
        #expect(!distance.isActive && !prismatic.isActive && !mouse.isActive && weld.isActive)
        #expect(ground.joints.count == 1 && b.joints.count == 1)
        world.removeJoint(weld)
        #expect(world.joints.isEmpty && ground.joints.isEmpty && b.joints.isEmpty)
        world.removeJoint(weld)                 // twice: no effect
        for _ in 0..<10 { world.step(dt) }
        #expect(b.position.y < 2)               // free now: falling
    }

    @Test(arguments: SolverKind.allCases) func jointedPairSleepsTogetherAndWakesTogether(_ solver: SolverKind) {
        let (world, _) = worldWithGround()
        world.solverKind = solver
        let a = box(world, at: Vec2(0, 0.5))
        let b = box(world, at: Vec2(3, 0.5))
        world.createDistanceJoint(DistanceJointDef(bodyA: a, bodyB: b, anchorA: Vec2(0, 0.5), anchorB: Vec2(3, 0.5)))
        var asleepAt: [Int?] = [nil, nil]
        for n in 1...300 {
            world.step(dt)
            if asleepAt[0] == nil && !a.isAwake { asleepAt[0] = n }
            if asleepAt[1] == nil && !b.isAwake { asleepAt[1] = n }
        }
        #expect(asleepAt[0] != nil && asleepAt[0] == asleepAt[1])
        // An impulse on one wakes the other through the joint; the rod pulls it along.
        a.applyLinearImpulseToCenter(Vec2(-3, 0))
        world.step(dt)
        #expect(a.isAwake && b.isAwake)
        for _ in 0..<10 { world.step(dt) }
        #expect(b.position.x < 3 - 0.01)
    }

    @Test func jointToASleepingBodyWakesItForEveryKind() {
        for kind in 0..<4 {
            let (world, _) = worldWithGround()
            let sleeper = box(world, at: Vec2(0, 0.5))
            for _ in 0..<120 { world.step(dt) }
            #expect(!sleeper.isAwake)
            let other = ball(world, at: Vec2(3, 3))
            switch kind {
            case 0: world.createDistanceJoint(DistanceJointDef(bodyA: sleeper, bodyB: other, anchorA: Vec2(0, 1), anchorB: Vec2(3, 3)))
            case 1: world.createPrismaticJoint(PrismaticJointDef(bodyA: sleeper, bodyB: other, anchor: Vec2(3, 3), axis: Vec2(0, 1)))
            case 2: world.createWeldJoint(WeldJointDef(bodyA: sleeper, bodyB: other, anchor: Vec2(1, 1)))
            default:
                var md = MouseJointDef(body: sleeper, target: Vec2(0, 0.5)); md.maxForce = 100
                world.createMouseJoint(md)
            }
            #expect(sleeper.isAwake, "kind \(kind)")
            world.step(dt)
            #expect(sleeper.isAwake, "kind \(kind)")
        }
    }

    @Test func collideConnectedIsHonoured() {
        for collide in [false, true] {
            let world = World(gravity: .zero)
            let a = box(world, at: Vec2(0, 0))
            let b = box(world, at: Vec2(0.5, 0))      // overlapping a by half
            var def = DistanceJointDef(bodyA: a, bodyB: b, anchorA: Vec2(0, 0), anchorB: Vec2(0.5, 0))
            def.maxLength = 10                         // a rope: does not hold them at 0.5 m
            def.collideConnected = collide
            world.createDistanceJoint(def)
            for _ in 0..<60 { world.step(dt) }
            let gap = b.position.x - a.position.x
            if collide { #expect(gap > 0.95) } else { #expect(abs(gap - 0.5) < 1e-9) }
        }
    }

    /// A scene with every kind of joint gives the same bytes on every run.
    func jointRun() -> [UInt8] {
        let (world, ground) = worldWithGround()
        let a = box(world, at: Vec2(0, 3))
        let b = box(world, at: Vec2(2, 3))
        let c = ball(world, at: Vec2(4, 3))
        let d = box(world, at: Vec2(-3, 2), halfWidth: 0.3, halfHeight: 0.3)
        world.createRevoluteJoint(RevoluteJointDef(bodyA: ground, bodyB: a, anchor: Vec2(0, 4)))
        var dd = DistanceJointDef(bodyA: a, bodyB: b, anchorA: Vec2(0.5, 3), anchorB: Vec2(1.5, 3))
        dd.frequency = 3; dd.dampingRatio = 0.2
        world.createDistanceJoint(dd)
        world.createWeldJoint(WeldJointDef(bodyA: b, bodyB: c, anchor: Vec2(3, 3)))
        var pd = PrismaticJointDef(bodyA: ground, bodyB: d, anchor: Vec2(-3, 2), axis: Vec2(1, 0.2))
        pd.enableLimit = true; pd.lowerTranslation = -1; pd.upperTranslation = 1
        pd.enableMotor = true; pd.motorSpeed = 1; pd.maxMotorForce = 5
        world.createPrismaticJoint(pd)
        var md = MouseJointDef(body: c, target: Vec2(4, 3)); md.maxForce = 50
        let drag = world.createMouseJoint(md)
        var bytes: [UInt8] = []
        func put(_ x: Double) { withUnsafeBytes(of: x.bitPattern.littleEndian) { bytes += $0 } }
        for n in 0..<300 {
            drag.target = Vec2(4 + sin(Double(n) * 0.05), 3 + cos(Double(n) * 0.05))
            world.step(dt)
        }
        for body in world.bodies {
            put(body.position.x); put(body.position.y); put(body.angle)
            put(body.linearVelocity.x); put(body.linearVelocity.y); put(body.angularVelocity)
        }
        return bytes
    }

    @Test func jointsAreDeterministic() {
        let first = jointRun()
        #expect(first == jointRun())
        #expect(!first.isEmpty)
    }
}
