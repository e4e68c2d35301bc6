import Testing
@testable import Physics2D

/// AABB, point and ray queries.
@Suite struct QueryTests {
    func scene() -> (World, Shape, Shape, Shape, Shape) {
        let world = World(gravity: .zero)
        let a = world.createBody(BodyDef(type: .static, position: Vec2(0, 0)))
        let box = world.createShape(on: a, ShapeDef(.box(halfWidth: 1, halfHeight: 1)))
        let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(5, 0)))
        let circle = world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 1)))
        let c = world.createBody(BodyDef(type: .static, position: Vec2(10, 0)))
        let seg = world.createShape(on: c, ShapeDef(.segment(Vec2(0, -2), Vec2(0, 2))))
        let d = world.createBody(BodyDef(type: .static, position: Vec2(2.5, 0)))
        let sensor = world.createShape(on: d, ShapeDef(.circle(center: .zero, radius: 0.3), isSensor: true))
        return (world, box, circle, seg, sensor)
    }

    @Test func aabbQueryFindsOverlappingShapes() {
        let (world, box, circle, _, sensor) = scene()
        var ids: [Int] = []
        world.queryAABB(AABB(lower: Vec2(0.5, -0.1), upper: Vec2(4.2, 0.1))) { ids.append($0.id); return true }
        #expect(Set(ids) == Set([box.id, circle.id, sensor.id]))
        var count = 0
        world.queryAABB(AABB(lower: Vec2(-100, -100), upper: Vec2(100, 100))) { _ in count += 1; return count < 2 }
        #expect(count == 2)   // stopped early
    }

    @Test func pointQueryTouchesBodies() {
        let (world, box, circle, _, _) = scene()
        #expect(world.shapes(at: Vec2(0.9, 0.9)).map(\.id) == [box.id])
        #expect(world.shapes(at: Vec2(5.5, 0.5)).map(\.id) == [circle.id])
        #expect(world.shapes(at: Vec2(5.8, 0.8)).isEmpty)     // in the circle's box, outside the circle
        #expect(world.shapes(at: Vec2(3.5, 3)).isEmpty)
    }

    @Test func rayCastReturnsTheClosestHit() throws {
        let (world, box, circle, seg, _) = scene()
        let h1 = try #require(world.rayCast(from: Vec2(-5, 0), to: Vec2(15, 0)))
        #expect(h1.shape === box)
        #expect(abs(h1.point.x + 1) < 1e-12 && h1.normal == Vec2(-1, 0))
        #expect(abs(h1.fraction - 0.2) < 1e-12)
        let h2 = try #require(world.rayCast(from: Vec2(3, 0.5), to: Vec2(15, 0.5)))   // skips the sensor
        #expect(h2.shape === circle)
        #expect(abs(h2.point.x - (5 - 0.75.squareRoot())) < 1e-12)
        let h3 = try #require(world.rayCast(from: Vec2(7, 1), to: Vec2(15, 1)))
        #expect(h3.shape === seg && abs(h3.point.x - 10) < 1e-12 && h3.normal == Vec2(-1, 0))
        let h4 = try #require(world.rayCast(from: Vec2(2.5, 5), to: Vec2(2.5, -5), includeSensors: true))
        #expect(h4.shape.isSensor && abs(h4.point.y - 0.3) < 1e-12)
        #expect(world.rayCast(from: Vec2(-5, 5), to: Vec2(15, 5)) == nil)
        // A turned box: the hit normal is turned too.
        let w2 = World(gravity: .zero)
        let t = w2.createBody(BodyDef(type: .static, angle: Double.pi / 4))
        w2.createShape(on: t, ShapeDef(.box(halfWidth: 1, halfHeight: 1)))
        let h5 = try #require(w2.rayCast(from: Vec2(-5, 0), to: Vec2(5, 0)))
        #expect(abs(h5.point.x + 2.0.squareRoot()) < 1e-9)
        #expect(abs(h5.normal.x + 0.5.squareRoot()) < 1e-9)
    }
}
