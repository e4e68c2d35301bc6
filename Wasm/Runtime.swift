// The few C-library functions an Embedded Swift module needs on `wasm32-unknown-none-wasm`,
// where there is no libc: the allocator the Swift runtime calls (posix_memalign, free), the
// memory functions (memset, memcpy, memmove, memcmp) and arc4random_buf, which the standard
// library calls for its hashing seed. Nothing else is asked for by wasm-ld (no malloc, calloc
// or realloc: Embedded Swift allocates through posix_memalign only). `free` is reserved for the
// runtime's own use by swiftc, so it is defined under another name (see `wrappedFree`).
// Compiled by scripts/build-wasm only (not a SwiftPM target), with
// `-enable-experimental-feature BuiltinModule` for the WebAssembly instructions memory.size,
// memory.grow, memory.copy and memory.fill.
import Builtin

// MARK: memory.size / memory.grow

/// The linear memory's size in 64 KiB pages.
@inline(__always) private func memoryPages() -> Int {
    let index: Int32 = 0
    return Int(Int32(Builtin.int_wasm_memory_size_Int32(index._value)))
}

/// Grows the linear memory by `pages` pages; the old size in pages, or -1 when the host refuses.
@inline(__always) private func growMemory(pages: Int) -> Int {
    let index: Int32 = 0, delta = Int32(truncatingIfNeeded: pages)
    return Int(Int32(Builtin.int_wasm_memory_grow_Int32(index._value, delta._value)))
}

private let pageSize = 65_536

// MARK: the allocator

// A size-class allocator: every block is a power of two from 32 bytes up, preceded by a
// 16-byte header that holds its class (so blocks stay 16-byte aligned, as posix_memalign and
// the Swift runtime expect). Freed blocks go on their class's free list and are reused as they
// are; nothing is ever returned to the host (wasm memory cannot shrink). New blocks come from
// a bump pointer that starts at the end of the memory the module was instantiated with (above
// wasm-ld's data and stack) and grows the memory in steps of at least 1 MiB.
//
// One thread only (a wasm instance without shared memory has one), so no locking.

private let headerSize = 16
private let minClass = 5          // 32-byte blocks (header included)

// One free list head per class 0...31 (classes below minClass stay empty); 2^31 bytes is
// more than wasm32 can hold.
private nonisolated(unsafe) var freeLists = (
    UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0),
    UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0),
    UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0),
    UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0))
private nonisolated(unsafe) var bumpNext: UInt = 0
private nonisolated(unsafe) var bumpEnd: UInt = 0

/// The head of class `c`'s free list (an address, 0 when empty).
@inline(__always) private func freeListSlot(_ c: Int) -> UnsafeMutablePointer<UInt> {
    withUnsafeMutablePointer(to: &freeLists) {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt.self) + c
    }
}

/// The smallest class whose blocks hold `size` bytes after the header; nil when too large.
@inline(__always) private func sizeClass(_ size: Int) -> Int? {
    guard size >= 0, size <= Int(Int32.max) - headerSize else { return nil }
    let total = UInt32(size + headerSize)
    let c = total <= 1 ? 0 : 32 - (total - 1).leadingZeroBitCount
    return max(c, minClass)
}

/// Bump-allocates one block of class `c` (its header's address), growing memory as needed.
/// Every class is a multiple of 32 bytes, so the bump pointer stays 32-byte aligned.
private func carve(_ c: Int) -> UInt? {
    let size = UInt(1) << UInt(c)
    if bumpEnd == 0 {
        bumpNext = UInt(memoryPages() * pageSize)
        bumpEnd = bumpNext
    }
    if size > bumpEnd - bumpNext {
        let needed = Int(size - (bumpEnd - bumpNext))
        let pages = max((needed - 1) / pageSize + 1, 16)   // at least 1 MiB at a time
        guard growMemory(pages: pages) >= 0 else { return nil }
        bumpEnd += UInt(pages * pageSize)
    }
    let start = bumpNext
    bumpNext += size
    return start
}

@inline(__always) private func release(header: UInt, sizeClass c: Int) {
    let slot = freeListSlot(c)
    UnsafeMutablePointer<UInt>(bitPattern: header)!.pointee = slot.pointee
    slot.pointee = header
}

/// A block with at least `size` usable bytes, 16-byte aligned; nil when memory is exhausted.
private func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
    guard let c = sizeClass(size) else { return nil }
    let slot = freeListSlot(c)
    var header = slot.pointee
    if header != 0 {
        slot.pointee = UnsafeMutablePointer<UInt>(bitPattern: header)!.pointee
    } else {
        guard let fresh = carve(c) else { return nil }
        header = fresh
    }
    UnsafeMutablePointer<UInt>(bitPattern: header)!.pointee = UInt(c)
    return UnsafeMutableRawPointer(bitPattern: header + UInt(headerSize))
}

/// The class stored in the header of the block at `p`.
@inline(__always) private func blockClass(_ p: UnsafeMutableRawPointer) -> Int {
    Int((p - headerSize).load(as: UInt.self))
}

