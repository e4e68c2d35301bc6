import ArgumentParser
import Foundation
import LibraryCore

/// `quintet scan DIR`: scans a music folder into the catalog of a data folder.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a music folder into the library catalog (tags only; unchanged files are not opened).",
        discussion: """
        Progress (files/s, ETA) goes to standard error; then a summary of files, songs, albums, \
        artists and unreadable files. With --json one line on standard output: \
        {"files", "songs", "albums", "artists", "errors": [{"path", "reason"}]}. \
        A different folder from the catalog's last one replaces the catalog. \
        With --bpm the songs without a BPM tag are analysed afterwards (Tempo module).
        """
    )

    @Argument(help: "The music folder.") var directory: String
    @OptionGroup var dataOptions: DataOptions
    @Flag(help: "Print one JSON line instead of the readable summary.") var json = false
    @Flag(help: "Afterwards, analyse the BPM of songs whose tags carry none.") var bpm = false

    func run() throws {
        let database = try dataOptions.openDatabase()
        defer { try? database.close() }
        let catalog = Catalog(database: database)
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        let terminal = isatty(STDERR_FILENO) != 0
        var lastShown = Date.distantPast
        let report: ScanReport
        do {
            report = try CatalogScanner(catalog: catalog).scan(root: root) { progress in
                let now = Date()
                guard progress.phase == .done || now.timeIntervalSince(lastShown) >= (terminal ? 0.2 : 2) else { return }
                lastShown = now
                var line = "\(progress.phase.rawValue): \(progress.filesSeen) files"
                if progress.filesToRead > 0 {
                    line += ", read \(progress.filesRead)/\(progress.filesToRead)"
                    line += String(format: ", %.0f files/s", progress.filesPerSecond)
                    if let eta = progress.eta { line += String(format: ", ETA %.0f s", eta) }
                }
                FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
            }
        } catch let error as CatalogError {
            throw ValidationError(error.description)
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        if json {
            struct Line: Encodable { let files, songs, albums, artists: Int; let errors: [ScanIssue] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(Line(files: report.files, songs: report.songs, albums: report.albums,
                                                           artists: report.artists, errors: report.errors)), as: UTF8.self))
        } else {
            print("""
                \(report.files) files (\(report.read) read, \(report.unchanged) unchanged, \(report.removed) removed) \
                in \(String(format: "%.2f", report.seconds)) s
                \(report.songs) songs, \(report.albums) albums, \(report.artists) artists
                """)
            if !report.errors.isEmpty {
                print("\(report.errors.count) files could not be read:")
                for issue in report.errors { print("  \(issue.path): \(issue.reason)") }
            }
        }
        if bpm {
            let queue = BPMQueue(catalog: catalog)
            let total = try queue.status().pending
            var done = 0
            while try queue.analyzeNext() != nil {
                done += 1
                let line = "bpm: \(done)/\(total)"
                FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
            }
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            let status = try queue.status()
            if !json { print("BPM analysed for \(done) songs; \(status.failed) could not be analysed") }
        }
    }
}
