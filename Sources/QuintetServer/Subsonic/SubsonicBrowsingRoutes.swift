import Foundation
import LibraryCore

/// Browsing and searching: getIndexes, getMusicDirectory, getArtists, getArtist, getAlbum,
/// getSong, getAlbumList, getAlbumList2, getRandomSongs, getGenres, getSongsByGenre,
/// search2, search3, and the empty answers of getAlbumInfo(2), getTopSongs, getNowPlaying
/// (getArtistInfo(2) and getSimilarSongs(2) answer from the graph: SubsonicGraphRoutes.swift).
extension SubsonicAPI {
    /// Largest list a client may ask for in one call.
    static let maxListSize = 500
    static let maxOffset = Int(Int32.max)

    static let browsingHandlers: [String: BlockingHandler] = [
        "getIndexes": { api, call in
            var indexes = SubsonicElement()
            indexes.set("lastModified", Int64(Date().timeIntervalSince1970 * 1000))
            indexes.set("ignoredArticles", SubsonicViews.ignoredArticles)
            let artists = try api.catalog.albumArtists(userID: call.userID)
            indexes.add("index", list: SubsonicViews.indexes(artists, entries: artists.map { artist in
                var e = SubsonicElement()
                e.set("id", SubsonicID.artist(artist.id))
                e.set("name", artist.name)
                e.set("albumCount", artist.albumCount)
                e.set("starred", SubsonicViews.date(artist.starred))
                return e
            }))
            return .payload("indexes", indexes)
        },
        "getArtists": { api, call in
            var artists = SubsonicElement()
            artists.set("ignoredArticles", SubsonicViews.ignoredArticles)
            let list = try api.catalog.albumArtists(userID: call.userID)
            artists.add("index", list: SubsonicViews.indexes(list, entries: try SubsonicViews.artists(list, catalog: api.catalog)))
            return .payload("artists", artists)
        },
        "getArtist": { api, call in
            let id = try SubsonicID.expect(try call.params.required("id"), .artist)
            var artist = try SubsonicViews.artists([try api.catalog.artist(id: id, userID: call.userID)], catalog: api.catalog)[0]
            artist.add("album", list: try api.catalog.albums(ofArtist: id, userID: call.userID).map(SubsonicViews.album))
            return .payload("artist", artist)
        },
        "getAlbum": { api, call in
            let id = try SubsonicID.expect(try call.params.required("id"), .album)
            let found = try api.catalog.album(id: id, userID: call.userID)
            var album = SubsonicViews.album(found)
            let songs = try api.catalog.songs(ofAlbum: id, userID: call.userID)
            album.add("song", list: songs.map(SubsonicViews.song))
            return .payload("album", album)
        },
        "getSong": { api, call in
            let id = try SubsonicID.expect(try call.params.required("id"), .song)
            let song = try api.catalog.song(id: id, userID: call.userID)
            return .payload("song", SubsonicViews.song(song))
        },
        "getMusicDirectory": { api, call in
            let text = try call.params.required("id")
            var directory = SubsonicElement()
            switch SubsonicID(text) {
            case .artist(let id)?:
                let artist = try api.catalog.artist(id: id, userID: call.userID)
                directory.set("id", SubsonicID.artist(id))
                directory.set("parent", "1")
                directory.set("name", artist.name)
                directory.set("starred", SubsonicViews.date(artist.starred))
                directory.add("child", list: try api.catalog.albums(ofArtist: id, userID: call.userID).map(SubsonicViews.albumDirectory))
            case .album(let id)?:
                let album = try api.catalog.album(id: id, userID: call.userID)
                directory.set("id", SubsonicID.album(id))
                directory.set("parent", SubsonicID.artist(album.artistID))
                directory.set("name", album.title)
                directory.set("starred", SubsonicViews.date(album.starred))
                directory.add("child", list: try api.catalog.songs(ofAlbum: id, userID: call.userID).map {
                    SubsonicViews.song($0)
                })
            default:
                throw SubsonicError(.notFound, "no directory with id '\(text.prefix(40))': directories are artists (ar-…) and albums (al-…)")
            }
            return .payload("directory", directory)
        },
        "getAlbumList2": { api, call in
            var list = SubsonicElement()
            list.add("album", list: try api.albumList(call).map(SubsonicViews.album))
            return .payload("albumList2", list)
        },
        "getAlbumList": { api, call in
            var list = SubsonicElement()
            list.add("album", list: try api.albumList(call).map(SubsonicViews.albumDirectory))
            return .payload("albumList", list)
        },
        "getRandomSongs": { api, call in
            let p = call.params
            let size = try p.int("size", clampedTo: 0...maxListSize) ?? 10
            let songs = try api.catalog.randomSongs(count: size, genre: p["genre"].flatMap { $0.isEmpty ? nil : $0 },
                                                    fromYear: try p.int("fromYear", clampedTo: -9999...9999),
                                                    toYear: try p.int("toYear", clampedTo: -9999...9999), userID: call.userID)
            var list = SubsonicElement()
            list.add("song", list: songs.map(SubsonicViews.song))
            return .payload("randomSongs", list)
        },
        "getGenres": { api, _ in
            var genres = SubsonicElement()
            genres.add("genre", list: try api.catalog.genres().map(SubsonicViews.genre))
            return .payload("genres", genres)
        },
        "getSongsByGenre": { api, call in
            let p = call.params
            let songs = try api.catalog.songs(ofGenre: try p.required("genre"), count: try p.int("count", clampedTo: 0...maxListSize) ?? 10,
                                              offset: try p.int("offset", clampedTo: 0...maxOffset) ?? 0, userID: call.userID)
            var list = SubsonicElement()
            list.add("song", list: songs.map(SubsonicViews.song))
            return .payload("songsByGenre", list)
        },
        "search3": { api, call in .payload("searchResult3", try api.search(call, albumView: SubsonicViews.album)) },
        "search2": { api, call in .payload("searchResult2", try api.search(call, albumView: SubsonicViews.albumDirectory)) },
        "getAlbumInfo": { _, _ in .payload("albumInfo", SubsonicElement()) },
        "getAlbumInfo2": { _, _ in .payload("albumInfo", SubsonicElement()) },
        "getTopSongs": { _, _ in .payload("topSongs", SubsonicElement()) },
        "getNowPlaying": { _, _ in .payload("nowPlaying", SubsonicElement()) },
    ]

