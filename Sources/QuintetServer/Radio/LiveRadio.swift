import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import Radio

/// The live side of the radio: the mounts under `/live/`, their sources and listeners.
///
/// ``IcecastAwareChannel`` hands it every Icecast connection with its parsed head
/// (``accept(head:rest:channel:)``); the Hummingbird routes (`/status-json.xsl`,
/// `/admin/metadata`) read and update it. The registry of mounts is behind one lock; each
/// ``LiveMount`` lives on its own event loop.
///
/// ```swift
/// let radio = LiveRadio(directory: MemoryRadioDirectory(directory: data), logger: logger)
/// ```
final class LiveRadio: Sendable {
    /// Limits and timings; the defaults are icecast's where icecast has one.
    struct Configuration: Sendable {
        /// Listeners at once over every mount (icecast counts all clients; this counts listeners).
        var listenerLimit = 10_000
        /// How long listeners wait, fed with silence, for a source that dropped.
        var gracePeriod: TimeAmount = .seconds(10)
        /// A source that sends nothing for this long is disconnected (icecast `source-timeout`).
        var sourceTimeout: TimeAmount = .seconds(10)
        /// Bytes of recent audio a new listener gets at once (icecast `burst-size`).
        var burstSize = 64 * 1024
        /// Bytes a mount keeps (icecast `queue-size`).
        var queueSize = 512 * 1024
        /// Audio bytes between ICY metadata blocks.
        var metaint = 16_000
        /// A listener further behind than this many seconds of audio is dropped.
        var slowListenerSeconds = 10.0
        /// How often listeners get what arrived since their last write.
        var batchInterval: TimeAmount = .milliseconds(500)
        /// After a broadcast is cut off at its show's maximum episode length, a source that
        /// comes back to the mount within this time is refused (403) with a message saying why
        /// (sources that reconnect by themselves, such as butt, Liquidsoap or Mixxx, log it).
        var cutOffCooldown: TimeAmount = .seconds(60)
        /// The `ffmpeg` binary that turns Ogg/WebM sources into MP3.
        var ffmpeg = "ffmpeg"

        init() {}
    }

    /// The radio's Prometheus metrics (`/metrics`).
    struct Metrics: Sendable {
        /// Listeners connected now, over every mount.
        let listeners = Gauge(label: "quintet_radio_listeners")
        /// Live mounts now.
        let mounts = Gauge(label: "quintet_radio_mounts")
        /// Listeners closed for lagging (slow readers).
        let drops = Counter(label: "quintet_radio_listener_drops_total")
        /// Audio bytes received from sources.
        let bytesIn = Counter(label: "quintet_radio_bytes_in_total")
        /// Audio and metadata bytes handed to listeners.
        let bytesOut = Counter(label: "quintet_radio_bytes_out_total")
    }

    let configuration: Configuration
    let metrics: Metrics
    let directory: any RadioDirectory
    let logger: Logger
    /// When the server started (for `/status-json.xsl`).
    let serverStart = Date()
    private let mounts = NIOLockedValueBox([String: LiveMount]())
    private let counters = NIOLockedValueBox((listeners: 0, dropped: 0))
    /// Mounts whose broadcast was cut off at the maximum episode length: until when a source is
    /// refused there, and the limit that was reached.
    private let cutOffs = NIOLockedValueBox([String: (until: NIODeadline, reason: CutOffReason)]())
    /// The hosted guests' signalling relay (the studio's invitations live as long as their mount).
    let guests = RadioGuestRelay()
    /// Where slow work after a broadcast (closing the recording, the store) runs.
    let finishQueue = DispatchQueue(label: "quintet.radio.finish")

