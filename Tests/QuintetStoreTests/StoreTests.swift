import Foundation
import GRDB
import QuintetStore
import Testing

/// A temporary data folder, removed when the test ends.
final class TemporaryDataFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-store-\(UUID().uuidString)")
    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite("Database and migrations")
struct MigrationTests {
    static func registry() -> MigrationRegistry {
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        registry.register(system: "example", "v1-notes") { db in
            try db.create(table: "example_note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("text", .text).notNull()
            }
        }
        return registry
    }

    @Test("opening twice runs each migration once and keeps the data")
    func migrationsTwice() throws {
        let folder = TemporaryDataFolder()
        let first = try QuintetDatabase.open(in: folder.url, migrations: Self.registry())
        #expect(try first.appliedMigrations() == ["example.v1-notes", "store.v1-users"])
        try first.pool.write { db in try db.execute(sql: "INSERT INTO example_note (text) VALUES ('kept')") }
        try UserStore(database: first, cost: 4).create(name: "ada", password: "lovelace1815")
        try first.close()

        let second = try QuintetDatabase.open(in: folder.url, migrations: Self.registry())
        #expect(try second.appliedMigrations() == ["example.v1-notes", "store.v1-users"])
        #expect(try second.pool.read { db in try String.fetchAll(db, sql: "SELECT text FROM example_note") } == ["kept"])
        #expect(try UserStore(database: second, cost: 4).list().map(\.name) == ["ada"])

        // A later release adds a migration: only that one runs.
        var grown = Self.registry()
        grown.register(system: "example", "v2-stars") { db in
            try db.alter(table: "example_note") { t in t.add(column: "stars", .integer).notNull().defaults(to: 0) }
        }
        try second.close()
        let third = try QuintetDatabase.open(in: folder.url, migrations: grown)
        #expect(try third.appliedMigrations().count == 3)
        #expect(try third.pool.read { db in try Int.fetchOne(db, sql: "SELECT stars FROM example_note") } == 0)
    }

    @Test("the registry namespaces identifiers by system and keeps order")
    func registryOrder() {
        let registry = Self.registry()
        #expect(registry.migrations.map(\.identifier) == ["store.v1-users", "example.v1-notes"])
        #expect(registry.systems == ["store", "example"])
    }

    @Test("an unusable data folder is a clear error")
    func unusableFolder() throws {
        let folder = TemporaryDataFolder()
        try Data("a file, not a folder".utf8).write(to: folder.url)
        #expect { try QuintetDatabase.open(in: folder.url, migrations: Self.registry()) } throws: { error in
            guard case StoreError.unusableDataFolder(let message) = error else { return false }
            return message.contains(folder.url.path)
        }
    }
}

@Suite("Users")
struct UserTests {
    static func store() throws -> (UserStore, TemporaryDataFolder) {
        let folder = TemporaryDataFolder()
        var registry = MigrationRegistry()
        QuintetStore.registerMigrations(in: &registry)
        return (UserStore(database: try QuintetDatabase.open(in: folder.url, migrations: registry), cost: 4), folder)
    }

    @Test("create, authenticate, change password, delete")
    func lifecycle() throws {
        let (users, folder) = try Self.store()
        _ = folder
        let ada = try users.create(name: "  Ada ", password: "lovelace1815", role: .admin)
        #expect(ada.name == "Ada" && ada.role == .admin && ada.id != nil)
        #expect(ada.passwordHash.hasPrefix("$2") && !ada.passwordHash.contains("lovelace"))
        #expect(try users.authenticate(name: "ada", password: "lovelace1815")?.id == ada.id)
        #expect(try users.authenticate(name: "Ada", password: "wrong password") == nil)
        #expect(try users.authenticate(name: "nobody", password: "lovelace1815") == nil)
        try users.setPassword(name: "Ada", password: "analytical engine")
        #expect(try users.authenticate(name: "Ada", password: "lovelace1815") == nil)
        #expect(try users.authenticate(name: "Ada", password: "analytical engine") != nil)
        try users.delete(name: "ADA")
        #expect(try users.list().isEmpty)
        #expect(throws: StoreError.userNotFound("Ada")) { try users.delete(name: "Ada") }
    }

    @Test("names are unique regardless of case")
    func uniqueNames() throws {
        let (users, folder) = try Self.store()
        _ = folder
        try users.create(name: "grace", password: "cobol-1959")
        #expect(throws: StoreError.userExists("GRACE")) { try users.create(name: "GRACE", password: "cobol-1959") }
        #expect(try users.list().count == 1)
    }

    @Test("bad names and passwords are refused with a reason")
    func validation() throws {
        let (users, folder) = try Self.store()
        _ = folder
        for name in ["", "   ", String(repeating: "x", count: 65), "tab\there", "nul\u{0}"] {
            #expect(throws: StoreError.self) { try users.create(name: name, password: "long enough") }
        }
        #expect(throws: StoreError.invalidPassword("a password needs at least 8 characters")) {
            try users.create(name: "short", password: "1234567")
        }
        #expect(throws: StoreError.self) { try users.create(name: "long", password: String(repeating: "é", count: 40)) }
        #expect(try users.list().isEmpty)
        try users.create(name: "Zoë 🎧 '; DROP TABLE users; --", password: "unicode ok")
        #expect(try users.list().map(\.name) == ["Zoë 🎧 '; DROP TABLE users; --"])
    }
}
