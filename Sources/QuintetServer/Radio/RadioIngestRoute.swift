import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore

/// `GET /api/radio/ingest?mount=/live/x.mp3[&type=audio/webm][&key=…]`: a WebSocket source for
/// a live mount — what the studio page (`/radio/studio`) streams its `MediaRecorder` output to.
///
/// It feeds the same mount pipeline an Icecast source feeds (``LiveRadio/newMount(path:show:info:source:)``,
/// the transcoder, the recording, the grace period): a socket that comes back within the grace
/// period continues the same broadcast and episode.
///
/// - **Who**: the show's owner or an admin, signed in (the session cookie a browser sends with
///   the handshake, or HTTP Basic), or anyone with the show's stream key (`key=`).
/// - **Type**: `type=` is the stream's MIME type (default `audio/webm`): WebM or Ogg (Opus,
///   Vorbis) is transcoded to MP3 by ffmpeg, MP3 and AAC are relayed.
/// - **Messages**: the server first sends `{"type":"ready","mount","episode","resumed","maxSeconds","graceSeconds"}`;
///   then the client sends the stream as binary messages (any split); every two seconds the
///   server sends `{"type":"stats","bytes","kbps","seconds"}` (bytes received in all, the rate of
///   the last two seconds, seconds since the socket opened). Text from the client is ignored.
/// - **Refusals** are a message `{"type":"error","code","message"}` and a close with code 1008
///   (a refused upgrade could only be a bare 400 no browser can read): `unauthorized`,
///   `forbidden`, `unknown_mount`, `unsupported_type`, `mount_in_use`, `cut_off` (the show's
///   maximum episode length was reached a moment ago: `retryAfter` seconds).
/// - A socket silent for the radio's source timeout (10 s) is closed, as an Icecast source is.
/// - Text messages carry a hosted guest's invitation and signalling (``RadioGuestRelay``).
enum RadioIngestRoute {
    static let path = "api/radio/ingest"

    struct Ready: Encodable {
        var type = "ready"
        let mount: String
        let episode: Int64?
        let resumed: Bool
        let maxSeconds: Int?
        let graceSeconds: Int
    }

    struct Stats: Encodable {
        var type = "stats"
        let bytes: Int64
        let kbps: Double
        let seconds: Double
    }

