import AudioCore
import Foundation
import LibraryCore
import Testing

@Suite("Library walk, rescan plan and parallel tag reading")
struct ScanTests {
    /// A library folder: two WAV songs, a cover image, an empty .mp3, a text file named
    /// .flac, a symlink loop and a link to a folder outside.
    static func makeLibrary() throws -> URL {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("quintet-walk-\(UUID().uuidString)")
        let album = root.appendingPathComponent("Artist/Album")
        try fm.createDirectory(at: album, withIntermediateDirectories: true)
        let tone = PCMBuffer(sampleRate: 8_000, channelCount: 1, samples: [Float](repeating: 0.1, count: 8_000))
        try WAVWriter.write(tone, to: album.appendingPathComponent("01 - One.wav"))
        try WAVWriter.write(tone, to: album.appendingPathComponent("02 - Two.WAV"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: album.appendingPathComponent("cover.png"))
        try Data().write(to: album.appendingPathComponent("03 - Empty.mp3"))
        try Data("not audio".utf8).write(to: album.appendingPathComponent("04 - Fake.flac"))
        try fm.createSymbolicLink(atPath: album.appendingPathComponent("loop").path, withDestinationPath: root.path)
        let outside = fm.temporaryDirectory.appendingPathComponent("quintet-walk-outside-\(UUID().uuidString)")
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try WAVWriter.write(tone, to: outside.appendingPathComponent("Linked.wav"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Elsewhere").path, withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("dangling.mp3").path, withDestinationPath: "/nonexistent/x.mp3")
        return root
    }

    @Test("finds audio by extension, follows folder links once, reports loops, empty and broken files")
    func walk() throws {
        let root = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: root) }
        let (files, issues) = LibraryWalker.walk(root: root)
        #expect(files.map(\.path) == ["Artist/Album/01 - One.wav", "Artist/Album/02 - Two.WAV",
                                       "Artist/Album/04 - Fake.flac", "Elsewhere/Linked.wav"])
        #expect(files.allSatisfy { $0.size > 0 && $0.modified > 1_600_000_000 })
        let reasons = Dictionary(uniqueKeysWithValues: issues.map { ($0.path, $0.reason) })
        #expect(reasons["Artist/Album/03 - Empty.mp3"] == "empty file")
        #expect(reasons["Artist/Album/loop"]?.contains("loop") == true)
        #expect(reasons["dangling.mp3"] == "broken symbolic link")
        #expect(issues.count == 3)
        let missing = LibraryWalker.walk(root: root.appendingPathComponent("no-such-folder"))
        #expect(missing.files.isEmpty && missing.issues.count == 1)
    }

    @Test("real folders win over links to them, and of two links to one folder the first path wins")
    func linkedFolders() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("quintet-links-\(UUID().uuidString)")
        let outside = fm.temporaryDirectory.appendingPathComponent("quintet-links-outside-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root); try? fm.removeItem(at: outside) }
        let tone = PCMBuffer(sampleRate: 8_000, channelCount: 1, samples: [Float](repeating: 0.1, count: 800))
        for folder in ["Zed/Deep", "B/C", "D"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try fm.createDirectory(at: outside.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        try WAVWriter.write(tone, to: root.appendingPathComponent("Zed/Deep/z.wav"))
        try WAVWriter.write(tone, to: outside.appendingPathComponent("Sub/o.wav"))
        // "A" sorts before the real "Zed" it points to; "B/C/x" and "D/y" both lead outside.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("A").path, withDestinationPath: root.appendingPathComponent("Zed").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("D/y").path, withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("B/C/x").path, withDestinationPath: outside.appendingPathComponent("Sub").path)
        for _ in 0..<5 {
            let (files, issues) = LibraryWalker.walk(root: root)
            #expect(files.map(\.path) == ["B/C/x/o.wav", "Zed/Deep/z.wav"])
            #expect(issues.map(\.path) == ["A", "D/y/Sub"])
            #expect(issues.allSatisfy { $0.reason.contains("loop") })
        }
    }

    @Test("a file reached by several paths is one file: the plain entry wins over links, then path order")
    func linkedFiles() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("quintet-filelinks-\(UUID().uuidString)")
        let outside = fm.temporaryDirectory.appendingPathComponent("quintet-filelinks-outside-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root); try? fm.removeItem(at: outside) }
        let tone = PCMBuffer(sampleRate: 8_000, channelCount: 1, samples: [Float](repeating: 0.1, count: 800))
        for folder in ["Zed", "Best Of", "Hard"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try WAVWriter.write(tone, to: root.appendingPathComponent("Zed/song.wav"))
        try WAVWriter.write(tone, to: outside.appendingPathComponent("far.wav"))
        // Links that sort before the real file ("Best Of" < "Zed"), relative and absolute.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Best Of/a.wav").path, withDestinationPath: "../Zed/song.wav")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Best Of/b.wav").path,
                                  withDestinationPath: root.appendingPathComponent("Zed/song.wav").path)
        // Two links to one file outside the root: followed, once, under the first link's path.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Best Of/far 2.wav").path, withDestinationPath: outside.appendingPathComponent("far.wav").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Best Of/far 1.wav").path, withDestinationPath: outside.appendingPathComponent("far.wav").path)
        // A hard link is the same file too: of two plain entries, the first path wins.
        try fm.linkItem(at: root.appendingPathComponent("Zed/song.wav"), to: root.appendingPathComponent("Hard/same.wav"))
        for _ in 0..<5 {
            let (files, issues) = LibraryWalker.walk(root: root)
            #expect(files.map(\.path) == ["Best Of/far 1.wav", "Hard/same.wav"])
            #expect(issues.map(\.path) == ["Best Of/a.wav", "Best Of/b.wav", "Best Of/far 2.wav", "Zed/song.wav"])
            let reasons = Dictionary(uniqueKeysWithValues: issues.map { ($0.path, $0.reason) })
            #expect(reasons["Best Of/a.wav"]?.contains("Hard/same.wav") == true)
            #expect(reasons["Best Of/far 2.wav"]?.contains("Best Of/far 1.wav") == true)
            #expect(issues.allSatisfy { $0.reason.contains("link") })
        }
    }

    @Test("a rescan reads only new and changed files and drops deleted ones")
    func plan() {
        let previous = [
            "a.mp3": LibraryFile(path: "a.mp3", size: 10, modified: 100),
            "b.mp3": LibraryFile(path: "b.mp3", size: 10, modified: 100),
            "c.mp3": LibraryFile(path: "c.mp3", size: 10, modified: 100),
            "gone.mp3": LibraryFile(path: "gone.mp3", size: 10, modified: 100),
        ]
        let current = [
            LibraryFile(path: "a.mp3", size: 10, modified: 100),   // unchanged
            LibraryFile(path: "b.mp3", size: 11, modified: 100),   // size changed
            LibraryFile(path: "c.mp3", size: 10, modified: 101),   // touched
            LibraryFile(path: "new.mp3", size: 5, modified: 100),  // new
        ]
        let plan = ScanPlan(current: current, previous: previous)
        #expect(plan.toRead.map(\.path) == ["b.mp3", "c.mp3", "new.mp3"])
        #expect(plan.removed == ["gone.mp3"] && plan.unchanged == 1)
    }

    @Test("tags are read on all cores, in input order, with per-file errors")
    func readPool() throws {
        let root = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = LibraryWalker.walk(root: root).files
        let results = TagReadPool.read(files, root: root)
        #expect(results.count == files.count)
        for (file, result) in zip(files, results) {
            switch result {
            case .success(let info): #expect(file.path.hasSuffix("wav") || file.path.hasSuffix("WAV")); #expect(info.format == .wav)
            case .failure(let issue): #expect(issue.path == "Artist/Album/04 - Fake.flac" && issue.reason.contains("not a supported"))
            }
        }
    }
}
