import Foundation
import Testing
@testable import MusicGraph

/// The force layout: what it promises (deterministic, finite, neighbours near each other,
/// incremental runs keep the old places, bad edges refused), on small generated graphs.
struct ForceLayoutTests {
    /// A 20 × 20 grid graph.
    static func grid(_ side: Int) -> (Int, [(Int32, Int32)]) {
        var edges: [(Int32, Int32)] = []
        for r in 0..<side {
            for c in 0..<side {
                let v = Int32(r * side + c)
                if c + 1 < side { edges.append((v, v + 1)) }
                if r + 1 < side { edges.append((v, v + Int32(side))) }
            }
        }
        return (side * side, edges)
    }

    /// Share of each node's graph neighbours among its `degree` nearest nodes (brute force).
    static func preservation(_ points: [SIMD2<Float>], _ n: Int, _ edges: [(Int32, Int32)]) -> Double {
        var neighbours = [Set<Int>](repeating: [], count: n)
        for (a, b) in edges where a != b { neighbours[Int(a)].insert(Int(b)); neighbours[Int(b)].insert(Int(a)) }
        var total = 0.0, counted = 0
        var distances = [Float](repeating: 0, count: n)
        for i in 0..<n where !neighbours[i].isEmpty {
            let k = neighbours[i].count
            for j in 0..<n { let d = points[j] - points[i]; distances[j] = (d * d).sum() }
            distances[i] = .infinity
            // The k nearest by repeated selection (k is small: a song's 1–3, an album's songs).
            var hits = 0
            for _ in 0..<k {
                var best = 0
                for j in 1..<n where distances[j] < distances[best] { best = j }
                if neighbours[i].contains(best) { hits += 1 }
                distances[best] = .infinity
            }
            total += Double(hits) / Double(k)
            counted += 1
        }
        return total / Double(counted)
    }

    @Test func aGridComesOutAsAGridWithoutThePullToTheCentre() throws {
        let (n, edges) = Self.grid(20)
        var options = ForceLayout.Options()
        options.gravity = 0
        let points = try ForceLayout(nodeCount: n, edges: edges, options: options).run()
        #expect(points.count == n)
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        // A random placement scores about k/n ≈ 0.01; a drawn grid keeps most neighbours nearest.
        #expect(Self.preservation(points, n, edges) > 0.8)
    }

