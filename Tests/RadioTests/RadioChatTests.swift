import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// The live chat's rules and storage: text cleaning, the rate limit, messages kept with their
/// episode, deletions and mutes, on a real SQLite database.
@Suite("Radio chat")
struct RadioChatTests {
    // MARK: text

    @Test("text: control characters removed, line breaks become spaces, ends trimmed, markup kept verbatim")
    func cleanText() {
        #expect(RadioChatText.clean("  hi\u{7}\n there \u{0}") == "hi  there")
        #expect(RadioChatText.clean("<b>bold</b> & <script>x</script>") == "<b>bold</b> & <script>x</script>")
        #expect(RadioChatText.clean("a\u{202E}b\u{2066}c\u{7F}d\u{9B}e") == "abcde")
        #expect(RadioChatText.clean("ciao 👋🏽 già") == "ciao 👋🏽 già")
        #expect(RadioChatText.clean("") == nil)
        #expect(RadioChatText.clean(" \n\t\u{1B} ") == nil)
    }

    @Test("text: at most 500 Unicode scalars, counted as scalars")
    func textLength() {
        #expect(RadioChatText.clean(String(repeating: "a", count: 500))?.count == 500)
        #expect(RadioChatText.clean(String(repeating: "a", count: 501)) == nil)
        // 250 flags are 250 characters but 500 scalars: allowed; one more scalar is not.
        let flags = String(repeating: "🇮🇹", count: 250)
        #expect(RadioChatText.clean(flags) == flags)
        #expect(RadioChatText.clean(flags + "x") == nil)
        // Control characters removed before counting: 500 letters with 10 bells fit.
        #expect(RadioChatText.clean(String(repeating: "a", count: 500) + String(repeating: "\u{7}", count: 10)) != nil)
    }

    // MARK: rate limit

    @Test("rate limit: 5 per 10 s per user; the sixth is refused with the time until the oldest leaves")
    func rateLimit() {
        var limiter = RadioChatRateLimiter<Int64>(limit: 5, window: 10)
        for i in 0..<5 { #expect(limiter.admit(1, at: Double(i)) == .allowed) }
        #expect(limiter.admit(1, at: 4.5) == .limited(retryAfter: 5.5))
        // Another user is not affected.
        #expect(limiter.admit(2, at: 4.5) == .allowed)
        // A refused message is not counted: at 10.0 the first (at 0) has left the window.
        guard case .limited(let wait) = limiter.admit(1, at: 9.9) else {
            Issue.record("a sixth message within 10 s was allowed")
            return
        }
        #expect(abs(wait - 0.1) < 1e-9)
        #expect(limiter.admit(1, at: 10.0) == .allowed)
        #expect(limiter.admit(1, at: 10.5) == .limited(retryAfter: 0.5))
        #expect(limiter.admit(1, at: 11.0) == .allowed)
    }

    @Test("rate limit: a steady flood gets exactly limit × windows through")
    func flood() {
        var limiter = RadioChatRateLimiter<Int64>(limit: 5, window: 10)
        var allowed = 0
        // 10 messages a second for 30 s.
        for tick in 0..<300 where limiter.admit(7, at: Double(tick) / 10) == .allowed { allowed += 1 }
        #expect(allowed == 15)
    }
}

/// The chat's storage.
@Suite("Radio chat store")
struct RadioChatStoreTests {
    struct Folder {
        let directory: URL
        let database: QuintetDatabase
        let radio: RadioStore
        let host: User
        let listener: User
        let show: RadioShow
        let episode: RadioEpisode

        init() throws {
            directory = try Fixtures.temporaryDirectory()
            var registry = MigrationRegistry()
            QuintetStore.registerMigrations(in: &registry)
            RadioSchema.registerMigrations(in: &registry)
            database = try QuintetDatabase.open(in: directory, migrations: registry)
            let users = UserStore(database: database, cost: 4)
            host = try users.create(name: "host", password: "password123")
            listener = try users.create(name: "ada", password: "password123")
            radio = RadioStore(database: database)
            show = try radio.createShow(owner: host.id!, .init(title: "Chat Show"))
            episode = try radio.startEpisode(showID: show.id!)
        }

        func remove() {
            try? database.close()
            try? FileManager.default.removeItem(at: directory)
        }

        func say(_ text: String, by user: User? = nil, episode: RadioEpisode? = nil) throws -> RadioChatMessage {
            let user = user ?? listener
            return try radio.postChatMessage(showID: show.id!, episodeID: (episode ?? self.episode).id!,
                                             userID: user.id!, name: user.name, text: text)
        }
    }

