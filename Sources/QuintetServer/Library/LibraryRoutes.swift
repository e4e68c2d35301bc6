import Foundation
import Hummingbird
import LibraryCore
import QuintetStore

/// `/api/library/*`: the catalog as JSON (snake_case keys), its scan and BPM work, streaming
/// and covers. Every route needs a user (HTTP Basic auth or the web session), except
/// `POST /api/library/tags`, which reads an uploaded file and reveals nothing of the library.
/// The shapes are documented in docs/library.md.
enum LibraryRoutes {
    struct SongView: Encodable {
        let id: Int64, path: String, title: String, artist: String, artistID: Int64?, album: String, albumID: Int64
        let albumArtist: String, albumArtistID: Int64, track: Int?, disc: Int?, year: Int?, genre: String?
        let composer: String?, duration: Double?, bitrate: Int?, sampleRate: Int?, channels: Int?, bpm: Double?
        let bpmSource: String?, format: String, codec: String, suffix: String, contentType: String, size: Int64
        let compilation: Bool, hasPicture: Bool, playCount: Int, starred: Double?, streamURL: String, coverURL: String?

        init(_ s: CatalogSong) {
            id = s.id; path = s.path; title = s.title; artist = s.artist; artistID = s.artistID; album = s.album
            albumID = s.albumID; albumArtist = s.albumArtist; albumArtistID = s.albumArtistID; track = s.track
            disc = s.disc; year = s.year; genre = s.genre; composer = s.composer; duration = s.duration
            bitrate = s.bitrate; sampleRate = s.sampleRate; channels = s.channels; bpm = s.bpm; bpmSource = s.bpmSource
            format = s.format; codec = s.codec; suffix = s.suffix; contentType = s.contentType; size = s.size
            compilation = s.compilation; hasPicture = s.hasPicture; playCount = s.playCount; starred = s.starred
            streamURL = "/api/library/songs/\(s.id)/stream"
            coverURL = s.hasCover ? "/api/library/songs/\(s.id)/cover" : nil
        }
    }

    struct AlbumView: Encodable {
        let id: Int64, title: String, artist: String, artistID: Int64, year: Int?, genre: String?, discCount: Int
        let compilation: Bool, songCount: Int, duration: Double, hasCover: Bool, coverURL: String?, playCount: Int
        let starred: Double?

        init(_ a: CatalogAlbum) {
            id = a.id; title = a.title; artist = a.artist; artistID = a.artistID; year = a.year; genre = a.genre
            discCount = a.discCount; compilation = a.compilation; songCount = a.songCount; duration = a.duration
            hasCover = a.hasCover; coverURL = a.hasCover ? "/api/library/albums/\(a.id)/cover" : nil
            playCount = a.playCount; starred = a.starred
        }
    }

    struct ArtistView: Encodable {
        let id: Int64, name: String, sortName: String, albumCount: Int, songCount: Int, starred: Double?
        init(_ a: CatalogArtist) {
            id = a.id; name = a.name; sortName = a.sortName; albumCount = a.albumCount; songCount = a.songCount
            starred = a.starred
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    /// A positive id from a path parameter, or 400/404.
    static func id(_ context: BasicRequestContext, _ name: String = "id") throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text), id > 0 else {
            throw APIError(.notFound, message: "no such item: ids are positive integers")
        }
        return id
    }

