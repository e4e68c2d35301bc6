import AudioCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Radio

/// Resumable episode uploads (issue 22: the studio's "record here, publish later" keeps a
/// broadcast in the browser and sends it afterwards; a connection that breaks mid-upload
/// continues where it stopped).
///
/// - `POST /api/radio/shows/{id}/uploads` `{"type": "audio/webm", "title": "…"}` → 201
///   `{"id", "offset": 0, "type", "show", "title"}`: a new upload for a show the user owns (or
///   any show, for an admin).
/// - `GET /api/radio/uploads/{id}` → the same, with `offset` = the bytes the server holds.
/// - `PUT /api/radio/uploads/{id}?offset=N` with the next bytes as the body (at most
///   ``maxPiece``): appended when N is what the server holds (else 409 `offset_mismatch`, and
///   `GET` says where to go on) → `{"offset"}`.
/// - `POST /api/radio/uploads/{id}/finish` → 201 the episode (`{"id", "title", "duration",
///   "state"}`): the bytes are converted to MP3 by ffmpeg (WebM, Ogg, MP3, AAC, WAV… anything it
///   reads; 422 `not_audio` otherwise), brought to −16 LUFS like a live broadcast, and imported
///   as an episode of the show (published or not as the show says).
/// - `DELETE /api/radio/uploads/{id}` → 204: abandoned.
///
/// Uploads live in the data folder's `uploads/radio/<id>.part` with a JSON sidecar; only the
/// user who started one sees it. At most ``maxBytes`` in all (a 4-hour Opus broadcast is about
/// 230 MB at 128 kbit/s).
enum RadioUploadRoutes {
    static let maxBytes: Int64 = 1 << 30
    static let maxPiece = 16 << 20

    struct Session: Codable, Sendable {
        let id: String
        let userID: Int64
        let show: Int64
        let type: String
        let title: String
        let createdAt: Date
    }

    struct SessionView: Encodable {
        let id: String, show: Int64, type: String, title: String, offset: Int64
    }

    struct Start: Decodable { let type: String?; let title: String? }

    struct Finished: Encodable { let id: Int64; let title: String; let duration: Double; let state: String }

    static func add(to router: Router<QuintetRequestContext>, store: RadioStore, dataDirectory: URL, auth: Authenticator,
                    limiter: WorkLimiter) {
        let folder = dataDirectory.appendingPathComponent("uploads/radio")
        let api = router.group("api/radio").addSignIn(auth, required: true)

        api.post("shows/:id/uploads") { request, context -> Response in
            let user = try context.requireUser()
            let showID = try context.parameters.id()
            guard let show = try await Blocking.run({ try store.show(id: showID) }) else {
                throw APIError(.notFound, message: "no show \(showID)")
            }
            guard user.role == .admin || user.id == show.ownerID else {
                throw APIError(.forbidden, code: "forbidden", message: "only the show's owner or an admin may add episodes to it")
            }
            // A full plan storage is said before a byte is sent (the finished episode is checked
            // again against what it takes once converted).
            try await Blocking.run { try RadioPlans(database: store.database).checkStorageLeft(ownerID: show.ownerID) }
            let start: Start
            do { start = try await request.decode(as: Start.self, context: context) } catch {
                throw APIError(.badRequest, code: "invalid_json", message: "send {\"type\": \"audio/webm\", \"title\": \"…\"}")
            }
            let type = String((start.type ?? "audio/webm").prefix(100))
            let title = RadioEffectsRoutes.cleanName(start.title, fallback: "Recorded \(Self.day())", limit: 200)
            let session = Session(id: newID(), userID: user.id ?? 0, show: showID, type: type, title: title, createdAt: Date())
            try await Blocking.run {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: part(session.id, folder).path, contents: nil) else {
                    throw APIError(.internalServerError, code: "internal_error", message: "cannot create the upload file")
                }
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                try encoder.encode(session).write(to: sidecar(session.id, folder), options: .atomic)
            }
            return try APIJSON.response(view(session, offset: 0), status: .created)
        }

        api.get("uploads/:id") { _, context -> Response in
            let (session, offset) = try await load(context, folder: folder)
            return try APIJSON.response(view(session, offset: offset))
        }

