import Foundation
import QuintetStore
import Radio

/// The radio in Subsonic apps (issue 24 §3, docs/subsonic.md): podcasts and internet radio.
///
/// - `getPodcasts` (`includeEpisodes`, default true; `id`): the shows that are not deleted as
///   channels (`pc-<show id>`), each with its published, non-deleted episodes (`pe-<episode id>`).
/// - `getNewestPodcasts` (`count`, default 20): the newest published episodes of all shows.
/// - `getPodcastEpisode` (OpenSubsonic): one episode.
/// - An episode's `streamId` is its id: `stream` and `download` send its file (with ranges).
/// - `getInternetRadioStations`: the live mounts (``LiveRadio``), each with the absolute URL
///   of its stream and the show's page.
/// - The writes — `createPodcastChannel`, `refreshPodcasts`, `deletePodcastChannel`,
///   `deletePodcastEpisode`, `downloadPodcastEpisode` and the internet radio station edits —
///   answer error 50 (not authorized): every user's `podcastRole` is false, as the Subsonic
///   API asks a server to refuse podcast administration then; shows are run from the radio's
///   own pages and CLI.
extension SubsonicAPI {
    /// Podcast reads, on the blocking pool.
    static let podcastHandlers: [String: BlockingHandler] = {
        var table: [String: BlockingHandler] = [
            "getPodcasts": { api, call in
                let include = try call.params.bool("includeEpisodes") ?? true
                var ids: [Int64]?
                if let text = call.params["id"], !text.isEmpty {
                    ids = [try SubsonicID.expect(text, .podcastChannel)]
                }
                let shows = try api.radio.publicShows(ids: ids)
                if let ids, shows.isEmpty { throw SubsonicError(.notFound, "no podcast channel with id '\(ids[0])'") }
                let base = api.baseURL(call)
                var podcasts = SubsonicElement()
                podcasts.add("channel", list: try shows.map { show -> SubsonicElement in
                    var channel = api.channel(show, base: base)
                    if include {
                        let owner = try api.ownerName(show)
                        channel.add("episode", list: try api.radio.publicEpisodes(showID: show.id!, limit: .max).map {
                            api.episode($0, show: show, owner: owner)
                        })
                    }
                    return channel
                })
                return .payload("podcasts", podcasts)
            },
            "getNewestPodcasts": { api, call in
                let count = try call.params.int("count", clampedTo: 0...Self.maxPodcastList) ?? 20
                var shows: [Int64: (RadioShow, String)] = [:]
                var newest = SubsonicElement()
                newest.add("episode", list: try api.radio.publicEpisodes(limit: count).compactMap { episode -> SubsonicElement? in
                    if shows[episode.showID] == nil, let show = try api.radio.publicShow(id: episode.showID) {
                        shows[episode.showID] = (show, try api.ownerName(show))
                    }
                    guard let (show, owner) = shows[episode.showID] else { return nil }
                    return api.episode(episode, show: show, owner: owner)
                })
                return .payload("newestPodcasts", newest)
            },
            "getPodcastEpisode": { api, call in
                let id = try SubsonicID.expect(try call.params.required("id"), .podcastEpisode)
                guard let (episode, show) = try api.radio.publicEpisode(id: id) else {
                    throw SubsonicError(.notFound, "no podcast episode with id '\(id)'")
                }
                return .payload("podcastEpisode", api.episode(episode, show: show, owner: try api.ownerName(show)))
            },
        ]
        let refused = ["createPodcastChannel", "refreshPodcasts", "deletePodcastChannel", "deletePodcastEpisode",
                       "downloadPodcastEpisode", "createInternetRadioStation", "updateInternetRadioStation",
                       "deleteInternetRadioStation"]
        for name in refused {
            table[name] = { _, _ in
                throw SubsonicError(.notAuthorized, "\(name) is not allowed through Subsonic: shows and live mounts are managed on Quintet's radio pages")
            }
        }
        return table
    }()

    /// Most episodes `getNewestPodcasts` returns.
    static let maxPodcastList = 500

