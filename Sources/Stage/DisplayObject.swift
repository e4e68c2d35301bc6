// The display tree's node (Sparrow's SPDisplayObject): position, pivot, scale, rotation, alpha,
// visibility and touchability, its parent, and the transforms between coordinate spaces.
//
// Coordinates are points, y down; rotation is in radians, clockwise on screen. An object's
// transform maps its local space into its parent's: first the pivot moves to the origin, then
// scale, then rotation, then the translation to (x, y) — so (x, y) is where the pivot sits in
// the parent, and rotation and scale happen about the pivot.

import Physics2D

/// A node of the display tree. Leaves (`Quad`, `Image`, `TextField`) draw; containers
/// (`Sprite`, `Button`, `Stage`) hold children.
open class DisplayObject: EventDispatcher {
    /// A name to find the object by (`DisplayObjectContainer.getChild(named:)`).
    public var name: String?
    /// Position of the pivot in the parent's space.
    public var x: Double = 0
    public var y: Double = 0
    /// The local point that sits at (x, y) and about which the object scales and rotates.
    public var pivotX: Double = 0
    public var pivotY: Double = 0
    public var scaleX: Double = 1
    public var scaleY: Double = 1
    /// Opacity 0…1 (clamped); multiplied down the tree. 0 is not drawn but is still hit-tested.
    public var alpha: Double = 1 {
        didSet { alpha = alpha < 0 ? 0 : (alpha > 1 ? 1 : alpha) }
    }
    /// An invisible object is neither drawn nor hit by touches, nor are its children.
    public var visible = true
    /// An untouchable object is not hit by touches, nor are its children (they stay drawn).
    public var touchable = true

    /// The container holding this object (nil at the root). Not retained: a container clears
    /// its children's parent when it removes them or is freed.
    public internal(set) unowned(unsafe) var parent: DisplayObjectContainer?

    /// Rotation in radians, kept in (−π, π].
    public var rotation: Double {
        get { rotationValue }
        set { rotationValue = DisplayObject.normalizedAngle(newValue) }
    }
    var rotationValue: Double = 0

    public override init() { super.init() }

    /// `angle` moved into (−π, π] by whole turns.
    public static func normalizedAngle(_ angle: Double) -> Double {
        guard angle.isFinite else { return 0 }
        let twoPi = 2 * PortableMath.pi
        var a = angle
        if a > PortableMath.pi || a <= -PortableMath.pi {
            a -= twoPi * ((a + PortableMath.pi) / twoPi).rounded(.down)
            if a <= -PortableMath.pi { a += twoPi }
            if a > PortableMath.pi { a -= twoPi }
        }
        return a
    }

    /// The topmost ancestor (the object itself when it has no parent).
    public var root: DisplayObject {
        var o: DisplayObject = self
        while let p = o.parent { o = p }
        return o
    }

    /// The stage this object is on, or nil when its tree's root is not a `Stage`.
    public var stage: Stage? { root as? Stage }

    /// The transform from local space to the parent's space.
    public var transformationMatrix: Matrix {
        if rotationValue == 0 {
            return Matrix(a: scaleX, b: 0, c: 0, d: scaleY,
                          tx: x - pivotX * scaleX, ty: y - pivotY * scaleY)
        }
        let cs = PortableMath.cos(rotationValue), sn = PortableMath.sin(rotationValue)
        let a = cs * scaleX, b = sn * scaleX, c = -sn * scaleY, d = cs * scaleY
        return Matrix(a: a, b: b, c: c, d: d, tx: x - pivotX * a - pivotY * c, ty: y - pivotX * b - pivotY * d)
    }

    /// The product of the transforms from this object up to, not including, `ancestor`
    /// (nil: up to and including the root).
    final func matrix(upTo ancestor: DisplayObject?) -> Matrix {
        var m = Matrix.identity
        var o: DisplayObject? = self
        while let cur = o, cur !== ancestor {
            m = m.concatenated(cur.transformationMatrix)
            o = cur.parent
        }
        return m
    }

    /// The transform from this object's space to `space` (nil: the global space of the root's
    /// parent, which for an object on the stage is stage space). Both must be in one tree.
    public func transformationMatrix(to space: DisplayObject?) -> Matrix {
        guard let space else { return matrix(upTo: nil) }
        if space === self { return .identity }
        if space === parent { return transformationMatrix }
        // The nearest common ancestor: the first of space's ancestors (or space) that is also
        // this object or one of its ancestors.
        var common: DisplayObject? = space
        while let c = common, !isSelfOrDescendant(of: c) { common = c.parent }
        precondition(common != nil, "transformationMatrix(to:): the objects are in different trees")
        let up = matrix(upTo: common)
        if common === space { return up }
        return up.concatenated(space.matrix(upTo: common).inverted)
    }

    /// True when `ancestor` is this object or one of its ancestors.
    final func isSelfOrDescendant(of ancestor: DisplayObject) -> Bool {
        var o: DisplayObject? = self
        while let cur = o { if cur === ancestor { return true }; o = cur.parent }
        return false
    }

    /// The object's axis-aligned bounds in `space`'s coordinates (nil: global space).
    /// Leaves: their `localBounds` transformed; containers: the union of their children's
    /// bounds (an empty container is a zero-size rectangle at its origin).
    open func bounds(in space: DisplayObject?) -> Rectangle {
        transformationMatrix(to: space).bounds(of: localBounds)
    }

    /// The bounds in the parent's space.
    public var bounds: Rectangle { bounds(in: parent) }

    /// Width of the bounds in the parent's space; setting it changes `scaleX` so that the
    /// bounds get that width (nothing happens for an object of zero width).
    public var width: Double {
        get { bounds(in: parent).width }
        set {
            scaleX = 1
            let w = bounds(in: parent).width
            if w != 0 { scaleX = newValue / w }
        }
    }
    /// Height of the bounds in the parent's space; setting it changes `scaleY` likewise.
    public var height: Double {
        get { bounds(in: parent).height }
        set {
            scaleY = 1
            let h = bounds(in: parent).height
            if h != 0 { scaleY = newValue / h }
        }
    }

    /// A point in this object's space, in global (stage) coordinates.
    public func localToGlobal(_ p: Point) -> Point { transformationMatrix(to: nil).transform(p) }
    /// A global (stage) point in this object's space.
    public func globalToLocal(_ p: Point) -> Point { transformationMatrix(to: nil).inverted.transform(p) }

    /// The object under `localPoint` (in this object's space) that a touch there would hit:
    /// the deepest visible, touchable descendant (or the object itself), nil if none.
    /// Leaves test their rectangle (0,0)–(width, height) in local space.
    open func hitTest(_ localPoint: Point) -> DisplayObject? {
        guard visible, touchable else { return nil }
        return localBounds.contains(localPoint) ? self : nil
    }

    /// The rectangle a leaf draws and is hit in, in its own space (zero for a bare node).
    open var localBounds: Rectangle { .zero }

    /// Removes the object from its parent, if it has one.
    public func removeFromParent() { parent?.removeChild(self) }

    /// A display object bubbles events to its parent.
    open override var bubbleParent: EventDispatcher? { parent }

    /// Appends this object's draw commands, with `matrix` (to stage space) and `alpha` (the
    /// product of its ancestors' and its own). Called only for visible objects with alpha > 0.
    open func render(into list: inout DrawList, matrix: Matrix, alpha: Double) {}
}
