import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A problem with one file or folder during a scan: reported, never fatal.
public struct ScanIssue: Error, Sendable, Codable, Equatable {
    /// Relative to the library root.
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// An audio file found under the library root, with what incremental rescans compare.
public struct LibraryFile: Sendable, Hashable, Codable {
    /// Relative to the library root, "/"-separated.
    public var path: String
    public var size: Int64
    /// Modification time, seconds since 1970.
    public var modified: Double

    public init(path: String, size: Int64, modified: Double) {
        self.path = path
        self.size = size
        self.modified = modified
    }
}

/// Finds the audio files of a library: a recursive walk that follows symbolic links to
/// folders once (a loop is reported and cut), reports unreadable folders and empty audio
/// files, and ignores files that are not audio by their extension (cover images, text).
public enum LibraryWalker {
    /// Extensions of the files a library scan reads (lower case).
    public static let audioExtensions: Set<String> = ["mp3", "flac", "m4a", "m4b", "mp4", "ogg", "oga", "opus", "wav"]

    /// The audio files under `root`, sorted by path, and the issues met on the way.
    ///
    /// Uses the POSIX directory calls (`opendir`/`readdir`, one `lstat` per entry and a
    /// `stat` behind links): Foundation's URL resource values cost about 50 µs a file on
    /// Linux, which alone would be slower than a whole scan may take.
    public static func walk(root: URL) -> (files: [LibraryFile], issues: [ScanIssue]) {
        let survey = survey(root: root)
        return (survey.files, survey.issues)
    }

    /// Names of the image files taken as a folder's cover, best first (compared in lower case).
    public static let coverNames = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png",
                                    "front.jpg", "front.jpeg", "front.png", "album.jpg", "album.png"]

    /// What a walk finds: the audio files, the issues, and each folder's cover image
    /// (folder path relative to the root, "" for the root itself → image path).
    public struct Survey: Sendable {
        public var files: [LibraryFile]
        public var issues: [ScanIssue]
        public var folderImages: [String: String]
    }

    /// The walk, with the folders' cover images (`coverNames`) as well.
    public static func survey(root: URL) -> Survey {
        let rootPath = realPath(root.standardizedFileURL.path) ?? root.standardizedFileURL.path
        var files: [LibraryFile] = []
        var issues: [ScanIssue] = []
        var images: [String: (rank: Int, path: String)] = [:]
        var visited: Set<String> = [rootPath]
        var stack: [(path: String, relative: String)] = [(rootPath, "")]
        while let (folder, relative) = stack.popLast() {
            guard let dir = opendir(folder) else {
                issues.append(ScanIssue(path: relative.isEmpty ? "." : relative,
                                        reason: "cannot list the folder: \(String(cString: strerror(errno)))"))
                continue
            }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name == "." || name == ".." { continue }
                let full = folder + "/" + name
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(full, &info) == 0 else {
                    issues.append(ScanIssue(path: path, reason: "cannot read its attributes: \(String(cString: strerror(errno)))"))
                    continue
                }
                if (info.st_mode & S_IFMT) == S_IFLNK {
                    guard stat(full, &info) == 0 else {
                        issues.append(ScanIssue(path: path, reason: "broken symbolic link"))
                        continue
                    }
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    let real = realPath(full) ?? full
                    guard visited.insert(real).inserted else {
                        issues.append(ScanIssue(path: path, reason: "symbolic link loop (leads back to a folder already scanned)"))
                        continue
                    }
                    stack.append((full, path))
                case S_IFREG:
                    if let rank = coverNames.firstIndex(of: name.lowercased()), info.st_size > 0,
                       rank < images[relative]?.rank ?? .max {
                        images[relative] = (rank, path)
                    }
                    guard let dot = name.lastIndex(of: "."), audioExtensions.contains(name[name.index(after: dot)...].lowercased()) else {
                        continue
                    }
                    guard info.st_size > 0 else {
                        issues.append(ScanIssue(path: path, reason: "empty file"))
                        continue
                    }
                    files.append(LibraryFile(path: path, size: Int64(info.st_size), modified: modificationTime(info)))
                default:
                    continue // sockets, devices, pipes
                }
            }
        }
        files.sort { $0.path < $1.path }
        issues.sort { $0.path < $1.path }
        return Survey(files: files, issues: issues, folderImages: images.mapValues(\.path))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func modificationTime(_ info: stat) -> Double {
        #if canImport(Darwin)
        Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
        Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
    }
}

/// What an incremental rescan must do: files to read (new or changed by size or
/// modification time), files to drop, and how many are unchanged (never opened).
public struct ScanPlan: Sendable, Equatable {
    public var toRead: [LibraryFile]
    public var removed: [String]
    public var unchanged: Int

    /// Compares this walk with the catalog's last one (path → size and mtime).
    public init(current: [LibraryFile], previous: [String: LibraryFile]) {
        var toRead: [LibraryFile] = []
        var unchanged = 0
        var seen = Set<String>()
        for file in current {
            seen.insert(file.path)
            if let old = previous[file.path], old.size == file.size, old.modified == file.modified {
                unchanged += 1
            } else {
                toRead.append(file)
            }
        }
        self.toRead = toRead
        self.unchanged = unchanged
        removed = previous.keys.filter { !seen.contains($0) }.sorted()
    }
}
