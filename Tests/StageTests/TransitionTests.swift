import Foundation
import Testing
import Stage

/// Sparrow's 17 transitions against their formulas, written out again here (with Foundation's
/// libm, not the module's code), plus the shape each family promises.
@Suite struct TransitionTests {
    // The formulas, restated independently of Sources/Stage/Transition.swift.
    static func cubicIn(_ t: Double) -> Double { pow(t, 3) }
    static func cubicOut(_ t: Double) -> Double { 1 - pow(1 - t, 3) }
    static func backIn(_ t: Double) -> Double { let s = 1.70158; return t * t * (t * (s + 1) - s) }
    static func backOut(_ t: Double) -> Double { 1 - backIn(1 - t) }
    static func elasticIn(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        return -pow(2, 10 * (t - 1)) * sin((t - 1 - 0.075) * 2 * Double.pi / 0.3)
    }
    static func elasticOut(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        return pow(2, -10 * t) * sin((t - 0.075) * 2 * Double.pi / 0.3) + 1
    }
    /// A ball dropped onto 1: the first arc, then bounces of heights 1/4, 1/16, 1/64 whose
    /// parabolas all have curvature 2·7.5625 and land at 2/2.75, 2.5/2.75 and 1.
    static func bounceOut(_ t: Double) -> Double {
        let k = 7.5625
        let arcs: [(from: Double, centre: Double, height: Double)] = [
            (0, 0, 1), (1 / 2.75, 1.5 / 2.75, 0.25), (2 / 2.75, 2.25 / 2.75, 0.0625), (2.5 / 2.75, 2.625 / 2.75, 0.015625),
        ]
        var arc = arcs[0]
        for candidate in arcs where t >= candidate.from { arc = candidate }
        if arc.from == 0 { return k * t * t }
        return 1 - arc.height + k * (t - arc.centre) * (t - arc.centre)
    }
    static func bounceIn(_ t: Double) -> Double { 1 - bounceOut(1 - t) }
    static func inOut(_ first: @escaping (Double) -> Double, _ second: @escaping (Double) -> Double) -> (Double) -> Double {
        { t in t < 0.5 ? first(2 * t) / 2 : 0.5 + second(2 * t - 1) / 2 }
    }

    static var expected: [(Transition, (Double) -> Double)] { [
        (.linear, { $0 }),
        (.easeIn, cubicIn), (.easeOut, cubicOut),
        (.easeInOut, inOut(cubicIn, cubicOut)), (.easeOutIn, inOut(cubicOut, cubicIn)),
        (.easeInBack, backIn), (.easeOutBack, backOut),
        (.easeInOutBack, inOut(backIn, backOut)), (.easeOutInBack, inOut(backOut, backIn)),
        (.easeInElastic, elasticIn), (.easeOutElastic, elasticOut),
        (.easeInOutElastic, inOut(elasticIn, elasticOut)), (.easeOutInElastic, inOut(elasticOut, elasticIn)),
        (.easeInBounce, bounceIn), (.easeOutBounce, bounceOut),
        (.easeInOutBounce, inOut(bounceIn, bounceOut)), (.easeOutInBounce, inOut(bounceOut, bounceIn)),
    ] }

    @Test func thereAreSeventeenNamedTransitionsEachWithItsName() {
        #expect(Transition.all.count == 17)
        #expect(Self.expected.map(\.0) == Transition.all)
        let names = Transition.all.map(\.name)
        #expect(Set(names).count == 17)
        for transition in Transition.all {
            #expect(Transition(name: transition.name) == transition)
        }
        #expect(Transition(name: "random") == nil)
        #expect(Transition(name: "easeSideways") == nil)
    }

    @Test func everyTransitionIsExactlyZeroAtZeroAndOneAtOne() {
        for transition in Transition.all {
            #expect(transition.value(at: 0) == 0, "\(transition.name)")
            #expect(transition.value(at: 1) == 1, "\(transition.name)")
        }
    }

    @Test func everyTransitionMatchesItsFormulaAtHalfAndBetween() {
        for (transition, formula) in Self.expected {
            for t in [0.5, 0.01, 0.1, 0.25, 0.3, 0.49, 0.51, 0.7, 0.75, 0.9, 0.99] {
                let got = transition.value(at: t)
                let want = formula(t)
                #expect(abs(got - want) <= 1e-12, "\(transition.name) at \(t): \(got) vs \(want)")
            }
        }
    }

