import AudioCore
import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// The storage model on a real SQLite database in a temporary data folder, with real
/// ffmpeg-made recordings.
@Suite("RadioStore")
struct RadioStoreTests {
    /// A data folder with the store's and the radio's migrations, and one admin user.
    struct Folder {
        let directory: URL
        let database: QuintetDatabase
        let radio: RadioStore
        let owner: User

        init() throws {
            directory = try Fixtures.temporaryDirectory()
            var registry = MigrationRegistry()
            QuintetStore.registerMigrations(in: &registry)
            RadioSchema.registerMigrations(in: &registry)
            database = try QuintetDatabase.open(in: directory, migrations: registry)
            owner = try UserStore(database: database, cost: 4).create(name: "host", password: "password123", role: .admin)
            radio = RadioStore(database: database, decoder: AudioFileDecoder())
        }

        func remove() {
            try? database.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A live-style MP3 stream (no Xing frame, no ID3 tag, as a source sends it) of a 440 Hz tone.
    static func liveStream(seconds: Double, in directory: URL, name: String = "source.mp3") throws -> URL {
        _ = try Fixtures.encode(name, in: directory, seconds: seconds, codec: [
            "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"])
        return directory.appendingPathComponent(name)
    }

    /// ffmpeg's `volumedetect` peak of a file, in dBFS.
    static func maxVolume(_ url: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-i", url.path, "-af", "volumedetect", "-f", "null", "-"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try #require(text.split(separator: "\n").first { $0.contains("max_volume:") })
        let value = line.split(separator: ":").last!.replacingOccurrences(of: "dB", with: "")
        return try #require(Double(value.trimmingCharacters(in: .whitespaces)))
    }

    @Test("a show gets a slug, a unique /live/ mount and a 160-bit key; the owner must exist")
    func createShow() throws {
        let f = try Folder()
        defer { f.remove() }
        let a = try f.radio.createShow(owner: f.owner.id!, .init(title: "Café Morning Show!"))
        let b = try f.radio.createShow(owner: f.owner.id!, .init(title: "cafe morning show", publishAutomatically: false))
        #expect(a.slug == "cafe-morning-show" && a.mount == "/live/cafe-morning-show.mp3")
        #expect(b.slug == "cafe-morning-show-2" && b.mount == "/live/cafe-morning-show-2.mp3")
        #expect(a.streamKey.count == 40 && a.streamKey.allSatisfy(\.isHexDigit) && a.streamKey != b.streamKey)
        #expect(a.publishAutomatically && !b.publishAutomatically)
        #expect(a.maxEpisodeSeconds == RadioStore.defaultMaxEpisodeSeconds)
        #expect(throws: RadioStoreError.ownerNotFound(999)) { try f.radio.createShow(owner: 999, .init(title: "x")) }
        #expect(throws: RadioStoreError.self) { try f.radio.createShow(owner: f.owner.id!, .init(title: "  ")) }
        #expect(throws: RadioStoreError.self) { try f.radio.createShow(owner: f.owner.id!, .init(title: "x", language: "en us")) }
        #expect(throws: RadioStoreError.self) { try f.radio.createShow(owner: f.owner.id!, .init(title: "x", fallbackMount: "/api")) }
        #expect(RadioStore.slug("!!!") == "show")
        #expect(try f.radio.shows().map(\.id) == [a.id, b.id])
    }

    @Test("a show made through another connection (the CLI) is found by mount at once, with its key")
    func showVisibleAcrossConnections() throws {
        let f = try Folder()
        defer { f.remove() }
        #expect(try f.radio.show(mount: "/live/late.mp3") == nil)
        // A second database handle on the same folder, as a CLI process would open.
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        RadioSchema.registerMigrations(in: &registry)
        let other = try QuintetDatabase.open(in: f.directory, migrations: registry)
        let show = try RadioStore(database: other).createShow(owner: f.owner.id!, .init(title: "Late"))
        try other.close()
        #expect(try f.radio.show(mount: "/live/late.mp3")?.id == show.id)
        #expect(try f.radio.authenticateSource(mount: "/live/late.mp3", key: show.streamKey)?.id == show.id)
        var wrong = Array(show.streamKey)
        wrong[39] = wrong[39] == "0" ? "1" : "0"
        #expect(try f.radio.authenticateSource(mount: "/live/late.mp3", key: String(wrong)) == nil)
        #expect(try f.radio.authenticateSource(mount: "/live/late.mp3", key: "") == nil)
        #expect(try f.radio.authenticateSource(mount: "/live/other.mp3", key: show.streamKey) == nil)
        #expect(RadioStore.verify(show, key: show.streamKey) && !RadioStore.verify(show, key: String(wrong)))
        // A new key replaces the old one at once.
        let reset = try f.radio.resetStreamKey(showID: show.id!)
        #expect(reset.streamKey != show.streamKey && reset.mount == show.mount)
        #expect(try f.radio.authenticateSource(mount: "/live/late.mp3", key: show.streamKey) == nil)
        #expect(try f.radio.authenticateSource(mount: "/live/late.mp3", key: reset.streamKey)?.id == show.id)
    }

    @Test("keysMatch is plain equality, whatever the lengths")
    func keysMatch() {
        #expect(RadioStore.keysMatch("abc", "abc"))
        #expect(!RadioStore.keysMatch("abc", "abd"))
        #expect(!RadioStore.keysMatch("abc", "abcd"))
        #expect(!RadioStore.keysMatch("abcd", "abc"))
        #expect(!RadioStore.keysMatch("", "a"))
        #expect(RadioStore.keysMatch("", ""))
        // Lengths that differ by a multiple of 256 still differ.
        #expect(!RadioStore.keysMatch(String(repeating: "a", count: 256), ""))
    }

    @Test("live → finished: exact duration and size from the file, peaks, published; listens and peaks counted")
    func liveEpisode() throws {
        let f = try Folder()
        defer { f.remove() }
        let show = try f.radio.createShow(owner: f.owner.id!, .init(title: "Live"))
        let episode = try f.radio.startEpisode(showID: show.id!)
        #expect(episode.state == .live && episode.file == "radio/\(show.id!)/\(episode.id!).mp3")
        #expect(episode.title.hasPrefix("Live — "))
        let source = try Self.liveStream(seconds: 3, in: f.directory)
        try FileManager.default.copyItem(at: source, to: f.radio.fileURL(of: episode))
        try f.radio.countListen(episodeID: episode.id!)
        try f.radio.countListen(episodeID: episode.id!)
        try f.radio.recordListeners(episodeID: episode.id!, current: 7)
        try f.radio.recordListeners(episodeID: episode.id!, current: 3)
        let done = try f.radio.finishEpisode(id: episode.id!)
        let packets = try Fixtures.probeFrameCount(source)
        #expect(abs(done.duration - Double(packets * 1152) / 44100) < 1e-9)
        // The recording now starts with an Info frame (417 bytes at 128 kbit/s) saying so.
        let stored = Array(try Data(contentsOf: f.radio.fileURL(of: episode)))
        #expect(Array(stored[417...]) == Array(try Data(contentsOf: source)))
        #expect(AudioStreamSummary.isXingFrame(stored, at: 0))
        #expect(done.size == Int64(stored.count))
        #expect(abs(try Fixtures.probeDuration(f.radio.fileURL(of: episode)) - done.duration) < 1e-3)
        #expect(done.state == .published && done.publishedAt != nil && done.endedAt != nil)
        #expect(try f.radio.episodeCount(showID: show.id!) == 1 && f.radio.episodeCount(showID: show.id!, states: [.recorded]) == 0)
        #expect(done.listens == 2 && done.peakListeners == 7)
        let peaks = try #require(done.waveform)
        #expect(peaks.maxima.count == RadioStore.waveformBuckets)
        // The loudest bucket is the file's peak as ffmpeg's volumedetect measures it.
        let top = peaks.maxima.max()!
        #expect(abs(20 * log10(Double(top)) - (try Self.maxVolume(source))) < 0.5)
        #expect(peaks.minima.min()! < -0.5 * top)
        #expect(throws: RadioStoreError.self) { try f.radio.finishEpisode(id: episode.id!) }
        #expect(try f.radio.episodes(showID: show.id!, states: [.published]).map(\.id) == [episode.id])
    }

    @Test("a show that does not publish automatically keeps episodes recorded until published")
    func recordedThenPublished() throws {
        let f = try Folder()
        defer { f.remove() }
        let show = try f.radio.createShow(owner: f.owner.id!, .init(title: "Held", publishAutomatically: false))
        let episode = try f.radio.startEpisode(showID: show.id!, title: "First")
        try FileManager.default.copyItem(at: try Self.liveStream(seconds: 1, in: f.directory), to: f.radio.fileURL(of: episode))
        let done = try f.radio.finishEpisode(id: episode.id!, computePeaks: false)
        #expect(done.state == .recorded && done.publishedAt == nil && done.title == "First")
        #expect(try f.radio.episodes(states: [.published]).isEmpty)
        let published = try f.radio.publish(episodeID: episode.id!)
        #expect(published.state == .published && published.publishedAt != nil)
        #expect(try f.radio.episodes(states: [.published]).count == 1)
    }

    @Test("an interrupted recording (kill -9 mid-frame) is recovered: exact duration, size, peaks")
    func recovery() throws {
        let f = try Folder()
        defer { f.remove() }
        let show = try f.radio.createShow(owner: f.owner.id!, .init(title: "Crash"))
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let episode = try f.radio.startEpisode(showID: show.id!, at: start)
        let empty = try f.radio.startEpisode(showID: show.id!)  // crashed before any audio arrived
        let source = try Self.liveStream(seconds: 5, in: f.directory)
        var bytes = try Data(contentsOf: source)
        bytes.removeLast(100)  // the last frame is cut short
        try bytes.write(to: f.radio.fileURL(of: episode))
        let packets = try Fixtures.probeFrameCount(source)

        let recovery = try f.radio.recoverInterruptedEpisodes()
        #expect(recovery.finalised.map(\.id) == [episode.id])
        #expect(recovery.discarded.map(\.id) == [empty.id])
        let done = try #require(try f.radio.episode(id: episode.id!))
        #expect(abs(done.duration - Double((packets - 1) * 1152) / 44100) < 1e-9)
        let stored = try Data(contentsOf: f.radio.fileURL(of: episode))
        #expect(stored.dropFirst(417) == bytes)   // after the Info frame written at the end
        #expect(done.size == Int64(bytes.count + 417))
        #expect(abs(try Fixtures.probeDuration(f.radio.fileURL(of: episode)) - done.duration) < 1e-3)
        #expect(done.state == .published)
        #expect(abs(done.endedAt!.timeIntervalSince(start) - done.duration) < 0.01)
        #expect(done.waveform?.maxima.count == RadioStore.waveformBuckets)
        #expect(try f.radio.episode(id: empty.id!) == nil)
        #expect(try f.radio.recoverInterruptedEpisodes() == RadioStore.Recovery())
    }

    @Test("durations of whole files (ID3 tag, Xing frame) match ffprobe; junk is refused")
    func summarize() throws {
        let f = try Folder()
        defer { f.remove() }
        for (name, codec) in [("cbr.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]),
                              ("vbr.mp3", ["-c:a", "libmp3lame", "-q:a", "2"])] {
            _ = try Fixtures.encode(name, in: f.directory, seconds: 4.3, codec: codec)
            let url = f.directory.appendingPathComponent(name)
            let summary = try RadioStore.summarize(fileAt: url, contentType: "audio/mpeg")
            #expect(abs(summary.duration - (try Fixtures.probeDuration(url))) < 2e-6)
            let whole = try #require(AudioStreamSummary(bytes: Array(try Data(contentsOf: url)), framing: .mpegAudio))
            #expect(summary.duration == whole.duration)
        }
        // An ID3v2 tag larger than the 1 MiB first read (a 2 MB cover picture).
        let picture = f.directory.appendingPathComponent("noise.png")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=900x900,noise=alls=100:allf=t",
                                    "-frames:v", "1", picture.path])
        let tagged = f.directory.appendingPathComponent("tagged.mp3")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=2", "-i", picture.path,
                                    "-map", "0:a", "-map", "1:v", "-c:v", "png", "-disposition:v", "attached_pic",
                                    "-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "3", tagged.path])
        let taggedBytes = Array(try Data(contentsOf: tagged))
        let tagLength = AudioStreamSummary.id3v2Length(taggedBytes)
        #expect(tagLength > 1 << 20)
        let big = try RadioStore.summarize(fileAt: tagged, contentType: "audio/mpeg")
        #expect(big.size == Int64(taggedBytes.count))
        #expect(big.duration == AudioStreamSummary(bytes: taggedBytes, framing: .mpegAudio)?.duration)
        #expect(abs(big.duration - (try Fixtures.probeDuration(tagged))) < 2e-6)

        // ADTS AAC, as an aac source sends it: 1024 samples a frame.
        let aac = f.directory.appendingPathComponent("live.aac")
        _ = try Fixtures.encode("live.aac", in: f.directory, seconds: 3, codec: ["-c:a", "aac", "-b:a", "96k", "-f", "adts"])
        let adts = try RadioStore.summarize(fileAt: aac, contentType: "audio/aac")
        #expect(abs(adts.duration - Double(try Fixtures.probeFrameCount(aac) * 1024) / 44100) < 1e-9)

        let junk = f.directory.appendingPathComponent("junk.mp3")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: junk)
        #expect(throws: RadioStoreError.self) { try RadioStore.summarize(fileAt: junk, contentType: "audio/mpeg") }
        #expect(throws: RadioStoreError.self) {
            try RadioStore.summarize(fileAt: f.directory.appendingPathComponent("missing.mp3"), contentType: "audio/mpeg")
        }
    }

    @Test("import copies a recording in as an episode; delete removes row and file")
    func importAndDelete() throws {
        let f = try Folder()
        defer { f.remove() }
        let show = try f.radio.createShow(owner: f.owner.id!, .init(title: "Imports"))
        _ = try Fixtures.encode("talk.mp3", in: f.directory, seconds: 2, codec: ["-c:a", "libmp3lame", "-b:a", "96k"])
        let source = f.directory.appendingPathComponent("talk.mp3")
        let episode = try f.radio.importEpisode(showID: show.id!, file: source, publish: false, computePeaks: false)
        #expect(episode.title == "talk" && episode.state == .recorded)
        #expect(abs(episode.duration - (try Fixtures.probeDuration(source))) < 2e-6)
        let stored = f.radio.fileURL(of: episode)
        #expect(try Data(contentsOf: stored) == (try Data(contentsOf: source)))
        #expect(episode.guid != (try f.radio.importEpisode(showID: show.id!, file: source, computePeaks: false)).guid)
        try f.radio.purgeEpisode(id: episode.id!)
        #expect(!FileManager.default.fileExists(atPath: stored.path))
        #expect(try f.radio.episode(id: episode.id!) == nil)
        #expect(throws: RadioStoreError.episodeNotFound(episode.id!)) { try f.radio.purgeEpisode(id: episode.id!) }
        // A file that is not audio leaves nothing behind.
        let junk = f.directory.appendingPathComponent("notes.mp3")
        try Data("not audio at all".utf8).write(to: junk)
        #expect(throws: RadioStoreError.self) { try f.radio.importEpisode(showID: show.id!, file: junk) }
        #expect(try f.radio.episodes(showID: show.id!).count == 1)
        #expect(throws: RadioStoreError.self) { try f.radio.importEpisode(showID: 999, file: source) }
    }

    @Test("recent episodes across shows come newest first; deleting the owner deletes shows and episodes")
    func listingAndCascade() throws {
        let f = try Folder()
        defer { f.remove() }
        let a = try f.radio.createShow(owner: f.owner.id!, .init(title: "A"))
        let b = try f.radio.createShow(owner: f.owner.id!, .init(title: "B"))
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        let e1 = try f.radio.startEpisode(showID: a.id!, at: t)
        let e2 = try f.radio.startEpisode(showID: b.id!, at: t.addingTimeInterval(60))
        let e3 = try f.radio.startEpisode(showID: a.id!, at: t.addingTimeInterval(120))
        #expect(try f.radio.episodes().map(\.id) == [e3.id, e2.id, e1.id])
        #expect(try f.radio.episodes(limit: 2).map(\.id) == [e3.id, e2.id])
        #expect(try f.radio.episodes(showID: a.id!).map(\.id) == [e3.id, e1.id])
        try UserStore(database: f.database).delete(name: "host")
        #expect(try f.radio.shows().isEmpty && f.radio.episodes().isEmpty)
    }
}
