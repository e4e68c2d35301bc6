import Testing
@testable import Stage

final class ScoreEvent: Event {
    let points: Int
    init(points: Int) { self.points = points; super.init(type: "score", bubbles: true) }
}

/// Listeners, bubbling, propagation stops, removal, custom events and enter-frame.
@Suite struct EventDispatchTests {
    func chain() -> (Stage, Sprite, Sprite, Quad) {
        let stage = Stage(width: 10, height: 10)
        let a = Sprite(); a.name = "a"
        let b = Sprite(); b.name = "b"
        let c = Quad(width: 1, height: 1); c.name = "c"
        stage.addChild(a); a.addChild(b); b.addChild(c)
        return (stage, a, b, c)
    }

    @Test func bubblingVisitsTargetThenEveryAncestorInOrder() {
        let (stage, a, b, c) = chain()
        var log: [String] = []
        var expectedTarget: DisplayObject = c
        for (o, n) in [(c as DisplayObject, "c"), (b, "b"), (a, "a"), (stage, "stage")] {
            o.addEventListener("ping") { e in
                #expect(e.target === expectedTarget)
                #expect(e.currentTarget === o)
                log.append(n)
            }
        }
        c.dispatchEvent(Event(type: "ping", bubbles: true))
        #expect(log == ["c", "b", "a", "stage"])
        log.removeAll()
        c.dispatchEvent(Event(type: "ping", bubbles: false))
        #expect(log == ["c"])
        log.removeAll()
        expectedTarget = b
        b.dispatchEvent(type: "ping", bubbles: true)   // target b: c is not visited
        #expect(log == ["b", "a", "stage"])
        expectedTarget = c
        // Other types are not delivered.
        log.removeAll()
        c.dispatchEvent(Event(type: "pong", bubbles: true))
        #expect(log.isEmpty)
    }

    @Test func stopPropagationAndStopImmediatePropagation() {
        let (stage, a, b, c) = chain()
        var log: [String] = []
        c.addEventListener("ping") { _ in log.append("c") }
        b.addEventListener("ping") { e in log.append("b1"); e.stopPropagation() }
        b.addEventListener("ping") { _ in log.append("b2") }
        a.addEventListener("ping") { _ in log.append("a") }
        stage.addEventListener("ping") { _ in log.append("stage") }
        c.dispatchEvent(Event(type: "ping", bubbles: true))
        #expect(log == ["c", "b1", "b2"])

        let (_, _, b2, c2) = chain()
        log.removeAll()
        b2.addEventListener("ping") { e in log.append("b1"); e.stopImmediatePropagation() }
        b2.addEventListener("ping") { _ in log.append("b2") }
        c2.dispatchEvent(Event(type: "ping", bubbles: true))
        #expect(log == ["b1"])
    }

    @Test func listenersAreRemovedByToken() {
        let d = Sprite()
        var calls: [String] = []
        let t1 = d.addEventListener("x") { _ in calls.append("one") }
        d.addEventListener("x") { _ in calls.append("two") }
        d.dispatchEvent(type: "x")
        #expect(calls == ["one", "two"])
        #expect(d.removeEventListener(t1))
        #expect(!d.removeEventListener(t1))
        calls.removeAll()
        d.dispatchEvent(type: "x")
        #expect(calls == ["two"])
        // A listener that removes itself runs once.
        var token: ListenerToken? = nil
        var selfRemoving = 0
        token = d.addEventListener("y") { _ in selfRemoving += 1; d.removeEventListener(token!) }
        d.dispatchEvent(type: "y"); d.dispatchEvent(type: "y")
        #expect(selfRemoving == 1)
        #expect(d.hasEventListener("x") && !d.hasEventListener("y"))
        d.removeEventListeners("x")
        #expect(!d.hasEventListener("x"))
    }

    @Test func customEventsCarryTheirPayload() {
        let (stage, _, _, c) = chain()
        var got: [Int] = []
        stage.addEventListener("score", as: ScoreEvent.self) { e in got.append(e.points) }
        c.dispatchEvent(ScoreEvent(points: 3))
        c.dispatchEvent(Event(type: "score", bubbles: true, value: 9))   // not a ScoreEvent: skipped by the typed listener
        #expect(got == [3])
        var values: [Int] = []
        stage.addEventListener("score") { e in values.append(e.value) }
        c.dispatchEvent(Event(type: "score", bubbles: true, value: 9))
        #expect(values == [9])
    }

    @Test func enterFrameReachesEveryListeningNodeWithThePassedTime() {
        let (stage, a, _, c) = chain()
        var log: [String] = []
        var times: [Double] = []
        stage.addEventListener(EventType.enterFrame) { _ in log.append("stage") }
        a.addEventListener(EventType.enterFrame, as: EnterFrameEvent.self) { e in log.append("a"); times.append(e.passedTime) }
        let late = Quad(width: 1, height: 1)
        late.addEventListener(EventType.enterFrame) { _ in log.append("late") }
        c.addEventListener(EventType.enterFrame) { _ in
            log.append("c")
            if late.parent == nil { stage.addChild(late) }   // joins during the frame: first event next frame
        }
        stage.advance(time: 0.25)
        #expect(log == ["stage", "a", "c"])
        #expect(times == [0.25])
        log.removeAll()
        stage.advance(time: -1)   // negative time counts as 0
        #expect(log == ["stage", "a", "c", "late"])
        #expect(times == [0.25, 0])
        #expect(stage.elapsedTime == 0.25)
        // A detached node gets nothing.
        log.removeAll()
        a.removeFromParent()
        stage.advance(time: 0.1)
        #expect(log == ["stage", "late"])
    }

    @Test func stageAdvancesItsJuggler() {
        let stage = Stage(width: 10, height: 10)
        var fired = 0.0
        stage.juggler.delayedCall(after: 0.5) { fired = stage.elapsedTime }
        stage.advance(time: 0.25)
        #expect(fired == 0)
        stage.advance(time: 0.25)
        #expect(fired == 0.5)
    }
}
