import NIOCore
import Radio

/// A chunk of a live stream as the source sent it: a SwiftNIO `ByteBuffer` that every listener
/// writes as is (slices share its storage), so the fan-out copies no audio.
struct LiveChunk: StreamChunk {
    /// The source's bytes (readable part only).
    let buffer: ByteBuffer

    var byteCount: Int { buffer.readableBytes }

    func withUnsafeChunkBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeReadableBytes(body)
    }

    /// The bytes `range` (indexes from the first readable byte) as a buffer sharing storage.
    func slice(_ range: Range<Int>) -> ByteBuffer {
        buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count) ?? ByteBuffer()
    }
}

extension StreamSlice where Chunk == LiveChunk {
    /// The slice's bytes as a buffer sharing the chunk's storage.
    var byteBuffer: ByteBuffer { chunk.slice(range) }
}
