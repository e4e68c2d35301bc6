// PathTween: moves an object along a BezierPath at constant speed (the original's path tween,
// with its "versus" flag: the sprite faces the way it travels).

import Physics2D

/// How a path tween turns its target.
public enum PathDirection: Equatable, Sendable {
    /// Position only; rotation and scale are left alone.
    case none
    /// The target's rotation follows its way: rotation = atan2(v.y, v.x), v the direction of
    /// travel (the path's tangent, or its opposite on a reversed cycle), so a sprite drawn facing
    /// right (+x) faces the way it travels.
    case facesTravel
    /// For a sprite drawn facing right that travels right to left: it is mirrored (scaleX made
    /// negative) and turned by atan2(−v.y, −v.x), so it faces the way it travels and stays
    /// upright instead of driving upside down.
    case mirrored
    /// `.facesTravel` (scaleX positive) while the travel heads right or straight up/down
    /// (v.x ≥ 0), `.mirrored` while it heads left: a sprite drawn facing right stays upright
    /// whichever way it goes, and turns round when a ping-pong tween turns back.
    case automatic
}

/// A tween that moves `target` along `path`: its x and y follow the path at a distance
/// proportional to the tween's progress (constant speed with the default linear transition),
/// and its rotation (and the sign of scaleX for `.mirrored` and `.automatic`) follows
/// `direction`. Everything else is a `Tween`'s: delay, repeat, reverse, callbacks, other
/// animated properties.
public final class PathTween<Target: AnyObject>: Tween<Target> {
    /// The path followed.
    public let path: BezierPath
    /// Whether and how the target turns to face its way.
    public var direction: PathDirection = .none
    /// Added to the rotation that `direction` sets (radians), for art drawn facing another way.
    public var rotationOffset: Double = 0

    let x: TweenProperty<Target>
    let y: TweenProperty<Target>
    let rotation: TweenProperty<Target>?
    let scaleX: TweenProperty<Target>?

    /// A path tween lasting `time` seconds. `rotation` and `scaleX` are needed by
    /// `.facesTravel`, `.mirrored` and `.automatic` (without them those directions only move
    /// the target).
    public init(target: Target, path: BezierPath, time: Double, transition: Transition = .linear,
                x: TweenProperty<Target>, y: TweenProperty<Target>,
                rotation: TweenProperty<Target>? = nil, scaleX: TweenProperty<Target>? = nil) {
        self.path = path
        self.x = x
        self.y = y
        self.rotation = rotation
        self.scaleX = scaleX
        super.init(target: target, time: time, transition: transition)
    }

    /// A path tween at `speed` points per second (the time is the path's length / speed; a
    /// speed ≤ 0 gives the shortest tween, 0.0001 s).
    public convenience init(target: Target, path: BezierPath, speed: Double,
                            transition: Transition = .linear,
                            x: TweenProperty<Target>, y: TweenProperty<Target>,
                            rotation: TweenProperty<Target>? = nil, scaleX: TweenProperty<Target>? = nil) {
        let time = speed > 0 ? path.length / speed : 0
        self.init(target: target, path: path, time: time, transition: transition,
                  x: x, y: y, rotation: rotation, scaleX: scaleX)
    }

    /// The distance along the path last applied, 0…length.
    public private(set) var distance: Double = 0

    override func apply(progress: Double) {
        super.apply(progress: progress)
        var d = progress * path.length
        if d < 0 { d = 0 }
        if d > path.length { d = path.length }
        distance = d
        let (index, t) = path.locate(d)
        if path.segments.isEmpty {
            x.set(target, path.start.x)
            y.set(target, path.start.y)
            return
        }
        let segment = path.segments[index]
        let point = segment.point(at: t)
        x.set(target, point.x)
        y.set(target, point.y)
        if direction == .none { return }
        let tangent = segment.tangent(at: t)
        let travel = isReversedCycle ? Vec2(-tangent.x, -tangent.y) : tangent
        let mirror = direction == .mirrored || (direction == .automatic && travel.x < 0)
        if mirror {
            rotation?.set(target, PortableMath.atan2(-travel.y, -travel.x) + rotationOffset)
        } else {
            rotation?.set(target, PortableMath.atan2(travel.y, travel.x) + rotationOffset)
        }
        if let scaleX {
            let scale = scaleX.get(target)
            if mirror ? scale > 0 : (scale < 0 && direction == .automatic) { scaleX.set(target, -scale) }
        }
    }
}
