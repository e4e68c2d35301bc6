import Foundation
import LibraryCore
import QuintetStore

/// Catalog records as Subsonic elements (`Child`, `AlbumID3`, `ArtistID3`, `Playlist`,
/// `Genre`, `User` of API 1.16.1, with the OpenSubsonic additions clients read).
enum SubsonicViews {
    /// Articles the catalog drops from artist names when it sorts them.
    static let ignoredArticles = "The A An"

    /// Seconds since 1970 as ISO 8601 in UTC (`2026-01-02T03:04:05Z`).
    static func date(_ seconds: Double?) -> String? {
        guard let seconds, seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return Date(timeIntervalSince1970: seconds.rounded(.down)).ISO8601Format()
    }

    /// A song (`Child`): its cover art is its own picture, else its album's cover, else none.
    /// Every song carries `bpm` (0 while unknown) and `path` (relative to the library root).
    static func song(_ s: CatalogSong) -> SubsonicElement {
        var e = SubsonicElement()
        e.set("id", SubsonicID.song(s.id))
        e.set("parent", SubsonicID.album(s.albumID))
        e.set("isDir", false)
        e.set("title", s.title)
        e.set("album", s.album)
        e.set("artist", s.artist)
        e.set("track", s.track)
        e.set("year", s.year)
        e.set("genre", s.genre)
        if s.hasPicture {
            e.set("coverArt", SubsonicID.song(s.id))
        } else if s.hasCover {
            e.set("coverArt", SubsonicID.album(s.albumID))
        }
        e.set("size", s.size)
        e.set("contentType", s.contentType)
        e.set("suffix", s.suffix)
        e.set("duration", s.duration.map { Int($0.rounded()) })
        e.set("bitRate", s.bitrate.map { Int(($0 + 500) / 1000) })
        e.set("samplingRate", s.sampleRate)
        e.set("channelCount", s.channels)
        e.set("path", s.path)
        e.set("isVideo", false)
        e.set("playCount", s.playCount)
        e.set("discNumber", s.disc)
        e.set("created", date(s.created))
        e.set("starred", date(s.starred))
        e.set("albumId", SubsonicID.album(s.albumID))
        e.set("artistId", s.artistID.map(SubsonicID.artist))
        e.set("type", "music")
        e.set("mediaType", "song")
        e.set("bpm", s.bpm.map { Int($0.rounded()) } ?? 0)
        e.set("displayArtist", s.artist)
        e.set("displayAlbumArtist", s.albumArtist)
        e.set("displayComposer", s.composer)
        if let genre = s.genre {
            var g = SubsonicElement()
            g.set("name", genre)
            e.add("genres", list: [g])
        }
        return e
    }

    /// Artists with their cover art decided by one query.
    static func artists(_ list: [CatalogArtist], catalog: Catalog) throws -> [SubsonicElement] {
        let covered = try catalog.artistIDsWithCover(among: Set(list.map(\.id)))
        return list.map { artist($0, hasCover: covered.contains($0.id)) }
    }

    /// An album (`AlbumID3`).
    static func album(_ a: CatalogAlbum) -> SubsonicElement {
        var e = SubsonicElement()
        e.set("id", SubsonicID.album(a.id))
        e.set("name", a.title)
        e.set("artist", a.artist)
        e.set("artistId", SubsonicID.artist(a.artistID))
        if a.hasCover { e.set("coverArt", SubsonicID.album(a.id)) }
        e.set("songCount", a.songCount)
        e.set("duration", Int(a.duration.rounded()))
        e.set("playCount", a.playCount)
        e.set("created", date(a.created))
        e.set("starred", date(a.starred))
        e.set("year", a.year)
        e.set("genre", a.genre)
        e.set("isCompilation", a.compilation)
        e.set("displayArtist", a.artist)
        return e
    }

