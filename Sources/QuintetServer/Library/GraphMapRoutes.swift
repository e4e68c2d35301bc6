import Foundation
import Hummingbird
import LibraryCore
import MusicGraph

/// The whole-library map (docs/graph.md, "Whole-library map"):
///
/// - `GET /api/library/graph/map`: the cached layout as one binary block (`MapPayload`,
///   `application/octet-stream`); 503 `map_not_ready` while the first layout is computed.
///   `ETag` is the layout's time, so a page that asks again with `If-None-Match` gets a 304.
/// - `GET /api/library/graph/map/status`: `{computing, ready, nodes, edges, computed_at,
///   seconds, incremental, synthetic, failure}`.
/// - `GET /api/library/graph/names?nodes=artist:3,song:12`: names on demand (up to 500 keys):
///   `{"names": [{"node": "artist:3", "name": "…"}]}`, unknown nodes left out.
enum GraphMapRoutes {
    static let maxNames = 500

    static func add(to api: RouterGroup<QuintetRequestContext>, library: LibraryService) {
        let map = library.map
        api.get("graph/map") { request, _ -> Response in
            guard let cached = try await LibraryRoutes.catalogWork({ try map.cached() }) else {
                var error = APIError(.serviceUnavailable, code: "map_not_ready",
                                     message: "the library map is being laid out; ask again in a few seconds")
                error.headers = [.retryAfter: "2"]
                throw error
            }
            let tag = "\"map-\(Int64(cached.computedAt.timeIntervalSince1970 * 1000))\""
            var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache"]
            if request.headers[.ifNoneMatch] == tag {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/octet-stream"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: cached.payload)))
        }
        api.get("graph/map/status") { _, _ -> Response in
            struct Status: Encodable {
                let computing: Bool, ready: Bool, nodes: Int?, edges: Int?, computedAt: Date?, seconds: Double?
                let incremental: Bool?, synthetic: Bool?, failure: String?
            }
            let cached = try await LibraryRoutes.catalogWork { try map.cached() }
            let state = library.mapStatus()
            return try APIJSON.response(Status(computing: state.computing, ready: cached != nil, nodes: cached?.nodes,
                                               edges: cached?.edges, computedAt: cached?.computedAt, seconds: cached?.seconds,
                                               incremental: cached?.incremental, synthetic: cached?.synthetic,
                                               failure: state.failure))
        }
        api.get("graph/names") { request, _ -> Response in
            let keys = try parseNodes(FormFields(request.uri.query).get("nodes") ?? "")
            struct Name: Encodable { let node: String; let name: String }
            struct Names: Encodable { let names: [Name] }
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                Names(names: try MapNames.names(of: keys, catalog: library.catalog)
                    .map { Name(node: "\($0.0.name):\($0.1)", name: $0.2) })
            })
        }
    }

    /// `artist:3,album:5,song:12` as (kind, id) pairs; a 400 names the first bad key.
    static func parseNodes(_ text: String) throws -> [(MapGraph.NodeKind, Int64)] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: true)
        guard !parts.isEmpty, parts.count <= maxNames else {
            var error = APIError(.badRequest, code: "invalid_input",
                                 message: "nodes must list 1 to \(maxNames) keys KIND:ID (artist, album or song), e.g. nodes=artist:3,song:12")
            error.field = "nodes"
            throw error
        }
        return try parts.map { part in
            let pieces = part.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2, let kind = MapGraph.NodeKind.allCases.first(where: { $0.name == pieces[0] }),
                  let id = Int64(pieces[1]), id > 0 else {
                var error = APIError(.badRequest, code: "invalid_input",
                                     message: "'\(part.prefix(40))' is not a node key KIND:ID with KIND artist, album or song")
                error.field = "nodes"
                throw error
            }
            return (kind, id)
        }
    }
}
