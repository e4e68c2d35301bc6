import ArgumentParser
import Foundation
import QuintetServer

/// `quintet demo-library`: writes the demo music library.
struct DemoLibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-library",
        abstract: "Write the demo music library (30 tagged songs by five invented artists) into a folder.",
        discussion: "Needs ffmpeg. Existing files are kept unless --overwrite; the songs, tags and planted links are described in docs/library.md."
    )

    @Argument(help: "The folder to write into (created if needed).") var directory: String
    @Flag(help: "Write every file again even if it exists.") var overwrite = false

    func run() throws {
        let writer: DemoLibraryWriter
        do { writer = try DemoLibraryWriter() } catch { throw ValidationError(String(describing: error)) }
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        let terminal = isatty(STDERR_FILENO) != 0
        let written = try writer.write(to: root, overwrite: overwrite) { done, total, path in
            let line = "\(done)/\(total) \(path)"
            FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        print("wrote \(written.count) songs into \(root.path)")
    }
}
