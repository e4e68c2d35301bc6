import Foundation
import GRDB
import QuintetStore

/// Delete with undo (issue 24 §2): deleting a show or an episode sets its `deleted_at`, so it
/// disappears at once from every public answer (lists, feed, downloads, cover, live mounts)
/// while its owner may restore it for ``undoDays`` days; ``purgeExpired(now:)`` then removes
/// rows and files. Deleting a show hides its episodes with it; restoring it brings them back.
extension RadioStore {
    /// How long a deleted show or episode can be restored before it is purged.
    public static let undoDays = 30
    /// ``undoDays`` in seconds.
    public static var undoInterval: TimeInterval { TimeInterval(undoDays) * 86_400 }

    /// Deletes show `id` (as `user`, owner or admin; nil: no check) with undo: returns it with
    /// ``RadioShow/deletedAt`` set. Deleting a deleted show changes nothing.
    @discardableResult
    public func deleteShow(id: Int64, by user: User?, at date: Date = Date()) throws -> RadioShow {
        var show = try user.map { try editableShow(id: id, by: $0, includeDeleted: true) }
            ?? Self.required(self.show(id: id, includeDeleted: true), RadioStoreError.showNotFound("with id \(id)"))
        guard show.deletedAt == nil else { return show }
        show.deletedAt = date
        let deleted = show
        try database.pool.write { db in try deleted.update(db) }
        return deleted
    }

    /// Undoes ``deleteShow(id:by:at:)`` within ``undoDays`` days (after that it is
    /// ``RadioStoreError/wrongState(_:)``, and soon purged). A show that is not deleted stays as it is.
    @discardableResult
    public func restoreShow(id: Int64, by user: User?, now: Date = Date()) throws -> RadioShow {
        var show = try user.map { try editableShow(id: id, by: $0, includeDeleted: true) }
            ?? Self.required(self.show(id: id, includeDeleted: true), RadioStoreError.showNotFound("with id \(id)"))
        guard let deletedAt = show.deletedAt else { return show }
        guard now.timeIntervalSince(deletedAt) < Self.undoInterval else {
            throw RadioStoreError.wrongState("show \(id) was deleted more than \(Self.undoDays) days ago")
        }
        show.deletedAt = nil
        let restored = show
        try database.pool.write { db in try restored.update(db) }
        return restored
    }

    /// Deletes episode `id` (as `user`, nil: no check) with undo. A live episode is refused
    /// (``RadioStoreError/wrongState(_:)``): stop the broadcast first.
    @discardableResult
    public func deleteEpisode(id: Int64, by user: User? = nil, at date: Date = Date()) throws -> RadioEpisode {
        var episode = try user.map { try editableEpisode(id: id, by: $0, includeDeleted: true).0 }
            ?? Self.required(self.episode(id: id, includeDeleted: true), RadioStoreError.episodeNotFound(id))
        guard episode.deletedAt == nil else { return episode }
        guard episode.state != .live else {
            throw RadioStoreError.wrongState("episode \(id) is live: stop the broadcast before deleting it")
        }
        episode.deletedAt = date
        let deleted = episode
        try database.pool.write { db in try deleted.update(db) }
        return deleted
    }

    /// Undoes ``deleteEpisode(id:by:at:)`` within ``undoDays`` days.
    @discardableResult
    public func restoreEpisode(id: Int64, by user: User?, now: Date = Date()) throws -> RadioEpisode {
        var episode = try user.map { try editableEpisode(id: id, by: $0, includeDeleted: true).0 }
            ?? Self.required(self.episode(id: id, includeDeleted: true), RadioStoreError.episodeNotFound(id))
        guard let deletedAt = episode.deletedAt else { return episode }
        guard now.timeIntervalSince(deletedAt) < Self.undoInterval else {
            throw RadioStoreError.wrongState("episode \(id) was deleted more than \(Self.undoDays) days ago")
        }
        episode.deletedAt = nil
        let restored = episode
        try database.pool.write { db in try restored.update(db) }
        return restored
    }

