import Locking

/// Tells blocking work that it should stop: the bridge between a cancelled Swift task and
/// synchronous code running on a thread of its own (a scan's readers, an ffmpeg child).
///
/// The async side cancels the flag from `withTaskCancellationHandler`; the blocking side
/// checks ``isCancelled`` between steps, or registers a handler that interrupts a wait (a
/// child process is terminated at once, its pipe ends, and the read returns):
///
/// ```swift
/// let flag = CancellationFlag()
/// let songs = try await withTaskCancellationHandler {
///     try await Blocking.run { try scanner.scan(root: folder, cancellation: flag) }
/// } onCancel: { flag.cancel() }
/// ```
public final class CancellationFlag: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
    }

    private let state = Lock(State())

    public init() {}

    /// True once ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels: every registered handler runs once, on the calling thread.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Throws `CancellationError` when cancelled.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` with `handler` registered: the handler runs if the flag is cancelled
    /// while `body` runs (at once if it already is).
    public func whileRegistered<T>(_ handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        let id = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.nextHandler += 1
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        if id == nil { handler() }
        defer { if let id { _ = state.withLock { $0.handlers.removeValue(forKey: id) } } }
        return try body()
    }
}
