import Foundation

/// The ids Quintet hands to Subsonic clients: the catalog's integer id behind a prefix that
/// names the kind — `ar-12` an artist, `al-5` an album, `tr-99` a song (track), `pl-3` a
/// playlist, `pc-2` a podcast channel (a radio show), `pe-8` a podcast episode (a radio
/// episode; also its `streamId` for `stream` and `download`). Clients treat ids as opaque strings; the prefix lets `getCoverArt` and `star`
/// tell kinds apart. Where an endpoint expects one kind, a bare number (`99`) is accepted too.
enum SubsonicID: Sendable, Equatable {
    case artist(Int64)
    case album(Int64)
    case song(Int64)
    case playlist(Int64)
    case podcastChannel(Int64)
    case podcastEpisode(Int64)

    var string: String {
        switch self {
        case .artist(let id): "ar-\(id)"
        case .album(let id): "al-\(id)"
        case .song(let id): "tr-\(id)"
        case .playlist(let id): "pl-\(id)"
        case .podcastChannel(let id): "pc-\(id)"
        case .podcastEpisode(let id): "pe-\(id)"
        }
    }

    static func artist(_ id: Int64) -> String { SubsonicID.artist(id).string }
    static func album(_ id: Int64) -> String { SubsonicID.album(id).string }
    static func song(_ id: Int64) -> String { SubsonicID.song(id).string }
    static func playlist(_ id: Int64) -> String { SubsonicID.playlist(id).string }
    static func podcastChannel(_ id: Int64) -> String { SubsonicID.podcastChannel(id).string }
    static func podcastEpisode(_ id: Int64) -> String { SubsonicID.podcastEpisode(id).string }

    /// Parses a prefixed id; nil for anything else (no prefix, a non-positive or huge number).
    init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let number = Self.number(parts[1]) else { return nil }
        switch parts[0] {
        case "ar": self = .artist(number)
        case "al": self = .album(number)
        case "tr": self = .song(number)
        case "pl": self = .playlist(number)
        case "pc": self = .podcastChannel(number)
        case "pe": self = .podcastEpisode(number)
        default: return nil
        }
    }

    static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int64(text), value > 0 else { return nil }
        return value
    }

    /// The number of an id of one kind (`al-5` or `5` for albums), or error 70.
    static func expect(_ text: String, _ kind: Kind) throws -> Int64 {
        if let bare = number(Substring(text)) { return bare }
        switch (SubsonicID(text), kind) {
        case (.artist(let id)?, .artist), (.album(let id)?, .album), (.song(let id)?, .song), (.playlist(let id)?, .playlist),
             (.podcastChannel(let id)?, .podcastChannel), (.podcastEpisode(let id)?, .podcastEpisode):
            return id
        default:
            throw SubsonicError(.notFound, "no \(kind.rawValue) with id '\(text.prefix(40))'")
        }
    }

    enum Kind: String, Sendable {
        case artist, album, song, playlist
        case podcastChannel = "podcast channel"
        case podcastEpisode = "podcast episode"
    }
}
