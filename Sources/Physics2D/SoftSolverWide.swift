// The soft step's contacts, coloured and solved four at a time (issue 25).
//
// Graph colouring: each contact constraint gets a colour such that no body that the solver
// moves appears twice in one colour (greedy, lowest free colour, in the contacts' order; a
// contact with a body that does not move starts at colour 1, as Box2D v3 keeps colour 0 for
// pairs of moving bodies). Constraints of one colour are independent, so they can be solved
// side by side: four at a time in SIMD lanes here, and on several threads later. A contact
// that finds no free colour among `colourCount` goes to the overflow list, solved one at a
// time after the colours (as v3's overflow constraints).
//
// Layout: each colour's constraints are packed into bundles of four (structure of arrays
// inside a bundle: every field is a `SIMD4<Double>`, one lane per constraint; unused lanes of
// a colour's last bundle have no bodies and zero masses, so they change nothing). The
// solver keeps the engine's Double precision: SIMD4<Double> is two SSE2 registers, half of
// Box2D v3's four float lanes per instruction (see docs/physics.md, "Soft step").
//
// Each lane does exactly what `SoftContactSolver.solve` does for one constraint (the same
// expressions in the same order), so a bundle's lanes and the scalar solver agree to the
// last bit; the 2×2 block solve and its one-point-after-the-other fallback are chosen per
// lane with masks.

typealias Wide = SIMD4<Double>
typealias WideMask = SIMDMask<SIMD4<Int64>>

struct WidePoint {
    var rAx = Wide(), rAy = Wide(), rBx = Wide(), rBy = Wide()
    var localRAx = Wide(), localRAy = Wide(), localRBx = Wide(), localRBy = Wide()
    var baseSeparation = Wide()
    var normalImpulse = Wide(), tangentImpulse = Wide(), maxNormalImpulse = Wide()
    var normalMass = Wide(), tangentMass = Wide()
    var totalNormalImpulse = Wide(), totalTangentImpulse = Wide()
}

/// What stays fixed for the step in four constraints of one colour.
struct WidePair {
    /// Body indices per lane (-1: an unused lane).
    var a = SIMD4<Int32>(repeating: -1), b = SIMD4<Int32>(repeating: -1)
    /// The scalar constraint each lane came from (-1: unused).
    var source = SIMD4<Int32>(repeating: -1)
    var normalX = Wide(), normalY = Wide(), friction = Wide()
    var mA = Wide(), iA = Wide(), mB = Wide(), iB = Wide()
    var biasRate = Wide(), massScale = Wide(), impulseScale = Wide()
    var block = WideMask(repeating: false)
    var m11 = Wide(), m12 = Wide(), m22 = Wide()
    /// Whether any lane has a second point: bundles of one-point contacts (circles) skip the
    /// second point's lanes, which would only add zero impulses.
    var twoPoints = false
    /// The lanes (a bit each) whose body A, and B, the solver moves: the ones written back
    /// after the bundle is solved (decided once here, not per lane and pass).
    var movesA: UInt8 = 0, movesB: UInt8 = 0
}

/// The lanes' view of their bodies (gathered before a bundle is solved, scattered after).
struct WideBodies {
    var vx = Wide(), vy = Wide(), w = Wide()
    var cx = Wide(), cy = Wide(), qc = Wide(), qs = Wide()

    /// Gathers the four lanes' bodies whole (a cache line each) and transposes them into
    /// lanes, without a branch: an unused lane (-1) reads body 0, whose values it only carries
    /// (its masses are zero and it is never written back).
    @inline(__always)
    init(_ idx: SIMD4<Int32>, _ bodies: UnsafeMutableBufferPointer<SolverBody>, positions: Bool) {
        let i = idx.replacing(with: 0, where: idx .< 0)
        let base = bodies.baseAddress.unsafelyUnwrapped
        let b0 = base[Int(i[0])], b1 = base[Int(i[1])], b2 = base[Int(i[2])], b3 = base[Int(i[3])]
        vx = Wide(b0.v.x, b1.v.x, b2.v.x, b3.v.x)
        vy = Wide(b0.v.y, b1.v.y, b2.v.y, b3.v.y)
        w = Wide(b0.w, b1.w, b2.w, b3.w)
        if positions {
            cx = Wide(b0.c.x, b1.c.x, b2.c.x, b3.c.x)
            cy = Wide(b0.c.y, b1.c.y, b2.c.y, b3.c.y)
            qc = Wide(b0.q.c, b1.q.c, b2.q.c, b3.q.c)
            qs = Wide(b0.q.s, b1.q.s, b2.q.s, b3.q.s)
        }
    }