    @Test func aCatalogKeepsLinkedNodesClose() throws {
        let graph = MapGraph.synthetic(songs: 800, seed: 2)
        let points = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges).run()
        func distance(_ a: Int, _ b: Int) -> Float { let d = points[a] - points[b]; return (d * d).sum().squareRoot() }
        let linked = graph.edges.map { distance(Int($0.0), Int($0.1)) }.sorted()
        var rng = SystemRandomNumberGenerator()
        let pairs = (0..<2_000).map { _ in distance(Int.random(in: 0..<graph.nodeCount, using: &rng),
                                                    Int.random(in: 0..<graph.nodeCount, using: &rng)) }.sorted()
        // The median link is a small fraction of the median distance between any two nodes.
        #expect(linked[linked.count / 2] < pairs[pairs.count / 2] * 0.15)
        // And the quality figure of `make bench-graph` is far above a random placement's (≈ 0.001).
        #expect(Self.preservation(points, graph.nodeCount, graph.edges) > 0.03)
    }

    @Test func theSameInputAndSeedGiveTheSamePositions() throws {
        let graph = MapGraph.synthetic(songs: 3_000, seed: 7)
        var options = ForceLayout.Options()
        options.threads = 2
        let a = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options).run()
        let b = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options).run()
        #expect(a == b)
        options.seed = 99
        let c = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options).run()
        #expect(a != c)
    }

    @Test func anIncrementalRunKeepsTheOldPlacesAndPutsNewNodesByTheirNeighbours() throws {
        let (n, edges) = Self.grid(20)
        let before = try ForceLayout(nodeCount: n, edges: edges).run()
        // A new node hanging off node 0 and one off node 399; everything else as before.
        let grown = edges + [(Int32(n), 0), (Int32(n + 1), Int32(n - 1))]
        let initial = before + [SIMD2(.nan, .nan), SIMD2(.nan, .nan)]
        let after = try ForceLayout(nodeCount: n + 2, edges: grown).run(initial: initial)
        let spread = (before.map(\.x).max()! - before.map(\.x).min()!)
        var moved: Float = 0
        for i in 0..<n { let d = after[i] - before[i]; moved += (d * d).sum().squareRoot() }
        #expect(moved / Float(n) < spread * 0.1, "old nodes stay near their places")
        for (new, anchor) in [(n, 0), (n + 1, n - 1)] {
            let d = after[new] - after[anchor]
            #expect((d * d).sum().squareRoot() < spread * 0.15, "node \(new) sits by its neighbour")
        }
    }

    @Test func songsHangingFromOneAlbumRingTheirAlbum() throws {
        // An artist (0) with three albums (1, 2, 3) of 12, 5 and 1 songs; a song of album 1 is
        // also linked to album 2 (a compilation), so it is no leaf; 21 and 22 are a pair alone.
        var edges: [(Int32, Int32)] = [(1, 0), (2, 0), (3, 0)]
        var next: Int32 = 4
        var songsOf: [Int32: [Int32]] = [:]
        for (album, songs) in [(Int32(1), 12), (2, 5), (3, 1)] {
            for _ in 0..<songs { edges.append((next, album)); songsOf[album, default: []].append(next); next += 1 }
        }
        edges.append((4, 2))
        edges.append((next, next + 1))
        let n = Int(next) + 2
        let points = try ForceLayout(nodeCount: n, edges: edges).run()
        func distance(_ a: Int32, _ b: Int32) -> Float { let d = points[Int(a)] - points[Int(b)]; return (d * d).sum().squareRoot() }
        let hubs: [Int32] = [0, 1, 2, 3, 4, next, next + 1]
        for (album, songs) in songsOf {
            let leaves = songs.filter { $0 != 4 }
            let nearestHub = hubs.filter { $0 != album }.map { distance(album, $0) }.min()!
            let radii = leaves.map { distance($0, album) }
            // The flower keeps within 0.45 of the way to the nearest other hub.
            #expect(radii.max()! <= nearestHub * ForceLayout.flowerShare * 1.001, "album \(album)")
            // Rings: 5 leaves on the first, the rest on the second at twice the radius.
            let rho = radii.min()!
            #expect(radii.filter { abs($0 - rho) < rho * 0.01 }.count == min(5, leaves.count), "album \(album)")
            #expect(radii.allSatisfy { abs($0 - rho) < rho * 0.01 || abs($0 - 2 * rho) < rho * 0.01 }, "album \(album)")
            // Each first-ring leaf is nearer its album than any other node.
            for leaf in leaves where abs(distance(leaf, album) - rho) < rho * 0.01 {
                let others = (0..<Int32(n)).filter { $0 != leaf && $0 != album }.map { distance(leaf, $0) }
                #expect(distance(leaf, album) < others.min()!, "song \(leaf) of album \(album)")
            }
        }
        // The song on two albums and the pair alone are not moved onto rings.
        var options = ForceLayout.Options()
        options.ringLeaves = false
        let unringed = try ForceLayout(nodeCount: n, edges: edges, options: options).run()
        for i in [4, Int(next), Int(next) + 1] { #expect(points[i] == unringed[i], "node \(i)") }
        #expect(points[5] != unringed[5])
    }

    @Test func ringsRaiseTheQualityFigureOnACatalog() throws {
        let graph = MapGraph.synthetic(songs: 2_000, seed: 3)
        var options = ForceLayout.Options()
        let ringed = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options).run()
        options.ringLeaves = false
        let loose = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options).run()
        let q1 = Self.preservation(ringed, graph.nodeCount, graph.edges)
        let q0 = Self.preservation(loose, graph.nodeCount, graph.edges)
        #expect(q1 > q0 * 3, "ringed \(q1), loose \(q0)")
    }

    @Test func edgesOutsideTheGraphAreRefused() {
        #expect(throws: ForceLayout.Failure.edgeOutOfRange(index: 1, node: 5)) {
            try ForceLayout(nodeCount: 3, edges: [(0, 1), (1, 5)]).run()
        }
        #expect(throws: ForceLayout.Failure.edgeOutOfRange(index: 0, node: -1)) {
            try ForceLayout(nodeCount: 3, edges: [(-1, 1)]).run()
        }
    }

    @Test func smallAndDegenerateGraphs() throws {
        #expect(try ForceLayout(nodeCount: 0, edges: []).run().isEmpty)
        #expect(try ForceLayout(nodeCount: 1, edges: []).run().count == 1)
        // Loops, repeats and nodes without edges: finite positions, all distinct.
        let points = try ForceLayout(nodeCount: 5, edges: [(0, 0), (0, 1), (1, 0), (0, 1)]).run()
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        #expect(Set(points.map { "\($0.x),\($0.y)" }).count == 5)
    }

    @Test func aStopIsHonoured() {
        let graph = MapGraph.synthetic(songs: 2_000)
        #expect(throws: ForceLayout.Failure.cancelled) {
            try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges).run(isCancelled: { true })
        }
    }
}
