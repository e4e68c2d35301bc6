import Foundation
import Hummingbird
import LibraryCore

/// `PUT /api/library/songs/{id}/bpm`: sets a song's BPM by hand, or returns it to the tag's or
/// the analysis's value.
///
/// The body is `{"bpm": 171.5}` (a JSON number from 30 to 300) or `{"bpm": null}`; the answer is
/// the song as `GET /api/library/songs/{id}` shows it (`bpm` the effective value, `bpm_source`
/// `"override"`, `analysed_bpm` the value under it). Any signed-in user may set it, as any user
/// may start a scan through `/api/library`: the override is shared, like the tag it corrects.
/// Not JSON, not an object, no `bpm`, a string, a boolean, a number outside 30–300 or beyond a
/// double (`1e309`): 400 `invalid_input` with `"field": "bpm"` (or `"body"`), nothing stored;
/// a body over ``maxBodyBytes``: 413; an unknown song: 404.
enum BPMOverrideRoute {
    /// The largest body read (`{"bpm": 171.5}` is 13 bytes).
    static let maxBodyBytes = 4096

    static func add(to api: RouterGroup<QuintetRequestContext>, catalog: Catalog) {
        api.put("songs/:id/bpm") { request, context -> Response in
            let user = try context.requireUser()
            let id = try context.parameters.id()
            let bpm = try parse(try await body(request.body))
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                LibraryRoutes.SongView(try catalog.setBPMOverride(songID: id, bpm: bpm, userID: user.id))
            })
        }
    }

    /// The body, refused past ``maxBodyBytes`` (413).
    static func body(_ body: RequestBody) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            guard data.count + chunk.readableBytes <= maxBodyBytes else {
                var error = APIError(.contentTooLarge, message: "the body is at most \(maxBodyBytes) bytes: send {\"bpm\": 171.5} or {\"bpm\": null}")
                error.field = "body"
                throw error
            }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return data
    }

    /// The override a body asks for: a tempo, or nil to remove the override. Throws a 400 naming
    /// what is wrong.
    static func parse(_ data: Data) throws -> Double? {
        enum Refusal: Error { case missing, notANumber }
        struct Body: Decodable {
            enum Keys: String, CodingKey { case bpm }
            let bpm: Double?
            init(from decoder: any Decoder) throws {
                let object = try decoder.container(keyedBy: Keys.self)
                guard object.contains(.bpm) else { throw Refusal.missing }
                if try object.decodeNil(forKey: .bpm) {
                    bpm = nil
                } else {
                    do { bpm = try object.decode(Double.self, forKey: .bpm) } catch { throw Refusal.notANumber }
                }
            }
        }
        let range = Catalog.bpmOverrideRange
        let expected = "a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), or null to return to the analysed value"
        func refuse(_ message: String, field: String = "bpm") -> APIError {
            var error = APIError(.badRequest, code: "invalid_input", message: message)
            error.field = field
            return error
        }
        let bpm: Double?
        do {
            bpm = try JSONDecoder().decode(Body.self, from: data).bpm
        } catch Refusal.missing {
            throw refuse("the body has no \"bpm\": send {\"bpm\": 171.5} (\(expected))")
        } catch Refusal.notANumber {
            throw refuse("bpm must be \(expected)")
        } catch {
            throw refuse("the body must be a JSON object such as {\"bpm\": 171.5} (bpm: \(expected))", field: "body")
        }
        if let bpm, !(bpm.isFinite && range.contains(bpm)) {
            throw refuse("bpm must be \(expected), not \(bpm)")
        }
        return bpm
    }
}
