import Testing
@testable import Physics2D

/// The per-shape core buffer the narrow phase reads (`Shape.coreRef`, `Shape.aabb(_:)`)
/// must agree exactly with the shape's public geometry.
@Suite struct ShapeCoreTests {
    static let geometries: [Geometry] = [
        .circle(center: Vec2(0.3, -0.2), radius: 0.7),
        .box(halfWidth: 1.5, halfHeight: 0.25),
        .box(halfWidth: 0.5, halfHeight: 0.75, center: Vec2(1, 2), angle: 0.4),
        try! .polygon(vertices: [Vec2(0, 0), Vec2(2, 0), Vec2(2.5, 1), Vec2(1, 2), Vec2(-0.5, 1)]),
        .segment(Vec2(-3, 0.5), Vec2(4, -1)),
    ]
    static let transforms: [Transform] = [
        .identity,
        Transform(position: Vec2(5, -3), angle: 0.7),
        Transform(position: Vec2(-12.25, 40), angle: -2.9),
    ]

    @Test func coreBufferMatchesGeometry() {
        let world = World()
        let body = world.createBody(BodyDef(type: .dynamic))
        for g in Self.geometries {
            let s = world.createShape(on: body, ShapeDef(g))
            switch g {
            case .circle:
                #expect(s.coreRef.count == 0)
            case .polygon(let p):
                #expect(s.coreRef.count == p.vertices.count)
                for i in 0..<p.vertices.count {
                    #expect(s.coreRef.vertices[i] == p.vertices[i])
                    #expect(s.coreRef.normals[i] == p.normals[i])
                }
            case .segment(let a, let b):
                #expect(s.coreRef.count == 2)
                #expect(s.coreRef.vertices[0] == a && s.coreRef.vertices[1] == b)
            }
            for xf in Self.transforms {
                #expect(s.aabb(xf) == g.aabb(xf))
            }
        }
    }

    @Test func shapesOutliveTheirRemovedBodyWithValidCores() throws {
        let world = World()
        var shape: Shape?
        do {
            let body = world.createBody(BodyDef(type: .dynamic))
            shape = world.createShape(on: body, ShapeDef(.box(halfWidth: 1, halfHeight: 1)))
            world.removeBody(body)
        }
        let s = try #require(shape)
        #expect(s.coreRef.count == 4)
        #expect(s.aabb(.identity) == s.geometry.aabb(.identity))
    }
}