    /// Writes the velocities back, for the lanes whose body the solver moves (`moves`: a bit
    /// per lane, `WidePair.movesA` or `movesB`).
    @inline(__always)
    func scatter(_ idx: SIMD4<Int32>, _ moves: UInt8, _ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        for lane in 0..<4 where moves & (1 << lane) != 0 {
            let i = Int(idx[lane])
            bodies[i].v = Vec2(vx[lane], vy[lane])
            bodies[i].w = w[lane]
        }
    }
}

/// The i-th of the indices `0..<count`, walked forwards, or backwards (from `count - 1`).
@inline(__always) func walkIndex(_ i: Int, _ count: Int, backwards: Bool) -> Int { backwards ? count - 1 - i : i }

@inline(__always) private func wideMax(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: b .>= a) }
@inline(__always) private func wideMin(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: b .< a) }

extension SoftContactSolver {
    /// The most colours; a contact that finds none free is solved in the overflow list.
    static let colourCount = 16

    /// Colours the constraints built by `prepare` and packs each colour into bundles. With
    /// `lanes` false nothing is packed: every constraint goes to the one-at-a-time list, in
    /// colour order (the same order of solving, for checking the lanes against the scalar code).
    mutating func colour(bodyCount: Int, lanes: Bool = true) {
        let words = (bodyCount + 63) >> 6
        let colours = Self.colourCount
        if colourBits.count < colours * words { colourBits = [UInt64](repeating: 0, count: colours * words) }
        for k in 0..<colours * words { colourBits[k] = 0 }
        colourOf.removeAll(keepingCapacity: true)
        overflow.removeAll(keepingCapacity: true)
        var perColour = [Int](repeating: 0, count: colours)
        let constraints = self.constraints
        colourBits.withUnsafeMutableBufferPointer { bits in
            for k in 0..<constraints.count {
                let cc = constraints[k]
                let movesA = cc.mA != 0 || cc.iA != 0, movesB = cc.mB != 0 || cc.iB != 0
                let wa = cc.a >> 6, ma = UInt64(1) << UInt64(cc.a & 63)
                let wb = cc.b >> 6, mb = UInt64(1) << UInt64(cc.b & 63)
                var found = -1
                for c in (movesA && movesB ? 0 : 1)..<colours {
                    let base = c * words
                    if movesA && bits[base + wa] & ma != 0 { continue }
                    if movesB && bits[base + wb] & mb != 0 { continue }
                    if movesA { bits[base + wa] |= ma }
                    if movesB { bits[base + wb] |= mb }
                    found = c
                    break
                }
                colourOf.append(Int32(found))
                if found < 0 { overflow.append(k) } else { perColour[found] += 1 }
            }
        }
        if !lanes {
            var order: [Int] = []
            order.reserveCapacity(constraints.count)
            for c in 0..<colours { for k in 0..<constraints.count where colourOf[k] == Int32(c) { order.append(k) } }
            overflow = order + overflow
            widePairs.removeAll(keepingCapacity: true)
            widePoints0.removeAll(keepingCapacity: true)
            widePoints1.removeAll(keepingCapacity: true)
            colourBundles = [Int](repeating: 0, count: colours + 1)
            return
        }
        // Bundles: each colour's constraints in their order, four to a bundle.
        var firstBundle = [Int](repeating: 0, count: colours + 1)
        for c in 0..<colours { firstBundle[c + 1] = firstBundle[c] + (perColour[c] + 3) / 4 }
        colourBundles = firstBundle
        let bundleCount = firstBundle[colours]
        widePairs.removeAll(keepingCapacity: true)
        widePairs.append(contentsOf: repeatElement(WidePair(), count: bundleCount))
        widePoints0.removeAll(keepingCapacity: true)
        widePoints0.append(contentsOf: repeatElement(WidePoint(), count: bundleCount))
        widePoints1.removeAll(keepingCapacity: true)
        widePoints1.append(contentsOf: repeatElement(WidePoint(), count: bundleCount))
        var filled = [Int](repeating: 0, count: colours)
        let colourOfConstraint = self.colourOf
        widePairs.withUnsafeMutableBufferPointer { pairs in
            widePoints0.withUnsafeMutableBufferPointer { points0 in
                widePoints1.withUnsafeMutableBufferPointer { points1 in
                    // Within a colour, the two-point constraints first, then the one-point ones,
                    // so that most bundles of one-point contacts have no second point at all
                    // (the order within a colour changes no result: its constraints are independent).
                    for pass in 0..<2 {
                        let twoPoints = pass == 0
                        for k in 0..<constraints.count where (constraints[k].pointCount == 2) == twoPoints {
                            let c = Int(colourOfConstraint[k])
                            guard c >= 0 else { continue }
                            let slot = filled[c]
                            filled[c] += 1
                            let j = firstBundle[c] + slot / 4, lane = slot % 4
                            let cc = constraints[k]
                            Self.load(&pairs[j], lane: lane, cc, source: k)
                            Self.load(&points0[j], lane: lane, cc.p0)
                            // Without a second point, its lane stays zero: no mass, so no impulse
                            // (and no block); a bundle without any skips it.
                            if twoPoints {
                                Self.load(&points1[j], lane: lane, cc.p1)
                                pairs[j].twoPoints = true
                            }
                        }
                    }
                }
            }
        }
    }

