@testable import Physics2D

/// A world with a static ground box whose top is at y = 0.
/// How many times per step the world's solver integrates: the soft step's sub-steps, or 1.
/// Both integrate semi-implicitly (v += a·h, then x += v·h), so a closed form in h = dt / k over
/// k steps per step holds for either.
func integrations(_ world: World) -> Int { world.solverKind == .softStep ? world.softSubSteps : 1 }

func worldWithGround(gravity: Vec2 = Vec2(0, -10), friction: Double = 0.6, restitution: Double = 0) -> (World, Body) {
    let world = World(gravity: gravity)
    let ground = world.createBody(BodyDef(type: .static, position: Vec2(0, -0.5)))
    world.createShape(on: ground, ShapeDef(.box(halfWidth: 40, halfHeight: 0.5), friction: friction, restitution: restitution))
    return (world, ground)
}

/// A Box2D-style pyramid resting on the ground (the SCENES.md layout); returns the boxes.
func addPyramid(_ world: World, rows: Int) -> [Body] {
    var boxes: [Body] = []
    for row in 0..<rows {
        let count = rows - row
        let x0 = -Double(count - 1) * 0.5625
        for i in 0..<count {
            let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(x0 + Double(i) * 1.125, 0.5 + Double(row))))
            world.createShape(on: b, ShapeDef(.box(halfWidth: 0.5, halfHeight: 0.5), density: 1, friction: 0.6))
            boxes.append(b)
        }
    }
    return boxes
}
