import AudioCore
import Foundation

/// Why a profile picture was refused.
public enum PictureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More than ``ProfilePicture/maxBytes``.
    case tooLarge(Int)
    /// Not a JPEG, PNG or WebP (by its first bytes), or one ffprobe/ffmpeg cannot read.
    case notAnImage(String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes): "a picture has at most \(ProfilePicture.maxBytes / 1_048_576) MB; this one has \(bytes) bytes"
        case .notAnImage(let why): "not a JPEG, PNG or WebP picture: \(why)"
        }
    }
}

/// A user's profile picture: checked (JPEG, PNG or WebP by magic bytes, then read by ffprobe),
/// then re-encoded by ffmpeg — which drops every metadata block (EXIF, GPS, comments) — into
/// `radio/profiles/<user id>/picture.jpg` (at most 1024 px), `picture-256.jpg` and
/// `picture-64.jpg` (squares, centre-cropped) under the data folder.
public enum ProfilePicture {
    /// 5 MB.
    public static let maxBytes = 5 * 1_048_576
    /// The sizes served besides `full`.
    public static let thumbnailSizes = [64, 256]

    /// The format the first bytes announce: `jpeg`, `png`, `webp`, or nil.
    public static func format(of bytes: some Collection<UInt8>) -> String? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "webp" }
        return nil
    }

    /// The folder of user `userID`'s pictures, relative to the data folder.
    public static func folder(userID: Int64) -> String { "radio/profiles/\(userID)" }

    /// The file of a size (`64`, `256` or nil for full), relative to the data folder.
    public static func path(userID: Int64, size: Int?) -> String {
        folder(userID: userID) + (size.map { "/picture-\($0).jpg" } ?? "/picture.jpg")
    }

    /// Checks `data` and writes the re-encoded picture and its thumbnails for `userID` under
    /// `dataDirectory`; returns the full picture's relative path. Throws ``PictureError``.
    public static func store(_ data: Data, userID: Int64, dataDirectory: URL) throws -> String {
        guard data.count <= maxBytes else { throw PictureError.tooLarge(data.count) }
        guard let format = format(of: data) else { throw PictureError.notAnImage("its first bytes are not JPEG, PNG or WebP") }
        let ffmpeg: FFmpegDecoder
        do { ffmpeg = try FFmpegDecoder() } catch { throw PictureError.notAnImage("ffmpeg is missing: \(error)") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let source = work.appendingPathComponent("source.\(format)")
        try data.write(to: source)
        try probe(source, ffprobe: ffmpeg.ffprobePath)
        let folder = dataDirectory.appendingPathComponent(Self.folder(userID: userID))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var made: [(URL, URL)] = []
        let jobs: [(Int?, String)] = [
            (nil, "scale='min(1024,iw)':'min(1024,ih)':force_original_aspect_ratio=decrease"),
            (256, "crop='min(iw,ih)':'min(iw,ih)',scale=256:256"),
            (64, "crop='min(iw,ih)':'min(iw,ih)',scale=64:64"),
        ]
        for (size, filter) in jobs {
            let out = work.appendingPathComponent("out-\(size ?? 0).jpg")
            do {
                try ffmpeg.run(["-y", "-i", source.path, "-map_metadata", "-1", "-frames:v", "1",
                                "-vf", filter + ",format=yuvj420p", "-q:v", "3", "-f", "mjpeg", out.path])
            } catch {
                throw PictureError.notAnImage("ffmpeg could not read it (\(error))")
            }
            made.append((out, dataDirectory.appendingPathComponent(path(userID: userID, size: size))))
        }
        for (from, to) in made {
            _ = try? FileManager.default.removeItem(at: to)
            try FileManager.default.moveItem(at: from, to: to)
        }
        return path(userID: userID, size: nil)
    }

    /// ffprobe must find one image stream (a video stream of a still codec).
    static func probe(_ url: URL, ffprobe: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height",
                             "-of", "csv=p=0", url.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard process.terminationStatus == 0, fields.count >= 3,
              ["mjpeg", "png", "webp"].contains(String(fields[0])),
              let width = Int(fields[1]), let height = Int(fields[2]), width > 0, height > 0 else {
            throw PictureError.notAnImage("ffprobe finds no picture in it")
        }
        guard width <= 10_000, height <= 10_000 else { throw PictureError.notAnImage("\(width)×\(height) is larger than 10000 px") }
    }
}
