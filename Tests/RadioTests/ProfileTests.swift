import AudioCore
import Foundation
import GRDB
import QuintetStore
import Radio
import Testing

/// Profiles and pictures (issue 24 §1).
@Suite("RadioProfiles")
struct ProfileTests {
    static let now = ISO8601DateFormatter().date(from: "2026-11-27T12:00:00Z")!

    @Test("a new user's profile lists every field empty; an edit is stored with the position rounded to 0.01°")
    func roundTrip() throws {
        let f = try RadioStoreTests.Folder()
        defer { f.remove() }
        let profiles = RadioProfiles(database: f.database)
        let empty = try profiles.profile(userID: f.owner.id!)
        #expect(empty.displayName == "" && empty.description == "" && empty.town == nil && empty.latitude == nil)
        #expect(empty.birthDate == nil && empty.sex == nil && !empty.hasPicture && empty.followers == 0 && empty.following == 0)
        let edited = try profiles.update(userID: f.owner.id!, ProfileEdit(
            displayName: " Ada ", description: "Line one\nline two", town: "Torino", latitude: 45.07049, longitude: 7.68682,
            birthDate: "1990-04-25", sex: "Female"), now: Self.now)
        #expect(edited.displayName == "Ada" && edited.description == "Line one\nline two" && edited.town == "Torino")
        #expect(edited.latitude == 45.07 && edited.longitude == 7.69)
        #expect(edited.birthDate == "1990-04-25" && edited.sex == "female")
        let stored = try f.database.pool.read { db in try Double.fetchOne(db, sql: "SELECT longitude FROM radio_profiles") }
        #expect(stored == 7.69)
        // Follow counts come from radio_user_follows.
        let other = try UserStore(database: f.database, cost: 4).create(name: "fan", password: "password123")
        try f.database.pool.write { db in
            try db.execute(sql: "INSERT INTO radio_user_follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)",
                           arguments: [other.id, f.owner.id, Date()])
        }
        #expect(try profiles.profile(userID: f.owner.id!).followers == 1)
        #expect(try profiles.profile(userID: other.id!).following == 1)
        // Clearing: an empty edit empties every field.
        let cleared = try profiles.update(userID: f.owner.id!, ProfileEdit())
        #expect(cleared.displayName == "" && cleared.town == nil && cleared.latitude == nil && cleared.sex == nil)
    }

    @Test("refused: positions out of range or half given, impossible, future or pre-1900 dates, unknown sex, long text")
    func validation() throws {
        func refused(_ edit: ProfileEdit) -> Bool {
            (try? RadioProfiles.validated(edit, now: Self.now)) == nil
        }
        #expect(refused(ProfileEdit(latitude: 90.01, longitude: 0)))
        #expect(refused(ProfileEdit(latitude: -90.5, longitude: 0)))
        #expect(refused(ProfileEdit(latitude: 0, longitude: 180.001)))
        #expect(refused(ProfileEdit(latitude: 0, longitude: -181)))
        #expect(refused(ProfileEdit(latitude: .nan, longitude: 0)))
        #expect(refused(ProfileEdit(latitude: 10)))
        #expect(!refused(ProfileEdit(latitude: 90, longitude: -180)))
        #expect(!refused(ProfileEdit(latitude: -90, longitude: 180)))
        #expect(refused(ProfileEdit(birthDate: "2026-11-28")))   // tomorrow
        #expect(!refused(ProfileEdit(birthDate: "2026-11-27")))  // today
        #expect(refused(ProfileEdit(birthDate: "1899-12-31")))
        #expect(!refused(ProfileEdit(birthDate: "1900-01-01")))
        #expect(refused(ProfileEdit(birthDate: "2023-02-29")))
        #expect(!refused(ProfileEdit(birthDate: "2024-02-29")))
        #expect(refused(ProfileEdit(birthDate: "25/04/1990")))
        #expect(refused(ProfileEdit(sex: "robot")))
        #expect(refused(ProfileEdit(displayName: String(repeating: "a", count: 81))))
        #expect(!refused(ProfileEdit(displayName: String(repeating: "a", count: 80))))
        #expect(refused(ProfileEdit(town: "Tor\u{0}ino")))
    }

    @Test("pictures: magic bytes, size and ffprobe checked; re-encoded without EXIF into three JPEGs")
    func picture() throws {
        let f = try RadioStoreTests.Folder()
        defer { f.remove() }
        let source = f.directory.appendingPathComponent("in.jpg")
        try Fixtures.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x200",
                                    "-frames:v", "1", source.path])
        // A hand-made APP1 EXIF segment right after SOI, with a marker string to look for.
        var bytes = [UInt8](try Data(contentsOf: source))
        let payload = Array("Exif\0\0".utf8) + Array("SECRET-GPS-MARKER".utf8)
        let length = payload.count + 2
        bytes.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
        let data = Data(bytes)
        #expect(ProfilePicture.format(of: bytes) == "jpeg")
        let path = try ProfilePicture.store(data, userID: 7, dataDirectory: f.directory)
        #expect(path == "radio/profiles/7/picture.jpg")
        for size in [nil, 64, 256] as [Int?] {
            let out = try Data(contentsOf: f.directory.appendingPathComponent(ProfilePicture.path(userID: 7, size: size)))
            #expect(out.starts(with: [0xFF, 0xD8, 0xFF]))
            #expect(out.range(of: Data("SECRET-GPS-MARKER".utf8)) == nil)
            #expect(out.range(of: Data("Exif".utf8)) == nil)
        }
        let thumb = f.directory.appendingPathComponent(ProfilePicture.path(userID: 7, size: 64))
        let dims = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height",
                                                                 "-of", "csv=p=0", thumb.path]), as: UTF8.self)
        #expect(dims.trimmingCharacters(in: .whitespacesAndNewlines) == "64,64")
        // Fake: JPEG magic bytes then garbage; text; too large.
        #expect(throws: PictureError.self) { try ProfilePicture.store(Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 500)), userID: 7, dataDirectory: f.directory) }
        #expect(throws: PictureError.self) { try ProfilePicture.store(Data("hello, not a picture".utf8), userID: 7, dataDirectory: f.directory) }
        #expect(throws: PictureError.tooLarge(ProfilePicture.maxBytes + 1)) {
            try ProfilePicture.store(Data(count: ProfilePicture.maxBytes + 1), userID: 7, dataDirectory: f.directory)
        }
        #expect(ProfilePicture.format(of: Array("RIFF\0\0\0\0WEBP".utf8)) == "webp")
        #expect(ProfilePicture.format(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == "png")
    }
}
