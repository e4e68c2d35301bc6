import Testing
import Stage
import Physics2D

/// Counts its advances; optionally runs an action on each.
final class Counter: Animatable {
    var advances: [Double] = []
    var action: (() -> Void)?
    var finishAfter: Int?
    override func advance(time: Double) {
        advances.append(time)
        action?()
    }
    override var isComplete: Bool { finishAfter.map { advances.count >= $0 } ?? false }
}

@Suite struct JugglerTests {
    @Test func addIsIdempotentAndRemoveAndContainsWork() {
        let juggler = Juggler()
        let a = Counter(), b = Counter()
        juggler.add(a)
        juggler.add(a)
        juggler.add(b)
        #expect(juggler.count == 2 && juggler.contains(a) && juggler.contains(b))
        juggler.advance(time: 0.1)
        #expect(a.advances == [0.1] && b.advances == [0.1])
        juggler.remove(a)
        #expect(juggler.count == 1 && !juggler.contains(a))
        juggler.advance(time: 0.2)
        #expect(a.advances == [0.1] && b.advances == [0.1, 0.2])
        juggler.removeAll()
        #expect(juggler.isEmpty)
        #expect(juggler.elapsedTime == 0.1 + 0.2)
    }

    @Test func pausedJugglerIgnoresAdvanceAndResumesWhereItWas() {
        let juggler = Juggler()
        let gauge = Gauge()
        let tween = Tween(target: gauge, time: 1)
        tween.animate(Gauge.value, to: 1)
        juggler.add(tween)
        juggler.advance(time: 0.25)
        juggler.isPaused = true
        juggler.advance(time: 0.5)
        #expect(gauge.value == 0.25 && juggler.elapsedTime == 0.25)
        juggler.isPaused = false
        juggler.advance(time: 0.5)
        #expect(gauge.value == 0.75 && juggler.elapsedTime == 0.75)
    }

    @Test func aPausedChildJugglerFreezesOnlyItsOwnAnimations() {
        // CarWorld: each car has its own juggler, advanced by the stage's; stopping a car pauses it.
        let stageJuggler = Juggler()
        let carA = Juggler(), carB = Juggler()
        stageJuggler.add(carA)
        stageJuggler.add(carB)
        let a = Gauge(), b = Gauge()
        for (car, gauge) in [(carA, a), (carB, b)] {
            let tween = Tween(target: gauge, time: 10)
            tween.animate(Gauge.value, to: 10)
            car.add(tween)
        }
        stageJuggler.advance(time: 1)
        carA.isPaused = true
        stageJuggler.advance(time: 2)
        #expect(a.value == 1 && b.value == 3)
        carA.isPaused = false
        stageJuggler.advance(time: 1)
        #expect(a.value == 2 && b.value == 4)
        #expect(stageJuggler.count == 2)          // jugglers never complete
    }

    @Test func speedScalesTheTimeGiven() {
        let juggler = Juggler()
        let counter = Counter()
        juggler.add(counter)
        juggler.speed = 0.5
        juggler.advance(time: 1)
        #expect(counter.advances == [0.5] && juggler.elapsedTime == 0.5)
        juggler.speed = -3
        #expect(juggler.speed == 0)
    }

    @Test func objectsAddedDuringAnAdvanceStartOnTheNextOne() {
        let juggler = Juggler()
        let late = Counter()
        let adder = Counter()
        adder.action = { juggler.add(late) }
        juggler.add(adder)
        juggler.advance(time: 0.1)
        #expect(late.advances.isEmpty && juggler.contains(late))
        juggler.advance(time: 0.2)
        #expect(late.advances == [0.2])
    }

    @Test func objectsRemovedDuringAnAdvanceAreNotAdvancedAgain() {
        let juggler = Juggler()
        let first = Counter(), second = Counter(), third = Counter()
        first.action = { juggler.remove(second); juggler.remove(first) }
        for counter in [first, second, third] { juggler.add(counter) }
        juggler.advance(time: 0.1)
        #expect(first.advances == [0.1] && second.advances.isEmpty && third.advances == [0.1])
        #expect(juggler.count == 1 && juggler.contains(third))
        juggler.advance(time: 0.1)
        #expect(first.advances.count == 1 && third.advances.count == 2)
    }

    @Test func removeAllDuringAnAdvanceStopsTheRest() {
        let juggler = Juggler()
        let first = Counter(), second = Counter()
        first.action = { juggler.removeAll() }
        juggler.add(first)
        juggler.add(second)
        juggler.advance(time: 0.1)
        #expect(second.advances.isEmpty && juggler.isEmpty)
    }

    @Test func completeObjectsAreDroppedAfterTheirLastAdvance() {
        let juggler = Juggler()
        let counter = Counter()
        counter.finishAfter = 2
        juggler.add(counter)
        juggler.advance(time: 0.1)
        #expect(juggler.contains(counter))
        juggler.advance(time: 0.1)
        #expect(!juggler.contains(counter))
    }

    @Test func removeAllWithTargetRemovesOnlyThatTargetsTweensAndCalls() {
        let juggler = Juggler()
        let a = Gauge(), b = Gauge()
        let ta = Tween(target: a, time: 1), tb = Tween(target: b, time: 1)
        ta.animate(Gauge.value, to: 1)
        tb.animate(Gauge.value, to: 1)
        let call = DelayedCall(after: 0.5, target: a) {}
        juggler.add(ta)
        juggler.add(tb)
        juggler.add(call)
        #expect(juggler.containsObjects(with: a))
        juggler.removeAll(with: a)
        #expect(!juggler.contains(ta) && !juggler.contains(call) && juggler.contains(tb))
        #expect(!juggler.containsObjects(with: a) && juggler.containsObjects(with: b))
    }

