import Foundation
import Hummingbird
import QuintetStore
import Radio

/// The signed-in user's own profile, their picture, and the plans an admin manages
/// (issue 24 §1).
///
/// - `GET /api/radio/profile` → every field (empty ones as `""`/null) with plan, usage and
///   follow counts; `PUT` the same fields (a full replacement: a missing field is cleared) →
///   the profile, 400 `invalid_input` naming the refused field.
/// - `PUT /api/radio/profile/picture` (JPEG, PNG or WebP bytes, ≤ 5 MB) → the profile; 413
///   when larger, 422 `not_an_image` when the bytes are no picture ffprobe reads.
/// - `GET /radio/users/{id}/picture?size=64|256|full` → the re-encoded JPEG (404 without one).
/// - Plans (admin): `GET/POST /api/radio/plans`, `PUT/DELETE /api/radio/plans/{name}`,
///   `PUT /api/users/{name}/plan` `{"plan": "free"|null}`.
enum ProfileRoutes {
    struct PlanBody: Decodable {
        let name: String?
        let maxEpisodeSeconds: Int?
        let maxEpisodesOnline: Int?
        let maxStorageBytes: Int64?
        let isDefault: Bool?
        enum CodingKeys: String, CodingKey {
            case name
            case maxEpisodeSeconds = "max_episode_seconds"
            case maxEpisodesOnline = "max_episodes_online"
            case maxStorageBytes = "max_storage_bytes"
            case isDefault = "is_default"
        }
    }
    struct Assign: Decodable { let plan: String? }

    /// `limiter` runs the picture's ffprobe and ffmpeg (CPU-heavy) with the server's other jobs,
    /// one per core.
    static func add(to router: Router<QuintetRequestContext>, database: QuintetDatabase, auth: Authenticator,
                    limiter: WorkLimiter) {
        let profiles = RadioProfiles(database: database)
        let plans = RadioPlans(database: database)
        let dataDirectory = database.directory
        let api = router.group("api").addSignIn(auth, required: true)

        api.get("radio/profile") { _, context -> Response in
            let user = try context.requireUser()
            return try APIJSON.response(try await run { try profiles.profile(userID: user.id ?? 0) })
        }
        api.put("radio/profile") { request, context -> Response in
            let user = try context.requireUser()
            let edit = try await request.decode(as: ProfileEdit.self, context: context)
            return try APIJSON.response(try await run { try profiles.update(userID: user.id ?? 0, edit) })
        }
        api.put("radio/profile/picture") { request, context -> Response in
            let user = try context.requireUser()
            let buffer: ByteBuffer
            do { buffer = try await request.body.collect(upTo: ProfilePicture.maxBytes) } catch {
                throw APIError(.contentTooLarge, code: "too_large", message: PictureError.tooLarge(ProfilePicture.maxBytes + 1).description)
            }
            let data = Data(buffer: buffer)
            let id = user.id ?? 0
            do {
                let path = try await limiter.run { try ProfilePicture.store(data, userID: id, dataDirectory: dataDirectory) }
                try await Blocking.run { try profiles.setPicture(userID: id, path: path) }
            } catch let failure as PictureError {
                switch failure {
                case .tooLarge: throw APIError(.contentTooLarge, code: "too_large", message: failure.description)
                case .notAnImage: throw APIError(.unprocessableContent, code: "not_an_image", message: failure.description)
                }
            }
            return try APIJSON.response(try await run { try profiles.profile(userID: id) })
        }

        router.get("radio/users/{id}/picture") { request, context -> Response in
            let id = try context.parameters.id()
            let size: Int?
            switch request.uri.queryParameters.get("size") ?? "full" {
            case "full": size = nil
            case "64": size = 64
            case "256": size = 256
            default: throw APIError(.badRequest, code: "invalid_input", message: "size is 64, 256 or full")
            }
            guard try await Blocking.run({ try profiles.picture(userID: id) }) != nil else {
                throw APIError(.notFound, message: "user \(id) has no picture")
            }
            let url = dataDirectory.appendingPathComponent(ProfilePicture.path(userID: id, size: size))
            return try await FileAnswer(path: url.path, contentType: "image/jpeg", cacheControl: "public, max-age=300",
                                        missing: APIError(.notFound, message: "user \(id) has no picture"))
                .response(to: request, context: context)
        }

        // MARK: plans (admin)

        api.get("radio/plans") { _, context -> Response in
            try requireAdmin(context)
            return try APIJSON.response(try await run { try plans.list() })
        }
        api.post("radio/plans") { request, context -> Response in
            try requireAdmin(context)
            let body = try await request.decode(as: PlanBody.self, context: context)
            guard let name = body.name, let seconds = body.maxEpisodeSeconds else {
                throw APIError(.badRequest, code: "invalid_input", message: "a plan needs name and max_episode_seconds")
            }
            let plan = try await run {
                try plans.add(name: name, maxEpisodeSeconds: seconds, maxEpisodesOnline: body.maxEpisodesOnline,
                              maxStorageBytes: body.maxStorageBytes, isDefault: body.isDefault ?? false)
            }
            return try APIJSON.response(plan, status: .created)
        }
        api.put("radio/plans/{name}") { request, context -> Response in
            try requireAdmin(context)
            let name = context.parameters.get("name") ?? ""
            let body = try await request.decode(as: PlanBody.self, context: context)
            let plan = try await run { () throws -> RadioPlan in
                var plan = try plans.set(name: name, maxEpisodeSeconds: body.maxEpisodeSeconds,
                                         maxEpisodesOnline: body.maxEpisodesOnline, maxStorageBytes: body.maxStorageBytes)
                if body.isDefault == true { try plans.setDefault(name: plan.name); plan.isDefault = true }
                return plan
            }
            return try APIJSON.response(plan)
        }
        api.delete("radio/plans/{name}") { _, context -> Response in
            try requireAdmin(context)
            let name = context.parameters.get("name") ?? ""
            try await run { try plans.remove(name: name) }
            return Response(status: .noContent)
        }
        api.put("users/{name}/plan") { request, context -> Response in
            try requireAdmin(context)
            let name = context.parameters.get("name") ?? ""
            let body = try await request.decode(as: Assign.self, context: context)
            guard let user = try await Blocking.run({ try auth.users.find(name: name) }) else {
                throw APIError(.notFound, message: "no user named '\(name)'")
            }
            try await run { try plans.assign(userID: user.id ?? 0, plan: body.plan) }
            return try APIJSON.response(try await run { try profiles.profile(userID: user.id ?? 0) })
        }
    }

    static func requireAdmin(_ context: QuintetRequestContext) throws {
        guard try context.requireUser().role == .admin else {
            throw APIError(.forbidden, code: "forbidden", message: "only an admin may manage plans")
        }
    }

    /// Store work on the blocking pool; refusals become 400 `invalid_input` (404 for a missing plan).
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do { return try await Blocking.run(body) } catch let error as RadioStoreError {
            switch error {
            case .invalid(let m) where m.hasPrefix("no plan named"): throw APIError(.notFound, message: m)
            case .ownerNotFound: throw APIError(.notFound, message: error.description)
            default: throw APIError(.badRequest, code: "invalid_input", message: error.description)
            }
        }
    }
}