    /// An integer query parameter within bounds, or its default.
    static func int(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = FormFields(request.uri.query).get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError(.badRequest, code: "invalid_input",
                           message: "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text.prefix(40))'")
        }
        return number
    }

    /// Catalog errors as HTTP errors.
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as CatalogError {
            switch error {
            case .notFound(let m): throw APIError(.notFound, message: m)
            case .invalid(let m): throw APIError(.badRequest, code: "invalid_input", message: m)
            case .forbidden(let m): throw APIError(.forbidden, message: m)
            case .scanInProgress: throw APIError(.conflict, code: "scan_in_progress", message: error.description)
            }
        }
    }

    static func add(to router: Router<BasicRequestContext>, library: LibraryService, auth: Authenticator,
                    media: MediaResponder) {
        let catalog = library.catalog
        let api = router.group("api/library")

        api.get("scan") { request, _ -> Response in
            _ = try await auth.require(request)
            return try json(library.status())
        }
        api.post("scan") { request, _ -> Response in
            _ = try await auth.require(request)
            try mapped { try library.startScan() }
            return try json(library.status(), status: .accepted)
        }
        api.get("bpm") { request, _ -> Response in
            _ = try await auth.require(request)
            return try json(try library.bpm.status())
        }
        api.get("stats") { request, _ -> Response in
            _ = try await auth.require(request)
            return try json(try catalog.counts())
        }
        api.get("search") { request, _ -> Response in
            let user = try await auth.require(request)
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 20, range: 1...500)
            let found = try catalog.search(query, artistCount: limit, albumCount: limit, songCount: limit, userID: user.id)
            struct Found: Encodable { let artists: [ArtistView]; let albums: [AlbumView]; let songs: [SongView] }
            return try json(Found(artists: found.artists.map(ArtistView.init), albums: found.albums.map(AlbumView.init),
                                  songs: found.songs.map { SongView($0) }))
        }
        api.get("artists") { request, _ -> Response in
            let user = try await auth.require(request)
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 1000, range: 1...10_000)
            let offset = try int(request, "offset", default: 0, range: 0...Int(Int32.max))
            let artists = try catalog.search(query, artistCount: limit, artistOffset: offset, albumCount: 0, songCount: 0,
                                             userID: user.id).artists
            struct List: Encodable { let artists: [ArtistView] }
            return try json(List(artists: artists.map(ArtistView.init)))
        }
        api.get("artists/:id") { request, context -> Response in
            let user = try await auth.require(request)
            let id = try id(context)
            struct Detail: Encodable { let artist: ArtistView; let albums: [AlbumView]; let songs: [SongView] }
            return try json(try mapped {
                Detail(artist: ArtistView(try catalog.artist(id: id, userID: user.id)),
                       albums: try catalog.albums(ofArtist: id, userID: user.id).map(AlbumView.init),
                       songs: try catalog.songs(ofArtist: id, userID: user.id).map { SongView($0) })
            })
        }
        api.get("albums") { request, _ -> Response in
            let user = try await auth.require(request)
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 500, range: 1...10_000)
            let offset = try int(request, "offset", default: 0, range: 0...Int(Int32.max))
            let albums = try catalog.search(query, artistCount: 0, albumCount: limit, albumOffset: offset, songCount: 0,
                                            userID: user.id).albums
            struct List: Encodable { let albums: [AlbumView] }
            return try json(List(albums: albums.map(AlbumView.init)))
        }
        api.get("albums/:id") { request, context -> Response in
            let user = try await auth.require(request)
            let id = try id(context)
            struct Detail: Encodable { let album: AlbumView; let songs: [SongView] }
            return try json(try mapped {
                let album = try catalog.album(id: id, userID: user.id)
                return Detail(album: AlbumView(album),
                              songs: try catalog.songs(ofAlbum: id, userID: user.id).map { SongView($0) })
            })
        }
        api.get("albums/:id/cover") { request, context -> Response in
            _ = try await auth.require(request)
            let id = try id(context)
            guard let source = try mapped({ try catalog.cover(albumID: id) }) else {
                throw APIError(.notFound, code: "no_cover", message: "album \(id) has no cover")
            }
            return try await media.cover(source, catalog: catalog, size: try optionalSize(request))
        }
        api.get("songs") { request, _ -> Response in
            let user = try await auth.require(request)
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 100, range: 1...1000)
            let offset = try int(request, "offset", default: 0, range: 0...Int(Int32.max))
            let songs = try catalog.search(query, artistCount: 0, albumCount: 0, songCount: limit, songOffset: offset,
                                           userID: user.id).songs
            struct List: Encodable { let songs: [SongView]; let total: Int }
            return try json(List(songs: songs.map { SongView($0) }, total: try catalog.searchSongCount(query)))
        }
        api.get("songs/:id") { request, context -> Response in
            let user = try await auth.require(request)
            let id = try id(context)
            return try json(SongView(try mapped { try catalog.song(id: id, userID: user.id) }))
        }
        api.get("songs/:id/related") { request, context -> Response in
            let user = try await auth.require(request)
            let id = try id(context)
            let related = try mapped { try catalog.related(songID: id, userID: user.id) }
            struct Related: Encodable { let covers: [SongView]; let identical: [SongView] }
            return try json(Related(covers: related.covers.map { SongView($0) }, identical: related.identical.map { SongView($0) }))
        }
        api.get("songs/:id/cover") { request, context -> Response in
            _ = try await auth.require(request)
            let id = try id(context)
            guard let source = try mapped({ try catalog.cover(songID: id) }) else {
                throw APIError(.notFound, code: "no_cover", message: "song \(id) has no cover")
            }
            return try await media.cover(source, catalog: catalog, size: try optionalSize(request))
        }
        let stream: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, context in
            _ = try await auth.require(request)
            let id = try id(context)
            let song = try mapped { try catalog.song(id: id) }
            let url = try mapped { try catalog.fileURL(of: song) }
            if let text = FormFields(request.uri.query).get("format"), text != "raw" {
                guard let format = MediaResponder.TranscodeFormat(rawValue: text) else {
                    throw APIError(.badRequest, code: "invalid_input", message: "format must be mp3, opus or raw, not '\(text.prefix(20))'")
                }
                let bitrate = try FormFields(request.uri.query).get("bitrate").map { _ in
                    try int(request, "bitrate", default: format.defaultBitrate, range: MediaResponder.bitrates)
                }
                return try await media.transcode(url, format: format, bitrate: bitrate, request: request)
            }
            return try await media.file(url, contentType: song.contentType, request: request, context: context)
        }
        api.get("songs/:id/stream", use: stream)
        api.head("songs/:id/stream", use: stream)
    }

    static func optionalSize(_ request: Request) throws -> Int? {
        guard FormFields(request.uri.query).get("size") != nil else { return nil }
        return try int(request, "size", default: 300, range: MediaResponder.thumbnailSizes)
    }
}