@_cdecl("posix_memalign")
public func posix_memalign(_ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int) -> Int32 {
    let enomem: Int32 = 48, einval: Int32 = 28   // WASI's errno values
    guard alignment > 0, alignment & (alignment - 1) == 0, alignment % MemoryLayout<UnsafeRawPointer>.size == 0 else {
        return einval
    }
    if alignment <= headerSize {
        guard let p = allocate(size) else { return enomem }
        out.pointee = p
        return 0
    }
    // Larger alignments (never asked for by the Swift runtime here): a block whose class is
    // big enough that an aligned address lies inside it, with a forwarding header before it.
    let (padded, overflow) = size.addingReportingOverflow(alignment)
    guard !overflow, let raw = allocate(padded) else { return enomem }
    let aligned = (UInt(bitPattern: raw) + UInt(alignment) - 1) & ~(UInt(alignment) - 1)
    if aligned == UInt(bitPattern: raw) {
        out.pointee = raw
        return 0
    }
    // Header of the aligned pointer: the class with the top bit set, then the real block.
    let p = UnsafeMutableRawPointer(bitPattern: aligned)!
    (p - headerSize).storeBytes(of: UInt(1) << UInt(UInt.bitWidth - 1), as: UInt.self)
    (p - headerSize + MemoryLayout<UInt>.size).storeBytes(of: UInt(bitPattern: raw), as: UInt.self)
    out.pointee = p
    return 0
}

/// The block a pointer from posix_memalign belongs to (follows an alignment forward).
@inline(__always) private func ownBlock(_ p: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    let tag = (p - headerSize).load(as: UInt.self)
    if tag & (UInt(1) << UInt(UInt.bitWidth - 1)) != 0 {
        return UnsafeMutableRawPointer(bitPattern: (p - headerSize + MemoryLayout<UInt>.size).load(as: UInt.self))!
    }
    return p
}

// The runtime's `free`. Swift reserves the name `free` for its runtime (defining it with
// @_cdecl("free") draws a warning that will become an error), so it is defined as `__wrap_free`
// and scripts/build-wasm links with `--wrap=free`: wasm-ld sends every call to `free` here.
@_cdecl("__wrap_free")
public func wrappedFree(_ p: UnsafeMutableRawPointer?) {
    guard let p else { return }
    let block = ownBlock(p)
    release(header: UInt(bitPattern: block) - UInt(headerSize), sizeClass: blockClass(block))
}

// MARK: memory functions

// The module is built for LLVM's default wasm CPU, which has bulk memory: LLVM's own copies and
// fills become memory.copy / memory.fill instructions, and so do these three (through the
// intrinsics the Builtin module names), so they cannot turn into calls to themselves. memcmp
// (the standard library's String comparison asks for it) is a plain byte loop.

@_cdecl("memset")
public func memset(_ dst: UnsafeMutableRawPointer, _ value: Int32, _ count: Int) -> UnsafeMutableRawPointer {
    let byte = UInt8(truncatingIfNeeded: value)
    Builtin.int_memset_RawPointer_Int32(dst._rawValue, byte._value, Int32(truncatingIfNeeded: count)._value, false._value)
    return dst
}

@_cdecl("memcpy")
public func memcpy(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ count: Int) -> UnsafeMutableRawPointer {
    Builtin.int_memmove_RawPointer_RawPointer_Int32(dst._rawValue, src._rawValue, Int32(truncatingIfNeeded: count)._value, false._value)
    return dst
}

@_cdecl("memmove")
public func memmove(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ count: Int) -> UnsafeMutableRawPointer {
    Builtin.int_memmove_RawPointer_RawPointer_Int32(dst._rawValue, src._rawValue, Int32(truncatingIfNeeded: count)._value, false._value)
    return dst
}

@_cdecl("memcmp")
public func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
    var i = 0
    while i < count {
        let x = a.load(fromByteOffset: i, as: UInt8.self), y = b.load(fromByteOffset: i, as: UInt8.self)
        if x != y { return Int32(x) - Int32(y) }
        i += 1
    }
    return 0
}

// MARK: randomness

/// Embedded Swift's Hasher asks for random bytes once, for its per-process seed (Set and
/// Dictionary iteration order). A real random source would make two runs of the same game
/// from the same seed and inputs iterate the physics world's contact map in different orders
/// and so differ; the playground's contract is determinism (docs/playground.md), and no
/// security depends on this seed (no untrusted keys are hashed). So: a fixed fill, not entropy.
@_cdecl("arc4random_buf")
public func arc4random_buf(_ buffer: UnsafeMutableRawPointer, _ count: Int) {
    var state: UInt64 = 0x5175_696e_7465_7431   // "Quintet1"
    for i in 0..<count {
        // SplitMix64 steps: a fixed, well-mixed byte sequence.
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        buffer.storeBytes(of: UInt8(truncatingIfNeeded: z ^ (z >> 31)), toByteOffset: i, as: UInt8.self)
    }
}
