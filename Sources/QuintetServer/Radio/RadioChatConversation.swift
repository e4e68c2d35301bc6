import Foundation
import QuintetStore
import Radio

/// The messages of the live chat socket (docs/radio.md, "Live chat"). JSON text, keys as
/// written here, dates in ISO 8601 UTC.
enum RadioChatWire {
    /// A chat message, as broadcast and in the history.
    struct Message: Encodable, Sendable {
        var type = "message"
        let id: Int64
        let user: Int64?
        let name: String
        let text: String
        let at: Date

        init(_ message: RadioChatMessage) {
            id = message.id ?? 0
            user = message.userID
            name = message.name
            text = message.text
            at = message.sentAt
        }

        enum CodingKeys: String, CodingKey { case type, id, user, name, text, at }

        /// `user` is `null` rather than missing (its author was deleted): one shape for clients.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(user, forKey: .user)
            try container.encode(name, forKey: .name)
            try container.encode(text, forKey: .text)
            try container.encode(at, forKey: .at)
        }
    }

    /// Who is connected, sent first.
    struct Viewer: Encodable, Sendable { let id: Int64; let name: String }
    struct RateLimit: Encodable, Sendable { let messages: Int; let seconds: Double }
    struct Hello: Encodable, Sendable {
        var type = "hello"
        let show: Int64
        let episode: Int64
        let user: Viewer?
        let canSay: Bool
        let canModerate: Bool
        let maxLength: Int
        let rateLimit: RateLimit
    }

    /// The last messages of the episode, oldest first, sent after `hello`.
    struct History: Encodable, Sendable {
        var type = "history"
        let episode: Int64
        let messages: [Message]
    }

    struct Deleted: Encodable, Sendable { var type = "deleted"; let id: Int64 }
    struct Muted: Encodable, Sendable { var type = "muted"; let user: Int64; let until: Date }

    /// A refusal: `{"type":"error","code","message"}`, with `retryAfter` (seconds) for
    /// `rate_limited` and `until` for `muted`.
    struct Failure: Encodable, Error, Sendable {
        var type = "error"
        let code: String
        let message: String
        var retryAfter: Int? = nil
        var until: Date? = nil
    }

    /// What a client sends: `say` (text), `delete` (id), `mute` (user, minutes).
    struct Incoming: Decodable, Sendable {
        let type: String
        let text: String?
        let id: Int64?
        let user: Int64?
        let minutes: Int?
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}

/// One chat socket's side of the conversation: what a client's message does. Broadcasts go
/// through the hub (to every socket of the show, this one included); the answer returned is
/// for the sender alone (a refusal or an acknowledgement).
///
/// - `say`: signed-in users only (`unauthorized`); the text is cleaned and 1–500 characters
///   (`invalid_text`); refused while muted (`muted`, with `until`), when the show is no longer
///   live (`not_live`) or over the rate limit (`rate_limited`, with `retryAfter`).
/// - `delete`, `mute`: the show's owner and admins only (`forbidden`). The owner and admins
///   cannot be muted; `minutes` 0 lifts a mute.
struct RadioChatConversation: Sendable {
    /// The longest mute, in minutes (one week).
    static let maxMuteMinutes = 7 * 24 * 60

    let showID: Int64
    let ownerID: Int64
    let user: User?
    let store: RadioStore
    let hub: RadioChatHub
    /// The episode live on the show's mount now, or nil when the show is off the air.
    let liveEpisode: @Sendable () async -> Int64?

    /// Whether the connected user may delete messages and mute users.
    var canModerate: Bool {
        guard let user else { return false }
        return user.role == .admin || (user.id != nil && user.id == ownerID)
    }

