import Foundation
import NIOCore
import Radio
import WireFormats

/// The answers the Icecast path writes itself, byte for byte as icecast 2.4.4 writes them
/// (PROTOCOL.md §0-§2): always `HTTP/1.0` (except the `100 Continue`), `Connection: Close`,
/// and the common header block in icecast's order.
enum IcecastReply {
    /// `HEAD` of a mount, or a head that cannot be parsed: 400, empty body.
    case badRequest
    /// Unknown mount: 404 with icecast's HTML body.
    case notFound
    /// Bad or missing source credentials: 401 with `WWW-Authenticate`.
    case unauthorized
    /// `PUT` without `Content-Type`: 403.
    case noContentType
    /// A content type the server cannot relay or transcode: 403.
    case unsupportedContentType
    /// A second source on a live mount: 403.
    case mountInUse
    /// Over the listener limit: 403.
    case limitReached
    /// `OPTIONS *` without an upgrade: 204 with `Allow` and `Accept-Encoding`, no body
    /// (icecast 2.5's answer; icecast 2.4.4 closes the connection without one).
    case options
    /// A request asking to upgrade the connection (libshout's `OPTIONS *` with
    /// `Connection: Upgrade`, `Upgrade: TLS/1.0, HTTP/1.1`): 400 `Can not upgrade protocol`, as
    /// icecast answers when it offers no TLS upgrade on the connection. libshout then goes on
    /// in plain text (its default TLS mode "auto"), or connects with TLS straight away when
    /// told to use TLS only.
    case upgradeRefused
    /// An admin command icecast does not know, such as libshout's `GET /admin/!POKE`: 400
    /// `Unrecognised command`, as icecast 2.4.4 answers it (before any authentication).
    case unrecognisedCommand
    /// A source back on a mount whose broadcast was just cut off at the show's maximum episode
    /// length or its plan's storage: 403 with `Retry-After` and a sentence saying why (not an
    /// icecast answer; icecast has no such limit).
    case cutOff(LiveRadio.CutOffReason, retryAfter: Int)
    /// A source whose show's owner has no plan storage left: 403 with the plan's figures (not an
    /// icecast answer).
    case planLimit(PlanLimitError)

    /// The value `Server:` carries (the one clients test for; ``IcecastStatus`` says the same).
    static let serverName = "Icecast 2.4.4"
    /// `HTTP/1.1 100 Continue` as icecast sends it to `Expect: 100-continue` (44 bytes).
    static let continueHead = "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n"
    /// The source's go-ahead: no headers at all (19 bytes).
    static let sourceOK = "HTTP/1.0 200 OK\r\n\r\n"


    /// The status line and the common headers up to and including the global CORS header,
    /// without the final blank line.
    static func commonHead(status: String, contentType: String) -> String {
        "HTTP/1.0 \(status)\r\nServer: \(serverName)\r\nConnection: Close\r\nDate: \(UTCDate.http(Date()))\r\n"
            + "Content-Type: \(contentType)\r\nCache-Control: no-cache, no-store\r\n"
            + "Expires: Mon, 26 Jul 1997 05:00:00 GMT\r\nPragma: no-cache\r\nAccess-Control-Allow-Origin: *\r\n"
    }

    /// The whole response.
    var text: String {
        let (status, type, extra, body): (String, String, String, String)
        switch self {
        case .badRequest:
            (status, type, extra, body) = ("400 Bad Request", "text/html; charset=utf-8", "", "")
        case .options:
            let head = "HTTP/1.0 204 No Content\r\nServer: \(Self.serverName)\r\nConnection: Close\r\n"
                + "Accept-Encoding: identity\r\nAllow: GET, OPTIONS, SOURCE\r\nDate: \(UTCDate.http(Date()))\r\n"
                + "Cache-Control: no-cache, no-store\r\nExpires: Mon, 26 Jul 1997 05:00:00 GMT\r\nPragma: no-cache\r\n"
                + "Access-Control-Allow-Origin: *\r\n"
            return head + "Content-Length: 0\r\n\r\n"
        case .upgradeRefused:
            (status, type, extra, body) = ("400 Bad Request", "text/html; charset=utf-8", "",
                "<html><head><title>Error 400</title></head><body><b>400 - Can not upgrade protocol</b></body></html>")
        case .unrecognisedCommand:
            (status, type, extra, body) = ("400 Bad Request", "text/html; charset=utf-8", "",
                "<html><head><title>Error 400</title></head><body><b>400 - Unrecognised command</b></body></html>")
        case .notFound:
            (status, type, extra, body) = ("404 File Not Found", "text/html; charset=utf-8", "",
                "<html><head><title>Error 404</title></head><body><b>404 - The file you requested could not be found</b></body></html>")
        case .unauthorized:
            (status, type, extra, body) = ("401 Authentication Required", "text/plain; charset=utf-8",
                "WWW-Authenticate: Basic realm=\"Icecast2 Server\"\r\n", "You need to authenticate")
        case .noContentType:
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "", "No Content-type given")
        case .unsupportedContentType:
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "",
                "Content-type not supported (send audio/mpeg, audio/aac, audio/ogg or audio/webm)")
        case .mountInUse:
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "", "Mountpoint in use")
        case .limitReached:
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "", "Icecast connection limit reached")
        case .cutOff(.length(let seconds), let retryAfter):
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "Retry-After: \(retryAfter)\r\n",
                "Maximum episode length reached: this show's broadcasts are limited to \(seconds) s and the last one was cut off. A new broadcast can start in \(retryAfter) s.")
        case .cutOff(.storage(let error), let retryAfter):
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "Retry-After: \(retryAfter)\r\n",
                "Plan storage full: the last broadcast was cut off when its recording filled it (\(error.description)).")
        case .planLimit(let error):
            (status, type, extra, body) = ("403 Forbidden", "text/plain; charset=utf-8", "", "Plan limit reached: \(error.description)")
        }
        return Self.commonHead(status: status, contentType: type) + extra
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// Writes the reply on `channel` and closes it once written.
    static func send(_ reply: IcecastReply, on channel: any Channel) {
        let buffer = ByteBuffer(string: reply.text)
        channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
    }
}
