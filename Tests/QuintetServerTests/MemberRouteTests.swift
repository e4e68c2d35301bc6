import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryCore
import Locking
import Logging
@testable import QuintetServer
import QuintetStore
import Testing

/// `/api/library/members` against a MusicBrainz stand-in: a real Hummingbird server on a loopback
/// port answering in MusicBrainz's documented JSON, asked over the server's own HTTP client.
@Suite("/api/library/members", .serialized)
struct MemberRouteTests {
    static let band = "11111111-1111-4111-8111-111111111111"
    static let ada = "22222222-2222-4222-8222-222222222222"

    /// What the stand-in was asked: path and query, User-Agent, when.
    final class Requests: Sendable {
        let list = Lock<[(path: String, agent: String, at: ContinuousClock.Instant)]>([])
        let down = Lock<Bool>(true)
    }

    static func standIn(_ requests: Requests) -> some ApplicationProtocol {
        let router = Router()
        router.get("ws/2/artist") { request, _ -> Response in
            requests.list.withLock { $0.append((request.uri.description, request.headers[.userAgent] ?? "", .now)) }
            if requests.down.withLock({ $0 }) { return Response(status: .serviceUnavailable) }
            let query = request.uri.queryParameters.get("query") ?? ""
            let body = query == #"artist:"The Paper Boats""# ? #"""
                {"created": "2026-11-26T20:00:00.000Z", "count": 1, "offset": 0, "artists": [
                 {"id": "\#(band)", "type": "Group", "score": 100, "name": "The Paper Boats", "sort-name": "Paper Boats, The"}]}
                """# : #"{"count": 0, "offset": 0, "artists": []}"#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("ws/2/artist/:id") { request, context -> Response in
            requests.list.withLock { $0.append((request.uri.description, request.headers[.userAgent] ?? "", .now)) }
            guard context.parameters.get("id") == band, request.uri.queryParameters.get("inc") == "artist-rels" else {
                return Response(status: .notFound)
            }
            let body = #"""
                {"id": "\#(band)", "name": "The Paper Boats", "type": "Group", "disambiguation": "", "relations": [
                 {"type": "member of band", "type-id": "5be4c609-9afa-4ea0-910b-12ffb71e3821", "direction": "backward",
                  "target-type": "artist", "attributes": ["original"], "begin": "1990", "end": null, "ended": false,
                  "artist": {"id": "\#(ada)", "name": "Ada North", "sort-name": "North, Ada", "disambiguation": "", "type": "Person"}}]}
                """#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test("a failed lookup shows as failed and a retry through the API finds the members; one request a second; a real User-Agent")
    func lookupFailRetry() async throws {
        let requests = Requests()
        try await Self.standIn(requests).test(.live) { standIn in
            let port = try #require(standIn.port)
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-members-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: base) }
            let database = try QuintetApplication.openDatabase(in: base.appendingPathComponent("data"))
            let auth = Authenticator(database: database, bcryptCost: 4)
            try auth.users.create(name: "ada", password: "correct horse")
            let library = LibraryService(database: database, libraryDirectory: base, logger: Logger(label: "test"), analyzesBPM: false,
                                         musicBrainz: .on(URL(string: "http://127.0.0.1:\(port)")!))
            try library.catalog.fillForBenchmark([
                .init(id: 1, title: "Harbour", artists: ["The Paper Boats"], composers: [], albumID: 1, duration: 100),
                .init(id: 2, title: "Alone", artists: ["Ada North"], composers: [], albumID: 2, duration: 100),
                .init(id: 3, title: "Echo", artists: ["Ben South"], composers: [], albumID: 3, duration: 100),
            ])
            let bandID = try library.catalog.artist(.name("The Paper Boats")).id, adaID = try library.catalog.artist(.name("Ada North")).id
            let benID = try library.catalog.artist(.name("Ben South")).id
            let router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory, library: library, auth: auth)
            let lookups = Task { await library.members.run() } // the queue, as the service runs it
            defer { lookups.cancel() }
            let basic: HTTPFields = [.authorization: "Basic " + Data("ada:correct horse".utf8).base64EncodedString()]
            try await Application(router: router).test(.router) { client in
                func json(_ uri: String, _ method: HTTPRequest.Method = .get, body: String? = nil) async throws -> (HTTPResponse.Status, [String: Any]) {
                    try await client.execute(uri: uri, method: method, headers: basic, body: body.map { ByteBuffer(string: $0) }) { response in
                        (response.status, (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:])
                    }
                }
                // First shown: queued, then failed (the stand-in is down).
                var (status, body) = try await json("/api/library/members?artist=\(bandID)")
                #expect(status == .ok)
                #expect(["pending", "failed"].contains((body["lookup"] as? [String: Any])?["state"] as? String))
                try await waitUntil("the queued lookup failed", timeout: .seconds(30)) {
                    (try? library.members.state(artistID: bandID))?.name == "failed"
                }
                (_, body) = try await json("/api/library/members?artist=ar-\(bandID)")
                let lookup = try #require(body["lookup"] as? [String: Any])
                #expect(lookup["state"] as? String == "failed" && (lookup["message"] as? String)?.contains("503") == true)
                #expect((body["members"] as? [Any])?.isEmpty == true)

                // Retry with the stand-in up: search, then the artist with its relations.
                requests.down.withLock { $0 = false }
                (status, body) = try await json("/api/library/members/lookup?artist=\(bandID)", .post)
                #expect(status == .ok)
                #expect((body["lookup"] as? [String: Any])?["state"] as? String == "ok")
                let members = try #require(body["members"] as? [[String: Any]])
                #expect(members.count == 1 && members.first?["id"] as? Int == Int(adaID) && members.first?["sources"] as? [String] == ["musicbrainz"])

                // A user relation merges with it.
                (status, body) = try await json("/api/library/members", .post, body: #"{"band": \#(bandID), "member": "ada north"}"#)
                #expect(status == .created && body["sources"] as? [String] == ["musicbrainz", "user"])
                (status, body) = try await json("/api/library/members", .post, body: #"{"band": "The Paper Boats", "member": "Ben South"}"#)
                #expect(status == .created && body["sources"] as? [String] == ["user"])
                // The graph: the band's node carries its lookup state, its members are member_of neighbours.
                (status, body) = try await json("/api/library/graph/expand?node=artist:\(bandID)")
                #expect(status == .ok && (body["node"] as? [String: Any])?["lookup"] as? String == "ok")
                let linked = (body["neighbours"] as? [[String: Any]] ?? []).filter { $0["edge"] as? String == "member_of" }
                #expect(Set(linked.compactMap { $0["id"] as? Int }) == [Int(adaID), Int(benID)])
                #expect(linked.allSatisfy { $0["lookup"] as? String == "pending" }, "shown for the first time: queued")
                (_, body) = try await json("/api/library/members?artist=\(benID)")
                #expect((body["bands"] as? [[String: Any]])?.first?["name"] as? String == "The Paper Boats")
                (_, body) = try await json("/api/library/members")
                #expect((body["links"] as? [Any])?.count == 2 && (body["user"] as? [Any])?.count == 2)
                (status, _) = try await json("/api/library/members/\(bandID)/\(benID)", .delete)
                #expect(status == .noContent)
                (status, _) = try await json("/api/library/members/\(bandID)/\(benID)", .delete)
                #expect(status == .notFound)

                // Bad input: clear 4xx.
                for (uri, method, payload, expected) in [
                    ("/api/library/members", HTTPRequest.Method.post, #"{"band": "The Paper Boats", "member": "Nobody"}"#, HTTPResponse.Status.notFound),
                    ("/api/library/members", .post, #"{"band": true, "member": "Ada North"}"#, .badRequest),
                    ("/api/library/members", .post, #"{"band": "The Paper Boats"}"#, .badRequest),
                    ("/api/library/members", .post, "not json", .badRequest),
                    ("/api/library/members", .post, #"{"band": "Ada North", "member": "ada north"}"#, .badRequest),
                    ("/api/library/members?artist=abc", .get, nil, .badRequest),
                    ("/api/library/members?artist=999999", .get, nil, .notFound),
                    ("/api/library/members/lookup", .post, nil, .badRequest),
                    ("/api/library/members/x/1", .delete, nil, .badRequest),
                ] {
                    let (status, body) = try await json(uri, method, body: payload)
                    #expect(status == expected, "\(method) \(uri) \(payload ?? "")")
                    #expect(body["error"] != nil)
                }
            }
            // The first three: the failed search, then the retry's search and lookup (the artists
            // shown later may be looked up after them).
            let all = requests.list.withLock { $0 }
            let asked = Array(all.prefix(3))
            #expect(asked.count == 3)
            #expect(asked.map { URLComponents(string: $0.path)?.path } == ["/ws/2/artist", "/ws/2/artist", "/ws/2/artist/\(Self.band)"])
            #expect(asked.allSatisfy { $0.agent.hasPrefix("Quintet/\(QuintetVersion.current) ( ") && $0.agent.hasSuffix(" )") })
            #expect(asked.last?.path == "/ws/2/artist/\(Self.band)?inc=artist-rels&fmt=json")
            for (earlier, later) in zip(all, all.dropFirst()) {
                #expect(later.at - earlier.at >= .milliseconds(990), "requests less than a second apart")
            }
        }
    }
}
