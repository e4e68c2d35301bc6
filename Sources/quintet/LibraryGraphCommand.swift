import ArgumentParser
import Foundation
import LibraryCore
import MusicGraph

/// The whole-library map's subcommands of `quintet library graph` (LibraryCommand.swift lists
/// them beside expand and walk): the map's graph and layout from the command line (the same core
/// functions `quintet serve` uses; `make bench-graph` times `layout`).
enum LibraryGraphCommand {
    /// `quintet library graph export --data DIR --out FILE`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the catalog's map graph (artists, albums, songs and their links) as a graph file.",
            discussion: "The format is in docs/graph.md (\"Whole-library map\"): 'quintet-graph 1', counts, one node per line, one edge per line.")
        @OptionGroup var dataOptions: DataOptions
        @Option(help: "The graph file to write (- for standard output).") var out: String

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            try write(try MapGraph(catalog: Catalog(database: database)).text(), to: out)
        }
    }

    /// `quintet library graph synthetic --songs N --seed S --out FILE`.
    struct Synthetic: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the graph of a seeded synthetic catalog (artists, albums, songs, covers, identical recordings, members).")
        @Option(help: "Songs in the catalog.") var songs: Int = 100_000
        @Option(help: "The generator's seed.") var seed: UInt64 = 1
        @Option(help: "The graph file to write (- for standard output).") var out: String

        func validate() throws {
            guard (1...5_000_000).contains(songs) else { throw ValidationError("--songs must be from 1 to 5000000") }
        }

        func run() throws { try write(MapGraph.synthetic(songs: songs, seed: seed).text(), to: out) }
    }

    /// `quintet library graph layout --edges FILE --out FILE`.
    struct Layout: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lay a graph file out (multilevel Barnes–Hut force layout) and write one 'x y' line per node.",
            discussion: "With --json a summary line {nodes, edges, seconds} goes to standard output.")
        @Option(help: "The graph file (from export or synthetic).") var edges: String
        @Option(help: "The positions file to write: one 'x y' line per node, in node order.") var out: String
        @Option(help: "The layout's seed.") var seed: UInt64 = 0x5157_494E_5445_5421
        @Option(help: "Threads for the force sums (default: the cores).") var threads: Int?
        @Flag(help: "Print a JSON summary line.") var json = false

        func run() throws {
            guard let data = FileManager.default.contents(atPath: edges) else { throw ValidationError("cannot read \(edges)") }
            let graph: MapGraph
            do { graph = try MapGraph(text: String(decoding: data, as: UTF8.self)) } catch let error as MapGraph.FormatError {
                throw ValidationError("\(edges): \(error.description)")
            }
            var options = ForceLayout.Options()
            options.seed = seed
            if let threads { options.threads = max(1, threads) }
            let start = Date()
            let points = try ForceLayout(nodeCount: graph.nodeCount, edges: graph.edges, options: options).run()
            let seconds = Date().timeIntervalSince(start)
            var text = ""
            text.reserveCapacity(points.count * 24)
            for p in points { text += "\(p.x) \(p.y)\n" }
            try write(text, to: out)
            if json {
                print("{\"nodes\": \(graph.nodeCount), \"edges\": \(graph.edges.count), \"seconds\": \(String(format: "%.3f", seconds))}")
            }
        }
    }

    /// `quintet library graph compute --data DIR`.
    struct Compute: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lay out the catalog's map now and cache it in the database (what the server does after a scan).")
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print a JSON summary line.") var json = false

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let cached = try LibraryMap(catalog: Catalog(database: database)).recompute()
            summary(cached, json: json)
        }
    }

    /// `quintet library graph import-synthetic --songs N --data DIR`.
    struct ImportSynthetic: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-synthetic",
            abstract: "Lay out a synthetic catalog's graph and cache it as the data folder's map (for tests and benchmarks).",
            discussion: """
            The map is marked synthetic: its ids name no catalog entries. The server keeps it until a scan \
            changes the catalog; `compute` or a changing rescan replaces it with the catalog's own map.
            """)
        @OptionGroup var dataOptions: DataOptions
        @Option(help: "Songs in the catalog.") var songs: Int = 100_000
        @Option(help: "The generator's seed.") var seed: UInt64 = 1
        @Flag(help: "Print a JSON summary line.") var json = false

        func validate() throws {
            guard (1...5_000_000).contains(songs) else { throw ValidationError("--songs must be from 1 to 5000000") }
        }

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let cached = try LibraryMap(catalog: Catalog(database: database))
                .store(graph: MapGraph.synthetic(songs: songs, seed: seed), synthetic: true)
            summary(cached, json: json)
        }
    }
}

private func write(_ text: String, to path: String) throws {
    if path == "-" {
        FileHandle.standardOutput.write(Data(text.utf8))
    } else {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw ValidationError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

private func summary(_ cached: LibraryMap.Cached, json: Bool) {
    if json {
        print("{\"nodes\": \(cached.nodes), \"edges\": \(cached.edges), \"seconds\": \(String(format: "%.3f", cached.seconds)), "
              + "\"incremental\": \(cached.incremental), \"bytes\": \(cached.payload.count)}")
    } else {
        print("map: \(cached.nodes) nodes, \(cached.edges) edges, laid out in \(String(format: "%.2f", cached.seconds)) s"
              + (cached.incremental ? " (incremental)" : "") + ", \(cached.payload.count) bytes")
    }
}
