import Foundation

#if os(Linux) || os(macOS)
/// Runs an executable with arguments, streaming its standard output and collecting its
/// standard error (drained on another thread so neither pipe can fill up and deadlock).
enum Subprocess {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        /// The last non-empty line of standard error, or the exit status.
        var errorSummary: String {
            let lines = String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
            return lines.last.map(String.init) ?? "exit status \(status)"
        }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        var out = Data()
        var result = try stream(executable, arguments) { out.append($0) }
        result.stdout = out
        return result
    }

    /// Calls `body` with each piece of standard output as it arrives. If `body` throws,
    /// the process is terminated and the error rethrown.
    static func stream(_ executable: String, _ arguments: [String], _ body: (Data) throws -> Void) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw AudioError.decoderMissing("cannot start \(executable): \(error.localizedDescription)")
        }
        let errors = StderrCollector()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errors.set(errPipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let reader = outPipe.fileHandleForReading
        do {
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                try body(data)
            }
        } catch {
            process.terminate()
            process.waitUntilExit()
            group.wait()
            throw error
        }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: Data(), stderr: errors.get())
    }
}

/// Holds the standard error bytes written by the draining thread.
private final class StderrCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
#endif
