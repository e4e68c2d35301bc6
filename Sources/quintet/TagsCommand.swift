import ArgumentParser
import Foundation
import MediaTags
import QuintetServer

/// `quintet tags`: what MediaTags reads from audio files.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "Print the tags and stream facts of audio files (MP3, FLAC, Ogg, Opus, M4A, WAV).",
        discussion: """
        With --json, prints one JSON object per file and line: {"file", "format", "tags", "stream"}
        (pictures as {"type", "mimeType", "description", "bytes"}), or {"file", "error"} for a file
        that cannot be read; the exit status is 1 if any failed.
        """
    )

    @Argument(help: "Audio files.") var files: [String] = []
    @Option(name: .customLong("files-from"), help: ArgumentHelp("Read more paths from this file, one per line (- for standard input).", valueName: "list"))
    var filesFrom: String?
    @Flag(help: "Print JSON Lines.") var json = false

    func validate() throws {
        guard !files.isEmpty || filesFrom != nil else { throw ValidationError("give at least one audio file") }
    }

    func run() throws {
        var failures = 0
        let files = try self.files + readPathList(filesFrom)
        for path in files {
            do {
                let info = try MediaReader.read(path: path)
                print(json ? TempoCommand.jsonLine(TagsSummary(file: path, info: info)) : Self.text(path, info))
            } catch {
                failures += 1
                print(json ? TempoCommand.jsonLine(["file": path, "error": String(describing: error)]) : "\(path)\terror: \(error)")
            }
        }
        if failures > 0 {
            printError("\(failures) of \(files.count) files failed")
            throw ExitCode(1)
        }
    }

    static func text(_ path: String, _ info: MediaInfo) -> String {
        let t = info.tags, s = info.stream
        var lines = ["\(path)  [\(info.format.rawValue), \(s.codec)" + (s.duration.map { String(format: ", %.2f s", $0) } ?? "") + "]"]
        func add(_ name: String, _ value: String?) { if let value, !value.isEmpty { lines.append("  \(name): \(value)") } }
        add("title", t.title)
        add("artist", t.artists.joined(separator: "; "))
        add("album", t.album)
        add("album artist", t.albumArtists.joined(separator: "; "))
        add("composer", t.composers.joined(separator: "; "))
        add("genre", t.genres.joined(separator: "; "))
        add("track", t.trackNumber.map { n in t.trackTotal.map { "\(n)/\($0)" } ?? "\(n)" })
        add("disc", t.discNumber.map { n in t.discTotal.map { "\(n)/\($0)" } ?? "\(n)" })
        add("date", t.date)
        add("bpm", t.bpm.map { String($0) })
        if t.compilation { add("compilation", "yes") }
        if let cover = t.cover { add("cover", "\(cover.mimeType), \(cover.data.count) bytes") }
        add("credits", t.credits.map { $0.role.isEmpty ? $0.name : "\($0.name) (\($0.role))" }.joined(separator: "; "))
        for (key, values) in t.custom.sorted(by: { $0.key < $1.key }) { add(key.lowercased(), values.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}
