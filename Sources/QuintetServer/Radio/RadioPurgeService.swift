import Foundation
import Logging
import Radio
import ServiceLifecycle

/// The server's background purge of deleted shows and episodes (issue 24 §2): at start and
/// then every ``interval``, ``RadioStore/purgeExpired(now:)`` removes what was deleted
/// ``RadioStore/undoDays`` days ago or more (rows and files). `now` is the clock (tests inject one).
struct RadioPurgeService: Service {
    let radio: RadioStore
    let logger: Logger
    var interval: Duration = .seconds(3600)
    var now: @Sendable () -> Date = { Date() }

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await purgeOnce()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One purge, logged; failures are logged and retried at the next round.
    func purgeOnce() async {
        do {
            let moment = now()
            let purge = try await Blocking.run { try radio.purgeExpired(now: moment) }
            if !purge.shows.isEmpty || !purge.episodes.isEmpty {
                logger.info("radio: purged deleted shows \(purge.shows) and episodes \(purge.episodes)")
            }
        } catch {
            logger.warning("radio: purge of deleted shows and episodes failed: \(error)")
        }
    }
}
