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
        #expect(try first.appliedMigrations() == ["example.v1-notes", "store.v1-users", "store.v2-sessions-and-sealed-passwords", "store.v3-invites"])
        try first.pool.write { db in try db.execute(sql: "INSERT INTO example_note (text) VALUES ('kept')") }
        try UserStore(database: first, cost: 4).create(name: "ada", password: "lovelace1815")
        try first.close()

        let second = try QuintetDatabase.open(in: folder.url, migrations: Self.registry())
        #expect(try second.appliedMigrations() == ["example.v1-notes", "store.v1-users", "store.v2-sessions-and-sealed-passwords", "store.v3-invites"])
        #expect(try second.pool.read { db in try String.fetchAll(db, sql: "SELECT text FROM example_note") } == ["kept"])
        #expect(try UserStore(database: second, cost: 4).list().map(\.name) == ["ada"])

        // A later release adds a migration: only that one runs.
        var grown = Self.registry()
        grown.register(system: "example", "v2-stars") { db in
            try db.alter(table: "example_note") { t in t.add(column: "stars", .integer).notNull().defaults(to: 0) }
        }
        try second.close()
        let third = try QuintetDatabase.open(in: folder.url, migrations: grown)
        #expect(try third.appliedMigrations().count == 5)
        #expect(try third.pool.read { db in try Int.fetchOne(db, sql: "SELECT stars FROM example_note") } == 0)
    }

    @Test("the registry namespaces identifiers by system and keeps order")
    func registryOrder() {
        let registry = Self.registry()
        #expect(registry.migrations.map(\.identifier) == ["store.v1-users", "store.v2-sessions-and-sealed-passwords", "store.v3-invites", "example.v1-notes"])
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

@Suite("Sessions and sealed passwords")
struct SessionTests {
    @Test("a session token finds its user until it is deleted; only its hash is stored")
    func sessions() throws {
        let folder = TemporaryDataFolder()
        let database = try QuintetDatabase.open(in: folder.url, migrations: MigrationTests.registry())
        let users = UserStore(database: database, cost: 4)
        let ada = try users.create(name: "ada", password: "lovelace1815")
        let sessions = SessionStore(database: database)
        let token = try sessions.create(userID: ada.id!)
        #expect(token.count == 43)
        #expect(try sessions.user(token: token)?.name == "ada")
        #expect(try sessions.user(token: token + "x") == nil)
        let stored = try database.pool.read { db in try String.fetchAll(db, sql: "SELECT token_hash FROM sessions") }
        #expect(stored.count == 1 && stored[0] != token && stored[0].count == 64)
        try sessions.delete(token: token)
        #expect(try sessions.user(token: token) == nil)
        let expired = SessionStore(database: database, lifetime: -1)
        #expect(try expired.user(token: try expired.create(userID: ada.id!)) == nil)
    }

    @Test("the password comes back only under the data folder's key, and follows password changes")
    func sealed() throws {
        let folder = TemporaryDataFolder()
        let database = try QuintetDatabase.open(in: folder.url, migrations: MigrationTests.registry())
        let users = UserStore(database: database, cost: 4)
        try users.create(name: "ada", password: "lovelace1815")
        #expect(try users.userWithPassword(name: "ada")?.1 == "lovelace1815")
        try users.setPassword(name: "ada", password: "analytical-engine")
        #expect(try users.userWithPassword(name: "ada")?.1 == "analytical-engine")
        #expect(try users.userWithPassword(name: "nobody") == nil)
        let raw = try database.pool.read { db in try Data.fetchOne(db, sql: "SELECT password_sealed FROM users") }
        #expect(raw.map { String(decoding: $0, as: UTF8.self).contains("analytical") } == false)
        let key = folder.url.appendingPathComponent(PasswordSeal.keyFileName)
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Another key (a copied database without its key file) cannot open it.
        try Data(repeating: 7, count: 32).write(to: key)
        #expect(try UserStore(database: database, cost: 4).userWithPassword(name: "ada") == nil)
    }
}
