import GRDB
import QuintetStore

/// The radio community's tables (issue 24), migration `radio.v3-community`.
///
/// One migration lays out every table the community's parts share, so accounts, discovery,
/// sharing and the apps agree on names; each part's store owns the rules:
/// - `radio_shows` gains `category` and `subcategory` (Apple Podcasts' list, the feed's
///   `itunes:category`) and `deleted_at` (set by a delete, cleared by its undo; a row is
///   purged 30 days after it); `radio_episodes` gains `deleted_at` likewise.
/// - `radio_plans`: named limits set by an admin — the longest episode, how many episodes
///   may be online (published), the storage a user's episodes may take (null = no limit);
///   one plan may be the default for users without one.
/// - `radio_profiles`: one row per user who edited a profile (`user_id` → `users`):
///   display name, description, town, position (stored rounded to ~1 km: 0.01°), date of
///   birth (`yyyy-MM-dd`), sex, picture (a path under the data folder), plan.
/// - `radio_user_follows` and `radio_show_follows`: who follows whom and which shows.
/// - `radio_listens`: one row per counted listen with its time, so "most popular" can
///   count a window (the last 7 days); `radio_episodes.listens` stays the all-time total.
public enum CommunitySchema {
    /// Adds `radio.v3-community`; ``RadioSchema/registerMigrations(in:)`` calls it after v2.
    static func registerMigrations(in registry: inout MigrationRegistry) {
        registry.register(system: RadioSchema.system, "v3-community") { db in
            try db.alter(table: "radio_shows") { t in
                t.add(column: "category", .text)
                t.add(column: "subcategory", .text)
                t.add(column: "deleted_at", .datetime)
            }
            try db.alter(table: "radio_episodes") { t in t.add(column: "deleted_at", .datetime) }
            try db.create(table: "radio_plans") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("max_episode_seconds", .integer).notNull()
                t.column("max_episodes_online", .integer)
                t.column("max_storage_bytes", .integer)
                t.column("is_default", .boolean).notNull().defaults(to: false)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(table: "radio_profiles") { t in
                t.primaryKey("user_id", .integer).references("users", onDelete: .cascade)
                t.column("display_name", .text).notNull().defaults(to: "")
                t.column("description", .text).notNull().defaults(to: "")
                t.column("town", .text)
                t.column("latitude", .double)
                t.column("longitude", .double)
                t.column("birth_date", .text)
                t.column("sex", .text)
                t.column("picture", .text)
                t.column("plan_id", .integer).indexed().references("radio_plans", onDelete: .setNull)
                t.column("updated_at", .datetime).notNull()
            }
            try db.create(table: "radio_user_follows") { t in
                t.column("follower_id", .integer).notNull().references("users", onDelete: .cascade)
                t.column("followed_id", .integer).notNull().indexed().references("users", onDelete: .cascade)
                t.column("created_at", .datetime).notNull()
                t.primaryKey(["follower_id", "followed_id"])
                t.check(sql: "follower_id <> followed_id")
            }
            try db.create(table: "radio_show_follows") { t in
                t.column("follower_id", .integer).notNull().references("users", onDelete: .cascade)
                t.column("show_id", .integer).notNull().indexed().references("radio_shows", onDelete: .cascade)
                t.column("created_at", .datetime).notNull()
                t.primaryKey(["follower_id", "show_id"])
            }
            try db.create(table: "radio_listens") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("episode_id", .integer).notNull().indexed().references("radio_episodes", onDelete: .cascade)
                t.column("show_id", .integer).notNull().references("radio_shows", onDelete: .cascade)
                t.column("at", .datetime).notNull().indexed()
            }
            try db.create(index: "radio_listens_on_show_at", on: "radio_listens", columns: ["show_id", "at"])
        }
    }
}
