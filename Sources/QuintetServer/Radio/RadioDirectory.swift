import AudioCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import Radio

/// A show as the live server needs it: who may stream to which mount, and where it goes after.
struct LiveShow: Sendable, Hashable {
    /// The show's id in the store.
    let id: Int64
    /// Its title (the mount's name when the source sends no `Ice-Name`).
    let title: String
    /// The mount path (`/live/<slug>.mp3`).
    let mount: String
    /// The source password (Basic auth user `source`).
    let streamKey: String
    /// Where listeners go when a broadcast ends, if anywhere (another mount path).
    let fallbackMount: String?
    /// The longest broadcast in seconds (nil or 0: no limit); the source is cut off after it.
    var maxEpisodeSeconds: Int? = nil
    /// The user who owns the show (may stream to it from the studio when signed in).
    var ownerID: Int64? = nil
    /// What the owner's plan leaves of its storage when the broadcast starts (nil: no limit):
    /// a source is refused when nothing is left, and the recording is cut when it reaches it.
    var storage: StorageLeft? = nil
}

/// One live broadcast being recorded.
struct LiveEpisode: Sendable, Hashable {
    /// The episode's id in the store.
    let id: Int64
    /// The file the broadcast is appended to.
    let file: URL
}

/// The decisions the live server takes from the radio's storage: which show owns a mount and
/// whether a key opens it, and the life of an episode. ``StoreRadioDirectory`` answers from the
/// shared database; ``MemoryRadioDirectory`` holds shows in memory (tests).
///
/// Calls are synchronous and short (one SQLite read or write); they happen when a source
/// connects or leaves, never per chunk or per listener write.
protocol RadioDirectory: Sendable {
    /// The show streaming on `mount`, or nil when no show has that mount.
    func show(mount: String) throws -> LiveShow?
    /// Starts an episode of `show` now; its recording goes to the returned file (the folder is
    /// created by the caller).
    func startEpisode(show: LiveShow, contentType: String, at date: Date) throws -> LiveEpisode
    /// A listener joined the live `episode`.
    func countListen(_ episode: LiveEpisode) throws
    /// `episode` reached a new peak of `listeners` at once.
    func recordPeak(_ episode: LiveEpisode, listeners: Int) throws
    /// Ends `episode`: the recording is complete (`bytes` long), with these listener figures.
    func endEpisode(_ episode: LiveEpisode, at date: Date, bytes: Int64, listens: Int, peakListeners: Int) throws
}

/// The live server's view of ``RadioStore`` (the shared database): shows by mount, episodes
/// started as `live` and finished (exact duration, size, waveform peaks, published as the show
/// says) when the broadcast ends. A recording with no audio frame is deleted.
struct StoreRadioDirectory: RadioDirectory {
    let store: RadioStore
    /// Brings each finished broadcast to −16 LUFS (two-pass `loudnorm`, one linear gain) before it
    /// is finalised; nil leaves recordings as they came (no ffmpeg).
    var loudness: LoudnessNormalizer? = nil
    var logger: Logger? = nil

    func show(mount: String) throws -> LiveShow? {
        guard let show = try store.show(mount: mount), let id = show.id else { return nil }
        // A broadcast is cut at the show's longest episode or the owner's plan's, whichever is smaller.
        let plans = RadioPlans(database: store.database)
        let plan = try plans.plan(userID: show.ownerID)
        let limit = min(show.maxEpisodeSeconds, plan?.maxEpisodeSeconds ?? .max)
        return LiveShow(id: id, title: show.title, mount: show.mount, streamKey: show.streamKey,
                        fallbackMount: show.fallbackMount, maxEpisodeSeconds: limit, ownerID: show.ownerID,
                        storage: try plans.storageLeft(ownerID: show.ownerID))
    }

    func startEpisode(show: LiveShow, contentType: String, at date: Date) throws -> LiveEpisode {
        let episode = try store.startEpisode(showID: show.id, contentType: contentType, at: date)
        return LiveEpisode(id: episode.id!, file: store.fileURL(of: episode))
    }

    func countListen(_ episode: LiveEpisode) throws { try store.countListen(episodeID: episode.id) }

    func recordPeak(_ episode: LiveEpisode, listeners: Int) throws {
        try store.recordListeners(episodeID: episode.id, current: listeners)
    }

