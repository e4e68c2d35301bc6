// Tween: animates numeric properties of an object over time (Sparrow's SPTween).
//
// Embedded Swift refuses key paths, so a property is a pair of accessors (`TweenProperty`):
// a getter and a setter that take the target. `TweenDisplayObject.swift` has the ready-made
// ones for display objects (x, y, scale, rotation, alpha, pivot…); any other property gets a
// pair of closures.

/// A numeric property of a `Target`: how to read it and how to write it.
public struct TweenProperty<Target: AnyObject> {
    public let get: (Target) -> Double
    public let set: (Target, Double) -> Void

    public init(get: @escaping (Target) -> Double, set: @escaping (Target, Double) -> Void) {
        self.get = get
        self.set = set
    }
}

/// Animates one or more numeric properties of `target` from their values when the tween
/// starts to the values given to `animate(_:to:)`, over `totalTime` seconds, through a
/// `Transition`. Add it to a `Juggler`, which advances it and drops it when complete.
///
/// Timeline: the tween waits `delay` seconds, then starts: `onStart` runs, each property's
/// start value is read (once, at this moment, as Sparrow does; not when `animate` is called),
/// and every advance sets the properties and runs `onUpdate`. When a cycle ends, the tween
/// either repeats (`repeatCount` 0 = forever, or n > 1 cycles in all): waits `repeatDelay`,
/// runs `onRepeat`, and plays again — backwards on every second cycle if `reverse` is set
/// (ping-pong) — or completes: `onComplete` runs and `isComplete` turns true. At a cycle's end
/// the callbacks run in the order onUpdate, then onRepeat or onComplete. An advance longer than
/// what is left of a cycle carries the remainder into the next one (no time is lost).
public class Tween<Target: AnyObject>: Animatable {
    struct Animated {
        let property: TweenProperty<Target>
        let end: Double
        var start: Double
    }

    /// The animated object.
    public let target: Target
    /// The length of one cycle, in seconds (at least 0.0001 s).
    public let totalTime: Double
    /// The easing curve applied to each cycle.
    public var transition: Transition
    /// Cycles to play; 0 = forever. Default 1.
    public var repeatCount: Int = 1
    /// Plays every second cycle backwards (ping-pong). Needs `repeatCount` ≠ 1 to matter.
    public var reverse = false
    /// The wait between two cycles, in seconds.
    public var repeatDelay: Double = 0

    /// Runs when the delay is over, before the first update.
    public var onStart: (() -> Void)?
    /// Runs after every advance that changed the properties.
    public var onUpdate: (() -> Void)?
    /// Runs when a cycle ends and another follows (before the repeat delay).
    public var onRepeat: (() -> Void)?
    /// Runs once, when the last cycle ends.
    public var onComplete: (() -> Void)?

    var animated: [Animated] = []
    /// Time within the current cycle; negative while waiting for the delay or the repeat delay.
    private var time: Double
    private var cycle = -1
    private var started = false
    private var finished = false
    private var lastProgress: Double = 0
    private var reversedCycle = false

    /// A tween of `target` lasting `time` seconds per cycle.
    public init(target: Target, time: Double, transition: Transition = .linear) {
        self.target = target
        self.totalTime = time > 0.0001 ? time : 0.0001
        self.transition = transition
        self.time = 0
        super.init()
    }

    /// The wait before the tween starts, in seconds. Setting it before the start moves the start.
    public var delay: Double = 0 {
        didSet {
            if delay < 0 { delay = 0 }
            if !started { time = -delay }
        }
    }

    /// Animates `property` to `end`. Its start value is read when the tween starts.
    public func animate(_ property: TweenProperty<Target>, to end: Double) {
        animated.append(Animated(property: property, end: end, start: 0))
    }

    /// Animates the property read by `get` and written by `set` to `end`.
    public func animate(get: @escaping (Target) -> Double, set: @escaping (Target, Double) -> Void,
                        to end: Double) {
        animate(TweenProperty(get: get, set: set), to: end)
    }

    /// The end value given for the `index`-th animated property (in `animate` order).
    public func endValue(_ index: Int) -> Double { animated[index].end }

    /// The time into the current cycle, 0…totalTime (0 while waiting).
    public var currentTime: Double { time > 0 ? time : 0 }

    /// `currentTime / totalTime`: how far the current cycle is, 0…1, before easing and reversal.
    public var ratio: Double { currentTime / totalTime }

    /// The progress last applied: the transition's value at the ratio (reversed cycles count
    /// from 1 down to 0). 0 before the start.
    public var progress: Double { lastProgress }

    /// The current cycle, counting from 0; -1 before the start.
    public var currentCycle: Int { cycle }

    /// True while the current cycle plays backwards (every second cycle with `reverse`).
    public var isReversedCycle: Bool { reversedCycle }

    /// True once the delay is over.
    public var isStarted: Bool { started }

    public override var isComplete: Bool { finished }

    public override var animationTarget: AnyObject? { target }

    public override func advance(time passed: Double) {
        guard passed > 0, !finished else { return }
        var rest = passed
        while rest > 0 && !finished {
            let previous = time
            let left = totalTime - time
            let carry = rest > left ? rest - left : 0
            time = rest > left ? totalTime : time + rest
            rest = carry
            if time <= 0 { return }   // still waiting (nothing carries over while waiting)

            if !started {
                started = true
                cycle = 0
                onStart?()
                for index in animated.indices {
                    animated[index].start = animated[index].property.get(target)
                }
            }
            reversedCycle = reverse && cycle % 2 == 1
            let r = time / totalTime
            lastProgress = transition.value(at: reversedCycle ? 1 - r : r)
            apply(progress: lastProgress)
            onUpdate?()

            if previous < totalTime && time >= totalTime {
                if repeatCount <= 0 || cycle + 1 < repeatCount {
                    cycle += 1
                    time = -repeatDelay
                    onRepeat?()
                } else {
                    finished = true
                    onComplete?()
                }
            }
        }
    }

    /// Sets every animated property for `progress` (0 = start value, 1 = end value).
    /// Subclasses (PathTween) add their own motion.
    func apply(progress: Double) {
        for item in animated {
            item.property.set(target, item.start + (item.end - item.start) * progress)
        }
    }
}
