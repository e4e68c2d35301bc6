import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

@Suite("Show and episode editing, delete with undo", .serialized)
struct ShowEditingTests {
    struct Folder {
        let directory: URL
        let database: QuintetDatabase
        let radio: RadioStore
        let owner: User
        let other: User
        let admin: User
        let show: RadioShow

        init() throws {
            directory = try Fixtures.temporaryDirectory()
            var registry = MigrationRegistry()
            QuintetStore.registerMigrations(in: &registry)
            RadioSchema.registerMigrations(in: &registry)
            database = try QuintetDatabase.open(in: directory, migrations: registry)
            let users = UserStore(database: database, cost: 4)
            owner = try users.create(name: "host", password: "password123")
            other = try users.create(name: "other", password: "password123")
            admin = try users.create(name: "boss", password: "password123", role: .admin)
            radio = RadioStore(database: database)
            show = try radio.createShow(owner: owner.id!, .init(title: "Morning"))
        }

        func remove() {
            try? database.close()
            try? FileManager.default.removeItem(at: directory)
        }

        /// A finished episode from a real 1 s MP3 made by ffmpeg.
        func episode(publish: Bool = true) throws -> RadioEpisode {
            _ = try Fixtures.encode("tone.mp3", in: directory, seconds: 1, codec: ["-c:a", "libmp3lame", "-b:a", "64k"])
            return try radio.importEpisode(showID: show.id!, file: directory.appendingPathComponent("tone.mp3"),
                                           title: "Ep", publish: publish, computePeaks: false)
        }
    }

