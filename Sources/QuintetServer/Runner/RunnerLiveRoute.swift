import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import LibraryCore

/// `GET /api/runner/live`: a WebSocket (`RunnerLive` speaks the messages; docs/runner.md).
///
/// The conversation needs a user (HTTP Basic auth or the page's session cookie), like
/// `GET /api/runner/next`: without one, the socket sends an `unauthorized` error and closes
/// with code 1008. A request that is not a WebSocket handshake reaches the ordinary router,
/// which answers 401 (no user) or 426 in JSON.
enum RunnerLiveRoute {
    static let path = "api/runner/live"

    /// The WebSocket side (the upgrade router the server is built with).
    static func add(to router: Router<BasicWebSocketRequestContext>, library: LibraryService, auth: Authenticator) {
        router.ws(RouterPath(path), onUpgrade: { inbound, outbound, context in
            // A refused upgrade could only be a bare 400, which neither a browser nor a client
            // can read: the socket opens, says why and closes (policy violation).
            guard (try? await auth.user(of: context.request)) ?? nil != nil else {
                try await outbound.write(.text(RunnerLive.encode(RunnerLive.Out(
                    type: "error", code: "unauthorized",
                    message: "sign in: HTTP Basic auth with a Quintet user, or the session cookie of POST /api/session"))))
                try await outbound.close(.policyViolation, reason: "unauthorized")
                return
            }
            let tempos: [(id: Int64, bpm: Double)], librarySongs: Int
            do {
                tempos = try library.catalog.songTempos()
                librarySongs = try library.catalog.counts().songs
            } catch {
                context.logger.error("runner live: reading the catalog failed: \(error)")
                try await outbound.close(.unexpectedServerError, reason: "the library could not be read")
                return
            }
            let catalog = library.catalog
            var live = RunnerLive(tempos: tempos, librarySongs: librarySongs, lookup: { try? catalog.song(id: $0) })
            try await outbound.write(.text(live.greeting()))
            for try await message in inbound.messages(maxSize: RunnerLive.maxMessageBytes) {
                guard case .text(let text) = message else {
                    try await outbound.write(.text(RunnerLive.encode(RunnerLive.Out(
                        type: "error", code: "invalid_message", message: "messages are JSON text, not binary"))))
                    continue
                }
                for answer in live.handle(text) { try await outbound.write(.text(answer)) }
                if live.isStopped {
                    try await outbound.close(.normalClosure, reason: "stopped")
                    return
                }
            }
        })
    }

    /// The plain HTTP side: what a request that was not upgraded gets.
    static func addPlainAnswer(to router: Router<BasicRequestContext>, auth: Authenticator) {
        router.get(RouterPath(path)) { request, _ -> Response in
            _ = try await auth.require(request)
            throw APIError(HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required"), code: "websocket_required",
                           message: "this is a WebSocket: connect with ws:// (Upgrade: websocket); see docs/runner.md")
        }
    }
}
