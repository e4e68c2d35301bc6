import Foundation
import Hummingbird
import LibraryCore
import QuintetStore

/// `/api/library/*`: the catalog as JSON (``APIJSON``'s convention), its scan and BPM work, streaming
/// and covers. Every route needs a user (HTTP Basic auth or the web session), except
/// `POST /api/library/tags`, which reads an uploaded file and reveals nothing of the library.
/// The shapes are documented in docs/library.md.
enum LibraryRoutes {
    struct SongView: Encodable {
        let id: Int64, path: String, title: String, artist: String, artistID: Int64?, album: String, albumID: Int64
        let albumArtist: String, albumArtistID: Int64, track: Int?, disc: Int?, year: Int?, genre: String?
        let composer: String?, duration: Double?, bitrate: Int?, sampleRate: Int?, channels: Int?, bpm: Double?
        let bpmSource: String?, analysedBPM: Double?, format: String, codec: String, suffix: String, contentType: String, size: Int64
        let compilation: Bool, hasPicture: Bool, playCount: Int, starred: Date?, streamURL: String, coverURL: String?

        init(_ s: CatalogSong) {
            id = s.id; path = s.path; title = s.title; artist = s.artist; artistID = s.artistID; album = s.album
            albumID = s.albumID; albumArtist = s.albumArtist; albumArtistID = s.albumArtistID; track = s.track
            disc = s.disc; year = s.year; genre = s.genre; composer = s.composer; duration = s.duration
            bitrate = s.bitrate; sampleRate = s.sampleRate; channels = s.channels; bpm = s.bpm; bpmSource = s.bpmSource
            analysedBPM = s.analysedBPM
            format = s.format; codec = s.codec; suffix = s.suffix; contentType = s.contentType; size = s.size
            compilation = s.compilation; hasPicture = s.hasPicture; playCount = s.playCount; starred = LibraryRoutes.date(s.starred)
            streamURL = "/api/library/songs/\(s.id)/stream"
            coverURL = s.hasCover ? "/api/library/songs/\(s.id)/cover" : nil
        }
    }

    struct AlbumView: Encodable {
        let id: Int64, title: String, artist: String, artistID: Int64, year: Int?, genre: String?, discCount: Int
        let compilation: Bool, songCount: Int, duration: Double, hasCover: Bool, coverURL: String?, playCount: Int
        let starred: Date?

        init(_ a: CatalogAlbum) {
            id = a.id; title = a.title; artist = a.artist; artistID = a.artistID; year = a.year; genre = a.genre
            discCount = a.discCount; compilation = a.compilation; songCount = a.songCount; duration = a.duration
            hasCover = a.hasCover; coverURL = a.hasCover ? "/api/library/albums/\(a.id)/cover" : nil
            playCount = a.playCount; starred = LibraryRoutes.date(a.starred)
        }
    }

    struct ArtistView: Encodable {
        let id: Int64, name: String, sortName: String, albumCount: Int, songCount: Int, starred: Date?
        init(_ a: CatalogArtist) {
            id = a.id; name = a.name; sortName = a.sortName; albumCount = a.albumCount; songCount = a.songCount
            starred = LibraryRoutes.date(a.starred)
        }
    }

    /// When the user starred an item (the catalog keeps seconds since 1970), as a date.
    static func date(_ seconds: Double?) -> Date? { seconds.map { Date(timeIntervalSince1970: $0) } }

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

