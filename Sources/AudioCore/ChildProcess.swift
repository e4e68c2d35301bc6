import Foundation
import Locking

#if os(Linux) || os(macOS)
/// A running child process (ffmpeg, ffprobe): the one way Quintet starts one.
///
/// Standard output is read by the caller in chunks (``read(upTo:)``, blocking); standard
/// error is drained by a thread of the system's pool as it comes, so neither pipe can fill up
/// and stall the child, and its last line explains a failure (``errorSummary``). Standard
/// input is the null device, or a pipe the caller writes to (``write(_:)``, ``closeInput()``).
/// Blocking calls belong on a blocking pool (the server's `Blocking.run`), never on Swift's
/// cooperative threads.
///
/// ```swift
/// let child = try ChildProcess(executable: "/usr/bin/ffmpeg", arguments: ["-i", path, "-f", "mp3", "pipe:1"])
/// while let chunk = try child.read(), !chunk.isEmpty { send(chunk) }
/// let status = child.waitForExit()   // 0 on success; child.errorSummary otherwise
/// ```
public final class ChildProcess: Sendable {
    /// What the child reads on standard input.
    public enum Input: Sendable { case nullDevice, pipe }

    /// `@unchecked Sendable` wrapper: Foundation's `Process` and `FileHandle` are thread-safe
    /// for the calls made here (run once, then reads, writes, terminate and wait).
    private struct Handles: @unchecked Sendable {
        let process: Process
        let output: FileHandle
        let input: FileHandle?
    }

    /// Standard error as the draining thread leaves it.
    private final class ErrorSink: Sendable {
        let data = Lock(Data())
        let drained = DispatchSemaphore(value: 0)
    }

    private let handles: Handles
    private let errors = ErrorSink()
    private let exitStatus = Lock<Int32?>(nil)

    /// Starts `executable` with `arguments`; throws `AudioError.decoderMissing` when it cannot
    /// be started.
    public init(executable: String, arguments: [String], input: Input = .nullDevice) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outPipe = Pipe(), errPipe = Pipe()
        let inPipe = input == .pipe ? Pipe() : nil
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe ?? FileHandle.nullDevice
        do { try process.run() } catch {
            throw AudioError.decoderMissing("cannot start \(executable): \(error.localizedDescription)")
        }
        handles = Handles(process: process, output: outPipe.fileHandleForReading, input: inPipe?.fileHandleForWriting)
        let errorHandle = errPipe.fileHandleForReading
        let errors = self.errors
        DispatchQueue.global().async {
            let data = errorHandle.readDataToEndOfFile()
            errors.data.withLock { $0 = data }
            errors.drained.signal()
        }
    }

    /// The next piece of standard output, at most `count` bytes; empty at the end. Blocking.
    public func read(upTo count: Int = 65_536) throws -> Data {
        try handles.output.read(upToCount: count) ?? Data()
    }

    /// Whatever standard output has now, waiting for at least one byte; empty at the end.
    public func readAvailable() -> Data {
        handles.output.availableData
    }

    /// Hands each piece of standard output to `handler` as it arrives, on a thread of the
    /// system's pool, without holding a thread while the child is quiet; the last call gets an
    /// empty `Data` (the end). For children that live as long as a stream (the radio's live
    /// transcoder); use ``read(upTo:)`` or this, not both.
    public func streamOutput(_ handler: @escaping @Sendable (Data) -> Void) {
        handles.output.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            handler(data)
        }
    }

    /// Writes to the child's standard input (started with `input: .pipe`). Blocking.
    public func write(_ data: Data) throws {
        try handles.input?.write(contentsOf: data)
    }

    /// Closes the child's standard input, so it sees the end of its input.
    public func closeInput() {
        try? handles.input?.close()
    }

    /// Asks the child to stop (SIGTERM); harmless once it has exited.
    public func terminate() {
        if handles.process.isRunning { handles.process.terminate() }
    }

    /// Waits for the child to exit and for its standard error to be drained; the exit status.
    @discardableResult
    public func waitForExit() -> Int32 {
        if let status = exitStatus.withLock({ $0 }) { return status }
        handles.process.waitUntilExit()
        errors.drained.wait()
        let status = handles.process.terminationStatus
        exitStatus.withLock { $0 = status }
        errors.drained.signal()   // a later call passes the wait above too
        return status
    }

    /// Everything the child wrote on standard error (complete once it has exited).
    public var standardError: Data { errors.data.withLock { $0 } }

    /// The last non-empty line of standard error, or the exit status.
    public var errorSummary: String {
        Self.summary(standardError: standardError, status: handles.process.terminationStatus)
    }

    /// The last non-empty line of `standardError`, or the exit status when there is none.
    static func summary(standardError: Data, status: Int32) -> String {
        let lines = String(decoding: standardError, as: UTF8.self).split(whereSeparator: \.isNewline)
        return lines.last.map(String.init) ?? "exit status \(status)"
    }
}
#endif
