import Foundation
import GRDB
import QuintetStore

/// What anyone may read about a user (`GET /api/radio/users/{name}`, the people page): the
/// profile's display name, description and town, a coarse position (the stored position,
/// itself rounded to 0.01°, rounded again to 0.1° ≈ 11 km), the picture's URL when there is
/// one, follower counts, whether the viewer follows them, and their shows that are not deleted.
/// Never the date of birth, sex, plan or exact position.
public struct RadioPublicProfile: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var displayName: String
    public var description: String
    public var town: String?
    public var latitude: Double?
    public var longitude: Double?
    /// `/radio/users/{id}/picture` when the profile has a picture (served by the accounts part).
    public var pictureURL: String?
    public var followers: Int
    public var following: Int
    /// Whether the viewer follows this user (false when nobody is signed in).
    public var followedByViewer: Bool
    public var shows: [ShowSummary]

    /// One of the user's shows.
    public struct ShowSummary: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var description: String
        public var followedByViewer: Bool
    }

    /// The public profile of the user called `name` as `viewer` sees it; throws
    /// ``RadioCommunityError/notFound(_:)``.
    public static func load(database: QuintetDatabase, name: String, viewer: Int64?) throws -> RadioPublicProfile {
        try database.pool.read { db in
            let id = try RadioFollows.userID(db, name)
            let row = try Row.fetchOne(db, sql: """
                SELECT u.id, u.name, p.display_name, p.description, p.town, p.latitude, p.longitude, p.picture,
                  (SELECT COUNT(*) FROM radio_user_follows WHERE followed_id = u.id) AS followers,
                  (SELECT COUNT(*) FROM radio_user_follows WHERE follower_id = u.id) AS following,
                  EXISTS (SELECT 1 FROM radio_user_follows WHERE followed_id = u.id AND follower_id = ?) AS followed
                FROM users u LEFT JOIN radio_profiles p ON p.user_id = u.id WHERE u.id = ?
                """, arguments: [viewer ?? -1, id])!
            let shows = try Row.fetchAll(db, sql: """
                SELECT s.id, s.title, s.description,
                  EXISTS (SELECT 1 FROM radio_show_follows f WHERE f.show_id = s.id AND f.follower_id = ?) AS followed
                FROM radio_shows s WHERE s.owner_id = ? AND s.deleted_at IS NULL ORDER BY s.id
                """, arguments: [viewer ?? -1, id]).map {
                    ShowSummary(id: $0["id"], title: $0["title"], description: $0["description"], followedByViewer: $0["followed"])
                }
            let picture: String? = row["picture"]
            return RadioPublicProfile(
                id: id, name: row["name"], displayName: row["display_name"] ?? "", description: row["description"] ?? "",
                town: row["town"], latitude: coarse(row["latitude"]), longitude: coarse(row["longitude"]),
                pictureURL: picture?.isEmpty == false ? "/radio/users/\(id)/picture" : nil,
                followers: row["followers"], following: row["following"], followedByViewer: row["followed"], shows: shows)
        }
    }

    /// `value` rounded to 0.1°.
    static func coarse(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return (value * 10).rounded() / 10
    }
}