    /// An album as a directory entry (`Child` with `isDir`), for getMusicDirectory.
    static func albumDirectory(_ a: CatalogAlbum) -> SubsonicElement {
        var e = SubsonicElement()
        e.set("id", SubsonicID.album(a.id))
        e.set("parent", SubsonicID.artist(a.artistID))
        e.set("isDir", true)
        e.set("title", a.title)
        e.set("album", a.title)
        e.set("artist", a.artist)
        e.set("year", a.year)
        e.set("genre", a.genre)
        if a.hasCover { e.set("coverArt", SubsonicID.album(a.id)) }
        e.set("duration", Int(a.duration.rounded()))
        e.set("playCount", a.playCount)
        e.set("created", date(a.created))
        e.set("starred", date(a.starred))
        return e
    }

    /// An artist (`ArtistID3`); `hasCover` says whether one of their albums has a cover.
    static func artist(_ a: CatalogArtist, hasCover: Bool) -> SubsonicElement {
        var e = SubsonicElement()
        e.set("id", SubsonicID.artist(a.id))
        e.set("name", a.name)
        e.set("albumCount", a.albumCount)
        if hasCover { e.set("coverArt", SubsonicID.artist(a.id)) }
        e.set("starred", date(a.starred))
        e.set("sortName", a.sortName)
        return e
    }

    /// Artists grouped under index letters (getArtists, getIndexes): the first letter of the
    /// sort name without accents, `#` for anything that is not a letter.
    static func indexes(_ artists: [CatalogArtist], entries: [SubsonicElement]) -> [SubsonicElement] {
        var order: [String] = []
        var groups: [String: [SubsonicElement]] = [:]
        for (artist, entry) in zip(artists, entries) {
            let key = indexLetter(artist.sortName.isEmpty ? artist.name : artist.sortName)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(entry)
        }
        return order.sorted { ($0 == "#" ? "\u{10FFFF}" : $0) < ($1 == "#" ? "\u{10FFFF}" : $1) }.map { key in
            var index = SubsonicElement()
            index.set("name", key)
            index.add("artist", list: groups[key] ?? [])
            return index
        }
    }

    static func indexLetter(_ name: String) -> String {
        guard let first = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).first else { return "#" }
        let upper = String(first).uppercased()
        return upper.count == 1 && upper.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) ? upper : "#"
    }

    /// A playlist (`Playlist`), with its songs (`entry`) when given.
    static func playlist(_ p: CatalogPlaylist, songs: [SubsonicElement]? = nil) -> SubsonicElement {
        var e = SubsonicElement()
        e.set("id", SubsonicID.playlist(p.id))
        e.set("name", p.name)
        e.set("comment", p.comment)
        e.set("owner", p.owner)
        e.set("public", p.isPublic)
        e.set("songCount", p.songCount)
        e.set("duration", Int(p.duration.rounded()))
        e.set("created", date(p.created))
        e.set("changed", date(p.changed))
        if let songs { e.add("entry", list: songs) }
        return e
    }

    /// A genre: the name is the element's text (`"value"` in JSON).
    static func genre(_ g: CatalogGenre) -> SubsonicElement {
        var e = SubsonicElement(text: g.name)
        e.set("songCount", g.songCount)
        e.set("albumCount", g.albumCount)
        return e
    }

    /// A user and what Quintet lets them do.
    static func user(_ u: User) -> SubsonicElement {
        let admin = u.role == .admin
        var e = SubsonicElement()
        e.set("username", u.name)
        e.set("scrobblingEnabled", true)
        e.set("adminRole", admin)
        e.set("settingsRole", admin)
        e.set("downloadRole", true)
        e.set("uploadRole", false)
        e.set("playlistRole", true)
        e.set("coverArtRole", false)
        e.set("commentRole", false)
        e.set("podcastRole", false)
        e.set("streamRole", true)
        e.set("jukeboxRole", false)
        e.set("shareRole", false)
        e.set("videoConversionRole", false)
        e.add("folder", values: [.int(1)])
        return e
    }
}
