// The soft step's two body loops of every sub-step, integrating velocities (forces, gravity,
// damping, the speed clamp) and positions (centre, angle, rotation), as functions of a range of
// bodies: the caller runs them over all bodies, or the worker pool splits them (each body is
// its own: any split gives the same bits).

enum SoftIntegration {
    enum Kind { case velocities, positions }

    /// What the two loops read besides the bodies.
    struct Inputs {
        var isStatic: UnsafeBufferPointer<Bool>
        var accel: UnsafeBufferPointer<SoftAcceleration>
        var h: Double, maxV: Double, maxW: Double
    }

    /// One of the two loops over the bodies in `range`.
    @inline(__always)
    static func run(_ kind: Kind, _ range: Range<Int>, _ sb: UnsafeMutableBufferPointer<SolverBody>, _ inputs: Inputs) {
        switch kind {
        case .velocities:
            velocities(range, sb, inputs.isStatic, inputs.accel, h: inputs.h, maxV: inputs.maxV, maxW: inputs.maxW)
        case .positions:
            positions(range, sb, inputs.isStatic, h: inputs.h)
        }
    }

    /// Velocities of the bodies in `range` that are integrated (not static, not asleep).
    @inline(__always)
    static func velocities(_ range: Range<Int>, _ sb: UnsafeMutableBufferPointer<SolverBody>,
                           _ isStatic: UnsafeBufferPointer<Bool>, _ accel: UnsafeBufferPointer<SoftAcceleration>,
                           h: Double, maxV: Double, maxW: Double) {
        for k in range where !isStatic[k] {
            let a = accel[k]
            var v = a.linearDamping * (sb[k].v + h * a.linear)
            var w = a.angularDamping * (sb[k].w + h * a.angular)
            // Clamp absurd motions, as the legacy step does per step.
            if v.lengthSquared > maxV * maxV { v = (maxV / v.length) * v }
            if abs(w) > maxW { w = w < 0 ? -maxW : maxW }
            sb[k].v = v; sb[k].w = w
        }
    }

    /// Positions of the bodies in `range` that are integrated; a body that does not turn keeps
    /// its rotation (no sine and cosine).
    @inline(__always)
    static func positions(_ range: Range<Int>, _ sb: UnsafeMutableBufferPointer<SolverBody>,
                          _ isStatic: UnsafeBufferPointer<Bool>, h: Double) {
        for k in range where !isStatic[k] {
            let v = sb[k].v, w = sb[k].w
            sb[k].c += h * v
            if w != 0 {
                sb[k].a += h * w
                sb[k].q = Rot(angle: sb[k].a)
            }
        }
    }
}

#if !hasFeature(Embedded)
/// The two loops on the worker pool, each body range on one thread.
final class SoftIntegrationStage: ParallelStage {
    var kind = SoftIntegration.Kind.velocities
    var bodies = UnsafeMutableBufferPointer<SolverBody>(start: nil, count: 0)
    var inputs: SoftIntegration.Inputs?

    /// Below this many bodies the caller integrates them alone: handing them to another core
    /// costs more than the loop saves on small scenes. Not tuned: the scenes with 2,000 bodies
    /// or more (pile5000, pyramid100) gain from the split; the harness's four have at most 1,003
    /// (tests lower it).
    var minimumBodies = 2_000

    func work(share: Int, of shares: Int) {
        SoftIntegration.run(kind, shareOf(0..<bodies.count, share, shares), bodies, inputs!)
    }

    /// Runs `kind` over all the bodies, split between the pool's threads.
    func run(_ kind: SoftIntegration.Kind, _ sb: UnsafeMutableBufferPointer<SolverBody>,
             _ inputs: SoftIntegration.Inputs, pool: WorkerPool) {
        self.kind = kind; bodies = sb; self.inputs = inputs
        pool.run(self)
        bodies = UnsafeMutableBufferPointer(start: nil, count: 0); self.inputs = nil
    }
}
#endif
