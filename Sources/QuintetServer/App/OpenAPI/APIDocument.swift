import Foundation
import HTTPTypes
import Hummingbird

/// The OpenAPI 3.1 document of the whole of `/api`, served at `GET /api/openapi.json` without
/// sign-in. It is put together from one part per system (``SystemOpenAPI``, ``LibraryOpenAPI``,
/// ``RunnerOpenAPI``, ``RadioOpenAPI`` and ``CrowdOpenAPI``, which is also served alone at
/// `/api/crowd/openapi.json`); every path is written in full (`/api/library/songs/{id}`),
/// WebSocket routes appear as a `GET` answering 101. A test walks the router's routes and fails
/// when one is missing here or when the document names a route the server lacks.
public enum APIDocument {
    /// The parts, in the order their paths are merged.
    static let parts: [String] = [SystemOpenAPI.text, LibraryOpenAPI.text, GraphOpenAPI.text, GraphMapOpenAPI.text, MembersOpenAPI.text, RunnerOpenAPI.text, RadioOpenAPI.text,
                                  AccountsOpenAPI.text, RadioShowsOpenAPI.text, RadioDiscoverOpenAPI.text, RadioShareOpenAPI.text, CrowdOpenAPI.text]

    /// The document's bytes (UTF-8 JSON, keys sorted).
    public static let document: [UInt8] = {
        let data = try! JSONSerialization.data(withJSONObject: merge(parts), options: [.sortedKeys, .withoutEscapingSlashes])
        return Array(data)
    }()

    /// Every operation the document names: path template (`/api/library/songs/{id}`) → methods.
    public static let operations: [String: Set<HTTPRequest.Method>] = {
        var out: [String: Set<HTTPRequest.Method>] = [:]
        let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        let object = try! JSONSerialization.jsonObject(with: Data(document)) as! [String: Any]
        for (path, item) in object["paths"] as? [String: Any] ?? [:] {
            let keys = (item as? [String: Any] ?? [:]).keys.filter(methods.contains)
            out[path] = Set(keys.compactMap { HTTPRequest.Method($0.uppercased()) })
        }
        return out
    }()

    /// The methods the document allows on `path` (a request path, `/api/library/songs/7`), or nil
    /// when no documented path matches it.
    static func methods(matching path: String) -> Set<HTTPRequest.Method>? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (template, methods) in templates where template.count == segments.count {
            if zip(template, segments).allSatisfy({ element, segment in element ~= segment }) { return methods }
        }
        return nil
    }

    private static let templates: [(RouterPath, Set<HTTPRequest.Method>)] = operations.map { (RouterPath($0.key), $0.value) }

    /// Merges parts: `paths` and each `components` section are unions; the first part gives
    /// `openapi`, `info` and the rest.
    static func merge(_ texts: [String]) -> [String: Any] {
        var document: [String: Any] = [:]
        var paths: [String: Any] = [:]
        var components: [String: [String: Any]] = [:]
        for text in texts {
            let part = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            for (key, value) in part where key != "paths" && key != "components" && document[key] == nil {
                document[key] = value
            }
            for (path, item) in part["paths"] as? [String: Any] ?? [:] {
                precondition(paths[path] == nil, "OpenAPI: \(path) is described twice")
                paths[path] = item
            }
            for (section, entries) in part["components"] as? [String: Any] ?? [:] {
                for (name, value) in entries as? [String: Any] ?? [:] {
                    components[section, default: [:]][name] = components[section]?[name] ?? value
                }
            }
        }
        document["paths"] = paths
        document["components"] = components
        return document
    }

    /// Adds `GET /api/openapi.json`.
    static func add(to router: Router<QuintetRequestContext>) {
        router.get("api/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: APIJSON.contentType, .cacheControl: "public, max-age=300"],
                     body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
    }
}

/// Answers 405 (with `Allow`) instead of 404 when a request's path is a documented `/api` path
/// but its method is not one the path accepts (`TRACE /api/crowd/reports`). Requests that
/// reached a route pass untouched; other paths keep their 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.endpointPath == nil, request.uri.path.hasPrefix("/api/"),
              let methods = APIDocument.methods(matching: request.uri.path), !methods.contains(request.method) else {
            return try await next(request, context)
        }
        var error = APIError(.methodNotAllowed, message: "\(request.uri.path.prefix(100)) accepts \(methods.map(\.rawValue).sorted().joined(separator: ", "))")
        error.headers = [HTTPField.Name("Allow")!: methods.map(\.rawValue).sorted().joined(separator: ", ")]
        throw error
    }
}
