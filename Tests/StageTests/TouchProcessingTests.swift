import Testing
@testable import Stage

/// Touch phases, targets kept for a touch's life, stationary fingers, bubbling touch events, buttons.
@Suite struct TouchProcessingTests {
    /// A stage with two quads side by side: left (0,0)–(100,100), right (100,0)–(200,100).
    func scene() -> (Stage, Quad, Quad) {
        let stage = Stage(width: 300, height: 200)
        let left = Quad(width: 100, height: 100); left.name = "left"
        let right = Quad(width: 100, height: 100); right.x = 100; right.name = "right"
        stage.addChild(left); stage.addChild(right)
        return (stage, left, right)
    }

    struct Seen: Equatable { let receiver: String; let id: Int32; let phase: TouchPhase; let target: String? }

    /// Records, per dispatched event, every touch it lists.
    func record(_ o: DisplayObject, as name: String, into log: Box<[Seen]>) {
        o.addEventListener(EventType.touch, as: TouchEvent.self) { e in
            for t in e.touches {
                log.value.append(Seen(receiver: name, id: t.id, phase: t.phase, target: t.target?.name))
            }
        }
    }

    @Test func aTouchKeepsItsTargetAndBubbles() {
        let (stage, left, _) = scene()
        let log = Box<[Seen]>([])
        record(left, as: "left", into: log)
        record(stage, as: "stage", into: log)
        stage.queueTouch(id: 7, phase: .began, x: 10, y: 10)
        stage.advance(time: 1.0 / 60)
        #expect(log.value == [Seen(receiver: "left", id: 7, phase: .began, target: "left"),
                              Seen(receiver: "stage", id: 7, phase: .began, target: "left")])
        log.value.removeAll()
        // Moving over the right quad: still the left quad's touch.
        stage.queueTouch(id: 7, phase: .moved, x: 150, y: 20)
        stage.advance(time: 1.0 / 60)
        #expect(log.value == [Seen(receiver: "left", id: 7, phase: .moved, target: "left"),
                              Seen(receiver: "stage", id: 7, phase: .moved, target: "left")])
        let t = stage.touchProcessor.currentTouches[0]
        #expect(t.globalX == 150 && t.globalY == 20 && t.previousGlobalX == 10 && t.previousGlobalY == 10)
        #expect(t.location(in: left) == Point(150, 20))
        log.value.removeAll()
        stage.queueTouch(id: 7, phase: .ended, x: 160, y: 30)
        stage.advance(time: 1.0 / 60)
        #expect(log.value.map(\.phase) == [.ended, .ended])
        #expect(t.previousGlobalX == 150 && t.globalX == 160)
        #expect(stage.touchProcessor.currentTouches.isEmpty)
        // A frame without inputs dispatches nothing.
        log.value.removeAll()
        stage.advance(time: 1.0 / 60)
        #expect(log.value.isEmpty)
    }

    @Test func otherFingersAreStationaryWhenOneMoves() {
        let (stage, left, right) = scene()
        let log = Box<[Seen]>([])
        record(left, as: "left", into: log)
        record(right, as: "right", into: log)
        stage.queueTouch(id: 1, phase: .began, x: 50, y: 50)
        stage.advance(time: 0.016)
        log.value.removeAll()
        stage.queueTouch(id: 2, phase: .began, x: 150, y: 50)
        stage.advance(time: 0.016)
        // One event lists both touches; each target gets it once.
        let frame2 = [Seen(receiver: "left", id: 1, phase: .stationary, target: "left"),
                      Seen(receiver: "left", id: 2, phase: .began, target: "right"),
                      Seen(receiver: "right", id: 1, phase: .stationary, target: "left"),
                      Seen(receiver: "right", id: 2, phase: .began, target: "right")]
        #expect(log.value == frame2)
        log.value.removeAll()
        var leftOnly: [TouchPhase] = []
        let probe = left.addEventListener(EventType.touch, as: TouchEvent.self) { e in
            leftOnly = e.touches(with: left).map(\.phase)
            #expect(e.touch(with: right, phase: .moved)?.id == 2)
            #expect(e.touch(with: right, phase: .began) == nil)
        }
        stage.queueTouch(id: 2, phase: .moved, x: 160, y: 60)
        stage.advance(time: 0.016)
        #expect(leftOnly == [.stationary])
        left.removeEventListener(probe)
        #expect(log.value.filter { $0.receiver == "right" }.map(\.phase) == [.stationary, .moved])
        // Finger 1 lifts while finger 2 rests.
        log.value.removeAll()
        stage.queueTouch(id: 1, phase: .ended, x: 50, y: 50)
        stage.advance(time: 0.016)
        #expect(log.value.filter { $0.receiver == "left" } == [
            Seen(receiver: "left", id: 1, phase: .ended, target: "left"),
            Seen(receiver: "left", id: 2, phase: .stationary, target: "right")])
        #expect(stage.touchProcessor.currentTouches.map(\.id) == [2])
    }

    @Test func beganAndEndedInOneFrameAreTwoDispatches() {
        let (stage, left, _) = scene()
        var phases: [TouchPhase] = []
        left.addEventListener(EventType.touch, as: TouchEvent.self) { e in phases += e.touches(with: left).map(\.phase) }
        stage.queueTouch(id: 3, phase: .began, x: 5, y: 5)
        stage.queueTouch(id: 3, phase: .ended, x: 5, y: 5)
        stage.advance(time: 0.016)
        #expect(phases == [.began, .ended])
        // Inputs for an id that never began are ignored.
        stage.queueTouch(id: 9, phase: .moved, x: 5, y: 5)
        stage.advance(time: 0.016)
        #expect(phases == [.began, .ended] && stage.touchProcessor.currentTouches.isEmpty)
    }

    @Test func untouchableObjectsAreNotTargets() {
        let (stage, left, _) = scene()
        left.touchable = false
        var target: DisplayObject? = nil
        stage.addEventListener(EventType.touch, as: TouchEvent.self) { e in target = e.touches[0].target }
        stage.queueTouch(id: 0, phase: .began, x: 10, y: 10)
        stage.advance(time: 0.016)
        #expect(target === stage)
    }

    @Test func tapCountCountsQuickTapsInOnePlace() {
        let (stage, left, _) = scene()
        var counts: [Int] = []
        left.addEventListener(EventType.touch, as: TouchEvent.self) { e in
            if let t = e.touch(with: left, phase: .began) { counts.append(t.tapCount) }
        }
        for (x, wait) in [(10.0, 0.1), (12.0, 0.1), (14.0, 1.0), (15.0, 0.1), (90.0, 0.1)] {
            stage.queueTouch(id: 0, phase: .began, x: x, y: 10)
            stage.advance(time: 0.05)
            stage.queueTouch(id: 0, phase: .ended, x: x, y: 10)
            stage.advance(time: 0.05)
            stage.advance(time: wait)
        }
        // Each tap begins `wait` + 0.05 s after the previous one ended: the 2nd and 3rd 0.15 s
        // after, near; the 4th 1.05 s after; the 5th quickly but 75 points away.
        #expect(counts == [1, 2, 3, 1, 1])
    }

    let up = TextureRegion(atlas: 1, region: 2, width: 80, height: 40)
    let down = TextureRegion(atlas: 1, region: 3, width: 80, height: 40)

    func tap(_ stage: Stage, _ points: [(TouchPhase, Double, Double)]) {
        for (phase, x, y) in points {
            stage.queueTouch(id: 0, phase: phase, x: x, y: y)
            stage.advance(time: 0.016)
        }
    }

    @Test func buttonTriggersOnATouchEndedOnIt() {
        let stage = Stage(width: 400, height: 300)
        let button = Button(upState: up, downState: down, text: "Go")
        button.x = 100; button.y = 100
        stage.addChild(button)
        var triggered = 0
        stage.addEventListener(EventType.triggered) { e in
            #expect(e.target === button)
            triggered += 1
        }
        tap(stage, [(.began, 120, 110)])
        #expect(button.isDown && button.image.texture == down)
        tap(stage, [(.ended, 125, 112)])
        #expect(triggered == 1 && !button.isDown && button.image.texture == up)
        // Dragged far away: released without triggering, even if it comes back to end.
        tap(stage, [(.began, 120, 110), (.moved, 300, 110), (.ended, 300, 110)])
        #expect(triggered == 1 && !button.isDown)
        // Wandering within maxDragDistance still counts.
        tap(stage, [(.began, 120, 110), (.moved, 200, 110), (.ended, 210, 110)])
        #expect(triggered == 2)
        #expect(button.textField?.text == "Go")
        button.isEnabled = false
        tap(stage, [(.began, 120, 110), (.ended, 120, 110)])
        #expect(triggered == 2)
    }

    @Test func buttonWithoutDownStateShrinksAboutItsCentre() {
        let stage = Stage(width: 400, height: 300)
        let button = Button(upState: up)
        stage.addChild(button)
        tap(stage, [(.began, 40, 20)])
        #expect(button.contents.scaleX == 0.9 && button.contents.scaleY == 0.9)
        let b = button.contents.bounds
        #expect(abs(b.x - 4) < 1e-9 && abs(b.y - 2) < 1e-9 && abs(b.width - 72) < 1e-9 && abs(b.height - 36) < 1e-9)
        tap(stage, [(.ended, 40, 20)])
        #expect(button.contents.scaleX == 1 && button.contents.x == 0)
    }
}

/// A mutable box the listeners can share.
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}
