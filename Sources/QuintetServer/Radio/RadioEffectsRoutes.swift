import AudioCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The studio's own sound effects (issue 22): short sounds a broadcaster uploads for the effect
/// pads, beside the jingles the project bundles (`Web/radio/studio/jingles/`).
///
/// - `GET /api/radio/effects`: the signed-in user's effects, oldest first:
///   `{"effects": [{"id", "name", "duration", "size", "url"}], "limits": {"bytes", "seconds", "count"}}`.
/// - `POST /api/radio/effects?name=…`: the body is the audio file (any format ffmpeg reads;
///   `Content-Type` is not trusted), at most ``maxBytes``. It must decode as audio and last at
///   most ``maxSeconds``; it is stored re-encoded as MP3 by ffmpeg (metadata stripped), so what the
///   pads play is always one known type. 201 with the effect. 413 past the size, 422
///   `not_audio` / `too_long`, 409 `too_many` past ``maxCount`` effects.
/// - `GET /api/radio/effects/{id}`: the MP3 (its owner only).
/// - `DELETE /api/radio/effects/{id}`: removes it (204).
///
/// Effects live in the data folder, `radio/effects/<user id>/<id>.mp3` with `<id>.json` beside
/// it (name, duration, size, time); nothing in the database refers to them.
enum RadioEffectsRoutes {
    static let maxBytes = 5 * 1_024 * 1_024
    static let maxSeconds = 30.0
    static let maxCount = 24

    struct Effect: Codable, Sendable {
        let id: String
        let name: String
        let duration: Double
        let size: Int
        let createdAt: Date
        var url: String? = nil
    }

    struct Limits: Encodable { let bytes: Int; let seconds: Double; let count: Int }
    struct List: Encodable { let effects: [Effect]; let limits: Limits }

    static func add(to router: Router<QuintetRequestContext>, dataDirectory: URL, auth: Authenticator, limiter: WorkLimiter) {
        let root = dataDirectory.appendingPathComponent("radio/effects")
        let uploads = dataDirectory.appendingPathComponent("uploads")
        let group = router.group("api/radio/effects").addSignIn(auth, required: true)

        group.get { _, context -> Response in
            let user = try context.requireUser()
            let folder = root.appendingPathComponent(String(user.id ?? 0))
            let effects = try await Blocking.run { list(folder) }
            return try APIJSON.response(List(effects: effects, limits: Limits(bytes: maxBytes, seconds: maxSeconds, count: maxCount)))
        }

        group.post { request, context -> Response in
            let user = try context.requireUser()
            let folder = root.appendingPathComponent(String(user.id ?? 0))
            let name = cleanName(request.uri.queryParameters.get("name"))
            guard try await Blocking.run({ list(folder).count }) < maxCount else {
                throw APIError(.conflict, code: "too_many", message: "you have \(maxCount) effects: delete one first")
            }
            let upload = try await Upload.save(request.body, limit: maxBytes, in: uploads)
            defer { Upload.remove(upload) }
            let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            let effect = try await limiter.run { () throws -> Effect in
                let seconds: Double
                do {
                    let decoded = try AudioFileDecoder().decode(upload, options: DecodeOptions(sampleRate: 8000, channelCount: 1,
                                                                                               maxDuration: maxSeconds + 1))
                    seconds = decoded.duration
                } catch {
                    throw APIError(.unprocessableContent, code: "not_audio", message: "the file is not audio ffmpeg can read")
                }
                guard seconds > 0.05 else {
                    throw APIError(.unprocessableContent, code: "not_audio", message: "the file holds no audio")
                }
                guard seconds <= maxSeconds else {
                    throw APIError(.unprocessableContent, code: "too_long",
                                   message: "an effect lasts at most \(Int(maxSeconds)) s; this one is longer")
                }
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let mp3 = folder.appendingPathComponent("\(id).mp3")
                do {
                    try FFmpegDecoder().run(["-hide_banner", "-loglevel", "error", "-y", "-i", upload.path, "-vn", "-map_metadata", "-1",
                                    "-c:a", "libmp3lame", "-b:a", "160k", "-ar", "44100", "-f", "mp3", mp3.path])
                } catch {
                    try? FileManager.default.removeItem(at: mp3)
                    throw APIError(.unprocessableContent, code: "not_audio", message: "the file could not be converted: \(error)")
                }
                let size = (try? FileManager.default.attributesOfItem(atPath: mp3.path)[.size] as? NSNumber)??.intValue ?? 0
                let effect = Effect(id: String(id), name: name, duration: seconds, size: size, createdAt: Date())
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                try encoder.encode(effect).write(to: folder.appendingPathComponent("\(id).json"), options: .atomic)
                return effect
            }
            var answer = effect
            answer.url = "/api/radio/effects/\(effect.id)"
            return try APIJSON.response(answer, status: .created)
        }

        group.get(":id") { request, context -> Response in
            let user = try context.requireUser()
            let file = try effectFile(context, root: root, userID: user.id ?? 0, ext: "mp3")
            guard let data = try await Blocking.run({ try? Data(contentsOf: file) }) else {
                throw APIError(.notFound, message: "no such effect")
            }
            return Response(status: .ok, headers: [.contentType: "audio/mpeg", .cacheControl: "private, max-age=3600"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }

        group.delete(":id") { _, context -> Response in
            let user = try context.requireUser()
            let file = try effectFile(context, root: root, userID: user.id ?? 0, ext: "mp3")
            let removed = try await Blocking.run { () -> Bool in
                let existed = FileManager.default.fileExists(atPath: file.path)
                try? FileManager.default.removeItem(at: file)
                try? FileManager.default.removeItem(at: file.deletingPathExtension().appendingPathExtension("json"))
                return existed
            }
            guard removed else { throw APIError(.notFound, message: "no such effect") }
            return Response(status: .noContent)
        }
    }

    /// The file of effect `{id}` of a user; ids are 16 lowercase hex digits (anything else is 404,
    /// so no path can be smuggled in).
    static func effectFile(_ context: QuintetRequestContext, root: URL, userID: Int64, ext: String) throws -> URL {
        let id = context.parameters.get("id") ?? ""
        guard id.count == 16, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw APIError(.notFound, message: "no such effect")
        }
        return root.appendingPathComponent(String(userID)).appendingPathComponent("\(id).\(ext)")
    }

    /// The effects in a user's folder, oldest first (unreadable sidecars are skipped).
    static func list(_ folder: URL) -> [Effect] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name -> Effect? in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                  var effect = try? decoder.decode(Effect.self, from: data),
                  FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(effect.id).mp3").path) else { return nil }
            effect.url = "/api/radio/effects/\(effect.id)"
            return effect
        }.sorted { $0.createdAt < $1.createdAt }
    }

    /// A display name: control and format characters removed, trimmed, at most `limit`
    /// characters; `fallback` if nothing is left.
    static func cleanName(_ raw: String?, fallback: String = "Effect", limit: Int = 80) -> String {
        let kept = String(String.UnicodeScalarView((raw ?? "").unicodeScalars.filter {
            !($0.properties.generalCategory == .control || $0.properties.generalCategory == .format)
        })).trimmingCharacters(in: .whitespacesAndNewlines)
        return kept.isEmpty ? fallback : String(kept.prefix(limit))
    }
}
