import GRDB
import QuintetStore

/// The radio's tables, contributed to the one Quintet database under the system name "radio".
///
/// - `radio_shows`: a show belongs to a user (`owner_id` → `users`, deleted with them); it has
///   a unique `slug` (from its title), a unique `mount` (`/live/<slug>.mp3`, see
///   ``RadioStore/mountPrefix``), a random `stream_key` (the source password), the podcast
///   fields (title, description, cover, language, explicit, location), whether finished
///   broadcasts are published automatically, the longest episode allowed and an optional
///   fallback mount.
/// - `radio_episodes`: one broadcast (or imported recording) of a show (deleted with it):
///   `state` (`live` → `recorded` → `published`), start and end times, exact duration, the
///   file (relative to the data folder), its size and content type, listens, peak
///   listeners, waveform peaks (JSON of AudioCore's `WaveformPeaks`) and a stable `guid`.
/// - `radio_chat_messages` (v2): the live chat, one row per message, tied to its show and to
///   the episode live when it was sent (deleted with either); the author's id (kept as null
///   when the user is deleted) and name, the plain text, the time and a `deleted` flag.
/// - `radio_chat_mutes` (v2): who may not chat in a show until when.
public enum RadioSchema {
    /// The system name migrations are recorded under.
    public static let system = "radio"

    /// Adds the radio's migrations; call after `QuintetStore.registerMigrations` (the
    /// `users` table must exist first).
    public static func registerMigrations(in registry: inout MigrationRegistry) {
        registry.register(system: system, "v1-shows-episodes") { db in
            try db.create(table: "radio_shows") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("owner_id", .integer).notNull().indexed().references("users", onDelete: .cascade)
                t.column("slug", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("description", .text).notNull().defaults(to: "")
                t.column("cover", .text)
                t.column("language", .text).notNull().defaults(to: "en")
                t.column("explicit", .boolean).notNull().defaults(to: false)
                t.column("location", .text)
                t.column("stream_key", .text).notNull()
                t.column("mount", .text).notNull().unique()
                t.column("publish_automatically", .boolean).notNull().defaults(to: true)
                t.column("max_episode_seconds", .integer).notNull().defaults(to: RadioStore.defaultMaxEpisodeSeconds)
                t.column("fallback_mount", .text)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(table: "radio_episodes") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("show_id", .integer).notNull().indexed().references("radio_shows", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("description", .text).notNull().defaults(to: "")
                t.column("state", .text).notNull()
                t.column("started_at", .datetime).notNull().indexed()
                t.column("ended_at", .datetime)
                t.column("published_at", .datetime)
                t.column("duration", .double).notNull().defaults(to: 0)
                t.column("file", .text).notNull()
                t.column("content_type", .text).notNull().defaults(to: "audio/mpeg")
                t.column("size", .integer).notNull().defaults(to: 0)
                t.column("listens", .integer).notNull().defaults(to: 0)
                t.column("peak_listeners", .integer).notNull().defaults(to: 0)
                t.column("peaks", .text)
                t.column("guid", .text).notNull().unique()
            }
        }
        registry.register(system: system, "v2-chat") { db in
            try db.create(table: "radio_chat_messages") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("show_id", .integer).notNull().indexed().references("radio_shows", onDelete: .cascade)
                t.column("episode_id", .integer).notNull().references("radio_episodes", onDelete: .cascade)
                t.column("user_id", .integer).indexed().references("users", onDelete: .setNull)
                t.column("name", .text).notNull()
                t.column("text", .text).notNull()
                t.column("sent_at", .datetime).notNull()
                t.column("deleted", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "radio_chat_messages_on_episode", on: "radio_chat_messages", columns: ["episode_id", "id"])
            try db.create(table: "radio_chat_mutes") { t in
                t.column("show_id", .integer).notNull().references("radio_shows", onDelete: .cascade)
                t.column("user_id", .integer).notNull().indexed().references("users", onDelete: .cascade)
                t.column("until", .datetime).notNull()
                t.primaryKey(["show_id", "user_id"])
            }
        }
        CommunitySchema.registerMigrations(in: &registry)
        RadioSearch.registerMigrations(in: &registry)
    }
}