    private static func load(_ w: inout WidePair, lane: Int, _ cc: SoftContactConstraint, source: Int) {
        w.a[lane] = Int32(cc.a); w.b[lane] = Int32(cc.b); w.source[lane] = Int32(source)
        w.normalX[lane] = cc.normal.x; w.normalY[lane] = cc.normal.y; w.friction[lane] = cc.friction
        w.mA[lane] = cc.mA; w.iA[lane] = cc.iA; w.mB[lane] = cc.mB; w.iB[lane] = cc.iB
        w.biasRate[lane] = cc.softness.biasRate; w.massScale[lane] = cc.softness.massScale
        w.impulseScale[lane] = cc.softness.impulseScale
        w.block[lane] = cc.block
        w.m11[lane] = cc.m11; w.m12[lane] = cc.m12; w.m22[lane] = cc.m22
        if cc.mA != 0 || cc.iA != 0 { w.movesA |= 1 << UInt8(lane) }
        if cc.mB != 0 || cc.iB != 0 { w.movesB |= 1 << UInt8(lane) }
    }

    private static func load(_ p: inout WidePoint, lane: Int, _ s: SoftContactPoint) {
        p.rAx[lane] = s.rA.x; p.rAy[lane] = s.rA.y; p.rBx[lane] = s.rB.x; p.rBy[lane] = s.rB.y
        p.localRAx[lane] = s.localRA.x; p.localRAy[lane] = s.localRA.y
        p.localRBx[lane] = s.localRB.x; p.localRBy[lane] = s.localRB.y
        p.baseSeparation[lane] = s.baseSeparation
        p.normalImpulse[lane] = s.normalImpulse; p.tangentImpulse[lane] = s.tangentImpulse
        p.maxNormalImpulse[lane] = s.maxNormalImpulse
        p.normalMass[lane] = s.normalMass; p.tangentMass[lane] = s.tangentMass
    }

    /// Copies the bundles' impulses back into the scalar constraints (after the sub-steps).
    mutating func unloadWide() {
        let pairs = widePairs, points0 = widePoints0, points1 = widePoints1
        constraints.withUnsafeMutableBufferPointer { cs in
            for j in 0..<pairs.count {
                for lane in 0..<4 {
                    let k = Int(pairs[j].source[lane])
                    guard k >= 0 else { continue }
                    Self.unload(&cs[k].p0, points0[j], lane)
                    if cs[k].pointCount == 2 { Self.unload(&cs[k].p1, points1[j], lane) }
                }
            }
        }
    }

    private static func unload(_ s: inout SoftContactPoint, _ p: WidePoint, _ lane: Int) {
        s.normalImpulse = p.normalImpulse[lane]; s.tangentImpulse = p.tangentImpulse[lane]
        s.maxNormalImpulse = p.maxNormalImpulse[lane]
        s.totalNormalImpulse = p.totalNormalImpulse[lane]; s.totalTangentImpulse = p.totalTangentImpulse[lane]
    }