    /// Catalog work (synchronous GRDB) on the blocking pool, its errors as HTTP errors.
    static func catalogWork<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await Blocking.run { try mapped(body) }
    }

    static func add(to router: Router<QuintetRequestContext>, library: LibraryService, auth: Authenticator,
                    media: MediaResponder) {
        let catalog = library.catalog
        let api = router.group("api/library").addSignIn(auth, required: true)

        api.get("scan") { _, _ -> Response in
            try APIJSON.response(library.status())
        }
        api.post("scan") { _, _ -> Response in
            try await Self.catalogWork { try library.startScan() }
            return try APIJSON.response(library.status(), status: .accepted)
        }
        api.get("bpm") { _, _ -> Response in
            try APIJSON.response(try await Blocking.run { try library.bpm.status() })
        }
        api.get("stats") { _, _ -> Response in
            try APIJSON.response(try await Blocking.run { try catalog.counts() })
        }
        api.get("search") { request, context -> Response in
            let user = try context.requireUser()
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 20, range: 1...500)
            struct Found: Encodable { let artists: [ArtistView]; let albums: [AlbumView]; let songs: [SongView] }
            return try APIJSON.response(try await Self.catalogWork {
                let found = try catalog.search(query, artistCount: limit, albumCount: limit, songCount: limit, userID: user.id)
                return Found(artists: found.artists.map(ArtistView.init), albums: found.albums.map(AlbumView.init),
                             songs: found.songs.map { SongView($0) })
            })
        }
        api.get("artists") { request, context -> Response in
            let user = try context.requireUser()
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 1000, range: 1...10_000)
            let offset = try int(request, "offset", default: 0, range: 0...Int(Int32.max))
            struct List: Encodable { let artists: [ArtistView] }
            return try APIJSON.response(try await Self.catalogWork {
                let artists = try catalog.search(query, artistCount: limit, artistOffset: offset, albumCount: 0, songCount: 0,
                                                 userID: user.id).artists
                return List(artists: artists.map(ArtistView.init))
            })
        }
        api.get("artists/:id") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            struct Detail: Encodable { let artist: ArtistView; let albums: [AlbumView]; let songs: [SongView] }
            return try APIJSON.response(try await Self.catalogWork {
                Detail(artist: ArtistView(try catalog.artist(id: id, userID: user.id)),
                       albums: try catalog.albums(ofArtist: id, userID: user.id).map(AlbumView.init),
                       songs: try catalog.songs(ofArtist: id, userID: user.id).map { SongView($0) })
            })
        }
        api.get("albums") { request, context -> Response in
            let user = try context.requireUser()
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 500, range: 1...10_000)
            let offset = try int(request, "offset", default: 0, range: 0...Int(Int32.max))
            struct List: Encodable { let albums: [AlbumView] }
            return try APIJSON.response(try await Self.catalogWork {
                let albums = try catalog.search(query, artistCount: 0, albumCount: limit, albumOffset: offset, songCount: 0,
                                                userID: user.id).albums
                return List(albums: albums.map(AlbumView.init))
            })
        }
        api.get("albums/:id") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            struct Detail: Encodable { let album: AlbumView; let songs: [SongView] }
            return try APIJSON.response(try await Self.catalogWork {
                let album = try catalog.album(id: id, userID: user.id)
                return Detail(album: AlbumView(album),
                              songs: try catalog.songs(ofAlbum: id, userID: user.id).map { SongView($0) })
            })
        }
        api.get("albums/:id/cover") { request, context -> Response in
            let id = try context.parameters.id()
            guard let source = try await Self.catalogWork({ try catalog.cover(albumID: id) }) else {
                throw APIError(.notFound, code: "no_cover", message: "album \(id) has no cover")
            }
            return try await media.cover(source, catalog: catalog, size: try optionalSize(request))
        }
        api.get("songs") { request, context -> Response in
            let user = try context.requireUser()
            let query = String((FormFields(request.uri.query).get("q") ?? "").prefix(200))
            let limit = try int(request, "limit", default: 100, range: 1...1000)
            let offset = try int(request, "offset", default: 0, range: 0...Int(Int32.max))
            struct List: Encodable { let songs: [SongView]; let total: Int }
            return try APIJSON.response(try await Self.catalogWork {
                let songs = try catalog.search(query, artistCount: 0, albumCount: 0, songCount: limit, songOffset: offset,
                                               userID: user.id).songs
                return List(songs: songs.map { SongView($0) }, total: try catalog.searchSongCount(query))
            })
        }
        api.get("songs/:id") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            return try APIJSON.response(try await Self.catalogWork { SongView(try catalog.song(id: id, userID: user.id)) })
        }
        BPMOverrideRoute.add(to: api, catalog: catalog)
        SongPeaksRoute.add(to: api, catalog: catalog, limiter: media.limiter)
        PlaylistRoute.add(to: api, catalog: catalog)
        MemberRoutes.add(to: api, library: library)
        GraphRoutes.add(to: api, library: library)
        GraphMapRoutes.add(to: api, library: library)
        api.get("songs/:id/related") { _, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            struct Related: Encodable { let covers: [SongView]; let identical: [SongView] }
            return try APIJSON.response(try await Self.catalogWork {
                let related = try catalog.related(songID: id, userID: user.id)
                return Related(covers: related.covers.map { SongView($0) }, identical: related.identical.map { SongView($0) })
            })
        }
        api.get("songs/:id/cover") { request, context -> Response in
            let id = try context.parameters.id()
            guard let source = try await Self.catalogWork({ try catalog.cover(songID: id) }) else {
                throw APIError(.notFound, code: "no_cover", message: "song \(id) has no cover")
            }
            return try await media.cover(source, catalog: catalog, size: try optionalSize(request))
        }
        let stream: @Sendable (Request, QuintetRequestContext) async throws -> Response = { request, context in
            let id = try context.parameters.id()
            // Checked even when it does not apply (no transcode), so a bad value is never silently taken.
            _ = try int(request, "bitrate", default: 0, range: MediaResponder.bitrates)
            let (song, url) = try await Self.catalogWork { () -> (CatalogSong, URL) in
                let song = try catalog.song(id: id)
                return (song, try catalog.fileURL(of: song))
            }
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
