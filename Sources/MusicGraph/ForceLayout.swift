import Foundation

/// A force-directed layout of a whole graph in the plane: multilevel coarsening plus
/// Barnes–Hut repulsion, after Hu, "Efficient and high quality force-directed graph drawing"
/// (The Mathematica Journal 10, 2005) — the method of Graphviz `sfdp` — with the coarsening of
/// Hachul & Jünger's FM³ ("solar systems", 2004) and a pull to the centre as in ForceAtlas2.
///
/// - Coarsening: suns are a set of nodes at least three edges apart, chosen by descending
///   degree (ties by a seeded shuffle: an album or an artist becomes a sun before its songs);
///   a sun's neighbours (planets) and their other neighbours (moons) join its cluster, and
///   parallel edges merge into one of summed weight. Levels stop at 64 nodes or when a level
///   keeps more than 80 % of the nodes (what is left is mostly separate parts).
/// - Forces (Hu's): repulsion `C·K² / d` through the quadtree (θ = 1.2), attraction
///   `w·d² / K` along each edge, and a pull of constant size `g·C·K·√n` to the centre, so that
///   separate parts and weakly tied albums stay close (without it, each song/album star floats
///   off on one long edge, and the map is mostly empty space). Every node moves `step` along its
///   force; the step grows after five improving iterations and shrinks by 0.9 otherwise (Hu's
///   adaptive cooling).
/// - Prolongation: a cluster's nodes start at its position scaled by √(n_fine / n_coarse) (the
///   drawing's area grows with the node count), with seeded jitter; finer levels need fewer
///   iterations and a shorter first step.
/// - Incremental: with the previous positions of most nodes, new nodes start at the mean of
///   their placed neighbours and only the finest level runs, with a short step and fewer
///   iterations.
///
/// - Leaves: last, nodes with a single link are set on rings around the node they hang from
///   (ForceLayoutLeaves.swift), so an album is a compact flower of its songs.
///
/// Deterministic: the same input and seed give the same positions on one machine (the force
/// sums run in a fixed order per node, split over threads by node ranges only).
///
/// ```swift
/// let layout = ForceLayout(nodeCount: 3, edges: [(0, 1), (1, 2)])
/// let points = layout.run()            // [SIMD2<Float>], one per node
/// ```
public struct ForceLayout: Sendable {
    /// Tunables; the defaults are what `make bench-graph` measures.
    public struct Options: Sendable {
        /// The natural edge length.
        public var edgeLength: Float = 1
        /// Repulsion strength (Hu's C).
        public var repulsion: Float = 0.2
        /// Barnes–Hut opening criterion: a cell of width w at distance d counts as one body when w < θ·d.
        public var theta: Float = 1.2
        /// Pull to the centre relative to repulsion (0 turns it off, as in sfdp). The default suits
        /// music catalogs (stars of songs on albums, loosely joined); it squeezes the rim of
        /// evenly meshed graphs such as grids, which draw best with 0–0.5.
        public var gravity: Float = 3
        /// Iterations at the coarsest level, at intermediate levels and at the finest level.
        public var coarsestIterations = 300
        public var levelIterations = 60
        public var finestIterations = 60
        /// Iterations of an incremental run (previous positions given).
        public var incrementalIterations = 40
        /// Set one-link nodes on rings around the node they hang from (ForceLayoutLeaves.swift).
        public var ringLeaves = true
        /// Threads for the force sums (1 = the calling thread only).
        public var threads = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        public var seed: UInt64 = 0x5157_494E_5445_5421
        public init() {}
    }

    public let nodeCount: Int
    /// Edges as node index pairs; self loops and repeats are ignored.
    public let edges: [(Int32, Int32)]
    public var options: Options

    public init(nodeCount: Int, edges: [(Int32, Int32)], options: Options = Options()) {
        self.nodeCount = nodeCount
        self.edges = edges
        self.options = options
    }

