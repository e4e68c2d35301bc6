import Crowd
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QuintetServer
import Testing

@Suite("Crowd routes", .serialized)
struct CrowdRouteTests {
    static let lat = 45.4642, lon = 9.19

    @Test("a report joins people within 10 m, answers its location and the search; GET search agrees", arguments: CrowdStoreKind.allCases)
    func reportAndSearch(kind: CrowdStoreKind) async throws {
        let s = try await CrowdServer.make(kind)
        try await Application(router: s.router).test(.router) { client in
            let (bLat, bLon) = CrowdHTTP.offset(Self.lat, Self.lon, north: 3, east: 4)
            let (cLat, cLon) = CrowdHTTP.offset(Self.lat, Self.lon, north: 100, east: 0)
            let a = try CrowdHTTP.json(try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon, "age": 30, "sex": "m"]))
            let b = try CrowdHTTP.json(try await CrowdHTTP.report(client, ["device": "b", "lat": bLat, "lon": bLon, "age": 41, "sex": "f"]))
            let own = try #require(a["location"] as? [String: Any])
            let joined = try #require(b["location"] as? [String: Any])
            #expect(own["id"] as? Int == joined["id"] as? Int)
            #expect(joined["people"] as? Int == 2)
            #expect(joined["lat"] as? Double == Self.lat && joined["lon"] as? Double == Self.lon)
            let response = try await CrowdHTTP.report(client, ["device": "c", "lat": cLat, "lon": cLon, "radius": 150])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let c = try CrowdHTTP.json(response)
            #expect(c["truncated"] as? Bool == false)
            let list = try #require(c["locations"] as? [[String: Any]])
            #expect(list.count == 2)
            // Ordered by distance: c's own location first (0 m), then the pair at ~100 m.
            #expect(list.first?["people"] as? Int == 1)
            #expect(list.first?["avg_age"] is NSNull)
            let pair = try #require(list.last)
            #expect(pair["people"] as? Int == 2 && pair["men"] as? Int == 1 && pair["women"] as? Int == 1)
            #expect(pair["avg_age"] as? Double == 35.5)
            let expected = CrowdRules.distance(lat1: cLat, lon1: cLon, lat2: Self.lat, lon2: Self.lon)
            #expect(pair["distance_m"] as? Double == expected)

