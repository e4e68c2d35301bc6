import Foundation
import Hummingbird
import QuintetStore
import Radio

/// An HTTP error rendered as `{"error": {"code": "...", "message": "..."}}`.
///
/// `code` is a stable machine-readable string (`not_found`, `bad_request`, …); `message`
/// tells a person what went wrong and what to do.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// Extra response headers (`WWW-Authenticate` on a 401, `Content-Range` on a 416).
    public var headers: HTTPFields = [:]
    /// The request field at fault (`lat`, `radius`, `body`…), rendered as `"field"` in the
    /// error object when set; nil leaves the object as it was.
    public var field: String? = nil

    public init(_ status: HTTPResponse.Status, code: String? = nil, message: String) {
        self.status = status
        self.code = code ?? APIError.code(for: status)
        self.message = message
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        makeResponse()
    }

    /// The JSON response for this error.
    public func makeResponse() -> Response {
        struct Body: Encodable {
            struct Inner: Encodable { let code: String; let message: String; let field: String? }
            let error: Inner
        }
        let data = (try? JSONEncoder().encode(Body(error: .init(code: code, message: message, field: field)))) ?? Data("{}".utf8)
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The default code of a status: its reason phrase in snake case (`404` → `not_found`).
    public static func code(for status: HTTPResponse.Status) -> String {
        status.reasonPhrase.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
            .reduce(into: "") { $0.append($1) }
    }

    /// Maps any error a route may throw to an `APIError`; unknown errors become a 500
    /// whose message hides internals.
    public static func from(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError:
            return APIError(error.status, message: error.body ?? defaultMessage(for: error.status))
        case let error as any HTTPResponseError:
            return APIError(error.status, message: defaultMessage(for: error.status))
        case let error as StoreError:
            switch error {
            case .invalidUserName, .invalidPassword: return APIError(.badRequest, code: "invalid_input", message: error.description)
            case .userExists: return APIError(.conflict, message: error.description)
            case .userNotFound: return APIError(.notFound, message: error.description)
            case .database, .unusableDataFolder: return nil
            }
        case let error as PlanLimitError:
            // A plan's limit (issue 24 §1): storage is "too large", the rest "unprocessable".
            return APIError(error.limit == "max_storage_bytes" ? .contentTooLarge : .unprocessableContent,
                            code: "plan_limit", message: error.description)
        case is DecodingError:
            return APIError(.badRequest, code: "invalid_json", message: "the request body is not the JSON this endpoint expects")
        default:
            return nil
        }
    }

    static func defaultMessage(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "no such page or endpoint"
        case .methodNotAllowed: "this endpoint does not accept that method"
        case .contentTooLarge: "the request body is too large"
        default: status.reasonPhrase
        }
    }
}

/// Turns every error thrown below it into the JSON error format, logging the unexpected ones.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let apiError = APIError.from(error) { return apiError.makeResponse() }
            context.logger.error("unhandled error on \(request.method) \(request.uri.path): \(String(describing: error))")
            return APIError(.internalServerError, code: "internal_error",
                            message: "the server failed to answer; the error is in its log").makeResponse()
        }
    }
}

extension APIError {
    /// What a plain request gets on a WebSocket path (the upgrade router takes the handshakes):
    /// 426 `websocket_required`, pointing at the doc that describes the socket.
    static func webSocketRequired(docs: String) -> APIError {
        APIError(HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required"), code: "websocket_required",
                 message: "this is a WebSocket: connect with ws:// (Upgrade: websocket); see \(docs)")
    }
}

