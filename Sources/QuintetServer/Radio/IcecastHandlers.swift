import Foundation
import NIOCore
import AudioCore

/// Where a source's bytes go: straight into its mount (MP3, AAC) or through ffmpeg (Ogg, WebM).
enum LiveSourceFeeder: Sendable {
    case direct(LiveMount)
    case transcoder(LiveTranscoder)

    func feed(_ bytes: ByteBuffer, from channel: any Channel) {
        switch self {
        case .direct(let mount):
            if mount.eventLoop.inEventLoop {
                mount.append(bytes, from: channel)
            } else {
                mount.eventLoop.execute { mount.append(bytes, from: channel) }
            }
        case .transcoder(let transcoder):
            transcoder.write(bytes)
        }
    }

    func finish(from channel: any Channel) {
        switch self {
        case .direct(let mount):
            mount.eventLoop.execute { mount.sourceGone(channel) }
        case .transcoder(let transcoder):
            transcoder.finish()   // the mount hears of it once ffmpeg has flushed its output
        }
    }
}

/// The handler of a source connection once it was accepted: every byte read is audio for the
/// mount; nothing is written back. A source silent for `timeout` is disconnected
/// (icecast's `source-timeout`); when the connection ends the mount starts its grace period.
final class IcecastSourceHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let mount: LiveMount
    private let feeder: LiveSourceFeeder
    private let timeout: TimeAmount
    private var lastData = NIODeadline.now()
    private var check: RepeatedTask?
    private var finished = false

    init(mount: LiveMount, feeder: LiveSourceFeeder, timeout: TimeAmount) {
        self.mount = mount
        self.feeder = feeder
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
        let step = TimeAmount.milliseconds(min(1000, max(10, timeout.nanoseconds / 1_000_000 / 4)))
        check = context.eventLoop.scheduleRepeatedTask(initialDelay: step, delay: step) { _ in
            let (context, handler) = loopBound.value
            guard NIODeadline.now() - handler.lastData >= handler.timeout else { return }
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastData = .now()
        guard !finished else { return }
        feeder.feed(unwrapInboundIn(data), from: context.channel)
    }

    private func finish(context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        check?.cancel()
        feeder.finish(from: context.channel)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            finish(context: context)
            context.close(promise: nil)
        } else if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// The handler of a listener connection: the mount writes to the channel; what the listener
/// sends after its request is ignored, and its connection is closed when it closes its side,
/// on an error, or when the server shuts down.
final class IcecastListenerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        } else if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Turns an Ogg or WebM (Opus, Vorbis) source into MP3 at 128 kbit/s with the `ffmpeg` binary
/// (an AudioCore `ChildProcess`): the source's bytes go to ffmpeg's standard input, its standard
/// output goes to the mount as it comes. Writes to ffmpeg happen on a serial queue, never on the
/// event loop.
/// `@unchecked Sendable`: `closed` is touched only on `queue`.
final class LiveTranscoder: @unchecked Sendable {
    private let child: ChildProcess
    private let queue = DispatchQueue(label: "quintet.radio.transcoder")
    private var closed = false   // on `queue`

    init(ffmpeg: String, mount: LiveMount, source: any Channel) throws {
        child = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: [ffmpeg, "-hide_banner", "-loglevel", "error", "-i", "pipe:0",
                        "-vn", "-c:a", "libmp3lame", "-b:a", "128k", "-ar", "44100", "-f", "mp3",
                        "-flush_packets", "1", "pipe:1"],
            input: .pipe)
        child.streamOutput { data in
            if data.isEmpty {
                mount.eventLoop.execute { mount.sourceGone(source) }
            } else {
                let bytes = ByteBuffer(bytes: data)
                mount.eventLoop.execute { mount.append(bytes, from: source) }
            }
        }
    }

    /// Sends source bytes to ffmpeg.
    func write(_ bytes: ByteBuffer) {
        queue.async {
            guard !self.closed else { return }
            do {
                try self.child.write(Data(bytes.readableBytesView))
            } catch {
                self.closed = true
                self.child.terminate()
            }
        }
    }

    /// The source ended: closes ffmpeg's input so it flushes and exits.
    func finish() {
        queue.async {
            guard !self.closed else { return }
            self.closed = true
            self.child.closeInput()
        }
    }
}

/// Holds a source's first bytes while its mount is being claimed on another event loop (a
/// source returning within the grace period); removing it replays them, in order, to the
/// handler added after it.
final class IcecastInboundHold: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var held: [ByteBuffer] = []
    private var limit = 1 << 20   // 1 MiB: a source cannot make the server buffer more

    /// A hold whose first bytes are `first` (what arrived with the request head).
    init(first: ByteBuffer) {
        if first.readableBytes > 0 { held.append(first) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        limit -= bytes.readableBytes
        guard limit >= 0 else {
            context.close(promise: nil)
            return
        }
        held.append(bytes)
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        for bytes in held { context.fireChannelRead(wrapInboundOut(bytes)) }
        if !held.isEmpty { context.fireChannelReadComplete() }
        held = []
        context.leavePipeline(removalToken: removalToken)
    }
}
