#if canImport(Glibc)
import Glibc
import QuintetServer
import Testing

@Suite("glibc malloc tuned for many connections")
struct MallocTuningTests {
    /// How many of `count` blocks of `bytes` glibc mapped on their own: it marks such a block
    /// with bit 1 (IS_MMAPPED) of the size word just before it. A block is mapped only when the
    /// heap has no free room left for it and it is at least the threshold, so the blocks are
    /// kept until `stopAtFirst` one is mapped: the free room other tests left in the heaps is
    /// used up first (up to `count` blocks; 16 KiB × 65,536 is 1 GiB of address space).
    static func mapped(count: Int, bytes: Int, stopAtFirst: Bool = false) -> Int {
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(count)
        defer { blocks.forEach { free($0) } }
        var mapped = 0
        for _ in 0..<count {
            guard let block = malloc(bytes) else { break }
            blocks.append(block)
            if block.load(fromByteOffset: -MemoryLayout<Int>.size, as: UInt.self) & 0x2 != 0 {
                mapped += 1
                if stopAtFirst { break }
            }
        }
        return mapped
    }

    @Test("once applied, blocks of 16 KiB are mapped on their own when the heap needs room; 4 KiB ones never")
    func threshold() {
        #expect(getenv("MALLOC_MMAP_THRESHOLD_") == nil, "the test needs glibc's own default to start from")
        #expect(MallocTuning.applyForManyConnections())
        // glibc's default threshold (128 KiB, rising) would map none of these.
        #expect(Self.mapped(count: 65_536, bytes: MallocTuning.mmapThreshold, stopAtFirst: true) > 0)
        #expect(Self.mapped(count: 8_000, bytes: 4 * 1024) == 0)
    }
}
#endif
