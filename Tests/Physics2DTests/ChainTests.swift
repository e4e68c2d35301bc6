import Testing
@testable import Physics2D

/// Chains: one-sided segments with ghost vertices; bodies slide across their vertices smoothly.
@Suite struct ChainTests {
    /// A flat ground chain at y = 0 from x = 30 to x = −30 (listed right to left, so the
    /// collision side is up), made of edges `edge` metres long.
    static func flatGround(_ world: World, edge: Double = 0.25, friction: Double = 0.6) -> Chain {
        let ground = world.createBody(BodyDef(type: .static))
        let n = Int((60 / edge).rounded())
        let vertices = (0...n).map { Vec2(30 - Double($0) * edge, 0) }
        return try! world.createChain(on: ground, ChainDef(vertices: vertices, friction: friction))
    }

    @Test(arguments: SolverKind.allCases) func createsOneSegmentPerEdge(_ solver: SolverKind) throws {
        let world = World()
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        let open = try world.createChain(on: ground, ChainDef(vertices: [Vec2(0, 0), Vec2(1, 0), Vec2(2, 1)]))
        #expect(open.shapes.count == 2)
        #expect(open.shapes[1].geometry == .segment(Vec2(1, 0), Vec2(2, 1)))
        let loop = try world.createChain(on: ground, ChainDef(vertices: [Vec2(0, 0), Vec2(1, 0), Vec2(1, 1)], isLoop: true))
        #expect(loop.shapes.count == 3)
        #expect(loop.shapes[2].geometry == .segment(Vec2(1, 1), Vec2(0, 0)))
        #expect(loop.shapes.allSatisfy { $0.isChainSegment && $0.chain === loop && !$0.isSensor })
        #expect(ground.chains.count == 2 && ground.shapes.count == 5)
        #expect(throws: GeometryError.tooFewChainVertices(1)) {
            try world.createChain(on: ground, ChainDef(vertices: [Vec2(0, 0)]))
        }
        #expect(throws: GeometryError.tooFewChainVertices(2)) {
            try world.createChain(on: ground, ChainDef(vertices: [Vec2(0, 0), Vec2(1, 0)], isLoop: true))
        }
        #expect(throws: GeometryError.degenerate) {
            try world.createChain(on: ground, ChainDef(vertices: [Vec2(0, 0), Vec2(0, 0), Vec2(1, 0)]))
        }
    }

    @Test(arguments: SolverKind.allCases) func chainsHaveNoMass(_ solver: SolverKind) throws {
        let world = World()
        world.solverKind = solver
        let body = world.createBody(BodyDef(type: .dynamic))
        world.createShape(on: body, ShapeDef(.circle(center: .zero, radius: 0.5), density: 2))
        let massBefore = body.mass
        try world.createChain(on: body, ChainDef(vertices: [Vec2(-3, 0), Vec2(0, 1), Vec2(3, 0)]))
        #expect(body.mass == massBefore)
    }

    /// Slides a body at 6 m/s along a flat chain of 0.25 m edges; returns per-step (vx, vy, y).
    static func slide(_ geometry: Geometry, friction: Double, steps: Int, edge: Double = 0.25) -> [(Double, Double, Double)] {
        let world = World(gravity: Vec2(0, -10))
        _ = flatGround(world, edge: edge, friction: friction)
        // Resting height of the centre: the radius, or the box's half height plus the two skins.
        let rest: Double
        switch geometry {
        case .circle(_, let r): rest = r
        case .polygon(let p): rest = -p.vertices.map(\.y).min()! + 2 * PhysicsSettings.polygonRadius - PhysicsSettings.linearSlop
        case .segment: rest = 0
        }
        let body = world.createBody(BodyDef(type: .dynamic, position: Vec2(-10, rest),
                                            linearVelocity: Vec2(6, 0), fixedRotation: true))
        world.createShape(on: body, ShapeDef(geometry, density: 1, friction: friction))
        var out: [(Double, Double, Double)] = []
        for _ in 0..<steps {
            world.step(1.0 / 60)
            out.append((body.linearVelocity.x, body.linearVelocity.y, body.position.y))
        }
        return out
    }

    @Test(arguments: [Geometry.box(halfWidth: 0.5, halfHeight: 0.5), .box(halfWidth: 0.3, halfHeight: 0.2),
                      .circle(center: .zero, radius: 0.3)])
    func slidesWithoutFrictionAtConstantSpeed(_ geometry: Geometry) {
        let track = Self.slide(geometry, friction: 0, steps: 180)
        for (k, (vx, vy, _)) in track.enumerated() {
            #expect(abs(vx - 6) < 1e-3, "step \(k): vx \(vx)")
            #expect(abs(vy) < 0.02, "step \(k): vy \(vy)")
        }
    }

    @Test(arguments: [Geometry.box(halfWidth: 0.5, halfHeight: 0.5), .box(halfWidth: 0.3, halfHeight: 0.2)])
    func slidesWithFrictionAsCoulombSays(_ geometry: Geometry) {
        // μ = 0.3 on both (mixed sqrt(0.3·0.3) = 0.3): v(t) = 6 − μ g t until it stops at t = 2 s.
        let dt = 1.0 / 60
        let track = Self.slide(geometry, friction: 0.3, steps: 150, edge: 0.2)
        for (k, (vx, vy, _)) in track.enumerated() {
            let expected = max(0, 6 - 0.3 * 10 * Double(k + 1) * dt)
            #expect(abs(vx - expected) < 0.06, "step \(k): vx \(vx), expected \(expected)")
            #expect(abs(vy) < 0.02, "step \(k): vy \(vy)")
        }
    }

    @Test(arguments: SolverKind.allCases) func ballInALoopStaysInside(_ solver: SolverKind) throws {
        // A clockwise loop of radius 5 (collision side inside) and a ball rolling fast enough to
        // loop the loop; it never leaves the circle and does get to the top. (On the soft step
        // the ball falling off the top hit the wall at 12 m/s with its gap past the speculative
        // distance and sank 10 cm in: it is swept from half its radius per step, as in v3.)
        let world = World(gravity: Vec2(0, -10))
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        let n = 128
        let vertices = (0..<n).map { i -> Vec2 in
            let a = -2 * Double.pi * Double(i) / Double(n)
            return Vec2(5 * _cos(a), 5 * _sin(a))
        }
        try world.createChain(on: ground, ChainDef(vertices: vertices, isLoop: true))
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, -4.75), linearVelocity: Vec2(22, 0)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.25), friction: 0.6))
        var top = -5.0, farthest = 0.0
        // The edges' midpoints are 5·cos(π/n) from the centre.
        let inner = 5 * _cos(Double.pi / Double(n)) - 0.25
        for _ in 0..<600 {
            world.step(1.0 / 60)
            farthest = max(farthest, ball.position.length)
            top = max(top, ball.position.y)
        }
        // Never through the wall: the centre stays inside the chain, and the ball never sinks
        // into it by more than one step's discrete overlap (22 m/s is 0.37 m per step, along
        // chords turned 2.8° from each other; the circle's radius is 0.25 m).
        #expect(farthest < inner + 0.06)
        #expect(top > 4)
    }

    @Test func counterClockwiseLoopKeepsBodiesOutside() throws {
        // The same loop counter-clockwise is a solid disc: a ball dropped on it rests on top.
        let world = World(gravity: Vec2(0, -10))
        let ground = world.createBody(BodyDef(type: .static))
        let vertices = (0..<32).map { i -> Vec2 in
            let a = 2 * Double.pi * Double(i) / 32
            return Vec2(2 * _cos(a), 2 * _sin(a))
        }
        try world.createChain(on: ground, ChainDef(vertices: vertices, isLoop: true))
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 4)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.25)))
        for _ in 0..<120 { world.step(1.0 / 60) }
        #expect(abs(ball.position.y - 2.25) < 0.03)
    }

    @Test func oneSided() {
        // A ball moving up from under the ground chain passes through it, then lands on it.
        let world = World(gravity: Vec2(0, -10))
        _ = Self.flatGround(world)
        let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0.1, -1), linearVelocity: Vec2(0, 10)))
        world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.2)))
        var top = -1.0
        for _ in 0..<180 {
            world.step(1.0 / 60)
            top = max(top, ball.position.y)
        }
        #expect(top > 1)
        #expect(abs(ball.position.y - 0.2) < 0.02)
    }

    @Test func boxRestsAcrossAConvexCorner() throws {
        // A hill top (chain turning down both ways, listed right to left): a box set on the apex
        // rests on the corner and tips to one side, never sinking below the surface.
        let world = World(gravity: Vec2(0, -10))
        let ground = world.createBody(BodyDef(type: .static))
        try world.createChain(on: ground, ChainDef(vertices: [Vec2(10, -1), Vec2(0, 0), Vec2(-10, -1)]))
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(0.05, 0.6)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5)))
        for _ in 0..<240 {
            world.step(1.0 / 60)
            // Surface height under the box's centre: 1 − |x|/10 below the apex.
            let surface = -abs(box.position.x) / 10
            #expect(box.position.y > surface + 0.3)
        }
    }

    /// Slides a 1 m box at 6 m/s (no friction) from flat ground onto a 10° ramp that starts at
    /// x = 0, made of `chain` or of plain segments; returns the box's final x and lowest vx.
    static func rideUpRamp(chain: Bool) throws -> (x: Double, minVx: Double) {
        let world = World(gravity: Vec2(0, -10))
        let ground = world.createBody(BodyDef(type: .static))
        let slope = _sin(10 * Double.pi / 180) / _cos(10 * Double.pi / 180)
        // Right to left: the ramp's top, the foot of the ramp at the origin, flat ground.
        var vertices = (0...20).map { i -> Vec2 in let x = 10 - 0.5 * Double(i); return Vec2(x, slope * x) }
        vertices += (1...20).map { Vec2(-0.5 * Double($0), 0) }
        if chain {
            try world.createChain(on: ground, ChainDef(vertices: vertices, friction: 0))
        } else {
            for i in 0..<(vertices.count - 1) {
                world.createShape(on: ground, ShapeDef(.segment(vertices[i], vertices[i + 1]), friction: 0))
            }
        }
        let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(-4, 0.5 + 0.015), linearVelocity: Vec2(6, 0)))
        world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), friction: 0))
        var minVx = 6.0
        for _ in 0..<90 {
            world.step(1.0 / 60)
            minVx = min(minVx, box.linearVelocity.x)
        }
        return (box.position.x, minVx)
    }

    @Test func boxRidesUpARampWithoutStopping() throws {
        // At the foot of the ramp (a concave joint) the chain allows only the ramp's normal, so
        // the box turns up the ramp: its speed along the ground drops by no more than the turn
        // (6·cos 10° = 5.9 m/s, minus gravity along the ramp over the second it climbs, about
        // 1.7 m/s) and it gets well up the ramp in 1.5 s.
        let (x, minVx) = try Self.rideUpRamp(chain: true)
        #expect(minVx > 3.5)
        #expect(x > 3)
    }

    /// Drops a sliding box (6 m/s along, 12 m/s down: it sinks about 0.2 m into the ground in
    /// the step it lands) onto a flat ground of 0.25 m edges at 50 offsets against the vertices;
    /// returns how many landings lost more than 0.1 m/s of the (frictionless) sliding speed.
    static func snaggedLandings(chain: Bool) throws -> Int {
        var snags = 0
        for k in 0..<50 {
            let world = World(gravity: Vec2(0, -10))
            let ground = world.createBody(BodyDef(type: .static))
            let vertices = (0...240).map { Vec2(30 - Double($0) * 0.25, 0) }
            if chain {
                try world.createChain(on: ground, ChainDef(vertices: vertices, friction: 0))
            } else {
                for i in 0..<240 { world.createShape(on: ground, ShapeDef(.segment(vertices[i], vertices[i + 1]), friction: 0)) }
            }
            let body = world.createBody(BodyDef(type: .dynamic, position: Vec2(-10 + 0.005 * Double(k), 0.35),
                                                linearVelocity: Vec2(6, -12), fixedRotation: true))
            world.createShape(on: body, ShapeDef(.box(halfWidth: 0.3, halfHeight: 0.2), friction: 0))
            var minVx = 6.0
            for _ in 0..<60 {
                world.step(1.0 / 60)
                minVx = min(minVx, body.linearVelocity.x)
            }
            if minVx < 5.9 { snags += 1 }
        }
        return snags
    }

    @Test func hardLandingOnInternalVerticesDoesNotSnag() throws {
        // Without ghost vertices a deep overlap next to a vertex makes the box's side the
        // reference face and the box stops dead (plain segments: some of the 50 landings);
        // the chain allows only the ground's normal there, so no landing loses speed.
        #expect(try Self.snaggedLandings(chain: true) == 0)
        #expect(try Self.snaggedLandings(chain: false) > 0)
    }

    @Test func sharedVertexGivesACircleOneContact() throws {
        // A ball resting right over the vertex between two collinear edges: the chain gives one
        // contact (the vertex belongs to one segment); two plain segments give two.
        func touching(chain: Bool) throws -> Int {
            let world = World(gravity: Vec2(0, -10))
            let ground = world.createBody(BodyDef(type: .static))
            if chain {
                try world.createChain(on: ground, ChainDef(vertices: [Vec2(2, 0), Vec2(0, 0), Vec2(-2, 0)]))
            } else {
                world.createShape(on: ground, ShapeDef(.segment(Vec2(2, 0), Vec2(0, 0))))
                world.createShape(on: ground, ShapeDef(.segment(Vec2(0, 0), Vec2(-2, 0))))
            }
            let ball = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 0.3)))
            world.createShape(on: ball, ShapeDef(.circle(center: .zero, radius: 0.25)))
            for _ in 0..<30 { world.step(1.0 / 60) }
            #expect(abs(ball.position.y - 0.25) < 0.02)
            return world.touchingCount
        }
        #expect(try touching(chain: true) == 1)
        #expect(try touching(chain: false) == 2)
    }

    @Test(arguments: SolverKind.allCases) func queriesSeeChainEdges(_ solver: SolverKind) throws {
        let world = World()
        world.solverKind = solver
        let chain = Self.flatGround(world)
        let hit = try #require(world.rayCast(from: Vec2(0.3, 5), to: Vec2(0.3, -5)))
        #expect(abs(hit.fraction - 0.5) < 1e-12)
        #expect(abs(hit.normal.y - 1) < 1e-12)
        #expect(hit.shape.chain === chain)
        var found: [Shape] = []
        world.queryAABB(AABB(lower: Vec2(0.1, -0.1), upper: Vec2(0.4, 0.1))) { found.append($0); return true }
        #expect(found.count == 2 && found.allSatisfy { $0.chain === chain })
    }

    @Test(arguments: SolverKind.allCases) func filtersApplyToChains(_ solver: SolverKind) throws {
        let world = World(gravity: Vec2(0, -10))
        world.solverKind = solver
        let ground = world.createBody(BodyDef(type: .static))
        try world.createChain(on: ground, ChainDef(vertices: [Vec2(5, 0), Vec2(-5, 0)],
                                                   filter: Filter(categoryBits: 2, maskBits: 0xFFFF_FFFD)))
        let ghost = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 1)))
        world.createShape(on: ghost, ShapeDef(.circle(center: .zero, radius: 0.2), filter: Filter(categoryBits: 1, maskBits: 1)))
        for _ in 0..<60 { world.step(1.0 / 60) }
        #expect(ghost.position.y < -1)
    }
}
