import AudioCore
import Crypto
import Foundation
import Radio
import HTTPTypes
import Hummingbird
import LibraryCore
import MediaTags
import WireFormats

/// Audio and images out of the library: files with HTTP ranges, transcodes through ffmpeg
/// while they stream, and cover images with thumbnails made by ffmpeg and cached. Shared by
/// `/api/library/*` and the Subsonic API.
public struct MediaResponder: Sendable {
    /// Formats a stream can be transcoded to: the ffmpeg arguments and the content type.
    public enum TranscodeFormat: String, Sendable, CaseIterable {
        case mp3, opus

        var contentType: String { self == .mp3 ? "audio/mpeg" : "audio/ogg; codecs=opus" }
        var defaultBitrate: Int { self == .mp3 ? 192 : 128 }
        func arguments(bitrate: Int) -> [String] {
            switch self {
            case .mp3: ["-c:a", "libmp3lame", "-b:a", "\(bitrate)k", "-f", "mp3"]
            case .opus: ["-c:a", "libopus", "-b:a", "\(bitrate)k", "-f", "ogg"]
            }
        }
    }

    /// Bitrates a transcode accepts, kbit/s.
    public static let bitrates = 32...320
    /// Edge lengths a thumbnail accepts, pixels.
    public static let thumbnailSizes = 16...1024
    /// Largest picture served (a folder image can be anything).
    static let maxImageBytes = 32 << 20

    let coverCache: URL
    let limiter: WorkLimiter
    private let ffmpegPath: String?

    init(dataDirectory: URL, limiter: WorkLimiter) {
        coverCache = dataDirectory.appendingPathComponent("cache/covers")
        self.limiter = limiter
        ffmpegPath = try? FFmpegDecoder().ffmpegPath
    }

    // MARK: files

    /// A song's file with ranges (``FileAnswer``).
    func file(_ url: URL, contentType: String, request: Request, context: some RequestContext,
              download name: String? = nil) async throws -> Response {
        try await FileAnswer(
            path: url.path, contentType: contentType, cacheControl: "private, max-age=3600",
            missing: APIError(.notFound, code: "file_missing", message: "the song's file is no longer in the library folder; rescan"),
            downloadName: name
        ).response(to: request, context: context)
    }

    // MARK: transcoding

