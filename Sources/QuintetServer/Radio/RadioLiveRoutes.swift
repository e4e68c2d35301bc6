import Foundation
import Hummingbird
import Radio

/// The live radio's ordinary HTTP routes (ordinary bodies, so Hummingbird serves them):
///
/// - `GET /status-json.xsl` — icecast's status document of the live mounts, no auth.
/// - `GET /admin/metadata?mount=…&mode=updinfo&song=…[&charset=…]` and
///   `GET /admin/metadata.xsl?…` — icecast's title update, Basic auth `source:<stream key>` of
///   the mount's show or a Quintet admin; XML `iceresponse` answers (PROTOCOL.md §3).
/// - `POST /api/radio/metadata` with JSON `{"mount": "/live/x.mp3", "title": "…"}` — the same
///   update for the app's own clients, same auth; answers `{"mount", "title"}`.
enum RadioLiveRoutes {
    static func add(to router: Router<QuintetRequestContext>, radio: LiveRadio, auth: Authenticator?) {
        RadioLiveAPI.add(to: router, radio: radio)  // GET /api/radio/live (RadioLiveAPI.swift)
        router.get("status-json.xsl") { request, _ -> Response in
            let host = request.head.authority ?? "localhost"
            let json = await radio.statusJSON(host: host)
            return Response(status: .ok, headers: icecastHeaders("application/json; charset=UTF-8"),
                            body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        for path in ["admin/metadata", "admin/metadata.xsl"] {
            router.get(RouterPath(path)) { request, _ in
                try await adminMetadata(request, radio: radio, auth: auth)
            }
            router.post(RouterPath(path)) { _, _ in
                Response(status: .badRequest, headers: icecastHeaders("text/html; charset=utf-8"),
                         body: .init(byteBuffer: ByteBuffer(string: "<html><head><title>Error 400</title></head><body><b>400 - unknown request</b></body></html>")))
            }
        }
        router.post("api/radio/metadata") { request, context -> Response in
            struct Update: Decodable { let mount: String; let title: String }
            struct Answer: Encodable { let mount: String; let title: String }
            let update: Update
            do { update = try await request.decode(as: Update.self, context: context) } catch {
                throw APIError(.badRequest, code: "invalid_json", message: "send {\"mount\": \"/live/…\", \"title\": \"…\"}")
            }
            guard try await allowed(request, mount: update.mount, radio: radio, auth: auth) else {
                var error = APIError(.unauthorized, code: "unauthorized",
                                     message: "Basic auth: user source with the show's stream key, or an admin")
                error.headers = [.wwwAuthenticate: "Basic realm=\"Icecast2 Server\""]
                throw error
            }
            guard await radio.setTitle(IcyTitle(update.title), mount: update.mount) else {
                throw APIError(.notFound, code: "not_live", message: "no live source on \(update.mount)")
            }
            return try APIJSON.response(Answer(mount: update.mount, title: update.title))
        }
    }

    static func icecastHeaders(_ contentType: String) -> HTTPFields {
        [.server: IcecastReply.serverName, .contentType: contentType,
         .cacheControl: "no-cache, no-store", .expires: "Mon, 26 Jul 1997 05:00:00 GMT",
         .init("Pragma")!: "no-cache", .accessControlAllowOrigin: "*"]
    }

    /// Whether the request's Basic credentials are the source key of `mount`'s show or an admin's.
    static func allowed(_ request: Request, mount: String, radio: LiveRadio, auth: Authenticator?) async throws -> Bool {
        guard let header = request.headers[.authorization],
              let (name, password) = Authenticator.basicCredentials(header) else { return false }
        if name == "source" {
            let directory = radio.directory
            if let show = try await Blocking.run({ try directory.show(mount: mount) }),
               LiveRadio.constantTimeEqual(password, show.streamKey) {
                return true
            }
            return false
        }
        guard let auth, let user = try await auth.user(name: name, password: password) else { return false }
        return user.role == .admin
    }

    static func adminMetadata(_ request: Request, radio: LiveRadio, auth: Authenticator?) async throws -> Response {
        let query = request.uri.queryParameters
        let mount = query["mount"].map(String.init) ?? ""
        guard try await allowed(request, mount: mount, radio: radio, auth: auth) else {
            var headers = icecastHeaders("text/plain; charset=utf-8")
            headers[.wwwAuthenticate] = "Basic realm=\"Icecast2 Server\""
            return Response(status: .unauthorized, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: "You need to authenticate")))
        }
        guard radio.mount(at: mount) != nil else {
            return Response(status: .badRequest, headers: icecastHeaders("text/html; charset=utf-8"),
                            body: .init(byteBuffer: ByteBuffer(string: "<html><head><title>Error 400</title></head><body><b>400 - Source does not exist</b></body></html>")))
        }
        let xml: String
        if query["mode"].map(String.init) == "updinfo" {
            let song = percentDecodedBytes(rawQueryValue(request.uri.query ?? "", name: "song") ?? "")
            let charset = query["charset"].map(String.init)
            _ = await radio.setTitle(IcyTitle(song: song, charset: charset), mount: mount)
            xml = IcecastAdminResponse.metadataUpdated
        } else {
            xml = IcecastAdminResponse.noSuchAction
        }
        return Response(status: .ok, headers: icecastHeaders("text/xml; charset=utf-8"),
                        body: .init(byteBuffer: ByteBuffer(string: xml)))
    }

    /// The raw (still percent-encoded) value of `name` in a query string.
    static func rawQueryValue(_ query: String, name: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name) { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// Percent-decodes to bytes (`+` is a space), keeping invalid escapes as they are: the
    /// song's bytes may be ISO-8859-1, which a String decoder would reject.
    static func percentDecodedBytes(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: b - 0x30
            case 0x41...0x46: b - 0x41 + 10
            case 0x61...0x66: b - 0x61 + 10
            default: nil
            }
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i] == UInt8(ascii: "+") ? 0x20 : bytes[i])
                i += 1
            }
        }
        return out
    }
}
