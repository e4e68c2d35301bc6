import ArgumentParser
import AudioCore
import Foundation
import LibraryCore
import QuintetServer

/// `quintet bench`: micro-benchmarks of hot paths, for docs/ figures.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time hot paths (the real FFT, related-song links, the scan's walk and tag reading, cadence) and print the figures.",
        subcommands: [FFTBench.self, RelatedBench.self, ScanBench.self, CadenceBench.self]
    )

    struct FFTBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fft",
            abstract: "Time a real FFT (default 65,536 points): best and median of many runs.")
        @Option(help: "Points (a power of two).") var size = 65_536
        @Option(help: "Timed runs.") var runs = 200
        @Flag(help: "Print as JSON.") var json = false

        func validate() throws {
            guard size >= 2, FFT.isValidSize(size) else { throw ValidationError("--size must be a power of two ≥ 2") }
            guard (1...100_000).contains(runs) else { throw ValidationError("--runs must be between 1 and 100000") }
        }

        func run() throws {
            let fft = RealFFT(size: size)
            var generator = SplitMix64(seed: 42)
            let input = (0..<size).map { _ in Float(generator.nextUnit() * 2 - 1) }
            var checksum: Float = 0
            for _ in 0..<10 { checksum += fft.forward(input).real[1] } // warm-up
            let (best, median) = timeRuns(runs) { checksum += fft.forward(input).real[1] }
            let result = FFTBenchResult(size: size, runs: runs, bestMicroseconds: best * 1e6,
                                        medianMicroseconds: median * 1e6, checksum: Double(checksum))
            if json { try printJSON(result) } else {
                print(String(format: "real FFT, %d points: best %.1f µs, median %.1f µs (%d runs)",
                             size, result.bestMicroseconds, result.medianMicroseconds, runs))
            }
        }
    }
}

/// Runs `body` `runs` times; the best and the median wall time, in seconds.
func timeRuns(_ runs: Int, _ body: () -> Void) -> (best: Double, median: Double) {
    var times = [Double]()
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    return (times[0], times[times.count / 2])
}

struct FFTBenchResult: Encodable {
    let size: Int
    let runs: Int
    let bestMicroseconds: Double
    let medianMicroseconds: Double
    let checksum: Double
}

extension Bench {
    struct RelatedBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "related",
            abstract: "Time computing every cover and identical-recording link of a synthetic catalog.")
        @Option(help: "Songs in the catalog.") var songs = 100_000
        @Option(help: "Timed runs (the best and the median are printed).") var runs = 5
        @Flag(help: "Print as JSON.") var json = false
        @Flag(help: "Store the songs in a real catalog (a temporary SQLite database) and time reading it back and linking, as the server does.")
        var catalog = false

        func validate() throws {
            guard (1...5_000_000).contains(songs) else { throw ValidationError("--songs must be between 1 and 5000000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be between 1 and 100") }
        }

        func run() throws {
            // A catalog shaped like a large personal library: about three songs per title,
            // 5,000 artists (one in seven with a non-ASCII name, which takes the slower
            // Unicode path), half the songs with composers, durations of 2–6 minutes.
            var rng = SplitMix64(seed: 7)
            let catalog = (0..<songs).map { i -> RelatedSongs.Song in
                let title = "Song \(rng.next() % UInt64(max(1, songs / 3)))"
                let number = rng.next() % 5_000
                let artist = number % 7 == 0 ? "Ärtist Ünicode \(number)" : "Artist \(number)"
                let composers = rng.next() % 2 == 0 ? ["Composer \(rng.next() % 2_000)"] : []
                return RelatedSongs.Song(id: Int64(i), title: title, artists: [artist], composers: composers,
                                         albumID: Int64(rng.next() % UInt64(max(1, songs / 10))),
                                         duration: 120 + rng.nextUnit() * 240)
            }
            var linked = 0
            let (best, median): (Double, Double)
            if self.catalog {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-bench-related-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                let database = try QuintetApplication.openDatabase(in: folder)
                defer { try? database.close() }
                let stored = Catalog(database: database)
                try stored.fillForBenchmark(catalog)
                var failure: (any Error)?
                (best, median) = timeRuns(runs) {
                    do { linked = try stored.allRelated().count } catch { failure = error }
                }
                if let failure { throw failure }
            } else {
                (best, median) = timeRuns(runs) { linked = RelatedSongs(catalog).allLinks().count }
            }
            let result = RelatedBenchResult(songs: songs, runs: runs, bestSeconds: best,
                                            medianSeconds: median, songsWithLinks: linked)
            if json { try printJSON(result) } else {
                print(String(format: "all related-song links of %d songs: best %.3f s, median %.3f s (%d songs have links)",
                             songs, result.bestSeconds, result.medianSeconds, linked))
            }
        }
    }
}

struct RelatedBenchResult: Encodable {
    let songs: Int
    let runs: Int
    let bestSeconds: Double
    let medianSeconds: Double
    let songsWithLinks: Int
}

extension Bench {
    struct ScanBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Time the front half of a library scan: the walk and reading every file's tags on all cores.",
            discussion: "Nothing is stored (the catalog comes with the rest of issue 4); prints files, issues and files per second.")
        @Argument(help: "The music folder.") var directory: String
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let root = URL(fileURLWithPath: directory)
            let start = DispatchTime.now().uptimeNanoseconds
            let walk = LibraryWalker.walk(root: root)
            let walked = DispatchTime.now().uptimeNanoseconds
            let results = TagReadPool.read(walk.files, root: root)
            let end = DispatchTime.now().uptimeNanoseconds
            let failures = results.compactMap { if case .failure(let issue) = $0 { issue } else { nil } }
            let seconds = Double(end - start) / 1e9
            let result = ScanBenchResult(files: walk.files.count, tagsRead: results.count - failures.count,
                                         issues: walk.issues + failures, walkSeconds: Double(walked - start) / 1e9,
                                         totalSeconds: seconds, filesPerSecond: Double(walk.files.count) / max(seconds, 1e-9))
            if json { try printJSON(result) } else {
                print(String(format: "%d files, tags read from %d, %d issues: %.2f s (walk %.2f s), %.0f files/s",
                             result.files, result.tagsRead, result.issues.count, seconds, result.walkSeconds, result.filesPerSecond))
                for issue in result.issues.prefix(20) { print("  \(issue.path): \(issue.reason)") }
            }
        }
    }
}

struct ScanBenchResult: Encodable {
    let files: Int
    let tagsRead: Int
    let issues: [ScanIssue]
    let walkSeconds: Double
    let totalSeconds: Double
    let filesPerSecond: Double
}
