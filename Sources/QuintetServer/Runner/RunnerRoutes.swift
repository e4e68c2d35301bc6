import Cadence
import Foundation
import Hummingbird
import LibraryCore

/// `/api/runner/*`: cadence from an accelerometer log, and the library's song for a cadence.
///
/// - `POST /api/runner/cadence?method=default|thesis`: the body is a sensor log (CSV or JSON
///   Lines, as `quintet cadence` reads it), at most `maxUploadBytes`; answers exactly
///   `quintet cadence --json`'s document. A log that cannot be read → 400 `invalid_log`
///   naming the line. Needs no user, like `POST /api/tempo`: it reads only the upload.
/// - `GET /api/runner/next?cadence=170&mode=nearest|ranges&sprint=true|false&exclude=ID,ID`
///   (needs a user): `{"song": {id, title, artist, bpm, bpm_source, path, stream_url}, "target_bpm",
///   "effective_bpm", "fallback", "reason"?}`. A cadence outside 30–300 → 400; no song with a
///   BPM (or all excluded, or on the user's never-while-running list) → 404 with code
///   `empty_library`, `no_tempo` or `all_played`.
/// - `GET /api/runner/songs`, `GET|PUT|DELETE /api/runner/never…`: see ``RunnerSongRoutes``.
enum RunnerRoutes {
    /// A song as the runner's routes and socket show it.
    struct SongSummary: Encodable {
        let id: Int64, title: String, artist: String, bpm: Double?, bpmSource: String?, path: String, streamURL: String
        enum CodingKeys: String, CodingKey { case id, title, artist, bpm, bpmSource = "bpm_source", path, streamURL = "stream_url" }

        init(_ song: CatalogSong) {
            id = song.id; title = song.title; artist = song.artist; bpm = song.bpm; bpmSource = song.bpmSource; path = song.path
            streamURL = "/api/library/songs/\(song.id)/stream"
        }
    }

    struct NextAnswer: Encodable {
        let song: SongSummary
        let targetBPM: Double
        let effectiveBPM: Double
        let fallback: Bool
        let reason: String?

        enum CodingKeys: String, CodingKey { case song, targetBPM = "target_bpm", effectiveBPM = "effective_bpm", fallback, reason }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(song, forKey: .song)
            try c.encode(targetBPM, forKey: .targetBPM)
            try c.encode(effectiveBPM, forKey: .effectiveBPM)
            try c.encode(fallback, forKey: .fallback)
            try c.encodeIfPresent(reason, forKey: .reason)
        }
    }

    /// The request body, refused past `limit` bytes (413) or when empty (400).
    static func collect(_ body: RequestBody, limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            guard data.count + chunk.readableBytes <= limit else {
                throw APIError(.contentTooLarge, message: "the upload is larger than the limit of \(limit) bytes (\(String(format: "%.1f", Double(limit) / 1_048_576)) MiB)")
            }
            data.append(contentsOf: chunk.readableBytesView)
        }
        guard !data.isEmpty else {
            throw APIError(.badRequest, code: "invalid_input", message: "the request body is empty: send the sensor log (CSV or JSON Lines) as the body")
        }
        return data
    }

    static func addCadence(to router: Router<QuintetRequestContext>, maxUploadBytes: Int, limiter: WorkLimiter) {
        router.post("api/runner/cadence") { request, _ -> Response in
            let name = FormFields(request.uri.query).get("method") ?? CadenceMethod.default.rawValue
            guard let method = CadenceMethod(rawValue: name) else {
                throw APIError(.badRequest, code: "invalid_input",
                               message: "method must be one of \(CadenceMethod.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let data = try await collect(request.body, limit: maxUploadBytes)
            let document: String
            do {
                document = try await limiter.run { () throws -> String in
                    method.estimator.analyze(try SensorLog.parse(data)).timelineJSON
                }
            } catch let error as SensorLogError {
                throw APIError(.badRequest, code: "invalid_log", message: error.description)
            }
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: document)))
        }
    }

    static func addNext(to router: Router<QuintetRequestContext>, library: LibraryService, auth: Authenticator) {
        let picker = RunnerPicker(catalog: library.catalog)
        router.group("api/runner/next").addSignIn(auth, required: true).get { request, context -> Response in
            let user = try context.requireUser()
            let fields = FormFields(request.uri.query)
            guard let text = fields.get("cadence"), let cadence = Double(text) else {
                throw APIError(.badRequest, code: "invalid_input",
                               message: "cadence (steps per minute, a number) is required, e.g. ?cadence=170")
            }
            let modeName = fields.get("mode") ?? SongMatcher.Mode.nearest.rawValue
            guard let mode = SongMatcher.Mode(rawValue: modeName) else {
                throw APIError(.badRequest, code: "invalid_input",
                               message: "mode must be one of \(SongMatcher.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let sprint: Bool
            switch fields.get("sprint")?.lowercased() {
            case nil, "", "false", "0", "no": sprint = false
            case "true", "1", "yes": sprint = true
            case let other?: throw APIError(.badRequest, code: "invalid_input", message: "sprint must be true or false, not '\(other.prefix(40))'")
            }
            var exclude = Set<Int64>()
            for part in (fields.get("exclude") ?? "").split(separator: ",") {
                guard let id = Int64(part.trimmingCharacters(in: .whitespaces)), id > 0 else {
                    throw APIError(.badRequest, code: "invalid_input", message: "exclude is a comma-separated list of song ids, not '\(part.prefix(40))'")
                }
                exclude.insert(id)
            }
            let pick: RunnerPicker.Pick
            do {
                let excluded = exclude, userID = user.id
                pick = try await Blocking.run {
                    try picker.pick(cadence: cadence, mode: mode, sprint: sprint, exclude: excluded, userID: userID)
                }
            } catch let failure as RunnerPicker.Failure {
                switch failure {
                case .cadenceOutOfRange: throw APIError(.badRequest, code: failure.code, message: failure.description)
                case .noSong: throw APIError(.notFound, code: failure.code, message: failure.description)
                }
            }
            return try APIJSON.response(NextAnswer(
                song: SongSummary(pick.song),
                targetBPM: (pick.match.target * 100).rounded() / 100, effectiveBPM: pick.match.effectiveBPM,
                fallback: pick.match.isFallback, reason: pick.reason))
        }
    }
}
