// Broad phase: a dynamic AABB tree with fat leaves.
//
// Each shape owns one leaf whose box is the shape's bounds grown by
// `PhysicsSettings.aabbMargin`. A leaf is only re-inserted when the shape leaves
// its fat box, so resting and slowly moving bodies cost nothing here. Inserts
// pick a sibling with the surface-area (perimeter) heuristic and the tree is
// kept height-balanced with AVL-style rotations, so queries stay O(log n).

struct TreeNode {
    var aabb: AABB
    var parent: Int32
    var child1: Int32
    var child2: Int32
    var height: Int32     // leaf = 0, free node = -1
    var data: Int32       // leaf payload (shape index in the world's proxy table)
    @inline(__always) var isLeaf: Bool { child1 == -1 }
}

/// The tree's nodes and the changes to them, as a value: the tree runs each change on a
/// local copy swapped out of itself, so the walks to the root make no exclusivity check per
/// node (on the 5,000-body pile, the refit after each re-inserted leaf made 43,000 such
/// checks a step).
struct TreeStore {
    var nodes: [TreeNode] = []
    var root: Int32 = -1
    var freeList: Int32 = -1

    private mutating func allocate() -> Int32 {
        if freeList == -1 {
            nodes.append(TreeNode(aabb: AABB(lower: .zero, upper: .zero), parent: -1, child1: -1, child2: -1, height: -1, data: -1))
            return Int32(nodes.count - 1)
        }
        let id = freeList
        freeList = nodes[Int(id)].parent
        nodes[Int(id)].parent = -1
        nodes[Int(id)].child1 = -1
        nodes[Int(id)].child2 = -1
        nodes[Int(id)].height = 0
        nodes[Int(id)].data = -1
        return id
    }

    private mutating func free(_ id: Int32) {
        nodes[Int(id)].parent = freeList
        nodes[Int(id)].height = -1
        nodes[Int(id)].child1 = -1
        freeList = id
    }

    /// Creates a leaf for a tight box; the stored box is fattened by the margin.
    mutating func createProxy(_ tight: AABB, data: Int32) -> Int32 {
        let id = allocate()
        nodes[Int(id)].aabb = tight.expanded(by: PhysicsSettings.aabbMargin)
        nodes[Int(id)].data = data
        nodes[Int(id)].height = 0
        nodes[Int(id)].child1 = -1
        nodes[Int(id)].child2 = -1
        insertLeaf(id)
        return id
    }

    mutating func destroyProxy(_ id: Int32) {
        removeLeaf(id)
        free(id)
    }

    /// Re-inserts the leaf if the tight box left its fat box; returns whether it did.
    /// The new fat box also reaches `aabbMultiplier` × `displacement` ahead in the direction
    /// of motion, so a steadily moving shape is not re-inserted every step.
    mutating func moveProxy(_ id: Int32, tight: AABB, displacement: Vec2) -> Bool {
        if nodes[Int(id)].aabb.contains(tight) { return false }
        removeLeaf(id)
        var fat = tight.expanded(by: PhysicsSettings.aabbMargin)
        let d = PhysicsSettings.aabbMultiplier * displacement
        if d.x < 0 { fat.lower.x += d.x } else { fat.upper.x += d.x }
        if d.y < 0 { fat.lower.y += d.y } else { fat.upper.y += d.y }
        nodes[Int(id)].aabb = fat
        insertLeaf(id)
        return true
    }

    // MARK: insertion and removal

    private mutating func insertLeaf(_ leaf: Int32) {
        if root == -1 {
            root = leaf
            nodes[Int(leaf)].parent = -1
            return
        }
        let leafBox = nodes[Int(leaf)].aabb
        var index = root
        while !nodes[Int(index)].isLeaf {
            let node = nodes[Int(index)]
            let area = node.aabb.perimeter
            let combined = node.aabb.union(leafBox).perimeter
            // Cost of making a new parent here, and the cost pushed down to any child.
            let cost = 2 * combined
            let inherited = 2 * (combined - area)
            func descendCost(_ child: Int32) -> Double {
                let c = nodes[Int(child)]
                let u = c.aabb.union(leafBox).perimeter
                return c.isLeaf ? u + inherited : (u - c.aabb.perimeter) + inherited
            }
            let cost1 = descendCost(node.child1)
            let cost2 = descendCost(node.child2)
            if cost < cost1 && cost < cost2 { break }
            index = cost1 < cost2 ? node.child1 : node.child2
        }
        let sibling = index
        let oldParent = nodes[Int(sibling)].parent
        let newParent = allocate()
        nodes[Int(newParent)].parent = oldParent
        nodes[Int(newParent)].aabb = nodes[Int(sibling)].aabb.union(leafBox)
        nodes[Int(newParent)].height = nodes[Int(sibling)].height + 1
        nodes[Int(newParent)].child1 = sibling
        nodes[Int(newParent)].child2 = leaf
        nodes[Int(sibling)].parent = newParent
        nodes[Int(leaf)].parent = newParent
        if oldParent == -1 {
            root = newParent
        } else if nodes[Int(oldParent)].child1 == sibling {
            nodes[Int(oldParent)].child1 = newParent
        } else {
            nodes[Int(oldParent)].child2 = newParent
        }
        refit(from: nodes[Int(leaf)].parent)
    }

