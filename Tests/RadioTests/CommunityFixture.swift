import Foundation
import GRDB
import QuintetStore
@testable import Radio

/// A data folder for the community tests (follows, discovery, search): users with or without
/// profile positions, shows and episodes with chosen times, all written into a real SQLite
/// database with every migration applied. Episodes are rows only (no audio is needed).
struct CommunityFixture {
    let directory: URL
    let database: QuintetDatabase
    let radio: RadioStore
    /// The tests' "now": 2026-09-21 (a fixed instant, so windows are exact).
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let day: TimeInterval = 24 * 3600

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        RadioSchema.registerMigrations(in: &registry)
        database = try QuintetDatabase.open(in: directory, migrations: registry)
        radio = RadioStore(database: database)
    }

    func remove() {
        try? database.close()
        try? FileManager.default.removeItem(at: directory)
    }

    var discovery: RadioDiscovery { RadioDiscovery(database: database, now: { Self.now }) }
    var follows: RadioFollows { RadioFollows(database: database, now: { Self.now }) }
    var search: RadioSearch { RadioSearch(database: database) }

    /// A user; with a profile row when any profile field is given.
    @discardableResult
    func user(_ name: String, lat: Double? = nil, lon: Double? = nil, town: String? = nil, displayName: String = "",
              description: String = "", picture: String? = nil) throws -> Int64 {
        let id = try UserStore(database: database, cost: 4).create(name: name, password: "password123").id!
        if lat != nil || town != nil || !displayName.isEmpty || !description.isEmpty || picture != nil {
            try database.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO radio_profiles (user_id, display_name, description, town, latitude, longitude, picture, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, displayName, description, town, lat, lon, picture, Self.now])
            }
        }
        return id
    }

    /// A show created `daysAgo` days before ``now``.
    @discardableResult
    func show(_ owner: Int64, _ title: String, description: String = "", daysAgo: Double = 30) throws -> Int64 {
        let id = try radio.createShow(owner: owner, .init(title: title, description: description)).id!
        try sql("UPDATE radio_shows SET created_at = ? WHERE id = ?", [Self.now.addingTimeInterval(-daysAgo * Self.day), id])
        return id
    }

    /// An episode started (and, when published, published) `daysAgo` days before ``now``.
    @discardableResult
    func episode(_ show: Int64, _ title: String, description: String = "", state: EpisodeState = .published,
                 daysAgo: Double = 10) throws -> Int64 {
        let at = Self.now.addingTimeInterval(-daysAgo * Self.day)
        return try database.pool.write { db in
            var episode = RadioEpisode(
                id: nil, showID: show, title: title, description: description, state: state, startedAt: at,
                endedAt: state == .live ? nil : at, publishedAt: state == .published ? at : nil, duration: 60,
                file: "radio/\(show)/x.mp3", contentType: "audio/mpeg", size: 1, listens: 0, peakListeners: 0,
                peaks: nil, guid: UUID().uuidString)
            try episode.insert(db)
            return episode.id!
        }
    }

    /// `count` listens of `episode`, `daysAgo` days before ``now``.
    func listens(_ episode: Int64, _ count: Int, daysAgo: Double) throws {
        for _ in 0..<count { try radio.countListen(episodeID: episode, at: Self.now.addingTimeInterval(-daysAgo * Self.day)) }
    }

    func deleteShow(_ id: Int64) throws { try sql("UPDATE radio_shows SET deleted_at = ? WHERE id = ?", [Self.now, id]) }
    func deleteEpisode(_ id: Int64) throws { try sql("UPDATE radio_episodes SET deleted_at = ? WHERE id = ?", [Self.now, id]) }

    func sql(_ text: String, _ arguments: StatementArguments = []) throws {
        try database.pool.write { db in try db.execute(sql: text, arguments: arguments) }
    }
}