    init(directory: any RadioDirectory, configuration: Configuration = Configuration(), logger: Logger) {
        self.directory = directory
        self.configuration = configuration
        self.logger = logger
        PrometheusMetrics.bootstrap()
        metrics = Metrics()
        // A write to an ffmpeg that exited must fail with EPIPE, not kill the server.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The file extension of a recording of `contentType` as listeners get it.
    static func fileExtension(_ contentType: String) -> String {
        AudioFraming(contentType: contentType) == .adts ? "aac" : "mp3"
    }

    // MARK: registry

    /// The live mount at `path`, if any.
    func mount(at path: String) -> LiveMount? { mounts.withLockedValue { $0[path] } }

    /// Every live mount, by path.
    var liveMounts: [LiveMount] { mounts.withLockedValue { $0.values.sorted { $0.path < $1.path } } }

    func removeMount(_ mount: LiveMount) {
        let count = mounts.withLockedValue { mounts -> Int in
            if mounts[mount.path] === mount { mounts[mount.path] = nil }
            return mounts.count
        }
        let guests = self.guests, path = mount.path
        Task { await guests.forget(mount: path) }
        metrics.mounts.record(count)
    }

    /// Listeners connected now over every mount, and listeners dropped for being too slow.
    var listenerTotals: (listeners: Int, dropped: Int) { counters.withLockedValue { $0 } }

    func listenerAdded() {
        metrics.listeners.record(counters.withLockedValue { $0.listeners += 1; return $0.listeners })
    }

    func listenerRemoved(dropped: Bool = false) {
        let now = counters.withLockedValue {
            $0.listeners -= 1
            if dropped { $0.dropped += 1 }
            return $0.listeners
        }
        metrics.listeners.record(now)
        if dropped { metrics.drops.increment() }
    }

    /// Reports a listen of `episode` (off the event loop, in order).
    func listenCounted(_ episode: LiveEpisode) {
        finishQueue.async { [directory, logger] in
            do { try directory.countListen(episode) } catch {
                logger.warning("could not count a radio listen", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Reports a new listener peak of `episode` (off the event loop, in order).
    func peakReached(_ episode: LiveEpisode, listeners: Int) {
        finishQueue.async { [directory, logger] in
            do { try directory.recordPeak(episode, listeners: listeners) } catch {
                logger.warning("could not record a radio listener peak", metadata: ["error": "\(error)"])
            }
        }
    }

    func episodeEnded(_ episode: LiveEpisode, bytes: Int64, listens: Int, peakListeners: Int) {
        do {
            try directory.endEpisode(episode, at: Date(), bytes: bytes, listens: listens, peakListeners: peakListeners)
        } catch {
            logger.error("could not end the radio episode", metadata: ["episode": "\(episode.id)", "error": "\(error)"])
        }
    }

    /// Records that the broadcast on `path` was cut off (see `cutOffCooldown`).
    func broadcastCutOff(mount path: String, reason: CutOffReason) {
        let until = NIODeadline.now() + configuration.cutOffCooldown
        cutOffs.withLockedValue { $0[path] = (until, reason) }
    }

    /// Why and for how many more seconds `path` is in its cut-off cooldown, if it is.
    func cutOffRefusal(mount path: String) -> (reason: CutOffReason, retryAfter: Int)? {
        cutOffs.withLockedValue { cutOffs in
            let now = NIODeadline.now()
            cutOffs = cutOffs.filter { $0.value.until > now }
            guard let entry = cutOffs[path] else { return nil }
            let left = (entry.until - now).nanoseconds
            return (entry.reason, Int((left + 999_999_999) / 1_000_000_000))
        }
    }

    /// Why a broadcast was cut off before its source left.
    enum CutOffReason: Sendable, Equatable {
        /// The show's (or the plan's) longest episode, in seconds.
        case length(seconds: Int)
        /// The owner's plan storage: the recording reached what was left of it.
        case storage(PlanLimitError)

        var message: String {
            switch self {
            case .length(let seconds):
                "the broadcast reached the show's maximum episode length (\(seconds) s)"
            case .storage(let error):
                "the recording filled the plan's storage: \(error.description)"
            }
        }
    }

    // MARK: connections

    /// Takes a connection whose first request is an Icecast one. Runs on the channel's loop.
    func accept(head: IcecastRequestHead, rest: ByteBuffer, channel: any Channel) {
        guard let path = head.decodedPath else {
            IcecastReply.send(.badRequest, on: channel)
            return
        }
        switch head.method {
        case "OPTIONS":
            IcecastReply.send(Self.asksForUpgrade(head) ? .upgradeRefused : .options, on: channel)
        case "GET" where head.path == IcecastRouting.pokePath:
            IcecastReply.send(.unrecognisedCommand, on: channel)
        case "GET":
            acceptListener(head: head, path: path, channel: channel)
        case "PUT", "SOURCE":
            acceptSource(head: head, path: path, rest: rest, channel: channel)
        default:  // HEAD: icecast answers 400
            IcecastReply.send(.badRequest, on: channel)
        }
    }

    /// Whether the request asks to switch protocols (`Connection: Upgrade` with an `Upgrade`
    /// header), which the Icecast path never does: the server's TLS is on the port itself.
    static func asksForUpgrade(_ head: IcecastRequestHead) -> Bool {
        guard let upgrade = head["upgrade"], !upgrade.isEmpty, let connection = head["connection"] else { return false }
        return connection.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "upgrade" }
    }

    private func acceptListener(head: IcecastRequestHead, path: String, channel: any Channel) {
        guard let mount = mount(at: path) else {
            IcecastReply.send(.notFound, on: channel)
            return
        }
        guard listenerTotals.listeners < configuration.listenerLimit else {
            IcecastReply.send(.limitReached, on: channel)
            return
        }
        // The outbound queue may hold a burst plus a few batches; beyond that the listener is
        // "not writable" and the mount skips it until it drains (or drops it). The kernel's
        // send buffer is capped too (no autotuning to megabytes per listener), so a listener
        // that stops reading shows up as lag within seconds and kernel memory stays bounded.
        _ = try? channel.pipeline.syncOperations.addHandler(IcecastListenerHandler())
        _ = try? channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 160 * 1024))
        _ = try? channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 128 * 1024)
        // A listener sends nothing after its request: small reads are enough.
        _ = try? channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 256))
        let wantsMetadata = head["icy-metadata"]?.trimmingCharacters(in: .whitespaces) == "1"
        let encrypted = (try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)) != nil
        let relay = IcecastRelay.isRelay(userAgent: head["user-agent"], query: head.query, relayHeader: head[IcecastRelay.header])
        mount.eventLoop.execute {
            mount.addListener(channel: channel, wantsMetadata: wantsMetadata, encrypted: encrypted, relay: relay)
        }
    }

    enum SourceKind: Equatable { case relay(String), transcode }

    private func acceptSource(head: IcecastRequestHead, path: String, rest: ByteBuffer, channel: any Channel) {
        guard IcecastRouting.isMountPath(path) else {
            IcecastReply.send(.notFound, on: channel)
            return
        }
        let show: LiveShow?
        do { show = try directory.show(mount: path) } catch {
            logger.error("radio directory failed", metadata: ["error": "\(error)"])
            show = nil
        }
        guard let credentials = head.basicCredentials, credentials.user == "source", let show,
              Self.constantTimeEqual(credentials.password, show.streamKey) else {
            IcecastReply.send(.unauthorized, on: channel)
            return
        }
        if let refusal = cutOffRefusal(mount: path) {
            logger.notice("radio source refused: its last broadcast was cut off",
                          metadata: ["mount": "\(path)", "reason": "\(refusal.reason.message)", "retry_after": "\(refusal.retryAfter)"])
            IcecastReply.send(.cutOff(refusal.reason, retryAfter: refusal.retryAfter), on: channel)
            return
        }
        if let storage = show.storage, storage.bytes <= 0 {
            logger.notice("radio source refused: the owner's plan storage is full", metadata: ["mount": "\(path)"])
            IcecastReply.send(.planLimit(storage.error), on: channel)
            return
        }
        let rawType = head["content-type"] ?? (head.method == "SOURCE" ? "audio/mpeg" : nil)
        guard let rawType, !rawType.isEmpty else {
            IcecastReply.send(.noContentType, on: channel)
            return
        }
        let base = rawType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let kind = Self.sourceKind(of: base) else {
            IcecastReply.send(.unsupportedContentType, on: channel)
            return
        }
        var info = LiveStreamInfo(contentType: "audio/mpeg")
        if case .relay(let type) = kind { info.contentType = type }
        info.name = head["ice-name"]
        info.description = head["ice-description"]
        info.genre = head["ice-genre"]
        info.url = head["ice-url"]
        info.isPublic = head["ice-public"]
        info.bitrate = head["ice-bitrate"] ?? (kind == .transcode ? "128" : nil)

        let streamInfo = info
        // Claim the mount: a new broadcast, the same one resumed within its grace period, or
        // 403 when another source is on it. Resuming asks the mount's loop first; bytes that
        // arrive meanwhile are held and replayed after `rest`.
        let existing = mount(at: path)
        var hold: NIOLoopBound<IcecastInboundHold>?
        if existing != nil {
            let handler = IcecastInboundHold(first: rest)
            _ = try? channel.pipeline.syncOperations.addHandler(handler)
            hold = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        }
        let held = hold
        let go: @Sendable (LiveMount) -> Void = { mount in
            let expects = head["expect"]?.lowercased() == "100-continue"
            let answer = (expects ? IcecastReply.continueHead : "") + IcecastReply.sourceOK
            channel.writeAndFlush(ByteBuffer(string: answer), promise: nil)
            let feeder: LiveSourceFeeder
            switch kind {
            case .relay: feeder = .direct(mount)
            case .transcode:
                do {
                    feeder = .transcoder(try LiveTranscoder(ffmpeg: self.configuration.ffmpeg, mount: mount, source: channel))
                } catch {
                    self.logger.error("could not start ffmpeg for a radio source", metadata: ["error": "\(error)"])
                    mount.eventLoop.execute { mount.sourceGone(channel) }
                    channel.close(promise: nil)
                    return
                }
            }
            let handler = IcecastSourceHandler(mount: mount, feeder: feeder, timeout: self.configuration.sourceTimeout)
            do {
                try channel.pipeline.syncOperations.addHandler(handler)
                if let hold = held?.value {
                    channel.pipeline.syncOperations.removeHandler(hold, promise: nil)   // replays rest + held
                } else if rest.readableBytes > 0 {
                    channel.pipeline.fireChannelRead(rest)
                }
            } catch {
                channel.close(promise: nil)
                return
            }
        }
        if let existing {
            existing.eventLoop.submit { existing.reattach(source: channel, info: streamInfo) }
                .hop(to: channel.eventLoop)
                .whenSuccess { attached in
                    if attached {
                        self.logger.info("radio source back on its mount", metadata: ["mount": "\(path)"])
                        go(existing)
                    } else {
                        IcecastReply.send(.mountInUse, on: channel)
                    }
                }
            return
        }
        guard let mount = newMount(path: path, show: show, info: info, source: channel) else {
            IcecastReply.send(.mountInUse, on: channel)
            return
        }
        logger.info("radio source connected", metadata: ["mount": "\(path)", "type": "\(rawType)"])
        go(mount)
    }

    /// A new broadcast on `path` from `source`: starts its episode and recording and registers
    /// the mount, started with `source` (call on `source`'s event loop: the mount lives there).
    /// Nil when another source claimed the path meanwhile (the episode is then ended at once).
    func newMount(path: String, show: LiveShow, info: LiveStreamInfo, source channel: any Channel) -> LiveMount? {
        var episode: LiveEpisode?
        var recorder: LiveRecorder?
        do {
            let started = try directory.startEpisode(show: show, contentType: info.contentType, at: Date())
            episode = started
            recorder = try LiveRecorder(file: started.file, framing: AudioFraming(contentType: info.contentType))
        } catch {
            logger.error("could not start recording the radio episode", metadata: ["mount": "\(path)", "error": "\(error)"])
        }
        let mount = LiveMount(path: path, show: show, info: info, eventLoop: channel.eventLoop, radio: self,
                              episode: episode, recorder: recorder)
        let claimed = mounts.withLockedValue { mounts -> Bool in
            if mounts[path] != nil { return false }
            mounts[path] = mount
            return true
        }
        metrics.mounts.record(mounts.withLockedValue { $0.count })
        guard claimed else {
            recorder?.close()
            if let episode { episodeEnded(episode, bytes: 0, listens: 0, peakListeners: 0) }
            return nil
        }
        mount.start(source: channel)
        return mount
    }

    /// How a source's stream of type `base` (lowercased, without parameters) reaches listeners:
    /// relayed as it is (MP3, AAC) or transcoded to MP3 by ffmpeg (Ogg, WebM, Opus); nil when
    /// the type is not audio the radio takes.
    static func sourceKind(of base: String) -> SourceKind? {
        switch AudioFraming(contentType: base) {
        case .mpegAudio: return .relay("audio/mpeg")
        case .adts: return .relay("audio/aac")
        case .none:
            return ["audio/ogg", "application/ogg", "audio/webm", "video/webm", "audio/opus"].contains(base) ? .transcode : nil
        }
    }

    /// Compares two secrets in time independent of where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    // MARK: status and metadata

    /// The `/status-json.xsl` document; `host` is the `Host` the client used.
    func statusJSON(host: String) async -> String {
        let base = "http://\(host)"
        var statuses: [IcecastMountStatus] = []
        for mount in liveMounts {
            if let status = try? await mount.eventLoop.submit({ mount.status(listenURLBase: base) }).get() {
                statuses.append(status)
            }
        }
        let hostName = host.split(separator: ":").first.map(String.init) ?? host
        return IcecastStatus(admin: "icemaster@localhost", host: hostName, location: "Quintet",
                             serverStart: serverStart, mounts: statuses).json()
    }

    /// Sets the title of the live mount at `path`; false when no such mount is live.
    func setTitle(_ title: IcyTitle, mount path: String) async -> Bool {
        guard let mount = mount(at: path) else { return false }
        return (try? await mount.eventLoop.submit { () -> Bool in
            guard !mount.ended else { return false }
            mount.setTitle(title)
            return true
        }.get()) ?? false
    }
}
