import Foundation
import GRDB
import LibraryCore

/// The core's kind of link (inside `MapGraph`, `EdgeKind` names the map's own).
typealias CoreEdgeKind = EdgeKind

extension MapGraph {
    /// The whole catalog as a map graph: the MusicGraph core's graph of the catalog (its band ↔
    /// member links included) without its tempo links — `album_of`, `song_of`, `performed_by`,
    /// `cover`, `identical`, `member_of`, each pair once. Nodes come in the core's order (kind,
    /// then id), so an unchanged catalog gives the same graph.
    public init(catalog: Catalog) throws {
        self.init(MusicGraph(try GraphSnapshot(catalog: catalog)))
    }

    /// The map graph of a music graph: its nodes in order, its links but tempo (the map's layout
    /// would be dominated by them: docs/graph.md). A link between two kinds of node runs from the
    /// lower kind (song → album → artist), as the map's text format writes it.
    public init(_ graph: MusicGraph) {
        self.init()
        for node in graph.nodes {
            let kind: NodeKind = switch node.kind {
            case .artist: .artist
            case .album: .album
            case .song: .song
            }
            addNode(kind, id: node.id)
        }
        let wanted: [(CoreEdgeKind, MapGraph.EdgeKind)] = [
            (.albumOf, .albumOf), (.songOf, .songOf), (.performedBy, .performedBy),
            (.cover, .cover), (.identical, .identical), (.memberOf, .memberOf),
        ]
        for edge in graph.edges(kinds: CoreEdgeKind.all & ~CoreEdgeKind.tempo.bit) {
            for (kind, mapKind) in wanted where edge.mask & kind.bit != 0 {
                // Structural links from the later node (a song before its album, an album before its artist).
                let structural = graph.nodes[Int(edge.a)].kind != graph.nodes[Int(edge.b)].kind
                if structural { addEdge(edge.b, edge.a, mapKind) } else { addEdge(edge.a, edge.b, mapKind) }
            }
        }
    }
}

/// Names of map nodes, read on demand (the map's binary answer carries none).
public enum MapNames {
    /// The name of each `KIND:ID` key that exists (artist name, album title, song title), in
    /// the order asked; unknown keys are left out.
    public static func names(of keys: [(MapGraph.NodeKind, Int64)], catalog: Catalog) throws -> [(MapGraph.NodeKind, Int64, String)] {
        var wanted: [MapGraph.NodeKind: [Int64]] = [:]
        for (kind, id) in keys { wanted[kind, default: []].append(id) }
        var found: [MapGraph.NodeKind: [Int64: String]] = [:]
        try catalog.database.pool.read { db in
            for (kind, ids) in wanted {
                let (table, column) = switch kind {
                case .artist: ("library_artist", "name")
                case .album: ("library_album", "title")
                case .song: ("library_song", "title")
                }
                let list = ids.map(String.init).joined(separator: ",")
                for row in try Row.fetchAll(db, sql: "SELECT id, \(column) FROM \(table) WHERE id IN (\(list))") {
                    found[kind, default: [:]][row[0]] = row[1]
                }
            }
        }
        return keys.compactMap { kind, id in found[kind]?[id].map { (kind, id, $0) } }
    }
}
