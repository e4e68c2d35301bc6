import GRDB

/// The schema migrations every system contributes to the one Quintet database.
///
/// Each core registers its own migrations under its system name ("store", "library",
/// "radio", …); identifiers are namespaced as `system.name`, so systems never collide.
/// Migrations run in registration order, each exactly once (GRDB records applied ones in
/// `grdb_migrations`), so opening the database again is harmless.
///
/// ```swift
/// var registry = MigrationRegistry()
/// QuintetStore.registerMigrations(in: &registry)
/// registry.register(system: "crowd", "v1-locations") { db in
///     try db.create(table: "crowd_location") { t in t.autoIncrementedPrimaryKey("id") }
/// }
/// ```
public struct MigrationRegistry: Sendable {
    /// One contributed migration.
    public struct Migration: Sendable {
        public let system: String
        public let name: String
        public let body: @Sendable (Database) throws -> Void
        /// The identifier GRDB records: `system.name`.
        public var identifier: String { "\(system).\(name)" }
    }

    public private(set) var migrations: [Migration] = []

    public init() {}

    /// Adds a migration. Registering the same `system.name` twice is a programming error.
    public mutating func register(system: String, _ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        let migration = Migration(system: system, name: name, body: body)
        precondition(!migrations.contains { $0.identifier == migration.identifier },
                     "migration \(migration.identifier) registered twice")
        migrations.append(migration)
    }

    /// Systems that contributed at least one migration, in registration order.
    public var systems: [String] {
        var seen = Set<String>()
        return migrations.map(\.system).filter { seen.insert($0).inserted }
    }

    /// A GRDB migrator holding every registered migration.
    public func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.identifier, migrate: migration.body)
        }
        return migrator
    }
}
