import Foundation
import Testing
@testable import Physics2D

/// BenchScene builds ../shared/physics-bench's pyramids in code (for the wasm build, which has
/// no JSON loader); here against Scene.swift's reading of the scene files themselves.
@Suite struct BenchSceneTests {
    /// The harness's scenes folder: $PHYSICS_BENCH/scenes, else ../shared/physics-bench/scenes
    /// beside the package (where `make bench-physics` finds it too).
    static func sceneFile(_ name: String) -> URL {
        if let dir = ProcessInfo.processInfo.environment["PHYSICS_BENCH"] {
            return URL(fileURLWithPath: dir).appendingPathComponent("scenes/\(name).json")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/physics-bench/scenes/\(name).json")
    }

    @Test(arguments: ["pyramid20", "pyramid40"])
    func buildsTheWorldOfTheSceneFile(name: String) throws {
        let url = Self.sceneFile(name)
        let data = try #require(try? Data(contentsOf: url), "scene file not found at \(url.path) (set PHYSICS_BENCH)")
        let scene = try Scene(json: data)
        let (world, loaded) = scene.makeWorld()
        let built = try #require(BenchScene.make(named: name))

        #expect(built.name == scene.name)
        #expect(built.dt == scene.dt && built.steps == scene.steps && built.warmupSteps == scene.warmupSteps)
        #expect(built.world.gravity == world.gravity)
        #expect(built.world.velocityIterations == world.velocityIterations)
        #expect(built.world.positionIterations == world.positionIterations)
        #expect(built.world.allowSleep == world.allowSleep)
        #expect(built.bodies.count == loaded.count && built.world.bodies.count == world.bodies.count)
        var mismatches: [Int] = []
        for (i, (a, b)) in zip(built.bodies, loaded).enumerated() {
            // Exact equality: bit-identical doubles, the same shapes and materials.
            let same = a.type == b.type && a.position == b.position && a.angle == b.angle
                && a.linearVelocity == b.linearVelocity && a.angularVelocity == b.angularVelocity
                && a.mass == b.mass && a.shapes.count == 1 && b.shapes.count == 1
                && a.shapes[0].geometry == b.shapes[0].geometry && a.shapes[0].density == b.shapes[0].density
                && a.shapes[0].friction == b.shapes[0].friction && a.shapes[0].restitution == b.shapes[0].restitution
                && a.shapes[0].isSensor == b.shapes[0].isSensor && a.shapes[0].filter == b.shapes[0].filter
            if !same { mismatches.append(i) }
        }
        #expect(mismatches.isEmpty, "bodies that differ from the file: \(mismatches)")
        // And so the same simulation: 30 steps later both worlds hash alike.
        for _ in 0..<30 { world.step(scene.dt) }
        built.step(30)
        #expect(built.stateHash == BenchScene.stateHash(of: loaded))
    }

    @Test func hashSeesEveryBitOfThePose() {
        let a = BenchScene.pyramid(rows: 3), b = BenchScene.pyramid(rows: 3)
        #expect(a.stateHash == b.stateHash)
        let top = b.bodies[b.bodies.count - 1]
        top.setTransform(position: Vec2(top.position.x.nextUp, top.position.y), angle: top.angle)
        #expect(a.stateHash != b.stateHash)
        let c = BenchScene.pyramid(rows: 3)
        c.bodies[1].setTransform(position: c.bodies[1].position, angle: (0.0).nextUp)
        #expect(a.stateHash != c.stateHash)
        #expect(BenchScene.make(named: "pyramid7") == nil)
    }

    @Test func backReferencesClearWhenTheirOwnerGoes() throws {
        var shape: Shape?, chainShape: Shape?, chain: Chain?, body: Body?
        do {
            let world = World()
            let b = world.createBody(BodyDef(type: .static))
            shape = world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 1)))
            chain = try world.createChain(on: b, ChainDef(vertices: [Vec2(0, 0), Vec2(1, 0), Vec2(2, 1)]))
            chainShape = chain?.shapes.first
            body = b
            #expect(shape?.body === b && chain?.body === b && chainShape?.chain === chain)
        }
        // The world is gone: the body it owned no longer points at it.
        #expect(body?.world == nil)
        body = nil
        // The body is gone: its shape and chain no longer point at it; the chain still lives
        // (held here), so its segment still points at it.
        #expect(shape?.body == nil && chain?.body == nil && chainShape?.body == nil)
        #expect(chainShape?.chain === chain)
        chain = nil
        #expect(chainShape?.chain == nil)
    }
}