    struct Refusal: Encodable, Error {
        var type = "error"
        let code: String
        let message: String
        var retryAfter: Int? = nil
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    /// The WebSocket side.
    static func add(to router: Router<QuintetWebSocketContext>, radio: LiveRadio, auth: Authenticator) {
        router.ws(RouterPath(path), onUpgrade: { inbound, outbound, context in
            let channel = context.requestContext.channel
            let claim: Claim
            do {
                claim = try await self.claim(request: context.request, channel: channel, radio: radio, auth: auth)
            } catch let refusal as Refusal {
                try await outbound.write(.text(encode(refusal)))
                try await outbound.close(.policyViolation, reason: refusal.code)
                return
            }
            try await outbound.write(.text(encode(Ready(
                mount: claim.mount.path, episode: claim.mount.episodeID, resumed: claim.resumed,
                maxSeconds: claim.mount.show.maxEpisodeSeconds.flatMap { $0 > 0 ? $0 : nil },
                graceSeconds: Int(radio.configuration.gracePeriod.nanoseconds / 1_000_000_000)))))
            context.logger.info("radio studio source connected",
                                metadata: ["mount": "\(claim.mount.path)", "resumed": "\(claim.resumed)"])
            let counter = NIOLockedValueBox((total: Int64(0), window: Int64(0), last: ContinuousClock.now))
            let opened = ContinuousClock.now
            let timeout = Duration.nanoseconds(radio.configuration.sourceTimeout.nanoseconds)
            // Stats every two seconds, and the source timeout (checked at the same pace).
            let ticker = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(2))
                    let (total, window, last) = counter.withLockedValue { state in
                        let copy = state
                        state.window = 0
                        return copy
                    }
                    if ContinuousClock.now - last >= timeout {
                        context.logger.notice("radio studio source timed out", metadata: ["mount": "\(claim.mount.path)"])
                        channel.close(promise: nil)
                        return
                    }
                    let seconds = (ContinuousClock.now - opened).seconds
                    try await outbound.write(.text(encode(Stats(bytes: total, kbps: Double(window) * 8 / 2000, seconds: seconds))))
                }
            }
            let hostID = UUID()
            await radio.guests.hostJoined(mount: claim.mount.path, id: hostID, writer: outbound)
            defer {
                ticker.cancel()
                claim.feeder.finish(from: channel)
                let guests = radio.guests, path = claim.mount.path
                Task { await guests.hostLeft(mount: path, id: hostID) }
            }
            for try await message in inbound.messages(maxSize: RunnerLive.maxMessageBytes) {
                if case .text(let text) = message {
                    // The guest's signalling (docs/radio.md, "A hosted guest"); other text is ignored.
                    if RadioGuestRelay.isSignal(text) {
                        await radio.guests.toGuest(mount: claim.mount.path, text)
                    } else if RadioGuestRelay.messageType(text) == "invite" {
                        let token = await radio.guests.invite(mount: claim.mount.path, show: claim.mount.show.title)
                        struct Invite: Encodable { var type = "invite"; let token: String; let url: String }
                        try await outbound.write(.text(encode(Invite(token: token, url: "/radio/guest/?token=\(token)"))))
                    }
                    continue
                }
                guard case .binary(let bytes) = message, bytes.readableBytes > 0 else { continue }
                counter.withLockedValue {
                    $0.total += Int64(bytes.readableBytes)
                    $0.window += Int64(bytes.readableBytes)
                    $0.last = .now
                }
                claim.feeder.feed(bytes, from: channel)
            }
        })
    }

    struct Claim: Sendable {
        let mount: LiveMount
        let feeder: LiveSourceFeeder
        let resumed: Bool
    }

    /// Checks who may stream where and what, then claims the mount: a new broadcast, or the
    /// one in its grace period resumed.
    static func claim(request: Request, channel: any Channel, radio: LiveRadio, auth: Authenticator) async throws -> Claim {
        let query = request.uri.queryParameters
        guard let path = query["mount"].map(String.init), IcecastRouting.isMountPath(path) else {
            throw Refusal(code: "unknown_mount", message: "name the mount: ?mount=/live/<show>.mp3")
        }
        let directory = radio.directory
        guard let show = try await Blocking.run({ try directory.show(mount: path) }) else {
            throw Refusal(code: "unknown_mount", message: "no show streams to \(path)")
        }
        if let key = query["key"].map(String.init) {
            guard LiveRadio.constantTimeEqual(key, show.streamKey) else {
                throw Refusal(code: "forbidden", message: "that is not the stream key of \(path)")
            }
        } else {
            guard let user = try await auth.user(of: request) else {
                throw Refusal(code: "unauthorized", message: "sign in (the show's owner or an admin), or give the show's stream key as key=")
            }
            guard user.role == .admin || (user.id != nil && user.id == show.ownerID) else {
                throw Refusal(code: "forbidden", message: "only the show's owner or an admin may broadcast on \(path)")
            }
        }
        if let refusal = radio.cutOffRefusal(mount: path) {
            var error = Refusal(code: "cut_off", message: "\(refusal.reason.message); try again in \(refusal.retryAfter) s")
            error.retryAfter = refusal.retryAfter
            throw error
        }
        if let storage = show.storage, storage.bytes <= 0 {
            throw Refusal(code: "plan_limit", message: storage.error.description)
        }
        let type = (query["type"].map(String.init) ?? "audio/webm")
        let base = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let kind = LiveRadio.sourceKind(of: base) else {
            throw Refusal(code: "unsupported_type", message: "\(type) is not a stream type the radio takes (WebM, Ogg, MP3, AAC)")
        }
        var info = LiveStreamInfo(contentType: "audio/mpeg")
        if case .relay(let type) = kind { info.contentType = type }
        info.name = show.title
        info.bitrate = kind == .transcode ? "128" : nil
        let streamInfo = info

        let mount: LiveMount
        let resumed: Bool
        if let existing = radio.mount(at: path) {
            let attached = try await existing.eventLoop.submit { existing.reattach(source: channel, info: streamInfo) }.get()
            guard attached else {
                throw Refusal(code: "mount_in_use", message: "another source is live on \(path)")
            }
            mount = existing
            resumed = true
        } else {
            let started = try await channel.eventLoop.submit {
                radio.newMount(path: path, show: show, info: streamInfo, source: channel)
            }.get()
            guard let started else {
                throw Refusal(code: "mount_in_use", message: "another source is live on \(path)")
            }
            mount = started
            resumed = false
        }
        switch kind {
        case .relay:
            return Claim(mount: mount, feeder: .direct(mount), resumed: resumed)
        case .transcode:
            do {
                let transcoder = try LiveTranscoder(ffmpeg: radio.configuration.ffmpeg, mount: mount, source: channel)
                return Claim(mount: mount, feeder: .transcoder(transcoder), resumed: resumed)
            } catch {
                radio.logger.error("could not start ffmpeg for a studio source", metadata: ["error": "\(error)"])
                mount.eventLoop.execute { mount.sourceGone(channel) }
                throw Refusal(code: "server_error", message: "the server could not start its transcoder")
            }
        }
    }

    /// The plain HTTP side: what a request that was not upgraded gets.
    static func addPlainAnswer(to router: Router<QuintetRequestContext>) {
        router.get(RouterPath(path)) { _, _ -> Response in
            throw APIError.webSocketRequired(docs: "docs/radio.md")
        }
    }
}

/// The context of WebSocket routes: Hummingbird's, plus the connection's channel (the radio's
/// studio ingest is a live source, and a mount knows its source by its channel).
public struct QuintetWebSocketContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