    /// The deleted shows of `owner` (all owners when nil), most recently deleted first.
    public func deletedShows(owner: Int64?) throws -> [RadioShow] {
        try database.pool.read { db in
            var request = RadioShow.filter(Column("deleted_at") != nil).order(Column("deleted_at").desc)
            if let owner { request = request.filter(Column("owner_id") == owner) }
            return try request.fetchAll(db)
        }
    }

    /// The deleted episodes of `owner`'s shows that are still online (all owners when nil),
    /// most recently deleted first. Episodes of a deleted show come back with it.
    public func deletedEpisodes(owner: Int64?) throws -> [RadioEpisode] {
        try database.pool.read { db in
            var shows = "SELECT id FROM radio_shows WHERE deleted_at IS NULL"
            var arguments: StatementArguments = []
            if let owner { shows += " AND owner_id = ?"; arguments = [owner] }
            return try RadioEpisode
                .filter(sql: "deleted_at IS NOT NULL AND show_id IN (\(shows))", arguments: arguments)
                .order(Column("deleted_at").desc).fetchAll(db)
        }
    }

    /// What ``purgeExpired(now:)`` removed.
    public struct Purge: Sendable, Equatable {
        /// Ids of the shows removed (with all their episodes).
        public var shows: [Int64] = []
        /// Ids of the episodes removed on their own.
        public var episodes: [Int64] = []
        /// Nothing removed.
        public init() {}
    }

    /// Removes the shows and episodes deleted ``undoDays`` days or more before `now`: rows
    /// (chat, listens and follows go with them) and files (episode audio, the show's folder
    /// `radio/<id>/` and its uploaded cover `radio/covers/<id>.jpg`).
    @discardableResult
    public func purgeExpired(now: Date = Date()) throws -> Purge {
        let cutoff = now.addingTimeInterval(-Self.undoInterval)
        var purge = Purge()
        let (shows, episodes) = try database.pool.read { db in
            (try RadioShow.filter(Column("deleted_at") <= cutoff).fetchAll(db),
             try RadioEpisode.filter(Column("deleted_at") <= cutoff).fetchAll(db))
        }
        for episode in episodes where !shows.contains(where: { $0.id == episode.showID }) {
            try purgeEpisode(id: episode.id!)
            purge.episodes.append(episode.id!)
        }
        for show in shows {
            try purgeShow(id: show.id!)
            purge.shows.append(show.id!)
        }
        return purge
    }

    /// Removes show `id` at once, deleted or not: its row (episodes, chat… with it), its
    /// episodes' files and folder, and its uploaded cover.
    public func purgeShow(id: Int64) throws {
        guard let show = try show(id: id, includeDeleted: true) else { throw RadioStoreError.showNotFound("with id \(id)") }
        let files = try episodes(showID: id, limit: .max, includeDeleted: true).map(fileURL(of:))
        try database.pool.write { db in _ = try RadioShow.deleteOne(db, key: id) }
        for file in files { try? FileManager.default.removeItem(at: file) }
        try? FileManager.default.removeItem(at: dataDirectory.appendingPathComponent("radio/\(id)"))
        try? FileManager.default.removeItem(at: uploadedCoverFile(showID: id))
        if let cover = coverFile(of: show), cover.path.hasPrefix(dataDirectory.appendingPathComponent("radio/covers").path + "/") {
            try? FileManager.default.removeItem(at: cover)
        }
    }

    /// Where an uploaded cover of show `showID` is kept: `radio/covers/<id>.jpg` in the data folder.
    public func uploadedCoverFile(showID: Int64) -> URL {
        dataDirectory.appendingPathComponent(Self.uploadedCoverPath(showID: showID))
    }

    /// ``uploadedCoverFile(showID:)`` relative to the data folder, as stored in ``RadioShow/cover``.
    public static func uploadedCoverPath(showID: Int64) -> String { "radio/covers/\(showID).jpg" }
}