    @Test func delayedCallFiresOnceAtItsTime() {
        let juggler = Juggler()
        var fired: [Double] = []
        juggler.delayedCall(after: 1) { fired.append(juggler.elapsedTime) }
        for _ in 0..<3 { juggler.advance(time: 0.3) }
        #expect(fired.isEmpty)
        juggler.advance(time: 0.3)
        #expect(fired.count == 1)
        for _ in 0..<10 { juggler.advance(time: 0.3) }
        #expect(fired.count == 1 && juggler.isEmpty)
    }

    @Test func removingADelayedCallCancelsIt() {
        let juggler = Juggler()
        var fired = false
        let call = juggler.delayedCall(after: 0.5) { fired = true }
        juggler.advance(time: 0.25)
        juggler.remove(call)
        juggler.advance(time: 1)
        #expect(!fired && call.callCount == 0)
    }

    @Test func repeatingDelayedCallRunsEveryDelayEvenWithinOneAdvance() {
        var count = 0
        let counted = DelayedCall(after: 0.5) { count += 1 }
        counted.repeatCount = 3
        counted.advance(time: 1.2)
        #expect(count == 2 && abs(counted.currentTime - 0.2) < 1e-12)
        counted.advance(time: 0.29)
        #expect(count == 2)
        counted.advance(time: 0.02)
        #expect(count == 3 && counted.isComplete)
        counted.advance(time: 5)
        #expect(count == 3)
    }

    @Test func aDelayedCallCanAddAnotherToItsJuggler() {
        let juggler = Juggler()
        var order: [String] = []
        juggler.delayedCall(after: 0.1) {
            order.append("first")
            juggler.delayedCall(after: 0.1) { order.append("second") }
        }
        juggler.advance(time: 0.1)
        #expect(order == ["first"])
        juggler.advance(time: 0.1)
        #expect(order == ["first", "second"] && juggler.isEmpty)
    }

    @Test func pausingAJugglerPausesItsDelayedCalls() {
        let juggler = Juggler()
        var fired = false
        juggler.delayedCall(after: 1) { fired = true }
        juggler.isPaused = true
        juggler.advance(time: 5)
        #expect(!fired)
        juggler.isPaused = false
        juggler.advance(time: 1)
        #expect(fired)
    }
}

/// A display object with its own juggler, as CarWorld's cars.
final class JugglingCar: DisplayObject {
    let juggler = Juggler()
}

/// Tweens hold their targets strongly (the modules have no `weak`), so a car that owns the
/// juggler running its own tween is in a cycle car → juggler → tween → car until the tween
/// leaves the juggler: on completion, or by `removeAll()` when the game throws the car away.
@Suite struct JugglerMemoryTests {
    @Test func aCarIsFreedOnceItsPathTweenHasEnded() {
        weak var weakCar: JugglingCar?
        let stageJuggler = Juggler()
        do {
            let car = JugglingCar()
            weakCar = car
            car.juggler.add(PathTween(target: car, path: .line(from: Vec2(0, 0), to: Vec2(100, 0)), speed: 100))
            stageJuggler.add(car.juggler)
        }
        for _ in 0..<30 { stageJuggler.advance(time: 1.0 / 60) }
        #expect(weakCar != nil)                   // still driving: the tween holds it
        for _ in 0..<40 { stageJuggler.advance(time: 1.0 / 60) }
        #expect(weakCar == nil)                   // arrived: the tween left the juggler
    }

    @Test func aCarThrownAwayMidWayIsFreedByEmptyingItsJuggler() {
        weak var weakCar: JugglingCar?
        weak var weakTween: PathTween<JugglingCar>?
        do {
            let car = JugglingCar()
            weakCar = car
            let tween = PathTween(target: car, path: .line(from: Vec2(0, 0), to: Vec2(100, 0)), speed: 10)
            tween.onComplete = { car.visible = false }      // a closure holding the car too
            weakTween = tween
            car.juggler.add(tween)
            car.juggler.advance(time: 1)
            car.juggler.removeAll()
        }
        #expect(weakCar == nil && weakTween == nil)
    }
}

@Suite struct StageJugglerTests {
    @Test func theStagesJugglerAdvancesTweensAndCarJugglersEachFrame() {
        let stage = Stage(width: 1024, height: 768)
        let car = JugglingCar()
        stage.addChild(car)
        car.juggler.add(PathTween(target: car, path: .line(from: Vec2(0, 100), to: Vec2(600, 100)), speed: 60))
        stage.juggler.add(car.juggler)
        let fade = Tween(target: car, time: 1)
        fade.animate(.alpha, to: 0.5)
        stage.juggler.add(fade)
        for _ in 0..<60 { stage.advance(time: 1.0 / 60) }
        #expect(abs(car.x - 60) < 1e-9 && car.y == 100 && car.alpha == 0.5)
        car.juggler.isPaused = true                  // the child taps the car
        for _ in 0..<60 { stage.advance(time: 1.0 / 60) }
        #expect(abs(car.x - 60) < 1e-9)
    }
}