    @Test("messages are stored clean with the author's name and episode; history is the last N, oldest first")
    func history() throws {
        let f = try Folder()
        defer { f.remove() }
        let first = try f.say("  <i>hello</i>\u{1}  ")
        #expect(first.text == "<i>hello</i>" && first.name == "ada" && first.userID == f.listener.id && !first.deleted)
        for i in 1...59 { _ = try f.say("message \(i)", by: i % 2 == 0 ? f.host : f.listener) }
        let last = try f.radio.chatMessages(episodeID: f.episode.id!, last: RadioStore.chatHistoryCount)
        #expect(last.count == 50)
        #expect(last.first?.text == "message 10" && last.last?.text == "message 59")
        #expect(last.map(\.id!) == last.map(\.id!).sorted())
        #expect(try f.radio.chatMessages(episodeID: f.episode.id!).count == 60)
        // Another episode of the show has its own chat.
        let next = try f.radio.startEpisode(showID: f.show.id!)
        _ = try f.say("next episode", episode: next)
        #expect(try f.radio.chatMessages(episodeID: next.id!).map(\.text) == ["next episode"])
        #expect(try f.radio.chatMessages(episodeID: f.episode.id!).count == 60)
    }

    @Test("refused: empty or too long text, an episode of another show")
    func refusals() throws {
        let f = try Folder()
        defer { f.remove() }
        #expect(throws: RadioStoreError.self) { try f.say(" \n ") }
        #expect(throws: RadioStoreError.self) { try f.say(String(repeating: "x", count: 501)) }
        let other = try f.radio.createShow(owner: f.host.id!, .init(title: "Other"))
        let otherEpisode = try f.radio.startEpisode(showID: other.id!)
        #expect(throws: RadioStoreError.self) {
            try f.radio.postChatMessage(showID: f.show.id!, episodeID: otherEpisode.id!, userID: f.listener.id!,
                                        name: "ada", text: "hi")
        }
        #expect(try f.radio.chatMessages(episodeID: f.episode.id!).isEmpty)
    }

    @Test("a deleted message is kept but left out; only its own show can delete it")
    func delete() throws {
        let f = try Folder()
        defer { f.remove() }
        let a = try f.say("keep")
        let b = try f.say("spam")
        let other = try f.radio.createShow(owner: f.host.id!, .init(title: "Other"))
        #expect(try f.radio.deleteChatMessage(id: b.id!, showID: other.id!) == nil)
        #expect(try f.radio.chatMessages(episodeID: f.episode.id!).map(\.text) == ["keep", "spam"])
        #expect(try f.radio.deleteChatMessage(id: b.id!, showID: f.show.id!)?.deleted == true)
        #expect(try f.radio.chatMessages(episodeID: f.episode.id!).map(\.id) == [a.id])
        #expect(try f.radio.chatMessages(episodeID: f.episode.id!, includeDeleted: true).count == 2)
        #expect(try f.radio.chatMessage(id: b.id!)?.deleted == true)
        #expect(try f.radio.deleteChatMessage(id: 999_999, showID: f.show.id!) == nil)
    }

    @Test("mutes: per show, until a time; a later mute replaces the earlier, a past time lifts it")
    func mutes() throws {
        let f = try Folder()
        defer { f.remove() }
        let now = Date()
        let uid = f.listener.id!
        #expect(try f.radio.chatMutedUntil(showID: f.show.id!, userID: uid, at: now) == nil)
        try f.radio.muteChatUser(showID: f.show.id!, userID: uid, until: now + 600)
        let until = try #require(try f.radio.chatMutedUntil(showID: f.show.id!, userID: uid, at: now))
        #expect(abs(until.timeIntervalSince(now + 600)) < 0.01)
        #expect(try f.radio.chatMutedUntil(showID: f.show.id!, userID: uid, at: now + 601) == nil)
        let other = try f.radio.createShow(owner: f.host.id!, .init(title: "Other"))
        #expect(try f.radio.chatMutedUntil(showID: other.id!, userID: uid, at: now) == nil)
        try f.radio.muteChatUser(showID: f.show.id!, userID: uid, until: now - 1)
        #expect(try f.radio.chatMutedUntil(showID: f.show.id!, userID: uid, at: now) == nil)
        #expect(throws: RadioStoreError.self) { try f.radio.muteChatUser(showID: f.show.id!, userID: 999_999, until: now + 60) }
    }

    @Test("the chat goes with its episode; a deleted author's messages stay with their name")
    func lifetimes() throws {
        let f = try Folder()
        defer { f.remove() }
        let message = try f.say("bye")
        try UserStore(database: f.database, cost: 4).delete(name: "ada")
        let kept = try #require(try f.radio.chatMessage(id: message.id!))
        #expect(kept.userID == nil && kept.name == "ada" && kept.text == "bye")
        try f.radio.purgeEpisode(id: f.episode.id!)
        #expect(try f.radio.chatMessage(id: message.id!) == nil)
    }
}
