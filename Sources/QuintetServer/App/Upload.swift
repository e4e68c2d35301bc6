import Foundation
import Hummingbird

/// Streams a request body to a file in the data folder's `uploads/`, refusing bodies over a limit.
enum Upload {
    /// Writes `body` to a new file in `directory` and returns its URL; throws 413 (and leaves
    /// no file behind) past `limit` bytes, 400 for an empty body. The caller removes the file.
    static func save(_ body: RequestBody, limit: Int, in directory: URL) async throws -> URL {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw APIError(.internalServerError, code: "internal_error", message: "cannot create a temporary file")
        }
        var written = 0
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            for try await chunk in body {
                written += chunk.readableBytes
                guard written <= limit else {
                    throw APIError(.contentTooLarge, message: "the upload is larger than the limit of \(limit) bytes (\(String(format: "%.1f", Double(limit) / 1_048_576)) MiB)")
                }
                try handle.write(contentsOf: Data(buffer: chunk))
            }
            guard written > 0 else { throw APIError(.badRequest, code: "invalid_input", message: "the request body is empty: send the audio file as the body") }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return url
    }
}
