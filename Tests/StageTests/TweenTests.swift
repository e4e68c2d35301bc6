import Testing
import Stage

/// A plain object with numbers to animate through closures.
final class Gauge {
    var value = 0.0
    var other = 0.0
    static var value: TweenProperty<Gauge> { TweenProperty(get: { $0.value }, set: { $0.value = $1 }) }
    static var other: TweenProperty<Gauge> { TweenProperty(get: { $0.other }, set: { $0.other = $1 }) }
}

@Suite struct TweenTests {
    /// Advances `juggler` `count` times by `step` seconds.
    func run(_ juggler: Juggler, _ count: Int, step: Double) {
        for _ in 0..<count { juggler.advance(time: step) }
    }

    @Test func linearTweenMovesEvenlyAndEndsExactlyOnItsValue() {
        let gauge = Gauge()
        gauge.value = 10
        let tween = Tween(target: gauge, time: 2)
        tween.animate(Gauge.value, to: 20)
        let juggler = Juggler()
        juggler.add(tween)
        juggler.advance(time: 0.5)
        #expect(gauge.value == 12.5)
        #expect(tween.currentTime == 0.5 && tween.ratio == 0.25 && tween.progress == 0.25)
        juggler.advance(time: 1)
        #expect(gauge.value == 17.5)
        #expect(!tween.isComplete && juggler.contains(tween))
        juggler.advance(time: 0.75)   // past the end: clamped
        #expect(gauge.value == 20)
        #expect(tween.isComplete)
        #expect(!juggler.contains(tween) && juggler.isEmpty)
    }

