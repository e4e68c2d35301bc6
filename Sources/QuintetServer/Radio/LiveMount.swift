import Foundation
import MediaTags
import NIOCore
import Radio

/// What a source said about its stream (its `Ice-*` headers and type), as listeners see it.
struct LiveStreamInfo: Sendable, Hashable {
    /// The type listeners get (`audio/mpeg` for a transcoded source).
    var contentType: String
    /// `Ice-Name`, `Ice-Description`, `Ice-Genre`, `Ice-URL`, `Ice-Public`, `Ice-Bitrate`.
    var name: String?
    var description: String?
    var genre: String?
    var url: String?
    var isPublic: String?
    var bitrate: String?
}

/// One live mount: the stream buffer, the titles, the listeners and the source, all confined to
/// one event loop (``eventLoop``): every method must be called on it.
///
/// Why an event loop and not an actor: the source's bytes arrive as `ByteBuffer`s on an event
/// loop and listeners are channels; keeping the mount on a loop lets it append, fan out and
/// check writability with plain calls, with no task hop or executor switch per chunk or per
/// listener. Listeners on other loops get their batches through one `execute` per loop per tick.
///
/// Fan-out: every ``LiveRadio/Configuration/batchInterval`` (500 ms) the mount writes to each
/// listener what arrived since its last batch, as slices of the source's own buffers (no copy).
/// A listener whose channel is not writable is skipped; once it lags more than
/// ``LiveRadio/Configuration/slowListenerSeconds`` of audio, or its position has left the
/// buffer (`StreamBuffer.read` → `.tooSlow`), it is closed. Nobody else waits for it.
///
/// `@unchecked Sendable`: its mutable state is touched only on `eventLoop`.
final class LiveMount: @unchecked Sendable {
    /// A listener's connection and position; touched only on the mount's loop (and handed over
    /// once to a fallback mount's loop). `@unchecked Sendable` for that reason.
    final class Listener: @unchecked Sendable {
        let id: Int
        let channel: any Channel
        var offset: Int64
        var icy: IcyInterleaver?
        /// The connection speaks TLS: its batches are flushed in pieces (see ``Delivery``).
        let encrypted: Bool
        /// Another Icecast server relaying the mount (``IcecastRelay``): counted apart.
        let relay: Bool
        init(id: Int, channel: any Channel, offset: Int64, icy: IcyInterleaver?, encrypted: Bool, relay: Bool = false) {
            self.id = id
            self.channel = channel
            self.offset = offset
            self.icy = icy
            self.encrypted = encrypted
            self.relay = relay
        }
    }

    /// The mount path (`/live/…`).
    let path: String
    /// The loop that owns this mount.
    let eventLoop: any EventLoop
    /// The show broadcasting.
    let show: LiveShow
    /// When the broadcast started.
    let streamStart = Date()
    private unowned let radio: LiveRadio
    private(set) var info: LiveStreamInfo
    private var buffer: StreamBuffer<LiveChunk>
    private(set) var titles = IcyTitleHistory()
    private(set) var titleText: String?
    private var listeners: [Int: Listener] = [:]
    private var nextListenerID = 0
    /// Connections now (listeners and relays), and the most listeners (relays excluded) at once.
    var listenerCount: Int { listeners.count }
    /// Relays (``IcecastRelay``) among the connections now.
    private(set) var relayCount = 0
    /// Listeners now, relays excluded (what `/status-json.xsl` and `/api/radio/live` call listeners).
    var audienceCount: Int { listeners.count - relayCount }
    private(set) var peakListeners = 0
    private var peakDirty = false
    private var pendingBytesOut = 0
    private(set) var listens = 0
    private var source: (any Channel)?
    private var graceStart: NIODeadline?
    private var silenceFramesSent = 0
    private var lastHeader: MPEGAudioHeader?
    private var lastHeaderOffset: Int64 = -1
    private var tick: RepeatedTask?
    private(set) var ended = false
    private let recorder: LiveRecorder?
    private let episode: LiveEpisode?
    /// The id of the episode this broadcast is recorded as, if recording started.
    var episodeID: Int64? { episode?.id }
    /// Frames the mount has seen and bytes received from sources.
    private(set) var bytesIn: Int64 = 0

