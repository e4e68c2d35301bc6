import Foundation
@testable import QuintetServer
import Testing

@Suite("WorkLimiter")
struct WorkLimiterTests {
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var current = 0
        private(set) var peak = 0
        func enter() { lock.lock(); current += 1; peak = max(peak, current); lock.unlock() }
        func leave() { lock.lock(); current -= 1; lock.unlock() }
    }

    @Test("never runs more jobs at once than its limit, and runs them all")
    func limit() async throws {
        let limiter = WorkLimiter(limit: 2)
        let gauge = Gauge()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<8 {
                group.addTask {
                    try await limiter.run {
                        gauge.enter()
                        defer { gauge.leave() }
                        Thread.sleep(forTimeInterval: 0.02)   // the job's work: it holds its slot a while (not a wait)
                        return i
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<8))
        #expect(gauge.peak <= 2 && gauge.peak >= 1)
    }

    @Test("a failing job frees its slot")
    func failure() async {
        struct Boom: Error {}
        let limiter = WorkLimiter(limit: 1)
        await #expect(throws: Boom.self) { try await limiter.run { throw Boom() } }
        let value = try? await limiter.run { 42 }
        #expect(value == 42)
    }
}
