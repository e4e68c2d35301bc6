import AudioCore
import Foundation
import HTTPTypes
import Hummingbird
import QuintetStore
import Radio

/// The show and episode editors' API (issue 24 §2; docs/radio.md, "Community: shows, episodes
/// and their editors"). Thin: ``RadioStore`` holds the rules (RadioStore+Editing, +Trash).
///
/// - `GET /api/radio/categories`: Apple Podcasts' categories (``PodcastCategory/all``).
/// - `POST /api/radio/shows`: a new show of the signed-in user → 201 with its `stream_key` (shown once).
/// - `PATCH /api/radio/shows/{id}`, `PATCH /api/radio/episodes/{id}`: edit (owner or admin, else 403).
/// - `PUT /api/radio/shows/{id}/cover`: an image (≤ ``maxCoverBytes``) re-encoded by ffmpeg to
///   JPEG at `radio/covers/<id>.jpg` (metadata stripped).
/// - `DELETE` a show or episode: hidden at once, `POST …/restore` undoes within 30 days.
/// - `GET /api/radio/deleted`: the signed-in user's deleted shows and episodes.
enum RadioShowEditRoutes {
    /// Largest cover upload.
    static let maxCoverBytes = 5 << 20
    /// Largest JSON body.
    static let maxJSONBytes = 64 << 10

    struct ShowFields: Decodable {
        var title: String?, description: String?, cover: String?, language: String?, explicit: Bool?
        var category: String?, subcategory: String?, publishAutomatically: Bool?
        enum CodingKeys: String, CodingKey {
            case title, description, cover, language, explicit, category, subcategory
            case publishAutomatically = "publish_automatically"
        }
        var changes: RadioStore.ShowChanges {
            .init(title: title, description: description, cover: cover, language: language, explicit: explicit,
                  category: category, subcategory: subcategory, publishAutomatically: publishAutomatically)
        }
    }

    struct EpisodeFields: Decodable { var title: String?, description: String?, published: Bool? }

    struct Created: Encodable { let show: RadioRoutes.ShowView; let streamKey: String }

    struct Deleted: Encodable { let id: Int64; let deletedAt: Date; let restoreUntil: Date }

    struct Trash: Encodable { let shows: [RadioRoutes.ShowView]; let episodes: [RadioRoutes.EpisodeView] }

    static func add(to router: Router<QuintetRequestContext>, routes: RadioRoutes.Handlers, auth: Authenticator) {
        let radio = routes.radio
        router.get("api/radio/categories") { _, _ in try APIJSON.response(PodcastCategory.all) }
        let api = router.group("api/radio").addSignIn(auth, required: true)

        api.post("shows") { request, context -> Response in
            let user = try context.requireUser()
            let fields = try await decode(ShowFields.self, request)
            let base = routes.baseURL(request)
            let created = try await routes.blocking { () -> Created in
                let show = try radio.createShow(owner: user.id ?? 0, RadioStore.NewShow(
                    title: fields.title ?? "", description: fields.description ?? "", cover: fields.cover,
                    language: fields.language ?? "en", explicit: fields.explicit ?? false,
                    publishAutomatically: fields.publishAutomatically ?? true,
                    category: fields.category, subcategory: fields.subcategory))
                return Created(show: try routes.view(of: show, viewer: user, base: base), streamKey: show.streamKey)
            }
            return try APIJSON.response(created, status: .created)
        }

        api.patch("shows/{id}") { request, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let fields = try await decode(ShowFields.self, request)
            let base = routes.baseURL(request)
            let view = try await routes.blocking {
                try routes.view(of: radio.editShow(id: id, by: user, fields.changes), viewer: user, base: base)
            }
            return try APIJSON.response(view)
        }

        api.put("shows/{id}/cover") { request, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            _ = try await routes.blocking { try radio.editableShow(id: id, by: user) }
            let upload = try await Upload.save(request.body, limit: maxCoverBytes, in: radio.dataDirectory.appendingPathComponent("uploads"))
            defer { Upload.remove(upload) }
            let base = routes.baseURL(request)
            let view = try await routes.blocking { () -> RadioRoutes.ShowView in
                try storeCover(upload, showID: id, radio: radio)
                let show = try radio.editShow(id: id, by: user, .init(cover: RadioStore.uploadedCoverPath(showID: id)))
                return try routes.view(of: show, viewer: user, base: base)
            }
            return try APIJSON.response(view)
        }

        api.delete("shows/{id}") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let show = try await routes.blocking { try radio.deleteShow(id: id, by: user) }
            let at = show.deletedAt ?? Date()
            return try APIJSON.response(Deleted(id: id, deletedAt: at, restoreUntil: at.addingTimeInterval(RadioStore.undoInterval)))
        }

