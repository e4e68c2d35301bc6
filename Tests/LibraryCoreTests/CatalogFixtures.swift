import Foundation
import LibraryCore
import QuintetStore

/// Small FLAC files written byte by byte (STREAMINFO with an exact duration, Vorbis comments,
/// an optional picture, then filler that is not real audio): enough for MediaTags and the
/// catalog, and exact durations for the ±4 s identical-recording rule.
enum FLACFixture {
    static func be32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
    static func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }

    static func bytes(comments: [String], seconds: Double, picture: Bool = false, filler: Int = 256) -> [UInt8] {
        let rate: UInt64 = 44_100
        let samples = UInt64((seconds * Double(rate)).rounded())
        var info: [UInt8] = [0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0]
        // 20 bits rate, 3 bits channels-1 (1 = stereo), 5 bits bps-1 (15), 36 bits samples
        let packed: UInt64 = (rate << 44) | (1 << 41) | (15 << 36) | samples
        info += withUnsafeBytes(of: packed.bigEndian, Array.init)
        info += [UInt8](repeating: 0, count: 16)
        var comment = le32(UInt32("fixture".utf8.count)) + Array("fixture".utf8) + le32(UInt32(comments.count))
        for c in comments { comment += le32(UInt32(c.utf8.count)) + Array(c.utf8) }
        var blocks: [(UInt8, [UInt8])] = [(0, info), (4, comment)]
        if picture {
            let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 40)
            var body = be32(3) + be32(9) + Array("image/png".utf8) + be32(0) + be32(1) + be32(1) + be32(24) + be32(0)
            body += be32(UInt32(image.count)) + image
            blocks.append((6, body))
        }
        var out = Array("fLaC".utf8)
        for (i, block) in blocks.enumerated() {
            let last: UInt8 = i == blocks.count - 1 ? 0x80 : 0
            let n = block.1.count
            out += [last | block.0, UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + block.1
        }
        return out + [0xFF, 0xF8] + [UInt8](repeating: 0x55, count: filler)
    }

    @discardableResult
    static func write(_ root: URL, _ path: String, _ comments: [String], seconds: Double = 200, picture: Bool = false) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes(comments: comments, seconds: seconds, picture: picture)).write(to: url)
        return url
    }
}

/// Small MP3 files written byte by byte: an ID3v2 tag of text frames (ISO-8859-1 in v2.2 and
/// v2.3, several values NUL-separated in v2.4), then MPEG-1 Layer III frames at a constant
/// 128 kbit/s (44.1 kHz, 417 bytes each, silent): about `seconds` long by the CBR estimate.
enum MP3Fixture {
    static func bytes(major: UInt8, frames: [(id: String, values: [String])], seconds: Double) -> [UInt8] {
        var body: [UInt8] = []
        for (id, values) in frames {
            let text: [UInt8] = major == 4 ? [3] + Array(values.joined(separator: "\0").utf8)
                                           : [0] + values.joined(separator: "\0").unicodeScalars.map { UInt8($0.value & 0xFF) }
            if major == 2 {
                body += Array(id.utf8) + [UInt8(text.count >> 16 & 0xFF), UInt8(text.count >> 8 & 0xFF), UInt8(text.count & 0xFF)] + text
            } else {
                let n = text.count
                let size = major == 4 ? [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
                                      : [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
                body += Array(id.utf8) + size + [0, 0] + text
            }
        }
        let n = body.count
        var out = Array("ID3".utf8) + [major, 0, 0, UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)] + body
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)
        for _ in 0..<Int((seconds * 44_100 / 1_152).rounded()) { out += frame }
        return out
    }

    @discardableResult
    static func write(_ root: URL, _ path: String, major: UInt8, _ frames: [(id: String, values: [String])],
                      seconds: Double = 10) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes(major: major, frames: frames, seconds: seconds)).write(to: url)
        return url
    }
}

/// A fresh data folder with the catalog's tables, a library folder, and a user.
struct CatalogFixture {
    let data: URL
    let root: URL
    let database: QuintetDatabase
    let catalog: Catalog

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-catalog-\(UUID().uuidString)")
        data = base.appendingPathComponent("data")
        root = base.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        CatalogSchema.registerMigrations(in: &registry)
        database = try QuintetDatabase.open(in: data, migrations: registry)
        catalog = Catalog(database: database)
    }

    func scan() throws -> ScanReport { try CatalogScanner(catalog: catalog).scan(root: root) }

    func user(_ name: String) throws -> Int64 {
        try UserStore(database: database, cost: 4).create(name: name, password: "password-\(name)").id!
    }

    func song(_ title: String, artist: String? = nil) throws -> CatalogSong {
        let all = try catalog.songs(userID: nil)
        let matches = all.filter { $0.title == title && (artist == nil || $0.artist == artist) }
        guard matches.count == 1 else { throw CatalogError.notFound("\(matches.count) songs titled \(title)") }
        return matches[0]
    }

    func song(at path: String) throws -> CatalogSong {
        guard let song = try catalog.song(path: path) else {
            throw CatalogError.notFound("no song at \(path)")
        }
        return song
    }

    func remove() { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
}
