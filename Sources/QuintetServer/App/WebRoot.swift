import Foundation

/// Finds the `Web/` folder the server serves pages from.
///
/// Order: an explicit path (flag or `QUINTET_WEB`); then `Web/` beside the executable or in
/// any folder above it (a build in `.build/release/quintet` finds the checkout's `Web/`);
/// then `Web/` in the working directory.
public enum WebRoot {
    /// Why no web folder was found.
    public struct NotFound: Error, CustomStringConvertible {
        public let searched: [String]
        public var description: String {
            "cannot find the Web folder (looked in \(searched.joined(separator: ", "))); pass --web DIR or set QUINTET_WEB"
        }
    }

    /// The web folder to serve; throws `NotFound` listing where it looked.
    public static func locate(explicit: String?, executablePath: String = CommandLine.arguments.first ?? "") throws -> URL {
        let fm = FileManager.default
        if let explicit, !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit).standardizedFileURL
            guard fm.fileExists(atPath: url.appendingPathComponent("index.html").path) else {
                throw NotFound(searched: [url.path])
            }
            return url
        }
        var candidates = [URL]()
        var dir = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("Web"))
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        candidates.append(URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("Web"))
        for candidate in candidates where fm.fileExists(atPath: candidate.appendingPathComponent("index.html").path) {
            return candidate.standardizedFileURL
        }
        throw NotFound(searched: candidates.map(\.path))
    }
}
