import Foundation
import Locking

/// Runs `count` jobs, at most `jobs` at once (each worker takes the next index until none is
/// left); returns how many reported failure. Blocks until every job is done.
enum WorkerPool {
    static func run(count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Bool) -> Int {
        let state = Lock((next: 0, failures: 0))
        DispatchQueue.concurrentPerform(iterations: max(0, min(jobs, count))) { _ in
            while true {
                let index: Int? = state.withLock { s in
                    guard s.next < count else { return nil }
                    defer { s.next += 1 }
                    return s.next
                }
                guard let index else { break }
                if work(index) { state.withLock { $0.failures += 1 } }
            }
        }
        return state.withLock { $0.failures }
    }
}

/// Prints results in input order as soon as every earlier one is ready.
final class OrderedPrinter: Sendable {
    private let state = Lock((next: 0, pending: [Int: String]()))
    init(count: Int) {}

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
final class Progress: Sendable {
    private let total: Int
    private let enabled: Bool
    private let terminal = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private let state = Lock((done: 0, lastPrint: Date.distantPast))

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
