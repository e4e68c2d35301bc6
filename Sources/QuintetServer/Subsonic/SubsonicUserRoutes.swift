import Foundation
import LibraryCore

/// What a user keeps: scrobble, star, unstar, getStarred, getStarred2, the playlists, and
/// the empty lists of what Quintet does not keep (bookmarks, shares); podcasts and internet
/// radio are in SubsonicPodcastRoutes.swift.
extension SubsonicAPI {
    static let userHandlers: [String: BlockingHandler] = [
        "scrobble": { api, call in
            let ids = try call.params.all("id").map { try SubsonicID.expect($0, .song) }
            guard !ids.isEmpty else { throw SubsonicError.missing("id") }
            // submission=false is "now playing": nothing to count.
            if try call.params.bool("submission") ?? true {
                let times = call.params.all("time")
                for (index, id) in ids.enumerated() {
                    let millis = index < times.count ? Double(times[index]) : nil
                    let when = millis.flatMap { $0.isFinite && $0 > 0 && $0 < 1e14 ? Date(timeIntervalSince1970: $0 / 1000) : nil }
                    try api.catalog.recordPlay(songID: id, at: when ?? Date())
                }
            } else {
                _ = try ids.map { try api.catalog.song(id: $0) }
            }
            return .ok
        },
        "star": { api, call in try api.star(true, call) },
        "unstar": { api, call in try api.star(false, call) },
        "getStarred2": { api, call in .payload("starred2", try api.starred(call, album: SubsonicViews.album)) },
        "getStarred": { api, call in .payload("starred", try api.starred(call, album: SubsonicViews.albumDirectory)) },
        "getPlaylists": { api, call in
            if let name = call.params["username"], !name.isEmpty, name.lowercased() != call.user.name.lowercased() {
                throw SubsonicError(.notAuthorized, "playlists of other users are listed only when public, with no username")
            }
            var playlists = SubsonicElement()
            playlists.add("playlist", list: try api.catalog.playlists(visibleTo: call.userID).map { SubsonicViews.playlist($0) })
            return .payload("playlists", playlists)
        },
        "getPlaylist": { api, call in
            let id = try SubsonicID.expect(try call.params.required("id"), .playlist)
            return .payload("playlist", try api.playlistElement(id, call))
        },
        "createPlaylist": { api, call in
            let p = call.params
            let songs = try p.all("songId").filter { !$0.isEmpty }.map { try SubsonicID.expect($0, .song) }
            let id: Int64
            if let existing = p["playlistId"], !existing.isEmpty {
                id = try SubsonicID.expect(existing, .playlist)
                try api.catalog.replaceSongs(playlistID: id, songIDs: songs, name: p["name"], userID: call.userID)
            } else {
                id = try api.catalog.createPlaylist(name: try p.required("name"), songIDs: songs, ownerID: call.userID)
            }
            return .payload("playlist", try api.playlistElement(id, call))
        },
        "updatePlaylist": { api, call in
            let p = call.params
            let id = try SubsonicID.expect(try p.required("playlistId"), .playlist)
            let add = try p.all("songIdToAdd").filter { !$0.isEmpty }.map { try SubsonicID.expect($0, .song) }
            let remove = try p.all("songIndexToRemove").filter { !$0.isEmpty }.map { text -> Int in
                guard let index = Int(text), index >= 0 else { throw SubsonicError.invalid("songIndexToRemove", text, expected: "an index from 0") }
                return index
            }
            try api.catalog.updatePlaylist(id: id, userID: call.userID, name: p["name"], comment: p["comment"],
                                           isPublic: try p.bool("public"), add: add, removeIndexes: remove)
            return .ok
        },
        "deletePlaylist": { api, call in
            try api.catalog.deletePlaylist(id: try SubsonicID.expect(try call.params.required("id"), .playlist), userID: call.userID)
            return .ok
        },
        "getBookmarks": { _, _ in .payload("bookmarks", SubsonicElement()) },
        "getShares": { _, _ in .payload("shares", SubsonicElement()) },
    ]

    func playlistElement(_ id: Int64, _ call: SubsonicCall) throws -> SubsonicElement {
        let (playlist, songs) = try catalog.playlist(id: id, userID: call.userID)
        return SubsonicViews.playlist(playlist, songs: songs.map(SubsonicViews.song))
    }

    /// The user's starred artists, albums (as `album` shows them: `AlbumID3` for
    /// getStarred2, a directory entry for getStarred) and songs.
    func starred(_ call: SubsonicCall, album: (CatalogAlbum) -> SubsonicElement) throws -> SubsonicElement {
        let found = try catalog.starred(userID: call.userID)
        var starred = SubsonicElement()
        starred.add("artist", list: try SubsonicViews.artists(found.artists, catalog: catalog))
        starred.add("album", list: found.albums.map(album))
        starred.add("song", list: found.songs.map(SubsonicViews.song))
        return starred
    }

    /// star/unstar: `id` (songs, or any prefixed id), `albumId`, `artistId`, each repeatable.
    func star(_ starred: Bool, _ call: SubsonicCall) throws -> SubsonicReply {
        let p = call.params
        var songs: [Int64] = [], albums: [Int64] = [], artists: [Int64] = []
        for text in p.all("id") where !text.isEmpty {
            switch SubsonicID(text) {
            case .album(let id)?: albums.append(id)
            case .artist(let id)?: artists.append(id)
            default: songs.append(try SubsonicID.expect(text, .song))
            }
        }
        albums += try p.all("albumId").filter { !$0.isEmpty }.map { try SubsonicID.expect($0, .album) }
        artists += try p.all("artistId").filter { !$0.isEmpty }.map { try SubsonicID.expect($0, .artist) }
        guard !(songs.isEmpty && albums.isEmpty && artists.isEmpty) else { throw SubsonicError.missing("id, albumId or artistId") }
        if !songs.isEmpty { try catalog.setStarred(starred, kind: .song, ids: songs, userID: call.userID) }
        if !albums.isEmpty { try catalog.setStarred(starred, kind: .album, ids: albums, userID: call.userID) }
        if !artists.isEmpty { try catalog.setStarred(starred, kind: .artist, ids: artists, userID: call.userID) }
        return .ok
    }
}
