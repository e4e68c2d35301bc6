import Foundation
import HTTPTypes
import Hummingbird
import LibraryCore
import QuintetStore
import Radio

/// One authenticated Subsonic call: the request, its parameters and who sent it.
struct SubsonicCall: Sendable {
    let request: Request
    let context: QuintetRequestContext
    let params: SubsonicParameters
    let user: User
    var userID: Int64 { user.id ?? 0 }
}

/// What an endpoint answers: a `subsonic-response` document, or bytes (stream, covers).
enum SubsonicReply: Sendable {
    case payload(SubsonicPayload)
    case response(Response)

    static let ok = SubsonicReply.payload(.empty)
    static func payload(_ name: String, _ element: SubsonicElement) -> SubsonicReply { .payload(SubsonicPayload(name, element)) }
}

/// The Subsonic API 1.16.1 with OpenSubsonic extensions under `/rest/` (docs/subsonic.md):
/// `/rest/<endpoint>` and `/rest/<endpoint>.view`, GET, POST (form-encoded) and HEAD.
/// Answers are XML unless `f=json` (or `f=jsonp&callback=…`); errors are `<error>` documents
/// with HTTP 200, as the protocol has it.
struct SubsonicAPI: Sendable {
    static let apiVersion = "1.16.1"
    /// Largest form body read from a POST (a playlist of many thousand songs fits).
    static let maxFormBytes = 2 << 20

    let library: LibraryService
    let auth: SubsonicAuth
    let media: MediaResponder
    /// The radio's shows and episodes (podcasts), in the library's database.
    let radio: RadioStore
    /// Base of absolute URLs (`--public-url`); nil: the request's Host.
    let publicURL: String?
    /// The live mounts (internet radio stations); nil: none.
    let live: LiveRadio?
    var catalog: Catalog { library.catalog }

    static func add(to router: Router<QuintetRequestContext>, library: LibraryService, auth: Authenticator, media: MediaResponder,
                    publicURL: String? = nil, live: LiveRadio? = nil) {
        let api = SubsonicAPI(library: library, auth: SubsonicAuth(authenticator: auth), media: media,
                              radio: RadioStore(database: library.catalog.database),
                              publicURL: publicURL.map(RadioRoutes.trimmedBase), live: live)
        let handle: @Sendable (Request, QuintetRequestContext) async throws -> Response = { request, context in
            await api.handle(request, context: context)
        }
        for method in [HTTPRequest.Method.get, .post, .head] {
            router.on("rest/:endpoint", method: method, use: handle)
        }
    }

    typealias Handler = @Sendable (SubsonicAPI, SubsonicCall) async throws -> SubsonicReply
    /// An endpoint that only reads or writes the catalog (synchronous GRDB): it runs on the
    /// blocking pool (``Blocking``), never on the server's threads.
    typealias BlockingHandler = @Sendable (SubsonicAPI, SubsonicCall) throws -> SubsonicReply

    /// Every endpoint by name.
    static let handlers: [String: Handler] = {
        var table: [String: Handler] = [:]
        for (name, handler) in systemHandlers.merging(browsingHandlers, uniquingKeysWith: { a, _ in a })
            .merging(userHandlers, uniquingKeysWith: { a, _ in a })
            .merging(graphHandlers, uniquingKeysWith: { a, _ in a })
            .merging(podcastHandlers, uniquingKeysWith: { a, _ in a }) {
            table[name] = { api, call in try await Blocking.run { try handler(api, call) } }
        }
        for (name, handler) in mediaHandlers.merging(radioHandlers, uniquingKeysWith: { a, _ in a }) { table[name] = handler }
        return table
    }()

    /// Endpoints a client may call without signing in (OpenSubsonic: the extension list).
    static let publicHandlers: [String: @Sendable () -> SubsonicPayload] = [
        "getOpenSubsonicExtensions": {
            var formPost = SubsonicElement()
            formPost.set("name", "formPost")
            formPost.add("versions", values: [.int(1)])
            var list = SubsonicElement()
            list.add("openSubsonicExtensions", list: [formPost])
            // The list sits directly in the response: `"openSubsonicExtensions": [ … ]`.
            return SubsonicPayload(name: nil, element: list)
        },
    ]

    func handle(_ request: Request, context: QuintetRequestContext) async -> Response {
        var params = SubsonicParameters(formEncoded: request.uri.query ?? "")
        var format = SubsonicFormat(parameter: params["f"], callback: params["callback"])
        do {
            if request.method == .post, let type = request.headers[.contentType]?.lowercased(),
               type.hasPrefix("application/x-www-form-urlencoded") {
                let body = try await request.body.collect(upTo: Self.maxFormBytes)
                params.add(formEncoded: String(buffer: body))
                format = SubsonicFormat(parameter: params["f"], callback: params["callback"])
            }
            var name = context.parameters.get("endpoint") ?? ""
            if name.hasSuffix(".view") { name.removeLast(5) }
            if let answer = Self.publicHandlers[name] {
                return Self.document(status: "ok", answer(), format: format)
            }
            guard let handler = Self.handlers[name] else {
                throw SubsonicError(.notFound, "Quintet does not implement the Subsonic endpoint '\(name.prefix(60))'")
            }
            let user = try await auth.user(params)
            let call = SubsonicCall(request: request, context: context, params: params, user: user)
            switch try await handler(self, call) {
            case .payload(let payload): return Self.document(status: "ok", payload, format: format)
            case .response(let response): return response
            }
        } catch let error as SubsonicError {
            // A wrong password or token costs the caller a quarter second, as bcrypt does,
            // so guessing tokens (a cheap MD5 here) is no faster than guessing passwords.
            if error.code == .wrongCredentials { try? await Task.sleep(for: .milliseconds(250)) }
            return Self.failure(error, format: format)
        } catch let error as CatalogError {
            return Self.failure(.from(error), format: format)
        } catch let error as APIError {
            // A range outside the file stays an HTTP 416 (players retry without it); the rest
            // become Subsonic errors.
            if error.status == .rangeNotSatisfiable { return error.makeResponse() }
            return Self.failure(SubsonicError(error.status == .notFound ? .notFound : .generic, error.message), format: format)
        } catch {
            // A body over the limit and the like: errors the server knows how to explain.
            if let known = APIError.from(error) {
                return Self.failure(SubsonicError(known.status == .notFound ? .notFound : .generic, known.message), format: format)
            }
            context.logger.error("Subsonic call failed: \(String(describing: error))")
            return Self.failure(SubsonicError(.generic, "the server failed to answer; the error is in its log"), format: format)
        }
    }

    static func failure(_ error: SubsonicError, format: SubsonicFormat) -> Response {
        document(status: "failed", SubsonicPayload("error", error.element), format: format)
    }

    /// A `subsonic-response` document with the status attributes and one payload.
    static func document(status: String, _ payload: SubsonicPayload, format: SubsonicFormat) -> Response {
        var root = SubsonicElement()
        root.set("status", status)
        root.set("version", apiVersion)
        root.set("type", "quintet")
        root.set("serverVersion", QuintetVersion.current)
        root.set("openSubsonic", true)
        if let name = payload.name { root.add(name, payload.element) } else { root.merge(payload.element) }
        let text = SubsonicRenderer.document(root, format: format)
        return Response(status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
