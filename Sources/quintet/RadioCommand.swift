import ArgumentParser
import AudioCore
import Foundation
import QuintetServer
import QuintetStore
import Radio

/// `quintet radio`: the radio's shows and episodes on the command line (docs/radio.md, "CLI").
struct RadioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radio",
        abstract: "The radio: shows (mount, stream key, feed) and their episodes.",
        subcommands: [CreateShow.self, EditShow.self, Shows.self, Episodes.self, ImportEpisode.self, Publish.self,
                      DeleteEpisode.self, RestoreEpisode.self, DeleteShow.self, RestoreShow.self, ResetKey.self,
                      RadioPlansCommand.self, OPML.self, Follow.self, Unfollow.self, Following.self]
    )

    /// Where the printed URLs point: `--public-url`, else QUINTET_PUBLIC_URL, else
    /// `http://QUINTET_HOST:QUINTET_PORT` with the server's defaults (127.0.0.1, 8080).
    struct URLOptions: ParsableArguments {
        @Option(name: .customLong("public-url"),
                help: ArgumentHelp("The server's base URL for printed URLs (default http://127.0.0.1:8080; env QUINTET_PUBLIC_URL, else QUINTET_HOST/QUINTET_PORT).", valueName: "url"))
        var publicURL: String?

        func base() throws -> URLComponents {
            let text = publicURL ?? Environment.value("QUINTET_PUBLIC_URL")
                ?? "http://\(Environment.value("QUINTET_HOST") ?? "127.0.0.1"):\(Environment.value("QUINTET_PORT") ?? "8080")"
            guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
                throw ValidationError("the public URL must look like http://host:port, not '\(text)'")
            }
            while components.path.hasSuffix("/") { components.path.removeLast() }
            return components
        }
    }

    /// `quintet radio create-show --title T`.
    struct CreateShow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-show",
            abstract: "Create a show: prints its mount, source URL, stream key (shown once) and feed URL.",
            discussion: """
            The owner is --owner, else the first admin user (the `admin` the server creates on its \
            first start); with no admin the command fails and says how to add one. The mount is \
            /live/<slug>.mp3, the slug made from the title. A server already running on the same \
            data folder accepts the new show's source at once. With --json prints one line: \
            {"id", "mount", "source_url", "key", "feed_url"}.
            """
        )

        @Option(help: "The show's title.") var title: String
        @Option(help: "The owning user's name (default: the first admin).") var owner: String?
        @Option(help: "A plain-text description.") var description: String = ""
        @Option(help: "Language tag for the feed (default en).") var language: String = "en"
        @Flag(help: "Mark the show explicit in its feed.") var explicit = false
        @Flag(name: .customLong("no-auto-publish"), help: "Keep finished broadcasts as recorded until published.")
        var noAutoPublish = false
        @Option(name: .customLong("max-episode"),
                help: ArgumentHelp("Longest broadcast: 4h, 90m, 1h30m, 3600 (seconds) or 1:30:00 (default 4h).", valueName: "duration"))
        var maxEpisode: String?
        @Option(help: "Cover art: an http(s) URL or a path inside the data folder (absolute or relative to it).") var cover: String?
        @Option(help: "Apple Podcasts category, e.g. Music (the feed's itunes:category).") var category: String?
        @Option(help: "A subcategory of --category, e.g. \"Music Commentary\".") var subcategory: String?
        @Option(help: "Where the show is broadcast from (free text).") var location: String?
        @Option(name: .customLong("fallback-mount"), help: "A mount (/live/…) listeners move to when a broadcast ends.")
        var fallbackMount: String?
        @OptionGroup var urlOptions: URLOptions
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print one compact JSON line.") var json = false

        func run() throws {
            var seconds = RadioStore.defaultMaxEpisodeSeconds
            if let maxEpisode {
                guard let parsed = RadioCommand.seconds(maxEpisode), parsed > 0 else {
                    throw ValidationError("--max-episode: expected a duration like 4h, 90m, 1h30m, 3600 or 1:30:00, not '\(maxEpisode)'")
                }
                seconds = parsed
            }
            let base = try urlOptions.base()
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let users = UserStore(database: database)
            let ownerUser: User
            if let owner {
                guard let found = try users.find(name: owner) else { throw ValidationError("no user named '\(owner)'") }
                ownerUser = found
            } else {
                guard let admin = try users.list().filter({ $0.role == .admin }).min(by: { $0.id! < $1.id! }) else {
                    throw ValidationError("no admin user to own the show: pass --owner NAME, add one with 'quintet users add NAME --role admin', or start 'quintet serve' once")
                }
                ownerUser = admin
            }
            let show = try radioCall {
                try RadioStore(database: database, decoder: AudioFileDecoder()).createShow(owner: ownerUser.id!, RadioStore.NewShow(
                    title: title, description: description, cover: cover, language: language, explicit: explicit,
                    location: location, publishAutomatically: !noAutoPublish, maxEpisodeSeconds: seconds,
                    fallbackMount: fallbackMount, category: category, subcategory: subcategory))
            }
            let urls = RadioCommand.urls(show: show, base: base)
            if json {
                struct Line: Encodable { let id: Int64; let mount: String; let source_url: String; let key: String; let feed_url: String }
                try printCompactJSON(Line(id: show.id!, mount: show.mount, source_url: urls.icecast, key: show.streamKey, feed_url: urls.feed))
            } else {
                print("""
                created show \(show.id!) '\(show.title)' (owner \(ownerUser.name))
                mount:       \(show.mount)
                stream key:  \(show.streamKey)   (shown once: keep it)
                source URL:  \(urls.icecast)
                             \(urls.http)   (user source, password the key; HTTP PUT or SOURCE)
                listen:      \(urls.listen)
                feed:        \(urls.feed)
                e.g. ffmpeg -re -i music.mp3 -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3 '\(urls.icecast)'
                """)
            }
        }
    }

    /// `quintet radio shows`.
    struct Shows: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List shows (never their stream keys).",
            discussion: "With --json prints [{\"id\", \"title\", \"slug\", \"mount\", \"owner\", \"publish_automatically\", \"max_episode_seconds\", \"feed_url\"}].")
        @OptionGroup var urlOptions: URLOptions
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let base = try urlOptions.base()
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let users = UserStore(database: database)
            let shows = try RadioStore(database: database, decoder: AudioFileDecoder()).shows()
            struct Line: Encodable {
                let id: Int64, title: String, slug: String, mount: String, owner: String
                let publish_automatically: Bool, max_episode_seconds: Int, feed_url: String
            }
            let lines = try shows.map { show in
                Line(id: show.id!, title: show.title, slug: show.slug, mount: show.mount,
                     owner: try users.find(id: show.ownerID)?.name ?? "", publish_automatically: show.publishAutomatically,
                     max_episode_seconds: show.maxEpisodeSeconds, feed_url: RadioCommand.urls(show: show, base: base).feed)
            }
            if json { try printJSON(lines); return }
            if lines.isEmpty { print("no shows yet: create one with 'quintet radio create-show --title TITLE'") }
            for line in lines { print("\(line.id)\t\(line.mount)\t\(line.title)\t\(line.owner)") }
        }
    }

    /// `quintet radio episodes`.
    struct Episodes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List episodes, newest first (all states).",
            discussion: "With --json prints [{\"id\", \"show_id\", \"title\", \"state\", \"started_at\", \"ended_at\", \"duration\", \"size\", \"listens\", \"peak_listeners\", \"guid\", \"file\"}].")
        @Option(help: "Only this show's episodes (its id).") var show: Int64?
        @Option(help: "At most this many (default 50).") var limit: Int = 50
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print as JSON.") var json = false

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be positive") }
        }

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let radio = RadioStore(database: database, decoder: AudioFileDecoder())
            if let show, try radio.show(id: show) == nil { throw ValidationError("no show \(show)") }
            let episodes = try radio.episodes(showID: show, limit: limit)
            if json { try printJSON(episodes.map(EpisodeLine.init)); return }
            if episodes.isEmpty { print("no episodes yet") }
            for e in episodes {
                print("\(e.id!)\t\(e.state.rawValue)\t\(PodcastFeed.duration(e.duration))\t\(e.title)\t\(e.file)")
            }
        }
    }

    /// `quintet radio import-episode --show ID FILE`.
    struct ImportEpisode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-episode",
            abstract: "Import an existing MP3 (or ADTS .aac) recording as an episode of a show.",
            discussion: """
            The file is copied into the data folder (radio/<show>/<episode>.mp3) and measured \
            (exact duration from its frames, waveform peaks); it is published when the show \
            publishes automatically, unless --publish/--no-publish says otherwise. With --json \
            prints the episode as `quintet radio episodes --json` does.
            """
        )
        @Option(help: "The show's id.") var show: Int64
        @Argument(help: "The recording (.mp3 or .aac).") var file: String
        @Option(help: "Episode title (default: the file name).") var title: String?
        @Option(help: "A plain-text description.") var description: String = ""
        @Flag(inversion: .prefixedNo, help: "Publish it (default: as the show says).") var publish: Bool?
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let url = URL(fileURLWithPath: file).standardizedFileURL
            guard FileManager.default.isReadableFile(atPath: url.path) else { throw ValidationError("cannot read \(file)") }
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let episode = try radioCall {
                try RadioStore(database: database, decoder: AudioFileDecoder()).importEpisode(showID: show, file: url, title: title,
                                                                 description: description, publish: publish)
            }
            if json { try printJSON(EpisodeLine(episode)); return }
            print("imported episode \(episode.id!) (\(episode.state.rawValue), \(PodcastFeed.duration(episode.duration)), \(episode.size) bytes): \(episode.file)")
        }
    }

    /// `quintet radio publish ID`.
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish a recorded episode (put it in its show's feed).")
        @Argument(help: "The episode's id.") var id: Int64
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let episode = try radioCall { try RadioStore(database: database, decoder: AudioFileDecoder()).publish(episodeID: id) }
            print("episode \(episode.id!) is \(episode.state.rawValue)")
        }
    }

    /// `quintet radio reset-key --show ID`.
    struct ResetKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-key",
            abstract: "Give a show a new stream key (printed once, as by create-show); the old key stops working.")
        @Option(help: "The show's id.") var show: Int64
        @OptionGroup var urlOptions: URLOptions
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print one compact JSON line, as create-show does.") var json = false

        func run() throws {
            let base = try urlOptions.base()
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let updated = try radioCall { try RadioStore(database: database, decoder: AudioFileDecoder()).resetStreamKey(showID: show) }
            let urls = RadioCommand.urls(show: updated, base: base)
            if json {
                struct Line: Encodable { let id: Int64; let mount: String; let source_url: String; let key: String; let feed_url: String }
                try printCompactJSON(Line(id: updated.id!, mount: updated.mount, source_url: urls.icecast, key: updated.streamKey, feed_url: urls.feed))
            } else {
                print("new stream key of show \(updated.id!): \(updated.streamKey)   (shown once: keep it)")
                print("source URL: \(urls.icecast)")
            }
        }
    }

    /// An episode for printing.
    struct EpisodeLine: Encodable {
        let id: Int64, show_id: Int64, title: String, state: String, started_at: Date, ended_at: Date?
        let duration: Double, size: Int64, listens: Int, peak_listeners: Int, guid: String, file: String
        init(_ e: RadioEpisode) {
            id = e.id!; show_id = e.showID; title = e.title; state = e.state.rawValue; started_at = e.startedAt
            ended_at = e.endedAt; duration = e.duration; size = e.size; listens = e.listens
            peak_listeners = e.peakListeners; guid = e.guid; file = e.file
        }
    }

    /// A show's URLs from the server's base URL.
    static func urls(show: RadioShow, base: URLComponents) -> (icecast: String, http: String, listen: String, feed: String) {
        let scheme = base.scheme!.lowercased()
        let host = base.host!.contains(":") ? "[\(base.host!)]" : base.host!
        let port = base.port ?? (scheme == "https" ? 443 : 80)
        let prefix = base.path
        let authority = "\(host)\(base.port.map { ":\($0)" } ?? "")"
        let credentials = "source:\(show.streamKey)@"
        return (icecast: "icecast://\(credentials)\(host):\(port)\(prefix)\(show.mount)",
                http: "\(scheme)://\(credentials)\(authority)\(prefix)\(show.mount)",
                listen: "\(scheme)://\(authority)\(prefix)\(show.mount)",
                feed: "\(scheme)://\(authority)\(prefix)/radio/feeds/\(show.id!).xml")
    }

    /// Seconds in `4h`, `90m`, `45s`, `1h30m`, `3600` or `1:30:00`; nil when malformed.
    static func seconds(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty else { return nil }
        if let plain = Int(t) { return plain }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            return parts.reduce(0) { $0 * 60 + $1! }
        }
        var total = 0, number = ""
        var units = Set<Character>()
        for c in t {
            if c.isASCII, c.isNumber { number.append(c); continue }
            guard let n = Int(number), let factor = ["h": 3600, "m": 60, "s": 1][c], units.insert(c).inserted else { return nil }
            total += n * factor
            number = ""
        }
        return number.isEmpty ? total : nil
    }
}

/// Prints one compact, key-sorted JSON line.
func printCompactJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Turns radio store errors into command-line errors with their message.
func radioCall<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as RadioStoreError { throw ValidationError(error.description) }
    catch let error as PlanLimitError { throw ValidationError(error.description) }
    catch let error as RadioCommunityError { throw ValidationError(error.description) }
}
