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
    }
}
