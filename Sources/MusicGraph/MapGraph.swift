import Foundation

/// The graph the whole-library map lays out: artist, album and song nodes with dense indices,
/// and typed edges between them. Tempo-neighbour edges are left out on purpose: they join
/// songs of every artist that share a BPM into large cliques, which would pull the map into
/// tempo bands instead of artists and albums (and cost O(n²) edges at a popular tempo).
///
/// ```swift
/// let graph = try MapGraph(catalog: catalog)      // MapGraph+Catalog.swift
/// let points = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges).run()
/// ```
public struct MapGraph: Sendable, Equatable {
    public enum NodeKind: UInt8, Sendable, CaseIterable {
        case artist = 0, album = 1, song = 2
        public var name: String { ["artist", "album", "song"][Int(rawValue)] }
        /// One letter of the text file format.
        var letter: Character { ["a", "l", "s"][Int(rawValue)] }
    }

    /// The kinds of the graph that the map draws (no tempo: see the type's comment).
    public enum EdgeKind: UInt8, Sendable, CaseIterable {
        case albumOf = 0, songOf = 1, performedBy = 2, cover = 3, identical = 4, memberOf = 5
        public var name: String { ["album_of", "song_of", "performed_by", "cover", "identical", "member_of"][Int(rawValue)] }
    }

    public var kinds: [NodeKind] = []
    /// The catalog id of each node (the `/api` id of its kind).
    public var ids: [Int64] = []
    public var edges: [(Int32, Int32)] = []
    public var edgeKinds: [EdgeKind] = []

    public var nodeCount: Int { kinds.count }

    public init() {}

    public static func == (a: MapGraph, b: MapGraph) -> Bool {
        a.kinds == b.kinds && a.ids == b.ids && a.edgeKinds == b.edgeKinds
            && a.edges.elementsEqual(b.edges, by: { $0 == $1 })
    }

    /// Adds a node and returns its index.
    @discardableResult
    public mutating func addNode(_ kind: NodeKind, id: Int64) -> Int32 {
        kinds.append(kind)
        ids.append(id)
        return Int32(kinds.count - 1)
    }

    public mutating func addEdge(_ a: Int32, _ b: Int32, _ kind: EdgeKind) {
        edges.append((a, b))
        edgeKinds.append(kind)
    }

    /// A node's key as the API writes it, `KIND:ID` (e.g. `song:12`).
    public func key(of node: Int) -> String { "\(kinds[node].name):\(ids[node])" }
}

// MARK: text file

extension MapGraph {
    /// What reading a graph file can throw.
    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The graph as text, the format `quintet library graph layout --edges` reads:
    ///
    ///     quintet-graph 1
    ///     NODES EDGES
    ///     KIND ID            (NODES lines; KIND a = artist, l = album, s = song)
    ///     A B EDGEKIND       (EDGES lines; node indices from 0, EDGEKIND a number of EdgeKind)
    public func text() -> String {
        var out = "quintet-graph 1\n\(nodeCount) \(edges.count)\n"
        out.reserveCapacity(nodeCount * 10 + edges.count * 16)
        for i in 0..<nodeCount { out += "\(kinds[i].letter) \(ids[i])\n" }
        for (e, edge) in edges.enumerated() { out += "\(edge.0) \(edge.1) \(edgeKinds[e].rawValue)\n" }
        return out
    }

    /// Parses `text()`'s format; a clear error names the first bad line.
    public init(text: String) throws {
        self.init()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var number = 0
        func next() throws -> [Substring] {
            guard let line = lines.next() else { throw FormatError(description: "the graph file ends early (line \(number + 1))") }
            number += 1
            return line.split(separator: " ")
        }
        guard try next() == ["quintet-graph", "1"] else {
            throw FormatError(description: "line 1: not a quintet graph file (expected 'quintet-graph 1')")
        }
        let counts = try next()
        guard counts.count == 2, let nodes = Int(counts[0]), let edgeCount = Int(counts[1]), nodes >= 0, edgeCount >= 0,
              nodes < Int(Int32.max) else {
            throw FormatError(description: "line 2: expected 'NODES EDGES'")
        }
        kinds.reserveCapacity(nodes); ids.reserveCapacity(nodes)
        edges.reserveCapacity(edgeCount); edgeKinds.reserveCapacity(edgeCount)
        for _ in 0..<nodes {
            let f = try next()
            guard f.count == 2, let kind = NodeKind.allCases.first(where: { String($0.letter) == f[0] }), let id = Int64(f[1]) else {
                throw FormatError(description: "line \(number): expected 'KIND ID' with KIND one of a, l, s")
            }
            addNode(kind, id: id)
        }
        for _ in 0..<edgeCount {
            let f = try next()
            guard f.count == 3, let a = Int32(f[0]), let b = Int32(f[1]), let k = UInt8(f[2]), let kind = EdgeKind(rawValue: k),
                  a >= 0, b >= 0, Int(a) < nodes, Int(b) < nodes else {
                throw FormatError(description: "line \(number): expected 'A B KIND' with nodes below \(nodes) and KIND 0…5")
            }
            addEdge(a, b, kind)
        }
    }
}
