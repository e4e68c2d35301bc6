import Foundation

/// The whole-library map as `GET /api/library/graph/map` serves it: one little-endian binary
/// block that a page turns into typed arrays without parsing (every array starts on a 4-byte
/// boundary).
///
/// | offset | type | what |
/// |---|---|---|
/// | 0 | 4 bytes | magic `QGM1` |
/// | 4 | UInt32 | flags: bit 0 synthetic (not the catalog's graph), bit 1 incremental layout |
/// | 8 | UInt32 | N, the node count |
/// | 12 | UInt32 | E, the edge count |
/// | 16 | 4 × Float32 | bounds: min x, min y, max x, max y |
/// | 32 | 2N × Float32 | positions x₀ y₀ x₁ y₁ … |
/// | 32 + 8N | N × UInt32 | catalog ids |
/// | 32 + 12N | N × UInt8 | kinds (0 artist, 1 album, 2 song), padded with zeros to a multiple of 4 |
/// | P | 2E × UInt32 | edges as node index pairs |
/// | P + 8E | E × UInt8 | edge kinds (`MapGraph.EdgeKind`), padded to a multiple of 4 |
public struct MapPayload: Sendable, Equatable {
    public static let magic: [UInt8] = Array("QGM1".utf8)
    public var graph: MapGraph
    public var points: [SIMD2<Float>]
    public var synthetic = false
    public var incremental = false

    public init(graph: MapGraph, points: [SIMD2<Float>], synthetic: Bool = false, incremental: Bool = false) {
        self.graph = graph
        self.points = points
        self.synthetic = synthetic
        self.incremental = incremental
    }

    /// The encoded block.
    public func encoded() -> [UInt8] {
        let n = graph.nodeCount, e = graph.edges.count
        var out: [UInt8] = []
        out.reserveCapacity(32 + 13 * n + 9 * e + 8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func f32(_ v: Float) { u32(v.bitPattern) }
        func pad() { while out.count % 4 != 0 { out.append(0) } }
        out.append(contentsOf: Self.magic)
        u32((synthetic ? 1 : 0) | (incremental ? 2 : 0))
        u32(UInt32(n)); u32(UInt32(e))
        var lo = SIMD2<Float>(0, 0), hi = SIMD2<Float>(0, 0)
        if let first = points.first {
            lo = first; hi = first
            for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        }
        f32(lo.x); f32(lo.y); f32(hi.x); f32(hi.y)
        for p in points { f32(p.x); f32(p.y) }
        for id in graph.ids { u32(UInt32(clamping: id)) }
        for kind in graph.kinds { out.append(kind.rawValue) }
        pad()
        for (a, b) in graph.edges { u32(UInt32(a)); u32(UInt32(b)) }
        for kind in graph.edgeKinds { out.append(kind.rawValue) }
        pad()
        return out
    }

    /// What decoding a damaged block throws.
    public struct DecodingError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Decodes `encoded()`'s block.
    public init(decoding bytes: [UInt8]) throws {
        func u32(_ at: Int) throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw DecodingError(description: "the map block is cut at byte \(at)") }
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        guard bytes.count >= 32, Array(bytes[0..<4]) == Self.magic else {
            throw DecodingError(description: "not a map block (no QGM1 header)")
        }
        let flags = try u32(4)
        let n = Int(try u32(8)), e = Int(try u32(12))
        let kindsEnd = 32 + 13 * n
        let edgesAt = (kindsEnd + 3) / 4 * 4
        guard bytes.count >= edgesAt + 9 * e else { throw DecodingError(description: "the map block is shorter than its counts") }
        var graph = MapGraph()
        var points: [SIMD2<Float>] = []
        points.reserveCapacity(n)
        for i in 0..<n {
            points.append(SIMD2(Float(bitPattern: try u32(32 + 8 * i)), Float(bitPattern: try u32(36 + 8 * i))))
        }
        for i in 0..<n {
            guard let kind = MapGraph.NodeKind(rawValue: bytes[32 + 12 * n + i]) else {
                throw DecodingError(description: "node \(i) has an unknown kind")
            }
            graph.addNode(kind, id: Int64(try u32(32 + 8 * n + 4 * i)))
        }
        for j in 0..<e {
            let a = try u32(edgesAt + 8 * j), b = try u32(edgesAt + 8 * j + 4)
            guard a < n, b < n, let kind = MapGraph.EdgeKind(rawValue: bytes[edgesAt + 8 * e + j]) else {
                throw DecodingError(description: "edge \(j) is out of range")
            }
            graph.addEdge(Int32(a), Int32(b), kind)
        }
        self.init(graph: graph, points: points, synthetic: flags & 1 != 0, incremental: flags & 2 != 0)
    }
}
