import Foundation

/// A song as the catalog knows it. `path` is relative to the library root.
public struct CatalogSong: Sendable, Equatable, Codable {
    public var id: Int64
    public var path: String
    public var title: String
    /// The artist credit as the file writes it ("Maya Okafor feat. Ada North").
    public var artist: String
    /// The first credited artist (every credited artist is in `library_song_artist`).
    public var artistID: Int64?
    public var album: String
    public var albumID: Int64
    public var albumArtist: String
    public var albumArtistID: Int64
    public var track: Int?
    public var disc: Int?
    public var year: Int?
    public var genre: String?
    public var composer: String?
    /// Seconds.
    public var duration: Double?
    /// Bits per second.
    public var bitrate: Int?
    public var sampleRate: Int?
    public var channels: Int?
    /// The effective tempo, beats per minute: the override set by hand if any, else the tag's or
    /// the analysis's (`analysedBPM`); nil while unknown.
    public var bpm: Double?
    /// Where `bpm` comes from: "override" (set by hand, `PUT /api/library/songs/{id}/bpm`), "tag"
    /// (from the file) or "analysis" (from the Tempo module); nil while unknown.
    public var bpmSource: String?
    /// The container: mp3, flac, mp4, ogg, wav.
    public var format: String
    public var codec: String
    public var size: Int64
    public var compilation: Bool
    public var hasPicture: Bool
    public var playCount: Int
    /// When the requesting user starred it (seconds since 1970), nil if not starred.
    public var starred: Double?
    /// When it entered the catalog.
    public var created: Double
    /// Whether `/songs/{id}/cover` has an image: its own picture, else its album's cover.
    public var hasCover: Bool = false
    /// The tag's or the analysis's BPM, under an override (equal to `bpm` without one); nil while unknown.
    public var analysedBPM: Double? = nil

    /// The file name's extension, lower case ("mp3").
    public var suffix: String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }

    /// The MIME type of the file as stored.
    public var contentType: String {
        switch suffix {
        case "mp3": "audio/mpeg"
        case "flac": "audio/flac"
        case "m4a", "m4b", "mp4": "audio/mp4"
        case "ogg", "oga": codec == "opus" ? "audio/ogg; codecs=opus" : "audio/ogg"
        case "opus": "audio/ogg; codecs=opus"
        case "wav": "audio/wav"
        default: "application/octet-stream"
        }
    }
}

/// An album: its songs share the album artist and the title key.
public struct CatalogAlbum: Sendable, Equatable, Codable {
    public var id: Int64
    /// "" when the songs have no album tag.
    public var title: String
    public var artist: String
    public var artistID: Int64
    public var year: Int?
    public var genre: String?
    public var discCount: Int
    public var compilation: Bool
    public var songCount: Int
    /// Seconds, the sum of the songs' durations.
    public var duration: Double
    public var hasCover: Bool
    public var playCount: Int
    public var starred: Double?
    public var created: Double
}

/// An artist, credited on songs or owning albums.
public struct CatalogArtist: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    /// The name without a leading article ("Paper Boats" for "The Paper Boats"), for sorting and indexes.
    public var sortName: String
    /// Albums this artist is the album artist of.
    public var albumCount: Int
    /// Songs crediting this artist.
    public var songCount: Int
    public var starred: Double?
}

/// A genre and how much of the library carries it.
public struct CatalogGenre: Sendable, Equatable, Codable {
    public var name: String
    public var songCount: Int
    public var albumCount: Int

    public init(name: String, songCount: Int, albumCount: Int) {
        self.name = name
        self.songCount = songCount
        self.albumCount = albumCount
    }
}

/// A user's playlist.
public struct CatalogPlaylist: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    public var comment: String?
    public var ownerID: Int64
    public var owner: String
    public var isPublic: Bool
    public var songCount: Int
    public var duration: Double
    public var created: Double
    public var changed: Double
}

/// How many of each thing the catalog holds.
public struct CatalogCounts: Sendable, Equatable, Codable {
    public var songs: Int
    public var albums: Int
    public var artists: Int
    public var genres: Int

    public init(songs: Int, albums: Int, artists: Int, genres: Int) {
        self.songs = songs
        self.albums = albums
        self.artists = artists
        self.genres = genres
    }
}

/// Where an album's or a song's cover comes from.
public enum CoverSource: Sendable, Equatable {
    /// An image file in the album's folder, relative to the library root.
    case file(String)
    /// The embedded picture of a song file (relative path).
    case embedded(String)
}

/// Errors of catalog operations; messages say what to do.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case invalid(String)
    case forbidden(String)
    case scanInProgress

    public var description: String {
        switch self {
        case .notFound(let m): m
        case .invalid(let m): m
        case .forbidden(let m): m
        case .scanInProgress: "a scan of the library is already running; wait for it to finish"
        }
    }
}
