// Touches (Sparrow's SPTouch, SPTouchEvent, SPTouchProcessor). The host queues raw inputs (id,
// phase, stage position: docs/playground.md, `pg_input` kind 1); at the start of the next frame
// the stage's touch processor applies them: a touch that begins is hit-tested once and keeps
// that target for its whole life, the other fingers of a multi-touch become `stationary` when
// one changes, and each target receives a bubbling `TouchEvent` listing the current touches.

/// A touch's phase (the numbers are `pg_input`'s).
public enum TouchPhase: Int32, Sendable {
    case began = 0
    case moved = 1
    case stationary = 2
    case ended = 3
    case cancelled = 4
}

/// One finger (or the mouse) from its `began` to its `ended`/`cancelled`.
public final class Touch {
    /// The host's id for the touch.
    public let id: Int32
    public internal(set) var phase: TouchPhase
    /// Position in stage points.
    public internal(set) var globalX: Double
    public internal(set) var globalY: Double
    /// Position at the previous change (equal to the position at `began`).
    public internal(set) var previousGlobalX: Double
    public internal(set) var previousGlobalY: Double
    /// 1 for a single tap, 2 when it began close (in time and place) to the previous tap's end, …
    public internal(set) var tapCount: Int
    /// Seconds of stage time when the touch last changed.
    public internal(set) var timestamp: Double
    /// The object hit when the touch began (nil if nothing was; then no event is dispatched for it).
    public internal(set) var target: DisplayObject?

    init(id: Int32, x: Double, y: Double, time: Double, tapCount: Int, target: DisplayObject?) {
        self.id = id; phase = .began
        globalX = x; globalY = y; previousGlobalX = x; previousGlobalY = y
        self.tapCount = tapCount; timestamp = time; self.target = target
    }

    /// The position in `space`'s coordinates.
    public func location(in space: DisplayObject) -> Point { space.globalToLocal(Point(globalX, globalY)) }
    /// The previous position in `space`'s coordinates.
    public func previousLocation(in space: DisplayObject) -> Point {
        space.globalToLocal(Point(previousGlobalX, previousGlobalY))
    }
    /// The position change since the previous one, in `space`'s coordinates.
    public func movement(in space: DisplayObject) -> Point { location(in: space) - previousLocation(in: space) }
}

/// The event touched objects receive (type `EventType.touch`, bubbles): every touch current in
/// this batch, including other fingers' stationary ones.
public final class TouchEvent: Event {
    public let touches: [Touch]

    init(touches: [Touch]) {
        self.touches = touches
        super.init(type: EventType.touch, bubbles: true)
    }

    /// The touches whose target is `object` or one of its descendants, optionally in one phase.
    public func touches(with object: DisplayObject, phase: TouchPhase? = nil) -> [Touch] {
        touches.filter { t in
            guard let target = t.target, target.isSelfOrDescendant(of: object) else { return false }
            return phase == nil || t.phase == phase!
        }
    }

    /// The first of `touches(with:phase:)`, or nil.
    public func touch(with object: DisplayObject, phase: TouchPhase? = nil) -> Touch? {
        touches.first { t in
            guard let target = t.target, target.isSelfOrDescendant(of: object) else { return false }
            return phase == nil || t.phase == phase!
        }
    }
}

/// Turns queued raw inputs into touches and touch events (the stage owns one).
public final class TouchProcessor {
    struct Input { let id: Int32; let phase: TouchPhase; let x: Double; let y: Double }

    var queue: [Input] = []
    /// The touches that have begun and not yet ended, in the order they began.
    public private(set) var currentTouches: [Touch] = []
    /// Stage time (seconds), advanced by the stage.
    var time = 0.0
    var lastTapEnd: (time: Double, x: Double, y: Double, count: Int)? = nil

    /// Longest pause (s) and distance (points) between one tap's end and the next's start for
    /// them to count as a multi-tap.
    public var multiTapTime = 0.3
    public var multiTapDistance = 25.0

    public init() {}

    /// Queues an input for the next `process`.
    public func enqueue(id: Int32, phase: TouchPhase, x: Double, y: Double) {
        queue.append(Input(id: id, phase: phase, x: x, y: y))
    }

    /// Applies the queued inputs in order, in batches (a batch ends before an id repeats, so a
    /// touch that begins and ends in one frame dispatches both phases), hit-testing on `stage`.
    func process(on stage: Stage) {
        if queue.isEmpty { return }
        let inputs = queue
        queue.removeAll(keepingCapacity: true)
        var start = 0
        while start < inputs.count {
            var end = start + 1
            while end < inputs.count && !inputs[start..<end].contains(where: { $0.id == inputs[end].id }) { end += 1 }
            processBatch(inputs[start..<end], on: stage)
            start = end
        }
    }

    func processBatch(_ batch: ArraySlice<Input>, on stage: Stage) {
        // Fingers not in this batch rest.
        for t in currentTouches where !batch.contains(where: { $0.id == t.id }) {
            t.phase = .stationary
        }
        for input in batch {
            if let t = currentTouches.first(where: { $0.id == input.id }) {
                if input.phase == .began {
                    // A second `began` for a live id: the old touch is cancelled, a new one starts.
                    t.phase = .cancelled
                    beginTouch(input, on: stage)
                } else {
                    t.previousGlobalX = t.globalX; t.previousGlobalY = t.globalY
                    t.globalX = input.x; t.globalY = input.y
                    t.phase = input.phase
                    t.timestamp = time
                }
            } else if input.phase == .began {
                beginTouch(input, on: stage)
            }
            // Other phases of an unknown id (no `began` seen) are ignored.
        }
        let touches = currentTouches
        let event = TouchEvent(touches: touches)
        var dispatched: [DisplayObject] = []
        for t in touches {
            guard let target = t.target, !dispatched.contains(where: { $0 === target }) else { continue }
            dispatched.append(target)
            target.dispatchEvent(event)
        }
        for t in touches where t.phase == .ended {
            lastTapEnd = (time, t.globalX, t.globalY, t.tapCount)
        }
        currentTouches.removeAll { $0.phase == .ended || $0.phase == .cancelled }
    }

    func beginTouch(_ input: Input, on stage: Stage) {
        var taps = 1
        if let last = lastTapEnd, time - last.time <= multiTapTime {
            let dx = input.x - last.x, dy = input.y - last.y
            if (dx * dx + dy * dy).squareRoot() <= multiTapDistance { taps = last.count + 1 }
        }
        let target = stage.hitTest(stage.globalToLocal(Point(input.x, input.y)))
        currentTouches.append(Touch(id: input.id, x: input.x, y: input.y, time: time, tapCount: taps, target: target))
    }
}