    /// getAlbumList(2): `type` and its parameters.
    func albumList(_ call: SubsonicCall) throws -> [CatalogAlbum] {
        let p = call.params
        let typeText = try p.required("type")
        guard let kind = Catalog.AlbumListKind(rawValue: typeText) else {
            throw SubsonicError.invalid("type", typeText, expected: Catalog.AlbumListKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let size = try p.int("size", clampedTo: 0...Self.maxListSize) ?? 10
        let offset = try p.int("offset", clampedTo: 0...Self.maxOffset) ?? 0
        var fromYear: Int?, toYear: Int?, genre: String?
        if kind == .byYear {
            guard let from = try p.int("fromYear", clampedTo: -9999...9999) else { throw SubsonicError.missing("fromYear") }
            guard let to = try p.int("toYear", clampedTo: -9999...9999) else { throw SubsonicError.missing("toYear") }
            (fromYear, toYear) = (from, to)
        }
        if kind == .byGenre { genre = try p.required("genre") }
        return try catalog.albumList(kind, size: size, offset: offset, fromYear: fromYear, toYear: toYear, genre: genre,
                                     userID: call.userID)
    }

    /// search2/search3: `query` (empty or `""` matches everything), counts and offsets.
    func search(_ call: SubsonicCall, albumView: (CatalogAlbum) -> SubsonicElement) throws -> SubsonicElement {
        let p = call.params
        let query = String((p["query"] ?? "").prefix(200))
        let cap = 5_000
        let found = try catalog.search(query,
                                       artistCount: try p.int("artistCount", clampedTo: 0...cap) ?? 20,
                                       artistOffset: try p.int("artistOffset", clampedTo: 0...Self.maxOffset) ?? 0,
                                       albumCount: try p.int("albumCount", clampedTo: 0...cap) ?? 20,
                                       albumOffset: try p.int("albumOffset", clampedTo: 0...Self.maxOffset) ?? 0,
                                       songCount: try p.int("songCount", clampedTo: 0...cap) ?? 20,
                                       songOffset: try p.int("songOffset", clampedTo: 0...Self.maxOffset) ?? 0,
                                       userID: call.userID)
        var result = SubsonicElement()
        result.add("artist", list: try SubsonicViews.artists(found.artists, catalog: catalog))
        result.add("album", list: found.albums.map(albumView))
        result.add("song", list: found.songs.map(SubsonicViews.song))
        return result
    }
}
