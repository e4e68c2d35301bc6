import Foundation
import Logging
import Radio

/// At server start: finalises the broadcasts a crash or `kill -9` left `live`
/// (``RadioStore/recoverInterruptedEpisodes(computePeaks:)``) before any source can connect,
/// then computes their waveform peaks in the background (ffmpeg decoding can take a while
/// for a long recording and must not delay the start).
enum RadioRecovery {
    static func run(_ radio: RadioStore, logger: Logger) {
        let recovery: RadioStore.Recovery
        do {
            recovery = try radio.recoverInterruptedEpisodes(computePeaks: false)
        } catch {
            logger.error("radio: recovering interrupted episodes failed: \(error)")
            return
        }
        for episode in recovery.discarded {
            logger.warning("radio: interrupted episode \(episode.id ?? 0) had no audio and was removed")
        }
        guard !recovery.finalised.isEmpty else { return }
        for episode in recovery.finalised {
            logger.notice("radio: recovered interrupted episode \(episode.id ?? 0) (\(String(format: "%.1f", episode.duration)) s, \(episode.state.rawValue))")
        }
        let ids = recovery.finalised.compactMap(\.id)
        Task.detached(priority: .utility) {
            for id in ids {
                do { try radio.computePeaks(episodeID: id) } catch {
                    logger.warning("radio: peaks of episode \(id) failed: \(error)")
                }
            }
        }
    }
}
