import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One HTTP/1.1 `GET` to another server, over SwiftNIO (and NIOSSL for `https`), the stack the
/// server already runs on: the server's only outgoing request today is the Crowd's reverse
/// geocoder (``CrowdPlaceNames``), which does not justify AsyncHTTPClient, and Foundation's
/// URLSession on Linux (FoundationNetworking) would bring libcurl into the static release build.
///
/// One connection per request (`Connection: close`), no redirects, no cookies, no proxy: only
/// the headers given (plus `Host` and `Connection`) leave the server. The whole exchange —
/// connecting, TLS, the answer — must end within `timeout`, and a body over `maxBytes` is refused.
///
/// ```swift
/// let answer = try await HTTPGet.fetch(URL(string: "https://example.org/reverse?lat=1&lon=2")!,
///                                      headers: [("User-Agent", "Quintet")])
/// if answer.status == 200 { /* answer.body */ }
/// ```
enum HTTPGet {
    /// An answer: the status code and the body's bytes.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// Why a request got no answer.
    enum Failure: Error, CustomStringConvertible, Equatable {
        case badURL(String)
        case timeout
        case tooLarge(Int)
        case closedEarly

        var description: String {
            switch self {
            case .badURL(let url): "not an http(s) URL with a host: \(url)"
            case .timeout: "no complete answer in time"
            case .tooLarge(let limit): "the answer is over \(limit) bytes"
            case .closedEarly: "the connection closed before the answer ended"
            }
        }
    }

    /// The client TLS context (system trust roots), made once.
    private static let tlsContext: Result<NIOSSLContext, any Error> = Result {
        try NIOSSLContext(configuration: .makeClientConfiguration())
    }

    /// Sends `GET url` with `headers` and returns the answer (any status).
    static func fetch(_ url: URL, headers: [(String, String)], timeout: Duration = .seconds(5),
                      maxBytes: Int = 1 << 20) async throws -> Answer {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parts.host, !host.isEmpty else {
            throw Failure.badURL(url.absoluteString)
        }
        let secure = scheme == "https"
        let port = parts.port ?? (secure ? 443 : 80)
        let target = (parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath)
            + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
        let tls = secure ? try tlsContext.get() : nil
        let bareHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host

        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = loop.makePromise(of: Answer.self)
        let limit = TimeAmount.nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000
                                           + timeout.components.attoseconds / 1_000_000_000)
        let deadline = loop.scheduleTask(in: limit) { promise.fail(Failure.timeout) }
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(limit)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        // SNI and name checks need a name; an address literal is checked as an address.
                        let name = IPAddressText.isLiteral(bareHost) ? nil : bareHost
                        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: name))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(AnswerCollector(promise: promise, maxBytes: maxBytes))
                }
            }
        let connecting = bootstrap.connect(host: bareHost, port: port)
        connecting.whenFailure { promise.fail($0) }
        connecting.whenSuccess { channel in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target)
            head.headers.add(name: "Host", value: parts.port.map { "\(host):\($0)" } ?? host)
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            head.headers.add(name: "Connection", value: "close")
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
        promise.futureResult.whenComplete { _ in
            deadline.cancel()
            connecting.whenSuccess { $0.close(promise: nil) }
        }
        return try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            promise.fail(CancellationError())
        }
    }

    /// Collects one response into `promise`; any error, an early close or an oversized body
    /// fails it (a promise completes once: later outcomes are ignored).
    private final class AnswerCollector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart

        let promise: EventLoopPromise<Answer>
        let maxBytes: Int
        var status = 0
        var body: [UInt8] = []

        init(promise: EventLoopPromise<Answer>, maxBytes: Int) {
            self.promise = promise
            self.maxBytes = maxBytes
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = Int(head.status.code)
            case .body(let buffer):
                guard body.count + buffer.readableBytes <= maxBytes else {
                    promise.fail(Failure.tooLarge(maxBytes))
                    context.close(promise: nil)
                    return
                }
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                promise.succeed(Answer(status: status, body: body))
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(Failure.closedEarly)
            context.fireChannelInactive()
        }
    }
}

/// Whether a host is written as an IP address (`10.0.0.1`, `::1`) rather than a name.
enum IPAddressText {
    static func isLiteral(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
