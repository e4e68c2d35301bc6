import ArgumentParser
import Cadence
import Foundation
import LibraryCore
import QuintetServer

/// `quintet runner`: the Runner's tools on the command line.
struct RunnerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "The Runner: songs that fit a running cadence.",
        subcommands: [Pick.self]
    )

    /// `quintet runner pick --cadence 170`: the catalog's song for a cadence.
    struct Pick: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pick the library's song whose BPM fits a cadence (steps per minute).",
            discussion: """
            Reads the catalog of the data folder (quintet scan DIR, with --bpm for songs without a BPM tag). \
            One beat per step; a song also fits at half or double its tempo. With --json prints \
            {"song": {"id", "title", "artist", "bpm", "path"}, "target_bpm", "effective_bpm", "fallback", "reason"?} \
            (as GET /api/runner/next, without stream_url). Exits with status 1 when no song has a BPM.
            """
        )

        @Option(help: "The cadence, steps per minute (30–300).") var cadence: Double
        @Flag(help: "Aim 5 % above the cadence.") var sprint = false
        @Option(help: "nearest (the nearest tempo within ±4 %) or ranges (the original app's 20-BPM bands).")
        var mode: SongMatcher.Mode = .nearest
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let pick: RunnerPicker.Pick
            do {
                pick = try RunnerPicker(catalog: Catalog(database: database)).pick(cadence: cadence, mode: mode, sprint: sprint)
            } catch let failure as RunnerPicker.Failure {
                printError("error: \(failure)")
                throw ExitCode(1)
            }
            let s = pick.song, m = pick.match
            if json {
                struct Song: Encodable { let id: Int64; let title: String; let artist: String; let bpm: Double?; let path: String }
                struct Line: Encodable {
                    let song: Song; let target_bpm: Double; let effective_bpm: Double; let fallback: Bool; let reason: String?
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let line = Line(song: Song(id: s.id, title: s.title, artist: s.artist, bpm: s.bpm, path: s.path),
                                target_bpm: (m.target * 100).rounded() / 100, effective_bpm: m.effectiveBPM,
                                fallback: m.isFallback, reason: pick.reason)
                print(String(decoding: try encoder.encode(line), as: UTF8.self))
            } else {
                let heard = m.effectiveBPM == m.bpm ? "" : String(format: " (heard at %g)", m.effectiveBPM)
                print(String(format: "%@ — %@\t%g BPM%@ for %g spm\t%@", s.artist, s.title, m.bpm, heard, m.target, s.path))
                if let reason = pick.reason { print("fallback: \(reason)") }
            }
        }
    }
}

extension SongMatcher.Mode: ExpressibleByArgument {}
