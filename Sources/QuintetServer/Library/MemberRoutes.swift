import Foundation
import Hummingbird
import LibraryCore

/// `/api/library/members`: band ↔ member links (docs/graph.md, "Band members").
///
/// - `GET /api/library/members`: every link (`links`, each with its sources) and the relations
///   users added (`user`).
/// - `GET /api/library/members?artist=ID`: one artist's members and bands, and its MusicBrainz
///   lookup state (`lookup.state`: none, pending, off, ok, not_found, ambiguous, failed); asking
///   queues the lookup when it never ran (the artist is being shown).
/// - `POST /api/library/members` `{"band": …, "member": …}` (names as strings, artist ids as
///   numbers): adds a user relation between two artists of the library (201 with the link).
/// - `DELETE /api/library/members/{band}/{member}` (artist ids): removes a user relation (204).
/// - `POST /api/library/members/lookup?artist=ID`: looks the artist up again now (the "tap to
///   retry" of a failed lookup) and answers as `GET ?artist=ID`.
enum MemberRoutes {
    static let maxBodyBytes = 4096

    struct ArtistRef: Encodable { let id: Int64; let name: String }
    struct Linked: Encodable { let id: Int64; let name: String; let sources: [String] }
    struct Lookup: Encodable {
        let state: String
        let date: Date?
        let message: String?
        let candidates: [MusicBrainzCandidate]?

        init(_ state: MemberLookupState) {
            self.state = state.name
            date = state.date
            if case .failed(let text, _) = state { message = text } else { message = nil }
            if case .ambiguous(let list, _) = state { candidates = list } else { candidates = nil }
        }
    }
    struct ArtistMembers: Encodable {
        let artist: ArtistRef
        let lookup: Lookup
        let members: [Linked]
        let bands: [Linked]
    }
    struct Link: Encodable {
        let band: Int64, bandName: String, member: Int64, memberName: String, sources: [String]
    }
    struct All: Encodable { let links: [Link]; let user: [UserMemberRelation] }

