import Foundation

/// A condition a test waited for that did not come true before its deadline.
struct WaitTimeout: Error, CustomStringConvertible {
    let description: String
}

/// Waits until `condition` holds: checks it at once, then every `interval`, and throws
/// ``WaitTimeout`` naming `what` once `timeout` has passed without it. This is how the tests wait
/// for a server to reach a state (bytes arrived, a listener joined, an episode ended), never a
/// fixed sleep: a fast machine goes on at once and a slow one gets the whole deadline.
///
/// ```swift
/// source.send(bytes)
/// try await waitUntil("the mount received them") { try await server.bytesIn() ?? 0 >= bytes.count }
/// ```
func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
               interval: Duration = .milliseconds(10), _ condition: () async throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if try await condition() { return }
        guard clock.now < deadline else {
            throw WaitTimeout(description: "waited \(timeout) in vain until \(what())")
        }
        try await Task.sleep(for: interval)
    }
}
