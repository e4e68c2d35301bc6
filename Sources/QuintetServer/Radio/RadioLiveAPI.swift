import Foundation
import Hummingbird

/// The live mounts as JSON for the app's own pages (`/radio/`), beside icecast's
/// `/status-json.xsl`, which keeps icecast's shape for existing clients:
///
/// `GET /api/radio/live` (no auth) →
/// `{"mounts":[{"mount","show_id","show_title","title","listeners","relays","listener_peak","started","content_type","episode_id"}]}`
///
/// - `listeners` counts people listening, `relays` the Icecast servers relaying the mount
///   (``IcecastRelay``; each feeds its own listeners elsewhere);
///
/// - `title` is the ICY stream title now in force (`null` until one is set);
/// - `started` is when the broadcast began (ISO 8601, UTC);
/// - `episode_id` is the episode being recorded (`null` when recording could not start);
/// - mounts are sorted by path; a mount in its grace period (source gone, listeners waiting)
///   is still listed, one that has ended is not, nor one whose show was deleted.
enum RadioLiveAPI {
    /// One live mount as the API shows it.
    struct MountView: Encodable, Sendable {
        let mount: String
        let showID: Int64
        let showTitle: String
        let title: String?
        let listeners: Int
        let relays: Int
        let listenerPeak: Int
        let started: Date
        let contentType: String
        let episodeID: Int64?

        enum CodingKeys: String, CodingKey {
            case mount, showID = "show_id", showTitle = "show_title", title, listeners, relays
            case listenerPeak = "listener_peak", started, contentType = "content_type", episodeID = "episode_id"
        }

        /// Every key is always present (`null` rather than missing), so clients see one shape.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mount, forKey: .mount)
            try container.encode(showID, forKey: .showID)
            try container.encode(showTitle, forKey: .showTitle)
            try container.encode(title, forKey: .title)
            try container.encode(listeners, forKey: .listeners)
            try container.encode(relays, forKey: .relays)
            try container.encode(listenerPeak, forKey: .listenerPeak)
            try container.encode(started, forKey: .started)
            try container.encode(contentType, forKey: .contentType)
            try container.encode(episodeID, forKey: .episodeID)
        }
    }

    struct Answer: Encodable, Sendable { let mounts: [MountView] }

    /// Adds `GET /api/radio/live`.
    static func add(to router: Router<QuintetRequestContext>, radio: LiveRadio) {
        router.get("api/radio/live") { _, _ -> Response in
            try APIJSON.response(Answer(mounts: await snapshot(radio)), headers: [.cacheControl: "no-store"])
        }
    }

    /// The live mounts now, each read on its own event loop (a mount's state belongs to it).
    static func snapshot(_ radio: LiveRadio) async -> [MountView] {
        var views: [MountView] = []
        for mount in radio.liveMounts {
            let view = try? await mount.eventLoop.submit { () -> MountView? in
                guard !mount.ended else { return nil }
                return MountView(mount: mount.path, showID: mount.show.id, showTitle: mount.show.title,
                                 title: mount.titleText, listeners: mount.audienceCount, relays: mount.relayCount,
                                 listenerPeak: mount.peakListeners, started: mount.streamStart,
                                 contentType: mount.info.contentType, episodeID: mount.episodeID)
            }.get()
            if let view = view ?? nil { views.append(view) }
        }
        // A show deleted while on air leaves the listing at once (its directory no longer finds it).
        let directory = radio.directory
        let mounts = views.map(\.mount)
        let online = (try? await Blocking.run { () -> Set<String> in
            Set(try mounts.filter { try directory.show(mount: $0) != nil })
        }) ?? Set(mounts)
        return views.filter { online.contains($0.mount) }
    }
}
