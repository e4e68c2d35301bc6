import ArgumentParser
import Foundation
import Logging
import QuintetServer
import QuintetStore

/// The `--data` option every command that touches stored state takes.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data folder (database, caches).", discussion: "Default ./quintet-data; env QUINTET_DATA.", valueName: "dir"))
    var data: String?

    /// The resolved data folder: flag, then `QUINTET_DATA`, then `./quintet-data`.
    var directory: URL {
        URL(fileURLWithPath: data ?? Environment.value("QUINTET_DATA") ?? "quintet-data").standardizedFileURL
    }

    func openDatabase() throws -> QuintetDatabase {
        do { return try QuintetApplication.openDatabase(in: directory) } catch let error as StoreError {
            throw ValidationError(error.description)
        }
    }
}

/// Environment variables, with empty values treated as unset.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let v = ProcessInfo.processInfo.environment[name], !v.isEmpty else { return nil }
        return v
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Encodes a value as pretty, key-sorted JSON on standard output.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// The paths listed in `list` (one per line; "-" reads standard input), for file lists too
/// long for the command line; nil gives none.
func readPathList(_ list: String?) throws -> [String] {
    guard let list else { return [] }
    let text: String
    if list == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    } else {
        guard let data = FileManager.default.contents(atPath: list) else { throw ValidationError("cannot read the list \(list)") }
        text = String(decoding: data, as: UTF8.self)
    }
    return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
}
