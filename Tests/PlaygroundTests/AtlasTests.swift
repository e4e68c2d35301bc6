import Foundation
import Testing
import Playground
import Stage

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

    struct FontIndex: Decodable {
        struct Glyph: Decodable { let char: UInt32; let advance: Int }
        let font: String
        let scale: Int
        let em: Int
        let lineHeight: Int
        let baseline: Int
        let regions: [AtlasIndex.Region]
        let glyphs: [Glyph]
    }

    /// Runs scripts/build-atlas with `arguments`; its standard output.
    @discardableResult
    func buildAtlasScript(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.file("scripts/build-atlas").path] + arguments
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "build-atlas failed: \(message)")
        return String(decoding: printed, as: UTF8.self)
    }

    /// Runs scripts/build-atlas into a fresh temporary folder and reads the index it wrote.
    func buildAtlas(_ name: String = "carworld") throws -> (index: AtlasIndex, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atlas-\(UUID().uuidString)")
        try buildAtlasScript(["--out", folder.path, name])
        let data = try Data(contentsOf: folder.appendingPathComponent("\(name).json"))
        return (try JSONDecoder().decode(AtlasIndex.self, from: data), folder)
    }

    @Test func theFontAtlasHasAGlyphCellPerCodePointOfTheSwiftMetrics() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atlas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try buildAtlasScript(["--out", folder.path, "round"])
        let index = try JSONDecoder().decode(FontIndex.self, from: Data(contentsOf: folder.appendingPathComponent("round.json")))
        let font = BitmapFont.round(atlas: CarWorldArt.fontAtlas)
        #expect(index.font == "round")
        #expect(index.glyphs.map(\.char) == font.codePoints)
        #expect(index.glyphs.map { UInt16($0.advance) } == font.advances)
        #expect(Double(index.em) == font.unitsPerEm && Double(index.lineHeight) == font.lineHeight
                && Double(index.baseline) == font.baseline)
        #expect(index.regions.count == font.glyphCount)
        for (i, region) in index.regions.enumerated() where i < font.glyphCount {
            let hex = String(font.codePoints[i], radix: 16, uppercase: true)
            #expect(region.name == "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
            #expect(region.w == Int(font.advances[i]) * index.scale && region.h == Int(font.lineHeight) * index.scale)
        }
        // Something is drawn: the PNG holds more than the blank sheet's bytes.
        let png = try Data(contentsOf: folder.appendingPathComponent("round.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
    }

    @Test func theCommittedFontMetricsAreWhatTheGlyphsSay() throws {
        let printed = try buildAtlasScript(["--swift", "round"])
        let committed = try Repository.text("Sources/Stage/FontRound.swift")
        #expect(printed == committed, "Sources/Stage/FontRound.swift is stale: run scripts/build-atlas --swift round > Sources/Stage/FontRound.swift")
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
