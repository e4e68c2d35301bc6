// Juggler: the clock that advances animations (Sparrow's SPJuggler).
//
// A juggler holds animatable objects (tweens, path tweens, delayed calls, other jugglers) and
// advances them by the time that passed. The stage owns a default juggler; games make more
// (each CarWorld car has its own, paused to stop the car).

/// Anything a juggler can advance: the base class of tweens, path tweens, delayed calls and
/// jugglers themselves (a class rather than a protocol, so a juggler holds them without
/// existentials, which Embedded Swift limits).
open class Animatable {
    public init() {}

    /// Moves the animation on by `time` seconds.
    open func advance(time: Double) {}

    /// True once the animation has nothing left to do; a juggler drops an object as soon as
    /// it reports complete after an `advance`.
    open var isComplete: Bool { false }

    /// The object the animation changes, if any: `Juggler.removeAll(with:)` matches it by identity.
    open var animationTarget: AnyObject? { nil }
}

/// Advances a set of `Animatable` objects.
///
/// - Objects added during `advance(time:)` (by a callback) are advanced from the next call on.
/// - Objects removed during `advance(time:)` are not advanced again, even later in the same
///   call; removal leaves an empty slot that the end of the advance compacts.
/// - A paused juggler ignores `advance(time:)`: its objects and its elapsed time stand still.
/// - A juggler is itself `Animatable`, so one juggler can advance others.
public final class Juggler: Animatable {
    private var objects: [Animatable?] = []
    private var emptySlots = 0
    private var advancing = false

    /// The total time this juggler has advanced (paused time excluded), in seconds.
    public private(set) var elapsedTime: Double = 0

    /// A paused juggler ignores `advance(time:)`.
    public var isPaused = false

    /// Multiplies the time passed to the objects (1 = real time, 0.5 = half speed); never negative.
    public var speed: Double = 1 {
        didSet { if !(speed >= 0) { speed = 0 } }
    }

    public override init() { super.init() }

    /// The number of objects the juggler holds.
    public var count: Int { objects.count - emptySlots }

    /// True when the juggler holds no objects.
    public var isEmpty: Bool { count == 0 }

    /// Adds `object` unless the juggler already holds it. Added during an advance, it is first
    /// advanced by the next call.
    public func add(_ object: Animatable) {
        if object === self || contains(object) { return }
        objects.append(object)
    }

    /// True if the juggler holds `object`.
    public func contains(_ object: Animatable) -> Bool {
        for case let held? in objects where held === object { return true }
        return false
    }

    /// Removes `object` if the juggler holds it (safe during an advance).
    public func remove(_ object: Animatable) {
        for index in objects.indices where objects[index] === object {
            clearSlot(index)
            break
        }
        compactIfIdle()
    }

    /// Removes every object (safe during an advance).
    public func removeAll() {
        for index in objects.indices where objects[index] != nil { clearSlot(index) }
        compactIfIdle()
    }

    /// Removes every object whose `animationTarget` is `target` (by identity): Sparrow's
    /// `removeObjectsWithTarget:`. Safe during an advance.
    public func removeAll(with target: AnyObject) {
        for index in objects.indices {
            if let held = objects[index], let heldTarget = held.animationTarget, heldTarget === target {
                clearSlot(index)
            }
        }
        compactIfIdle()
    }

    /// True if the juggler holds an object whose `animationTarget` is `target`.
    public func containsObjects(with target: AnyObject) -> Bool {
        for case let held? in objects {
            if let heldTarget = held.animationTarget, heldTarget === target { return true }
        }
        return false
    }

    /// Calls `action` once, `delay` seconds of this juggler's time from now. The returned
    /// object can be passed to `remove(_:)` to cancel the call.
    @discardableResult
    public func delayedCall(after delay: Double, _ action: @escaping () -> Void) -> DelayedCall {
        let call = DelayedCall(after: delay, action)
        add(call)
        return call
    }

    /// Advances every held object by `time × speed` seconds, unless paused (or already inside
    /// its own advance). Objects that report `isComplete` afterwards are removed.
    public override func advance(time: Double) {
        // A callback that advances this juggler again from inside its own advance is ignored:
        // the outer loop is mid-way through the list.
        if isPaused || advancing || !(time > 0) { return }
        let passed = time * speed
        elapsedTime += passed
        advancing = true
        let countAtStart = objects.count
        var index = 0
        while index < countAtStart {
            if let object = objects[index] {
                object.advance(time: passed)
                // The callback may have removed it (its slot is then empty or reused).
                if object.isComplete, index < objects.count, objects[index] === object {
                    clearSlot(index)
                }
            }
            index += 1
        }
        advancing = false
        compactIfIdle()
    }

    private func clearSlot(_ index: Int) {
        objects[index] = nil
        emptySlots += 1
    }

    private func compactIfIdle() {
        if advancing || emptySlots == 0 { return }
        var kept: [Animatable?] = []
        kept.reserveCapacity(objects.count - emptySlots)
        for case let object? in objects { kept.append(object) }
        objects = kept
        emptySlots = 0
    }
}