            let query = "/api/crowd/locations?lat=\(cLat)&lon=\(cLon)&radius=150"
            let search = try CrowdHTTP.json(try await client.execute(uri: query, method: .get))
            let searched = try #require(search["locations"] as? [[String: Any]])
            #expect(searched.map { $0["id"] as? Int } == list.map { $0["id"] as? Int })
            #expect(searched.last?["distance_m"] as? Double == expected)
            // A radius that does not reach the pair, and min 2 that drops c's own location.
            let near = try CrowdHTTP.json(try await client.execute(uri: "/api/crowd/locations?lat=\(cLat)&lon=\(cLon)&radius=50", method: .get))
            #expect((near["locations"] as? [[String: Any]])?.count == 1)
            let crowded = try CrowdHTTP.json(try await client.execute(uri: query + "&min=2", method: .get))
            #expect((crowded["locations"] as? [[String: Any]])?.map { $0["people"] as? Int } == [2])
            // limit 1 keeps the most crowded and says so.
            let cut = try CrowdHTTP.json(try await client.execute(uri: query + "&limit=1", method: .get))
            #expect(cut["truncated"] as? Bool == true)
            #expect((cut["locations"] as? [[String: Any]])?.map { $0["people"] as? Int } == [2])
        }
        await s.remove()
    }

    @Test("GeoJSON: FeatureCollections with [lon, lat] and a Feature for one location", arguments: CrowdStoreKind.allCases)
    func geoJSON(kind: CrowdStoreKind) async throws {
        let s = try await CrowdServer.make(kind)
        try await Application(router: s.router).test(.router) { client in
            let geo: HTTPFields = [.contentType: "application/json", .accept: "application/geo+json"]
            let response = try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon, "age": 20], headers: geo)
            #expect(response.headers[.contentType] == "application/geo+json")
            let collection = try CrowdHTTP.json(response)
            #expect(collection["type"] as? String == "FeatureCollection")
            #expect((collection["location"] as? [String: Any])?["people"] as? Int == 1)
            let feature = try #require((collection["features"] as? [[String: Any]])?.first)
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            #expect(geometry["coordinates"] as? [Double] == [Self.lon, Self.lat])
            #expect((feature["properties"] as? [String: Any])?["avg_age"] as? Double == 20)
            let id = try #require(feature["id"] as? Int)

            let search = try await client.execute(uri: "/api/crowd/locations?lat=\(Self.lat)&lon=\(Self.lon)", method: .get, headers: [.accept: "application/geo+json"])
            #expect(search.headers[.contentType] == "application/geo+json")
            let found = try CrowdHTTP.json(search)
            #expect(found["type"] as? String == "FeatureCollection" && found["truncated"] as? Bool == false)
            #expect((found["features"] as? [[String: Any]])?.count == 1)

            let one = try CrowdHTTP.json(try await client.execute(uri: "/api/crowd/locations/\(id)", method: .get, headers: [.accept: "application/geo+json"]))
            #expect(one["type"] as? String == "Feature" && one["id"] as? Int == id)
            #expect((one["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [Self.lon, Self.lat])
            #expect((one["properties"] as? [String: Any])?["comments"] as? [Any] != nil)
        }
        await s.remove()
    }

    @Test("a location's detail: statistics and comments newest first, at most 10; 404 and 400 ids", arguments: CrowdStoreKind.allCases)
    func detail(kind: CrowdStoreKind) async throws {
        let s = try await CrowdServer.make(kind)
        try await Application(router: s.router).test(.router) { client in
            var id = 0
            for i in 0..<12 {
                s.clock.advance(1)
                let answer = try CrowdHTTP.json(try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon,
                                                                                    "age": 50, "sex": "f", "comment": "hello \"\(i)\" & ciao"]))
                id = try #require((answer["location"] as? [String: Any])?["id"] as? Int)
            }
            let response = try await client.execute(uri: "/api/crowd/locations/\(id)", method: .get)
            #expect(response.status == .ok)
            let detail = try CrowdHTTP.json(response)
            #expect(detail["people"] as? Int == 1 && detail["women"] as? Int == 1 && detail["men"] as? Int == 0)
            #expect(detail["avg_age"] as? Double == 50)
            let comments = try #require(detail["comments"] as? [[String: Any]])
            #expect(comments.count == 10)
            #expect(comments.first?["text"] as? String == "hello \"11\" & ciao")
            #expect(comments.last?["text"] as? String == "hello \"2\" & ciao")
            #expect(comments.first?["time"] as? String == "2027-01-15T08:00:12.000Z")
            #expect(comments.first?["author"] == nil && comments.first?["device"] == nil)

            let missing = try await client.execute(uri: "/api/crowd/locations/\(id + 1000)", method: .get)
            #expect(missing.status == .notFound)
            for bad in ["abc", "0", "-3", "1.5"] {
                let response = try await client.execute(uri: "/api/crowd/locations/\(bad)", method: .get)
                #expect(response.status == .badRequest)
                #expect(try CrowdHTTP.error(response)["field"] as? String == "id")
            }
        }
        await s.remove()
    }

    @Test("every bad field is a 400 naming it, and changes nothing", arguments: CrowdStoreKind.allCases)
    func badInput(kind: CrowdStoreKind) async throws {
        let s = try await CrowdServer.make(kind)
        try await Application(router: s.router).test(.router) { client in
            let (nearLat, nearLon) = CrowdHTTP.offset(Self.lat, Self.lon, north: 50, east: 0)
            try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon, "age": 30, "comment": "first"])
            let before = kind == .sqlite ? try await s.counts() : nil
            let searchURI = "/api/crowd/locations?lat=\(Self.lat)&lon=\(Self.lon)"
            let searchBefore = String(buffer: try await client.execute(uri: searchURI, method: .get).body)
            let good: [String: Any] = ["device": "a", "lat": nearLat, "lon": nearLon]
            func with(_ key: String, _ value: Any?) -> [String: Any] {
                var body = good
                body[key] = value
                return body
            }
            let cases: [([String: Any], String)] = [
                (with("device", nil), "device"),
                (with("device", ""), "device"),
                (with("device", String(repeating: "x", count: 65)), "device"),
                (with("device", 12), "device"),
                (with("lat", nil), "lat"),
                (with("lat", 90.0001), "lat"),
                (with("lat", -91), "lat"),
                (with("lat", "45"), "lat"),
                (with("lat", true), "lat"),
                (with("lon", 180.5), "lon"),
                (with("lon", -1e9), "lon"),
                (with("lon", nil), "lon"),
                (with("age", 151), "age"),
                (with("age", -1), "age"),
                (with("age", 30.5), "age"),
                (with("age", "30"), "age"),
                (with("sex", "x"), "sex"),
                (with("sex", 1), "sex"),
                (with("comment", ""), "comment"),
                (with("comment", String(repeating: "é", count: 201)), "comment"),
                (with("comment", "<script>alert(1)</script>"), "comment"),
                (with("comment", "a > b"), "comment"),
                (with("comment", "line\nbreak"), "comment"),
                (with("comment", "bell\u{7}"), "comment"),
                (with("comment", ["x"]), "comment"),
                (with("radius", 0), "radius"),
                (with("radius", 1e9), "radius"),
                (with("radius", 14), "radius"),
                (with("radius", 2001), "radius"),
                (with("radius", 200.5), "radius"),
                (with("min", 0), "min"),
                (with("max", 101), "max"),
                (with("min", 5).merging(["max": 4]) { $1 }, "min"),
                (with("limit", 0), "limit"),
                (with("limit", 20_001), "limit"),
            ]
            for (body, field) in cases {
                let response = try await CrowdHTTP.report(client, body)
                #expect(response.status == .badRequest, "\(field): \(body)")
                let error = try CrowdHTTP.error(response)
                #expect(error["field"] as? String == field, "\(body)")
                #expect(error["code"] as? String == "invalid_input")
            }
            // Bodies JSON cannot hold: NaN and Infinity literals, 1e400, not an object, no body.
            for (text, field) in [("{\"device\":\"a\",\"lat\":NaN,\"lon\":9}", "body"),
                                  ("{\"device\":\"a\",\"lat\":Infinity,\"lon\":9}", "body"),
                                  ("{\"device\":\"a\",\"lat\":-Infinity,\"lon\":9}", "body"),
                                  ("{\"device\":\"a\",\"lat\":1e400,\"lon\":9}", "lat"),
                                  ("[1, 2]", "body"), ("", "body"), ("{\"device\": \"a\",", "body")] {
                let response = try await CrowdHTTP.raw(client, text)
                #expect(response.status == .badRequest, "\(text)")
                #expect(try CrowdHTTP.error(response)["field"] as? String == field, "\(text)")
            }
            // Query strings: nan, inf, out of range, non-integers, min > max, missing.
            let queries: [(String, String)] = [
                ("lat=nan&lon=9", "lat"), ("lat=inf&lon=9", "lat"), ("lat=-Infinity&lon=9", "lat"), ("lat=45&lon=NaN", "lon"),
                ("lat=91&lon=9", "lat"), ("lat=45&lon=181", "lon"), ("lon=9", "lat"), ("lat=45", "lon"), ("lat=0x10&lon=9", "lat"),
                ("lat=45&lon=9&radius=0", "radius"), ("lat=45&lon=9&radius=1000000000", "radius"), ("lat=45&lon=9&radius=20.5", "radius"),
                ("lat=45&lon=9&min=6&max=5", "min"), ("lat=45&lon=9&max=abc", "max"), ("lat=45&lon=9&limit=20001", "limit"),
                ("lat=45&lon=9&limit=", "limit"),
            ]
            for (query, field) in queries {
                let response = try await client.execute(uri: "/api/crowd/locations?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                #expect(try CrowdHTTP.error(response)["field"] as? String == field, "\(query)")
            }
            #expect(try await (kind == .sqlite ? s.counts() : nil) == before)
            let searchAfter = String(buffer: try await client.execute(uri: searchURI, method: .get).body)
            #expect(searchAfter == searchBefore)
            #expect(searchAfter.contains("\"distance_m\":0.0"))
            // The device did not move: a report at its place still finds it alone, with its comment.
            let id = try #require((try CrowdHTTP.json(try await client.execute(uri: searchURI, method: .get))["locations"] as? [[String: Any]])?.first?["id"] as? Int)
            let detail = try CrowdHTTP.json(try await client.execute(uri: "/api/crowd/locations/\(id)", method: .get))
            #expect((detail["comments"] as? [[String: Any]])?.map { $0["text"] as? String } == ["first"])
        }
        await s.remove()
    }

    @Test("a 1 MB comment is a 400 naming comment; another oversized body a 413; neither changes anything")
    func oversized() async throws {
        let s = try await CrowdServer.make()
        try await Application(router: s.router).test(.router) { client in
            let megabyte = String(repeating: "a", count: 1_048_576)
            let response = try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon, "comment": megabyte])
            #expect(response.status == .badRequest)
            #expect(try CrowdHTTP.error(response)["field"] as? String == "comment")
            let token = try await CrowdHTTP.report(client, ["device": megabyte, "lat": Self.lat, "lon": Self.lon])
            #expect(token.status == .badRequest)
            #expect(try CrowdHTTP.error(token)["field"] as? String == "device")
            let padding = try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon,
                                                              "padding": Array(repeating: 1, count: 20_000)])
            #expect(padding.status == .contentTooLarge)
            #expect(try CrowdHTTP.error(padding)["field"] as? String == "body")
            #expect(try await s.counts() == CrowdCounts(devices: 0, locations: 0, comments: 0))
            // Just under the limit is read and judged on its fields.
            let fine = try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon,
                                                           "padding": String(repeating: "p", count: 15_000)])
            #expect(fine.status == .ok)
        }
        await s.remove()
    }

    @Test("rate limit: 429 with Retry-After per device and per address, nothing changes, and the next minute resets it", arguments: CrowdStoreKind.allCases)
    func rateLimit(kind: CrowdStoreKind) async throws {
        let s = try await CrowdServer.make(kind, rateLimit: 3)
        try await Application(router: s.router).test(.router) { client in
            func from(_ address: String) -> HTTPFields { [.contentType: "application/json", CrowdPeer.field: address] }
            for _ in 0..<3 {
                let ok = try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon], headers: from("10.0.0.1"))
                #expect(ok.status == .ok)
            }
            let (farLat, farLon) = CrowdHTTP.offset(Self.lat, Self.lon, north: 500, east: 0)
            let limited = try await CrowdHTTP.report(client, ["device": "a", "lat": farLat, "lon": farLon], headers: from("10.0.0.2"))
            #expect(limited.status == .tooManyRequests)
            #expect(try CrowdHTTP.error(limited)["code"] as? String == "rate_limited")
            let wait = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((1...60).contains(wait))
            // The refused report did not move the device.
            let here = try CrowdHTTP.json(try await client.execute(uri: "/api/crowd/locations?lat=\(Self.lat)&lon=\(Self.lon)&radius=15", method: .get))
            #expect((here["locations"] as? [[String: Any]])?.count == 1)
            // Address 10.0.0.1 is spent too, for any device; another address and device is not.
            let sameAddress = try await CrowdHTTP.report(client, ["device": "b", "lat": farLat, "lon": farLon], headers: from("10.0.0.1"))
            #expect(sameAddress.status == .tooManyRequests)
            let other = try await CrowdHTTP.report(client, ["device": "b", "lat": farLat, "lon": farLon], headers: from("10.0.0.3"))
            #expect(other.status == .ok)
            // Searches are not limited.
            let search = try await client.execute(uri: "/api/crowd/locations?lat=\(Self.lat)&lon=\(Self.lon)", method: .get, headers: from("10.0.0.1"))
            #expect(search.status == .ok)
            s.clock.advance(TimeInterval(wait))
            let again = try await CrowdHTTP.report(client, ["device": "a", "lat": farLat, "lon": farLon], headers: from("10.0.0.1"))
            #expect(again.status == .ok)
        }
        await s.remove()
    }

    @Test("minimum group: a location of 2 is hidden at k = 3 (search, detail, own count) and shown at k = 1", arguments: CrowdStoreKind.allCases)
    func minimumGroup(kind: CrowdStoreKind) async throws {
        for k in [3, 1] {
            let s = try await CrowdServer.make(kind, minGroup: k)
            try await Application(router: s.router).test(.router) { client in
                try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon])
                let (bLat, bLon) = CrowdHTTP.offset(Self.lat, Self.lon, north: 5, east: 0)
                let b = try CrowdHTTP.json(try await CrowdHTTP.report(client, ["device": "b", "lat": bLat, "lon": bLon]))
                let own = try #require(b["location"] as? [String: Any])
                let id = try #require(own["id"] as? Int)
                let listed = (b["locations"] as? [[String: Any]])?.count
                let detail = try await client.execute(uri: "/api/crowd/locations/\(id)", method: .get)
                let search = try CrowdHTTP.json(try await client.execute(uri: "/api/crowd/locations?lat=\(Self.lat)&lon=\(Self.lon)", method: .get))
                if k == 3 {
                    #expect(own["people"] is NSNull)
                    #expect(listed == 0)
                    #expect((search["locations"] as? [[String: Any]])?.isEmpty == true)
                    #expect(detail.status == .notFound)
                    // A third person makes the group visible.
                    let c = try CrowdHTTP.json(try await CrowdHTTP.report(client, ["device": "c", "lat": Self.lat, "lon": Self.lon]))
                    #expect((c["location"] as? [String: Any])?["people"] as? Int == 3)
                    #expect((c["locations"] as? [[String: Any]])?.first?["people"] as? Int == 3)
                    #expect(try await client.execute(uri: "/api/crowd/locations/\(id)", method: .get).status == .ok)
                } else {
                    #expect(own["people"] as? Int == 2)
                    #expect(listed == 1)
                    #expect((search["locations"] as? [[String: Any]])?.first?["people"] as? Int == 2)
                    #expect(detail.status == .ok)
                }
            }
            await s.remove()
        }
    }

    @Test("the device token is never stored: only its keyed hash reaches the database file")
    func tokenNotStored() async throws {
        let s = try await CrowdServer.make()
        let token = "secret-phone-token-7f3a9c"
        try await Application(router: s.router).test(.router) { client in
            for i in 0..<5 {
                let response = try await CrowdHTTP.report(client, ["device": token, "lat": Self.lat + Double(i) * 0.001, "lon": Self.lon,
                                                                   "comment": "step \(i)"])
                #expect(response.status == .ok)
                #expect(!String(buffer: response.body).contains(token))
            }
        }
        await s.backend.close()
        var bytes = Data()
        let files = try FileManager.default.contentsOfDirectory(atPath: s.data.path).filter { $0.hasPrefix("crowd.sqlite") }
        #expect(files.contains("crowd.sqlite"))
        for name in files { bytes.append(try Data(contentsOf: s.data.appendingPathComponent(name))) }
        #expect(bytes.count > 0)
        #expect(String(decoding: bytes, as: UTF8.self).contains("step 4"))  // the file is readable as text
        #expect(bytes.range(of: Data(token.utf8)) == nil)
        // The keyed hash is there instead, and the secret is private.
        let key = CrowdDeviceKeys(secret: Array(try Data(contentsOf: s.data.appendingPathComponent(CrowdDeviceKeys.fileName))))
        #expect(bytes.range(of: Data(key.key(for: token).bytes)) != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: s.data.appendingPathComponent(CrowdDeviceKeys.fileName).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try? FileManager.default.removeItem(at: s.data)
    }

    @Test("expiry: a device silent for longer than the expiry no longer counts", arguments: CrowdStoreKind.allCases)
    func expiry(kind: CrowdStoreKind) async throws {
        let s = try await CrowdServer.make(kind, expiry: 90)
        try await Application(router: s.router).test(.router) { client in
            try await CrowdHTTP.report(client, ["device": "a", "lat": Self.lat, "lon": Self.lon])
            let uri = "/api/crowd/locations?lat=\(Self.lat)&lon=\(Self.lon)"
            s.clock.advance(90)
            #expect((try CrowdHTTP.json(try await client.execute(uri: uri, method: .get))["locations"] as? [Any])?.count == 1)
            s.clock.advance(1)
            #expect((try CrowdHTTP.json(try await client.execute(uri: uri, method: .get))["locations"] as? [Any])?.count == 0)
        }
        await s.remove()
    }

    @Test("the OpenAPI document is valid JSON and describes every route, field and parameter the server takes")
    func openAPI() async throws {
        let s = try await CrowdServer.make()
        try await Application(router: s.router).test(.router) { client in
            let response = try await client.execute(uri: "/api/crowd/openapi.json", method: .get)
            #expect(response.status == .ok)
            let document = try CrowdHTTP.json(response)
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            #expect(paths["/api/crowd/reports"]?["post"] != nil)
            #expect(paths["/api/crowd/locations"]?["get"] != nil)
            #expect(paths["/api/crowd/locations/{id}"]?["get"] != nil)
            #expect(paths["/api/crowd/openapi.json"]?["get"] != nil)
            let components = try #require(document["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: [String: Any]])
            let report = try #require(schemas["Report"]?["properties"] as? [String: Any])
            #expect(Set(report.keys) == ["device", "lat", "lon", "age", "sex", "comment", "radius", "min", "max", "limit"])
            let search = try #require((paths["/api/crowd/locations"]?["get"] as? [String: Any])?["parameters"] as? [[String: Any]])
            #expect(Set(search.compactMap { $0["name"] as? String }) == ["lat", "lon", "radius", "min", "max", "limit"])
            let location = try #require(schemas["Location"]?["properties"] as? [String: Any])
            #expect(Set(location.keys) == ["id", "lat", "lon", "people", "avg_age", "men", "women", "distance_m"])
            // Every $ref points at a component that exists.
            let text = String(buffer: response.body)
            let refs = text.split(separator: "\"$ref\": \"#/components/").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(!refs.isEmpty)
            for ref in refs {
                let parts = ref.split(separator: "/")
                let group = try #require(components[String(parts[0])] as? [String: Any])
                #expect(group[String(parts[1])] != nil, "\(ref)")
            }
            // Every field the decoder names in a 400 is described in the error schema.
            let field = try #require(((schemas["Error"]?["properties"] as? [String: Any])?["error"] as? [String: Any])?["properties"] as? [String: [String: Any]])
            let described = try #require(field["field"]?["description"] as? String)
            for name in ["device", "lat", "lon", "age", "sex", "comment", "radius", "min", "max", "limit", "id", "body"] {
                #expect(described.contains(name))
            }
        }
        await s.remove()
    }
}
