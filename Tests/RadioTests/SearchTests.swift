import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// FTS5 search: accents and case folded in Italian, English and Spanish, prefixes, hostile
/// queries, deleted and unpublished rows left out, the index kept in step by triggers.
@Suite("Radio search")
struct SearchTests {
    @Test("accents folded both ways in it/en/es; words as prefixes; all words must match")
    func folding() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let u = try f.user("anna")
        let italian = try f.show(u, "Perché la città dorme", description: "Notturno romano")
        let spanish = try f.show(u, "Canción del niño", description: "Música para todos")
        let english = try f.show(u, "Listening Party", description: "New records every week")
        let plain = try f.show(u, "Citta aperta", description: "senza accenti")
        let s = f.search
        #expect(try s.search("perche", kind: .shows).map(\.id) == [italian])
        #expect(try s.search("PERCHÉ", kind: .shows).map(\.id) == [italian])
        #expect(try Set(s.search("città", kind: .shows).map(\.id)) == [italian, plain])
        #expect(try s.search("cancion nino", kind: .shows).map(\.id) == [spanish])
        #expect(try s.search("niño", kind: .shows).map(\.id) == [spanish])
        #expect(try s.search("musica", kind: .shows).map(\.id) == [spanish])
        #expect(try s.search("listen", kind: .shows).map(\.id) == [english])       // as you type
        #expect(try s.search("canc", kind: .shows).map(\.id) == [spanish])
        #expect(try s.search("cancion listening", kind: .shows).isEmpty)
        // bm25: the show with the word in its (short) title ranks above one with it in a longer text.
        let other = try f.show(u, "Morning", description: "Music talk with the best città songs of the week and more and more")
        #expect(try s.search("citta", kind: .shows).map(\.id).last == other)
    }

    @Test("hostile queries never error and match nothing odd")
    func hostile() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let show = try f.show(try f.user("anna"), "Near and far", description: "AND OR NOT")
        let queries = ["\"", "*", "\"\"", "NEAR(", "NEAR(a b, 2)", "a\" OR \"b", "-", "^", ":", "title:near", "(", ")",
                       "AND", "OR NOT", "{near}", "'", ";DROP TABLE radio_shows;--", String(repeating: "x", count: 100_000),
                       String(repeating: "near ", count: 5_000), "\u{0}", "🎙️", ""]
        for q in queries {
            #expect(throws: Never.self) { _ = try f.search.search(q, kind: .shows) }
            #expect(throws: Never.self) { _ = try f.search.search(q, kind: .episodes) }
            #expect(throws: Never.self) { _ = try f.search.search(q, kind: .users) }
        }
        #expect(try f.search.search("NEAR(", kind: .shows).map(\.id) == [show])    // a word, not an operator
        #expect(try f.search.search("and", kind: .shows).map(\.id) == [show])
        #expect(RadioSearch.ftsQuery("*") == nil && RadioSearch.ftsQuery("a\"b") == "\"a\"* \"b\"*")
    }

    @Test("episodes: only published, not deleted, show not deleted; updates reindexed")
    func episodes() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let u = try f.user("anna")
        let show = try f.show(u, "Show")
        let published = try f.episode(show, "Intervista col sindaco", description: "perché no")
        try f.episode(show, "Intervista privata", state: .recorded)
        let deleted = try f.episode(show, "Intervista cancellata")
        try f.deleteEpisode(deleted)
        #expect(try f.search.search("intervista", kind: .episodes).map(\.id) == [published])
        #expect(try f.search.search("intervista", kind: .episodes).first?.showID == show)
        try f.sql("UPDATE radio_episodes SET title = 'Concerto' WHERE id = ?", [published])
        #expect(try f.search.search("intervista", kind: .episodes).isEmpty)
        #expect(try f.search.search("concerto", kind: .episodes).map(\.id) == [published])
        let other = try f.show(u, "Otra")
        try f.deleteShow(other)
        try f.episode(other, "Concerto de otra")
        #expect(try f.search.search("concerto", kind: .episodes).map(\.id) == [published])
        // A deleted show is not found, a purged one leaves the index.
        try f.deleteShow(show)
        #expect(try f.search.search("show", kind: .shows).isEmpty)
        try f.sql("DELETE FROM radio_shows")
        #expect(try f.database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_search_shows") } == 0)
    }

    @Test("users: by name, display name, town and description, profile edits followed by the index")
    func users() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let anna = try f.user("anna", town: "Città di Castello", displayName: "Ánna Ríos", description: "canciones y poesía")
        let bruno = try f.user("bruno")
        #expect(try f.search.search("castello", kind: .users).map(\.id) == [anna])
        #expect(try f.search.search("rios", kind: .users).map(\.id) == [anna])
        #expect(try f.search.search("poesia", kind: .users).map(\.id) == [anna])
        #expect(try f.search.search("brun", kind: .users).map(\.id) == [bruno])
        #expect(try f.search.search("castello", kind: .users).first?.detail == "Ánna Ríos · Città di Castello")
        try f.sql("INSERT INTO radio_profiles (user_id, town, updated_at) VALUES (?, 'Niñópolis', ?)", [bruno, CommunityFixture.now])
        #expect(try f.search.search("ninopolis", kind: .users).map(\.id) == [bruno])
        try f.sql("UPDATE radio_profiles SET town = 'Madrid' WHERE user_id = ?", [bruno])
        #expect(try f.search.search("ninopolis", kind: .users).isEmpty)
        try f.sql("DELETE FROM users WHERE id = ?", [anna])
        #expect(try f.search.search("castello", kind: .users).isEmpty)
    }

    @Test("the migration indexes rows written before it")
    func indexesExistingRows() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let show = try f.show(try f.user("anna"), "Perché sì")
        // Undo radio.v4-search, as if the rows had been written by an older Quintet, and open again.
        try f.sql("""
            DROP TABLE radio_search_shows; DROP TABLE radio_search_episodes; DROP TABLE radio_search_users;
            DROP TRIGGER radio_search_shows_insert; DROP TRIGGER radio_search_shows_update; DROP TRIGGER radio_search_shows_delete; DROP TRIGGER radio_search_episodes_insert; DROP TRIGGER radio_search_episodes_update; DROP TRIGGER radio_search_episodes_delete; DROP TRIGGER radio_search_users_insert; DROP TRIGGER radio_search_users_rename; DROP TRIGGER radio_search_users_delete; DROP TRIGGER radio_search_profiles_insert; DROP TRIGGER radio_search_profiles_update; DROP TRIGGER radio_search_profiles_delete;
            DELETE FROM grdb_migrations WHERE identifier LIKE '%v4-search%';
            """)
        try f.database.close()
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        RadioSchema.registerMigrations(in: &registry)
        let again = try QuintetDatabase.open(in: f.directory, migrations: registry)
        defer { try? again.close() }
        #expect(try RadioSearch(database: again).search("perche", kind: .shows).map(\.id) == [show])
        #expect(try RadioSearch(database: again).search("anna", kind: .users).count == 1)
    }
}
