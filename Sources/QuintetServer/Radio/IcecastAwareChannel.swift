import HummingbirdCore
import Logging
import NIOCore

/// A server child channel that sends Icecast traffic to the radio's own SwiftNIO handlers and
/// every other connection, byte for byte, to `Inner` (the app's HTTP/1.1 + WebSocket channel).
///
/// Hummingbird's request model cannot take an Icecast source (ffmpeg's PUT body has neither
/// `Content-Length` nor chunked encoding, PROTOCOL.md §1.1) and would hold each listener in a
/// task with its own buffers. So each new connection first goes through ``IcecastSniffer``,
/// which reads the request line: `SOURCE` (any path), `PUT`, `GET`, `HEAD` of a path under
/// ``IcecastRouting/mountPrefix`` (`/live/`), and libshout's probes (`OPTIONS *`,
/// `GET /admin/!POKE`) go to ``LiveRadio``; anything else gets `Inner`'s
/// pipeline with the bytes read so far replayed into it unchanged. Only the first request of a
/// connection is looked at: keep-alive requests after it stay with whoever took the connection.
///
/// ```swift
/// let server = HTTPServerBuilder { responder in
///     IcecastAwareChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, …), radio: radio)
/// }
/// ```
struct IcecastAwareChannel<Inner: ServerChildChannel>: ServerChildChannel {
    /// Who took the connection.
    enum Route: Sendable {
        /// The application's pipeline, set up with the replayed bytes.
        case inner(Inner.Value)
        /// The radio's handlers; the connection lives until the channel closes.
        case icecast
    }

    /// The child channel and the future route, known once the request line has arrived.
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        let route: EventLoopFuture<Route>
    }

    /// The channel every non-Icecast connection gets.
    let inner: Inner
    /// The live radio that takes Icecast connections.
    let radio: LiveRadio

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // NIO keeps each connection's read buffer for reuse (its receive buffer pool), so
            // the default first read of 2 KiB would stay allocated for hours on every
            // listener, which reads nothing after its request. Start small; the allocator
            // still grows for connections that send more (uploads to the app).
            try channel.syncOptions?.setOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
            let promise = channel.eventLoop.makePromise(of: Route.self)
            let sniffer = IcecastSniffer(inner: inner, radio: radio, logger: logger, promise: promise)
            try channel.pipeline.syncOperations.addHandler(sniffer)
            return Value(channel: channel, route: promise.futureResult)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.route.get() {
            case .inner(let innerValue):
                await inner.handle(value: innerValue, logger: logger)
            case .icecast:
                // The radio's handlers own the channel from here; no task waits for it (one
                // task per listener would cost memory for nothing). Shutdown reaches them
                // through the pipeline (ChannelShouldQuiesceEvent).
                return
            }
        } catch {
            logger.trace("connection closed before its first request", metadata: ["error": "\(error)"])
        }
    }
}

/// The first handler of every connection: buffers bytes until the request line (and, for
/// Icecast requests, the whole head) has arrived, then hands the connection over.
///
/// Limits: the request line must arrive within ``lineTimeout`` (30 s) and an Icecast head
/// within ``headTimeout`` (10 s) and ``maxHeadBytes`` (16 KiB); otherwise the connection is
/// closed (a non-Icecast request line longer than the limit goes to the application, whose
/// own parser answers it).
final class IcecastSniffer<Inner: ServerChildChannel>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    static var lineTimeout: TimeAmount { .seconds(30) }
    static var headTimeout: TimeAmount { .seconds(10) }
    static var maxHeadBytes: Int { 16 * 1024 }

    private enum State { case line, icecastHead, handedOver }

    private let inner: Inner
    private let radio: LiveRadio
    private let logger: Logger
    private let promise: EventLoopPromise<IcecastAwareChannel<Inner>.Route>
    private var state = State.line
    private var buffered: ByteBuffer?
    private var timeout: Scheduled<Void>?

    init(inner: Inner, radio: LiveRadio, logger: Logger, promise: EventLoopPromise<IcecastAwareChannel<Inner>.Route>) {
        self.inner = inner
        self.radio = radio
        self.logger = logger
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        armTimeout(context: context, after: Self.lineTimeout)
    }

    private func armTimeout(context: ChannelHandlerContext, after delay: TimeAmount) {
        timeout?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timeout = context.eventLoop.scheduleTask(in: delay) { [promise] in
            promise.fail(ChannelError.inputClosed)
            loopBound.value.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if state == .handedOver {
            context.fireChannelRead(data)
            return
        }
        if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
        decide(context: context)
    }

    private func decide(context: ChannelHandlerContext) {
        guard let view = buffered?.readableBytesView else { return }
        switch state {
        case .line:
            guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
                if view.count > Self.maxHeadBytes { handToInner(context: context) }
                return
            }
            if IcecastRouting.isIcecast(requestLine: view[view.startIndex..<newline]) {
                state = .icecastHead
                armTimeout(context: context, after: Self.headTimeout)
                decide(context: context)
            } else {
                handToInner(context: context)
            }
        case .icecastHead:
            guard let end = Self.headEnd(view) else {
                if view.count > Self.maxHeadBytes {
                    timeout?.cancel()
                    promise.fail(ChannelError.inputClosed)
                    IcecastReply.send(.badRequest, on: context.channel)
                }
                return
            }
            guard var all = buffered, let headBytes = all.readBytes(length: end),
                  let head = IcecastRequestHead(headBytes) else {
                timeout?.cancel()
                promise.fail(ChannelError.inputClosed)
                IcecastReply.send(.badRequest, on: context.channel)
                return
            }
            state = .handedOver
            timeout?.cancel()
            buffered = nil
            promise.succeed(.icecast)
            let channel = context.channel
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            radio.accept(head: head, rest: all, channel: channel)
        case .handedOver:
            break
        }
    }

    /// The length of the head including its blank line (`\r\n\r\n` or `\n\n`), or nil.
    static func headEnd(_ view: ByteBufferView) -> Int? {
        var previousNewline = -2
        var index = 0
        for byte in view {
            if byte == UInt8(ascii: "\n") {
                // (`index >= 1`: a line feed as the very first byte has no byte before it.)
                if previousNewline == index - 1 || index >= 1 && previousNewline == index - 2
                    && view[view.index(view.startIndex, offsetBy: index - 1)] == UInt8(ascii: "\r") {
                    return index + 1
                }
                previousNewline = index
            }
            index += 1
        }
        return nil
    }

    private func handToInner(context: ChannelHandlerContext) {
        state = .handedOver
        timeout?.cancel()
        let channel = context.channel
        inner.setup(channel: channel, logger: logger).whenComplete { [promise] result in
            switch result {
            case .success(let value):
                promise.succeed(.inner(value))
            case .failure(let error):
                promise.fail(error)
                channel.close(promise: nil)
            }
        }
        // Removing this handler replays the buffered bytes into the inner pipeline.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        if let bytes = buffered, bytes.readableBytes > 0 {
            buffered = nil
            context.fireChannelRead(wrapInboundOut(bytes))
            context.fireChannelReadComplete()
        }
        context.leavePipeline(removalToken: removalToken)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        if state != .handedOver { promise.fail(ChannelError.inputClosed) }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A connection that has not sent its first request when the server shuts down (or
        // half-closed before it) is closed; after the hand-over, events go to the new owner.
        if state != .handedOver, event is ChannelShouldQuiesceEvent || (event as? ChannelEvent) == .inputClosed {
            timeout?.cancel()
            promise.fail(ChannelError.inputClosed)
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