    init(path: String, show: LiveShow, info: LiveStreamInfo, eventLoop: any EventLoop, radio: LiveRadio,
         episode: LiveEpisode?, recorder: LiveRecorder?) {
        self.path = path
        self.show = show
        self.info = info
        self.eventLoop = eventLoop
        self.radio = radio
        self.episode = episode
        self.recorder = recorder
        buffer = StreamBuffer(capacity: radio.configuration.queueSize, framing: AudioFraming(contentType: info.contentType))
    }

    /// Starts the batch timer; call once, on ``eventLoop``.
    func start(source: any Channel) {
        self.source = source
        let interval = radio.configuration.batchInterval
        tick = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in
            self?.onTick()
        }
    }

    // MARK: source

    /// Whether a source is connected now.
    var hasSource: Bool { source != nil }

    /// A returning source within the grace period: it continues the same broadcast. False when
    /// the mount is busy or over.
    func reattach(source channel: any Channel, info newInfo: LiveStreamInfo) -> Bool {
        guard !ended, source == nil, newInfo.contentType == info.contentType else { return false }
        source = channel
        graceStart = nil
        silenceFramesSent = 0
        info = newInfo
        return true
    }

    /// Bytes from the (current) source.
    func append(_ bytes: ByteBuffer, from channel: any Channel) {
        guard !ended, let source, source === channel, bytes.readableBytes > 0 else { return }
        bytesIn += Int64(bytes.readableBytes)
        radio.metrics.bytesIn.increment(by: Int64(bytes.readableBytes))
        // Listeners are written once per tick anyway: the source's small reads (often one MP3
        // frame each) are gathered into one chunk per tick, so a listener's batch is one slice
        // (plus ICY splits) and its channel's pending-write queue never has to grow (it keeps
        // its grown capacity for the connection's life: ~8 KiB per listener measured with
        // heaptrack when every source read was its own slice).
        if var gathered = pending {
            pending = nil   // one reference, so the write below does not copy
            var more = bytes
            gathered.writeBuffer(&more)
            pending = gathered
        } else {
            var gathered = ByteBuffer()
            gathered.reserveCapacity(max(bytes.readableBytes, byteRate / 2))
            var more = bytes
            gathered.writeBuffer(&more)
            pending = gathered
        }
        recorder?.write(bytes)
    }

    /// Audio received since the last tick, not yet in ``buffer``.
    private var pending: ByteBuffer?

    /// Moves ``pending`` into the stream buffer (before a tick's writes, a new listener's burst,
    /// a title change, silence or the end).
    private func flushPending() {
        guard let bytes = pending else { return }
        pending = nil
        appendToStream(bytes)
    }

    private func appendToStream(_ bytes: ByteBuffer) {
        buffer.append(LiveChunk(buffer: bytes))
        titles.prune(before: buffer.startOffset)
        // The stream's format (for silence frames and the byte rate) comes from the newest
        // frame the core's scanner confirmed, never from a lone sync word.
        if let frame = buffer.frameOffsets.last, frame != lastHeaderOffset {
            var word: [UInt8] = []
            for slice in buffer.slices(for: frame..<frame + 4) {
                slice.chunk.buffer.withUnsafeReadableBytes { word += $0[slice.range] }
            }
            if word.count == 4, let header = MPEGAudioHeader(word[0], word[1], word[2], word[3], accepting: .layerIII) {
                lastHeader = header
                lastHeaderOffset = frame
            }
        }
    }

    /// The source left: listeners stay for the grace period, fed with silence.
    func sourceGone(_ channel: any Channel) {
        guard let source, source === channel, !ended else { return }
        self.source = nil
        graceStart = .now()
        silenceFramesSent = 0
        if radio.configuration.gracePeriod <= .zero { end() }
    }

    /// Sets the title for the audio from now on.
    func setTitle(_ title: IcyTitle) {
        flushPending()
        titles.set(title, at: buffer.endOffset)
        titleText = title.text
    }

    // MARK: listeners

    /// Adds a listener: writes the response head and the burst at once. `encrypted`: the
    /// connection speaks TLS. A `relay` (another Icecast server) is served like any listener
    /// but is neither a listen of the episode nor part of its listener peak.
    func addListener(channel: any Channel, wantsMetadata: Bool, encrypted: Bool = false, relay: Bool = false) {
        guard !ended else {
            IcecastReply.send(.notFound, on: channel)
            return
        }
        flushPending()
        let id = nextListenerID
        nextListenerID += 1
        let start = buffer.burstStart(size: radio.configuration.burstSize)
        let metaint = radio.configuration.metaint
        let listener = Listener(id: id, channel: channel, offset: start,
                                icy: wantsMetadata ? IcyInterleaver(metaint: metaint, startingAt: start) : nil,
                                encrypted: encrypted, relay: relay)
        listeners[id] = listener
        radio.listenerAdded()
        if relay {
            relayCount += 1
        } else {
            listens += 1
            if let episode { radio.listenCounted(episode) }
            notePeak()
        }
        let head = ByteBuffer(string: listenerHead(metadata: wantsMetadata))
        channel.closeFuture.whenComplete { [weak self] _ in
            guard let self else { return }
            self.eventLoop.execute { self.removeListener(id) }
        }
        serve(listener, first: head)
        deliverRemote()
    }

    private func notePeak() {
        if audienceCount > peakListeners {
            peakListeners = audienceCount
            peakDirty = true
        }
    }

    /// Moves listeners from an ended mount here (the show's fallback), keeping their connection.
    /// An ICY listener (a relay asks for metadata) keeps its block rhythm: its next block comes
    /// where it expects one and carries this mount's title.
    func adopt(_ moved: [Listener]) {
        guard !ended else {
            for listener in moved { listener.channel.close(promise: nil) }
            return
        }
        flushPending()
        for listener in moved {
            radio.listenerAdded()
            let id = nextListenerID
            nextListenerID += 1
            let start = buffer.burstStart(size: radio.configuration.burstSize)
            let newcomer = Listener(id: id, channel: listener.channel, offset: start, icy: listener.icy?.continuing(at: start),
                                    encrypted: listener.encrypted, relay: listener.relay)
            listeners[id] = newcomer
            if listener.relay { relayCount += 1 } else { notePeak() }
            listener.channel.closeFuture.whenComplete { [weak self] _ in
                guard let self else { return }
                self.eventLoop.execute { self.removeListener(id) }
            }
        }
    }

    private func removeListener(_ id: Int) {
        if let gone = listeners.removeValue(forKey: id) {
            if gone.relay { relayCount -= 1 }
            radio.listenerRemoved()
        }
    }

    /// The response head of §2.1, `icy-*` written `name:value`.
    func listenerHead(metadata: Bool) -> String {
        func clean(_ s: String) -> String { String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init)) }
        var head = IcecastReply.commonHead(status: "200 OK", contentType: info.contentType)
        // `icy-br` from the source's `Ice-Bitrate`, else from the stream's own MP3 frames
        // (ffmpeg sends no `Ice-Bitrate`; icecast then sends no `icy-br`, players want one).
        if let v = info.bitrate ?? lastHeader.map({ String($0.bitrate / 1000) }) { head += "icy-br:\(clean(v))\r\n" }
        if let v = info.description { head += "icy-description:\(clean(v))\r\n" }
        if let v = info.genre { head += "icy-genre:\(clean(v))\r\n" }
        head += "icy-name:\(clean(info.name ?? show.title))\r\n"
        if let v = info.isPublic { head += "icy-pub:\(clean(v))\r\n" }
        if let v = info.url { head += "icy-url:\(clean(v))\r\n" }
        head += "icy-metadata:1\r\n"
        if metadata { head += "icy-metaint:\(radio.configuration.metaint)\r\n" }
        return head + "\r\n"
    }

    /// Writes what `listener` has not had yet; drops it when it fell too far behind. With
    /// `closing`, the connection is closed once that last batch is written.
    private func serve(_ listener: Listener, first: ByteBuffer? = nil, closing: Bool = false) {
        let channel = listener.channel
        if first == nil, !closing, !channel.isWritable {
            let limit = Int64(Double(byteRate) * radio.configuration.slowListenerSeconds)
            if buffer.lag(of: listener.offset) > limit { drop(listener) }
            return
        }
        var out: [ByteBuffer] = []
        if let first { out.append(first) }
        switch buffer.read(from: listener.offset) {
        case .tooSlow:
            drop(listener)
            return
        case .caughtUp:
            break
        case .data(var slices, var next):
            // A listener catching up after a pause gets at most `maxSlicesPerBatch` chunks now
            // and the rest on the next ticks (each chunk is a tick's worth of audio, so it
            // still gains many times real time), without copying and without growing its
            // channel's pending-write queue.
            if first == nil, !closing, slices.count > Self.maxSlicesPerBatch {
                slices.removeLast(slices.count - Self.maxSlicesPerBatch)
                let last = slices[slices.count - 1]
                next = last.offset + Int64(last.range.count)
            }
            if var icy = listener.icy {
                for piece in icy.advance(to: next, titles: titles) {
                    switch piece {
                    case .audio(let range):
                        for slice in buffer.slices(for: range) { out.append(slice.byteBuffer) }
                    case .metadata(let block):
                        out.append(block.count == 1 ? Self.emptyBlock : ByteBuffer(bytes: block))
                    }
                }
                listener.icy = icy
            } else {
                for slice in slices { out.append(slice.byteBuffer) }
            }
            listener.offset = next
        }
        guard !out.isEmpty || closing else { return }
        var total = 0
        for b in out { total += b.readableBytes }
        pendingBytesOut += total
        if first != nil, out.count > 4 {
            // A burst (64 KiB of older chunks): one buffer, so the channel's pending-write
            // queue stays at its initial size (see `append`). Copied once per connection.
            var joined = ByteBuffer()
            joined.reserveCapacity(total)
            for var b in out { joined.writeBuffer(&b) }
            out = [joined]
        }
        let delivery = Delivery(channel: channel, buffers: out, closing: closing,
                                flushEvery: listener.encrypted ? Delivery.encryptedPiece : nil)
        if channel.eventLoop === eventLoop {
            delivery.write()
        } else if let i = remote.firstIndex(where: { $0.loop === channel.eventLoop }) {
            remote[i].deliveries.append(delivery)
        } else {
            remote.append((channel.eventLoop, [delivery]))
        }
    }

    /// One listener's batch: written on the listener's own loop and flushed; over TLS flushed
    /// every ``encryptedPiece`` bytes.
    ///
    /// Why pieces over TLS: swift-nio-ssl encrypts what one flush hands it into a single
    /// buffer per connection that keeps its largest capacity for the connection's life (its
    /// `maximumPreservedOutboundBufferCapacity` is not applied by 2.37). A 64 KiB burst flushed
    /// at once left every TLS listener holding 64 KiB+ of ciphertext buffer (5,000 listeners:
    /// 602 MB against icecast2's 174, docs/benchmarks.md "TLS cost"). Pieces of 2 KiB keep it at
    /// its initial 16 KiB, of which only the first pages are ever written (with
    /// ``MallocTuning``, only those are resident): 8 KiB pieces gave 235 MB, 2 KiB 217 MB
    /// (without the tuning). Plain connections get one flush per batch: pieces there cost
    /// `writev` calls (a tick's 8 KB in four: plain CPU 1.0× icecast2's instead of 0.6×) and
    /// save nothing, the chunks being shared by every listener.
    private struct Delivery: Sendable {
        static let encryptedPiece = 2 * 1024

        let channel: any Channel
        let buffers: [ByteBuffer]
        let closing: Bool
        let flushEvery: Int?

        func write() {
            if let flushEvery {
                var unflushed = 0
                for buffer in buffers {
                    var rest = buffer
                    while rest.readableBytes > 0, let piece = rest.readSlice(length: min(rest.readableBytes, flushEvery - unflushed)) {
                        channel.write(piece, promise: nil)
                        unflushed += piece.readableBytes
                        if unflushed == flushEvery {
                            channel.flush()
                            unflushed = 0
                        }
                    }
                }
            } else {
                for b in buffers { channel.write(b, promise: nil) }
            }
            if closing {
                let channel = self.channel
                channel.writeAndFlush(ByteBuffer()).whenComplete { _ in channel.close(promise: nil) }
            } else {
                channel.flush()
            }
        }
    }

    /// Batches for listeners on other event loops, grouped by loop: one `execute` per loop per
    /// tick instead of one per listener (a closure, a wake-up and their retains each).
    private var remote: [(loop: any EventLoop, deliveries: [Delivery])] = []

    /// Hands the batches gathered in ``remote`` to their loops.
    private func deliverRemote() {
        for (loop, deliveries) in remote where !deliveries.isEmpty {
            loop.execute { for delivery in deliveries { delivery.write() } }
        }
        for i in remote.indices { remote[i].deliveries = [] }
    }

    private static let emptyBlock = ByteBuffer(bytes: [0])
    /// Chunks written to one listener per tick at most (NIO's pending-write queue starts with
    /// room for 16 writes; ICY blocks come in between).
    static let maxSlicesPerBatch = 8

    private func drop(_ listener: Listener) {
        // (At the end of a broadcast the listener was already taken out: it is only closed.)
        if listeners.removeValue(forKey: listener.id) != nil {
            if listener.relay { relayCount -= 1 }
            radio.listenerRemoved(dropped: true)
        }
        listener.channel.close(promise: nil)
    }

    /// Bytes per second of the stream (from its frames; 16,000 until one is seen).
    var byteRate: Int { max(1000, (lastHeader?.bitrate ?? 128_000) / 8) }

    // MARK: time

    private func onTick() {
        guard !ended else { return }
        flushPending()
        if let limit = show.maxEpisodeSeconds, limit > 0, Date().timeIntervalSince(streamStart) >= Double(limit) {
            // An Icecast source reads nothing after its 200: the message goes to the log, and a
            // source that reconnects during the cooldown is refused with it (403, Retry-After).
            radio.logger.warning("radio broadcast cut off: the show's maximum episode length was reached",
                                 metadata: ["mount": "\(path)", "max_seconds": "\(limit)"])
            radio.broadcastCutOff(mount: path, reason: .length(seconds: limit))
            end()
            return
        }
        if let storage = show.storage, bytesIn >= storage.bytes {
            let error = storage.error(recorded: bytesIn)
            radio.logger.warning("radio broadcast cut off: the owner's plan storage is full",
                                 metadata: ["mount": "\(path)", "plan": "\(storage.plan)", "allowed_bytes": "\(storage.allowed)"])
            radio.broadcastCutOff(mount: path, reason: .storage(error))
            end()
            return
        }
        if let graceStart {
            let elapsed = NIODeadline.now() - graceStart
            if elapsed >= radio.configuration.gracePeriod {
                end()
                return
            }
            fillSilence(elapsed: elapsed)
        }
        for listener in listeners.values { serve(listener) }
        deliverRemote()
        if pendingBytesOut > 0 {
            radio.metrics.bytesOut.increment(by: Int64(pendingBytesOut))
            pendingBytesOut = 0
        }
        if peakDirty, let episode {
            peakDirty = false
            radio.peakReached(episode, listeners: peakListeners)
        }
    }

    /// Appends the silence frames owed for `elapsed` of grace period (real time).
    private func fillSilence(elapsed: TimeAmount) {
        flushPending()
        guard let header = lastHeader else { return }
        let owed = Int(Double(elapsed.nanoseconds) / 1e9 / header.duration) - silenceFramesSent
        guard owed > 0 else { return }
        let frame = header.silentFrame()
        var out = ByteBuffer()
        out.reserveCapacity(frame.count * owed)
        for _ in 0..<owed { out.writeBytes(frame) }
        silenceFramesSent += owed
        appendToStream(out)
    }

    /// The broadcast is over: the episode ends, listeners go to the fallback mount or are closed.
    func end() {
        guard !ended else { return }
        flushPending()
        ended = true
        tick?.cancel()
        tick = nil
        source?.close(promise: nil)
        source = nil
        radio.removeMount(self)
        let bytes = bytesIn
        let (listens, peak) = (self.listens, peakListeners)
        if let episode {
            let recorder = self.recorder
            let radio = self.radio
            radio.finishQueue.async {
                recorder?.close()
                radio.episodeEnded(episode, bytes: bytes, listens: listens, peakListeners: peak)
            }
        }
        let remaining = Array(listeners.values)
        listeners.removeAll()
        relayCount = 0
        for _ in remaining { radio.listenerRemoved() }
        if let fallback = show.fallbackMount, let target = radio.mount(at: fallback), target !== self {
            // Listeners and relays alike, ICY or not, keep their connection.
            target.eventLoop.execute { target.adopt(remaining) }
        } else {
            // What arrived since the last batch still goes out, then the connection closes.
            for listener in remaining { serve(listener, closing: true) }
            deliverRemote()
        }
    }

    /// This mount as `/status-json.xsl` lists it.
    func status(listenURLBase: String) -> IcecastMountStatus {
        IcecastMountStatus(genre: info.genre ?? "", listenerPeak: peakListeners, listeners: audienceCount, relays: relayCount,
                           listenURL: listenURLBase + path, serverDescription: info.description ?? "",
                           serverName: info.name ?? show.title, serverType: info.contentType,
                           serverURL: info.url ?? "", streamStart: streamStart, title: titleText)
    }
}