    /// What `run` can throw: an edge naming a node outside `0..<nodeCount`, or a stop asked for.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case edgeOutOfRange(index: Int, node: Int32)
        case cancelled
        public var description: String {
            switch self {
            case .edgeOutOfRange(let i, let node): "edge \(i) names node \(node), outside the graph"
            case .cancelled: "the layout was stopped"
            }
        }
    }

    /// Lays the graph out. `initial`, when given, holds one position per node (NaN for nodes
    /// not placed before): an incremental run when at least 3/4 of the nodes have one.
    /// `isCancelled` is polled once per iteration.
    public func run(initial: [SIMD2<Float>]? = nil,
                    isCancelled: @Sendable () -> Bool = { false }) throws -> [SIMD2<Float>] {
        guard nodeCount > 0 else { return [] }
        for (i, edge) in edges.enumerated() {
            for node in [edge.0, edge.1] where node < 0 || Int(node) >= nodeCount {
                throw Failure.edgeOutOfRange(index: i, node: node)
            }
        }
        var rng = SplitMix(seed: options.seed)
        let finest = ForceLayoutLevel(nodeCount: nodeCount, edges: edges)
        if let initial, initial.count == nodeCount {
            let placed = initial.filter { !$0.x.isNaN && !$0.y.isNaN }.count
            if placed * 4 >= nodeCount * 3 {
                var level = finest
                level.seedPositions(from: initial, rng: &rng, spread: options.edgeLength)
                try relax(&level, iterations: options.incrementalIterations, firstStep: options.edgeLength * 0.1,
                          isCancelled: isCancelled)
                return finish(level.points, finest)
            }
        }
        // Coarsen.
        var levels = [finest]
        var parents: [ContiguousArray<Int32>] = []
        while levels[levels.count - 1].count > 64 {
            let (coarse, parent) = levels[levels.count - 1].coarsened(rng: &rng)
            if coarse.count * 5 > levels[levels.count - 1].count * 4 { break }
            levels.append(coarse)
            parents.append(parent)
        }
        // The coarsest level from random positions in a square of its own drawing's size.
        let side = options.edgeLength * Float(Double(levels[levels.count - 1].count).squareRoot())
        var coarsest = levels[levels.count - 1]
        for i in 0..<coarsest.count {
            coarsest.x[i] = (rng.nextFloat() - 0.5) * side
            coarsest.y[i] = (rng.nextFloat() - 0.5) * side
        }
        try relax(&coarsest, iterations: options.coarsestIterations, firstStep: side * 0.1, isCancelled: isCancelled)
        levels[levels.count - 1] = coarsest
        // Refine.
        var index = levels.count - 1
        while index > 0 {
            var fine = levels[index - 1]
            let coarse = levels[index], parent = parents[index - 1]
            let jitter = options.edgeLength * 0.3
            let grow = (Float(fine.count) / Float(coarse.count)).squareRoot()
            for i in 0..<fine.count {
                let p = Int(parent[i])
                fine.x[i] = coarse.x[p] * grow + (rng.nextFloat() - 0.5) * jitter
                fine.y[i] = coarse.y[p] * grow + (rng.nextFloat() - 0.5) * jitter
            }
            let iterations = index == 1 ? options.finestIterations : options.levelIterations
            try relax(&fine, iterations: iterations, firstStep: options.edgeLength * 0.5, isCancelled: isCancelled)
            levels[index - 1] = fine
            levels.removeLast()
            index -= 1
        }
        return finish(levels[0].points, finest)
    }

    private func finish(_ points: [SIMD2<Float>], _ finest: ForceLayoutLevel) -> [SIMD2<Float>] {
        guard options.ringLeaves else { return points }
        var points = points
        Self.ringLeaves(&points, level: finest, edgeLength: options.edgeLength)
        return points
    }

    /// Hu's iteration with adaptive step length on one level.
    private func relax(_ level: inout ForceLayoutLevel, iterations: Int, firstStep: Float,
                       isCancelled: () -> Bool) throws {
        let n = level.count
        guard n > 1 else { return }
        let k = options.edgeLength
        let repulsion = options.repulsion * k * k
        // g times the repulsion of all n nodes at the radius of a drawing of n nodes, K·√n.
        let gravity = options.gravity * repulsion * Float(n).squareRoot() / k
        let thetaSquared = options.theta * options.theta
        var tree = ForceLayoutQuadTree()
        var fx = ContiguousArray<Float>(repeating: 0, count: n)
        var fy = ContiguousArray<Float>(repeating: 0, count: n)
        var step = firstStep
        var energy = Float.infinity
        var progress = 0
        let chunks = n < 2_000 ? 1 : max(1, options.threads)
        for _ in 0..<iterations {
            if isCancelled() { throw Failure.cancelled }
            tree.build(x: level.x, y: level.y)
            var cx: Float = 0, cy: Float = 0
            for i in 0..<n { cx += level.x[i]; cy += level.y[i] }
            cx /= Float(n); cy /= Float(n)
            let centre = SIMD2(cx, cy)
            fx.withUnsafeMutableBufferPointer { fxp in
                fy.withUnsafeMutableBufferPointer { fyp in
                    let fxBase = UnsafeSendable(fxp), fyBase = UnsafeSendable(fyp)
                    level.withBuffers { b in
                        tree.withBuffers { t in
                            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                                let lo = n * chunk / chunks, hi = n * (chunk + 1) / chunks
                                for i in lo..<hi {
                                    let f = Self.force(on: i, b, t, repulsion: repulsion, k: k, thetaSquared: thetaSquared,
                                                       gravity: gravity, centre: centre)
                                    fxBase.value[i] = f.x
                                    fyBase.value[i] = f.y
                                }
                            }
                        }
                    }
                }
            }
            var newEnergy: Float = 0
            for i in 0..<n {
                let f2 = fx[i] * fx[i] + fy[i] * fy[i]
                newEnergy += f2
                if f2 > 0 {
                    let scale = step / f2.squareRoot()
                    level.x[i] += fx[i] * scale
                    level.y[i] += fy[i] * scale
                }
            }
            if newEnergy < energy {
                progress += 1
                if progress >= 5 { progress = 0; step /= 0.9 }
            } else {
                progress = 0
                step *= 0.9
            }
            energy = newEnergy
            if step < k * 0.005 { break }
        }
    }

    /// The force on node `i`: repulsion from the tree, attraction along its edges, gravity.
    @inline(__always)
    private static func force(on i: Int, _ b: ForceLayoutLevel.Buffers, _ t: ForceLayoutQuadTree.Buffers,
                              repulsion: Float, k: Float, thetaSquared: Float, gravity: Float,
                              centre: SIMD2<Float>) -> SIMD2<Float> {
        let xi = b.x[i], yi = b.y[i]
        var fx: Float = 0, fy: Float = 0
        var cell = 0
        let cells = t.skip.count
        while cell < cells {
            let count = Int(t.leafCount[cell])
            if count > 0 {
                let start = Int(t.leafStart[cell])
                for s in start..<(start + count) {
                    let j = Int(t.order[s])
                    if j == i { continue }
                    var dx = xi - b.x[j], dy = yi - b.y[j]
                    var d2 = dx * dx + dy * dy
                    if d2 < 1e-8 {
                        // Coincident nodes: a fixed push that depends on the pair only.
                        dx = Float((i &* 31 &+ j) % 7) - 3; dy = Float((j &* 17 &+ i) % 5) - 2
                        d2 = dx * dx + dy * dy + 1e-4
                        dx *= 1e-3; dy *= 1e-3; d2 *= 1e-6
                    }
                    let s2 = repulsion / d2
                    fx += dx * s2; fy += dy * s2
                }
                cell = Int(t.skip[cell])
                continue
            }
            let dx = xi - t.centreX[cell], dy = yi - t.centreY[cell]
            let d2 = dx * dx + dy * dy
            if t.widthSquared[cell] < thetaSquared * d2 {
                let s2 = repulsion * t.mass[cell] / d2
                fx += dx * s2; fy += dy * s2
                cell = Int(t.skip[cell])
            } else {
                cell += 1
            }
        }
        let lo = Int(b.offsets[i]), hi = Int(b.offsets[i + 1])
        for e in lo..<hi {
            let j = Int(b.neighbours[e])
            let dx = b.x[j] - xi, dy = b.y[j] - yi
            let d = (dx * dx + dy * dy).squareRoot()
            let s = b.weights[e] * d / k
            fx += dx * s; fy += dy * s
        }
        let gx = centre.x - xi, gy = centre.y - yi
        let gd = (gx * gx + gy * gy).squareRoot()
        if gd > 1e-6 {
            fx += gx / gd * gravity
            fy += gy / gd * gravity
        }
        return SIMD2(fx, fy)
    }
}

/// A buffer pointer handed to worker threads that each write their own range of it.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// SplitMix64 (Steele, Lea & Flood 2014): the layout's seeded random numbers.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A float in [0, 1).
    mutating func nextFloat() -> Float { Float(next() >> 40) / Float(1 << 24) }
}
