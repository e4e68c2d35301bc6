import Foundation
import Hummingbird
import MediaTags

/// `POST /api/library/tags`: the tags and stream facts of an uploaded audio file (the body is
/// the file; at most the server's upload limit). `422 unreadable_tags` when the file is not
/// a supported audio file or is malformed, with the reader's reason.
enum TagRoutes {
    static func add(to router: Router<QuintetRequestContext>, uploads: URL, maxUploadBytes: Int, limiter: WorkLimiter) {
        router.post("api/library/tags") { request, _ -> Response in
            let file = try await Upload.save(request.body, limit: maxUploadBytes, in: uploads)
            defer { Upload.remove(file) }
            let info: MediaInfo
            do {
                info = try await limiter.run { try MediaReader.read(path: file.path) }
            } catch let error as MediaTagsError {
                throw APIError(.unprocessableContent, code: "unreadable_tags", message: error.description)
            }
            // `quintet tags --json`'s document as it is (its keys are the tag model's names).
            return try APIJSON.response(TagsSummary(file: nil, info: info), keys: .asDeclared)
        }
    }
}
