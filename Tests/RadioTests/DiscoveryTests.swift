import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// Near you, most popular, favourites and activity on fixtures with known positions, listen
/// times around the 7-day window (the clock injected) and ties.
@Suite("Radio discovery")
struct DiscoveryTests {
    static let rome = try! RadioDiscovery.Position(latitude: 41.90, longitude: 12.50)

    /// Listener in Rome. a and b live in Rome (the same coarse position), c in Milan, d gave no position.
    struct Places {
        let f: CommunityFixture
        let a: Int64, b: Int64, c: Int64, d: Int64
        let a1: Int64, a2: Int64, b1: Int64, c1: Int64, d1: Int64, gone: Int64

        init() throws {
            f = try CommunityFixture()
            a = try f.user("anna", lat: 41.90, lon: 12.50)
            b = try f.user("bruno", lat: 41.90, lon: 12.50)
            c = try f.user("carla", lat: 45.46, lon: 9.19)
            d = try f.user("dario")
            a1 = try f.show(a, "Anna one", daysAgo: 10)
            a2 = try f.show(a, "Anna two", daysAgo: 10)   // same distance and time as a1: the id decides
            b1 = try f.show(b, "Bruno", daysAgo: 5)
            c1 = try f.show(c, "Carla", daysAgo: 1)
            d1 = try f.show(d, "Dario", daysAgo: 0.5)
            gone = try f.show(a, "Deleted", daysAgo: 0.1)
            try f.deleteShow(gone)
        }
    }

    @Test("near you: by distance, equal distances by newest activity then id, no position last, deleted left out")
    func nearShows() throws {
        let p = try Places()
        defer { p.f.remove() }
        let list = try p.f.discovery.shows(order: .near, position: Self.rome)
        #expect(list.map(\.show.id!) == [p.b1, p.a1, p.a2, p.c1, p.d1])
        #expect(list.map(\.distanceKm) == [0, 0, 0, 477, nil])
        // A newer published episode moves a2 ahead of its equals; recorded or deleted ones do not count.
        try p.f.episode(p.a2, "fresh", daysAgo: 1)
        let recorded = try p.f.episode(p.a1, "not yet", state: .recorded, daysAgo: 0.2)
        let deleted = try p.f.episode(p.a1, "deleted", daysAgo: 0.2)
        try p.f.deleteEpisode(deleted)
        #expect(try p.f.discovery.shows(order: .near, position: Self.rome).map(\.show.id!) == [p.a2, p.b1, p.a1, p.c1, p.d1])
        // Episodes take their show's distance; only published, not deleted ones.
        let e1 = try p.f.episode(p.c1, "Milan talk", daysAgo: 2)
        let episodes = try p.f.discovery.episodes(order: .near, position: Self.rome)
        #expect(!episodes.map(\.episode.id!).contains(recorded) && !episodes.map(\.episode.id!).contains(deleted))
        #expect(episodes.map(\.episode.id!).last == e1)
        #expect(episodes.last?.distanceKm == 477)
        // From Milan the order turns around.
        let milan = try RadioDiscovery.Position(latitude: 45.46, longitude: 9.19)
        #expect(try p.f.discovery.shows(order: .near, position: milan).map(\.show.id!).prefix(2) == [p.c1, p.a2])
        #expect(throws: RadioCommunityError.self) { try p.f.discovery.shows(order: .near) }
    }

    @Test("the one ordering core: near ties, popular ties, favourites by newest then id")
    func orderingCore() {
        let t = CommunityFixture.now
        let items = [
            RadioDiscovery.Ranking(id: 4, distance: nil, activity: t, recentListens: 1, allTimeListens: 9),
            RadioDiscovery.Ranking(id: 3, distance: 5, activity: t, recentListens: 2, allTimeListens: 2),
            RadioDiscovery.Ranking(id: 2, distance: 5, activity: t, recentListens: 2, allTimeListens: 2),
            RadioDiscovery.Ranking(id: 1, distance: 5, activity: t.addingTimeInterval(-1), recentListens: 2, allTimeListens: 3),
        ]
        #expect(RadioDiscovery.ordered(items, by: .near).map(\.id) == [2, 3, 1, 4])
        #expect(RadioDiscovery.ordered(items, by: .popular).map(\.id) == [1, 2, 3, 4])
        #expect(RadioDiscovery.ordered(items, by: .favourites).map(\.id) == [2, 3, 4, 1])
    }

