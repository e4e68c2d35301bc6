import ArgumentParser
import Foundation
import LibraryCore
import MusicGraph

/// `quintet library …`: the catalog's graph from the command line (docs/graph.md). Its
/// subcommands read the data folder's catalog (`quintet scan` or a server filled it).
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "The music library's graph: expand a node, walk a path; band ↔ member relations.",
        subcommands: [GraphCommand.self, LibraryMembersCommand.self]
    )

    /// `quintet library graph …`
    struct GraphCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "graph",
            abstract: "The music graph of the catalog (artists, albums, songs and their links) and the whole-library map.",
            subcommands: [Expand.self, Walk.self, LibraryGraphCommand.Export.self, LibraryGraphCommand.Synthetic.self,
                          LibraryGraphCommand.Layout.self, LibraryGraphCommand.Compute.self,
                          LibraryGraphCommand.ImportSynthetic.self]
        )
    }

    /// The catalog's graph, built as the server builds it.
    static func graph(_ options: DataOptions) throws -> (MusicGraph, Catalog) {
        let database = try options.openDatabase()
        let catalog = Catalog(database: database)
        return (MusicGraph(try GraphSnapshot(catalog: catalog)), catalog)
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    struct Expand: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A node and its neighbours (what GET /api/library/graph/expand answers).",
            discussion: """
            NODE is KIND:ID (artist:3, album:5, song:12) or a Subsonic id (ar-3, al-5, tr-12). \
            Prints one line per neighbour (link, kind:id, name, links it still hides), or the JSON \
            answer with --json.
            """
        )
        @Argument(help: "The node: artist:ID, album:ID or song:ID.") var node: String
        @Option(help: "Only these kinds of link, comma-separated (song_of, album_of, performed_by, member_of, identical, cover, tempo).")
        var edges: String?
        @Flag(help: "Print the JSON answer.") var json = false
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            guard let ref = NodeRef(parsing: node) else {
                throw ValidationError("NODE must be artist:ID, album:ID or song:ID (or ar-ID, al-ID, tr-ID), not '\(node.prefix(40))'")
            }
            var mask = EdgeKind.all
            if let edges {
                mask = 0
                for part in edges.split(separator: ",") {
                    guard let kind = EdgeKind(rawValue: String(part)) else {
                        throw ValidationError("unknown kind of link '\(part.prefix(40))'")
                    }
                    mask |= kind.bit
                }
            }
            let (graph, _) = try LibraryCommand.graph(dataOptions)
            guard let answer = graph.expand(ref, kinds: mask) else {
                throw ValidationError("the catalog has no \(ref.kind.rawValue) with id \(ref.id)")
            }
            if json { return try LibraryCommand.printJSON(answer) }
            print("\(ref) \(answer.node.name) — \(answer.node.links) links")
            for n in answer.neighbours {
                let more = n.more.map { $0 > 0 ? " (+\($0) more)" : "" } ?? ""
                print("  \(n.edge!.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(n.kind.rawValue):\(n.id) \(n.name)\(more)")
            }
        }
    }

    struct Walk: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a path: a walk over the graph from a song (what GET /api/library/graph/walk answers).",
            discussion: "Never repeats a song or a copy of a recording; keeps the tempo where it can (docs/graph.md)."
        )
        @Argument(help: "The seed song: song:ID, tr-ID or ID.") var seed: String
        @Option(help: "Songs in the path, the seed included (1–500).") var count = 20
        @Option(help: "Another number gives another path among equally good ones.") var variant: UInt64 = 0
        @Flag(help: "Print JSON: {\"songs\": [{id, title, artist, bpm}]}.") var json = false
        @OptionGroup var dataOptions: DataOptions

        func validate() throws {
            guard (1...500).contains(count) else { throw ValidationError("--count must be from 1 to 500") }
        }

        func run() throws {
            let ref = Int64(seed).flatMap { $0 > 0 ? NodeRef(.song, $0) : nil } ?? NodeRef(parsing: seed)
            guard let ref, ref.kind == .song else {
                throw ValidationError("SEED must be a song: song:ID, tr-ID or ID, not '\(seed.prefix(40))'")
            }
            let (graph, _) = try LibraryCommand.graph(dataOptions)
            let ids = graph.walk(from: ref.id, count: count, variant: variant)
            guard !ids.isEmpty else { throw ValidationError("the catalog has no song with id \(ref.id)") }
            struct Line: Encodable { let id: Int64; let title: String; let artist: String; let bpm: Double? }
            let lines = ids.compactMap { id in graph.song(id).map { Line(id: id, title: $0.title, artist: $0.artist, bpm: $0.bpm) } }
            if json {
                struct Out: Encodable { let songs: [Line] }
                return try LibraryCommand.printJSON(Out(songs: lines))
            }
            for (i, line) in lines.enumerated() {
                let bpm = line.bpm.map { String(format: " %.0f BPM", $0) } ?? ""
                print("\(i + 1). song:\(line.id) \(line.title) — \(line.artist)\(bpm)")
            }
        }
    }
}
