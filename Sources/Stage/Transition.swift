// Transitions: the easing curves a tween applies to its progress (Sparrow's SPTransitions).
//
// Each maps the ratio of elapsed time, 0…1, to the share of the way from the start value to
// the end value. Every one gives exactly 0 at 0 and 1 at 1; Back and Elastic leave 0…1 on the way.
// The formulas are Sparrow's (docs/playground.md, "Tweens, jugglers and paths", has the
// table); the math is Physics2D.PortableMath's, so native and wasm builds agree bit for bit.

import Physics2D

/// An easing curve: `value(at:)` maps a time ratio 0…1 to a progress (0 at 0, 1 at 1).
public enum Transition: Hashable, Sendable {
    /// p(t) = t.
    case linear
    /// Cubic: p(t) = t³.
    case easeIn
    /// Cubic: p(t) = (t − 1)³ + 1.
    case easeOut
    /// easeIn on the first half, easeOut on the second (see `combine`).
    case easeInOut
    /// easeOut on the first half, easeIn on the second.
    case easeOutIn
    /// p(t) = t²·((s + 1)·t − s), s = 1.70158: pulls back below 0 first (by about 10 %).
    case easeInBack
    /// p(t) = u²·((s + 1)·u + s) + 1 with u = t − 1: overshoots 1 (by about 10 %) and settles.
    case easeOutBack
    case easeInOutBack
    case easeOutInBack
    /// p(t) = −2^(10·u)·sin((u − s)·2π/p), u = t − 1, p = 0.3, s = p/4; 0 and 1 exactly at the ends.
    case easeInElastic
    /// p(t) = 2^(−10·t)·sin((t − s)·2π/p) + 1, p = 0.3, s = p/4; 0 and 1 exactly at the ends.
    case easeOutElastic
    case easeInOutElastic
    case easeOutInElastic
    /// 1 − easeOutBounce(1 − t).
    case easeInBounce
    /// Four parabolic arcs of a ball falling onto 1 (Penner's bounce, k = 7.5625, d = 2.75).
    case easeOutBounce
    case easeInOutBounce
    case easeOutInBounce
    /// One of the 17 named transitions, chosen by `seed`: the first output of SplitMix64
    /// seeded with `seed`, modulo 17, indexes `Transition.all`. The same seed always gives the
    /// same transition, natively and in wasm; games pass a number from their seeded generator.
    case random(seed: UInt64)

    /// The 17 named transitions, in Sparrow's order (linear, then plain, Back, Elastic,
    /// Bounce, each as in, out, inOut, outIn). `random` picks from this list.
    public static var all: [Transition] { (0..<17).map(named) }

    /// Sparrow's name of the transition ("linear", "easeInOutBack"…); "random" for `random`.
    public var name: String {
        switch self {
        case .linear: "linear"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .easeInOut: "easeInOut"
        case .easeOutIn: "easeOutIn"
        case .easeInBack: "easeInBack"
        case .easeOutBack: "easeOutBack"
        case .easeInOutBack: "easeInOutBack"
        case .easeOutInBack: "easeOutInBack"
        case .easeInElastic: "easeInElastic"
        case .easeOutElastic: "easeOutElastic"
        case .easeInOutElastic: "easeInOutElastic"
        case .easeOutInElastic: "easeOutInElastic"
        case .easeInBounce: "easeInBounce"
        case .easeOutBounce: "easeOutBounce"
        case .easeInOutBounce: "easeInOutBounce"
        case .easeOutInBounce: "easeOutInBounce"
        case .random: "random"
        }
    }

    /// The named transition called `name` (one of the 17; not "random", which needs a seed).
    public init?(name: String) {
        for transition in Transition.all where transition.name == name {
            self = transition
            return
        }
        return nil
    }

    /// The named transition this one stands for: itself, or for `random(seed:)` the chosen one.
    public var resolved: Transition {
        guard case .random(let seed) = self else { return self }
        return Transition.named(Int(Transition.splitMix64(seed) % 17))
    }

    /// `Transition.all[index]` without building the array (a random tween resolves every frame).
    private static func named(_ index: Int) -> Transition {
        switch index {
        case 0: .linear
        case 1: .easeIn
        case 2: .easeOut
        case 3: .easeInOut
        case 4: .easeOutIn
        case 5: .easeInBack
        case 6: .easeOutBack
        case 7: .easeInOutBack
        case 8: .easeOutInBack
        case 9: .easeInElastic
        case 10: .easeOutElastic
        case 11: .easeInOutElastic
        case 12: .easeOutInElastic
        case 13: .easeInBounce
        case 14: .easeOutBounce
        case 15: .easeInOutBounce
        default: .easeOutInBounce
        }
    }

