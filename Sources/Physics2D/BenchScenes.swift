// The benchmark scenes of ../shared/physics-bench built in code, without the JSON loader
// (Scene.swift needs Foundation, which the Embedded Swift / wasm build has not): the wasm
// module and `quintet playground bench` step the very same world, and a native test checks
// that it equals what Scene.swift loads from the scene's JSON file (same bodies, shapes,
// positions, settings).

/// A benchmark world built in code, with the step settings of its scene file.
public struct BenchScene {
    /// The scene's name in ../shared/physics-bench/scenes (`pyramid20`, `pyramid40`).
    public let name: String
    public let world: World
    /// The bodies in the scene file's order (the ground first).
    public let bodies: [Body]
    /// The scene's fixed time step (1/60 s) and step counts.
    public let dt: Double
    public let steps: Int
    public let warmupSteps: Int

    /// The names `make(named:)` knows.
    public static let names = ["pyramid20", "pyramid40"]

    /// The scene called `name`, or nil for a name not in `names`.
    public static func make(named name: String) -> BenchScene? {
        switch name {
        case "pyramid20": return pyramid(rows: 20)
        case "pyramid40": return pyramid(rows: 40)
        default: return nil
        }
    }

    /// `pyramidN` of gen_scenes.py: `rows` 1 × 1 m boxes in the base row, 1.125 m apart, each row
    /// shifted by 0.5625 m and resting exactly on the one below, on a static 80 × 1 m ground box;
    /// gravity (0, -10), no sleeping, 8 velocity and 3 position iterations, 1000 steps of which 60
    /// are warm-up. The arithmetic is the generator's, in its order, so the positions are the
    /// same doubles the JSON file holds.
    public static func pyramid(rows: Int) -> BenchScene {
        precondition(rows > 0, "a pyramid needs a row")
        let world = World(gravity: Vec2(0.0, -10.0))
        world.velocityIterations = 8
        world.positionIterations = 3
        world.allowSleep = false
        var bodies: [Body] = []
        bodies.reserveCapacity(rows * (rows + 1) / 2 + 1)
        let ground = world.createBody(BodyDef(type: .static, position: Vec2(0.0, -0.5)))
        world.createShape(on: ground, ShapeDef(.box(halfWidth: 40.0, halfHeight: 0.5),
                                               density: 0.0, friction: 0.6, restitution: 0.0))
        bodies.append(ground)
        let pitchX = 1.125, shiftX = 0.5625
        let x0 = Double(-(rows - 1)) * pitchX / 2.0
        for i in 0..<rows {
            let y = 0.5 + Double(i) * 1.0
            for j in 0..<(rows - i) {
                let x = x0 + Double(i) * shiftX + Double(j) * pitchX
                let box = world.createBody(BodyDef(type: .dynamic, position: Vec2(x, y)))
                world.createShape(on: box, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5),
                                                    density: 1.0, friction: 0.6, restitution: 0.0))
                bodies.append(box)
            }
        }
        return BenchScene(name: "pyramid\(rows)", world: world, bodies: bodies,
                          dt: 0.016666666666666666, steps: 1000, warmupSteps: 60)
    }

    /// Steps the world `count` times at the scene's `dt`.
    public func step(_ count: Int) {
        for _ in 0..<max(count, 0) { world.step(dt) }
    }

    /// A 64-bit FNV-1a hash of every body's position (x, y) and angle, as the bit patterns of
    /// the doubles, in body order: equal hashes mean bit-identical states (the native vs wasm
    /// determinism check compares it).
    public var stateHash: UInt64 { BenchScene.stateHash(of: bodies) }

    /// The same hash over any list of bodies.
    public static func stateHash(of bodies: [Body]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ v: Double) {
            var bits = v.bitPattern
            for _ in 0..<8 {
                h ^= bits & 0xff
                h = h &* 0x0000_0100_0000_01b3
                bits >>= 8
            }
        }
        for b in bodies {
            mix(b.position.x); mix(b.position.y); mix(b.angle)
        }
        return h
    }
}
