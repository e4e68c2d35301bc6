import Foundation
import HTTPTypes
import HummingbirdCore

/// The head of one HTTP/1.x request as the Icecast path reads it: the request line and the
/// header fields, parsed from the bytes before the first CRLFCRLF (a bare LFLF is accepted too).
///
/// Icecast clients send methods an HTTP library rejects (`SOURCE`) and bodies with no length
/// (PROTOCOL.md §1), so the radio reads heads itself rather than through NIOHTTP1.
///
/// ```swift
/// let head = IcecastRequestHead(Array("GET /live/a.mp3 HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n".utf8))
/// head?.method        // "GET"
/// head?["icy-metadata"]   // "1"
/// ```
struct IcecastRequestHead: Sendable, Equatable {
    /// The method, as sent (`GET`, `PUT`, `SOURCE`, …).
    let method: String
    /// The path, percent-encoding kept, without the query.
    let path: String
    /// The query string after `?`, if any (percent-encoded).
    let query: String?
    /// `HTTP/1.0` or `HTTP/1.1` (whatever the client sent).
    let version: String
    /// The header fields in order; names as sent.
    let fields: [(name: String, value: String)]

    static func == (a: Self, b: Self) -> Bool {
        a.method == b.method && a.path == b.path && a.query == b.query && a.version == b.version
            && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    /// Parses a head (the bytes up to, and optionally including, the blank line); nil when the
    /// request line is not `METHOD TARGET HTTP/x.y`.
    init?(_ bytes: some Collection<UInt8>) {
        // Split on LF bytes (a String would see CRLF as one character), dropping each CR.
        var lines = Array(bytes).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), !parts[0].isEmpty,
              parts[0].allSatisfy({ $0.isLetter && $0.isUppercase }) else { return nil }
        method = String(parts[0])
        version = String(parts[2])
        var target = String(parts[1])
        // An absolute-form target (`http://host/path`) keeps only its path.
        if let scheme = target.range(of: "://"), let slash = target[scheme.upperBound...].firstIndex(of: "/") {
            target = String(target[slash...])
        }
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            query = String(target[target.index(after: q)...])
        } else {
            path = target
            query = nil
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { fields.append((name, value)) }
        }
        self.fields = fields
    }

    /// The first value of header `name` (case-insensitive), or nil.
    subscript(name: String) -> String? {
        let lower = name.lowercased()
        return fields.first { $0.name.lowercased() == lower }?.value
    }

    /// The credentials of a `Basic` `Authorization` header, or nil when absent or malformed.
    var basicCredentials: (user: String, password: String)? {
        guard let value = self["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// The path with percent-escapes decoded (the mount name), or nil when they are invalid.
    var decodedPath: String? { path.removingPercentEncoding }
}

/// Where a connection's first request goes: to the radio's own handlers (an Icecast source or
/// listener on a mount) or to the Hummingbird application.
enum IcecastRouting {
    /// Mount paths: every mount lives under this prefix, which no other route of the app uses,
    /// so Icecast traffic and the app's routes never collide.
    static let mountPrefix = "/live/"

    /// Whether `path` is in the mount namespace (`/live/<something>`).
    static func isMountPath(_ path: String) -> Bool {
        path.hasPrefix(mountPrefix) && path.count > mountPrefix.count
    }

    /// The path libshout asks for (`GET`, no credentials) when its `OPTIONS *` got no answer,
    /// to learn whether an Icecast server is there (libshout 2.4's `STATE_POKE`).
    static let pokePath = "/admin/!POKE"

    /// Whether a request with this head belongs to the Icecast path: any `SOURCE`; `PUT`, `GET`
    /// or `HEAD` of a mount path; and the two probes every libshout source (ices2, ezstream,
    /// Mixxx…) sends before its `SOURCE`: `OPTIONS *` and `GET /admin/!POKE`. Everything else
    /// goes to the application unchanged (an `OPTIONS` of any other target too: CORS
    /// preflights stay the app's).
    static func isIcecast(method: String, path: String) -> Bool {
        switch method {
        case "SOURCE": true
        case "PUT", "HEAD": isMountPath(path)
        case "GET": isMountPath(path) || path == pokePath
        case "OPTIONS": path == "*"
        default: false
        }
    }

    /// Decides from the first line only (`METHOD TARGET HTTP/x.y`), so the decision can be taken
    /// as soon as that line has arrived.
    static func isIcecast(requestLine: some Collection<UInt8>) -> Bool {
        let parts = String(decoding: requestLine, as: UTF8.self).split(separator: " ")
        guard parts.count >= 2 else { return false }
        var target = String(parts[1])
        if let q = target.firstIndex(of: "?") { target = String(target[..<q]) }
        return isIcecast(method: String(parts[0]), path: target)
    }

    private struct CloseAfterRedirect: Error {}

    /// Wraps the app's responder for requests that reach Hummingbird on a reused keep-alive
    /// connection although they belong to the Icecast path (a browser's `<audio>` element may
    /// send `GET /live/x.mp3` on a connection that loaded the page): they get
    /// `307 Temporary Redirect` to the same URL with `Connection: close` and the connection is
    /// closed, so the client asks again on a fresh connection, which the sniffer routes to the
    /// radio (hummingbird-websocket does the same for late upgrade requests).
    static func redirectingMountRequests(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        { request, writer, channel in
            guard isIcecast(method: request.method.rawValue, path: request.uri.path) else {
                try await responder(request, writer, channel)
                return
            }
            var location = request.uri.path
            if let query = request.uri.query { location += "?" + query }
            let head = HTTPResponse(status: .temporaryRedirect,
                                    headerFields: [.location: location, .connection: "close", .contentLength: "0"])
            try await writer.writeResponse(head)
            throw CloseAfterRedirect()
        }
    }
}
