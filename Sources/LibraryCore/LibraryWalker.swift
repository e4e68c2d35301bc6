import Foundation
import Locking
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
/// folders once (a loop is reported and cut) and takes each file once however many paths
/// lead to it (symbolic or hard links), reports unreadable folders and empty audio files,
/// and ignores files that are not audio by their extension (cover images, text).
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
    ///
    /// Folders are listed level by level on every core (`fstatat` relative to the open
    /// folder, so no path is resolved twice). Folders reached through symbolic links wait
    /// until every real folder has been listed and are then taken in path order, so which
    /// of two ways to one folder counts, and which is reported as a loop, never depends on
    /// thread timing. A folder is known by its device and inode.
    ///
    /// Files are known by device and inode too: when several paths lead to one audio file
    /// (a symbolic link to a file elsewhere in the library, a hard link), only one becomes a
    /// library file — a path whose last step is a plain directory entry before one that is
    /// a symbolic link, then the first in path order — and every other path is reported as
    /// a second way to it. The choice depends on the paths only, so rescans keep it. A link
    /// to a file outside the root is followed like a link to a folder outside it: the file
    /// is in the library under the link's path.
    public static func survey(root: URL) -> Survey {
        let rootPath = realPath(root.standardizedFileURL.path) ?? root.standardizedFileURL.path
        var result = Listing()
        var rootInfo = stat()
        guard stat(rootPath, &rootInfo) == 0 else {
            return Survey(files: [], issues: [ScanIssue(path: ".", reason: "cannot list the folder: \(String(cString: strerror(errno)))")],
                          folderImages: [:])
        }
        let visited = VisitedFolders()
        _ = visited.insert(rootInfo)
        var linked: [Folder] = []
        // Real folders first, then linked ones (each of which may bring real subfolders).
        var pending = [Folder(path: rootPath, relative: "")]
        while true {
            walkLevels(from: pending, visited: visited, into: &result, linked: &linked)
            linked.sort { $0.relative < $1.relative }
            pending = []
            while pending.isEmpty, !linked.isEmpty {
                let link = linked.removeFirst()
                var info = stat()
                if stat(link.path, &info) == 0, visited.insert(info) {
                    pending = [link]
                } else {
                    result.issues.append(ScanIssue(path: link.relative, reason: loopReason))
                }
            }
            if pending.isEmpty { break }
        }
        var files = onePathPerFile(result.files, issues: &result.issues)
        files.sort { $0.path < $1.path }
        result.issues.sort { $0.path < $1.path }
        return Survey(files: files, issues: result.issues, folderImages: result.images.mapValues(\.path))
    }

    static let loopReason = "symbolic link loop (leads back to a folder already scanned)"

    static func secondPathReason(_ first: String) -> String {
        "another path to the file already scanned as \(first) (symbolic or hard link)"
    }

    /// The files with one path each: for each device and inode, a plain entry before a
    /// symbolic link, then the first path in order; the other paths go to `issues`.
    static func onePathPerFile(_ found: [FoundFile], issues: inout [ScanIssue]) -> [LibraryFile] {
        var kept: [FileIdentity: String] = [:]
        kept.reserveCapacity(found.count)
        var files: [LibraryFile] = []
        files.reserveCapacity(found.count)
        for entry in found.sorted(by: { ($0.viaLink ? 1 : 0, $0.file.path) < ($1.viaLink ? 1 : 0, $1.file.path) }) {
            if let first = kept[entry.identity] {
                issues.append(ScanIssue(path: entry.file.path, reason: secondPathReason(first)))
            } else {
                kept[entry.identity] = entry.file.path
                files.append(entry.file)
            }
        }
        return files
    }

    /// A file's device and inode.
    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// An audio file as listed: its facts, its identity, and whether its own directory entry
    /// is a symbolic link.
    struct FoundFile: Sendable {
        var file: LibraryFile
        var identity: FileIdentity
        var viaLink: Bool
    }

    struct Folder: Sendable {
        var path: String
        var relative: String
    }

    /// What listing some folders found.
    struct Listing: Sendable {
        var files: [FoundFile] = []
        var issues: [ScanIssue] = []
        var images: [String: (rank: Int, path: String)] = [:]
        /// Real subfolders to list next.
        var folders: [Folder] = []
        /// Subfolders behind symbolic links, listed after every real folder.
        var linked: [Folder] = []
    }

    /// Folders seen so far, by device and inode, shared by the listing threads.
    final class VisitedFolders: Sendable {
        private let seen = Lock(Set<[UInt64]>())

        /// True when the folder was not seen before.
        func insert(_ info: stat) -> Bool {
            seen.withLock { $0.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted }
        }
    }

    /// Lists `start` and every real folder below it, level by level, one level's folders
    /// spread over the cores; links to folders are added to `linked`.
    private static func walkLevels(from start: [Folder], visited: VisitedFolders, into result: inout Listing,
                                   linked: inout [Folder]) {
        var level = start
        while !level.isEmpty {
            let chunks = min(level.count, ProcessInfo.processInfo.activeProcessorCount * 4)
            let box = ListingBox(count: chunks)
            let current = level
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var listing = Listing()
                for index in stride(from: chunk, to: current.count, by: chunks) {
                    list(current[index], visited: visited, into: &listing)
                }
                box.put(chunk, listing)
            }
            level = []
            for listing in box.take() {
                result.files += listing.files
                result.issues += listing.issues
                result.images.merge(listing.images) { $0.rank <= $1.rank ? $0 : $1 }
                level += listing.folders
                linked += listing.linked
            }
        }
    }

    private final class ListingBox: Sendable {
        private let listings: Lock<[Listing]>
        init(count: Int) { listings = Lock(Array(repeating: Listing(), count: count)) }
        func put(_ index: Int, _ listing: Listing) { listings.withLock { $0[index] = listing } }
        func take() -> [Listing] { listings.withLock { $0 } }
    }

    /// Lists one folder.
    private static func list(_ folder: Folder, visited: VisitedFolders, into listing: inout Listing) {
        let relative = folder.relative
        guard let dir = opendir(folder.path) else {
            listing.issues.append(ScanIssue(path: relative.isEmpty ? "." : relative,
                                            reason: "cannot list the folder: \(String(cString: strerror(errno)))"))
            return
        }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                listing.issues.append(ScanIssue(path: path, reason: "cannot read its attributes: \(String(cString: strerror(errno)))"))
                continue
            }
            var isLink = false
            if (info.st_mode & S_IFMT) == S_IFLNK {
                isLink = true
                guard fstatat(fd, name, &info, 0) == 0 else {
                    listing.issues.append(ScanIssue(path: path, reason: "broken symbolic link"))
                    continue
                }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let sub = Folder(path: folder.path + "/" + name, relative: path)
                if isLink {
                    listing.linked.append(sub)
                } else if visited.insert(info) {
                    listing.folders.append(sub)
                } else {
                    listing.issues.append(ScanIssue(path: path, reason: loopReason))
                }
            case S_IFREG:
                if info.st_size > 0, let rank = coverNames.firstIndex(of: name.lowercased()),
                   rank < listing.images[relative]?.rank ?? .max {
                    listing.images[relative] = (rank, path)
                }
                guard let dot = name.lastIndex(of: "."), audioExtensions.contains(name[name.index(after: dot)...].lowercased()) else {
                    continue
                }
                guard info.st_size > 0 else {
                    listing.issues.append(ScanIssue(path: path, reason: "empty file"))
                    continue
                }
                listing.files.append(FoundFile(
                    file: LibraryFile(path: path, size: Int64(info.st_size), modified: modificationTime(info)),
                    identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), viaLink: isLink))
            default:
                continue // sockets, devices, pipes
            }
        }
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
