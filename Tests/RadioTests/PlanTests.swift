import AudioCore
import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// Plans (issue 24 §1): CRUD, a user's plan, usage, and the limits at exactly N and N+1.
@Suite("RadioPlans")
struct PlanTests {
    struct Setup {
        let f: RadioStoreTests.Folder
        let plans: RadioPlans
        let show: RadioShow
        let tone: URL
        var database: QuintetDatabase { f.database }

        init(autoPublish: Bool = false) throws {
            f = try RadioStoreTests.Folder()
            plans = RadioPlans(database: f.database)
            show = try f.radio.createShow(owner: f.owner.id!, .init(title: "Planned", publishAutomatically: autoPublish))
            tone = try RadioStoreTests.liveStream(seconds: 2, in: f.directory, name: "tone.mp3")
        }
    }

    @Test("plans: add, list, set, default, assign, remove; a user's plan is theirs, else the default, else none")
    func crud() throws {
        let s = try Setup()
        defer { s.f.remove() }
        let uid = s.f.owner.id!
        #expect(try s.plans.plan(userID: uid) == nil)
        try s.plans.add(name: "free", maxEpisodeSeconds: 3600, maxEpisodesOnline: 3, maxStorageBytes: 1000)
        try s.plans.add(name: "pro", maxEpisodeSeconds: 7200)
        #expect(try s.plans.list().map(\.name) == ["free", "pro"])
        #expect(try s.plans.plan(userID: uid) == nil)
        try s.plans.setDefault(name: "free")
        #expect(try s.plans.plan(userID: uid)?.name == "free")
        try s.plans.assign(userID: uid, plan: "pro")
        #expect(try s.plans.plan(userID: uid)?.name == "pro")
        try s.plans.set(name: "free", maxEpisodesOnline: 4)
        #expect(try s.plans.find(name: "FREE")?.maxEpisodesOnline == 4)
        try s.plans.remove(name: "pro")
        #expect(try s.plans.plan(userID: uid)?.name == "free")  // back to the default
        #expect(throws: RadioStoreError.self) { try s.plans.add(name: "Free", maxEpisodeSeconds: 10) }
        #expect(throws: RadioStoreError.self) { try s.plans.add(name: "zero", maxEpisodeSeconds: 0) }
        #expect(throws: RadioStoreError.self) { try s.plans.assign(userID: uid, plan: "nope") }
    }

    @Test("episodes online: with 2 allowed the 2nd publishes, the 3rd is refused; auto-publish leaves it recorded")
    func onlineLimit() throws {
        let s = try Setup()
        defer { s.f.remove() }
        try s.plans.add(name: "two", maxEpisodeSeconds: 3600, maxEpisodesOnline: 2, isDefault: true)
        var ids: [Int64] = []
        for i in 0..<3 { ids.append(try s.f.radio.importEpisode(showID: s.show.id!, file: s.tone, title: "e\(i)", computePeaks: false).id!) }
        try s.f.radio.publish(episodeID: ids[0])
        try s.f.radio.publish(episodeID: ids[1])  // the 2nd: at the limit exactly
        #expect(try s.plans.usage(userID: s.f.owner.id!).episodesOnline == 2)
        let refusal = #expect(throws: PlanLimitError.self) { try s.f.radio.publish(episodeID: ids[2]) }
        #expect(refusal?.limit == "max_episodes_online" && refusal?.used == 2 && refusal?.allowed == 2)
        #expect(refusal?.description.contains("allows 2 episodes online") == true)
        #expect(try s.f.radio.episode(id: ids[2])?.state == .recorded)
        // A deleted (soft) episode does not count: one more may go online.
        try s.database.pool.write { db in try db.execute(sql: "UPDATE radio_episodes SET deleted_at = ? WHERE id = ?", arguments: [Date(), ids[0]]) }
        try s.f.radio.publish(episodeID: ids[2])
        // Auto-publish at the limit keeps the new episode recorded.
        let auto = try s.f.radio.createShow(owner: s.f.owner.id!, .init(title: "Auto", publishAutomatically: true))
        let kept = try s.f.radio.importEpisode(showID: auto.id!, file: s.tone, computePeaks: false)
        #expect(kept.state == .recorded)
        try s.plans.set(name: "two", maxEpisodesOnline: 3)
        let next = try s.f.radio.importEpisode(showID: auto.id!, file: s.tone, computePeaks: false)
        #expect(next.state == .published)
    }

    @Test("storage: a new episode fitting exactly is taken, one byte more is refused; the longest episode too")
    func storageAndLength() throws {
        let s = try Setup()
        defer { s.f.remove() }
        let size = try RadioStore.summarize(fileAt: s.tone, contentType: "audio/mpeg").size
        let first = try s.f.radio.importEpisode(showID: s.show.id!, file: s.tone, computePeaks: false)
        let used = first.size
        #expect(try s.plans.usage(userID: s.f.owner.id!).storageBytes == used)
        // Room for exactly one more of these: it fits; a third does not.
        try s.plans.add(name: "tight", maxEpisodeSeconds: 3600, maxStorageBytes: used + size, isDefault: true)
        _ = try s.f.radio.importEpisode(showID: s.show.id!, file: s.tone, computePeaks: false)
        let refusal = #expect(throws: PlanLimitError.self) {
            try s.f.radio.importEpisode(showID: s.show.id!, file: s.tone, computePeaks: false)
        }
        #expect(refusal?.limit == "max_storage_bytes" && refusal?.allowed == used + size)
        #expect(try s.f.radio.episodeCount(showID: s.show.id!) == 2)  // nothing left behind
        // Longest episode: 2 s fits a 2 s plan, not a 1 s one.
        try s.plans.set(name: "tight", maxEpisodeSeconds: 1, maxStorageBytes: 1 << 40)
        let long = #expect(throws: PlanLimitError.self) {
            try s.f.radio.importEpisode(showID: s.show.id!, file: s.tone, computePeaks: false)
        }
        #expect(long?.limit == "max_episode_seconds")
        try s.plans.set(name: "tight", maxEpisodeSeconds: 2)
        _ = try s.f.radio.importEpisode(showID: s.show.id!, file: s.tone, computePeaks: false)
    }
}
