import Hummingbird
import Logging

/// Logs one line per request with its method and path only. The query string never reaches
/// the log: Subsonic clients put passwords (`p=`), tokens and salts (`t=`, `s=`) there, and
/// search terms are nobody's business either. Hummingbird's `LogRequestsMiddleware` logs the
/// whole URI, so Quintet uses this one instead.
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    public init(_ level: Logger.Level) { self.level = level }

    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.log(level: level, "request", metadata: [
            "hb.request.method": .stringConvertible(request.method),
            "hb.request.path": .string(request.uri.path),
        ])
        return try await next(request, context)
    }
}
