import Foundation
import Hummingbird
import QuintetStore
import Radio

/// Accounts (issue 24 §1): registering (open, by invitation, or closed), invitations, and
/// passwords.
///
/// - `POST /api/register` `{"name", "password", "invite"?}` → 201 `{"user"}` and the session
///   cookie (as `POST /api/session`); 403 `registration_closed`, 403 `invite_required`,
///   404 `invite_unknown`, 410 `invite_used` / `invite_expired`, 409 name taken, 400 bad name
///   or password.
/// - `GET /api/register` → `{"registration": "open|invite|closed"}` (for the page).
/// - `POST /api/radio/invites` `{"days"?}` (signed in) → 201 `{"url", "token", "expires_at"}`;
///   admins always, other users up to ``InviteStore/maxUnusedPerUser`` unused ones (429
///   `too_many_invites`), nobody when registration is closed (403).
/// - `POST /api/account/password` `{"current", "new"}` (signed in) → 204; 403 `wrong_password`.
/// - `POST /api/users/{name}/password` `{"password"}` (admin) → 204.
enum AccountRoutes {
    struct Register: Decodable { let name: String; let password: String; let invite: String? }
    struct InviteRequest: Decodable { let days: Int? }
    struct InviteView: Encodable { let url: String; let token: String; let expiresAt: Date }
    struct PasswordChange: Decodable { let current: String; let new: String }
    struct PasswordReset: Decodable { let password: String }
    struct Mode: Encodable { let registration: String }

    static func add(to router: Router<QuintetRequestContext>, auth: Authenticator, registration: RegistrationMode,
                    publicURL: String?, secureCookies: Bool) {
        let invites = InviteStore(database: auth.users.database)
        let users = auth.users

        router.get("api/register") { _, _ in try APIJSON.response(Mode(registration: registration.rawValue)) }

        router.post("api/register") { request, context -> Response in
            let body = try await request.decode(as: Register.self, context: context)
            guard body.name.utf8.count <= 256, body.password.utf8.count <= 1024, (body.invite?.utf8.count ?? 0) <= 256 else {
                throw APIError(.badRequest, code: "invalid_input", message: "name, password or invite too long")
            }
            let user = try await run { try invites.register(name: body.name, password: body.password, token: body.invite,
                                                            mode: registration, users: users) }
            let sessions = auth.sessions
            let token = try await Blocking.run { try sessions.create(userID: user.id ?? 0) }
            var response = try APIJSON.response(SessionRoutes.view(user), status: .created)
            response.setCookie(Cookie(name: Authenticator.cookieName, value: token, maxAge: 30 * 86_400, path: "/",
                                      secure: secureCookies, httpOnly: true, sameSite: .strict))
            return response
        }

        let signedIn = router.group("api").addSignIn(auth, required: true)

        signedIn.post("radio/invites") { request, context -> Response in
            let user = try context.requireUser()
            guard registration != .closed else { throw error(for: InviteError.registrationClosed) }
            let days = try await request.decodeOptional(InviteRequest.self, context: context)?.days ?? 7
            let made = try await run { try invites.create(by: user, days: days) }
            let base = publicURL.map(RadioRoutes.trimmedBase)
                ?? RadioRoutes.Handlers(radio: RadioStore(database: users.database), publicURL: nil).baseURL(request)
            return try APIJSON.response(InviteView(url: inviteURL(base: base, token: made.token), token: made.token,
                                                   expiresAt: made.expiresAt), status: .created)
        }

        signedIn.post("account/password") { request, context -> Response in
            let user = try context.requireUser()
            let body = try await request.decode(as: PasswordChange.self, context: context)
            guard body.current.utf8.count <= 1024,
                  try await auth.user(name: user.name, password: body.current) != nil else {
                throw APIError(.forbidden, code: "wrong_password", message: "the current password is wrong")
            }
            try await Blocking.run { try users.setPassword(name: user.name, password: body.new) }
            auth.forgetCachedCredentials()
            return Response(status: .noContent)
        }

        signedIn.post("users/{name}/password") { request, context -> Response in
            let user = try context.requireUser()
            guard user.role == .admin else { throw APIError(.forbidden, code: "forbidden", message: "only an admin may set another user's password") }
            let name = context.parameters.get("name") ?? ""
            let body = try await request.decode(as: PasswordReset.self, context: context)
            try await Blocking.run { try users.setPassword(name: name, password: body.password) }
            auth.forgetCachedCredentials()
            return Response(status: .noContent)
        }
    }

    /// The page that registers with `token`.
    static func inviteURL(base: String, token: String) -> String { "\(base)/radio/account/?invite=\(token)" }

    /// Runs store work on the blocking pool; invitation errors become their HTTP answers.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do { return try await Blocking.run(body) } catch let failure as InviteError { throw error(for: failure) }
    }

    static func error(for failure: InviteError) -> APIError {
        switch failure {
        case .registrationClosed: APIError(.forbidden, code: "registration_closed", message: failure.description)
        case .inviteRequired: APIError(.forbidden, code: "invite_required", message: failure.description)
        case .unknown: APIError(.notFound, code: "invite_unknown", message: failure.description)
        case .used: APIError(.gone, code: "invite_used", message: failure.description)
        case .expired: APIError(.gone, code: "invite_expired", message: failure.description)
        case .tooMany: APIError(.tooManyRequests, code: "too_many_invites", message: failure.description)
        case .invalidLifetime: APIError(.badRequest, code: "invalid_input", message: failure.description)
        }
    }
}

extension Request {
    /// The JSON body as `T`, or nil when the body is empty.
    func decodeOptional<T: Decodable>(_ type: T.Type, context: QuintetRequestContext) async throws -> T? {
        let buffer = try await body.collect(upTo: 64 * 1024)
        guard buffer.readableBytes > 0 else { return nil }
        do { return try JSONDecoder().decode(T.self, from: Data(buffer: buffer)) } catch {
            throw APIError(.badRequest, code: "invalid_json", message: "the request body is not the JSON this endpoint expects")
        }
    }
}
