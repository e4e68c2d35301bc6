import Foundation
import MediaTags
import Locking

/// Reads the tags of many files on every core: the tag-reading half of a scan.
public enum TagReadPool {
    /// One file's result: its tags, or why they could not be read.
    public typealias Result = Swift.Result<MediaInfo, ScanIssue>

    /// Reads `files` (paths relative to `root`) in parallel; results come back in input
    /// order. `progress` is called now and then with the number done (from any thread).
    public static func read(_ files: [LibraryFile], root: URL,
                            progress: @escaping @Sendable (Int) -> Void = { _ in }) -> [Result] {
        let results = ResultSlots(count: files.count)
        let chunk = 64
        let chunks = (files.count + chunk - 1) / chunk
        let rootPath = root.standardizedFileURL.path
        let done = DoneCounter()
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let range = (c * chunk)..<min(files.count, (c + 1) * chunk)
            for i in range {
                let file = files[i]
                do {
                    results.set(i, .success(try MediaReader.read(path: rootPath + "/" + file.path)))
                } catch {
                    results.set(i, .failure(ScanIssue(path: file.path, reason: String(describing: error))))
                }
            }
            progress(done.add(range.count))
        }
        return results.values()
    }
}

/// Result slots written by many threads, each slot by one thread only.
private final class ResultSlots: Sendable {
    private let slots: Lock<[TagReadPool.Result?]>
    init(count: Int) { slots = Lock(Array(repeating: nil, count: count)) }
    func set(_ index: Int, _ value: TagReadPool.Result) { slots.withLock { $0[index] = value } }
    func values() -> [TagReadPool.Result] { slots.withLock { $0.map { $0! } } }
}

private final class DoneCounter: Sendable {
    private let value = Lock(0)
    func add(_ n: Int) -> Int { value.withLock { $0 += n; return $0 } }
}