    @Test func severalPropertiesAndATransition() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1, transition: .easeIn)
        tween.animate(Gauge.value, to: 8)
        tween.animate(get: { $0.other }, set: { $0.other = $1 }, to: -16)
        tween.advance(time: 0.5)
        #expect(gauge.value == 8 * 0.125)        // 0.5³ of the way
        #expect(gauge.other == -16 * 0.125)
        #expect(tween.endValue(0) == 8 && tween.endValue(1) == -16)
    }

    @Test func startValuesAreReadWhenTheDelayEndsNotWhenAnimateIsCalled() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1)
        tween.delay = 1
        tween.animate(Gauge.value, to: 100)
        var starts = 0
        tween.onStart = { starts += 1 }
        tween.advance(time: 0.6)
        #expect(gauge.value == 0 && !tween.isStarted && starts == 0 && tween.currentTime == 0)
        gauge.value = 50                          // changed during the delay
        tween.advance(time: 0.6)                  // 0.2 s into the tween
        #expect(tween.isStarted && starts == 1)
        #expect(abs(gauge.value - (50 + 50 * 0.2)) < 1e-9)
        tween.advance(time: 0.8)
        #expect(gauge.value == 100 && starts == 1 && tween.isComplete)
    }

    @Test func delayExactlyElapsedDoesNotStartTheTween() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1)
        tween.delay = 0.5
        tween.animate(Gauge.value, to: 1)
        var updates = 0
        tween.onUpdate = { updates += 1 }
        tween.advance(time: 0.5)
        #expect(updates == 0 && !tween.isStarted)
        tween.advance(time: 0.25)
        #expect(updates == 1 && gauge.value == 0.25)
    }

    @Test func repeatWithReversePlaysPingPongAndCallsBackInOrder() {
        let gauge = Gauge()
        gauge.value = 10
        let tween = Tween(target: gauge, time: 1)
        tween.animate(Gauge.value, to: 20)
        tween.repeatCount = 3
        tween.reverse = true
        tween.delay = 0.5
        var log: [String] = []
        tween.onStart = { log.append("start") }
        tween.onUpdate = { log.append("\(gauge.value)") }
        tween.onRepeat = { log.append("repeat") }
        tween.onComplete = { log.append("complete") }
        let juggler = Juggler()
        juggler.add(tween)
        run(juggler, 16, step: 0.25)
        #expect(log == ["start", "12.5", "15.0", "17.5", "20.0", "repeat",
                        "17.5", "15.0", "12.5", "10.0", "repeat",
                        "12.5", "15.0", "17.5", "20.0", "complete"])
        #expect(tween.currentCycle == 2 && tween.isComplete && juggler.isEmpty)
    }

    @Test func repeatWithoutReverseRestartsFromTheStartValue() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1)
        tween.animate(Gauge.value, to: 4)
        tween.repeatCount = 2
        tween.advance(time: 1)
        #expect(gauge.value == 4 && tween.currentCycle == 1 && !tween.isComplete)
        tween.advance(time: 0.25)
        #expect(gauge.value == 1)
        tween.advance(time: 0.75)
        #expect(gauge.value == 4 && tween.isComplete)
    }

    @Test func repeatDelayHoldsTheValueBetweenCycles() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1)
        tween.animate(Gauge.value, to: 1)
        tween.repeatCount = 2
        tween.repeatDelay = 0.5
        tween.reverse = true
        var repeats = 0
        tween.onRepeat = { repeats += 1 }
        tween.advance(time: 1)
        #expect(gauge.value == 1 && repeats == 1)
        tween.advance(time: 0.4)
        #expect(gauge.value == 1 && tween.currentTime == 0)
        tween.advance(time: 0.35)                 // 0.25 s into the reversed cycle
        #expect(gauge.value == 0.75)
        tween.advance(time: 0.75)
        #expect(gauge.value == 0 && tween.isComplete)
    }

    @Test func oneLongAdvanceCarriesOverThroughEveryCycle() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1)
        tween.animate(Gauge.value, to: 10)
        tween.repeatCount = 3
        tween.reverse = true
        tween.repeatDelay = 0.25
        var log: [String] = []
        tween.onStart = { log.append("start") }
        tween.onRepeat = { log.append("repeat") }
        tween.onComplete = { log.append("complete") }
        tween.advance(time: 3.4)                  // 3 cycles + 2 repeat delays = 3.5 s
        #expect(log == ["start", "repeat", "repeat"])
        #expect(tween.currentCycle == 2 && abs(gauge.value - 9) < 1e-9)
        tween.advance(time: 10)
        #expect(log == ["start", "repeat", "repeat", "complete"] && gauge.value == 10)
    }

    @Test func repeatCountZeroRepeatsForever() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 0.5)
        tween.animate(Gauge.value, to: 1)
        tween.repeatCount = 0
        var repeats = 0
        tween.onRepeat = { repeats += 1 }
        let juggler = Juggler()
        juggler.add(tween)
        run(juggler, 600, step: 0.125)            // 75 s: 150 cycles
        #expect(repeats == 150 && !tween.isComplete && juggler.contains(tween))
    }

    @Test func completedTweenIgnoresFurtherAdvancesAndCompletesOnce() {
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1, transition: .easeOutBounce)
        tween.animate(Gauge.value, to: 3)
        var completions = 0
        tween.onComplete = { completions += 1 }
        tween.advance(time: 5)
        gauge.value = -1
        tween.advance(time: 1)
        #expect(completions == 1 && gauge.value == -1)
    }

    @Test func displayObjectPropertiesByName() {
        let object = DisplayObject()
        object.x = 10
        object.alpha = 1
        let tween = Tween(target: object, time: 1)
        tween.animate(.x, to: 30)
        tween.animate(.y, to: -10)
        tween.animate(.alpha, to: 0)
        tween.animate(.scale, to: 3)
        tween.animate(.rotation, to: 1)
        tween.animate(.pivotX, to: 4)
        tween.advance(time: 0.5)
        #expect(object.x == 20 && object.y == -5 && object.alpha == 0.5)
        #expect(object.scaleX == 2 && object.scaleY == 2 && object.rotation == 0.5 && object.pivotX == 2)
    }
}
