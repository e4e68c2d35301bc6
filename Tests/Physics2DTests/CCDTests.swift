import Testing
@testable import Physics2D

/// Continuous collision: projectiles fired at thin static walls must stop in front of them.
@Suite struct CCDTests {
    enum Projectile: CaseIterable { case circle, box }
    enum Wall: CaseIterable { case segment, box, chain }

    /// A wall whose front face is the plane x = 10 (facing −x), 4 m high, in a world without gravity.
    static func world(wall: Wall, solver: SolverKind = .legacy) -> World {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        switch wall {
        case .segment:
            world.createShape(on: ground, ShapeDef(.segment(Vec2(10, -2), Vec2(10, 2))))
        case .box:
            world.createShape(on: ground, ShapeDef(.box(halfWidth: 0.05, halfHeight: 2, center: Vec2(10.05, 0))))
        case .chain:
            // Listed downwards: the collision side (right of the direction) is −x.
            _ = try! world.createChain(on: ground, ChainDef(vertices: [Vec2(10, 2), Vec2(10, 0), Vec2(10, -2)]))
        }
        return world
    }

    /// Fires a 0.1 m projectile at `speed` from x = 0.3 (aimed at height `y`); returns the largest x
    /// its centre reached during one second, and its final x.
    static func fire(_ projectile: Projectile, at wall: Wall, speed: Double, bullet: Bool,
                     continuous: Bool = true, y: Double = 0.3, solver: SolverKind = .legacy) -> (maxX: Double, finalX: Double) {
        let world = world(wall: wall, solver: solver)
        world.continuousCollision = continuous
        var def = BodyDef(type: .dynamic, position: Vec2(0.3, y), linearVelocity: Vec2(speed, 0))
        def.isBullet = bullet
        let body = world.createBody(def)
        switch projectile {
        case .circle: world.createShape(on: body, ShapeDef(.circle(center: .zero, radius: 0.05)))
        case .box: world.createShape(on: body, ShapeDef(.box(halfWidth: 0.05, halfHeight: 0.05)))
        }
        var maxX = body.position.x
        for _ in 0..<60 {
            world.step(1.0 / 60)
            maxX = max(maxX, body.position.x)
        }
        return (maxX, body.position.x)
    }

    @Test(arguments: Projectile.allCases, Wall.allCases)
    func bulletsStopAtThinWalls(projectile: Projectile, wall: Wall) {
        for speed in [300.0, 1000.0] {
            for bullet in [true, false] {
                for solver in SolverKind.allCases {
                let (maxX, finalX) = Self.fire(projectile, at: wall, speed: speed, bullet: bullet, solver: solver)
                // The centre never gets past the front face minus the half size (plus the skin overlap).
                #expect(maxX <= 10 - 0.05 + 0.02, "\(projectile) at \(wall), \(speed) m/s, bullet \(bullet): reached \(maxX)")
                #expect(finalX < 10, "\(projectile) at \(wall), \(speed) m/s, bullet \(bullet), \(solver): ended at \(finalX)")
                }
            }
        }
    }

    @Test(arguments: Projectile.allCases, Wall.allCases)
    func withoutContinuousCollisionTheShotTunnels(projectile: Projectile, wall: Wall) {
        // The same shot with the switch off goes through: the wall test above can fail.
        let (_, finalX) = Self.fire(projectile, at: wall, speed: 300, bullet: true, continuous: false)
        #expect(finalX > 10.1)
    }

    /// The static shapes the continuous pass sweeps against, in the world's tree of static
    /// shapes found where a query of the main tree finds them.
    static func staticLeaves(_ world: World, _ box: AABB) -> Set<Int32> {
        var found = Set<Int32>()
        world.staticTree.queryUnchanging(box) { leaf in found.insert(world.staticTree.data(leaf)) }
        return found
    }

