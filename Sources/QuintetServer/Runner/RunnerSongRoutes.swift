import Foundation
import HTTPTypes
import Hummingbird
import LibraryCore

/// The songs runner mode plays and each user's "never while running" list (every route needs a
/// user; the shapes are in docs/runner.md and the OpenAPI document):
///
/// - `GET /api/runner/songs?sort=bpm|title|artist&order=asc|desc` → `{"songs": [{id, title,
///   artist, album, duration, bpm, bpm_source, analysed_bpm, stream_url, never}]}`: the songs
///   with a BPM (effective: an override counts), by BPM ascending unless asked otherwise;
///   `never` tells whether the song is on this user's list. An unknown sort or order: 400.
/// - `GET /api/runner/never` → `{"songs": [song…]}` (the shape of `GET /api/library/songs/{id}`),
///   the most recently added first.
/// - `PUT /api/runner/never/{id}` adds the song (idempotent), `DELETE` takes it off (the undo;
///   idempotent too): 204. An unknown song: 404.
///
/// The list is the user's own: the matcher (`GET /api/runner/next`) and the live socket skip
/// its songs for that user only.
enum RunnerSongRoutes {
    struct RunnerSong: Encodable {
        let id: Int64, title: String, artist: String, album: String, duration: Double?
        let bpm: Double?, bpmSource: String?, analysedBPM: Double?, streamURL: String, never: Bool

        init(_ s: CatalogSong, never: Bool) {
            id = s.id; title = s.title; artist = s.artist; album = s.album; duration = s.duration
            bpm = s.bpm; bpmSource = s.bpmSource; analysedBPM = s.analysedBPM
            streamURL = "/api/library/songs/\(s.id)/stream"
            self.never = never
        }
    }

    static func add(to router: Router<QuintetRequestContext>, library: LibraryService, auth: Authenticator) {
        let catalog = library.catalog
        let runner = router.group("api/runner").addSignIn(auth, required: true)

        runner.get("songs") { request, context -> Response in
            let userID = try Self.userID(context)
            let fields = FormFields(request.uri.query)
            let sortName = fields.get("sort") ?? Catalog.RunnerSongSort.bpm.rawValue
            guard let sort = Catalog.RunnerSongSort(rawValue: sortName) else {
                throw refusal("sort", "sort must be one of \(Catalog.RunnerSongSort.allCases.map(\.rawValue).joined(separator: ", ")), not '\(sortName.prefix(40))'")
            }
            let descending: Bool
            switch fields.get("order") {
            case nil, "asc": descending = false
            case "desc": descending = true
            case let other?: throw refusal("order", "order must be asc or desc, not '\(other.prefix(40))'")
            }
            struct List: Encodable { let songs: [RunnerSong] }
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                let never = try catalog.neverWhileRunning(userID: userID)
                let songs = try catalog.runnerSongs(sort: sort, descending: descending, userID: userID)
                return List(songs: songs.map { RunnerSong($0, never: never.contains($0.id)) })
            })
        }
        runner.get("never") { _, context -> Response in
            let userID = try Self.userID(context)
            struct List: Encodable { let songs: [LibraryRoutes.SongView] }
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                List(songs: try catalog.neverWhileRunningSongs(userID: userID).map { LibraryRoutes.SongView($0) })
            })
        }
        for (method, never) in [(HTTPRequest.Method.put, true), (HTTPRequest.Method.delete, false)] {
            runner.on("never/:id", method: method) { _, context -> Response in
                let userID = try Self.userID(context)
                let id = try context.parameters.id()
                try await LibraryRoutes.catalogWork { try catalog.setNeverWhileRunning(songID: id, userID: userID, never) }
                return Response(status: .noContent)
            }
        }
    }

    /// The signed-in user's id (a stored user always has one).
    static func userID(_ context: QuintetRequestContext) throws -> Int64 {
        guard let id = try context.requireUser().id else {
            throw APIError(.unauthorized, code: "unauthorized", message: Authenticator.signInHint)
        }
        return id
    }

    static func refusal(_ field: String, _ message: String) -> APIError {
        var error = APIError(.badRequest, code: "invalid_input", message: message)
        error.field = field
        return error
    }
}
