import NIOCore
import NIOPosix

/// The one way server code runs blocking work: synchronous GRDB reads and writes of the
/// cores' stores, file reads and writes, waits on child processes, CPU-heavy analysis.
///
/// Routes and services run on Swift's cooperative executor, which has one thread per core;
/// a call that blocks there stalls every other request. `Blocking.run` hands the work to the
/// server's one blocking pool (a `NIOThreadPool`) and suspends until it is done:
///
/// ```swift
/// let songs = try await Blocking.run { try library.catalog.songs(ofAlbum: id) }
/// ```
///
/// The pool's threads are not tasks: work that must stop when its caller is cancelled takes a
/// `CancellationFlag` (AudioCore) that the caller cancels from `withTaskCancellationHandler`
/// (see `LibraryService`); docs/architecture.md, "Concurrency".
public enum Blocking {
    /// Threads of the pool: most blocking work waits (on the disk, on ffmpeg, on bcrypt's
    /// cost), so a few per core; a long job (a BPM analysis, a scan's writer) never starves
    /// the short ones (a session lookup).
    public static let threadCount = max(8, 4 * System.coreCount)

    /// The pool, started on first use and never stopped (it ends with the process).
    public static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threadCount)
        pool.start()
        return pool
    }()

    /// Runs `work` on the blocking pool and returns its result (or rethrows its error).
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(work)
    }
}
