import Foundation
import GRDB

/// What anyone may see of the radio, for the share pages, oEmbed, Subsonic's podcasts and
/// the OPML export (issue 24 §2 sharing, §3): shows and episodes that are not deleted
/// (`deleted_at IS NULL`), and of episodes only the published ones of such shows.
extension RadioStore {
    /// The show when it is not deleted, else nil.
    public func publicShow(id: Int64) throws -> RadioShow? {
        try database.pool.read { db in
            try RadioShow.fetchOne(db, sql: "SELECT * FROM radio_shows WHERE id = ? AND deleted_at IS NULL", arguments: [id])
        }
    }

    /// Every show that is not deleted, oldest first; only those in `ids` when given.
    public func publicShows(ids: [Int64]? = nil) throws -> [RadioShow] {
        try database.pool.read { db in
            var sql = "SELECT * FROM radio_shows WHERE deleted_at IS NULL"
            var arguments = StatementArguments()
            if let ids {
                guard !ids.isEmpty else { return [] }
                sql += " AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))"
                arguments = StatementArguments(ids)
            }
            return try RadioShow.fetchAll(db, sql: sql + " ORDER BY id", arguments: arguments)
        }
    }

    /// The episode and its show when the episode is published and neither is deleted, else nil.
    public func publicEpisode(id: Int64) throws -> (episode: RadioEpisode, show: RadioShow)? {
        try database.pool.read { db in
            guard let episode = try RadioEpisode.fetchOne(db, sql: """
                SELECT e.* FROM radio_episodes e JOIN radio_shows s ON s.id = e.show_id
                WHERE e.id = ? AND e.state = 'published' AND e.deleted_at IS NULL AND s.deleted_at IS NULL
                """, arguments: [id]),
                let show = try RadioShow.fetchOne(db, key: episode.showID) else { return nil }
            return (episode, show)
        }
    }

    /// Published, non-deleted episodes of non-deleted shows (of one show when `showID` is
    /// given), newest publication first, at most `limit`.
    public func publicEpisodes(showID: Int64? = nil, limit: Int) throws -> [RadioEpisode] {
        try database.pool.read { db in
            var sql = """
                SELECT e.* FROM radio_episodes e JOIN radio_shows s ON s.id = e.show_id
                WHERE e.state = 'published' AND e.deleted_at IS NULL AND s.deleted_at IS NULL
                """
            var arguments: StatementArguments = []
            if let showID {
                sql += " AND e.show_id = ?"
                arguments += [showID]
            }
            sql += " ORDER BY COALESCE(e.published_at, e.ended_at, e.started_at) DESC, e.id DESC LIMIT ?"
            arguments += [max(0, limit)]
            return try RadioEpisode.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    /// The non-deleted shows user `userID` follows (`radio_show_follows`), by title.
    public func followedShows(userID: Int64) throws -> [RadioShow] {
        try database.pool.read { db in
            try RadioShow.fetchAll(db, sql: """
                SELECT s.* FROM radio_shows s JOIN radio_show_follows f ON f.show_id = s.id
                WHERE f.follower_id = ? AND s.deleted_at IS NULL ORDER BY s.title COLLATE NOCASE, s.id
                """, arguments: [userID])
        }
    }
}
