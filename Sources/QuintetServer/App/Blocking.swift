import NIOPosix

/// The one way server code runs blocking work: synchronous GRDB reads and writes of the
/// cores' stores, file reads and writes, waits on child processes, CPU-heavy analysis.
///
/// Routes and services run on Swift's cooperative executor, which has one thread per core;
/// a call that blocks there stalls every other request. `Blocking.run` hands the work to
/// NIO's shared blocking pool (`NIOThreadPool.singleton`) and suspends until it is done:
///
/// ```swift
/// let songs = try await Blocking.run { try library.catalog.songs(ofAlbum: id) }
/// ```
///
/// Work that must stop when the caller is cancelled checks `Task`-independent flags of its
/// own (the pool's threads are not tasks); see docs/architecture.md, "Concurrency".
public enum Blocking {
    /// Runs `work` on the blocking pool and returns its result (or rethrows its error).
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(work)
    }
}