    /// The live mounts as stations (reads each mount on its event loop).
    static let radioHandlers: [String: Handler] = [
        "getInternetRadioStations": { api, call in
            let base = api.baseURL(call)
            var mounts: [RadioLiveAPI.MountView] = []
            if let live = api.live { mounts = await RadioLiveAPI.snapshot(live) }
            var stations = SubsonicElement()
            stations.add("internetRadioStation", list: mounts.map { mount in
                var station = SubsonicElement()
                station.set("id", "ir-\(mount.showID)")
                station.set("name", mount.showTitle)
                station.set("streamUrl", base + mount.mount)
                station.set("homePageUrl", base + RadioShareRoutes.showPagePath(mount.showID))
                return station
            })
            return .payload("internetRadioStations", stations)
        },
    ]

    /// stream and download of a podcast episode (`pe-…`): its file, with ranges.
    func podcastEpisodeFile(_ id: Int64, _ call: SubsonicCall, download: Bool) async throws -> SubsonicReply {
        let radio = self.radio
        guard let (episode, _) = try await Blocking.run({ try radio.publicEpisode(id: id) }) else {
            throw SubsonicError(.notFound, "no podcast episode with id '\(id)'")
        }
        let url = radio.fileURL(of: episode)
        return .response(try await media.file(url, contentType: episode.contentType, request: call.request, context: call.context,
                                              download: download ? url.lastPathComponent : nil))
    }

    /// A show as a `<channel>` (Subsonic's podcastChannel), without its episodes.
    func channel(_ show: RadioShow, base: String) -> SubsonicElement {
        var e = SubsonicElement()
        e.set("id", SubsonicID.podcastChannel(show.id!))
        e.set("url", "\(base)/radio/feeds/\(show.id!).xml")
        e.set("title", show.title)
        e.set("description", show.description)
        if let cover = show.cover {
            e.set("coverArt", SubsonicID.podcastChannel(show.id!))
            e.set("originalImageUrl", RadioRoutes.Handlers.isRemote(cover) ? cover : "\(base)/radio/covers/\(show.id!)")
        }
        e.set("status", "completed")
        return e
    }

    /// An episode as Subsonic's podcastEpisode (a `Child` with the podcast fields).
    func episode(_ episode: RadioEpisode, show: RadioShow, owner: String) -> SubsonicElement {
        let id: String = SubsonicID.podcastEpisode(episode.id!)
        let published = episode.publishedAt ?? episode.endedAt ?? episode.startedAt
        var e = SubsonicElement()
        e.set("id", id)
        e.set("streamId", id)
        e.set("channelId", SubsonicID.podcastChannel(show.id!))
        e.set("parent", SubsonicID.podcastChannel(show.id!))
        e.set("isDir", false)
        e.set("title", episode.title)
        e.set("album", show.title)
        e.set("artist", owner)
        e.set("description", episode.description)
        e.set("publishDate", published.ISO8601Format())
        e.set("year", Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: published).year)
        e.set("genre", "Podcast")
        if show.cover != nil { e.set("coverArt", SubsonicID.podcastChannel(show.id!)) }
        e.set("size", episode.size)
        e.set("contentType", episode.contentType)
        e.set("suffix", (episode.file as NSString).pathExtension)
        e.set("duration", Int(episode.duration.rounded()))
        if episode.duration > 0 { e.set("bitRate", Int((Double(episode.size) * 8 / episode.duration / 1000).rounded())) }
        e.set("status", "completed")
        e.set("type", "podcast")
        e.set("created", episode.startedAt.ISO8601Format())
        return e
    }

    func ownerName(_ show: RadioShow) throws -> String {
        try auth.authenticator.users.find(id: show.ownerID)?.name ?? ""
    }

    /// The base of absolute URLs: `--public-url`, else `http://` and the request's Host.
    func baseURL(_ call: SubsonicCall) -> String {
        RadioRoutes.Handlers(radio: radio, publicURL: publicURL).baseURL(call.request)
    }
}
