import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import QuintetServer
import QuintetStore
import Radio
import Testing

/// The follow, discovery, search and profile routes over the whole router: sign-in, statuses,
/// input validation (positions, orders, limits, hostile searches) and what the answers hold.
@Suite("Radio discover routes", .serialized)
struct RadioDiscoverRoutesTests {
    struct Server: @unchecked Sendable {
        let data: URL
        let database: QuintetDatabase
        let router: Router<QuintetRequestContext>
        let show: RadioShow
        static let anna = "Basic " + Data("anna:correct horse".utf8).base64EncodedString()
        static let bruno = "Basic " + Data("bruno:correct horse".utf8).base64EncodedString()

        init() throws {
            data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-discover-\(UUID().uuidString)")
            database = try QuintetApplication.openDatabase(in: data)
            let auth = Authenticator(database: database, bcryptCost: 4)
            let anna = try auth.users.create(name: "anna", password: "correct horse")
            try auth.users.create(name: "bruno", password: "correct horse")
            try database.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO radio_profiles (user_id, display_name, town, latitude, longitude, birth_date, picture, updated_at)
                    VALUES (?, 'Anna', 'Roma', 41.89, 12.47, '1990-01-02', 'radio/p.jpg', ?)
                    """, arguments: [anna.id!, Date()])
            }
            show = try RadioStore(database: database).createShow(owner: anna.id!, .init(title: "Canción de la città"))
            router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, auth: auth)
        }

        func remove() {
            try? database.close()
            try? FileManager.default.removeItem(at: data)
        }
    }

    static func json(_ response: TestResponse) throws -> Any { try JSONSerialization.jsonObject(with: Data(buffer: response.body)) }

    @Test("follow: 401 without sign-in, 204 twice, 400 for oneself, 404 for unknown users and shows; lists and counts")
    func follow() async throws {
        let s = try Server()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            let bruno: HTTPFields = [.authorization: Server.bruno]
            let anna: HTTPFields = [.authorization: Server.anna]
            try await client.execute(uri: "/api/radio/users/anna/follow", method: .put) { #expect($0.status == .unauthorized) }
            for _ in 0..<2 {
                try await client.execute(uri: "/api/radio/users/anna/follow", method: .put, headers: bruno) { #expect($0.status == .noContent) }
                try await client.execute(uri: "/api/radio/shows/\(s.show.id!)/follow", method: .put, headers: bruno) { #expect($0.status == .noContent) }
            }
            try await client.execute(uri: "/api/radio/users/anna/follow", method: .put, headers: anna) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/radio/users/nobody/follow", method: .put, headers: anna) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/radio/shows/999/follow", method: .put, headers: anna) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/radio/shows/abc/follow", method: .put, headers: anna) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/radio/users/anna/followers", method: .get) { response in
                let list = try #require(try Self.json(response) as? [[String: Any]])
                #expect(list.map { $0["name"] as? String } == ["bruno"])
            }
            try await client.execute(uri: "/api/radio/users/bruno/following", method: .get) { response in
                let list = try Self.json(response) as? [[String: Any]]
                #expect(list?.first?["display_name"] as? String == "Anna")
            }
            try await client.execute(uri: "/api/radio/users/anna", method: .get, headers: bruno) { response in
                let p = try #require(try Self.json(response) as? [String: Any])
                #expect(p["followers"] as? Int == 1 && p["followed_by_you"] as? Bool == true)
                #expect(p["latitude"] as? Double == 41.9 && p["longitude"] as? Double == 12.5)
                #expect(p["picture_url"] as? String == "/radio/users/\(p["id"] as? Int ?? 0)/picture")
                #expect(p["birth_date"] == nil && !String(buffer: response.body).contains("1990"))
                let shows = try #require(p["shows"] as? [[String: Any]])
                #expect(shows.first?["following"] as? Bool == true && shows.first?["url"] as? String == "/radio/show/?id=\(s.show.id!)")
            }
            // The show's own answer says how many follow it and whether the viewer does.
            try await client.execute(uri: "/api/radio/shows/\(s.show.id!)", method: .get, headers: bruno) { response in
                let show = try #require(try Self.json(response) as? [String: Any])
                #expect(show["followers"] as? Int == 1 && show["followed_by_you"] as? Bool == true)
            }
            try await client.execute(uri: "/api/radio/shows/\(s.show.id!)", method: .get) { response in
                let show = try #require(try Self.json(response) as? [String: Any])
                #expect(show["followers"] as? Int == 1 && show["followed_by_you"] as? Bool == false)
            }
            try await client.execute(uri: "/api/radio/shows", method: .get) { response in
                let list = try #require(try Self.json(response) as? [[String: Any]])
                #expect(list.allSatisfy { $0["followers"] == nil })   // not counted for every show of a list
            }
            try await client.execute(uri: "/api/radio/users/anna/follow", method: .delete, headers: bruno) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/radio/users/anna", method: .get) { response in
                let p = try #require(try Self.json(response) as? [String: Any])
                #expect(p["followers"] as? Int == 0 && p["followed_by_you"] as? Bool == false)
            }
            try await client.execute(uri: "/api/radio/users/nobody", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("discover: positions validated (400 out of range, NaN, half given), near needs one, favourites and activity need sign-in")
    func discover() async throws {
        let s = try Server()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            for query in ["order=near", "order=near&lat=91&lon=0", "order=near&lat=0&lon=-180.01", "order=near&lat=nan&lon=0",
                          "order=near&lat=1", "order=near&lat=abc&lon=2", "order=near&lat=inf&lon=0", "order=sideways",
                          "order=popular&limit=0", "order=popular&limit=201", "live=maybe"] {
                try await client.execute(uri: "/api/radio/discover/shows?\(query)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(String(buffer: response.body).contains("invalid_input"))
                }
            }
            try await client.execute(uri: "/api/radio/discover/shows?order=near&lat=41.9&lon=12.5", method: .get) { response in
                #expect(response.status == .ok)
                let list = try #require(try Self.json(response) as? [[String: Any]])
                #expect(list.first?["distance_km"] as? Int == 3 && list.first?["stream_key"] == nil)
                #expect(list.first?["url"] as? String == "/radio/show/?id=\(s.show.id!)")
                #expect(!String(buffer: response.body).contains("41.89") && !String(buffer: response.body).contains(s.show.streamKey))
            }
            try await client.execute(uri: "/api/radio/discover/episodes?order=popular", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/radio/discover/shows?order=favourites", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/radio/activity", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/radio/discover/shows?order=favourites", method: .get,
                                     headers: [.authorization: Server.bruno]) { response in
                let list = try Self.json(response) as? [Any]
                #expect(response.status == .ok && list?.isEmpty == true)
            }
            try await client.execute(uri: "/api/radio/activity", method: .get, headers: [.authorization: Server.bruno]) { #expect($0.status == .ok) }
        }
    }

    @Test("search: folded words find the show; hostile queries answer 200; bad kinds 400")
    func search() async throws {
        let s = try Server()
        defer { s.remove() }
        try await Application(router: s.router).test(.router) { client in
            try await client.execute(uri: "/api/radio/search?q=cancion%20citta&kind=shows", method: .get) { response in
                let list = try #require(try Self.json(response) as? [[String: Any]])
                #expect(list.map { $0["id"] as? Int } == [Int(s.show.id!)])
                #expect(list.first?["url"] as? String == "/radio/show/?id=\(s.show.id!)")
            }
            try await client.execute(uri: "/api/radio/search?q=rom&kind=users", method: .get) { response in
                let list = try Self.json(response) as? [[String: Any]]
                #expect(list?.first?["url"] as? String == "/radio/people/?name=anna")
            }
            for q in ["%22", "*", "NEAR(", "a%22%20OR%20%22b", "-", String(repeating: "x", count: 900)] {
                try await client.execute(uri: "/api/radio/search?q=\(q)&kind=episodes", method: .get) { #expect($0.status == .ok, "\(q)") }
            }
            try await client.execute(uri: "/api/radio/search?q=a&kind=planets", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/radio/search?q=\(String(repeating: "y", count: 1001))", method: .get) {
                #expect($0.status == .badRequest)
            }
        }
    }
}
