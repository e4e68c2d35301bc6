import Hummingbird
import HummingbirdAuth
import QuintetStore

/// The request context of every Quintet route: Hummingbird's core context plus the signed-in
/// user (`identity`), which the authenticator middleware of a route group sets.
///
/// ```swift
/// let library = router.group("api/library").addSignIn(auth, required: true)
/// library.get("stats") { _, context in
///     let user = try context.requireUser()   // never fails here: the group requires a user
///     …
/// }
/// ```
///
/// Answers that a route returns as values (`ResponseEncodable`) are written by
/// ``APIJSON/ResponseEncoder``: the one JSON convention of `/api`.
public struct QuintetRequestContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The user who signed in (HTTP Basic auth or the session cookie), or nil.
    public var identity: User?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
    }

    public var responseEncoder: APIJSON.ResponseEncoder { APIJSON.ResponseEncoder() }

    /// The signed-in user, or the 401 of ``RequireUserMiddleware``.
    public func requireUser() throws -> User {
        guard let identity else { throw APIError(.unauthorized, code: "unauthorized", message: Authenticator.signInHint) }
        return identity
    }
}

/// HTTP Basic auth with a Quintet user (bcrypt, behind ``Authenticator``'s five-minute cache of
/// successful checks). Wrong credentials leave the request anonymous; whether that is enough is
/// the route group's choice (``RequireUserMiddleware``).
public struct BasicUserAuthenticator<Context: AuthRequestContext<User>>: AuthenticatorMiddleware {
    public typealias Identity = User
    let auth: Authenticator

    public init(_ auth: Authenticator) { self.auth = auth }

    public func authenticate(request: Request, context: Context) async throws -> User? {
        guard context.identity == nil, let header = request.headers[.authorization],
              let (name, password) = Authenticator.basicCredentials(header) else { return nil }
        return try await auth.user(name: name, password: password)
    }
}

/// The web pages' session cookie (`quintet_session`, made by `POST /api/session`). A request
/// that carries Basic credentials is judged by those alone, as before the middleware existed.
public struct SessionCookieAuthenticator<Context: AuthRequestContext<User>>: AuthenticatorMiddleware {
    public typealias Identity = User
    let auth: Authenticator

    public init(_ auth: Authenticator) { self.auth = auth }

    public func authenticate(request: Request, context: Context) async throws -> User? {
        guard context.identity == nil, !Authenticator.hasBasicCredentials(request),
              let token = request.cookies[Authenticator.cookieName]?.value, !token.isEmpty else { return nil }
        let sessions = auth.sessions
        return try await Blocking.run { try sessions.user(token: token) }
    }
}

/// Lets only signed-in requests through: hummingbird-auth's `IsAuthenticatedMiddleware` with
/// Quintet's 401 (a JSON error, and `WWW-Authenticate: Basic` except for the web pages, which
/// send `X-Requested-With: quintet` and must not get the browser's password prompt).
public struct RequireUserMiddleware<Context: AuthRequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context,
                       next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.identity != nil else { throw Authenticator.unauthorized(request) }
        return try await next(request, context)
    }
}

extension RouterGroup where Context == QuintetRequestContext {
    /// Adds the sign-in middleware to this group (never to the whole router: Subsonic, Icecast
    /// and Crowd routes do not sign in this way): Basic auth, then the session cookie; with
    /// `required`, requests without a user are answered 401 before any route runs.
    @discardableResult
    public func addSignIn(_ auth: Authenticator, required: Bool) -> Self {
        add(middleware: BasicUserAuthenticator<Context>(auth))
        add(middleware: SessionCookieAuthenticator<Context>(auth))
        if required { add(middleware: RequireUserMiddleware<Context>()) }
        return self
    }
}
