import Foundation
import GRDB
import LibraryCore
import QuintetStore
import Testing
@testable import MusicGraph

/// The map's graph: from the catalog, the text file, the synthetic generator and the binary block.
struct MapGraphTests {
    static func catalog() throws -> Catalog {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-map-\(UUID().uuidString)")
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        CatalogSchema.registerMigrations(in: &registry)
        return Catalog(database: try QuintetDatabase.open(in: data, migrations: registry))
    }

    @Test func theCatalogGraphHasEveryLinkOnce() throws {
        let catalog = try Self.catalog()
        // fillForBenchmark: every album belongs to "Benchmark Label"; songs credit their own artists.
        try catalog.fillForBenchmark([
            .init(id: 0, title: "Glass", artists: ["Ann"], composers: ["Cole"], albumID: 1, duration: 200),
            .init(id: 1, title: "Glass", artists: ["Ann"], composers: ["Cole"], albumID: 2, duration: 201),   // identical of 0
            .init(id: 2, title: "Glass", artists: ["Bob"], composers: ["Cole"], albumID: 2, duration: 180),   // cover of 0 and 1
            .init(id: 3, title: "Other", artists: ["Benchmark Label"], composers: [], albumID: 1, duration: 100),
        ])
        let graph = try MapGraph(catalog: catalog)
        let names = try catalog.database.pool.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, name FROM library_artist").map { ($0[0] as Int64, $0[1] as String) })
        }
        #expect(graph.kinds.filter { $0 == .artist }.count == 3)
        #expect(graph.kinds.filter { $0 == .album }.count == 2)
        #expect(graph.kinds.filter { $0 == .song }.count == 4)
        func label(_ node: Int32) -> String {
            let i = Int(node)
            return graph.kinds[i] == .artist ? names[graph.ids[i]]! : graph.key(of: i)
        }
        let edges = Set(zip(graph.edges, graph.edgeKinds).map { "\(label($0.0.0))-\(label($0.0.1)) \($0.1.name)" })
        #expect(edges == [
            "album:1-Benchmark Label album_of", "album:2-Benchmark Label album_of",
            "song:1-album:1 song_of", "song:2-album:2 song_of", "song:3-album:2 song_of", "song:4-album:1 song_of",
            "song:1-Ann performed_by", "song:2-Ann performed_by", "song:3-Bob performed_by",
            "song:1-song:2 identical", "song:1-song:3 cover", "song:2-song:3 cover",
        ])
    }

    @Test func theTextFormatRoundTripsAndNamesBadLines() throws {
        let graph = MapGraph.synthetic(songs: 500, seed: 3)
        #expect(try MapGraph(text: graph.text()) == graph)
        #expect(throws: MapGraph.FormatError.self) { try MapGraph(text: "quintet-graph 1\n2 1\na 1\ns 2\n0 2 1\n") }
        #expect(throws: MapGraph.FormatError.self) { try MapGraph(text: "graph G {}") }
        #expect(throws: MapGraph.FormatError.self) { try MapGraph(text: "quintet-graph 1\n3 0\na 1\n") }
    }

    @Test func theSyntheticCatalogIsSeededAndHasEveryKindOfLink() {
        let a = MapGraph.synthetic(songs: 20_000, seed: 1)
        #expect(a == MapGraph.synthetic(songs: 20_000, seed: 1))
        #expect(a != MapGraph.synthetic(songs: 20_000, seed: 2))
        #expect(a.kinds.filter { $0 == .song }.count == 20_000)
        let counts = Dictionary(grouping: a.edgeKinds, by: { $0 }).mapValues(\.count)
        #expect(counts[.songOf] == 20_000)
        for kind in [MapGraph.EdgeKind.albumOf, .performedBy, .cover, .identical, .memberOf] {
            #expect((counts[kind] ?? 0) > 0, "\(kind.name) links")
        }
        #expect((counts[.cover] ?? 0) > 300 && (counts[.cover] ?? 0) < 900)   // about 3 % of songs
    }

    @Test func theBinaryBlockRoundTripsWithAlignedArrays() throws {
        let graph = MapGraph.synthetic(songs: 301, seed: 5)
        let points = (0..<graph.nodeCount).map { SIMD2(Float($0), -Float($0) / 2) }
        let payload = MapPayload(graph: graph, points: points, synthetic: true, incremental: false)
        let bytes = payload.encoded()
        #expect(Array(bytes[0..<4]) == Array("QGM1".utf8))
        #expect(bytes.count % 4 == 0)
        #expect(try MapPayload(decoding: bytes) == payload)
        #expect(throws: MapPayload.DecodingError.self) { try MapPayload(decoding: Array(bytes.prefix(bytes.count - 8))) }
        #expect(throws: MapPayload.DecodingError.self) { try MapPayload(decoding: [UInt8](repeating: 0, count: 64)) }
    }

    @Test func theMapIsCachedAndARecomputeStartsFromTheOldPlaces() throws {
        let catalog = try Self.catalog()
        try catalog.fillForBenchmark((0..<60).map {
            .init(id: Int64($0), title: "Song \($0)", artists: ["Artist \($0 % 4)"], composers: [], albumID: Int64($0 / 10), duration: 100)
        })
        let map = LibraryMap(catalog: catalog)
        #expect(try map.cached() == nil)
        let first = try map.recompute()
        #expect(!first.incremental && first.nodes == 1 + 4 + 6 + 60)
        let again = try map.recompute()
        #expect(again.incremental)
        let a = try MapPayload(decoding: first.payload), b = try MapPayload(decoding: again.payload)
        #expect(a.graph == b.graph)
        var moved: Float = 0
        for (p, q) in zip(a.points, b.points) { let d = p - q; moved = max(moved, (d * d).sum().squareRoot()) }
        let span = a.points.map(\.x).max()! - a.points.map(\.x).min()!
        #expect(moved < span * 0.5)
        #expect(try map.cached()?.payload == again.payload)
    }
}
