import AudioCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import QuintetServer
import QuintetStore
import Radio
import Testing

/// A server over a fresh data folder with an admin and a member, under a registration mode.
private struct AccountServer: @unchecked Sendable {
    let data: URL
    let database: QuintetDatabase
    let router: Router<QuintetRequestContext>
    static let admin = "Basic " + Data("boss:correct horse".utf8).base64EncodedString()
    static let member = "Basic " + Data("member:correct horse".utf8).base64EncodedString()

    init(registration: RegistrationMode) throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-accounts-\(UUID().uuidString)")
        database = try QuintetApplication.openDatabase(in: data)
        let auth = Authenticator(database: database, bcryptCost: 4)
        try auth.users.create(name: "boss", password: "correct horse", role: .admin)
        try auth.users.create(name: "member", password: "correct horse")
        router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, auth: auth,
                                               publicURL: "https://radio.example.org", registration: registration)
    }

    func remove() {
        try? database.close()
        try? FileManager.default.removeItem(at: data)
    }
}

/// The JSON object of an answer ([:] when it is none).
private func json(_ response: TestResponse) -> [String: Any] {
    ((try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]) ?? [:]
}

/// The error code of an answer, or nil.
private func code(_ response: TestResponse) -> String? {
    (json(response)["error"] as? [String: Any])?["code"] as? String
}

