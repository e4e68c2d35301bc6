import Foundation

/// One level of the multilevel layout: a weighted graph in compressed rows (each undirected
/// edge stored in both directions) and positions.
struct ForceLayoutLevel: Sendable {
    var x: ContiguousArray<Float>
    var y: ContiguousArray<Float>
    /// Row `i`'s neighbours are `neighbours[offsets[i]..<offsets[i+1]]`, with their edge weights.
    var offsets: ContiguousArray<Int32>
    var neighbours: ContiguousArray<Int32>
    var weights: ContiguousArray<Float>

    var count: Int { x.count }
    var points: [SIMD2<Float>] { (0..<count).map { SIMD2(x[$0], y[$0]) } }

    /// The finest level: unit masses and weights; loops and repeated edges dropped.
    init(nodeCount: Int, edges: [(Int32, Int32)]) {
        var keys: [UInt64] = []
        keys.reserveCapacity(edges.count)
        for (a, b) in edges where a != b {
            let (lo, hi) = a < b ? (a, b) : (b, a)
            keys.append(UInt64(UInt32(lo)) << 32 | UInt64(UInt32(hi)))
        }
        keys.sort()
        var unique: [(Int32, Int32, Float)] = []
        unique.reserveCapacity(keys.count)
        var last: UInt64? = nil
        for key in keys where key != last {
            unique.append((Int32(key >> 32), Int32(truncatingIfNeeded: key & 0xFFFF_FFFF), 1))
            last = key
        }
        self.init(nodeCount: nodeCount, weighted: unique)
    }

    /// A level from distinct undirected weighted edges.
    init(nodeCount: Int, weighted: [(Int32, Int32, Float)]) {
        var degree = ContiguousArray<Int32>(repeating: 0, count: nodeCount + 1)
        for (a, b, _) in weighted { degree[Int(a) + 1] += 1; degree[Int(b) + 1] += 1 }
        for i in 0..<nodeCount { degree[i + 1] += degree[i] }
        offsets = degree
        var fill = ContiguousArray(degree.prefix(nodeCount))
        neighbours = ContiguousArray(repeating: 0, count: Int(degree[nodeCount]))
        weights = ContiguousArray(repeating: 0, count: Int(degree[nodeCount]))
        for (a, b, w) in weighted {
            neighbours[Int(fill[Int(a)])] = b; weights[Int(fill[Int(a)])] = w; fill[Int(a)] += 1
            neighbours[Int(fill[Int(b)])] = a; weights[Int(fill[Int(b)])] = w; fill[Int(b)] += 1
        }
        x = ContiguousArray(repeating: 0, count: nodeCount)
        y = ContiguousArray(repeating: 0, count: nodeCount)
    }

    func degree(_ i: Int) -> Int { Int(offsets[i + 1] - offsets[i]) }