        api.post("shows/{id}/restore") { request, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let base = routes.baseURL(request)
            let view = try await routes.blocking {
                try routes.view(of: radio.restoreShow(id: id, by: user), viewer: user, base: base)
            }
            return try APIJSON.response(view)
        }

        api.patch("episodes/{id}") { request, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let fields = try await decode(EpisodeFields.self, request)
            let view = try await routes.blocking { () -> RadioRoutes.EpisodeView in
                let episode = try radio.editEpisode(id: id, by: user, .init(title: fields.title, description: fields.description,
                                                                            published: fields.published))
                let show = try radio.editableShow(id: episode.showID, by: user)
                return routes.view(of: episode, show: show)
            }
            return try APIJSON.response(view)
        }

        api.delete("episodes/{id}") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let episode = try await routes.blocking { try radio.deleteEpisode(id: id, by: user) }
            let at = episode.deletedAt ?? Date()
            return try APIJSON.response(Deleted(id: id, deletedAt: at, restoreUntil: at.addingTimeInterval(RadioStore.undoInterval)))
        }

        api.post("episodes/{id}/restore") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let view = try await routes.blocking { () -> RadioRoutes.EpisodeView in
                let episode = try radio.restoreEpisode(id: id, by: user)
                return routes.view(of: episode, show: try radio.editableShow(id: episode.showID, by: user, includeDeleted: true))
            }
            return try APIJSON.response(view)
        }

        api.get("deleted") { request, context -> Response in
            let user = try context.requireUser()
            let base = routes.baseURL(request)
            let trash = try await routes.blocking { () -> Trash in
                let shows = try radio.deletedShows(owner: user.id ?? 0)
                var owned: [Int64: RadioShow] = [:]
                for show in try radio.shows(owner: user.id ?? 0) { owned[show.id!] = show }
                let episodes = try radio.deletedEpisodes(owner: user.id ?? 0).compactMap { episode in
                    owned[episode.showID].map { routes.view(of: episode, show: $0) }
                }
                return Trash(shows: try shows.map { try routes.view(of: $0, viewer: user, base: base) }, episodes: episodes)
            }
            return try APIJSON.response(trash)
        }
    }

    /// The body as JSON of `type`; 400 `invalid_json` when it is not.
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maxJSONBytes) } catch {
            throw APIError(.contentTooLarge, message: "the JSON body is larger than \(maxJSONBytes) bytes")
        }
        do { return try JSONDecoder().decode(T.self, from: Data(buffer: buffer)) } catch {
            throw APIError(.badRequest, code: "invalid_json", message: "the body is not the JSON object expected: \(error.localizedDescription)")
        }
    }

    /// Re-encodes an uploaded image to a JPEG (at most 3000 px a side, metadata stripped) at the
    /// show's cover place; 422 `not_image` when ffmpeg cannot read it as an image.
    static func storeCover(_ upload: URL, showID: Int64, radio: RadioStore) throws {
        let target = radio.uploadedCoverFile(showID: showID)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = target.deletingLastPathComponent().appendingPathComponent("\(showID)-\(UUID().uuidString).jpg")
        do {
            try FFmpegDecoder().run(["-y", "-i", upload.path, "-frames:v", "1", "-map_metadata", "-1",
                                     "-vf", "scale='min(3000,iw)':'min(3000,ih)':force_original_aspect_ratio=decrease",
                                     "-q:v", "3", "-f", "image2", "-c:v", "mjpeg", temporary.path])
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw APIError(.unprocessableContent, code: "not_image", message: "the file is not an image ffmpeg can read (JPEG, PNG, WebP…)")
        }
        _ = try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: temporary, to: target)
    }
}