    @Test("covers: relative and absolute paths inside the data folder are stored relative and found; outside refused")
    func covers() throws {
        let f = try Folder()
        defer { f.remove() }
        try FileManager.default.createDirectory(at: f.directory.appendingPathComponent("art"), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF]).write(to: f.directory.appendingPathComponent("art/c.jpg"))
        let absolute = try f.radio.createShow(owner: f.owner.id!, .init(title: "Abs", cover: f.directory.appendingPathComponent("art/c.jpg").path))
        #expect(absolute.cover == "art/c.jpg")
        let relative = try f.radio.createShow(owner: f.owner.id!, .init(title: "Rel", cover: "art/c.jpg"))
        #expect(f.radio.coverFile(of: relative)?.path == f.directory.appendingPathComponent("art/c.jpg").path)
        #expect(throws: RadioStoreError.self) { try f.radio.createShow(owner: f.owner.id!, .init(title: "Out", cover: "/etc/passwd")) }
        #expect(throws: RadioStoreError.self) { try f.radio.editShow(id: f.show.id!, by: nil, .init(cover: "../../etc/passwd")) }
        // An old row holding an absolute path inside the data folder is still found.
        try f.database.pool.write { db in
            try db.execute(sql: "UPDATE radio_shows SET cover = ? WHERE id = ?",
                           arguments: [f.directory.appendingPathComponent("art/c.jpg").path, f.show.id!])
        }
        let old = try #require(try f.radio.show(id: f.show.id!))
        #expect(f.radio.coverFile(of: old)?.lastPathComponent == "c.jpg")
        var outside = old
        outside.cover = "/etc/passwd"
        #expect(f.radio.coverFile(of: outside) == nil)
        #expect(try f.radio.editShow(id: f.show.id!, by: nil, .init(cover: "https://example.org/a.png")).cover == "https://example.org/a.png")
        #expect(try f.radio.editShow(id: f.show.id!, by: nil, .init(cover: "")).cover == nil)
    }

    @Test("edit: owner and admin may, another user is forbidden; fields validated, nothing written on a bad one")
    func edit() throws {
        let f = try Folder()
        defer { f.remove() }
        let id = f.show.id!
        let edited = try f.radio.editShow(id: id, by: f.owner, .init(title: " Evening ", description: "Talk", language: "it-IT",
                                                                     explicit: true, category: "music", subcategory: "Music History"))
        #expect(edited.title == "Evening" && edited.language == "it-IT" && edited.explicit)
        #expect(edited.category == "Music" && edited.subcategory == "Music History")
        #expect(try f.radio.editShow(id: id, by: f.admin, .init(publishAutomatically: false)).publishAutomatically == false)
        #expect(throws: RadioStoreError.forbidden("only the owner of show \(id) or an admin may change it")) {
            try f.radio.editShow(id: id, by: f.other, .init(title: "Mine"))
        }
        let bads: [RadioStore.ShowChanges] = [.init(title: ""), .init(title: String(repeating: "x", count: 201)),
                    .init(description: String(repeating: "x", count: 4001)), .init(language: "english!"),
                    .init(language: "e"), .init(category: "Cooking"), .init(category: "Music", subcategory: "Drama")]
        for bad in bads {
            #expect(throws: RadioStoreError.self) { try f.radio.editShow(id: id, by: f.owner, bad) }
        }
        #expect(try f.radio.show(id: id)?.title == "Evening")
        // A new category drops the old subcategory; an empty one removes both.
        #expect(try f.radio.editShow(id: id, by: f.owner, .init(category: "History")).subcategory == nil)
        let cleared = try f.radio.editShow(id: id, by: f.owner, .init(category: ""))
        #expect(cleared.category == nil && cleared.subcategory == nil)
    }

    @Test("unpublish takes an episode out of the feed's list; publish puts it back")
    func unpublish() throws {
        let f = try Folder()
        defer { f.remove() }
        let episode = try f.episode()
        #expect(try f.radio.episodes(showID: f.show.id!, states: [.published]).map(\.id) == [episode.id])
        let down = try f.radio.editEpisode(id: episode.id!, by: f.owner, .init(title: "Renamed", published: false))
        #expect(down.state == .recorded && down.publishedAt == nil && down.title == "Renamed")
        #expect(try f.radio.episodes(showID: f.show.id!, states: [.published]).isEmpty)
        #expect(throws: RadioStoreError.self) { try f.radio.editEpisode(id: episode.id!, by: f.other, .init(published: true)) }
        #expect(try f.radio.editEpisode(id: episode.id!, by: f.owner, .init(published: true)).state == .published)
    }

    @Test("delete hides a show and its episodes everywhere; restore brings them back; purge after 30 days removes rows and files")
    func deleteRestorePurge() throws {
        let f = try Folder()
        defer { f.remove() }
        let episode = try f.episode()
        let file = f.radio.fileURL(of: episode)
        let id = f.show.id!
        let t0 = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(throws: RadioStoreError.self) { try f.radio.deleteShow(id: id, by: f.other, at: t0) }
        try f.radio.deleteShow(id: id, by: f.owner, at: t0)
        #expect(try f.radio.show(id: id) == nil && f.radio.shows().isEmpty && f.radio.show(mount: f.show.mount) == nil)
        #expect(try f.radio.episodes().isEmpty && f.radio.episode(id: episode.id!) == nil)
        #expect(try f.radio.episodeCount(showID: id) == 0)
        #expect(try f.radio.deletedShows(owner: f.owner.id!).map(\.id) == [id])
        #expect(try f.radio.show(id: id, includeDeleted: true)?.deletedAt == t0)
        try f.radio.restoreShow(id: id, by: f.owner, now: t0.addingTimeInterval(86_400))
        #expect(try f.radio.episodes().map(\.id) == [episode.id])
        // An episode on its own.
        try f.radio.deleteEpisode(id: episode.id!, by: f.owner, at: t0)
        #expect(try f.radio.episodes().isEmpty && f.radio.deletedEpisodes(owner: f.owner.id!).map(\.id) == [episode.id])
        #expect(try f.radio.purgeExpired(now: t0.addingTimeInterval(29 * 86_400)) == RadioStore.Purge())
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(throws: RadioStoreError.self) { try f.radio.restoreEpisode(id: episode.id!, by: f.owner, now: t0.addingTimeInterval(31 * 86_400)) }
        let purged = try f.radio.purgeExpired(now: t0.addingTimeInterval(30 * 86_400))
        #expect(purged.episodes == [episode.id!] && purged.shows.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try f.radio.episode(id: episode.id!, includeDeleted: true) == nil)
        // A whole show, with its folder and uploaded cover.
        let second = try f.episode()
        try FileManager.default.createDirectory(at: f.radio.uploadedCoverFile(showID: id).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try Data([1]).write(to: f.radio.uploadedCoverFile(showID: id))
        try f.radio.deleteShow(id: id, by: f.admin, at: t0)
        #expect(try f.radio.purgeExpired(now: t0.addingTimeInterval(30 * 86_400)).shows == [id])
        #expect(try f.radio.show(id: id, includeDeleted: true) == nil && f.radio.episode(id: second.id!, includeDeleted: true) == nil)
        #expect(!FileManager.default.fileExists(atPath: f.directory.appendingPathComponent("radio/\(id)").path))
        #expect(!FileManager.default.fileExists(atPath: f.radio.uploadedCoverFile(showID: id).path))
    }

    @Test("a live episode cannot be deleted or unpublished; a deleted show takes no new episode")
    func liveRules() throws {
        let f = try Folder()
        defer { f.remove() }
        let live = try f.radio.startEpisode(showID: f.show.id!)
        #expect(throws: RadioStoreError.self) { try f.radio.deleteEpisode(id: live.id!, by: f.owner) }
        #expect(throws: RadioStoreError.self) { try f.radio.editEpisode(id: live.id!, by: f.owner, .init(published: true)) }
        try f.radio.deleteShow(id: f.show.id!, by: f.owner)
        #expect(throws: RadioStoreError.self) { try f.radio.startEpisode(showID: f.show.id!) }
    }
}