    /// The file transcoded by ffmpeg as it streams (no ranges: `Accept-Ranges: none`). The
    /// first chunk is read before answering, so a file ffmpeg cannot decode gets a 422 with
    /// ffmpeg's reason instead of an empty 200. A client that goes away stops ffmpeg.
    func transcode(_ url: URL, format: TranscodeFormat, bitrate: Int?, request: Request) async throws -> Response {
        guard let ffmpegPath else {
            throw APIError(.serviceUnavailable, code: "ffmpeg_missing", message: "transcoding needs ffmpeg on the server's PATH")
        }
        let kbps = bitrate ?? format.defaultBitrate
        guard Self.bitrates.contains(kbps) else {
            throw APIError(.badRequest, code: "invalid_input", message: "bitrate must be between 32 and 320 kbit/s, not \(kbps)")
        }
        let headers: HTTPFields = [.contentType: format.contentType, .acceptRanges: "none", .cacheControl: "no-store"]
        if request.method == .head { return Response(status: .ok, headers: headers, body: ResponseBody()) }
        let arguments = ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:a:0", "-vn", "-sn", "-dn",
                         "-map_metadata", "-1"] + format.arguments(bitrate: kbps) + ["pipe:1"]
        let running = RunningProcess(try ChildProcess(executable: ffmpegPath, arguments: arguments))
        let first = await running.read()
        guard !first.isEmpty else {
            let reason = await running.finish()
            throw APIError(.unprocessableContent, code: "transcode_failed", message: "ffmpeg could not transcode the file: \(reason)")
        }
        let body = ResponseBody { writer in
            do {
                try await writer.write(ByteBuffer(data: first))
                while true {
                    let chunk = await running.read()
                    if chunk.isEmpty { break }
                    try await writer.write(ByteBuffer(data: chunk))
                }
                _ = await running.finish()
                try await writer.finish(nil)
            } catch {
                await running.stop()
                throw error
            }
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    // MARK: covers

    /// A cover image: the original bytes, or with `size` a JPEG thumbnail at most size × size
    /// made by ffmpeg and cached under `DATA/cache/covers` (keyed by the source and its mtime).
    func cover(_ source: CoverSource, catalog: Catalog, size: Int?) async throws -> Response {
        let (bytes, mime, stamp) = try await limiter.run { try Self.original(source, catalog: catalog) }
        guard let size else {
            return Response(status: .ok, headers: [.contentType: mime, .cacheControl: "private, max-age=86400"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        guard Self.thumbnailSizes.contains(size) else {
            throw APIError(.badRequest, code: "invalid_input", message: "size must be between 16 and 1024 pixels, not \(size)")
        }
        let key = SHA256.hash(data: Data("\(stamp)|\(size)".utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        let target = coverCache.appendingPathComponent("\(key).jpg")
        if !(try await Blocking.run { FileManager.default.fileExists(atPath: target.path) }) {
            guard let ffmpegPath else {
                throw APIError(.serviceUnavailable, code: "ffmpeg_missing", message: "thumbnails need ffmpeg on the server's PATH")
            }
            let cache = coverCache
            try await limiter.run {
                try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
                let input = cache.appendingPathComponent("\(key).src-\(UUID().uuidString)")
                let partial = cache.appendingPathComponent("\(key).part-\(UUID().uuidString).jpg")
                defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: partial) }
                try Data(bytes).write(to: input)
                do {
                    try FFmpegDecoder(ffmpegPath: ffmpegPath).run([
                        "-nostdin", "-y", "-i", input.path, "-frames:v", "1",
                        "-vf", "scale=w='min(\(size),iw)':h='min(\(size),ih)':force_original_aspect_ratio=decrease",
                        "-q:v", "3", partial.path,
                    ])
                } catch {
                    throw APIError(.unprocessableContent, code: "unreadable_image", message: "the cover image cannot be decoded: \(error)")
                }
                _ = try? FileManager.default.replaceItemAt(target, withItemAt: partial)
                if !FileManager.default.fileExists(atPath: target.path) { try FileManager.default.moveItem(at: partial, to: target) }
            }
        }
        guard let data = try await Blocking.run({ FileManager.default.contents(atPath: target.path) }) else {
            throw APIError(.internalServerError, code: "internal_error", message: "the thumbnail could not be read back")
        }
        return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=86400"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The original image bytes, their type, and a stamp that changes when the source does.
    static func original(_ source: CoverSource, catalog: Catalog) throws -> ([UInt8], String, String) {
        switch source {
        case .file(let path):
            let url = try catalog.fileURL(relative: path)
            guard let info = FileFacts(path: url.path), info.size <= maxImageBytes,
                  let data = FileManager.default.contents(atPath: url.path) else {
                throw APIError(.notFound, code: "no_cover", message: "the cover image \(path) is missing or too large")
            }
            let bytes = [UInt8](data)
            return (bytes, TagValues.imageMimeType(bytes), "\(url.path)|\(info.modified)|\(info.size)")
        case .embedded(let path):
            let url = try catalog.fileURL(relative: path)
            guard let info = FileFacts(path: url.path), let picture = try? MediaReader.read(path: url.path).tags.cover else {
                throw APIError(.notFound, code: "no_cover", message: "the embedded picture of \(path) cannot be read")
            }
            let bytes = [UInt8](picture.data)
            return (bytes, TagValues.imageMimeType(bytes), "\(url.path)|\(info.modified)|\(info.size)")
        }
    }
}

/// An ffmpeg child whose output is read chunk by chunk on the blocking pool (``Blocking``),
/// never on the server's cooperative threads.
struct RunningProcess: Sendable {
    let child: ChildProcess

    init(_ child: ChildProcess) { self.child = child }

    /// The next chunk of output; empty at the end (or when reading fails).
    func read() async -> Data {
        (try? await Blocking.run { [child] in try child.read() }) ?? Data()
    }

    /// Waits for the process to end; returns the last line of its error output.
    func finish() async -> String {
        (try? await Blocking.run { [child] in
            child.waitForExit()
            return child.errorSummary
        }) ?? "ffmpeg did not finish"
    }

    /// Stops the process (the client went away) and reaps it on the blocking pool.
    func stop() async {
        child.terminate()
        _ = try? await Blocking.run { [child] in child.waitForExit() }
    }
}

/// Size and modification time of a regular file (POSIX `stat`), nil for anything else.
struct FileFacts {
    let size: Int
    /// Seconds since 1970.
    let modified: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int(info.st_size)
        #if canImport(Darwin)
        modified = Int(info.st_mtimespec.tv_sec)
        #else
        modified = Int(info.st_mtim.tv_sec)
        #endif
    }
}