    @Test("most popular: listens of the last 7 days (the edge included), ties by all-time listens, newest, id")
    func popular() throws {
        let f = try CommunityFixture()
        defer { f.remove() }
        let u = try f.user("host")
        let p = try f.show(u, "P", daysAgo: 30), q = try f.show(u, "Q", daysAgo: 30), s = try f.show(u, "S", daysAgo: 30)
        let t = try f.show(u, "T", daysAgo: 2), v = try f.show(u, "V", daysAgo: 3)
        let e1 = try f.episode(p, "e1", daysAgo: 20), e2 = try f.episode(q, "e2", daysAgo: 20)
        let e3 = try f.episode(q, "e3", daysAgo: 20), e4 = try f.episode(s, "e4", daysAgo: 20)
        try f.listens(e1, 3, daysAgo: 8)              // outside the window
        try f.listens(e1, 1, daysAgo: 1)
        try f.listens(e2, 2, daysAgo: 2)
        try f.listens(e3, 1, daysAgo: 6.9)
        try f.listens(e3, 1, daysAgo: 7)              // exactly now − 7 d: inside
        try f.listens(e3, 1, daysAgo: 7.001)          // just outside
        try f.listens(e4, 1, daysAgo: 0.1)
        let episodes = try f.discovery.episodes(order: .popular)
        #expect(episodes.map(\.episode.id!) == [e3, e2, e1, e4])   // 2 (3 all-time), 2 (2), 1 (4), 1 (1)
        #expect(episodes.map(\.recentListens) == [2, 2, 1, 1])
        let shows = try f.discovery.shows(order: .popular)
        #expect(shows.map(\.show.id!) == [q, p, s, t, v])          // 4, 1 (4 all-time), 1 (1), then newest
        #expect(shows.map(\.recentListens) == [4, 1, 1, 0, 0])
        // A listen also keeps the all-time column and a timed row.
        #expect(try f.radio.episode(id: e1)!.listens == 4)
        let rows = try f.database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_listens WHERE show_id = ?", arguments: [p]) }
        #expect(rows == 4)
        // Listens of a deleted episode leave its show's score.
        try f.deleteEpisode(e2)
        #expect(try f.discovery.shows(order: .popular).first?.recentListens == 2)
    }

    @Test("favourites: shows of followed authors and followed shows, newest activity first; episodes of those shows")
    func favourites() throws {
        let p = try Places()
        defer { p.f.remove() }
        let me = try p.f.user("me")
        #expect(try p.f.discovery.shows(order: .favourites, viewer: me).isEmpty)
        try p.f.follows.followUser(follower: me, name: "anna")
        try p.f.follows.followShow(follower: me, showID: p.c1)
        #expect(try p.f.discovery.shows(order: .favourites, viewer: me).map(\.show.id!) == [p.c1, p.a1, p.a2])
        let old = try p.f.episode(p.a1, "old", daysAgo: 3), new = try p.f.episode(p.c1, "new", daysAgo: 2)
        try p.f.episode(p.b1, "not followed", daysAgo: 0.5)
        #expect(try p.f.discovery.episodes(order: .favourites, viewer: me).map(\.episode.id!) == [new, old])
        #expect(throws: RadioCommunityError.self) { try p.f.discovery.shows(order: .favourites) }
    }

    @Test("live list: only shows on air and live episodes")
    func liveOnly() throws {
        let p = try Places()
        defer { p.f.remove() }
        let onAir = try p.f.episode(p.c1, "on air", state: .live, daysAgo: 0.01)
        try p.f.episode(p.a1, "published", daysAgo: 1)
        #expect(try p.f.discovery.shows(order: .popular, liveOnly: true).map(\.show.id!) == [p.c1])
        #expect(try p.f.discovery.episodes(order: .near, position: Self.rome, liveOnly: true).map(\.episode.id!) == [onAir])
        #expect(try p.f.discovery.episodes(order: .popular).allSatisfy { $0.episode.state == .published })
    }

    @Test("activity: new shows, published episodes and live broadcasts of followed authors, newest first, deleted left out")
    func activity() throws {
        let p = try Places()
        defer { p.f.remove() }
        let me = try p.f.user("me")
        try p.f.follows.followUser(follower: me, name: "anna")
        let e = try p.f.episode(p.a1, "out", daysAgo: 2)
        let live = try p.f.episode(p.a2, "on air", state: .live, daysAgo: 0.05)
        let gone = try p.f.episode(p.a2, "gone", daysAgo: 0.5)
        try p.f.deleteEpisode(gone)
        try p.f.episode(p.b1, "not followed", daysAgo: 0.2)
        let events = try p.f.discovery.activity(viewer: me)
        #expect(events.map(\.kind) == ["live", "published", "show", "show"])
        #expect(events.map(\.episodeID) == [live, e, nil, nil])
        #expect(events[2].showID == p.a2 && events[3].showID == p.a1)   // same time: higher id first
        #expect(events.allSatisfy { $0.author == "anna" })
    }

    @Test("positions: latitude −90…90 and longitude −180…180, finite")
    func positions() throws {
        for (lat, lon) in [(90.1, 0.0), (-91, 0), (0, 180.5), (0, -181), (.nan, 0), (0, .nan), (.infinity, 0)] {
            #expect(throws: RadioCommunityError.self) { try RadioDiscovery.Position(latitude: lat, longitude: lon) }
        }
        #expect(throws: Never.self) { try RadioDiscovery.Position(latitude: -90, longitude: 180) }
        let a = try RadioDiscovery.Position(latitude: 0, longitude: 0), b = try RadioDiscovery.Position(latitude: 0, longitude: 180)
        #expect(abs(RadioDiscovery.distanceKm(a, b) - Double.pi * RadioDiscovery.earthRadiusKm) < 0.001)
    }
}
