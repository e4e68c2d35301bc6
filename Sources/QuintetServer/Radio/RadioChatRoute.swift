import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Radio

/// `GET /api/radio/shows/{id}/chat`: a show's live chat over a WebSocket (docs/radio.md,
/// "Live chat"), open while the show is live.
///
/// - **Join**: the server sends `{"type":"hello","show","episode","user","canSay","canModerate","maxLength","rateLimit"}`
///   then `{"type":"history","episode","messages":[…]}` (the episode's last 50 messages, oldest
///   first). A show that is not on the air gets `{"type":"error","code":"not_live"}` and a close
///   with 1008 (its chat of past episodes is `GET /api/radio/episodes/{id}/chat`); an unknown
///   show gets `not_found` and 1008.
/// - **Who**: anyone reads; signed-in users (the session cookie or HTTP Basic) send
///   `{"type":"say","text"}`, and every socket of the show gets
///   `{"type":"message","id","user","name","text","at"}`. The show's owner and admins send
///   `{"type":"delete","id"}` (everyone gets `{"type":"deleted","id"}`) and
///   `{"type":"mute","user","minutes"}` (answered `{"type":"muted","user","until"}`).
/// - **Refusals** of a message are `{"type":"error","code","message"}` to the sender; the socket
///   stays open (``RadioChatConversation``).
enum RadioChatRoute {
    static let path = "api/radio/shows/{id}/chat"
    /// Largest message a client may send, in bytes (500 characters escaped as JSON fit).
    static let maxMessageBytes = 16 * 1024

    /// The WebSocket side. `store` reads shows and keeps messages; `hub` fans them out.
    static func add(to router: Router<QuintetWebSocketContext>, radio: LiveRadio, store: RadioStore,
                    hub: RadioChatHub, auth: Authenticator) {
        router.ws(RouterPath(path), onUpgrade: { inbound, outbound, context in
            func refuse(_ code: String, _ message: String) async throws {
                try await outbound.write(.text(RadioChatWire.encode(RadioChatWire.Failure(code: code, message: message))))
                try await outbound.close(.policyViolation, reason: code)
            }
            guard let id = context.requestContext.parameters.get("id", as: Int64.self), id > 0,
                  let show = try await Blocking.run({ try store.show(id: id) }), let showID = show.id else {
                try await refuse("not_found", "no such show")
                return
            }
            let mountPath = show.mount
            let live: @Sendable () async -> Int64? = { await liveEpisode(at: mountPath, radio: radio) }
            guard let episode = await live() else {
                try await refuse("not_live", "\(show.title) is not on the air now; the chats of its episodes are at /api/radio/episodes/{id}/chat")
                return
            }
            let user = (try? await auth.user(of: context.request)) ?? nil
            let conversation = RadioChatConversation(showID: showID, ownerID: show.ownerID, user: user, store: store,
                                                     hub: hub, liveEpisode: live)
            // Joined before the history is read, so no message falls between the two (one may be in
            // both: clients skip an id they already have).
            let (outgoing, outbox) = RadioChatHub.makeOutbox()
            let member = await hub.join(show: showID, outbox)
            defer {
                outbox.finish()
                Task { await hub.leave(show: showID, member: member) }
            }
            let history = try await Blocking.run { try store.chatMessages(episodeID: episode, last: RadioStore.chatHistoryCount) }
            try await outbound.write(.text(RadioChatWire.encode(RadioChatWire.Hello(
                show: showID, episode: episode, user: user.flatMap { u in u.id.map { RadioChatWire.Viewer(id: $0, name: u.name) } },
                canSay: user != nil, canModerate: conversation.canModerate, maxLength: RadioChatText.maxScalars,
                rateLimit: .init(messages: hub.messagesPerWindow, seconds: hub.windowSeconds)))))
            try await outbound.write(.text(RadioChatWire.encode(RadioChatWire.History(
                episode: episode, messages: history.map(RadioChatWire.Message.init)))))

            // One writer per socket: the hub's broadcasts and this socket's own answers.
            let writer = Task {
                for await text in outgoing { try await outbound.write(.text(text)) }
            }
            defer { writer.cancel() }
            for try await message in inbound.messages(maxSize: maxMessageBytes) {
                guard case .text(let text) = message else {
                    outbox.yield(RadioChatWire.encode(RadioChatWire.Failure(code: "invalid_message", message: "messages are JSON text, not binary")))
                    continue
                }
                if let answer = await conversation.handle(text) { outbox.yield(answer) }
            }
        })
    }

    /// The episode live on `mount` now (its source connected or in its grace period), or nil.
    static func liveEpisode(at mount: String, radio: LiveRadio) async -> Int64? {
        guard let live = radio.mount(at: mount) else { return nil }
        let episode = try? await live.eventLoop.submit { live.ended ? nil : live.episodeID }.get()
        return episode ?? nil
    }

    /// The plain HTTP side: what a request that was not upgraded gets.
    static func addPlainAnswer(to router: Router<QuintetRequestContext>) {
        router.get(RouterPath(path)) { _, _ -> Response in
            throw APIError.webSocketRequired(docs: "docs/radio.md")
        }
    }
}
