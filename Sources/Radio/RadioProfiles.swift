import Foundation
import GRDB
import QuintetStore

/// A user's own profile as they edit it (`radio_profiles`), with their plan, usage and follow
/// counts. Empty fields are `""` or nil, never missing.
public struct RadioProfile: Codable, Sendable, Equatable {
    public var userID: Int64
    public var name: String
    public var displayName: String
    public var description: String
    public var town: String?
    /// Degrees, −90…90, rounded to 0.01° (about 1 km).
    public var latitude: Double?
    /// Degrees, −180…180, rounded to 0.01°.
    public var longitude: Double?
    /// `yyyy-MM-dd`, from 1900-01-01 to today.
    public var birthDate: String?
    /// One of ``RadioProfiles/sexes``.
    public var sex: String?
    /// Whether a picture was uploaded (served at `/radio/users/{id}/picture`).
    public var hasPicture: Bool
    public var plan: RadioPlan?
    public var usage: PlanUsage
    public var followers: Int
    public var following: Int

    enum CodingKeys: String, CodingKey {
        case name, description, town, latitude, longitude, sex, plan, usage, followers, following
        case userID = "user_id"
        case displayName = "display_name"
        case birthDate = "birth_date"
        case hasPicture = "has_picture"
    }

    /// Every key, empty ones as null (a client lists every field).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(userID, forKey: .userID); try c.encode(name, forKey: .name)
        try c.encode(displayName, forKey: .displayName); try c.encode(description, forKey: .description)
        try c.encode(town, forKey: .town); try c.encode(latitude, forKey: .latitude); try c.encode(longitude, forKey: .longitude)
        try c.encode(birthDate, forKey: .birthDate); try c.encode(sex, forKey: .sex); try c.encode(hasPicture, forKey: .hasPicture)
        try c.encode(plan, forKey: .plan); try c.encode(usage, forKey: .usage)
        try c.encode(followers, forKey: .followers); try c.encode(following, forKey: .following)
    }
}

/// The editable fields of a profile: nil or `""` clears one (display name and description
/// become `""`).
public struct ProfileEdit: Codable, Sendable, Equatable {
    public var displayName: String?
    public var description: String?
    public var town: String?
    public var latitude: Double?
    public var longitude: Double?
    public var birthDate: String?
    public var sex: String?

    public init(displayName: String? = nil, description: String? = nil, town: String? = nil, latitude: Double? = nil,
                longitude: Double? = nil, birthDate: String? = nil, sex: String? = nil) {
        self.displayName = displayName; self.description = description; self.town = town
        self.latitude = latitude; self.longitude = longitude; self.birthDate = birthDate; self.sex = sex
    }

    enum CodingKeys: String, CodingKey {
        case description, town, latitude, longitude, sex
        case displayName = "display_name"
        case birthDate = "birth_date"
    }
}

/// Profiles (issue 24 §1): each user edits their own; validation lives here.
///
/// Rules: display name ≤ 80 characters, description ≤ 2,000, town ≤ 100 (no control
/// characters but newlines in the description); latitude and longitude both or neither, in
/// range, stored rounded to 0.01°; date of birth a real `yyyy-MM-dd` date from 1900-01-01 to
/// today (UTC); sex one of ``sexes``. Anything else throws ``RadioStoreError/invalid(_:)``.
public struct RadioProfiles: Sendable {
    public let database: QuintetDatabase
    /// The accepted values of `sex`.
    public static let sexes = ["female", "male", "other", "unspecified"]

    public init(database: QuintetDatabase) { self.database = database }

