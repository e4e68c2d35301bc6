#if canImport(Glibc)
import Glibc
#endif

/// One setting of glibc's malloc for a server that holds thousands of connections.
///
/// glibc serves blocks below its mmap threshold (128 KiB, rising with use) from its heaps,
/// where a freed block is reused as it is: its pages stay resident. Every TLS connection
/// holds two such blocks for its whole life, made by swift-nio-ssl before the handshake — a
/// 32 KiB plaintext read buffer and a 16 KiB ciphertext buffer — of which a radio listener
/// uses a page or two (it sends one request, then receives 2 KiB records). From the heap
/// they are resident whole (they reuse the memory of earlier handshakes); mapped on their
/// own, only the pages written are. With a threshold of 16 KiB, a block of that size the heap
/// has no room for is mapped instead of growing the heap: 5,000 TLS listeners took 156–164 MB
/// at peak instead of 217 (docs/benchmarks.md, "TLS cost").
///
/// The price: blocks of 16 KiB and more are `mmap`ed and `munmap`ped each time (a few
/// microseconds each). `MALLOC_MMAP_THRESHOLD_` in the environment is left in charge.
/// Elsewhere than glibc this does nothing.
public enum MallocTuning {
    public static let mmapThreshold = 16 * 1024

    #if canImport(Glibc)
    /// `M_MMAP_THRESHOLD` of `<malloc.h>`, which the Glibc module does not export (nor `mallopt`).
    private static let mmapThresholdParameter: Int32 = -3
    #endif

    /// Applies the threshold unless the environment sets one; true when applied.
    @discardableResult
    public static func applyForManyConnections() -> Bool {
        #if canImport(Glibc)
        guard getenv("MALLOC_MMAP_THRESHOLD_") == nil else { return false }
        return glibcMallopt(mmapThresholdParameter, Int32(mmapThreshold)) == 1
        #else
        return false
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `int mallopt(int param, int value)` (`<malloc.h>`): 1 on success.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
