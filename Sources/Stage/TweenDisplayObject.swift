// Ready-made tween properties and path tweens for display objects.

/// The animatable properties of every display object: `tween.animate(.x, to: 100)`.
extension TweenProperty where Target: DisplayObject {
    public static var x: TweenProperty { TweenProperty(get: { $0.x }, set: { $0.x = $1 }) }
    public static var y: TweenProperty { TweenProperty(get: { $0.y }, set: { $0.y = $1 }) }
    public static var pivotX: TweenProperty { TweenProperty(get: { $0.pivotX }, set: { $0.pivotX = $1 }) }
    public static var pivotY: TweenProperty { TweenProperty(get: { $0.pivotY }, set: { $0.pivotY = $1 }) }
    public static var scaleX: TweenProperty { TweenProperty(get: { $0.scaleX }, set: { $0.scaleX = $1 }) }
    public static var scaleY: TweenProperty { TweenProperty(get: { $0.scaleY }, set: { $0.scaleY = $1 }) }
    /// Both scales at once (read from scaleX).
    public static var scale: TweenProperty {
        TweenProperty(get: { $0.scaleX }, set: { $0.scaleX = $1; $0.scaleY = $1 })
    }
    /// Radians. The tween interpolates the number it is given, so a turn from 3 to 4 goes
    /// the short way through π even though the object keeps its rotation in (−π, π].
    public static var rotation: TweenProperty { TweenProperty(get: { $0.rotation }, set: { $0.rotation = $1 }) }
    public static var alpha: TweenProperty { TweenProperty(get: { $0.alpha }, set: { $0.alpha = $1 }) }
}

extension PathTween where Target: DisplayObject {
    /// Moves a display object along `path` at `speed` points per second, turning it as
    /// `direction` says.
    public convenience init(target: Target, path: BezierPath, speed: Double,
                            direction: PathDirection = .none, transition: Transition = .linear) {
        self.init(target: target, path: path, speed: speed, transition: transition,
                  x: .x, y: .y, rotation: .rotation, scaleX: .scaleX)
        self.direction = direction
    }

    /// Moves a display object along `path` in `time` seconds, turning it as `direction` says.
    public convenience init(target: Target, path: BezierPath, time: Double,
                            direction: PathDirection = .none, transition: Transition = .linear) {
        self.init(target: target, path: path, time: time, transition: transition,
                  x: .x, y: .y, rotation: .rotation, scaleX: .scaleX)
        self.direction = direction
    }
}
