import Foundation
import NIOCore
import Radio

/// Appends a live broadcast to its file as the bytes arrive.
///
/// Each chunk from the source is handed to a serial queue that `write(2)`s it at once, so the
/// bytes are in the kernel's page cache within milliseconds of their arrival: after a `kill -9`
/// of the server nothing that was received is lost (the issue asks for at most one second).
/// The event loop never waits for the disk. A failed write is logged once and recording stops;
/// the broadcast itself goes on.
///
/// An MP3 recording goes through the core's `XingFrameFilter` on that queue: the Xing, Info and
/// VBRI header frames a source sends with each file it streams (ezstream looping a file) are
/// left out, so players take the recording's duration from its frames, not from the header of
/// the source's file. The filter holds back at most the next frame's first bytes (8 KiB before
/// the stream is in sync).
/// `@unchecked Sendable`: `handle`, `failed` and `filter` are touched only on `queue`.
final class LiveRecorder: @unchecked Sendable {
    /// The file written.
    let file: URL
    private let queue: DispatchQueue
    private var handle: FileHandle?   // touched on `queue` only
    private var failed = false
    private var filter: XingFrameFilter?   // touched on `queue` only

    /// Opens `file` for appending (creating it and its folder). `framing`: the stream's frame
    /// format; MP3 recordings drop header frames.
    init(file: URL, framing: AudioFraming = .none) throws {
        self.file = file
        filter = framing == .mpegAudio ? XingFrameFilter() : nil
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
            guard self.handle != nil, !self.failed else { return }
            if self.filter != nil {
                let kept = bytes.withUnsafeReadableBytes { self.filter!.append($0) }
                self.writeNow(kept)
            } else {
                bytes.withUnsafeReadableBytes { self.writeNow($0) }
            }
        }
    }

    /// Writes `bytes` at once; on `queue`.
    private func writeNow(_ bytes: some Collection<UInt8>) {
        guard let handle, !failed, !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: Data(bytes))
        } catch {
            failed = true
        }
    }

    /// Waits for the pending writes and closes the file.
    func close() {
        queue.sync {
            if filter != nil {
                let rest = filter!.finish()
                filter = nil
                writeNow(rest)
            }
            try? handle?.synchronize()
            try? handle?.close()
            handle = nil
        }
    }
}
