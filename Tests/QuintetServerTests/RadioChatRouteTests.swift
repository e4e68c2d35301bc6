import Foundation
import Hummingbird
import HummingbirdTesting
@testable import QuintetServer
import QuintetStore
import Radio
import Testing

/// A show with a live episode, its host, a listener, a second listener and an admin, and a hub.
private struct ChatRoom {
    let data: URL
    let database: QuintetDatabase
    let store: RadioStore
    let host: User, ada: User, bob: User, admin: User
    let show: RadioShow
    let episode: RadioEpisode
    let hub: RadioChatHub

    init(messages: Int = 5, seconds: Double = 10) throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-radio-chat-\(UUID().uuidString)")
        database = try QuintetApplication.openDatabase(in: data)
        let users = UserStore(database: database, cost: 4)
        host = try users.create(name: "host", password: "correct horse")
        ada = try users.create(name: "ada", password: "correct horse")
        bob = try users.create(name: "bob", password: "correct horse")
        admin = try users.create(name: "root", password: "correct horse", role: .admin)
        store = RadioStore(database: database)
        show = try store.createShow(owner: host.id!, .init(title: "Chat Night"))
        episode = try store.startEpisode(showID: show.id!)
        hub = RadioChatHub(messages: messages, seconds: seconds)
    }

    func remove() {
        try? database.close()
        try? FileManager.default.removeItem(at: data)
    }

    /// A socket's side of the conversation for `user` (nil: not signed in); `live` is what the
    /// show's mount says is on the air.
    func conversation(_ user: User?, live: Int64?? = .none) -> RadioChatConversation {
        let episodeID = live ?? episode.id
        return RadioChatConversation(showID: show.id!, ownerID: show.ownerID, user: user, store: store, hub: hub,
                                     liveEpisode: { episodeID })
    }

    /// A socket joined to the show: its outbox, and what it received once closed.
    func socket() async -> Socket {
        let (stream, outbox) = RadioChatHub.makeOutbox()
        _ = await hub.join(show: show.id!, outbox)
        return Socket(stream: stream, outbox: outbox)
    }

    struct Socket {
        let stream: AsyncStream<String>
        let outbox: AsyncStream<String>.Continuation

        /// Everything broadcast to this socket so far, as JSON objects (the socket is closed).
        func received() async -> [[String: Any]] {
            outbox.finish()
            var out: [[String: Any]] = []
            for await text in stream { out.append(decode(text)) }
            return out
        }
    }
}

private func decode(_ text: String?) -> [String: Any] {
    guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
    return object
}

private func say(_ text: String) -> String {
    String(data: try! JSONSerialization.data(withJSONObject: ["type": "say", "text": text]), encoding: .utf8)!
}

@Suite("Radio live chat", .serialized)
struct RadioChatRouteTests {
    @Test("a signed-in user's message reaches every socket of the show verbatim; a listener not signed in only reads")
    func broadcast() async throws {
        let room = try ChatRoom()
        defer { room.remove() }
        let first = await room.socket(), second = await room.socket()
        let elsewhere = RadioChatHub.makeOutbox()
        _ = await room.hub.join(show: room.show.id! + 1, elsewhere.1)
        #expect(await room.conversation(room.ada).handle(say("  <b>markup</b> & <script>alert(1)</script>\u{7} ")) == nil)
        let refused = decode(await room.conversation(nil).handle(say("anonymous")))
        #expect(refused["type"] as? String == "error" && refused["code"] as? String == "unauthorized")
        for socket in [first, second] {
            let got = await socket.received()
            #expect(got.count == 1)
            #expect(got.first?["type"] as? String == "message")
            #expect(got.first?["text"] as? String == "<b>markup</b> & <script>alert(1)</script>")
            #expect(got.first?["name"] as? String == "ada" && got.first?["user"] as? Int == Int(room.ada.id!))
            #expect((got.first?["at"] as? String)?.hasSuffix("Z") == true)
        }
        elsewhere.1.finish()
        var other = 0
        for await _ in elsewhere.0 { other += 1 }
        #expect(other == 0, "another show's socket got this show's message")
        let stored = try room.store.chatMessages(episodeID: room.episode.id!)
        #expect(stored.map(\.text) == ["<b>markup</b> & <script>alert(1)</script>"])
    }