    /// Warm start of the coloured constraints (the last colour first when `backwards`).
    mutating func warmStartWide(_ bodies: UnsafeMutableBufferPointer<SolverBody>) {
        let count = widePairs.count, backwards = self.backwards
        withBundles { pairs, points0, points1 in
            Self.warmStartBundles(0..<count, pairs, points0, points1, bodies, backwards: backwards)
        }
    }

    /// Calls `body` with the bundles' base addresses (nil when there are none).
    @inline(__always)
    mutating func withBundles<R>(_ body: (UnsafeMutablePointer<WidePair>?, UnsafeMutablePointer<WidePoint>?,
                                          UnsafeMutablePointer<WidePoint>?) -> R) -> R {
        widePairs.withUnsafeMutableBufferPointer { pairs in
            widePoints0.withUnsafeMutableBufferPointer { points0 in
                widePoints1.withUnsafeMutableBufferPointer { points1 in
                    body(pairs.baseAddress, points0.baseAddress, points1.baseAddress)
                }
            }
        }
    }

    static func warmStartBundles(_ range: Range<Int>, _ pairs: UnsafeMutablePointer<WidePair>?,
                                 _ points0: UnsafeMutablePointer<WidePoint>?, _ points1: UnsafeMutablePointer<WidePoint>?,
                                 _ bodies: UnsafeMutableBufferPointer<SolverBody>, backwards: Bool = false) {
        guard let pairs, let points0, let points1 else { return }
        for i in 0..<range.count {
            let j = range.lowerBound + walkIndex(i, range.count, backwards: backwards)
            let w = UnsafePointer(pairs + j)
            var A = WideBodies(w.pointee.a, bodies, positions: false)
            var B = WideBodies(w.pointee.b, bodies, positions: false)
            Self.warmStart(points0 + j, w, &A, &B)
            if w.pointee.twoPoints { Self.warmStart(points1 + j, w, &A, &B) }
            A.scatter(w.pointee.a, w.pointee.movesA, bodies)
            B.scatter(w.pointee.b, w.pointee.movesB, bodies)
        }
    }

    @inline(__always)
    private static func warmStart(_ p: UnsafeMutablePointer<WidePoint>, _ w: UnsafePointer<WidePair>,
                                  _ A: inout WideBodies, _ B: inout WideBodies) {
        let nx = w.pointee.normalX, ny = w.pointee.normalY, tx = ny, ty = -nx
        let Px = p.pointee.normalImpulse * nx + p.pointee.tangentImpulse * tx
        let Py = p.pointee.normalImpulse * ny + p.pointee.tangentImpulse * ty
        A.w -= w.pointee.iA * (p.pointee.rAx * Py - p.pointee.rAy * Px)
        A.vx -= w.pointee.mA * Px; A.vy -= w.pointee.mA * Py
        B.w += w.pointee.iB * (p.pointee.rBx * Py - p.pointee.rBy * Px)
        B.vx += w.pointee.mB * Px; B.vy += w.pointee.mB * Py
    }

    /// One pass over the coloured constraints, colour after colour (see `solve`).
    mutating func solveWide(_ bodies: UnsafeMutableBufferPointer<SolverBody>, invH: Double, useBias: Bool) {
        let count = widePairs.count, backwards = self.backwards
        withBundles { pairs, points0, points1 in
            Self.solveBundles(0..<count, pairs, points0, points1, bodies, invH: invH, useBias: useBias, backwards: backwards)
        }
    }

    static func solveBundles(_ range: Range<Int>, _ pairs: UnsafeMutablePointer<WidePair>?,
                             _ points0: UnsafeMutablePointer<WidePoint>?, _ points1: UnsafeMutablePointer<WidePoint>?,
                             _ bodies: UnsafeMutableBufferPointer<SolverBody>, invH: Double, useBias: Bool,
                             backwards: Bool = false) {
        guard let pairs, let points0, let points1 else { return }
        let maxPush = PhysicsSettings.contactPushMaxVelocity
        for i in 0..<range.count {
            let j = range.lowerBound + walkIndex(i, range.count, backwards: backwards)
            solve(pairs + j, points0 + j, points1 + j, bodies, invH: invH, useBias: useBias, maxPush: maxPush)
        }
    }

