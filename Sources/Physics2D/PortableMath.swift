// The elementary functions of Physics2D, Stage and Playground, written in plain Swift arithmetic.
//
// The games run twice from the same sources: natively and as Embedded Swift WebAssembly in the
// browser (docs/playground.md). A replayed input log must give the same events in both, so the
// math they use cannot come from the platform's libm (glibc, Apple's libm and a wasm libc each
// round differently in the last bit). These functions use only IEEE-754 +, −, ×, ÷, square root,
// comparisons and exponent manipulation, which every platform rounds the same way, and Swift never
// fuses a multiply and an add on its own, so they give bit-identical results everywhere.
//
// The algorithms are the classic ones of Sun's fdlibm (1993), as described in its sources'
// comments: Cody–Waite argument reduction with π/2 split in three parts, and minimax
// polynomials on the reduced interval. Accuracy (checked against glibc in PortableMathTests):
// sin, cos, atan, atan2, exp and log within 1 ulp for the ranges games use (|x| < 2^20·π/2 for
// sin/cos); exp2 within 2 ulp (exact for whole numbers); pow through exp(y·log x), so the
// rounding of y·log x is magnified: within 2 + 1.5·|y·log x| ulp (pow(2, y) goes through exp2).

/// Bit-reproducible elementary functions (fdlibm's algorithms in plain Swift arithmetic).
public enum PortableMath {
    public static let pi = 3.141592653589793
    static let halfPi = 1.5707963267948966

    // π/2 in three parts (33 + 33 + 53 bits), fdlibm's pio2_1, pio2_2, pio2_3 and their tails.
    private static let pio2_1 = 1.57079632673412561417e+00
    private static let pio2_2 = 6.07710050630396597660e-11
    private static let pio2_2t = 2.02226624879595063154e-21
    private static let pio2_3 = 2.02226624871116645580e-21
    private static let pio2_3t = 8.47842766036889956997e-32
    private static let invPio2 = 6.36619772367581382433e-01

    /// x = n·π/2 + (hi + lo), |hi + lo| ≲ π/4: fdlibm's three-step reduction, all three steps
    /// always (exact products for |n| < 2^20; past that, less accurate but still deterministic).
    @inline(__always)
    private static func reduce(_ x: Double) -> (n: Int, hi: Double, lo: Double) {
        if x.magnitude <= 0.7853981633974483 { return (0, x, 0) }
        let fn = (x * invPio2).rounded(.toNearestOrEven)
        var r = x - fn * pio2_1
        var t = r
        var w = fn * pio2_2
        r = t - w
        w = fn * pio2_2t - ((t - r) - w)
        t = r
        w = fn * pio2_3
        r = t - w
        w = fn * pio2_3t - ((t - r) - w)
        let hi = r - w
        let lo = (r - hi) - w
        let n = fn.magnitude < 9.0e15 ? Int(fn) : 0
        return (n, hi, lo)
    }

    // fdlibm's __kernel_sin and __kernel_cos coefficients on [-π/4, π/4].
    private static let s1 = -1.66666666666666324348e-01
    private static let s2 = 8.33333333332248946124e-03
    private static let s3 = -1.98412698298579493134e-04
    private static let s4 = 2.75573137070700676789e-06
    private static let s5 = -2.50507602534068634195e-08
    private static let s6 = 1.58969099521155010221e-10
    private static let c1 = 4.16666666666666019037e-02
    private static let c2 = -1.38888888888741095749e-03
    private static let c3 = 2.48015872894767294178e-05
    private static let c4 = -2.75573143513906633035e-07
    private static let c5 = 2.08757232129817482790e-09
    private static let c6 = -1.13596475577881948265e-11

    @inline(__always)
    private static func kernelSin(_ x: Double, _ y: Double) -> Double {
        let z = x * x
        let v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }

    @inline(__always)
    private static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let z = x * x
        let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        let hz = 0.5 * z
        let w = 1.0 - hz
        return w + (((1.0 - w) - hz) + (z * r - x * y))
    }

    public static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        if x.magnitude < 7.450580596923828e-09 { return x }  // 2^-27: sin x = x in doubles
        let (n, hi, lo) = reduce(x)
        switch n & 3 {
        case 0: return kernelSin(hi, lo)
        case 1: return kernelCos(hi, lo)
        case 2: return -kernelSin(hi, lo)
        default: return -kernelCos(hi, lo)
        }
    }

    /// `(sin(x), cos(x))`, bit for bit, with one range reduction (a rotation needs both).
    public static func sincos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        if x.magnitude < 7.450580596923828e-09 { return (x, 1) }
        let (n, hi, lo) = reduce(x)
        let s = kernelSin(hi, lo), c = kernelCos(hi, lo)
        switch n & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    public static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        if x.magnitude < 7.450580596923828e-09 { return 1 }
        let (n, hi, lo) = reduce(x)
        switch n & 3 {
        case 0: return kernelCos(hi, lo)
        case 1: return -kernelSin(hi, lo)
        case 2: return -kernelCos(hi, lo)
        default: return kernelSin(hi, lo)
        }
    }

    // fdlibm's atan: breakpoints 7/16, 11/16, 19/16, 39/16, atan of 0.5, 1, 1.5, ∞ in two parts,
    // and the odd polynomial's coefficients.
    private static let atanHi: (Double, Double, Double, Double) = (
        4.63647609000806093515e-01, 7.85398163397448278999e-01, 9.82793723247329054082e-01, 1.57079632679489655800e+00)
    private static let atanLo: (Double, Double, Double, Double) = (
        2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17)
    private static let aT: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double) = (
        3.33333333333329318027e-01, -1.99999999998764832476e-01, 1.42857142725034663711e-01,
        -1.11111104054623557880e-01, 9.09088713343650656196e-02, -7.69187620504482999495e-02,
        6.66107313738753120669e-02, -5.83357013379057348645e-02, 4.97687799461593236017e-02,
        -3.65315727442169155270e-02, 1.62858201153657823623e-02)

    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        let negative = x.sign == .minus
        var a = x.magnitude
        if a >= 7.378697629483821e19 {  // 2^66: atan is ±π/2 to the last bit
            let r = atanHi.3 + atanLo.3
            return negative ? -r : r
        }
        if a < 2.7755575615628914e-17 { return x }  // 2^-55
        var id = -1
        if a < 0.4375 {
            id = -1
        } else if a < 0.6875 {
            id = 0; a = (2.0 * a - 1.0) / (2.0 + a)
        } else if a < 1.1875 {
            id = 1; a = (a - 1.0) / (a + 1.0)
        } else if a < 2.4375 {
            id = 2; a = (a - 1.5) / (1.0 + 1.5 * a)
        } else {
            id = 3; a = -1.0 / a
        }
        let z = a * a
        let w = z * z
        let s1 = z * (aT.0 + w * (aT.2 + w * (aT.4 + w * (aT.6 + w * (aT.8 + w * aT.10)))))
        let s2 = w * (aT.1 + w * (aT.3 + w * (aT.5 + w * (aT.7 + w * aT.9))))
        let r: Double
        switch id {
        case -1: return negative ? -(a - a * (s1 + s2)) : a - a * (s1 + s2)
        case 0: r = atanHi.0 - ((a * (s1 + s2) - atanLo.0) - a)
        case 1: r = atanHi.1 - ((a * (s1 + s2) - atanLo.1) - a)
        case 2: r = atanHi.2 - ((a * (s1 + s2) - atanLo.2) - a)
        default: r = atanHi.3 - ((a * (s1 + s2) - atanLo.3) - a)
        }
        return negative ? -r : r
    }

    private static let piLo = 1.2246467991473531772e-16

    /// The angle of (x, y) in (−π, π], with C's conventions for zeros and infinities.
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        let yNegative = y.sign == .minus
        if y == 0 {
            // atan2(±0, +0) = ±0, atan2(±0, −0) = ±π, and likewise for x > 0 / x < 0.
            if x.sign == .plus { return y }
            return yNegative ? -(pi) : pi
        }
        if x == 0 { return yNegative ? -halfPi : halfPi }
        if x.isInfinite {
            if y.isInfinite {
                let r = x.sign == .plus ? pi / 4 : 3 * pi / 4
                return yNegative ? -r : r
            }
            let r = x.sign == .plus ? 0.0 : pi
            return yNegative ? -r : r
        }
        if y.isInfinite { return yNegative ? -halfPi : halfPi }
        // Exponent gap: |y/x| beyond 2^60 is ±π/2; below 2^-60 with x < 0 it is ±π.
        let gap = y.exponent - x.exponent
        var z: Double
        if gap > 60 {
            z = halfPi + 0.5 * piLo
        } else if x.sign == .minus && gap < -60 {
            z = 0
        } else {
            z = atan((y / x).magnitude)
        }
        if x.sign == .plus { return yNegative ? -z : z }
        z = pi - (z - piLo)
        return yNegative ? -z : z
    }

    // fdlibm's exp: ln 2 in two parts, 1/ln 2, and the rational approximation's coefficients.
    private static let ln2Hi = 6.93147180369123816490e-01
    private static let ln2Lo = 1.90821492927058770002e-10
    private static let invLn2 = 1.44269504088896338700e+00
    private static let p1 = 1.66666666666666019037e-01
    private static let p2 = -2.77777777770155933842e-03
    private static let p3 = 6.61375632143793436117e-05
    private static let p4 = -1.65339022054652515390e-06
    private static let p5 = 4.13813679705723846039e-08

    /// y · 2^k for any k (two steps, so that neither factor overflows or goes subnormal early).
    @inline(__always)
    private static func scale(_ y: Double, _ k: Int) -> Double {
        if k >= -1022 && k <= 1023 { return y * Double(sign: .plus, exponent: k, significand: 1) }
        let half = k / 2
        return y * Double(sign: .plus, exponent: half, significand: 1)
            * Double(sign: .plus, exponent: k - half, significand: 1)
    }

    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 7.09782712893383973096e+02 { return .infinity }
        if x < -7.45133219101941108420e+02 { return 0 }
        if x.magnitude < 3.725290298461914e-09 { return 1 + x }  // 2^-28
        var hi = x, lo = 0.0, k = 0
        if x.magnitude > 0.34657359027997264 {  // ½ ln 2
            let kd = (x * invLn2).rounded(.toNearestOrEven)
            k = Int(kd)
            hi = x - kd * ln2Hi
            lo = kd * ln2Lo
        }
        let r = hi - lo
        let t = r * r
        let c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
        if k == 0 { return 1 - ((r * c) / (c - 2) - r) }
        let y = 1 - ((lo - (r * c) / (2 - c)) - hi)
        return scale(y, k)
    }

    /// 2^x: exact for whole x in range; otherwise exp(x·ln 2) with ln 2 in two parts.
    public static func exp2(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x >= 1024 { return .infinity }
        if x < -1075 { return 0 }
        let whole = x.rounded(.down)
        if whole == x { return scale(1, Int(whole)) }
        let f = x - whole  // in (0, 1), exact
        // e^(f·ln 2) with f·ln 2 split so that the product loses nothing of note.
        return scale(exp(f * ln2Hi + f * ln2Lo), Int(whole))
    }

    // fdlibm's log: ln 2 in two parts (the same as exp's) and the series in s = f / (2 + f).
    private static let lg1 = 6.666666666666735130e-01
    private static let lg2 = 3.999999999940941908e-01
    private static let lg3 = 2.857142874366239149e-01
    private static let lg4 = 2.222219843214978396e-01
    private static let lg5 = 1.818357216161805012e-01
    private static let lg6 = 1.531383769920937332e-01
    private static let lg7 = 1.479819860511658591e-01

    /// The natural logarithm: −∞ at 0, NaN below.
    public static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        // x = 2^k · m, m in [√2/2, √2).
        var k = Int(x.exponent)
        var m = x.significand  // [1, 2), exact, subnormals included
        if m > 1.4142135623730951 { m *= 0.5; k += 1 }
        let f = m - 1
        let dk = Double(k)
        let s = f / (2 + f)
        let z = s * s
        let w = z * z
        let t1 = w * (lg2 + w * (lg4 + w * lg6))
        let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
        let r = t2 + t1
        let hfsq = 0.5 * f * f
        if k == 0 { return f - (hfsq - s * (hfsq + r)) }
        return dk * ln2Hi - ((hfsq - (s * (hfsq + r) + dk * ln2Lo)) - f)
    }

    /// x^y for the cases games meet: x > 0 through exp(y·log x) (exactly 2^y for x = 2), whole
    /// powers of negative numbers, and C's answers for zeros, ones and infinities.
    public static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return 1 }
        if x == 1 { return 1 }
        if x.isNaN || y.isNaN { return .nan }
        let yIsWhole = y.rounded(.towardZero) == y
        let yIsOdd = yIsWhole && y.magnitude < 9.007199254740992e15
            && Int64(y) & 1 == 1
        if x == 0 {
            if y > 0 { return yIsOdd ? x : 0 }
            return yIsOdd && x.sign == .minus ? -.infinity : .infinity
        }
        if x == 2 { return exp2(y) }
        if x < 0 {
            guard yIsWhole else { return .nan }
            let r = pow(-x, y)
            return yIsOdd ? -r : r
        }
        if x.isInfinite { return y > 0 ? .infinity : 0 }
        if y.isInfinite {
            if x == 1 { return 1 }
            return (x > 1) == (y > 0) ? .infinity : 0
        }
        return exp(y * log(x))
    }

    // Float versions for the display code (named like C's, so that literals stay unambiguous):
    // computed in Double, rounded once.
    public static func sinf(_ x: Float) -> Float { Float(sin(Double(x))) }
    public static func cosf(_ x: Float) -> Float { Float(cos(Double(x))) }
    public static func atan2f(_ y: Float, _ x: Float) -> Float { Float(atan2(Double(y), Double(x))) }
    public static func expf(_ x: Float) -> Float { Float(exp(Double(x))) }
    public static func powf(_ x: Float, _ y: Float) -> Float { Float(pow(Double(x), Double(y))) }
}