    private mutating func removeLeaf(_ leaf: Int32) {
        if leaf == root {
            root = -1
            return
        }
        let parent = nodes[Int(leaf)].parent
        let grand = nodes[Int(parent)].parent
        let sibling = nodes[Int(parent)].child1 == leaf ? nodes[Int(parent)].child2 : nodes[Int(parent)].child1
        if grand == -1 {
            root = sibling
            nodes[Int(sibling)].parent = -1
            free(parent)
            return
        }
        if nodes[Int(grand)].child1 == parent { nodes[Int(grand)].child1 = sibling } else { nodes[Int(grand)].child2 = sibling }
        nodes[Int(sibling)].parent = grand
        free(parent)
        refit(from: grand)
    }

    /// Walks to the root, rebalancing and refreshing heights and boxes.
    private mutating func refit(from start: Int32) {
        var index = start
        while index != -1 {
            index = balance(index)
            let c1 = nodes[Int(index)].child1, c2 = nodes[Int(index)].child2
            nodes[Int(index)].height = 1 + max(nodes[Int(c1)].height, nodes[Int(c2)].height)
            nodes[Int(index)].aabb = nodes[Int(c1)].aabb.union(nodes[Int(c2)].aabb)
            index = nodes[Int(index)].parent
        }
    }

    private mutating func replaceChild(of parent: Int32, old: Int32, new: Int32) {
        if parent == -1 { root = new; return }
        if nodes[Int(parent)].child1 == old { nodes[Int(parent)].child1 = new } else { nodes[Int(parent)].child2 = new }
    }

    private mutating func fix(_ i: Int32) {
        let c1 = nodes[Int(i)].child1, c2 = nodes[Int(i)].child2
        nodes[Int(i)].aabb = nodes[Int(c1)].aabb.union(nodes[Int(c2)].aabb)
        nodes[Int(i)].height = 1 + max(nodes[Int(c1)].height, nodes[Int(c2)].height)
    }

    /// If the subtree at `a` leans by more than one level, lifts the taller child; returns the subtree's new root.
    private mutating func balance(_ a: Int32) -> Int32 {
        if nodes[Int(a)].isLeaf || nodes[Int(a)].height < 2 { return a }
        let b = nodes[Int(a)].child1, c = nodes[Int(a)].child2
        let lean = nodes[Int(c)].height - nodes[Int(b)].height
        if lean > 1 {
            // Lift c: a keeps b and the shorter grandchild of c; c adopts a and its taller child.
            let f = nodes[Int(c)].child1, g = nodes[Int(c)].child2
            let aParent = nodes[Int(a)].parent
            nodes[Int(c)].child1 = a
            nodes[Int(c)].parent = aParent
            nodes[Int(a)].parent = c
            replaceChild(of: aParent, old: a, new: c)
            let (keep, give) = nodes[Int(f)].height > nodes[Int(g)].height ? (f, g) : (g, f)
            nodes[Int(c)].child2 = keep
            nodes[Int(a)].child2 = give
            nodes[Int(give)].parent = a
            fix(a); fix(c)
            return c
        }
        if lean < -1 {
            let d = nodes[Int(b)].child1, e = nodes[Int(b)].child2
            let aParent = nodes[Int(a)].parent
            nodes[Int(b)].child1 = a
            nodes[Int(b)].parent = aParent
            nodes[Int(a)].parent = b
            replaceChild(of: aParent, old: a, new: b)
            let (keep, give) = nodes[Int(d)].height > nodes[Int(e)].height ? (d, e) : (e, d)
            nodes[Int(b)].child2 = keep
            nodes[Int(a)].child1 = give
            nodes[Int(give)].parent = a
            fix(a); fix(b)
            return b
        }
        return a
    }
}

/// A dynamic bounding-volume tree of axis-aligned boxes.
final class DynamicTree {
    private var store = TreeStore()
    var nodes: [TreeNode] { store.nodes }
    var root: Int32 { store.root }
    private var stack: [Int32] = []

    /// Runs a change on the nodes swapped out into a local (see `TreeStore`).
    @inline(__always)
    private func change<R>(_ body: (inout TreeStore) -> R) -> R {
        var local = TreeStore()
        swap(&local, &store)
        defer { swap(&local, &store) }
        return body(&local)
    }

