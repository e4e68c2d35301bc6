import Foundation
import Hummingbird
import QuintetStore

/// Signing in and out of the web pages:
/// - `POST /api/session` `{"name", "password"}` → `{"user": {"id", "name", "role"}}` and the
///   `quintet_session` cookie (HttpOnly, SameSite=Strict, and Secure when the server speaks
///   HTTPS, so a browser never sends it over plain HTTP); 401 `invalid_credentials`;
/// - `GET /api/session` → `{"user": {…}}`, or `{"user": null}` when nobody is signed in (a
///   200: pages ask on every load, and a 401 would be logged as a browser console error);
/// - `DELETE /api/session` → 204, the session ends and the cookie is cleared.
enum SessionRoutes {
    struct SignIn: Decodable { let name: String; let password: String }
    struct UserView: Encodable { let id: Int64; let name: String; let role: String }
    struct SessionView: Encodable { let user: UserView? }
    struct NoSession: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeNil(forKey: .user)
        }
        enum Key: String, CodingKey { case user }
    }

    static func view(_ user: User) -> SessionView {
        SessionView(user: UserView(id: user.id ?? 0, name: user.name, role: user.role.rawValue))
    }

    static func add(to router: Router<QuintetRequestContext>, auth: Authenticator, secureCookies: Bool = false) {
        router.post("api/session") { request, context -> Response in
            let body = try await request.decode(as: SignIn.self, context: context)
            guard body.name.utf8.count <= 256, body.password.utf8.count <= 1024,
                  let user = try await auth.user(name: body.name, password: body.password) else {
                throw APIError(.unauthorized, code: "invalid_credentials", message: "wrong name or password")
            }
            let sessions = auth.sessions
            let token = try await Blocking.run { try sessions.create(userID: user.id ?? 0) }
            var response = try APIJSON.response(view(user))
            response.setCookie(Cookie(name: Authenticator.cookieName, value: token, maxAge: 30 * 86_400, path: "/",
                                      secure: secureCookies, httpOnly: true, sameSite: .strict))
            return response
        }
        // Only this route reads who is signed in (sign-in and sign-out need no user).
        router.group("api/session").addSignIn(auth, required: false).get { _, context -> Response in
            guard let user = context.identity else { return try APIJSON.response(NoSession()) }
            return try APIJSON.response(view(user))
        }
        router.delete("api/session") { request, _ -> Response in
            if let token = request.cookies[Authenticator.cookieName]?.value {
                let sessions = auth.sessions
                try await Blocking.run { try sessions.delete(token: token) }
            }
            var response = Response(status: .noContent)
            response.setCookie(Cookie(name: Authenticator.cookieName, value: "", maxAge: 0, path: "/",
                                      secure: secureCookies, httpOnly: true, sameSite: .strict))
            return response
        }
    }
}