    /// At the end of a sub-step: adds what the bundles applied to the step's totals.
    mutating func accumulateTotalsWide() {
        widePoints0.withUnsafeMutableBufferPointer { Self.accumulate($0) }
        widePoints1.withUnsafeMutableBufferPointer { Self.accumulate($0) }
    }

    private static func accumulate(_ points: UnsafeMutableBufferPointer<WidePoint>) {
        for j in 0..<points.count {
            points[j].totalNormalImpulse += points[j].normalImpulse
            points[j].totalTangentImpulse += points[j].tangentImpulse
        }
    }

    /// The current separation of a point's lanes (see `SoftContactSolver.solvePoint`).
    @inline(__always)
    private static func separation(_ p: UnsafeMutablePointer<WidePoint>, _ nx: Wide, _ ny: Wide,
                                   _ A: WideBodies, _ B: WideBodies) -> Wide {
        let lAx = p.pointee.localRAx, lAy = p.pointee.localRAy, lBx = p.pointee.localRBx, lBy = p.pointee.localRBy
        let dx = (B.cx + (B.qc * lBx - B.qs * lBy)) - (A.cx + (A.qc * lAx - A.qs * lAy))
        let dy = (B.cy + (B.qs * lBx + B.qc * lBy)) - (A.cy + (A.qs * lAx + A.qc * lAy))
        return (dx * nx + dy * ny) + p.pointee.baseSeparation
    }

    /// The approach speed of a point's lanes along (dx, dy).
    @inline(__always)
    private static func speed(_ p: UnsafeMutablePointer<WidePoint>, _ dx: Wide, _ dy: Wide,
                              _ A: WideBodies, _ B: WideBodies) -> Wide {
        let dvx = ((B.vx + -B.w * p.pointee.rBy) - A.vx) - -A.w * p.pointee.rAy
        let dvy = ((B.vy + B.w * p.pointee.rBx) - A.vy) - A.w * p.pointee.rAx
        return dvx * dx + dvy * dy
    }

    @inline(__always)
    private static func apply(_ lambda: Wide, _ p: UnsafeMutablePointer<WidePoint>, _ dx: Wide, _ dy: Wide,
                              _ w: UnsafePointer<WidePair>, _ A: inout WideBodies, _ B: inout WideBodies) {
        let Px = lambda * dx, Py = lambda * dy
        let mA = w.pointee.mA, mB = w.pointee.mB
        A.vx -= mA * Px; A.vy -= mA * Py; A.w -= w.pointee.iA * (p.pointee.rAx * Py - p.pointee.rAy * Px)
        B.vx += mB * Px; B.vy += mB * Py; B.w += w.pointee.iB * (p.pointee.rBx * Py - p.pointee.rBy * Px)
    }

    /// One point's lanes, one after the other's (lanes in `done` are left as they are).
    @inline(__always)
    private static func solvePoint(_ p: UnsafeMutablePointer<WidePoint>, _ s: Wide, _ w: UnsafePointer<WidePair>,
                                   _ done: WideMask, _ A: inout WideBodies, _ B: inout WideBodies,
                                   invH: Double, useBias: Bool, maxPush: Double) {
        let nx = w.pointee.normalX, ny = w.pointee.normalY
        let vn = speed(p, nx, ny, A, B)
        var bias = (s * invH).replacing(with: 0, where: s .<= 0)
        var massScale = Wide(repeating: 1), impulseScale = Wide()
        if useBias {
            let ms = w.pointee.massScale
            let soft = (s .<= 0) .& ((1 - ms) * -vn .<= Wide(repeating: PhysicsSettings.linearSlop * invH))
            bias.replace(with: wideMax(w.pointee.biasRate * s, Wide(repeating: -maxPush)), where: soft)
            massScale.replace(with: ms, where: soft)
            impulseScale.replace(with: w.pointee.impulseScale, where: soft)
        }
        let old = p.pointee.normalImpulse
        let impulse = -p.pointee.normalMass * massScale * (vn + bias) - impulseScale * old
        var newImpulse = wideMax(old + impulse, Wide())
        newImpulse.replace(with: old, where: done)
        let lambda = newImpulse - old
        p.pointee.normalImpulse = newImpulse
        p.pointee.maxNormalImpulse = wideMax(p.pointee.maxNormalImpulse, lambda)
        apply(lambda, p, nx, ny, w, &A, &B)
    }