    /// The tree of static shapes holds the static shapes, every one and only those (a chain's
    /// segments too), follows a static body that is moved, and forgets a removed one; a fast
    /// non-bullet box is stopped by a static wall moved into its way.
    @Test(arguments: SolverKind.allCases) func staticShapesHaveTheirOwnTree(_ solver: SolverKind) {
        let world = Self.world(wall: .chain, solver: solver)
        let wall = world.createBody(BodyDef(type: .static, position: Vec2(30, 0)))
        let plate = world.createShape(on: wall, ShapeDef(.box(halfWidth: 0.05, halfHeight: 2)))
        let mover = world.createBody(BodyDef(type: .kinematic, position: Vec2(0, 10)))
        world.createShape(on: mover, ShapeDef(.box(halfWidth: 1, halfHeight: 1)))
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, -10)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.5)))
        let everywhere = AABB(lower: Vec2(-1000, -1000), upper: Vec2(1000, 1000))
        let statics = world.bodies.filter { $0.type == .static }.flatMap(\.shapes).map(\.proxyId)
        #expect(statics.count == 3)  // two chain segments and the plate
        #expect(Self.staticLeaves(world, everywhere) == Set(statics))
        // Moved in front of the chain, to x = 5: found there, no longer at x = 30.
        wall.setTransform(position: Vec2(5, 0), angle: 0)
        #expect(Self.staticLeaves(world, AABB(lower: Vec2(4.9, -1), upper: Vec2(5.1, 1))) == [plate.proxyId])
        #expect(Self.staticLeaves(world, AABB(lower: Vec2(29, -1), upper: Vec2(31, 1))).isEmpty)
        // A fast box that is not a bullet stops at the moved wall's face (x = 4.95).
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0.3, 0.3), linearVelocity: Vec2(600, 0)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.05, halfHeight: 0.05)))
        var maxX = 0.0
        for _ in 0..<30 { world.step(1.0 / 60); maxX = max(maxX, box.position.x) }
        #expect(maxX <= 4.95 - 0.05 + 0.02, "reached \(maxX)")
        let plateProxy = plate.proxyId
        world.removeBody(wall)
        #expect(Self.staticLeaves(world, everywhere) == Set(statics.filter { $0 != plateProxy }))
    }

    @Test func shotAtAnInternalChainVertexStops() {
        for projectile in Projectile.allCases {
            let (maxX, _) = Self.fire(projectile, at: .chain, speed: 1000, bullet: true, y: 0)
            #expect(maxX <= 10 - 0.05 + 0.02)
        }
    }

    @Test func bulletStopsAtTheWallWithItsVelocityLeftToTheContact() {
        // After the impact the contact solver stops the projectile (restitution 0): it rests at the wall.
        let world = Self.world(wall: .box)
        var def = BodyDef(type: .dynamic, position: Vec2(0, 0.3), linearVelocity: Vec2(600, 0))
        def.isBullet = true
        let body = world.createBody(def)
        world.createShape(on: body, ShapeDef(.circle(center: .zero, radius: 0.05)))
        for _ in 0..<30 { world.step(1.0 / 60) }
        #expect(abs(body.linearVelocity.x) < 0.5)
        #expect(abs(body.position.x - (10 - 0.05)) < 0.03)
    }

    /// Fires a 0.05 m circle at 600 m/s at a free 0.1 m thick plank (no gravity); returns the
    /// bullet and the plank after one second.
    static func shootPlank(bullet: Bool, solver: SolverKind = .legacy) -> (Body, Body) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let plank = world.createBody(BodyDef(type: .dynamic, position: Vec2(10.05, 0)))
        world.createShape(on: plank, ShapeDef(.box(halfWidth: 0.05, halfHeight: 1), density: 1))
        // Aimed at the plank's centre of mass, so the hit does not turn it.
        var def = BodyDef(type: .dynamic, position: Vec2(0.3, 0), linearVelocity: Vec2(600, 0))
        def.isBullet = bullet
        let shot = world.createBody(def)
        world.createShape(on: shot, ShapeDef(.circle(center: .zero, radius: 0.05), density: 5))
        for _ in 0..<60 { world.step(1.0 / 60) }
        return (shot, plank)
    }

    @Test(arguments: SolverKind.allCases) func bulletHitsADynamicPlankAndPushesIt(_ solver: SolverKind) {
        // A bullet meets dynamic bodies too: it stays in front of the plank, and momentum is
        // conserved in the perfectly inelastic hit. The 2 m-per-step clamp turns 600 m/s into
        // 120 m/s before the hit, so both end at m·120 / (m + M).
        let (shot, plank) = Self.shootPlank(bullet: true, solver: solver)
        let m = shot.mass, big = plank.mass
        let common = m * 120 / (m + big)
        #expect(shot.position.x < plank.position.x)
        #expect(abs(plank.linearVelocity.x - common) < 0.01 * common)
        #expect(abs(shot.linearVelocity.x - common) < 0.01 * common)
        #expect(abs(m * shot.linearVelocity.x + big * plank.linearVelocity.x - m * 120) < 1e-6 * m * 120)
    }

    @Test func nonBulletPassesThroughADynamicPlank() {
        // Documented limit: without the bullet flag only static shapes are swept.
        let (shot, plank) = Self.shootPlank(bullet: false)
        #expect(shot.position.x > plank.position.x + 1)
    }

    @Test(arguments: SolverKind.allCases) func restitutionBouncesTheBulletBack(_ solver: SolverKind) {
        let world = World(gravity: .zero)
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        world.createShape(on: ground, ShapeDef(.box(halfWidth: 0.05, halfHeight: 2, center: Vec2(10.05, 0)), restitution: 1))
        var def = BodyDef(type: .dynamic, position: Vec2(0, 0.3), linearVelocity: Vec2(100, 0))
        def.isBullet = true
        let body = world.createBody(def)
        world.createShape(on: body, ShapeDef(.circle(center: .zero, radius: 0.05), restitution: 1))
        for _ in 0..<30 { world.step(1.0 / 60) }
        // Elastic: it comes back at the speed it arrived with.
        #expect(abs(body.linearVelocity.x + 100) < 1)
        #expect(body.position.x < 10)
    }

    @Test func oneSidedChainLetsFastBodiesThroughFromBehind() {
        // The chain's collision side is −x; a shot from +x passes, with or without CCD.
        for continuous in [true, false] {
            let world = Self.world(wall: .chain)
            world.continuousCollision = continuous
            var def = BodyDef(type: .dynamic, position: Vec2(20, 0.3), linearVelocity: Vec2(-300, 0))
            def.isBullet = true
            let body = world.createBody(def)
            world.createShape(on: body, ShapeDef(.circle(center: .zero, radius: 0.05)))
            for _ in 0..<30 { world.step(1.0 / 60) }
            #expect(body.position.x < 0)
        }
    }

    @Test func fallingFastOntoTheGroundDoesNotTunnel() {
        // A small box dropped from high up reaches 90 m/s (1.5 m per step) before it meets a
        // thin ground: swept because it moves farther than its size, no bullet flag needed.
        for solver in SolverKind.allCases {
        let world = World(gravity: Vec2(0, -10))
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        world.createShape(on: ground, ShapeDef(.box(halfWidth: 5, halfHeight: 0.05, center: Vec2(0, -0.05))))
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 400)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.1, halfHeight: 0.1)))
        var minY = box.position.y
        for _ in 0..<600 {
            world.step(1.0 / 60)
            minY = min(minY, box.position.y)
        }
        #expect(minY > 0.1 - 0.03, "\(solver)")
        #expect(abs(box.position.y - 0.1) < 0.03, "\(solver)")
        }
    }

    @Test func fastSlidingAlongTheGroundIsNotHeldBack() {
        // A 0.4 m box sliding at 30 m/s (0.5 m per step, more than its size: swept every step)
        // on frictionless ground, a chain of 0.25 m edges or one box: the sweeps must find no
        // impact with the ground it slides on or the next edges, so x(t) = x0 + 30 t.
        for chain in [true, false] {
            let world = World(gravity: Vec2(0, -10))
            let ground = world.createBody(BodyDef(type: .static))
            if chain {
                _ = try! world.createChain(on: ground, ChainDef(vertices: (0...400).map { Vec2(80 - 0.25 * Double($0), 0) }, friction: 0))
            } else {
                world.createShape(on: ground, ShapeDef(.box(halfWidth: 40, halfHeight: 0.5, center: Vec2(40, -0.5)), friction: 0))
            }
            let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(1, 0.2 + 0.015), linearVelocity: Vec2(30, 0)))
            world.createShape(on: box, ShapeDef(.box(halfWidth: 0.2, halfHeight: 0.2), friction: 0))
            for _ in 0..<120 { world.step(1.0 / 60) }
            #expect(abs(box.position.x - (1 + 30 * 2)) < 0.05, "chain \(chain): x \(box.position.x)")
            #expect(abs(box.linearVelocity.x - 30) < 1e-6)
            #expect(world.impactCount == 0)
        }
    }

    @Test func restingBodiesAreNotSwept() {
        // Nothing in a resting pyramid moves more than its size: the continuous pass finds no
        // fast body, and the result is the same bytes with the switch on or off.
        func run(_ continuous: Bool) -> [Double] {
            let (world, _) = worldWithGround()
            world.continuousCollision = continuous
            let boxes = addPyramid(world, rows: 6)
            for _ in 0..<120 {
                world.step(1.0 / 60)
                #expect(world.sweeps.isEmpty)
            }
            return boxes.flatMap { [$0.position.x, $0.position.y, $0.angle] }
        }
        #expect(run(true) == run(false))
    }

    @Test func deterministicWithBulletsAndChains() {
        func run() -> [UInt64] {
            let world = World(gravity: Vec2(0, -10))
            let ground = world.createBody(BodyDef(type: .static))
            var pts: [Vec2] = []
            for i in 0...80 { let x = 20 - 0.5 * Double(i); pts.append(Vec2(x, 0.3 * _sin(x))) }
            _ = try! world.createChain(on: ground, ChainDef(vertices: pts))
            world.createShape(on: ground, ShapeDef(.box(halfWidth: 0.05, halfHeight: 3, center: Vec2(15, 3))))
            var bodies: [Body] = []
            for i in 0..<12 {
                var def = BodyDef(type: .dynamic, position: Vec2(-10 + Double(i), 3 + 0.2 * Double(i)),
                                  linearVelocity: Vec2(Double(40 * i), -5))
                def.isBullet = i % 2 == 0
                let b = world.createBody(def)
                world.createShape(on: b, ShapeDef(i % 3 == 0 ? .circle(center: .zero, radius: 0.1) : .box(halfWidth: 0.1, halfHeight: 0.08)))
                bodies.append(b)
            }
            for _ in 0..<240 { world.step(1.0 / 60) }
            return bodies.flatMap { [$0.position.x.bitPattern, $0.position.y.bitPattern, $0.angle.bitPattern] }
        }
        #expect(run() == run())
    }
}
