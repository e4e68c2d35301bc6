import Foundation
import LibraryCore

/// stream, download, getCoverArt: bytes through the same `MediaResponder` as
/// `/api/library/*` (ranges, ffmpeg transcodes, cached thumbnails).
extension SubsonicAPI {
    static let mediaHandlers: [String: Handler] = [
        "stream": { api, call in try await api.stream(call) },
        "download": { api, call in
            let text = try call.params.required("id")
            if case .podcastEpisode(let episode)? = SubsonicID(text) {
                return try await api.podcastEpisodeFile(episode, call, download: true)
            }
            let id = try SubsonicID.expect(text, .song)
            let (song, url) = try await api.songFile(id)
            return .response(try await api.media.file(url, contentType: song.contentType, request: call.request,
                                                      context: call.context, download: url.lastPathComponent))
        },
        "getCoverArt": { api, call in try await api.coverArt(call) },
    ]

    /// stream: the original file (with ranges) unless `format` names mp3 or opus, or
    /// `maxBitRate` (kbit/s, 0 = no limit) is below the file's bitrate — then an ffmpeg
    /// transcode (mp3 unless opus was asked for). `format=raw` always sends the original.
    /// A podcast episode (`pe-…`) is sent as it is.
    func stream(_ call: SubsonicCall) async throws -> SubsonicReply {
        let text = try call.params.required("id")
        if case .podcastEpisode(let episode)? = SubsonicID(text) {
            return try await podcastEpisodeFile(episode, call, download: false)
        }
        let id = try SubsonicID.expect(text, .song)
        let (song, url) = try await songFile(id)
        let maxKbps = try call.params.int("maxBitRate", clampedTo: 0...1_000_000) ?? 0
        let requested = call.params["format"]?.lowercased()
        let overLimit = maxKbps > 0 && (song.bitrate ?? Int.max) > maxKbps * 1000
        var target: MediaResponder.TranscodeFormat?
        switch requested {
        case "raw": target = nil
        case let name? where MediaResponder.TranscodeFormat(rawValue: name) != nil:
            let format = MediaResponder.TranscodeFormat(rawValue: name)!
            let same = format == .mp3 ? song.suffix == "mp3" : song.codec == "opus"
            target = same && !overLimit ? nil : format
        default:
            // No format, or one Quintet cannot make: the original unless it is too heavy.
            target = overLimit ? .mp3 : nil
        }
        guard let target else {
            return .response(try await media.file(url, contentType: song.contentType, request: call.request, context: call.context))
        }
        let kbps = maxKbps > 0 ? min(max(maxKbps, MediaResponder.bitrates.lowerBound), MediaResponder.bitrates.upperBound) : nil
        return .response(try await media.transcode(url, format: target, bitrate: kbps, request: call.request))
    }

    /// getCoverArt: `id` is an album (`al-`), song (`tr-`), artist (`ar-`) or playlist
    /// (`pl-`, its first song's cover); a bare number is an album. `size` asks for a JPEG
    /// thumbnail at most size × size (clamped to 16–1024); 0 or none sends the original.
    func coverArt(_ call: SubsonicCall) async throws -> SubsonicReply {
        let text = try call.params.required("id")
        let catalog = self.catalog
        let source: CoverSource?
        switch SubsonicID(text) ?? SubsonicID.number(Substring(text)).map(SubsonicID.album) {
        case .album(let id)?: source = try await Blocking.run { try catalog.cover(albumID: id) }
        case .song(let id)?: source = try await Blocking.run { try catalog.cover(songID: id) }
        case .artist(let id)?: source = try await Blocking.run { try catalog.cover(artistID: id) }
        case .playlist(let id)?:
            let userID = call.userID
            source = try await Blocking.run {
                let songs = try catalog.playlist(id: id, userID: userID).1
                return try songs.first.flatMap { try catalog.cover(songID: $0.id) }
            }
        case .podcastChannel(let id)?: return try await showCover(id, call)
        case .podcastEpisode(let id)?:
            let radio = self.radio
            guard let showID = try await Blocking.run({ try radio.publicEpisode(id: id)?.show.id }) else {
                throw SubsonicError(.notFound, "no podcast episode with id '\(id)'")
            }
            return try await showCover(showID, call)
        case nil: throw SubsonicError(.notFound, "no cover art with id '\(text.prefix(40))'")
        }
        guard let source else { throw SubsonicError(.notFound, "\(text.prefix(40)) has no cover art") }
        let requested = try call.params.int("size", clampedTo: 0...1_000_000) ?? 0
        let size = requested > 0
            ? min(max(requested, MediaResponder.thumbnailSizes.lowerBound), MediaResponder.thumbnailSizes.upperBound) : nil
        return .response(try await media.cover(source, catalog: catalog, size: size))
    }

    /// A show's cover when it is a file in the data folder (a remote cover is the channel's
    /// `originalImageUrl`), sent as it is.
    func showCover(_ showID: Int64, _ call: SubsonicCall) async throws -> SubsonicReply {
        let radio = self.radio
        guard let show = try await Blocking.run({ try radio.publicShow(id: showID) }), let cover = show.cover,
              !RadioRoutes.Handlers.isRemote(cover) else {
            throw SubsonicError(.notFound, "podcast channel \(showID) has no cover file")
        }
        let root = radio.dataDirectory.standardizedFileURL.path
        let url = radio.dataDirectory.appendingPathComponent(cover).standardizedFileURL
        guard url.path.hasPrefix(root + "/") else { throw SubsonicError(.notFound, "podcast channel \(showID) has no cover file") }
        let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif"]
        return .response(try await media.file(url, contentType: types[url.pathExtension.lowercased()] ?? "application/octet-stream",
                                              request: call.request, context: call.context))
    }

    /// A song and its file (catalog reads on the blocking pool).
    func songFile(_ id: Int64) async throws -> (CatalogSong, URL) {
        let catalog = self.catalog
        return try await Blocking.run {
            let song = try catalog.song(id: id)
            return (song, try catalog.fileURL(of: song))
        }
    }
}