    /// The values at ½ worked out by hand: a check of the restated formulas themselves.
    @Test func valuesAtHalfWorkedOutByHand() {
        let byHand: [Transition: Double] = [
            .linear: 0.5, .easeIn: 0.125, .easeOut: 0.875, .easeInOut: 0.5, .easeOutIn: 0.5,
            // 0.25·(2.70158·0.5 − 1.70158) and its mirror.
            .easeInBack: -0.0876975, .easeOutBack: 1.0876975, .easeInOutBack: 0.5, .easeOutInBack: 0.5,
            // 2^−5·sin(±(0.5 − 0.075)·2π/0.3 …) = ∓1/64: the sine is sin(π/6) = ½.
            .easeInElastic: -1.0 / 64, .easeOutElastic: 1 + 1.0 / 64, .easeInOutElastic: 0.5, .easeOutInElastic: 0.5,
            // 7.5625·(0.5 − 1.5/2.75)² + 0.75 = 1/64 + 3/4.
            .easeInBounce: 0.234375, .easeOutBounce: 0.765625, .easeInOutBounce: 0.5, .easeOutInBounce: 0.5,
        ]
        #expect(byHand.count == 17)
        for (transition, value) in byHand {
            #expect(abs(transition.value(at: 0.5) - value) <= 1e-12, "\(transition.name)")
        }
    }

    @Test func plainAndLinearTransitionsNeverGoBackNorLeaveZeroToOne() {
        for transition in [Transition.linear, .easeIn, .easeOut, .easeInOut, .easeOutIn] {
            var previous = 0.0
            for i in 1...1000 {
                let v = transition.value(at: Double(i) / 1000)
                #expect(v >= previous - 1e-15 && v <= 1, "\(transition.name)")
                previous = v
            }
        }
    }

    @Test func backPullsBackAboutTenPercentAndReturns() {
        let samples = (0...1000).map { Double($0) / 1000 }
        let inValues = samples.map { Transition.easeInBack.value(at: $0) }
        let outValues = samples.map { Transition.easeOutBack.value(at: $0) }
        // The extreme of t²((s+1)t − s) is at t = 2s/(3(s+1)): about −0.1002.
        #expect(abs(inValues.min()! + 0.1002) < 0.0005)
        #expect(abs(outValues.max()! - 1.1002) < 0.0005)
        #expect(inValues.max()! <= 1 && outValues.min()! >= 0)
    }

    @Test func elasticOscillatesAroundItsEndAndSettles() {
        // Sampled between the zeros of the sine (t = 0.075 + 0.15k), which fall on a 1/1000 grid.
        let samples = (0..<1000).map { Transition.easeOutElastic.value(at: (Double($0) + 0.5) / 1000) }
        #expect(samples.max()! > 1.3)           // the first overshoot: 2^−1·sin(…)+1 ≈ 1.37
        var crossings = 0
        for (a, b) in zip(samples, samples.dropFirst()) where (a - 1) * (b - 1) < 0 { crossings += 1 }
        #expect(crossings == 7)
        #expect(abs(Transition.easeOutElastic.value(at: 0.95) - 1) < 0.002)
    }

    @Test func bounceStaysWithinZeroToOneAndTouchesOneAtEachLanding() {
        for i in 0...1000 {
            let v = Transition.easeOutBounce.value(at: Double(i) / 1000)
            #expect(v >= 0 && v <= 1 + 1e-12)
        }
        for landing in [1 / 2.75, 2 / 2.75, 2.5 / 2.75] {
            #expect(abs(Transition.easeOutBounce.value(at: landing) - 1) < 1e-12)
        }
    }

    @Test func randomIsSplitMix64sFirstOutputModuloSeventeen() {
        // SplitMix64 seeded with 0 first returns 0xE220A8397B1DCDAF (the generator's reference output).
        let expected = Transition.all[Int(0xE220_A839_7B1D_CDAF as UInt64 % 17)]
        #expect(Transition.random(seed: 0).resolved == expected)
        #expect(Transition.random(seed: 0).name == "random")
    }

    @Test func randomIsDeterministicReachesEveryTransitionAndFollowsItsChoice() {
        var seen = Set<String>()
        for seed in UInt64(0)..<500 {
            let random = Transition.random(seed: seed)
            let chosen = random.resolved
            #expect(chosen == Transition.random(seed: seed).resolved)
            #expect(Transition.all.contains(chosen))
            seen.insert(chosen.name)
            for t in [0.0, 0.3, 0.5, 0.8, 1.0] {
                #expect(random.value(at: t) == chosen.value(at: t))
            }
        }
        #expect(seen.count == 17)
        #expect(Transition.linear.resolved == .linear)
    }
}