    func endEpisode(_ episode: LiveEpisode, at date: Date, bytes: Int64, listens: Int, peakListeners: Int) throws {
        try store.recordListeners(episodeID: episode.id, current: peakListeners)
        if let loudness {
            normalize(episode, with: loudness)
        }
        do {
            _ = try store.finishEpisode(id: episode.id, endedAt: date)
        } catch RadioStoreError.badAudio {
            try store.purgeEpisode(id: episode.id)
        }
    }
}

extension StoreRadioDirectory {
    /// Best effort: a recording that cannot be measured (no audio) or rewritten stays as it is,
    /// and the episode is finalised all the same.
    func normalize(_ episode: LiveEpisode, with loudness: LoudnessNormalizer) {
        let size = (try? FileManager.default.attributesOfItem(atPath: episode.file.path)[.size] as? NSNumber)??.intValue ?? 0
        guard size > 0 else { return }  // nothing was recorded: the episode is deleted next
        let format: LoudnessNormalizer.Format = episode.file.pathExtension == "aac" ? .adtsAAC(bitrate: 128) : .mp3(bitrate: 128)
        do {
            switch try loudness.normalize(fileAt: episode.file, format: format) {
            case .normalized(let before, let after):
                logger?.info("radio episode normalised", metadata: [
                    "episode": "\(episode.id)", "before_lufs": "\(before.integrated)", "after_lufs": "\(after.integrated)",
                    "true_peak": "\(after.truePeak)"])
            case .unchanged(let measured):
                logger?.info("radio episode left at its loudness", metadata: [
                    "episode": "\(episode.id)", "lufs": "\(measured.integrated)"])
            }
        } catch {
            logger?.warning("radio episode not normalised", metadata: ["episode": "\(episode.id)", "error": "\(error)"])
        }
    }
}

/// Shows kept in memory, for in-process tests: episodes are numbered from 1 and recorded under
/// `directory/radio/<show id>/<episode id>.mp3`.
final class MemoryRadioDirectory: RadioDirectory {
    /// An ended episode as reported by the server.
    struct Ended: Sendable, Hashable {
        let episode: LiveEpisode
        let bytes: Int64
        let listens: Int
        let peakListeners: Int
    }

    private struct State {
        var shows: [String: LiveShow] = [:]
        var nextEpisode: Int64 = 1
        var started: [LiveEpisode] = []
        var ended: [Ended] = []
        var listens: [Int64: Int] = [:]
        var peaks: [Int64: Int] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// The data folder recordings go under.
    let directory: URL

    init(directory: URL, shows: [LiveShow] = []) {
        self.directory = directory
        state.withLockedValue { state in for show in shows { state.shows[show.mount] = show } }
    }

    /// Adds or replaces a show.
    func add(_ show: LiveShow) { state.withLockedValue { $0.shows[show.mount] = show } }

    /// Episodes started so far.
    var started: [LiveEpisode] { state.withLockedValue { $0.started } }
    /// Episodes ended so far.
    var ended: [Ended] { state.withLockedValue { $0.ended } }

    func show(mount: String) throws -> LiveShow? { state.withLockedValue { $0.shows[mount] } }

    func startEpisode(show: LiveShow, contentType: String, at date: Date) throws -> LiveEpisode {
        state.withLockedValue { state in
            let id = state.nextEpisode
            state.nextEpisode += 1
            let file = directory.appendingPathComponent("radio/\(show.id)/\(id).\(LiveRadio.fileExtension(contentType))")
            let episode = LiveEpisode(id: id, file: file)
            state.started.append(episode)
            return episode
        }
    }

    /// Listens and peaks reported while live, by episode id.
    var liveFigures: (listens: [Int64: Int], peaks: [Int64: Int]) { state.withLockedValue { ($0.listens, $0.peaks) } }

    func countListen(_ episode: LiveEpisode) throws { state.withLockedValue { $0.listens[episode.id, default: 0] += 1 } }

    func recordPeak(_ episode: LiveEpisode, listeners: Int) throws {
        state.withLockedValue { $0.peaks[episode.id] = max($0.peaks[episode.id] ?? 0, listeners) }
    }

    func endEpisode(_ episode: LiveEpisode, at date: Date, bytes: Int64, listens: Int, peakListeners: Int) throws {
        state.withLockedValue { $0.ended.append(Ended(episode: episode, bytes: bytes, listens: listens, peakListeners: peakListeners)) }
    }
}
