// DelayedCall: a closure called after a delay of a juggler's time (Sparrow's SPDelayedInvocation).

/// Calls an action once `delay` seconds have passed (or `repeatCount` times, `delay` apart;
/// 0 = forever). Created by `Juggler.delayedCall(after:_:)` or directly and added to a juggler;
/// removing it from its juggler before it fires cancels it.
public final class DelayedCall: Animatable {
    /// The time between the start (or the previous call) and each call, in seconds.
    public let delay: Double
    /// How many times the action runs; 0 = forever. Default 1.
    public var repeatCount: Int = 1
    /// The time passed in the current wait, 0…delay.
    public private(set) var currentTime: Double = 0
    /// How many times the action has run.
    public private(set) var callCount = 0
    /// Optional object the call belongs to, for `Juggler.removeAll(with:)`.
    public var target: AnyObject?

    private let action: () -> Void

    public init(after delay: Double, target: AnyObject? = nil, _ action: @escaping () -> Void) {
        self.delay = delay > 0 ? delay : 0
        self.target = target
        self.action = action
        super.init()
    }

    public override var isComplete: Bool { repeatCount > 0 && callCount >= repeatCount }

    public override var animationTarget: AnyObject? { target }

    public override func advance(time: Double) {
        if isComplete || !(time > 0) { return }
        var rest = time
        while !isComplete {
            let needed = delay - currentTime
            if rest < needed {
                currentTime += rest
                return
            }
            rest -= needed
            callCount += 1
            currentTime = 0
            action()
            if delay == 0 && repeatCount == 0 { return }   // forever with no wait: once per advance
            if delay > 0 && rest <= 0 { return }
        }
        currentTime = delay
    }
}