    /// User `userID`'s profile (every field; empty ones for a user who never edited it).
    public func profile(userID: Int64) throws -> RadioProfile {
        try database.pool.read { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM users WHERE id = ?", arguments: [userID]) else {
                throw RadioStoreError.ownerNotFound(userID)
            }
            let row = try Row.fetchOne(db, sql: "SELECT * FROM radio_profiles WHERE user_id = ?", arguments: [userID])
            let followers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_user_follows WHERE followed_id = ?", arguments: [userID]) ?? 0
            let following = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM radio_user_follows WHERE follower_id = ?", arguments: [userID]) ?? 0
            return RadioProfile(
                userID: userID, name: name, displayName: row?["display_name"] ?? "", description: row?["description"] ?? "",
                town: row?["town"], latitude: row?["latitude"], longitude: row?["longitude"], birthDate: row?["birth_date"],
                sex: row?["sex"], hasPicture: (row?["picture"] as String?) != nil,
                plan: try RadioPlans.plan(db, userID: userID), usage: try RadioPlans.usage(db, userID: userID),
                followers: followers, following: following)
        }
    }

    /// Replaces the editable fields of user `userID`'s profile with `edit` (validated first:
    /// nothing is written when one field is refused) and returns the profile.
    @discardableResult
    public func update(userID: Int64, _ edit: ProfileEdit, now: Date = Date()) throws -> RadioProfile {
        let clean = try Self.validated(edit, now: now)
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO radio_profiles (user_id, display_name, description, town, latitude, longitude, birth_date, sex, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id) DO UPDATE SET display_name = excluded.display_name, description = excluded.description,
                  town = excluded.town, latitude = excluded.latitude, longitude = excluded.longitude,
                  birth_date = excluded.birth_date, sex = excluded.sex, updated_at = excluded.updated_at
                """, arguments: [userID, clean.displayName ?? "", clean.description ?? "", clean.town, clean.latitude,
                                 clean.longitude, clean.birthDate, clean.sex, now])
        }
        return try profile(userID: userID)
    }

    /// Records that user `userID` has a picture at `path` (relative to the data folder; nil removes it).
    public func setPicture(userID: Int64, path: String?) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO radio_profiles (user_id, picture, updated_at) VALUES (?, ?, ?)
                ON CONFLICT(user_id) DO UPDATE SET picture = excluded.picture, updated_at = excluded.updated_at
                """, arguments: [userID, path, Date()])
        }
    }

    /// The picture path of user `userID` (relative to the data folder), or nil.
    public func picture(userID: Int64) throws -> String? {
        try database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT picture FROM radio_profiles WHERE user_id = ?", arguments: [userID])
        }
    }

    /// `edit` checked and normalised (trimmed, empty → nil, position rounded).
    public static func validated(_ edit: ProfileEdit, now: Date = Date()) throws -> ProfileEdit {
        var out = ProfileEdit()
        out.displayName = try text(edit.displayName, field: "display_name", limit: 80, newlines: false)
        out.description = try text(edit.description, field: "description", limit: 2000, newlines: true)
        out.town = try text(edit.town, field: "town", limit: 100, newlines: false)
        switch (edit.latitude, edit.longitude) {
        case (nil, nil): break
        case (let lat?, let lon?):
            guard lat.isFinite, (-90...90).contains(lat) else { throw RadioStoreError.invalid("latitude must be between -90 and 90, not \(lat)") }
            guard lon.isFinite, (-180...180).contains(lon) else { throw RadioStoreError.invalid("longitude must be between -180 and 180, not \(lon)") }
            out.latitude = (lat * 100).rounded() / 100
            out.longitude = (lon * 100).rounded() / 100
        default: throw RadioStoreError.invalid("give both latitude and longitude, or neither")
        }
        if let date = edit.birthDate?.trimmingCharacters(in: .whitespaces), !date.isEmpty {
            out.birthDate = try birthDate(date, now: now)
        }
        if let sex = edit.sex?.trimmingCharacters(in: .whitespaces).lowercased(), !sex.isEmpty {
            guard sexes.contains(sex) else { throw RadioStoreError.invalid("sex must be one of \(sexes.joined(separator: ", ")), not '\(sex)'") }
            out.sex = sex
        }
        return out
    }

    static func text(_ value: String?, field: String, limit: Int, newlines: Bool) throws -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= limit else { throw RadioStoreError.invalid("\(field) has at most \(limit) characters") }
        let bad = trimmed.unicodeScalars.contains { $0.properties.generalCategory == .control && !(newlines && ($0 == "\n" || $0 == "\r" || $0 == "\t")) }
        guard !bad else { throw RadioStoreError.invalid("\(field) cannot contain control characters") }
        return trimmed
    }

    /// A `yyyy-MM-dd` date that exists, not before 1900-01-01 and not after today (UTC).
    static func birthDate(_ text: String, now: Date) throws -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else {
            throw RadioStoreError.invalid("birth_date must be a date like 1990-04-25, not '\(text)'")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: y, month: m, day: d)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            throw RadioStoreError.invalid("birth_date \(text) is not a real date")
        }
        guard y >= 1900 else { throw RadioStoreError.invalid("birth_date cannot be before 1900") }
        guard date <= now else { throw RadioStoreError.invalid("birth_date cannot be in the future") }
        return text
    }
}
