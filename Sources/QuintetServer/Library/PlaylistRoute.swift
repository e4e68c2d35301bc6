import Foundation
import Hummingbird
import LibraryCore

/// `POST /api/library/playlists`: saves a list of songs as a playlist of the signed-in user,
/// the one the graph explorer's queue panel sends. The playlist lives in the catalog
/// (`library_playlist`), so Subsonic's `getPlaylists` lists it for the same user.
///
/// The body is `{"name": "Evening", "songs": [12, 5, 12]}` (song ids in order, repeats kept,
/// at most ``maxSongs``); the answer is 201 with the playlist as stored. A name that is empty
/// or longer than 200 characters, a missing or non-integer song id, more than ``maxSongs``
/// songs, or a body that is not such an object: 400 `invalid_input` with `field`; an unknown
/// song id: 404, nothing stored; a body over ``maxBodyBytes``: 413.
enum PlaylistRoute {
    /// The largest body read: 10,000 ids of 20 digits with separators, and the name.
    static let maxBodyBytes = 256 * 1024
    /// The most songs one playlist is saved with.
    static let maxSongs = 10_000

    struct PlaylistView: Encodable {
        let id: Int64, name: String, owner: String, isPublic: Bool, songCount: Int, duration: Double
        let created: Date, changed: Date

        init(_ p: CatalogPlaylist) {
            id = p.id; name = p.name; owner = p.owner; isPublic = p.isPublic; songCount = p.songCount
            duration = p.duration; created = Date(timeIntervalSince1970: p.created); changed = Date(timeIntervalSince1970: p.changed)
        }

        enum CodingKeys: String, CodingKey { case id, name, owner, isPublic = "public", songCount, duration, created, changed }
    }

    static func add(to api: RouterGroup<QuintetRequestContext>, catalog: Catalog) {
        api.post("playlists") { request, context -> Response in
            let user = try context.requireUser()
            guard let ownerID = user.id else { throw APIError(.unauthorized, message: "sign in to save a playlist") }
            let (name, songs) = try parse(try await body(request.body))
            let playlist = try await LibraryRoutes.catalogWork { () -> CatalogPlaylist in
                let id = try catalog.createPlaylist(name: name, songIDs: songs, ownerID: ownerID)
                return try catalog.playlist(id: id, userID: ownerID).0
            }
            struct Answer: Encodable { let playlist: PlaylistView }
            return try APIJSON.response(Answer(playlist: PlaylistView(playlist)), status: .created)
        }
    }

    /// The body, refused past ``maxBodyBytes`` (413).
    static func body(_ body: RequestBody) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            guard data.count + chunk.readableBytes <= maxBodyBytes else {
                var error = APIError(.contentTooLarge, message: "the body is at most \(maxBodyBytes) bytes")
                error.field = "body"
                throw error
            }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return data
    }

    /// The name and song ids a body asks for; throws a 400 naming the field that is wrong.
    static func parse(_ data: Data) throws -> (name: String, songs: [Int64]) {
        func refuse(_ message: String, field: String) -> APIError {
            var error = APIError(.badRequest, code: "invalid_input", message: message)
            error.field = field
            return error
        }
        let example = #"send {"name": "Evening", "songs": [12, 5]}"#
        // Ids are read as numbers and then checked, so 1.5 is refused by name, not as a bad body.
        struct Body: Decodable { let name: String; let songs: [Double] }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw refuse("the body needs \"\(key.stringValue)\": \(example)", field: key.stringValue)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
                DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            let field = context.codingPath.first?.stringValue ?? "body"
            throw refuse(field == "songs" ? "songs must be an array of integer song ids: \(example)"
                                          : "\(field) must be a string: \(example)", field: field)
        } catch {
            throw refuse("the body must be a JSON object: \(example)", field: "body")
        }
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else { throw refuse("name must have 1 to 200 characters", field: "name") }
        guard body.songs.count <= maxSongs else {
            throw refuse("a playlist has at most \(maxSongs) songs, not \(body.songs.count)", field: "songs")
        }
        var songs: [Int64] = []
        songs.reserveCapacity(body.songs.count)
        for number in body.songs {
            guard number >= 1, number <= 9_007_199_254_740_992, number.rounded() == number else {
                throw refuse("song ids are positive integers, not \(number)", field: "songs")
            }
            songs.append(Int64(number))
        }
        return (name, songs)
    }
}
