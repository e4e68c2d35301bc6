import Foundation

/// Lets at most `limit` CPU-heavy jobs (audio analysis) run at once; the others wait their
/// turn in order, so a burst of uploads queues instead of starving the server's threads.
actor WorkLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)) {
        self.limit = limit
    }

    /// Runs `work` on the blocking pool (``Blocking``) once a slot is free.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        if running >= limit {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running += 1
        }
        defer { release() }
        return try await Blocking.run(work)
    }

    private func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}
