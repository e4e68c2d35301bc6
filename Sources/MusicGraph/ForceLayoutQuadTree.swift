import Foundation

/// A Barnes–Hut quadtree over points (Barnes & Hut 1986), stored flat: cells in
/// depth-first order, each with its centre of mass, point count, width and the index just past
/// its subtree (`skip`), so a traversal needs no stack: open a cell by going to `cell + 1`,
/// accept it (or finish a leaf) by jumping to `skip[cell]`.
///
/// Built by sorting the points on 32-bit Morton codes (16 bits per axis, a radix sort), then
/// splitting the sorted range by two code bits per level; a range of at most `leafSize` points
/// (or the 16th level) becomes a leaf whose points are summed exactly.
struct ForceLayoutQuadTree {
    static let leafSize = 8
    static let maxDepth = 16

    var centreX: ContiguousArray<Float> = []
    var centreY: ContiguousArray<Float> = []
    var mass: ContiguousArray<Float> = []
    /// Width squared of each cell.
    var widthSquared: ContiguousArray<Float> = []
    var skip: ContiguousArray<Int32> = []
    /// For leaves: the range of `order` they hold; `leafCount` 0 marks an inner cell.
    var leafStart: ContiguousArray<Int32> = []
    var leafCount: ContiguousArray<Int32> = []
    /// Point indices in Morton order.
    var order: ContiguousArray<Int32> = []

    private var keys: ContiguousArray<UInt32> = []
    private var scratchKeys: ContiguousArray<UInt32> = []
    private var scratchOrder: ContiguousArray<Int32> = []

    /// Rebuilds the tree over the points `x`, `y` (of the same count).
    mutating func build(x: ContiguousArray<Float>, y: ContiguousArray<Float>) {
        let n = x.count
        centreX.removeAll(keepingCapacity: true)
        centreY.removeAll(keepingCapacity: true)
        mass.removeAll(keepingCapacity: true)
        widthSquared.removeAll(keepingCapacity: true)
        skip.removeAll(keepingCapacity: true)
        leafStart.removeAll(keepingCapacity: true)
        leafCount.removeAll(keepingCapacity: true)
        guard n > 0 else { return }
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for i in 0..<n {
            minX = min(minX, x[i]); maxX = max(maxX, x[i])
            minY = min(minY, y[i]); maxY = max(maxY, y[i])
        }
        let width = max(maxX - minX, maxY - minY, 1e-6) * 1.0001
        let scale = 65535 / width
        keys = ContiguousArray(repeating: 0, count: n)
        order = ContiguousArray((0..<Int32(n)))
        for i in 0..<n {
            let qx = UInt32(min(65535, max(0, (x[i] - minX) * scale)))
            let qy = UInt32(min(65535, max(0, (y[i] - minY) * scale)))
            keys[i] = Self.spread(qx) | (Self.spread(qy) << 1)
        }
        radixSort(count: n)
        build(lo: 0, hi: n, depth: 0, width: width, x: x, y: y)
    }

    /// Interleaves the low 16 bits of `v` with zeros (bit i goes to bit 2i).
    private static func spread(_ value: UInt32) -> UInt32 {
        var v = value & 0xFFFF
        v = (v | (v << 8)) & 0x00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F
        v = (v | (v << 2)) & 0x3333_3333
        v = (v | (v << 1)) & 0x5555_5555
        return v
    }

    /// Sorts `keys` and `order` together: four stable passes of 8 bits.
    private mutating func radixSort(count n: Int) {
        if scratchKeys.count < n {
            scratchKeys = ContiguousArray(repeating: 0, count: n)
            scratchOrder = ContiguousArray(repeating: 0, count: n)
        }
        var counts = [Int](repeating: 0, count: 256)
        for pass in 0..<4 {
            let shift = UInt32(pass * 8)
            for b in 0..<256 { counts[b] = 0 }
            for i in 0..<n { counts[Int((keys[i] >> shift) & 0xFF)] += 1 }
            var total = 0
            for b in 0..<256 { let c = counts[b]; counts[b] = total; total += c }
            for i in 0..<n {
                let b = Int((keys[i] >> shift) & 0xFF)
                scratchKeys[counts[b]] = keys[i]
                scratchOrder[counts[b]] = order[i]
                counts[b] += 1
            }
            swap(&keys, &scratchKeys)
            swap(&order, &scratchOrder)
        }
    }

    /// Appends the cell of the sorted range `lo..<hi` at `depth` and its subtree.
    private mutating func build(lo: Int, hi: Int, depth: Int, width: Float,
                                x: ContiguousArray<Float>, y: ContiguousArray<Float>) {
        let cell = centreX.count
        centreX.append(0); centreY.append(0); mass.append(0); widthSquared.append(width * width)
        skip.append(0); leafStart.append(0); leafCount.append(0)
        var sx: Float = 0, sy: Float = 0, sm: Float = 0
        if hi - lo <= Self.leafSize || depth >= Self.maxDepth {
            for k in lo..<hi {
                let i = Int(order[k])
                sx += x[i]; sy += y[i]; sm += 1
            }
            leafStart[cell] = Int32(lo)
            leafCount[cell] = Int32(hi - lo)
        } else {
            let shift = UInt32(30 - 2 * depth)
            var start = lo
            for quadrant in UInt32(0)..<4 {
                // The end of this quadrant's run: the first key whose two bits exceed it.
                var a = start, b = hi
                while a < b {
                    let mid = (a + b) / 2
                    if (keys[mid] >> shift) & 3 <= quadrant { a = mid + 1 } else { b = mid }
                }
                if a > start {
                    let child = centreX.count
                    build(lo: start, hi: a, depth: depth + 1, width: width / 2, x: x, y: y)
                    sx += centreX[child] * mass[child]; sy += centreY[child] * mass[child]; sm += mass[child]
                }
                start = a
            }
        }
        mass[cell] = sm
        centreX[cell] = sm > 0 ? sx / sm : 0
        centreY[cell] = sm > 0 ? sy / sm : 0
        skip[cell] = Int32(centreX.count)
    }
}

extension ForceLayoutQuadTree {
    /// Read-only views of the tree for the worker threads.
    struct Buffers: @unchecked Sendable {
        let centreX, centreY, mass, widthSquared: UnsafeBufferPointer<Float>
        let skip, leafStart, leafCount, order: UnsafeBufferPointer<Int32>
    }

    func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        centreX.withUnsafeBufferPointer { cx in
            centreY.withUnsafeBufferPointer { cy in
                mass.withUnsafeBufferPointer { m in
                    widthSquared.withUnsafeBufferPointer { w in
                        skip.withUnsafeBufferPointer { s in
                            leafStart.withUnsafeBufferPointer { ls in
                                leafCount.withUnsafeBufferPointer { lc in
                                    order.withUnsafeBufferPointer { o in
                                        body(Buffers(centreX: cx, centreY: cy, mass: m, widthSquared: w, skip: s,
                                                     leafStart: ls, leafCount: lc, order: o))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
