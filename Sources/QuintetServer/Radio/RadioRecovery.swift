import Foundation
import Logging
import Radio
import ServiceLifecycle

/// At server start: finalises the broadcasts a crash or `kill -9` left `live`
/// (``RadioStore/recoverInterruptedEpisodes(computePeaks:)``) before any source can connect,
/// and answers the episodes whose waveform peaks ``RadioPeaksService`` computes in the
/// background (ffmpeg decoding can take a while for a long recording and must not delay the
/// start).
enum RadioRecovery {
    static func run(_ radio: RadioStore, logger: Logger) -> [Int64] {
        let recovery: RadioStore.Recovery
        do {
            recovery = try radio.recoverInterruptedEpisodes(computePeaks: false)
        } catch {
            logger.error("radio: recovering interrupted episodes failed: \(error)")
            return []
        }
        for episode in recovery.discarded {
            logger.warning("radio: interrupted episode \(episode.id ?? 0) had no audio and was removed")
        }
        for episode in recovery.finalised {
            logger.notice("radio: recovered interrupted episode \(episode.id ?? 0) (\(String(format: "%.1f", episode.duration)) s, \(episode.state.rawValue))")
        }
        return recovery.finalised.compactMap(\.id)
    }
}

/// Computes the waveform peaks of recovered episodes, one at a time on the blocking pool;
/// stops between episodes at shutdown (an episode left without peaks still plays, without a
/// waveform). Returns when done: it runs under ``DatabaseService``, not as a service of its own.
struct RadioPeaksService: Service {
    let radio: RadioStore
    let episodes: [Int64]
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            for id in episodes {
                if Task.isCancelled { return }
                do { try await Blocking.run { try radio.computePeaks(episodeID: id) } } catch {
                    logger.warning("radio: peaks of episode \(id) failed: \(error)")
                }
            }
        }
    }
}
