import Foundation
import Testing
import Playground

/// scripts/build-atlas draws CarWorld's atlas, and the sizes ArtCarWorld.swift gives the game
/// are the sizes of the drawn regions.
@Suite struct AtlasTests {
    struct AtlasIndex: Decodable {
        struct Region: Decodable { let name: String; let x: Int; let y: Int; let w: Int; let h: Int }
        let game: String
        let image: String
        let scale: Int
        let width: Int
        let height: Int
        let regions: [Region]
    }

    /// Runs scripts/build-atlas into a fresh temporary folder and reads the index it wrote.
    func buildAtlas() throws -> (index: AtlasIndex, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atlas-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.file("scripts/build-atlas").path, "--out", folder.path, "carworld"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "build-atlas failed: \(message)")
        let data = try Data(contentsOf: folder.appendingPathComponent("carworld.json"))
        return (try JSONDecoder().decode(AtlasIndex.self, from: data), folder)
    }

    @Test func everyRegionHasTheSizeTheGameUses() throws {
        let (index, folder) = try buildAtlas()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(index.game == "carworld" && index.image == "carworld.png")
        #expect(index.regions.count == CarWorldArt.Region.allCases.count)
        for region in CarWorldArt.Region.allCases {
            guard Int(region.rawValue) < index.regions.count else {
                Issue.record("region \(region.name) (\(region.rawValue)) missing from the atlas")
                continue
            }
            let drawn = index.regions[Int(region.rawValue)]
            #expect(drawn.name == region.name)
            #expect(Float(drawn.w) / Float(index.scale) == region.width, "\(region.name) width")
            #expect(Float(drawn.h) / Float(index.scale) == region.height, "\(region.name) height")
        }
    }

    @Test func atlasFitsAndRegionsDoNotOverlap() throws {
        let (index, folder) = try buildAtlas()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(index.width <= 2048 && index.height <= 2048)
        let png = try Data(contentsOf: folder.appendingPathComponent("carworld.png"))
        // The PNG's IHDR: width and height big-endian at bytes 16 and 20.
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && be32(16) == index.width && be32(20) == index.height)
        for (i, a) in index.regions.enumerated() {
            #expect(a.x >= 0 && a.y >= 0 && a.x + a.w <= index.width && a.y + a.h <= index.height, "\(a.name) inside")
            for b in index.regions[(i + 1)...] {
                let apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y
                #expect(apart, "\(a.name) and \(b.name) overlap")
            }
        }
    }
}
