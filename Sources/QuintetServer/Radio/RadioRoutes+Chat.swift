import Foundation
import Hummingbird
import Radio

extension RadioRoutes {
    /// One message of an episode's chat as `GET /api/radio/episodes/{id}/chat` shows it;
    /// `offset` is the seconds from the episode's start, to show it beside the replay.
    struct ChatMessageView: Encodable, Sendable {
        let id: Int64, user: Int64?, name: String, text: String, at: Date, offset: Double

        enum CodingKeys: String, CodingKey { case id, user, name, text, at, offset }

        /// `user` is `null` rather than missing (its author was deleted): one shape for clients.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(user, forKey: .user)
            try container.encode(name, forKey: .name)
            try container.encode(text, forKey: .text)
            try container.encode(at, forKey: .at)
            try container.encode(offset, forKey: .offset)
        }
    }

    struct EpisodeChatView: Encodable, Sendable {
        let episodeID: Int64, showID: Int64, startedAt: Date, messages: [ChatMessageView]
    }
}

extension RadioRoutes.Handlers {
    /// `GET /api/radio/episodes/{id}/chat`: the chat of an episode the viewer may see (a
    /// published one, or the owner's or an admin's own), oldest first, deleted messages left out.
    func episodeChat(_ request: Request, _ context: QuintetRequestContext) async throws -> Response {
        let id = try context.parameters.id()
        let viewer = context.identity
        let view = try await blocking { () -> RadioRoutes.EpisodeChatView in
            let found = try visibleEpisode(id, viewer: viewer)
            let start = found.episode.startedAt
            let messages = try radio.chatMessages(episodeID: id).map { message in
                RadioRoutes.ChatMessageView(id: message.id!, user: message.userID, name: message.name, text: message.text,
                                            at: message.sentAt, offset: max(0, message.sentAt.timeIntervalSince(start)))
            }
            return RadioRoutes.EpisodeChatView(episodeID: id, showID: found.show.id!, startedAt: start, messages: messages)
        }
        return try APIJSON.response(view)
    }
}
