import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A server child channel that speaks TLS, then hands the decrypted connection to `Inner`
/// (``IcecastAwareChannel``: pages, API, WebSockets, Subsonic and the radio's Icecast handlers
/// all sit behind it). Each connection takes the context ``ServerTLS`` holds when it is
/// accepted, so a certificate re-read on SIGHUP reaches new connections while open ones (a
/// listener hours into a broadcast) keep theirs.
struct TLSChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let tls: ServerTLS

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let added = channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.context))
        }
        return added.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
