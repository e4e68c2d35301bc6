import Foundation
import GRDB
import QuintetStore
import Testing

/// Invitations and registration (issue 24 §1) on a real database.
@Suite("Invites")
struct InviteTests {
    struct Setup {
        let folder = TemporaryDataFolder()
        let database: QuintetDatabase
        let users: UserStore
        let invites: InviteStore
        let admin: User
        let member: User

        init() throws {
            var registry = MigrationRegistry()
            QuintetStore.registerMigrations(in: &registry)
            database = try QuintetDatabase.open(in: folder.url, migrations: registry)
            users = UserStore(database: database, cost: 4)
            invites = InviteStore(database: database)
            admin = try users.create(name: "admin", password: "password123", role: .admin)
            member = try users.create(name: "member", password: "password123")
        }
    }

    @Test("an invitation registers once; the second use is refused and the table keeps only a hash")
    func singleUse() throws {
        let s = try Setup()
        let (token, expires) = try s.invites.create(by: s.member)
        #expect(token.count == 22)  // 128 bits, URL-safe base64
        #expect(abs(expires.timeIntervalSinceNow - 7 * 86_400) < 60)
        let stored = try s.database.pool.read { db in try String.fetchAll(db, sql: "SELECT token_hash FROM invites") }
        #expect(stored.count == 1 && stored[0] != token && stored[0].count == 64)
        let bob = try s.invites.register(name: "bob", password: "correct horse", token: token, mode: .invite, users: s.users)
        #expect(bob.role == .user)
        #expect(try s.users.authenticate(name: "bob", password: "correct horse") != nil)
        #expect(throws: InviteError.used) {
            try s.invites.register(name: "carol", password: "correct horse", token: token, mode: .invite, users: s.users)
        }
        #expect(try s.users.find(name: "carol") == nil)
        let usedBy = try s.database.pool.read { db in try Int64.fetchOne(db, sql: "SELECT used_by FROM invites") }
        #expect(usedBy == bob.id)
    }

    @Test("expired, unknown and missing invitations are refused; a refused name does not spend the invitation")
    func refusals() throws {
        let s = try Setup()
        let past = Date().addingTimeInterval(-8 * 86_400)
        let (old, _) = try s.invites.create(by: s.admin, days: 7, now: past)
        #expect(throws: InviteError.expired) {
            try s.invites.register(name: "late", password: "correct horse", token: old, mode: .invite, users: s.users)
        }
        // One second before the end it still works.
        let (edge, edgeExpiry) = try s.invites.create(by: s.admin, days: 1)
        try s.invites.check(token: edge, now: edgeExpiry.addingTimeInterval(-1))
        #expect(throws: InviteError.expired) { try s.invites.check(token: edge, now: edgeExpiry) }
        #expect(throws: InviteError.unknown) {
            try s.invites.register(name: "x", password: "correct horse", token: "AAAAAAAAAAAAAAAAAAAAAA", mode: .invite, users: s.users)
        }
        #expect(throws: InviteError.inviteRequired) {
            try s.invites.register(name: "x", password: "correct horse", token: nil, mode: .invite, users: s.users)
        }
        #expect(throws: InviteError.registrationClosed) {
            try s.invites.register(name: "x", password: "correct horse", token: edge, mode: .closed, users: s.users)
        }
        #expect(throws: StoreError.userExists("member")) {
            try s.invites.register(name: "member", password: "correct horse", token: edge, mode: .invite, users: s.users)
        }
        #expect(throws: StoreError.self) {
            try s.invites.register(name: "shorty", password: "short", token: edge, mode: .invite, users: s.users)
        }
        // Still usable after those refusals.
        _ = try s.invites.register(name: "dora", password: "correct horse", token: edge, mode: .invite, users: s.users)
        // Open registration needs no invitation.
        _ = try s.invites.register(name: "eve", password: "correct horse", token: nil, mode: .open, users: s.users)
        #expect(throws: InviteError.invalidLifetime) { try s.invites.create(by: s.admin, days: 0) }
    }

    @Test("a user holds at most 5 unused invitations (the 5th is made, the 6th refused); admins have no limit")
    func perUserLimit() throws {
        let s = try Setup()
        for _ in 0..<InviteStore.maxUnusedPerUser { _ = try s.invites.create(by: s.member) }
        #expect(throws: InviteError.tooMany(5)) { try s.invites.create(by: s.member) }
        for _ in 0..<8 { _ = try s.invites.create(by: s.admin) }
        _ = try s.invites.create(by: nil)
    }
}