    /// Creates a leaf for a tight box; the stored box is fattened by the margin.
    func createProxy(_ tight: AABB, data: Int32) -> Int32 { change { $0.createProxy(tight, data: data) } }

    func destroyProxy(_ id: Int32) { change { $0.destroyProxy(id) } }

    /// Re-inserts the leaf if the tight box left its fat box; returns whether it did (see
    /// `TreeStore.moveProxy`).
    func moveProxy(_ id: Int32, tight: AABB, displacement: Vec2 = .zero) -> Bool {
        if store.nodes[Int(id)].aabb.contains(tight) { return false }
        return change { $0.moveProxy(id, tight: tight, displacement: displacement) }
    }

    @inline(__always) func fatAABB(_ id: Int32) -> AABB { store.nodes[Int(id)].aabb }
    @inline(__always) func data(_ id: Int32) -> Int32 { store.nodes[Int(id)].data }

    /// Calls `visit` with every leaf whose fat box overlaps `box`; `visit` returns false to stop.
    func query(_ box: AABB, _ visit: (Int32) -> Bool) {
        if root == -1 { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(root)
        while let id = stack.popLast() {
            let node = store.nodes[Int(id)]
            guard node.aabb.overlaps(box) else { continue }
            if node.isLeaf {
                if !visit(id) { return }
            } else {
                stack.append(node.child1)
                stack.append(node.child2)
            }
        }
    }

    /// `query` for a `visit` that does not change the tree (the broad phase's pair search, the
    /// continuous pass): the nodes are read through one buffer and the stack is a local, so
    /// the walk makes no exclusivity check per node.
    func queryUnchanging(_ box: AABB, _ visit: (Int32) -> Void) {
        if root == -1 { return }
        var stack: [Int32] = []
        swap(&stack, &self.stack)
        defer { swap(&stack, &self.stack) }
        stack.removeAll(keepingCapacity: true)
        stack.append(root)
        store.nodes.withUnsafeBufferPointer { nodes in
            while let id = stack.popLast() {
                let node = nodes[Int(id)]
                guard node.aabb.overlaps(box) else { continue }
                if node.isLeaf {
                    visit(id)
                } else {
                    stack.append(node.child1)
                    stack.append(node.child2)
                }
            }
        }
    }

    /// Calls `visit(leaf, maxFraction)` for leaves whose box the segment p1→p1+maxFraction·(p2−p1) crosses.
    /// `visit` returns the new max fraction (0 stops, the same value continues).
    func rayCast(from p1: Vec2, to p2: Vec2, maxFraction: Double, _ visit: (Int32, Double) -> Double) {
        if root == -1 { return }
        var maxF = maxFraction
        let d = p2 - p1
        var local: [Int32] = [root]
        while let id = local.popLast() {
            let node = store.nodes[Int(id)]
            guard Self.segmentHits(node.aabb, p1, d, maxF) else { continue }
            if node.isLeaf {
                let f = visit(id, maxF)
                if f == 0 { return }
                if f > 0 { maxF = min(maxF, f) }
            } else {
                local.append(node.child1)
                local.append(node.child2)
            }
        }
    }

    /// Slab test of the segment p + t·d, t ∈ [0, maxT], against a box.
    static func segmentHits(_ b: AABB, _ p: Vec2, _ d: Vec2, _ maxT: Double) -> Bool {
        var tmin = 0.0, tmax = maxT
        for axis in 0..<2 {
            let pi = axis == 0 ? p.x : p.y, di = axis == 0 ? d.x : d.y
            let lo = axis == 0 ? b.lower.x : b.lower.y, hi = axis == 0 ? b.upper.x : b.upper.y
            if abs(di) < 1e-15 {
                if pi < lo || pi > hi { return false }
            } else {
                var t1 = (lo - pi) / di, t2 = (hi - pi) / di
                if t1 > t2 { swap(&t1, &t2) }
                tmin = max(tmin, t1); tmax = min(tmax, t2)
                if tmin > tmax { return false }
            }
        }
        return true
    }

    /// Height of the tree (0 for a single leaf, -1 when empty).
    var height: Int { root == -1 ? -1 : Int(nodes[Int(root)].height) }

    /// Checks parent links, heights and boxes (used by the tests).
    func validate() -> Bool {
        func check(_ i: Int32, parent: Int32) -> Int32? {
            let n = nodes[Int(i)]
            guard n.parent == parent else { return nil }
            if n.isLeaf { return n.height == 0 ? 0 : nil }
            guard let h1 = check(n.child1, parent: i), let h2 = check(n.child2, parent: i) else { return nil }
            let h = 1 + max(h1, h2)
            guard h == n.height, n.aabb.contains(nodes[Int(n.child1)].aabb), n.aabb.contains(nodes[Int(n.child2)].aabb) else { return nil }
            return h
        }
        return root == -1 || check(root, parent: -1) != nil
    }
}
