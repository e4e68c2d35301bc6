import Foundation
@testable import QuintetServer
import Testing

@Suite("Radio effects: names and the folder listing")
struct RadioEffectsTests {
    @Test("names lose control and format characters, are trimmed and cut at 80; empty becomes Effect")
    func names() {
        #expect(RadioEffectsRoutes.cleanName("  <b>Boing</b>\u{07}\u{202E} ") == "<b>Boing</b>")
        #expect(RadioEffectsRoutes.cleanName(nil) == "Effect")
        #expect(RadioEffectsRoutes.cleanName("\u{0}\n\t") == "Effect")
        #expect(RadioEffectsRoutes.cleanName(String(repeating: "é", count: 100)).count == 80)
    }

    @Test("the listing keeps effects whose sound and sidecar are both there, oldest first")
    func listing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        func add(_ id: String, _ age: TimeInterval, sound: Bool = true) throws {
            let effect = RadioEffectsRoutes.Effect(id: id, name: id, duration: 1, size: 3, createdAt: Date(timeIntervalSinceNow: -age))
            try encoder.encode(effect).write(to: folder.appendingPathComponent("\(id).json"))
            if sound { try Data([1, 2, 3]).write(to: folder.appendingPathComponent("\(id).mp3")) }
        }
        try add("00000000000000bb", 10)
        try add("00000000000000aa", 20)
        try add("00000000000000cc", 5, sound: false)             // its sound is gone: not listed
        try Data("not json".utf8).write(to: folder.appendingPathComponent("00000000000000dd.json"))
        let listed = RadioEffectsRoutes.list(folder)
        #expect(listed.map(\.id) == ["00000000000000aa", "00000000000000bb"])
        #expect(listed.first?.url == "/api/radio/effects/00000000000000aa")
        #expect(RadioEffectsRoutes.list(folder.appendingPathComponent("missing")).isEmpty)
    }
}