    @Test("a flood is rate-limited per user: refused with retryAfter, neither stored nor broadcast")
    func flood() async throws {
        let room = try ChatRoom(messages: 5, seconds: 60)
        defer { room.remove() }
        let socket = await room.socket()
        let ada = room.conversation(room.ada)
        var answers: [[String: Any]?] = []
        for i in 0..<8 { answers.append(await ada.handle(say("flood \(i)")).map { decode($0) }) }
        #expect(answers.prefix(5).allSatisfy { $0 == nil })
        for answer in answers.suffix(3) {
            #expect(answer?["code"] as? String == "rate_limited")
            let retry = try #require(answer?["retryAfter"] as? Int)
            #expect((1...60).contains(retry))
        }
        // Another user is not held back by ada's flood.
        #expect(await room.conversation(room.bob).handle(say("hello")) == nil)
        let got = await socket.received()
        #expect(got.compactMap { $0["text"] as? String } == (0..<5).map { "flood \($0)" } + ["hello"])
        #expect(try room.store.chatMessages(episodeID: room.episode.id!).count == 6)
    }

    @Test("only the host and admins delete and mute; a muted user's messages are refused; the host cannot be muted")
    func moderation() async throws {
        let room = try ChatRoom()
        defer { room.remove() }
        let socket = await room.socket()
        #expect(await room.conversation(room.ada).handle(say("spam")) == nil)
        let spam = try #require(try room.store.chatMessages(episodeID: room.episode.id!).first)
        let delete = "{\"type\":\"delete\",\"id\":\(spam.id!)}"
        let mute = "{\"type\":\"mute\",\"user\":\(room.ada.id!),\"minutes\":10}"
        #expect(room.conversation(room.bob).canModerate == false && room.conversation(nil).canModerate == false)
        #expect(decode(await room.conversation(room.bob).handle(delete))["code"] as? String == "forbidden")
        #expect(decode(await room.conversation(room.ada).handle(mute))["code"] as? String == "forbidden")
        #expect(decode(await room.conversation(nil).handle(delete))["code"] as? String == "forbidden")
        #expect(try room.store.chatMessages(episodeID: room.episode.id!).count == 1)

        let host = room.conversation(room.host)
        #expect(host.canModerate && room.conversation(room.admin).canModerate)
        #expect(await host.handle(delete) == nil)
        #expect(try room.store.chatMessages(episodeID: room.episode.id!).isEmpty)
        #expect(decode(await host.handle("{\"type\":\"delete\",\"id\":999999}"))["code"] as? String == "not_found")
        let muted = decode(await host.handle(mute))
        #expect(muted["type"] as? String == "muted" && muted["user"] as? Int == Int(room.ada.id!))
        let refused = decode(await room.conversation(room.ada).handle(say("again")))
        #expect(refused["code"] as? String == "muted" && refused["until"] is String)
        // The admin lifts the mute; the host and admins cannot be muted.
        #expect(decode(await room.conversation(room.admin).handle("{\"type\":\"mute\",\"user\":\(room.ada.id!),\"minutes\":0}"))["type"] as? String == "muted")
        #expect(await room.conversation(room.ada).handle(say("back")) == nil)
        let muteHost = "{\"type\":\"mute\",\"user\":\(room.host.id!),\"minutes\":5}"
        #expect(decode(await room.conversation(room.admin).handle(muteHost))["code"] as? String == "forbidden")
        #expect(decode(await host.handle("{\"type\":\"mute\",\"user\":\(room.ada.id!),\"minutes\":99999}"))["code"] as? String == "invalid_message")

        let got = await socket.received()
        #expect(got.map { $0["type"] as? String ?? "?" } == ["message", "deleted", "message"])
        #expect(got[1]["id"] as? Int == Int(spam.id!))
        #expect(got[2]["text"] as? String == "back")
    }

