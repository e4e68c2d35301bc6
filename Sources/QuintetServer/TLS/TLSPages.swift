import Foundation
import Hummingbird
import HTTPTypes
import NIOConcurrencyHelpers
import SwiftASN1
import WireFormats
import X509

/// `/tls/`: how a phone trusts the server, and the private CA to install (`/tls/ca.pem`, and
/// `/tls/ca.crt` in DER with the type iOS opens as a profile). Served over HTTPS and, with
/// `--http-port`, over plain HTTP too (a phone that does not trust the CA yet cannot open the
/// HTTPS page without a warning). The page is rendered here from `Web/tls/trust.html`, whose
/// `{{…}}` slots take the fingerprint and the addresses, so it needs no script.
struct TLSPages: Sendable {
    let tls: ServerTLS
    /// The private CA with `--tls-self-signed`; nil with `--tls-cert` (nothing to install).
    let authority: LocalCertificateAuthority?
    let webDirectory: URL
    /// The HTTPS port the server listens on (known once it runs).
    let httpsPort: NIOLockedValueBox<Int>

    func add<Context: RequestContext>(to router: Router<Context>) {
        router.get("/tls/") { request, _ in try page(request) }   // `/tls` too: the router ignores a trailing slash
        router.get("/tls/ca.pem") { _, _ in
            let pem = try caCertificate().serializeAsPEM().pemString + "\n"
            return Response(status: .ok, headers: [.contentType: "application/x-pem-file",
                                                   .contentDisposition: ContentDisposition.attachment(filename: "quintet-ca.pem"),
                                                   .cacheControl: "no-cache"],
                            body: .init(byteBuffer: ByteBuffer(string: pem)))
        }
        router.get("/tls/ca.crt") { _, _ in
            var serializer = DER.Serializer()
            try serializer.serialize(try caCertificate())
            return Response(status: .ok, headers: [.contentType: "application/x-x509-ca-cert",
                                                   .contentDisposition: ContentDisposition.attachment(filename: "quintet-ca.crt"),
                                                   .cacheControl: "no-cache"],
                            body: .init(byteBuffer: ByteBuffer(bytes: serializer.serializedBytes)))
        }
    }

    func caCertificate() throws -> Certificate {
        guard let authority else {
            throw APIError(.notFound, code: "no_private_ca",
                           message: "this server presents a certificate given with --tls-cert; there is no private CA to install")
        }
        return try Certificate(pemEncoded: try authority.caPEM())
    }

    func page(_ request: Request) throws -> Response {
        let template = try String(contentsOf: webDirectory.appendingPathComponent("tls/trust.html"), encoding: .utf8)
        let host = request.head.authority.map(Self.hostPart) ?? "localhost"
        let address = HTTPSAddress.base(host: host, port: httpsPort.withLockedValue { $0 }) + "/"
        let fingerprint: String
        let mode: String
        if let authority {
            fingerprint = (try? authority.caFingerprint()) ?? "unknown"
            mode = "self-signed"
        } else {
            fingerprint = tls.fingerprint
            mode = "given"
        }
        var html = template
        for (slot, value) in [("address", address), ("fingerprint", fingerprint), ("mode", mode),
                              ("server_fingerprint", tls.fingerprint)] {
            html = html.replacingOccurrences(of: "{{\(slot)}}", with: Self.escaped(value))
        }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The host of an authority (`host:port`, `[v6]:port`), without the port; `localhost` when
    /// it holds anything but a name or an address (a hostile `Host` cannot shape the redirect).
    static func hostPart(_ authority: String) -> String {
        let host: String
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
        } else {
            host = String(authority.split(separator: ":", maxSplits: 1).first ?? "")
        }
        let allowed = host.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:".unicodeScalars.contains($0)) }
        return allowed && !host.isEmpty && host.count <= 253 ? host : "localhost"
    }


    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// The plain-HTTP side of `--http-port`: every request is redirected to the same path on
/// HTTPS (301 for GET and HEAD, 308 for the rest, which keeps the method and body), except
/// the trust page and the CA (``TLSPages``). Icecast sources and listeners never reach it:
/// the channel in front (``IcecastAwareChannel``) hands them to the radio first, since many
/// hardware and legacy clients speak only HTTP.
struct HTTPSRedirectMiddleware<Context: RequestContext>: RouterMiddleware {
    let httpsPort: NIOLockedValueBox<Int>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/tls" || request.uri.path.hasPrefix("/tls/") {
            return try await next(request, context)
        }
        let host = request.head.authority.map(TLSPages.hostPart) ?? "localhost"
        let location = HTTPSAddress.base(host: host, port: httpsPort.withLockedValue { $0 }) + request.uri.string
        let status: HTTPResponse.Status = request.method == .get || request.method == .head ? .movedPermanently : .permanentRedirect
        return Response(status: status, headers: [.location: location, .cacheControl: "no-cache"])
    }
}

/// How a host and port are written in an HTTPS URL: IPv6 addresses in brackets, no `:443`.
public enum HTTPSAddress {
    /// `host` as it goes in a URL (`[::1]` for an IPv6 address).
    public static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// `https://host[:port]`, without a trailing slash.
    public static func base(host: String, port: Int) -> String {
        "https://\(urlHost(host))\(port == 443 ? "" : ":\(port)")"
    }
}