    @inline(__always)
    private static func frictionPoint(_ p: UnsafeMutablePointer<WidePoint>, _ w: UnsafePointer<WidePair>,
                                      _ A: inout WideBodies, _ B: inout WideBodies) {
        let tx = w.pointee.normalY, ty = -w.pointee.normalX
        let vt = speed(p, tx, ty, A, B)
        let maxF = w.pointee.friction * p.pointee.normalImpulse
        let old = p.pointee.tangentImpulse
        let newImpulse = wideMin(wideMax(old - p.pointee.tangentMass * vt, -maxF), maxF)
        p.pointee.tangentImpulse = newImpulse
        apply(newImpulse - old, p, tx, ty, w, &A, &B)
    }

    @inline(__always)
    private static func solve(_ w: UnsafePointer<WidePair>, _ p0: UnsafeMutablePointer<WidePoint>,
                              _ p1: UnsafeMutablePointer<WidePoint>, _ bodies: UnsafeMutableBufferPointer<SolverBody>,
                              invH: Double, useBias: Bool, maxPush: Double) {
        var A = WideBodies(w.pointee.a, bodies, positions: true), B = WideBodies(w.pointee.b, bodies, positions: true)
        let nx = w.pointee.normalX, ny = w.pointee.normalY
        // A bundle of one-point contacts (circles) has no second point and no block.
        let twoPoints = w.pointee.twoPoints
        let s0 = separation(p0, nx, ny, A, B)
        var s1 = Wide(), blockDone = WideMask(repeating: false)
        if twoPoints {
            s1 = separation(p1, nx, ny, A, B)
            blockDone = solveBlock(w, p0, p1, s0, s1, &A, &B, invH: invH, useBias: useBias, maxPush: maxPush)
        }
        if !all(blockDone) {
            solvePoint(p0, s0, w, blockDone, &A, &B, invH: invH, useBias: useBias, maxPush: maxPush)
            if twoPoints { solvePoint(p1, s1, w, blockDone, &A, &B, invH: invH, useBias: useBias, maxPush: maxPush) }
        }
        frictionPoint(p0, w, &A, &B)
        if twoPoints { frictionPoint(p1, w, &A, &B) }
        A.scatter(w.pointee.a, w.pointee.movesA, bodies)
        B.scatter(w.pointee.b, w.pointee.movesB, bodies)
    }