    static func add(to api: RouterGroup<QuintetRequestContext>, library: LibraryService) {
        let catalog = library.catalog
        let lookups = library.members
        api.get("members") { request, _ -> Response in
            if let id = try artistParameter(request) {
                return try APIJSON.response(try await LibraryRoutes.catalogWork {
                    if case .notLookedUp = try lookups.state(artistID: id) { lookups.request(artistID: id) }
                    return try members(of: id, catalog: catalog, lookups: lookups)
                })
            }
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                let names = Dictionary(uniqueKeysWithValues: try catalog.artists(userID: nil).map { ($0.id, $0.name) })
                let links = try catalog.memberLinks().map {
                    Link(band: $0.band, bandName: names[$0.band] ?? "", member: $0.member, memberName: names[$0.member] ?? "",
                         sources: $0.sources)
                }
                return All(links: links, user: try catalog.userMemberRelations())
            })
        }
        api.post("members") { request, _ -> Response in
            let (band, member) = try parse(try await body(request.body))
            return try APIJSON.response(try await LibraryRoutes.catalogWork {
                let relation = try catalog.addMemberRelation(band: band, member: member)
                let link = try catalog.memberLinks().first { $0.band == relation.bandID && $0.member == relation.memberID }
                return Link(band: relation.bandID ?? 0, bandName: relation.band, member: relation.memberID ?? 0,
                            memberName: relation.member, sources: link?.sources ?? ["user"])
            }, status: .created)
        }
        api.delete("members/:band/:member") { _, context -> Response in
            let band = try context.parameters.id("band"), member = try context.parameters.id("member")
            let removed = try await LibraryRoutes.catalogWork {
                try catalog.removeMemberRelation(band: .id(band), member: .id(member))
            }
            guard removed else {
                throw APIError(.notFound, message: "no relation added by a user makes artist \(member) a member of artist \(band)")
            }
            return Response(status: .noContent)
        }
        api.post("members/lookup") { request, _ -> Response in
            guard let id = try artistParameter(request) else {
                var error = APIError(.badRequest, code: "invalid_input", message: "give the artist to look up: ?artist=ID")
                error.field = "artist"
                throw error
            }
            _ = try await LibraryRoutes.catalogWork { try catalog.artist(id: id) }
            _ = try await lookups.lookUp(artistID: id, retry: true)
            return try APIJSON.response(try await LibraryRoutes.catalogWork { try members(of: id, catalog: catalog, lookups: lookups) })
        }
    }

    /// The body, refused past ``maxBodyBytes`` (413).
    static func body(_ body: RequestBody) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            guard data.count + chunk.readableBytes <= maxBodyBytes else {
                var error = APIError(.contentTooLarge, message: "the body is at most \(maxBodyBytes) bytes: send {\"band\": …, \"member\": …}")
                error.field = "body"
                throw error
            }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return data
    }

    /// `?artist=ID` (an `/api` id, or a Subsonic `ar-ID`), nil when absent; 400 when malformed.
    static func artistParameter(_ request: Request) throws -> Int64? {
        guard let text = FormFields(request.uri.query).get("artist") else { return nil }
        let digits = text.hasPrefix("ar-") ? String(text.dropFirst(3)) : text
        guard let id = Int64(digits), id > 0 else {
            var error = APIError(.badRequest, code: "invalid_input", message: "artist must be an artist id (a positive integer), not '\(text.prefix(40))'")
            error.field = "artist"
            throw error
        }
        return id
    }

    static func members(of id: Int64, catalog: Catalog, lookups: MemberLookups) throws -> ArtistMembers {
        let artist = try catalog.artist(id: id)
        let links = try catalog.memberLinks()
        let ids = Set(links.flatMap { [$0.band, $0.member] })
        let names = Dictionary(uniqueKeysWithValues: try catalog.artists(userID: nil).filter { ids.contains($0.id) }.map { ($0.id, $0.name) })
        return ArtistMembers(
            artist: ArtistRef(id: artist.id, name: artist.name), lookup: Lookup(try lookups.state(artistID: id)),
            members: links.filter { $0.band == id }.map { Linked(id: $0.member, name: names[$0.member] ?? "", sources: $0.sources) },
            bands: links.filter { $0.member == id }.map { Linked(id: $0.band, name: names[$0.band] ?? "", sources: $0.sources) })
    }

    /// `{"band": "The Paper Boats" | 12, "member": "Ada North" | 34}`; 400 naming what is wrong.
    static func parse(_ data: Data) throws -> (band: ArtistReference, member: ArtistReference) {
        func refuse(_ message: String, field: String) -> APIError {
            var error = APIError(.badRequest, code: "invalid_input", message: message)
            error.field = field
            return error
        }
        enum Value: Decodable {
            case id(Int64), name(String), other
            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer()
                if let id = try? value.decode(Int64.self) { self = .id(id) }
                else if let name = try? value.decode(String.self) { self = .name(name) }
                else { self = .other }
            }
        }
        guard let object = try? JSONDecoder().decode([String: Value].self, from: data) else {
            throw refuse("the body must be a JSON object such as {\"band\": \"The Paper Boats\", \"member\": \"Ada North\"}", field: "body")
        }
        func reference(_ field: String) throws -> ArtistReference {
            switch object[field] {
            case .name(let text) where !text.trimmingCharacters(in: .whitespaces).isEmpty:
                guard text.count <= 500 else { throw refuse("\(field) is a name of at most 500 characters", field: field) }
                return .name(text)
            case .id(let id) where id > 0: return .id(id)
            case nil: throw refuse("the body has no \"\(field)\": give an artist name or id", field: field)
            default: throw refuse("\(field) must be an artist name (a non-empty string) or an artist id (a positive integer)", field: field)
            }
        }
        return (try reference("band"), try reference("member"))
    }
}