    /// Handles one text message of the client; returns the answer for the sender, if any.
    func handle(_ text: String) async -> String? {
        do {
            let incoming: RadioChatWire.Incoming
            do {
                incoming = try JSONDecoder().decode(RadioChatWire.Incoming.self, from: Data(text.utf8))
            } catch {
                throw RadioChatWire.Failure(code: "invalid_message", message: "send JSON: {\"type\":\"say\",\"text\":\"…\"}")
            }
            switch incoming.type {
            case "say": try await say(incoming.text)
            case "delete": try await delete(incoming.id)
            case "mute": return try await mute(incoming.user, minutes: incoming.minutes)
            default:
                throw RadioChatWire.Failure(code: "invalid_message", message: "type is say, delete or mute, not '\(incoming.type.prefix(40))'")
            }
            return nil
        } catch let failure as RadioChatWire.Failure {
            return RadioChatWire.encode(failure)
        } catch {
            return RadioChatWire.encode(RadioChatWire.Failure(code: "server_error", message: "the chat could not be saved; try again"))
        }
    }

    private func say(_ raw: String?) async throws {
        guard let user, let userID = user.id else {
            throw RadioChatWire.Failure(code: "unauthorized", message: "sign in to chat (listeners who are not signed in only read)")
        }
        guard let raw, let text = RadioChatText.clean(raw) else {
            throw RadioChatWire.Failure(code: "invalid_text", message: "a message has 1 to \(RadioChatText.maxScalars) characters")
        }
        let (store, showID) = (store, showID)
        if let until = try await Blocking.run({ try store.chatMutedUntil(showID: showID, userID: userID) }) {
            throw RadioChatWire.Failure(code: "muted", message: "the host muted you in this chat for now", until: until)
        }
        guard let episode = await liveEpisode() else {
            throw RadioChatWire.Failure(code: "not_live", message: "the show is not on the air now; its chat is read only")
        }
        if case .limited(let retryAfter) = await hub.admit(user: userID) {
            let seconds = Int(retryAfter.rounded(.up))
            throw RadioChatWire.Failure(
                code: "rate_limited",
                message: "at most \(hub.messagesPerWindow) messages every \(Int(hub.windowSeconds)) s; wait \(seconds) s",
                retryAfter: max(seconds, 1))
        }
        let name = user.name
        let message = try await Blocking.run {
            try store.postChatMessage(showID: showID, episodeID: episode, userID: userID, name: name, text: text)
        }
        await hub.broadcast(show: showID, text: RadioChatWire.encode(RadioChatWire.Message(message)))
    }

    private func delete(_ id: Int64?) async throws {
        guard canModerate else {
            throw RadioChatWire.Failure(code: "forbidden", message: "only the show's host and admins may delete messages")
        }
        guard let id else { throw RadioChatWire.Failure(code: "invalid_message", message: "name the message: {\"type\":\"delete\",\"id\":…}") }
        let (store, showID) = (store, showID)
        guard try await Blocking.run({ try store.deleteChatMessage(id: id, showID: showID) }) != nil else {
            throw RadioChatWire.Failure(code: "not_found", message: "this show's chat has no message \(id)")
        }
        await hub.broadcast(show: showID, text: RadioChatWire.encode(RadioChatWire.Deleted(id: id)))
    }

    private func mute(_ target: Int64?, minutes: Int?) async throws -> String {
        guard canModerate else {
            throw RadioChatWire.Failure(code: "forbidden", message: "only the show's host and admins may mute")
        }
        guard let target, let minutes, (0...Self.maxMuteMinutes).contains(minutes) else {
            throw RadioChatWire.Failure(code: "invalid_message",
                                        message: "send {\"type\":\"mute\",\"user\":<id>,\"minutes\":0…\(Self.maxMuteMinutes)} (0 lifts a mute)")
        }
        let (store, showID, ownerID) = (store, showID, ownerID)
        let until = Date().addingTimeInterval(Double(minutes) * 60)
        try await Blocking.run {
            guard let found = try UserStore(database: store.database).find(id: target) else {
                throw RadioChatWire.Failure(code: "not_found", message: "no user \(target)")
            }
            guard found.id != ownerID, found.role != .admin else {
                throw RadioChatWire.Failure(code: "forbidden", message: "the show's host and admins cannot be muted")
            }
            try store.muteChatUser(showID: showID, userID: target, until: until)
        }
        return RadioChatWire.encode(RadioChatWire.Muted(user: target, until: until))
    }
}
