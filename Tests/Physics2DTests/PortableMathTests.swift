import Foundation
import Testing
@testable import Physics2D

/// PortableMath against the platform's libm (glibc here): within 1 ulp where the file promises
/// it, C's answers for the special values, and the identities games lean on.
struct PortableMathTests {
    /// How many doubles lie between a and b (0 = the same double).
    static func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        if a.isNaN || b.isNaN { return a.isNaN && b.isNaN ? 0 : .max }
        func ordered(_ x: Double) -> Int64 {
            let bits = Int64(bitPattern: x.bitPattern)
            return bits < 0 ? Int64.min - bits : bits
        }
        let d = ordered(a).subtractingReportingOverflow(ordered(b))
        return d.overflow ? .max : d.partialValue.magnitude
    }

    /// Deterministic samples: a fixed generator, uniform in [lo, hi), plus the ends.
    static func samples(_ lo: Double, _ hi: Double, count: Int = 20_000, seed: UInt64 = 7) -> [Double] {
        var state = seed
        var out = [lo, hi]
        for _ in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            out.append(lo + (hi - lo) * Double(state >> 11) / Double(1 << 53))
        }
        return out
    }

    /// `sincos` (what `Rot(angle:)` uses) gives `sin` and `cos` to the bit, in every quadrant,
    /// below the tiny-angle cut, far out and for non-finite angles.
    @Test func sincosIsSinAndCosBitForBit() {
        var xs = Self.samples(-1.0e6, 1.0e6, count: 5_000) + Self.samples(-7.0, 7.0, count: 5_000)
        xs += [0, -0.0, 1e-9, -1e-9, 7.450580596923828e-09, .pi / 4, .pi / 2, .pi, 3 * .pi / 2, 1e300, -1e300,
               .infinity, -.infinity, .nan]
        var differing = 0
        for x in xs {
            let (s, c) = PortableMath.sincos(x)
            if s.bitPattern != PortableMath.sin(x).bitPattern && !(s.isNaN && PortableMath.sin(x).isNaN) { differing += 1 }
            if c.bitPattern != PortableMath.cos(x).bitPattern && !(c.isNaN && PortableMath.cos(x).isNaN) { differing += 1 }
        }
        #expect(differing == 0)
        let q = Rot(angle: 2.5)
        #expect(q.s.bitPattern == PortableMath.sin(2.5).bitPattern && q.c.bitPattern == PortableMath.cos(2.5).bitPattern)
    }

    @Test func sinAndCosWithinOneUlp() {
        var worst: UInt64 = 0
        for range in [(-1.0, 1.0), (-10.0, 10.0), (-1000.0, 1000.0), (-1.0e6, 1.0e6), (1e-12, 1e-6)] {
            for x in Self.samples(range.0, range.1) {
                worst = max(worst, Self.ulps(PortableMath.sin(x), Foundation.sin(x)))
                worst = max(worst, Self.ulps(PortableMath.cos(x), Foundation.cos(x)))
            }
        }
        #expect(worst <= 1)
        // Near multiples of π/2, where the reduction must keep its bits.
        for k in 1...2_000 {
            let x = Double(k) * Double.pi / 2
            #expect(Self.ulps(PortableMath.sin(x), Foundation.sin(x)) <= 1, "sin \(k)·π/2")
            #expect(Self.ulps(PortableMath.cos(x), Foundation.cos(x)) <= 1, "cos \(k)·π/2")
        }
        #expect(PortableMath.sin(0) == 0 && PortableMath.sin(-0.0).sign == .minus)
        #expect(PortableMath.cos(0) == 1)
        #expect(PortableMath.sin(.infinity).isNaN && PortableMath.cos(.nan).isNaN)
    }

    @Test func atanAndAtan2WithinOneUlp() {
        var worst: UInt64 = 0
        for x in Self.samples(-50, 50) + Self.samples(-1e20, 1e20) + Self.samples(-1e-20, 1e-20) {
            worst = max(worst, Self.ulps(PortableMath.atan(x), Foundation.atan(x)))
        }
        let ys = Self.samples(-100, 100, count: 3_000, seed: 1), xs = Self.samples(-100, 100, count: 3_000, seed: 2)
        for (y, x) in zip(ys, xs) {
            worst = max(worst, Self.ulps(PortableMath.atan2(y, x), Foundation.atan2(y, x)))
        }
        #expect(worst <= 1)
        // C's special cases.
        let inf = Double.infinity
        let cases: [(Double, Double)] = [(0, 0), (-0.0, 0), (0, -0.0), (-0.0, -0.0), (1, 0), (-1, 0), (1, -0.0),
                                         (0, 1), (0, -1), (-0.0, -1), (inf, inf), (-inf, inf), (inf, -inf),
                                         (-inf, -inf), (1, inf), (1, -inf), (-1, -inf), (inf, 1), (-inf, 1),
                                         (1e300, 1e-300), (1e-300, -1e300), (-1e-300, -1e300)]
        for (y, x) in cases {
            let mine = PortableMath.atan2(y, x), libm = Foundation.atan2(y, x)
            #expect(Self.ulps(mine, libm) <= 1 && mine.sign == libm.sign, "atan2(\(y), \(x)) = \(mine), libm \(libm)")
        }
        #expect(PortableMath.atan2(.nan, 1).isNaN && PortableMath.atan(.nan).isNaN)
    }

    @Test func expAndLogWithinOneUlp() {
        var worst: UInt64 = 0
        for x in Self.samples(-700, 700) + Self.samples(-1, 1) + Self.samples(-1e-10, 1e-10) {
            worst = max(worst, Self.ulps(PortableMath.exp(x), Foundation.exp(x)))
        }
        for x in Self.samples(1e-300, 1e-290) + Self.samples(0, 10) + Self.samples(1e10, 1e300) + [5e-324, 1e-310] {
            worst = max(worst, Self.ulps(PortableMath.log(x), Foundation.log(x)))
        }
        #expect(worst <= 1)
        #expect(PortableMath.exp(710) == .infinity && PortableMath.exp(-746) == 0 && PortableMath.exp(0) == 1)
        #expect(PortableMath.log(0) == -.infinity && PortableMath.log(-1).isNaN && PortableMath.log(1) == 0)
    }

    @Test func exp2AndPow() {
        // Whole powers of two are exact; fractional ones within 2 ulp; pow within a few ulp where
        // |y·log x| is small (the tweens' range), and C's answers for the special cases.
        for k in -1074...1023 { #expect(PortableMath.exp2(Double(k)) == Foundation.exp2(Double(k)), "2^\(k)") }
        var worst: UInt64 = 0
        for x in Self.samples(-20, 20) { worst = max(worst, Self.ulps(PortableMath.exp2(x), Foundation.exp2(x))) }
        #expect(worst <= 2)
        // pow = exp(y·log x): the rounding of y·log x is magnified by |y·log x| (the file's promise:
        // about |y·log x| ulp, plus exp's and log's own).
        var over = 0
        for (x, y) in zip(Self.samples(0.01, 10, count: 5_000, seed: 3), Self.samples(-4, 4, count: 5_000, seed: 4)) {
            let allowed = 2 + UInt64((1.5 * (y * Foundation.log(x)).magnitude).rounded(.up))
            if Self.ulps(PortableMath.pow(x, y), Foundation.pow(x, y)) > allowed { over += 1 }
        }
        #expect(over == 0)
        worst = 0
        for t in Self.samples(0, 1) {  // Elastic's 2^(10(t−1)) as pow(2, …): exact path
            worst = max(worst, Self.ulps(PortableMath.pow(2, 10 * (t - 1)), Foundation.pow(2, 10 * (t - 1))))
        }
        #expect(worst <= 2)
        #expect(PortableMath.pow(-2, 3) == -8 && PortableMath.pow(-2, 2) == 4 && PortableMath.pow(-2, 0.5).isNaN)
        #expect(PortableMath.pow(0, 2) == 0 && PortableMath.pow(0, -1) == .infinity && PortableMath.pow(5, 0) == 1)
        #expect(PortableMath.pow(2, 10) == 1024 && PortableMath.pow(2, -1) == 0.5)
    }

    @Test func floatVersionsRoundOnce() {
        for x in Self.samples(-10, 10, count: 2_000).map(Float.init) {
            #expect(PortableMath.sinf(x) == Float(PortableMath.sin(Double(x))))
            #expect(PortableMath.cosf(x) == Float(PortableMath.cos(Double(x))))
        }
    }
}
