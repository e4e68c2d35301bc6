import Foundation
import GRDB
import LibraryCore

/// The whole-library map of a catalog: its graph laid out by `ForceLayout`, cached in the
/// database (`library_graph_map`, one row) as the binary block the server serves.
///
/// After a rescan the previous layout seeds the new one (`ForceLayout`'s incremental run):
/// nodes keep their places, new nodes start beside their neighbours.
///
/// ```swift
/// let map = LibraryMap(catalog: catalog)
/// try map.recompute()                 // blocking: call it off the async executor
/// let block = try map.cached()?.payload
/// ```
public struct LibraryMap: Sendable {
    public let catalog: Catalog
    public var options: ForceLayout.Options

    public init(catalog: Catalog, options: ForceLayout.Options = ForceLayout.Options()) {
        self.catalog = catalog
        self.options = options
    }

    /// The cached map and its facts.
    public struct Cached: Sendable {
        public var payload: [UInt8]
        public var nodes: Int
        public var edges: Int
        public var computedAt: Date
        public var seconds: Double
        public var incremental: Bool
        public var synthetic: Bool
    }

    /// The cached map, or nil if none was computed yet.
    public func cached() throws -> Cached? {
        try catalog.database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT payload, nodes, edges, computed_at, seconds, incremental, synthetic FROM library_graph_map WHERE id = 1")
                .map { row in
                    let data: Data = row[0]
                    return Cached(payload: [UInt8](data), nodes: row[1], edges: row[2],
                                  computedAt: Date(timeIntervalSince1970: row[3]), seconds: row[4], incremental: row[5], synthetic: row[6])
                }
        }
    }

    /// Lays out the catalog's graph now (incrementally from the cached map when there is one
    /// of the catalog) and stores it. Returns the stored facts.
    @discardableResult
    public func recompute(isCancelled: @Sendable () -> Bool = { false }) throws -> Cached {
        let graph = try MapGraph(catalog: catalog)
        var initial: [SIMD2<Float>]? = nil
        if let old = try cached(), !old.synthetic, let previous = try? MapPayload(decoding: old.payload) {
            var at: [String: SIMD2<Float>] = [:]
            at.reserveCapacity(previous.graph.nodeCount)
            for i in 0..<previous.graph.nodeCount { at[previous.graph.key(of: i)] = previous.points[i] }
            initial = (0..<graph.nodeCount).map { at[graph.key(of: $0)] ?? SIMD2(.nan, .nan) }
        }
        return try store(graph: graph, initial: initial, synthetic: false, isCancelled: isCancelled)
    }

    /// Lays out `graph` and stores it as the map (the synthetic import uses it directly).
    @discardableResult
    public func store(graph: MapGraph, initial: [SIMD2<Float>]? = nil, synthetic: Bool,
                      isCancelled: @Sendable () -> Bool = { false }) throws -> Cached {
        let start = Date()
        let layout = ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options)
        let points = try layout.run(initial: initial, isCancelled: isCancelled)
        let incremental = initial.map { i in i.filter { !$0.x.isNaN }.count * 4 >= graph.nodeCount * 3 } ?? false
        let payload = MapPayload(graph: graph, points: points, synthetic: synthetic, incremental: incremental && graph.nodeCount > 0)
        let seconds = Date().timeIntervalSince(start)
        let cached = Cached(payload: payload.encoded(), nodes: graph.nodeCount, edges: graph.edges.count, computedAt: Date(),
                            seconds: seconds, incremental: payload.incremental, synthetic: synthetic)
        try catalog.database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO library_graph_map (id, payload, nodes, edges, computed_at, seconds, incremental, synthetic)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET payload = excluded.payload,
                nodes = excluded.nodes, edges = excluded.edges, computed_at = excluded.computed_at,
                seconds = excluded.seconds, incremental = excluded.incremental, synthetic = excluded.synthetic
                """, arguments: [Data(cached.payload), cached.nodes, cached.edges, cached.computedAt.timeIntervalSince1970,
                                 cached.seconds, cached.incremental, cached.synthetic])
        }
        return cached
    }
}