    /// The next coarser level (FM³'s solar systems) and each node's cluster in it.
    func coarsened(rng: inout SplitMix) -> (ForceLayoutLevel, ContiguousArray<Int32>) {
        let n = count
        // Suns by descending degree, ties in a seeded random order.
        var tie = ContiguousArray<UInt32>(repeating: 0, count: n)
        for i in 0..<n { tie[i] = UInt32(truncatingIfNeeded: rng.next()) }
        let visit = (0..<n).sorted { a, b in
            let da = degree(a), db = degree(b)
            return da != db ? da > db : (tie[a] != tie[b] ? tie[a] < tie[b] : a < b)
        }
        var parent = ContiguousArray<Int32>(repeating: -1, count: n)
        var coarseCount: Int32 = 0
        for i in visit where parent[i] == -1 {
            var free = true
            for e in Int(offsets[i])..<Int(offsets[i + 1]) where parent[Int(neighbours[e])] != -1 {
                // Suns keep two hops apart: a neighbour is already a sun or a planet.
                free = false
                break
            }
            guard free else { continue }
            parent[i] = coarseCount
            coarseCount += 1
            for e in Int(offsets[i])..<Int(offsets[i + 1]) { parent[Int(neighbours[e])] = -2 - parent[i] }
        }
        // Planets were marked -2 - their sun's cluster; what is left (moons) neighbours a planet,
        // since a node only fails to be a sun when a neighbour is marked, and joins that system.
        for i in 0..<n where parent[i] <= -2 { parent[i] = -2 - parent[i] }
        for i in 0..<n where parent[i] == -1 {
            for e in Int(offsets[i])..<Int(offsets[i + 1]) {
                let p = parent[Int(neighbours[e])]
                if p >= 0 { parent[i] = p; break }
            }
        }
        var merged: [UInt64: Float] = [:]
        merged.reserveCapacity(neighbours.count / 2)
        for i in 0..<n {
            let a = parent[i]
            for e in Int(offsets[i])..<Int(offsets[i + 1]) where Int(neighbours[e]) > i {
                let b = parent[Int(neighbours[e])]
                if a == b { continue }
                let (lo, hi) = a < b ? (a, b) : (b, a)
                merged[UInt64(UInt32(lo)) << 32 | UInt64(UInt32(hi)), default: 0] += weights[e]
            }
        }
        let edges = merged.sorted { $0.key < $1.key }
            .map { (Int32($0.key >> 32), Int32(truncatingIfNeeded: $0.key & 0xFFFF_FFFF), $0.value) }
        return (ForceLayoutLevel(nodeCount: Int(coarseCount), weighted: edges), parent)
    }

    /// Positions from a previous layout; nodes without one (NaN) start at the mean of their
    /// placed neighbours (placed in waves, so chains of new nodes follow), else near the centre.
    mutating func seedPositions(from initial: [SIMD2<Float>], rng: inout SplitMix, spread: Float) {
        var placed = [Bool](repeating: false, count: count)
        var cx: Float = 0, cy: Float = 0, known: Float = 0
        for i in 0..<count where !initial[i].x.isNaN && !initial[i].y.isNaN {
            x[i] = initial[i].x; y[i] = initial[i].y; placed[i] = true
            cx += x[i]; cy += y[i]; known += 1
        }
        if known > 0 { cx /= known; cy /= known }
        var pending = (0..<count).filter { !placed[$0] }
        while !pending.isEmpty {
            var next: [Int] = []
            var newly: [Int] = []
            for i in pending {
                var sx: Float = 0, sy: Float = 0, c: Float = 0
                for e in Int(offsets[i])..<Int(offsets[i + 1]) where placed[Int(neighbours[e])] {
                    sx += x[Int(neighbours[e])]; sy += y[Int(neighbours[e])]; c += 1
                }
                if c > 0 {
                    x[i] = sx / c + (rng.nextFloat() - 0.5) * spread
                    y[i] = sy / c + (rng.nextFloat() - 0.5) * spread
                    newly.append(i)
                } else {
                    next.append(i)
                }
            }
            if newly.isEmpty {
                // Parts with nothing placed: near the centre.
                for i in next {
                    x[i] = cx + (rng.nextFloat() - 0.5) * spread * 10
                    y[i] = cy + (rng.nextFloat() - 0.5) * spread * 10
                    placed[i] = true
                }
                break
            }
            for i in newly { placed[i] = true }
            pending = next
        }
    }

    /// Read-only views for the worker threads.
    struct Buffers: @unchecked Sendable {
        let x, y, weights: UnsafeBufferPointer<Float>
        let offsets, neighbours: UnsafeBufferPointer<Int32>
    }

    func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                weights.withUnsafeBufferPointer { w in
                    offsets.withUnsafeBufferPointer { o in
                        neighbours.withUnsafeBufferPointer { nb in
                            body(Buffers(x: x, y: y, weights: w, offsets: o, neighbours: nb))
                        }
                    }
                }
            }
        }
    }
}
