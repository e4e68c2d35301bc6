import GRDB

/// The shared store: the database of a data folder, its migration registry and the
/// `users` table every system shares.
public enum QuintetStore {
    /// The system name under which the shared tables migrate.
    public static let system = "store"

    /// Registers the shared tables (`users`).
    public static func registerMigrations(in registry: inout MigrationRegistry) {
        registry.register(system: system, "v1-users") { db in
            try db.create(table: "users") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("password_hash", .text).notNull()
                t.column("role", .text).notNull().defaults(to: UserRole.user.rawValue)
                    .check { [UserRole.admin.rawValue, UserRole.user.rawValue].contains($0) }
                t.column("created_at", .datetime).notNull()
            }
        }
        registry.register(system: system, "v2-sessions-and-sealed-passwords") { db in
            // The password sealed with the data folder's key (AES-GCM), for protocols that
            // need it back (Subsonic tokens); NULL for users created before this migration
            // until their password is set again.
            try db.alter(table: "users") { t in t.add(column: "password_sealed", .blob) }
            try db.create(table: "sessions") { t in
                t.column("token_hash", .text).primaryKey()   // SHA-256 of the cookie value
                t.column("user_id", .integer).notNull().references("users", onDelete: .cascade)
                t.column("created_at", .double).notNull()
                t.column("expires_at", .double).notNull()
            }
        }
        registry.register(system: system, "v3-invites") { db in
            // Single-use invitation links (issue 24): the link carries a random token, the
            // table only its SHA-256; used_at/used_by are set when someone registers with it.
            try db.create(table: "invites") { t in
                t.column("token_hash", .text).primaryKey()
                t.column("created_by", .integer).indexed().references("users", onDelete: .setNull)
                t.column("created_at", .double).notNull()
                t.column("expires_at", .double).notNull()
                t.column("used_at", .double)
                t.column("used_by", .integer).references("users", onDelete: .setNull)
            }
        }
    }
}