    /// The progress at time ratio `t`: exactly 0 at 0 and exactly 1 at 1 (so a tween ends on
    /// its end value even where the formula's rounding would miss it by an ulp), the formula
    /// between; values outside 0…1 extrapolate the formula.
    public func value(at t: Double) -> Double {
        if t == 0 { return 0 }
        if t == 1 { return 1 }
        return formula(t)
    }

    private func formula(_ t: Double) -> Double {
        switch self {
        case .linear: t
        case .easeIn: Curve.easeIn(t)
        case .easeOut: Curve.easeOut(t)
        case .easeInOut: Curve.combine(t, Curve.easeIn, Curve.easeOut)
        case .easeOutIn: Curve.combine(t, Curve.easeOut, Curve.easeIn)
        case .easeInBack: Curve.easeInBack(t)
        case .easeOutBack: Curve.easeOutBack(t)
        case .easeInOutBack: Curve.combine(t, Curve.easeInBack, Curve.easeOutBack)
        case .easeOutInBack: Curve.combine(t, Curve.easeOutBack, Curve.easeInBack)
        case .easeInElastic: Curve.easeInElastic(t)
        case .easeOutElastic: Curve.easeOutElastic(t)
        case .easeInOutElastic: Curve.combine(t, Curve.easeInElastic, Curve.easeOutElastic)
        case .easeOutInElastic: Curve.combine(t, Curve.easeOutElastic, Curve.easeInElastic)
        case .easeInBounce: Curve.easeInBounce(t)
        case .easeOutBounce: Curve.easeOutBounce(t)
        case .easeInOutBounce: Curve.combine(t, Curve.easeInBounce, Curve.easeOutBounce)
        case .easeOutInBounce: Curve.combine(t, Curve.easeOutBounce, Curve.easeInBounce)
        case .random: resolved.formula(t)
        }
    }

    /// SplitMix64's output for state `seed` (Steele, Lea, Flood 2014): add the golden gamma,
    /// then two xor-shift-multiply rounds and a final xor-shift.
    static func splitMix64(_ seed: UInt64) -> UInt64 {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The curve formulas behind `Transition`.
private enum Curve {
    static let backAmount = 1.70158
    static let elasticPeriod = 0.3
    static let bounceFactor = 7.5625
    static let bounceDivisor = 2.75

    /// The in-out composition: `first` squeezed into 0…½ (scaled by ½), `second` into ½…1
    /// (scaled by ½ and lifted by ½). p(½) uses the second half.
    @inline(__always)
    static func combine(_ t: Double, _ first: (Double) -> Double, _ second: (Double) -> Double) -> Double {
        t < 0.5 ? 0.5 * first(2 * t) : 0.5 * second(2 * t - 1) + 0.5
    }

    static func easeIn(_ t: Double) -> Double { t * t * t }

    static func easeOut(_ t: Double) -> Double {
        let u = t - 1
        return u * u * u + 1
    }

    static func easeInBack(_ t: Double) -> Double {
        let s = backAmount
        return t * t * ((s + 1) * t - s)
    }

    static func easeOutBack(_ t: Double) -> Double {
        let s = backAmount
        let u = t - 1
        return u * u * ((s + 1) * u + s) + 1
    }

    static func easeInElastic(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        let p = elasticPeriod
        let s = p / 4
        let u = t - 1
        return -PortableMath.exp2(10 * u) * PortableMath.sin((u - s) * (2 * Double.pi) / p)
    }

    static func easeOutElastic(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        let p = elasticPeriod
        let s = p / 4
        return PortableMath.exp2(-10 * t) * PortableMath.sin((t - s) * (2 * Double.pi) / p) + 1
    }

    static func easeInBounce(_ t: Double) -> Double { 1 - easeOutBounce(1 - t) }

    static func easeOutBounce(_ t: Double) -> Double {
        let k = bounceFactor
        let d = bounceDivisor
        if t < 1 / d {
            return k * t * t
        } else if t < 2 / d {
            let u = t - 1.5 / d
            return k * u * u + 0.75
        } else if t < 2.5 / d {
            let u = t - 2.25 / d
            return k * u * u + 0.9375
        } else {
            let u = t - 2.625 / d
            return k * u * u + 0.984375
        }
    }
}