    /// The 2×2 block, in the lanes where both points press gently and the solution pushes at
    /// both; returns those lanes (the others are solved one point after the other).
    @inline(__always)
    private static func solveBlock(_ w: UnsafePointer<WidePair>, _ p0: UnsafeMutablePointer<WidePoint>,
                                   _ p1: UnsafeMutablePointer<WidePoint>, _ s0: Wide, _ s1: Wide,
                                   _ A: inout WideBodies, _ B: inout WideBodies,
                                   invH: Double, useBias: Bool, maxPush: Double) -> WideMask {
        var blockDone = w.pointee.block .& (s0 .<= 0) .& (s1 .<= 0)
        guard any(blockDone) else { return blockDone }
        let nx = w.pointee.normalX, ny = w.pointee.normalY
        let vn0 = speed(p0, nx, ny, A, B), vn1 = speed(p1, nx, ny, A, B)
        var b0 = Wide(), b1 = Wide(), massScale = Wide(repeating: 1), impulseScale = Wide()
        if useBias {
            let fast = PhysicsSettings.linearSlop * invH / (1 - w.pointee.massScale)
            blockDone = blockDone .& (-vn0 .<= fast) .& (-vn1 .<= fast)
            b0 = wideMax(w.pointee.biasRate * s0, Wide(repeating: -maxPush))
            b1 = wideMax(w.pointee.biasRate * s1, Wide(repeating: -maxPush))
            massScale = w.pointee.massScale
            impulseScale = w.pointee.impulseScale
        }
        let a0 = p0.pointee.normalImpulse, a1 = p1.pointee.normalImpulse
        let m11 = w.pointee.m11, m12 = w.pointee.m12, m22 = w.pointee.m22
        let x0 = a0 - massScale * (m11 * (vn0 + b0) + m12 * (vn1 + b1)) - impulseScale * a0
        let x1 = a1 - massScale * (m12 * (vn0 + b0) + m22 * (vn1 + b1)) - impulseScale * a1
        blockDone = blockDone .& (x0 .>= 0) .& (x1 .>= 0)
        guard any(blockDone) else { return blockDone }
        let l0 = (x0 - a0).replacing(with: 0, where: .!blockDone)
        let l1 = (x1 - a1).replacing(with: 0, where: .!blockDone)
        p0.pointee.normalImpulse.replace(with: x0, where: blockDone)
        p1.pointee.normalImpulse.replace(with: x1, where: blockDone)
        p0.pointee.maxNormalImpulse.replace(with: wideMax(p0.pointee.maxNormalImpulse, l0), where: blockDone)
        p1.pointee.maxNormalImpulse.replace(with: wideMax(p1.pointee.maxNormalImpulse, l1), where: blockDone)
        let P0x = l0 * nx, P0y = l0 * ny, P1x = l1 * nx, P1y = l1 * ny
        let mA = w.pointee.mA, mB = w.pointee.mB
        A.vx -= mA * (P0x + P1x); A.vy -= mA * (P0y + P1y)
        A.w -= w.pointee.iA * ((p0.pointee.rAx * P0y - p0.pointee.rAy * P0x) + (p1.pointee.rAx * P1y - p1.pointee.rAy * P1x))
        B.vx += mB * (P0x + P1x); B.vy += mB * (P0y + P1y)
        B.w += w.pointee.iB * ((p0.pointee.rBx * P0y - p0.pointee.rBy * P0x) + (p1.pointee.rBx * P1y - p1.pointee.rBy * P1x))
        return blockDone
    }
}

#if !hasFeature(Embedded)
/// The soft step's contact stages on the worker pool: one colour at a time, its bundles split
/// between the workers (a colour's constraints move different bodies, so the split does not
/// change a bit).
final class SoftContactStage: ParallelStage {
    var kind = SoftContactSolver.Pass.solve
    var range = 0..<0
    var invH = 0.0
    var useBias = true
    var pairs: UnsafeMutablePointer<WidePair>?
    var points0: UnsafeMutablePointer<WidePoint>?
    var points1: UnsafeMutablePointer<WidePoint>?
    var bodies = UnsafeMutableBufferPointer<SolverBody>(start: nil, count: 0)

    /// Colours with fewer bundles than this run on the caller alone: below it, handing the
    /// bodies over to another core costs more than it saves (measured on pyramid40 and
    /// many_circles; tests lower it to split small scenes).
    var minimumBundles = 64

    func work(share: Int, of shares: Int) {
        let r = shareOf(range, share, shares)
        switch kind {
        case .warmStart: SoftContactSolver.warmStartBundles(r, pairs, points0, points1, bodies)
        case .solve: SoftContactSolver.solveBundles(r, pairs, points0, points1, bodies, invH: invH, useBias: useBias)
        }
    }

    /// Runs `kind` over every colour's bundles in colour order (the last colour first when
    /// the solver walks backwards).
    func run(_ kind: SoftContactSolver.Pass, _ solver: inout SoftContactSolver, _ bodies: UnsafeMutableBufferPointer<SolverBody>,
             invH: Double, useBias: Bool, pool: WorkerPool) {
        self.kind = kind
        self.invH = invH
        self.useBias = useBias
        self.bodies = bodies
        let bounds = solver.colourBundles, backwards = solver.backwards
        solver.withBundles { pairs, points0, points1 in
            self.pairs = pairs; self.points0 = points0; self.points1 = points1
            let colours = SoftContactSolver.colourCount
            for i in 0..<colours {
                let c = walkIndex(i, colours, backwards: backwards)
                guard bounds[c] < bounds[c + 1] else { continue }
                range = bounds[c]..<bounds[c + 1]
                if range.count < minimumBundles { work(share: 0, of: 1) } else { pool.run(self) }
            }
        }
        self.pairs = nil; self.points0 = nil; self.points1 = nil
        self.bodies = UnsafeMutableBufferPointer(start: nil, count: 0)
    }
}
#endif
