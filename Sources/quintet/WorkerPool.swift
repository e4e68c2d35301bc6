import Foundation

/// Runs `count` jobs on `jobs` threads; returns how many reported failure.
enum WorkerPool {
    static func run(count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Bool) -> Int {
        let state = Locked((next: 0, failures: 0))
        let group = DispatchGroup()
        for _ in 0..<min(jobs, count) {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let index: Int? = state.withLock { s in
                        guard s.next < count else { return nil }
                        defer { s.next += 1 }
                        return s.next
                    }
                    guard let index else { break }
                    if work(index) { state.withLock { $0.failures += 1 } }
                }
                group.leave()
            }
        }
        group.wait()
        return state.withLock { $0.failures }
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}

/// Prints results in input order as soon as every earlier one is ready.
final class OrderedPrinter: @unchecked Sendable {
    private let state: Locked<(next: Int, pending: [Int: String])>
    init(count: Int) { state = Locked((0, [:])) }

    func deliver(_ index: Int, _ line: String) {
        state.withLock { s in
            s.pending[index] = line
            while let ready = s.pending.removeValue(forKey: s.next) {
                FileHandle.standardOutput.write(Data((ready + "\n").utf8))
                s.next += 1
            }
        }
    }
}

/// Progress of long work on standard error: a redrawn line on a terminal, plain lines
/// (at most one a second) otherwise, with files per second and the time left.
final class Progress: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    private let terminal = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private let state = Locked((done: 0, lastPrint: Date.distantPast))

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance() {
        guard enabled else { return }
        state.withLock { s in
            s.done += 1
            let now = Date()
            guard terminal || now.timeIntervalSince(s.lastPrint) >= 1 || s.done == total else { return }
            s.lastPrint = now
            let elapsed = max(1e-3, now.timeIntervalSince(start))
            let rate = Double(s.done) / elapsed
            let eta = rate > 0 ? Double(total - s.done) / rate : 0
            let text = String(format: "%d/%d files (%.0f%%), %.1f files/s, %.0f s left", s.done, total,
                              100 * Double(s.done) / Double(total), rate, eta)
            FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + text : text + "\n").utf8))
        }
    }

    func finish() {
        if enabled && terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
