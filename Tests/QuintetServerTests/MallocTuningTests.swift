#if canImport(Glibc)
import Glibc
import QuintetServer
import Testing

@Suite("glibc malloc tuned for many connections")
struct MallocTuningTests {
    /// How many of `count` blocks of `bytes` glibc mapped on their own: it marks such a block
    /// with bit 1 (IS_MMAPPED) of the size word just before it. A block is mapped only when the
    /// heap has no room left for it and it is at least the threshold, so the test asks for
    /// enough blocks (32 MB) to use up the heap's free top.
    static func mapped(count: Int, bytes: Int) -> Int {
        var blocks: [UnsafeMutableRawPointer] = []
        defer { blocks.forEach { free($0) } }
        for _ in 0..<count {
            guard let block = malloc(bytes) else { break }
            memset(block, 1, 1)
            blocks.append(block)
        }
        return blocks.filter { $0.load(fromByteOffset: -MemoryLayout<Int>.size, as: UInt.self) & 0x2 != 0 }.count
    }

    @Test("once applied, blocks of 16 KiB are mapped on their own when the heap needs room; 4 KiB ones never")
    func threshold() {
        #expect(getenv("MALLOC_MMAP_THRESHOLD_") == nil, "the test needs glibc's own default to start from")
        #expect(MallocTuning.applyForManyConnections())
        // glibc's default threshold (128 KiB, rising) would map none of these.
        #expect(Self.mapped(count: 2_000, bytes: MallocTuning.mmapThreshold) > 0)
        #expect(Self.mapped(count: 8_000, bytes: 4 * 1024) == 0)
    }
}
#endif
