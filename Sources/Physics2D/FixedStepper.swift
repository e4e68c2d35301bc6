// A fixed-time-step accumulator: games call it once per frame with the frame's
// duration; the world always advances in equal steps, so results do not depend
// on the frame rate.

/// Turns variable frame times into whole fixed steps of a world.
public struct FixedStepper: Sendable {
    /// The fixed step (seconds).
    public let dt: Double
    /// Cap on steps per frame, so a long pause does not trigger a spiral of catch-up steps.
    public var maxStepsPerFrame: Int
    /// Time not yet simulated (always below `dt` after a call, unless the cap was hit and the rest dropped).
    public private(set) var accumulator = 0.0

    public init(dt: Double = 1.0 / 60, maxStepsPerFrame: Int = 8) {
        precondition(dt > 0, "dt must be positive")
        self.dt = dt
        self.maxStepsPerFrame = max(1, maxStepsPerFrame)
    }

    /// Adds `elapsed` seconds and steps `world` as many whole steps as fit; returns how many.
    /// Time beyond `maxStepsPerFrame` steps is dropped.
    @discardableResult
    public mutating func advance(_ world: World, by elapsed: Double) -> Int {
        accumulator += max(0, elapsed)
        var n = 0
        while accumulator >= dt && n < maxStepsPerFrame {
            world.step(dt)
            accumulator -= dt
            n += 1
        }
        if n == maxStepsPerFrame && accumulator >= dt { accumulator = accumulator.truncatingRemainder(dividingBy: dt) }
        return n
    }

    /// How far the world is between its last step and the next (0..<1), to interpolate drawing.
    public var alpha: Double { accumulator / dt }
}
