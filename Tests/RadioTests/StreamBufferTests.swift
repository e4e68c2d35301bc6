import Foundation
import MediaTags
import Radio
import Testing

/// A reference-type chunk, to check that readers get the stored chunk itself, not a copy.
final class SharedChunk: StreamChunk, @unchecked Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var byteCount: Int { bytes.count }
    func withUnsafeChunkBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
}

@Suite("Stream buffer")
struct StreamBufferTests {
    /// Splits `bytes` into chunks of pseudo-random sizes between 1 and `maxSize`.
    static func chunks(_ bytes: [UInt8], maxSize: Int, seed: UInt64 = 7) -> [[UInt8]] {
        var state = seed
        var out: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let size = 1 + Int((state >> 33) % UInt64(maxSize))
            out.append(Array(bytes[i..<min(bytes.count, i + size)]))
            i += size
        }
        return out
    }

    static func concatenate(_ read: StreamRead<[UInt8]>) -> ([UInt8], Int64)? {
        guard case .data(let slices, let next) = read else { return nil }
        return (slices.flatMap { Array($0.chunk[$0.range]) }, next)
    }

    @Test("bounded at about the capacity; old readers are too slow, others read exact bytes")
    func boundedReads() throws {
        let stream = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        var buffer = StreamBuffer<[UInt8]>(capacity: 64 * 1024, framing: .none)
        var appended = 0
        var largest = 0
        for chunk in Self.chunks(stream, maxSize: 5000) {
            buffer.append(chunk)
            appended += chunk.count
            largest = max(largest, chunk.count)
            #expect(buffer.endOffset == Int64(appended))
            if appended >= 64 * 1024 {
                #expect(buffer.count >= 64 * 1024 && buffer.count < 64 * 1024 + largest)
            }
        }
        let start = buffer.startOffset
        #expect(start > 0)
        guard case .tooSlow(let oldest) = buffer.read(from: start - 1) else {
            Issue.record("a reader behind the buffer must be too slow")
            return
        }
        #expect(oldest == start)
        let (all, next) = try #require(Self.concatenate(buffer.read(from: start)))
        #expect(all == Array(stream[Int(start)...]) && next == buffer.endOffset)
        let from = start + 12345
        let (part, partNext) = try #require(Self.concatenate(buffer.read(from: from, maxBytes: 7000)))
        #expect(part == Array(stream[Int(from)..<Int(from) + 7000]) && partNext == from + 7000)
        guard case .caughtUp = buffer.read(from: buffer.endOffset) else {
            Issue.record("a reader at the end is caught up")
            return
        }
        #expect(buffer.lag(of: from) == buffer.endOffset - from)
        #expect(buffer.slices(for: from..<from + 10).flatMap { Array($0.chunk[$0.range]) } == Array(stream[Int(from)..<Int(from) + 10]))
    }

    @Test("readers get the stored chunks themselves, not copies")
    func sharedChunks() throws {
        var buffer = StreamBuffer<SharedChunk>(capacity: 1000, framing: .none)
        let a = SharedChunk([UInt8](repeating: 1, count: 300))
        let b = SharedChunk([UInt8](repeating: 2, count: 300))
        buffer.append(a)
        buffer.append(b)
        guard case .data(let slices, let next) = buffer.read(from: 100) else {
            Issue.record("expected data")
            return
        }
        #expect(slices.count == 2 && slices[0].chunk === a && slices[1].chunk === b)
        #expect(slices[0].range == 100..<300 && slices[1].range == 0..<300 && slices[1].offset == 300)
        #expect(next == 600)
    }

    @Test("burst starts on an MP3 frame boundary about 64 KiB back (real ffmpeg stream)")
    func mp3Burst() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Fixtures.encode("s.mp3", in: dir, seconds: 40, codec: ["-c:a", "libmp3lame", "-b:a", "128k"])
        var buffer = StreamBuffer<[UInt8]>(framing: AudioFraming(contentType: "audio/mpeg"))
        // Join mid-stream, as a server sees a source that restarts: first 1000 bytes lost.
        let stream = Array(bytes[1000...])
        for chunk in Self.chunks(stream, maxSize: 1500) {
            buffer.append(chunk)
            let burst = buffer.burstStart()
            if burst < buffer.endOffset {
                #expect(MPEGAudioHeader(stream, at: Int(burst)) != nil)
            }
        }
        #expect(buffer.count >= 512 * 1024)
        let burst = buffer.burstStart(size: 64 * 1024)
        let burstBytes = buffer.endOffset - burst
        #expect(burstBytes >= 64 * 1024 && burstBytes < 64 * 1024 + 418)
        #expect(MPEGAudioHeader(stream, at: Int(burst)) != nil)
        // Every frame offset the buffer holds is a frame of the file.
        var expected = Set<Int64>()
        var scanner = AudioFrameScanner(framing: .mpegAudio)
        for f in scanner.append(bytes) + scanner.finish() { expected.insert(f.offset - 1000) }
        #expect(buffer.frameOffsets.allSatisfy { expected.contains($0) })
        #expect(buffer.frameOffsets.count > 1200)
        // A burst larger than the buffer starts at the oldest frame held.
        #expect(buffer.burstStart(size: 10_000_000) == buffer.frameOffsets.first)
    }

    @Test("non-MP3 content bursts on chunk boundaries; empty buffer bursts at the end")
    func chunkBurst() {
        var buffer = StreamBuffer<[UInt8]>(framing: AudioFraming(contentType: "audio/ogg"))
        #expect(buffer.framing == .none)
        #expect(buffer.burstStart() == 0)
        for _ in 0..<10 { buffer.append([UInt8](repeating: 0, count: 10_000)) }
        #expect(buffer.burstStart(size: 25_000) == 70_000)
        #expect(buffer.burstStart(size: 30_000) == 70_000)
        #expect(buffer.burstStart(size: 0) == 90_000)  // the last chunk's start
        #expect(buffer.burstStart(size: 1_000_000) == 0)
        #expect(AudioFraming(contentType: "audio/aac") == .adts)
        #expect(AudioFraming(contentType: "Audio/MPEG; charset=x") == .mpegAudio)
    }
}
