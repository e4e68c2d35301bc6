import Testing
@testable import Physics2D

/// The dynamic AABB tree against brute force.
@Suite struct BroadPhaseTests {
    /// A small deterministic generator (xorshift) so the test needs no seeded RNG API.
    struct Rng {
        var s: UInt64
        mutating func next() -> Double {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return Double(s % 1_000_000) / 1_000_000
        }
    }

    @Test func queriesMatchBruteForceThroughMovesAndRemovals() {
        let tree = DynamicTree()
        var rng = Rng(s: 0x9E37_79B9_7F4A_7C15)
        var boxes: [Int32: AABB] = [:]
        func randomBox() -> AABB {
            let c = Vec2(rng.next() * 100, rng.next() * 100)
            let h = Vec2(0.2 + rng.next() * 2, 0.2 + rng.next() * 2)
            return AABB(lower: c - h, upper: c + h)
        }
        var ids: [Int32] = []
        for i in 0..<400 {
            let b = randomBox()
            let id = tree.createProxy(b, data: Int32(i))
            ids.append(id)
            boxes[id] = tree.fatAABB(id)
        }
        #expect(tree.validate())
        // Balanced: far below the 400 of a degenerate list.
        #expect(tree.height <= 20)
        for round in 0..<5 {
            for id in ids where rng.next() < 0.5 {
                let moved = tree.moveProxy(id, tight: randomBox())
                #expect(moved)
                boxes[id] = tree.fatAABB(id)
            }
            if round == 2 {
                for id in ids.prefix(100) { tree.destroyProxy(id); boxes[id] = nil }
                ids.removeFirst(100)
            }
            #expect(tree.validate())
            for _ in 0..<50 {
                let q = randomBox()
                var found = Set<Int32>()
                tree.query(q) { found.insert($0); return true }
                let expected = Set(boxes.filter { $0.value.overlaps(q) }.map(\.key))
                #expect(found == expected)
            }
        }
    }

    @Test func smallMovesStayInTheFatBox() {
        let tree = DynamicTree()
        let box = AABB(lower: Vec2(0, 0), upper: Vec2(1, 1))
        let id = tree.createProxy(box, data: 0)
        #expect(!tree.moveProxy(id, tight: AABB(lower: Vec2(0.05, 0), upper: Vec2(1.05, 1))))
        #expect(tree.moveProxy(id, tight: AABB(lower: Vec2(0.5, 0), upper: Vec2(1.5, 1))))
    }
}
