/// A piece of live stream data that ``StreamBuffer`` can hold: `[UInt8]` here; the server can
/// conform its own buffer type (a SwiftNIO `ByteBuffer`) so listeners write the very chunk the
/// source sent, with no copy.
public protocol StreamChunk: Sendable {
    /// Bytes in the chunk.
    var byteCount: Int { get }
    /// Calls `body` with the chunk's bytes (used once per chunk to find frame boundaries).
    func withUnsafeChunkBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: StreamChunk where Element == UInt8 {
    /// The array's count.
    public var byteCount: Int { count }
    /// The array's bytes.
    public func withUnsafeChunkBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

/// A part of one stored chunk: the chunk itself (shared, not copied) and the byte range to send.
public struct StreamSlice<Chunk: StreamChunk>: Sendable {
    /// The stored chunk.
    public let chunk: Chunk
    /// The bytes of `chunk` to send, as indexes from its first byte.
    public let range: Range<Int>
    /// The absolute stream offset of `range.lowerBound`.
    public let offset: Int64

    @inlinable init(chunk: Chunk, range: Range<Int>, offset: Int64) {
        self.chunk = chunk
        self.range = range
        self.offset = offset
    }
}

/// The answer to ``StreamBuffer/read(from:maxBytes:)``.
public enum StreamRead<Chunk: StreamChunk>: Sendable {
    /// Data from the requested offset; `next` is the offset to read from next time.
    case data([StreamSlice<Chunk>], next: Int64)
    /// Nothing new yet: the reader is at the end of the buffer.
    case caughtUp
    /// The requested offset has left the buffer (the reader fell more than the queue size
    /// behind): the server should drop this listener. `oldest` is the first offset still held.
    case tooSlow(oldest: Int64)
}

/// The live stream of one mount: the most recent chunks (about ``capacity`` bytes, Icecast's
/// `queue-size`, 512 KiB by default) with absolute byte offsets, and the frame boundaries
/// inside them.
///
/// Listeners keep only an absolute offset (`Int64`) each; thousands of them read the same
/// stored chunks, which ``read(from:maxBytes:)`` returns as slices, never copies. A reader whose
/// offset has left the buffer is reported ``StreamRead/tooSlow(oldest:)``.
///
/// A value type (copy-on-write storage) and `Sendable` when `Chunk` is: one mount's buffer is
/// owned and mutated by one isolation domain (the mount's actor or event loop); readers on the
/// same domain call `read`.
///
/// ```swift
/// var buffer = StreamBuffer<[UInt8]>(framing: AudioFraming(contentType: "audio/mpeg"))
/// buffer.append(chunkFromSource)
/// var position = buffer.burstStart()            // ~64 KiB back, on a frame boundary
/// if case .data(let slices, let next) = buffer.read(from: position) { send(slices); position = next }
/// ```
public struct StreamBuffer<Chunk: StreamChunk>: Sendable {
    /// Bytes to keep: the oldest chunk is dropped as soon as the newer ones hold `capacity`
    /// bytes, so the buffer holds between `capacity` and `capacity` plus one chunk once full.
    public let capacity: Int
    /// How frame boundaries are found (``AudioFraming/none`` keeps chunk boundaries only).
    public let framing: AudioFraming

    // Internal and `@usableFromInline` so that `read`, `slices` and `lag` can be `@inlinable`:
    // the server calls them per listener per batch with its own chunk type, and unspecialised
    // generic code there cost ~4 % of the server's CPU in generic metadata look-ups.
    @usableFromInline var chunks: [(offset: Int64, chunk: Chunk)] = []
    @usableFromInline var chunkHead = 0
    private var frameStarts: [Int64] = []
    private var frameHead = 0
    private var scanner: AudioFrameScanner?
    /// Absolute offset one past the newest byte (the total bytes appended so far).
    public private(set) var endOffset: Int64 = 0
    /// Absolute offset of the oldest byte still held.
    public private(set) var startOffset: Int64 = 0

    /// An empty buffer of `capacity` bytes cutting bursts on `framing`'s frames.
    public init(capacity: Int = 512 * 1024, framing: AudioFraming) {
        self.capacity = max(1, capacity)
        self.framing = framing
        scanner = framing == .none ? nil : AudioFrameScanner(framing: framing)
    }

    /// Bytes held.
    public var count: Int { Int(endOffset - startOffset) }

    /// The number of chunks held.
    @inlinable public var chunkCount: Int { chunks.count - chunkHead }

    /// The absolute offsets of the frame starts held, oldest first (empty for `.none`).
    public var frameOffsets: ArraySlice<Int64> { frameStarts[frameHead...] }

    /// Appends the next chunk from the source and drops the oldest chunks beyond ``capacity``.
    /// Empty chunks are ignored.
    public mutating func append(_ chunk: Chunk) {
        let n = chunk.byteCount
        guard n > 0 else { return }
        if var s = scanner {
            let found = chunk.withUnsafeChunkBytes { s.append($0) }
            scanner = s
            frameStarts.append(contentsOf: found.map(\.offset))
        }
        chunks.append((endOffset, chunk))
        endOffset += Int64(n)
        while chunkCount > 1, count - chunks[chunkHead].chunk.byteCount >= capacity {
            chunkHead += 1
            startOffset = chunks[chunkHead].offset
        }
        while frameHead < frameStarts.count, frameStarts[frameHead] < startOffset { frameHead += 1 }
        if chunkHead > 64, chunkHead * 2 > chunks.count {
            chunks.removeFirst(chunkHead)
            chunkHead = 0
        }
        if frameHead > 256, frameHead * 2 > frameStarts.count {
            frameStarts.removeFirst(frameHead)
            frameHead = 0
        }
    }

    /// Where a new listener starts: about `size` bytes back from the end (Icecast's
    /// `burst-size`, 64 KiB), on the latest frame start at or before `endOffset - size`, so the
    /// burst is at least `size` bytes when the buffer holds that much. With no frame start that
    /// far back it is the oldest frame start; for ``AudioFraming/none`` it is a chunk start by
    /// the same rule. Returns ``endOffset`` when nothing suitable is held (empty buffer, or a
    /// framed stream whose first frame is not confirmed yet).
    public func burstStart(size: Int = 64 * 1024) -> Int64 {
        let target = endOffset - Int64(max(0, size))
        if framing == .none {
            guard chunkCount > 0 else { return endOffset }
            let i = lastIndex(in: chunkHead..<chunks.count, atOrBefore: target) { chunks[$0].offset }
            return chunks[i ?? chunkHead].offset
        }
        guard frameHead < frameStarts.count else { return endOffset }
        let i = lastIndex(in: frameHead..<frameStarts.count, atOrBefore: target) { frameStarts[$0] }
        return frameStarts[i ?? frameHead]
    }

    /// Reads from absolute offset `offset` up to `maxBytes` bytes, as slices of stored chunks.
    /// Offsets at or past ``endOffset`` are ``StreamRead/caughtUp``; offsets before
    /// ``startOffset`` are ``StreamRead/tooSlow(oldest:)``.
    @inlinable public func read(from offset: Int64, maxBytes: Int = .max) -> StreamRead<Chunk> {
        if offset < startOffset { return .tooSlow(oldest: startOffset) }
        guard offset < endOffset, maxBytes > 0 else { return .caughtUp }
        var i = lastIndex(in: chunkHead..<chunks.count, atOrBefore: offset) { chunks[$0].offset } ?? chunkHead
        var slices: [StreamSlice<Chunk>] = []
        var position = offset
        var budget = maxBytes
        while i < chunks.count, budget > 0 {
            let (chunkOffset, chunk) = chunks[i]
            let from = Int(position - chunkOffset)
            let upTo = budget >= chunk.byteCount - from ? chunk.byteCount : from + budget
            slices.append(StreamSlice(chunk: chunk, range: from..<upTo, offset: position))
            budget -= upTo - from
            position += Int64(upTo - from)
            i += 1
        }
        return .data(slices, next: position)
    }

    /// Bytes between `offset` and the end: how far a reader lags behind the source.
    @inlinable public func lag(of offset: Int64) -> Int64 { endOffset - offset }

    /// The slices covering the absolute byte range `range` (clamped to what is held).
    @inlinable public func slices(for range: Range<Int64>) -> [StreamSlice<Chunk>] {
        let lower = max(range.lowerBound, startOffset)
        guard lower < range.upperBound,
              case .data(let slices, _) = read(from: lower, maxBytes: Int(range.upperBound - lower))
        else { return [] }
        return slices
    }

    @inlinable func lastIndex(in indices: Range<Int>, atOrBefore target: Int64, _ value: (Int) -> Int64) -> Int? {
        var low = indices.lowerBound, high = indices.upperBound   // first index with value > target
        while low < high {
            let mid = (low + high) / 2
            if value(mid) <= target { low = mid + 1 } else { high = mid }
        }
        return low > indices.lowerBound ? low - 1 : nil
    }
}