    @Test("refused: a show off the air, JSON that is not a message, text empty or over 500 characters")
    func refusals() async throws {
        let room = try ChatRoom()
        defer { room.remove() }
        let offAir = room.conversation(room.ada, live: .some(nil))
        #expect(decode(await offAir.handle(say("hello?")))["code"] as? String == "not_live")
        let ada = room.conversation(room.ada)
        #expect(decode(await ada.handle("not json"))["code"] as? String == "invalid_message")
        #expect(decode(await ada.handle("{\"type\":\"shout\"}"))["code"] as? String == "invalid_message")
        #expect(decode(await ada.handle("{\"type\":\"say\"}"))["code"] as? String == "invalid_text")
        #expect(decode(await ada.handle(say(" \n\u{7} ")))["code"] as? String == "invalid_text")
        #expect(decode(await ada.handle(say(String(repeating: "é", count: 501))))["code"] as? String == "invalid_text")
        #expect(await ada.handle(say(String(repeating: "é", count: 500))) == nil)
        #expect(try room.store.chatMessages(episodeID: room.episode.id!).count == 1)
    }

    @Test("the hub forgets a socket that left, and a show's room when its last socket leaves")
    func hubMembership() async throws {
        let hub = RadioChatHub()
        let a = RadioChatHub.makeOutbox(), b = RadioChatHub.makeOutbox()
        let first = await hub.join(show: 1, a.1)
        _ = await hub.join(show: 1, b.1)
        #expect(await hub.members(show: 1) == 2)
        await hub.leave(show: 1, member: first)
        await hub.broadcast(show: 1, text: "x")
        a.1.finish()
        b.1.finish()
        var (countA, countB) = (0, 0)
        for await _ in a.0 { countA += 1 }
        for await _ in b.0 { countB += 1 }
        #expect(countA == 0 && countB == 1)
        #expect(await hub.members(show: 1) == 1)
        #expect(await hub.admit(user: 1, at: 0) == .allowed)
    }

    @Test("GET /api/radio/episodes/{id}/chat: the kept chat without deleted messages, visible as the episode is")
    func episodeChat() async throws {
        let s = try RadioServer()
        defer { s.remove() }
        let users = UserStore(database: s.database, cost: 4)
        let guest = try #require(try users.find(name: "guest"))
        let start = s.published.startedAt
        for (i, text) in ["first <b>", "deleted", "third"].enumerated() {
            _ = try s.radio.postChatMessage(showID: s.show.id!, episodeID: s.published.id!, userID: guest.id!,
                                            name: guest.name, text: text, at: start + Double(i) + 0.5)
        }
        let deleted = try #require(try s.radio.chatMessages(episodeID: s.published.id!).first { $0.text == "deleted" })
        try s.radio.deleteChatMessage(id: deleted.id!, showID: s.show.id!)
        _ = try s.radio.postChatMessage(showID: s.show.id!, episodeID: s.recorded.id!, userID: guest.id!,
                                        name: guest.name, text: "unpublished")
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/radio/episodes/\(s.published.id!)/chat", method: .get) { response in
                #expect(response.status == .ok)
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(body["episode_id"] as? Int == Int(s.published.id!) && body["show_id"] as? Int == Int(s.show.id!))
                let messages = try #require(body["messages"] as? [[String: Any]])
                #expect(messages.map { $0["text"] as? String } == ["first <b>", "third"])
                #expect(messages.map { $0["name"] as? String } == ["guest", "guest"])
                #expect(abs((messages[1]["offset"] as? Double ?? 0) - 2.5) < 0.01)
            }
            // The recorded episode is the owner's until published; unknown ids 404.
            try await client.execute(uri: "/api/radio/episodes/\(s.recorded.id!)/chat", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/radio/episodes/\(s.recorded.id!)/chat", method: .get,
                                     headers: [.authorization: RadioServer.owner]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("unpublished"))
            }
            try await client.execute(uri: "/api/radio/episodes/424242/chat", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
