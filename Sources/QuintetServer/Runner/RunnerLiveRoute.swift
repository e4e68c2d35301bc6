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
    static func add(to router: Router<QuintetWebSocketContext>, library: LibraryService, auth: Authenticator) {
        router.ws(RouterPath(path), onUpgrade: { inbound, outbound, context in
            // A refused upgrade could only be a bare 400, which neither a browser nor a client
            // can read: the socket opens, says why and closes (policy violation).
            guard let user = (try? await auth.user(of: context.request)) ?? nil else {
                try await outbound.write(.text(RunnerLive.encode(RunnerLive.Out(
                    type: "error", code: "unauthorized",
                    message: "sign in: HTTP Basic auth with a Quintet user, or the session cookie of POST /api/session"))))
                try await outbound.close(.policyViolation, reason: "unauthorized")
                return
            }
            let tempos: [(id: Int64, bpm: Double)], librarySongs: Int
            do {
                let catalog = library.catalog
                (tempos, librarySongs) = try await Blocking.run { () throws -> ([(id: Int64, bpm: Double)], Int) in
                    (try catalog.songTempos(), try catalog.counts().songs)
                }
            } catch {
                context.logger.error("runner live: reading the catalog failed: \(error)")
                try await outbound.close(.unexpectedServerError, reason: "the library could not be read")
                return
            }
            let catalog = library.catalog
            // The conversation looks songs up in the catalog (synchronous GRDB), so each message is
            // handled on the blocking pool; the box hands the state there and back.
            let userID = user.id
            let live = LiveBox(RunnerLive(tempos: tempos, librarySongs: librarySongs, lookup: { try? catalog.song(id: $0) },
                                          never: { (try? userID.map { try catalog.neverWhileRunning(userID: $0) }) ?? [] }))
            try await outbound.write(.text(live.state.greeting()))
            for try await message in inbound.messages(maxSize: RunnerLive.maxMessageBytes) {
                guard case .text(let text) = message else {
                    try await outbound.write(.text(RunnerLive.encode(RunnerLive.Out(
                        type: "error", code: "invalid_message", message: "messages are JSON text, not binary"))))
                    continue
                }
                let answers = try await Blocking.run { live.state.handle(text) }
                for answer in answers { try await outbound.write(.text(answer)) }
                if live.state.isStopped {
                    try await outbound.close(.normalClosure, reason: "stopped")
                    return
                }
            }
        })
    }

    /// The plain HTTP side: what a request that was not upgraded gets.
    static func addPlainAnswer(to router: Router<QuintetRequestContext>, auth: Authenticator) {
        router.group(RouterPath(path)).addSignIn(auth, required: true).get { _, _ -> Response in
            throw APIError.webSocketRequired(docs: "docs/runner.md")
        }
    }
}

/// One socket's ``RunnerLive`` state, handed between the socket's task and the blocking pool.
/// `@unchecked Sendable`: only that one task touches it, one message at a time (it awaits each
/// `Blocking.run` before the next access), so no two threads ever use it at once.
private final class LiveBox: @unchecked Sendable {
    var state: RunnerLive
    init(_ state: RunnerLive) { self.state = state }
}
