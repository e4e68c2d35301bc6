import Foundation

#if os(Linux) || os(macOS)
/// Runs an executable to its end (``ChildProcess`` underneath), streaming its standard output.
///
/// Blocking: callers on the server run it through `Blocking.run`. A `CancellationFlag`
/// terminates the child as soon as it is cancelled; the call then throws `CancellationError`.
enum Subprocess {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        /// The last non-empty line of standard error, or the exit status.
        var errorSummary: String { ChildProcess.summary(standardError: stderr, status: status) }
    }

    static func run(_ executable: String, _ arguments: [String], cancellation: CancellationFlag? = nil) throws -> Result {
        var out = Data()
        var result = try stream(executable, arguments, cancellation: cancellation) { out.append($0) }
        result.stdout = out
        return result
    }

    /// Calls `body` with each piece of standard output as it arrives. If `body` throws,
    /// the process is terminated and the error rethrown.
    static func stream(_ executable: String, _ arguments: [String], cancellation: CancellationFlag? = nil,
                       _ body: (Data) throws -> Void) throws -> Result {
        try cancellation?.check()
        let child = try ChildProcess(executable: executable, arguments: arguments)
        do {
            try (cancellation ?? CancellationFlag()).whileRegistered({ child.terminate() }) {
                while true {
                    let data = child.readAvailable()
                    if data.isEmpty { break }
                    try body(data)
                }
            }
        } catch {
            child.terminate()
            child.waitForExit()
            throw error
        }
        let status = child.waitForExit()
        try cancellation?.check()
        return Result(status: status, stdout: Data(), stderr: child.standardError)
    }
}
#endif