@Suite("Accounts, profiles and plans routes", .serialized)
struct AccountRouteTests {
    @Test("invite mode: a member's invitation registers once and signs in; reused, unknown and missing are refused")
    func registerByInvite() async throws {
        let s = try AccountServer(registration: .invite)
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            var token = ""
            try await client.execute(uri: "/api/radio/invites", method: .post, headers: [.authorization: AccountServer.member]) { r in
                #expect(r.status == .created)
                let body = json(r)
                token = try #require(body["token"] as? String)
                #expect(body["url"] as? String == "https://radio.example.org/radio/account/?invite=\(token)")
                #expect(body["expires_at"] is String)
            }
            try await client.execute(uri: "/api/radio/invites", method: .post) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"newbie","password":"correct horse"}"#)) { r in
                #expect(r.status == .forbidden)
                #expect(code(r) == "invite_required")
            }
            var cookie = ""
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"newbie","password":"correct horse","invite":"\#(token)"}"#)) { r in
                #expect(r.status == .created)
                cookie = String(try #require(r.headers[.setCookie]).split(separator: ";")[0])
            }
            try await client.execute(uri: "/api/session", method: .get, headers: [.cookie: cookie]) { r in
                #expect(String(buffer: r.body).contains(#""name":"newbie""#))
            }
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"second","password":"correct horse","invite":"\#(token)"}"#)) { r in
                #expect(r.status == .gone)
                #expect(code(r) == "invite_used")
            }
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"third","password":"correct horse","invite":"nope"}"#)) { r in
                #expect(r.status == .notFound)
                #expect(code(r) == "invite_unknown")
            }
            try await client.execute(uri: "/api/register", method: .get) { r in
                #expect(json(r)["registration"] as? String == "invite")
            }
        }
    }

    @Test("closed refuses with 403 registration_closed (and no invitations); open needs none")
    func modes() async throws {
        let closed = try AccountServer(registration: .closed)
        defer { closed.remove() }
        try await Application(router: closed.router).test(.router) { client in
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"x1","password":"correct horse"}"#)) { r in
                #expect(r.status == .forbidden)
                #expect(code(r) == "registration_closed")
            }
            try await client.execute(uri: "/api/radio/invites", method: .post, headers: [.authorization: AccountServer.admin]) { r in
                #expect(r.status == .forbidden)
            }
        }
        let open = try AccountServer(registration: .open)
        defer { open.remove() }
        try await Application(router: open.router).test(.router) { client in
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"x1","password":"correct horse"}"#)) { #expect($0.status == .created) }
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"x1","password":"correct horse"}"#)) { #expect($0.status == .conflict) }
            try await client.execute(uri: "/api/register", method: .post,
                                     body: ByteBuffer(string: #"{"name":"x2","password":"short"}"#)) { #expect($0.status == .badRequest) }
        }
    }

    @Test("password: change needs the current one; an admin resets another user's, a member may not")
    func passwords() async throws {
        let s = try AccountServer(registration: .invite)
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/account/password", method: .post, headers: [.authorization: AccountServer.member],
                                     body: ByteBuffer(string: #"{"current":"wrong one!","new":"brand new pass"}"#)) { r in
                #expect(r.status == .forbidden)
                #expect(code(r) == "wrong_password")
            }
            try await client.execute(uri: "/api/account/password", method: .post, headers: [.authorization: AccountServer.member],
                                     body: ByteBuffer(string: #"{"current":"correct horse","new":"brand new pass"}"#)) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/radio/profile", method: .get, headers: [.authorization: AccountServer.member]) {
                #expect($0.status == .unauthorized)
            }
            let renewed = "Basic " + Data("member:brand new pass".utf8).base64EncodedString()
            try await client.execute(uri: "/api/users/boss/password", method: .post, headers: [.authorization: renewed],
                                     body: ByteBuffer(string: #"{"password":"taken over!"}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/users/member/password", method: .post, headers: [.authorization: AccountServer.admin],
                                     body: ByteBuffer(string: #"{"password":"correct horse"}"#)) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/radio/profile", method: .get, headers: [.authorization: AccountServer.member]) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/users/ghost/password", method: .post, headers: [.authorization: AccountServer.admin],
                                     body: ByteBuffer(string: #"{"password":"correct horse"}"#)) { #expect($0.status == .notFound) }
        }
    }

    @Test("profile: every field listed, edits validated (400 naming the field), plan and usage shown; pictures 422/413")
    func profile() async throws {
        let s = try AccountServer(registration: .invite)
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            let member: HTTPFields = [.authorization: AccountServer.member]
            try await client.execute(uri: "/api/radio/profile", method: .get, headers: member) { r in
                let body = json(r)
                for key in ["display_name", "description", "town", "latitude", "longitude", "birth_date", "sex", "has_picture",
                            "plan", "usage", "followers", "following"] {
                    #expect(body.keys.contains(key), "\(key)")
                }
            }
            try await client.execute(uri: "/api/radio/profile", method: .put, headers: member,
                                     body: ByteBuffer(string: #"{"display_name":"M","latitude":91,"longitude":0}"#)) { r in
                #expect(r.status == .badRequest)
                #expect(String(buffer: r.body).contains("latitude"))
            }
            try await client.execute(uri: "/api/radio/profile", method: .put, headers: member,
                                     body: ByteBuffer(string: #"{"display_name":"M","latitude":45.123,"longitude":7.456,"birth_date":"1980-02-02","sex":"other"}"#)) { r in
                #expect(r.status == .ok)
                let body = json(r)
                #expect(body["latitude"] as? Double == 45.12 && body["display_name"] as? String == "M")
            }
            // Plans: admin only; assigned plan shows on the profile.
            try await client.execute(uri: "/api/radio/plans", method: .post, headers: member,
                                     body: ByteBuffer(string: #"{"name":"free","max_episode_seconds":60}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/radio/plans", method: .post, headers: [.authorization: AccountServer.admin],
                                     body: ByteBuffer(string: #"{"name":"free","max_episode_seconds":60,"max_episodes_online":2}"#)) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/api/users/member/plan", method: .put, headers: [.authorization: AccountServer.admin],
                                     body: ByteBuffer(string: #"{"plan":"free"}"#)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/radio/profile", method: .get, headers: member) { r in
                let plan = try #require(json(r)["plan"] as? [String: Any])
                #expect(plan["name"] as? String == "free" && plan["max_episodes_online"] as? Int == 2)
                #expect(plan["max_storage_bytes"] is NSNull)  // unlimited: present, null
            }
            try await client.execute(uri: "/api/radio/plans/free", method: .put, headers: [.authorization: AccountServer.admin],
                                     body: ByteBuffer(string: #"{"max_episode_seconds":0}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/radio/plans/nope", method: .delete, headers: [.authorization: AccountServer.admin]) {
                #expect($0.status == .notFound)
            }
            // Pictures: fake and too large refused; no picture yet → 404.
            try await client.execute(uri: "/api/radio/profile/picture", method: .put, headers: member,
                                     body: ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 100))) { r in
                #expect(r.status == .unprocessableContent)
                #expect(code(r) == "not_an_image")
            }
            try await client.execute(uri: "/api/radio/profile/picture", method: .put, headers: member,
                                     body: ByteBuffer(bytes: [UInt8](repeating: 0xFF, count: ProfilePicture.maxBytes + 1))) { r in
                #expect(r.status == .contentTooLarge)
            }
            try await client.execute(uri: "/radio/users/2/picture", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/radio/users/2/picture?size=12", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @Test("live: a mount is cut at the smaller of the show's longest episode and the owner's plan's")
    func liveCut() throws {
        let s = try AccountServer(registration: .invite)
        defer { s.remove() }
        let radio = RadioStore(database: s.database)
        let member = try #require(try UserStore(database: s.database, cost: 4).find(name: "member"))
        let show = try radio.createShow(owner: member.id!, .init(title: "Long talk", maxEpisodeSeconds: 7200))
        let directory = StoreRadioDirectory(store: radio)
        #expect(try directory.show(mount: show.mount)?.maxEpisodeSeconds == 7200)  // no plan: the show's
        let plans = RadioPlans(database: s.database)
        try plans.add(name: "short", maxEpisodeSeconds: 1800, isDefault: true)
        #expect(try directory.show(mount: show.mount)?.maxEpisodeSeconds == 1800)  // the plan's, smaller
        try plans.set(name: "short", maxEpisodeSeconds: 9000)
        #expect(try directory.show(mount: show.mount)?.maxEpisodeSeconds == 7200)  // the show's, smaller
    }

    @Test("storage: a mount carries what the plan leaves (to the byte); a full plan refuses an upload before its first byte")
    func storageLeft() async throws {
        let s = try AccountServer(registration: .invite)
        defer { s.remove() }
        let radio = RadioStore(database: s.database, decoder: AudioFileDecoder())
        let member = try #require(try UserStore(database: s.database, cost: 4).find(name: "member"))
        let show = try radio.createShow(owner: member.id!, .init(title: "Mine"))
        let tone = s.data.appendingPathComponent("tone.mp3")
        try FFmpegDecoder().run(["-y", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame", tone.path])
        let episode = try radio.importEpisode(showID: show.id!, file: tone, computePeaks: false)
        let directory = StoreRadioDirectory(store: radio)
        #expect(try directory.show(mount: show.mount)?.storage == nil)   // no plan: no limit
        let plans = RadioPlans(database: s.database)
        try plans.add(name: "small", maxEpisodeSeconds: 60, maxStorageBytes: episode.size + 1000, isDefault: true)
        let left = try #require(try directory.show(mount: show.mount)?.storage)
        #expect(left.bytes == 1000 && left.used == episode.size && left.plan == "small")
        try await Application(router: s.router).test(.router) { client in
            let start = ByteBuffer(string: #"{"type":"audio/webm","title":"Later"}"#)
            try await client.execute(uri: "/api/radio/shows/\(show.id!)/uploads", method: .post,
                                     headers: [.authorization: AccountServer.member], body: start) { r in
                #expect(r.status == .created)   // 1,000 bytes left: an upload may start
            }
            try plans.set(name: "small", maxStorageBytes: episode.size)   // exactly full
            #expect(try directory.show(mount: show.mount)?.storage?.bytes == 0)
            try await client.execute(uri: "/api/radio/shows/\(show.id!)/uploads", method: .post,
                                     headers: [.authorization: AccountServer.member], body: start) { r in
                #expect(r.status == .contentTooLarge && code(r) == "plan_limit")
                let message = (json(r)["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("allows \(episode.size) bytes"))
            }
        }
    }

    @Test("publishing over the plan's episodes online is 422 plan_limit with the figures")
    func planLimitOnPublish() async throws {
        let s = try AccountServer(registration: .invite)
        defer { s.remove() }
        let radio = RadioStore(database: s.database, decoder: AudioFileDecoder())
        let member = try #require(try UserStore(database: s.database, cost: 4).find(name: "member"))
        let show = try radio.createShow(owner: member.id!, .init(title: "Mine", publishAutomatically: false))
        let tone = s.data.appendingPathComponent("tone.mp3")
        try FFmpegDecoder().run(["-y", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame", tone.path])
        try RadioPlans(database: s.database).add(name: "one", maxEpisodeSeconds: 60, maxEpisodesOnline: 1, isDefault: true)
        _ = try radio.importEpisode(showID: show.id!, file: tone, publish: true, computePeaks: false)
        let error = APIError.from(#expect(throws: PlanLimitError.self) {
            try radio.importEpisode(showID: show.id!, file: tone, publish: true, computePeaks: false)
        } ?? PlanLimitError(plan: "", limit: "", used: 0, allowed: 0))
        #expect(error?.status == .unprocessableContent && error?.code == "plan_limit")
        #expect(error?.message.contains("allows 1 episodes online and 1 are") == true)
        let storage = APIError.from(PlanLimitError(plan: "p", limit: "max_storage_bytes", used: 11, allowed: 10))
        #expect(storage?.status == .contentTooLarge && storage?.message.contains("allows 10 bytes") == true)
    }
}
