import Foundation
import Hummingbird

/// Streams a request body to a file in the data folder's `uploads/`, refusing bodies over a limit.
/// The file work runs on the blocking pool (``Blocking``), never on the server's threads.
enum Upload {
    /// Writes `body` to a new file in `directory` and returns its URL; throws 413 (and leaves
    /// no file behind) past `limit` bytes, 400 for an empty body. The caller removes the file
    /// (``remove(_:)``).
    static func save(_ body: RequestBody, limit: Int, in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("upload-\(UUID().uuidString)")
        let handle = try await Blocking.run { () throws -> FileHandle in
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw APIError(.internalServerError, code: "internal_error", message: "cannot create a temporary file")
            }
            return try FileHandle(forWritingTo: url)
        }
        var written = 0
        do {
            for try await chunk in body {
                written += chunk.readableBytes
                guard written <= limit else {
                    throw APIError(.contentTooLarge, message: "the upload is larger than the limit of \(limit) bytes (\(String(format: "%.1f", Double(limit) / 1_048_576)) MiB)")
                }
                let data = Data(buffer: chunk)
                try await Blocking.run { try handle.write(contentsOf: data) }
            }
            try await Blocking.run { try handle.close() }
            guard written > 0 else { throw APIError(.badRequest, code: "invalid_input", message: "the request body is empty: send the audio file as the body") }
        } catch {
            try? await Blocking.run {
                try? handle.close()
                try FileManager.default.removeItem(at: url)
            }
            throw error
        }
        return url
    }

    /// Removes an upload once answered (callable from a `defer`). One `unlink`, done at once
    /// rather than on the pool: the answer must leave nothing behind, and an unowned task to
    /// do it later would be the kind of loose work the concurrency rule forbids.
    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
