import Foundation

/// Paths in this checkout, found from this file's own location (Tests/PlaygroundTests/).
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: file(relativePath), encoding: .utf8)
    }
}
