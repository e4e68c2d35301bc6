import Foundation
import LibraryCore
import MusicGraph

/// The graph for Subsonic clients (docs/graph.md, "Subsonic"): getSimilarSongs(2) walk the graph
/// from a song (an album's first song, an artist's first song) as "play a path" does, so a phone
/// app's "instant mix" follows Quintet's links; getArtistInfo(2) lists the linked artists as
/// similar artists (band ↔ member first, then shared songs, then covers and identical recordings).
extension SubsonicAPI {
    static let graphHandlers: [String: BlockingHandler] = [
        "getSimilarSongs": { api, call in .payload("similarSongs", try api.similarSongs(call, artistOnly: false)) },
        "getSimilarSongs2": { api, call in .payload("similarSongs2", try api.similarSongs(call, artistOnly: true)) },
        "getArtistInfo": { api, call in .payload("artistInfo", try api.artistInfo(call)) },
        "getArtistInfo2": { api, call in .payload("artistInfo2", try api.artistInfo(call)) },
    ]

    /// The songs of a walk from the seed that `id` names, the seed left out.
    func similarSongs(_ call: SubsonicCall, artistOnly: Bool) throws -> SubsonicElement {
        let text = try call.params.required("id")
        let count = try call.params.int("count", clampedTo: 0...Self.maxListSize) ?? 50
        let seed: Int64?
        switch artistOnly ? SubsonicID.artist(try SubsonicID.expect(text, .artist)) : SubsonicID(text) {
        case .song(let id)?:
            _ = try catalog.song(id: id)
            seed = id
        case .album(let id)?:
            seed = try catalog.songs(ofAlbum: id, userID: nil).first?.id
        case .artist(let id)?:
            _ = try catalog.artist(id: id)
            seed = try catalog.albums(ofArtist: id, userID: nil).first.flatMap { try catalog.songs(ofAlbum: $0.id, userID: nil).first?.id }
                ?? catalog.songs(ofArtist: id, userID: nil).first?.id
        default:
            throw SubsonicError(.notFound, "no song, album or artist with id '\(text.prefix(40))'")
        }
        var list = SubsonicElement()
        if let seed, count > 0 {
            let ids = try library.graph.current().walk(from: seed, count: count + 1).dropFirst()
            list.add("song", list: try ids.map { SubsonicViews.song(try catalog.song(id: $0, userID: call.userID)) })
        }
        return list
    }

    /// No biography (Quintet has none to give); similar artists from the graph's links.
    func artistInfo(_ call: SubsonicCall) throws -> SubsonicElement {
        let id = try SubsonicID.expect(try call.params.required("id"), .artist)
        _ = try catalog.artist(id: id)
        let count = try call.params.int("count", clampedTo: 0...Self.maxListSize) ?? 20
        let linked = try library.graph.current().linkedArtists(of: id, limit: count)
        let artists = try linked.map { try catalog.artist(id: $0.id, userID: call.userID) }
        var info = SubsonicElement()
        info.add("similarArtist", list: try SubsonicViews.artists(artists, catalog: catalog))
        return info
    }
}
