import Foundation
import Hummingbird
import LibraryCore
import MusicGraph

/// `/api/library/graph/*`: the music graph (docs/graph.md).
///
/// - `GET expand?node=KIND:ID[&edges=cover,identical,…]`: the node and its neighbours, each with
///   the link to it and the count of its links outside the answer (`more`);
/// - `GET walk?seed=song:ID&count=N[&variant=K]`: "play a path", songs as `/api/library/songs`
///   gives them.
enum GraphRoutes {
    /// A node of the answer: the graph's facts plus the URLs a page loads.
    struct NodeView: Encodable {
        let info: GraphNodeInfo
        /// An artist's MusicBrainz lookup state (``MemberLookupState/name``: "failed" is the
        /// page's "lookup failed — tap to retry"); nil for albums and songs.
        var lookup: String? = nil
        enum Keys: String, CodingKey { case coverURL, streamURL, lookup }
        func encode(to encoder: any Encoder) throws {
            try info.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(lookup, forKey: .lookup)
            switch info.kind {
            case .album where info.hasCover == true:
                try container.encode("/api/library/albums/\(info.id)/cover", forKey: .coverURL)
            case .song:
                if info.hasCover == true, let album = info.albumID {
                    try container.encode("/api/library/albums/\(album)/cover", forKey: .coverURL)
                }
                try container.encode("/api/library/songs/\(info.id)/stream", forKey: .streamURL)
            default:
                break
            }
        }
    }

    struct ExpansionView: Encodable {
        let node: NodeView
        let neighbours: [NodeView]
    }

    /// The longest path one walk may ask for.
    static let maxWalk = 500

    static func add(to api: RouterGroup<QuintetRequestContext>, library: LibraryService) {
        let graph = library.graph
        api.get("graph/expand") { request, _ -> Response in
            let fields = FormFields(request.uri.query)
            let node = try parseNode(fields.get("node"), name: "node")
            let kinds = try parseKinds(fields.get("edges"))
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                guard let answer = try graph.current().expand(node, kinds: kinds) else {
                    throw APIError(.notFound, message: "the library has no \(node.kind.rawValue) with id \(node.id)")
                }
                // An artist shown for the first time is looked up on MusicBrainz (queued, one
                // request a second); its state rides on the node.
                func view(_ info: GraphNodeInfo) throws -> NodeView {
                    guard info.kind == .artist else { return NodeView(info: info) }
                    var state = try library.members.state(artistID: info.id)
                    if case .notLookedUp = state {
                        library.members.request(artistID: info.id)
                        state = .pending
                    }
                    return NodeView(info: info, lookup: state.name)
                }
                return ExpansionView(node: try view(answer.node), neighbours: try answer.neighbours.map(view))
            })
        }
        api.get("graph/walk") { request, context -> Response in
            let user = try context.requireUser()
            let fields = FormFields(request.uri.query)
            let seed = try parseNode(fields.get("seed"), name: "seed", bare: .song)
            guard seed.kind == .song else {
                throw APIError(.badRequest, code: "invalid_input", message: "seed must be a song (song:ID), not a \(seed.kind.rawValue)")
            }
            let count = try LibraryRoutes.int(request, "count", default: 20, range: 1...maxWalk)
            let variant = try LibraryRoutes.int(request, "variant", default: 0, range: 0...Int(Int32.max))
            struct Walk: Encodable { let seed: String; let songs: [LibraryRoutes.SongView] }
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                let ids = try graph.current().walk(from: seed.id, count: count, variant: UInt64(variant))
                guard !ids.isEmpty else { throw APIError(.notFound, message: "the library has no song with id \(seed.id)") }
                return Walk(seed: seed.description,
                            songs: try ids.map { LibraryRoutes.SongView(try library.catalog.song(id: $0, userID: user.id)) })
            })
        }
    }

    /// `KIND:ID`, a Subsonic id, or (where `bare` is given) a bare number of that kind.
    static func parseNode(_ text: String?, name: String, bare: NodeKind? = nil) throws -> NodeRef {
        guard let text, !text.isEmpty else {
            throw APIError(.badRequest, code: "invalid_input", message: "\(name) is required: artist:ID, album:ID or song:ID")
        }
        if let bare, let number = Int64(text), number > 0 { return NodeRef(bare, number) }
        guard let node = NodeRef(parsing: text) else {
            throw APIError(.badRequest, code: "invalid_input",
                           message: "\(name) must be artist:ID, album:ID or song:ID (or ar-ID, al-ID, tr-ID), not '\(text.prefix(40))'")
        }
        return node
    }

    /// A comma-separated list of link kinds; every kind when absent.
    static func parseKinds(_ text: String?) throws -> UInt8 {
        guard let text, !text.isEmpty else { return EdgeKind.all }
        var mask: UInt8 = 0
        for part in text.split(separator: ",") {
            guard let kind = EdgeKind(rawValue: String(part)) else {
                throw APIError(.badRequest, code: "invalid_input",
                               message: "edges must list \(EdgeKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(part.prefix(40))'")
            }
            mask |= kind.bit
        }
        return mask
    }
}