        api.put("uploads/:id") { request, context -> Response in
            let (session, offset) = try await load(context, folder: folder)
            guard let claimed = request.uri.queryParameters.get("offset").flatMap({ Int64($0) }), claimed >= 0 else {
                throw APIError(.badRequest, code: "invalid_input", message: "give the offset of these bytes: ?offset=N")
            }
            guard claimed == offset else {
                throw APIError(.conflict, code: "offset_mismatch",
                               message: "the server holds \(offset) bytes of this upload; send from there (?offset=\(offset))")
            }
            let file = part(session.id, folder)
            let handle = try await Blocking.run { try FileHandle(forWritingTo: file) }
            var written: Int64 = 0
            do {
                try await Blocking.run { try handle.seekToEnd() }
                for try await chunk in request.body {
                    written += Int64(chunk.readableBytes)
                    guard written <= maxPiece else {
                        throw APIError(.contentTooLarge, message: "send at most \(maxPiece) bytes per request")
                    }
                    guard offset + written <= maxBytes else {
                        throw APIError(.contentTooLarge, message: "an upload holds at most \(maxBytes / 1_048_576) MiB")
                    }
                    let data = Data(buffer: chunk)
                    try await Blocking.run { try handle.write(contentsOf: data) }
                }
                try await Blocking.run { try handle.close() }
            } catch {
                // What arrived of this piece before the break is kept only up to whole bytes
                // written; a refused piece is cut back off so the offset stays what the client knows.
                try? await Blocking.run {
                    try? handle.close()
                    if error is APIError { try truncate(file, to: offset) }
                }
                throw error
            }
            struct Offset: Encodable { let offset: Int64 }
            return try APIJSON.response(Offset(offset: offset + written))
        }

        api.post("uploads/:id/finish") { _, context -> Response in
            let (session, offset) = try await load(context, folder: folder)
            guard offset > 0 else { throw APIError(.badRequest, code: "invalid_input", message: "nothing was uploaded") }
            let source = part(session.id, folder)
            let episode = try await limiter.run { () throws -> RadioEpisode in
                let mp3 = folder.appendingPathComponent("\(session.id).mp3")
                defer { try? FileManager.default.removeItem(at: mp3) }
                let ffmpeg = try FFmpegDecoder()
                do {
                    try ffmpeg.run(["-hide_banner", "-y", "-i", source.path, "-vn", "-map_metadata", "-1",
                                    "-c:a", "libmp3lame", "-b:a", "128k", "-ar", "44100", "-id3v2_version", "0",
                                    "-f", "mp3", mp3.path])
                } catch {
                    throw APIError(.unprocessableContent, code: "not_audio", message: "the upload is not audio ffmpeg can read: \(error)")
                }
                _ = try? LoudnessNormalizer(ffmpeg: ffmpeg).normalize(fileAt: mp3, format: .mp3(bitrate: 128))
                do {
                    return try store.importEpisode(showID: session.show, file: mp3, title: session.title)
                } catch RadioStoreError.badAudio(let reason) {
                    throw APIError(.unprocessableContent, code: "not_audio", message: reason)
                }
            }
            try? await Blocking.run {
                try? FileManager.default.removeItem(at: source)
                try? FileManager.default.removeItem(at: sidecar(session.id, folder))
            }
            return try APIJSON.response(Finished(id: episode.id ?? 0, title: episode.title, duration: episode.duration,
                                                 state: episode.state.rawValue), status: .created)
        }

        api.delete("uploads/:id") { _, context -> Response in
            let (session, _) = try await load(context, folder: folder)
            try? await Blocking.run {
                try? FileManager.default.removeItem(at: part(session.id, folder))
                try? FileManager.default.removeItem(at: sidecar(session.id, folder))
            }
            return Response(status: .noContent)
        }
    }

    static func newID() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    static func part(_ id: String, _ folder: URL) -> URL { folder.appendingPathComponent("\(id).part") }
    static func sidecar(_ id: String, _ folder: URL) -> URL { folder.appendingPathComponent("\(id).json") }

    static func view(_ session: Session, offset: Int64) -> SessionView {
        SessionView(id: session.id, show: session.show, type: session.type, title: session.title, offset: offset)
    }

    /// The upload `{id}` of the signed-in user and the bytes it holds; 404 for anything else
    /// (another user's, a malformed id).
    static func load(_ context: QuintetRequestContext, folder: URL) async throws -> (Session, Int64) {
        let user = try context.requireUser()
        let id = context.parameters.get("id") ?? ""
        guard id.count == 32, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw APIError(.notFound, message: "no such upload")
        }
        let found = try await Blocking.run { () -> (Session, Int64)? in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            guard let data = try? Data(contentsOf: sidecar(id, folder)),
                  let session = try? decoder.decode(Session.self, from: data),
                  let size = (try? FileManager.default.attributesOfItem(atPath: part(id, folder).path)[.size] as? NSNumber)??.int64Value
            else { return nil }
            return (session, size)
        }
        guard let found, found.0.userID == user.id ?? -1 else { throw APIError(.notFound, message: "no such upload") }
        return found
    }

    static func truncate(_ file: URL, to size: Int64) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size))
    }

    static func day() -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}
