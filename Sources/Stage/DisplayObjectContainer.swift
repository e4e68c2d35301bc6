// Containers (Sparrow's SPDisplayObjectContainer and SPSprite): an ordered list of children,
// painted first to last (the last is on top), hit-tested last to first.

/// A display object that holds children.
open class DisplayObjectContainer: DisplayObject {
    /// The children in painting order.
    public private(set) var children: [DisplayObject] = []

    public override init() { super.init() }

    deinit {
        for c in children { c.parent = nil }
    }

    /// Number of children.
    public var numChildren: Int { children.count }

    /// Adds `child` on top of the others (moving it from its current parent, if any).
    public func addChild(_ child: DisplayObject) { insertChild(child, at: children.count) }

    /// Inserts `child` at `index` (0 = bottom). A child already in this container moves there.
    /// Dispatches `added` (bubbling) and, when this container is on a stage, `addedToStage`
    /// to the child and its descendants.
    public func insertChild(_ child: DisplayObject, at index: Int) {
        precondition(index >= 0 && index <= children.count, "insertChild: index out of range")
        precondition(child !== self && !(self.isSelfOrDescendant(of: child)), "insertChild: a container cannot hold itself or an ancestor")
        if child.parent === self {
            let from = children.firstIndex { $0 === child }!
            children.remove(at: from)
            children.insert(child, at: from < index ? index - 1 : index)
            return
        }
        child.removeFromParent()
        children.insert(child, at: index)
        child.parent = self
        didAddChild(child)
        child.dispatchEvent(Event(type: EventType.added, bubbles: true))
        if stage != nil { broadcastEvent(type: EventType.addedToStage, to: child) }
    }

    /// Removes `child` (nothing if it is not a child). Dispatches `removed` (bubbling) and, on a
    /// stage, `removedFromStage` to the child and its descendants, before it is detached.
    public func removeChild(_ child: DisplayObject) {
        guard let i = children.firstIndex(where: { $0 === child }) else { return }
        removeChild(at: i)
    }

    /// Removes and returns the child at `index`.
    @discardableResult
    public func removeChild(at index: Int) -> DisplayObject {
        precondition(index >= 0 && index < children.count, "removeChild(at:): index out of range")
        let child = children[index]
        child.dispatchEvent(Event(type: EventType.removed, bubbles: true))
        if stage != nil { broadcastEvent(type: EventType.removedFromStage, to: child) }
        // A listener may have moved the child already.
        if let i = children.firstIndex(where: { $0 === child }) {
            children.remove(at: i)
            child.parent = nil
            didRemoveChild(child)
        }
        return child
    }

    /// Removes every child, top first.
    public func removeAllChildren() {
        while let last = children.indices.last { removeChild(at: last) }
    }

    /// Called after `child` joined this container (before the events). For subclasses.
    open func didAddChild(_ child: DisplayObject) {}
    /// Called after `child` left this container. For subclasses.
    open func didRemoveChild(_ child: DisplayObject) {}

    /// The child at `index`.
    public func child(at index: Int) -> DisplayObject { children[index] }

    /// The index of `child`, or nil.
    public func index(of child: DisplayObject) -> Int? { children.firstIndex { $0 === child } }

    /// Moves `child` (already a child) to `index`.
    public func setIndex(_ index: Int, of child: DisplayObject) {
        guard let from = self.index(of: child) else { preconditionFailure("setIndex: not a child") }
        precondition(index >= 0 && index < children.count, "setIndex: index out of range")
        children.remove(at: from)
        children.insert(child, at: index)
    }

    /// Swaps the children at two indices.
    public func swapChildren(at i: Int, _ j: Int) { children.swapAt(i, j) }

    /// The first child whose name is `name` (direct children only).
    public func getChild(named name: String) -> DisplayObject? {
        children.first { c in c.name.map { sameType($0, name) } ?? false }
    }

    /// True when `object` is this container or one of its descendants.
    public func contains(_ object: DisplayObject) -> Bool { object.isSelfOrDescendant(of: self) }

    /// Sorts the children (stable: equal ones keep their order) by `areInIncreasingOrder`,
    /// e.g. by y for a top-down scene.
    public func sortChildren(by areInIncreasingOrder: (DisplayObject, DisplayObject) -> Bool) {
        // Insertion sort: stable, no allocation, and children lists are short and mostly sorted.
        var i = 1
        while i < children.count {
            let c = children[i]
            var j = i - 1
            while j >= 0 && areInIncreasingOrder(c, children[j]) {
                children[j + 1] = children[j]
                j -= 1
            }
            children[j + 1] = c
            i += 1
        }
    }

    open override func bounds(in space: DisplayObject?) -> Rectangle {
        guard var r = children.first?.bounds(in: space) else { return super.bounds(in: space) }
        for c in children.dropFirst() { r = r.union(c.bounds(in: space)) }
        return r
    }

    /// Tests children top to bottom (each in its own space); the container itself is never hit
    /// where no child is.
    open override func hitTest(_ localPoint: Point) -> DisplayObject? {
        guard visible, touchable else { return nil }
        var i = children.count - 1
        while i >= 0 {
            let c = children[i]
            i -= 1
            let m = c.transformationMatrix
            // A child scaled to nothing has no area (and no inverse): it cannot be hit.
            if m.determinant == 0 { continue }
            if let hit = c.hitTest(m.inverted.transform(localPoint)) { return hit }
        }
        return nil
    }

    open override func render(into list: inout DrawList, matrix: Matrix, alpha: Double) {
        for c in children where c.visible && c.alpha > 0 {
            let a = alpha * c.alpha
            c.render(into: &list, matrix: c.transformationMatrix.concatenated(matrix), alpha: a)
        }
    }

    /// Dispatches a new non-bubbling event of `type` to `object` and all its descendants
    /// (parents before children, children in order; the list is taken before dispatching).
    final func broadcastEvent(type: String, to object: DisplayObject) {
        var targets: [DisplayObject] = []
        collect(object, into: &targets)
        let event = Event(type: type, bubbles: false)
        for t in targets { t.dispatchEvent(event) }
    }
}

/// Appends `o` and its descendants, depth first in painting order.
func collect(_ o: DisplayObject, into list: inout [DisplayObject]) {
    list.append(o)
    if let c = o as? DisplayObjectContainer {
        for child in c.children { collect(child, into: &list) }
    }
}

/// The plain container (Sparrow's SPSprite): group objects to move, scale, rotate and fade them together.
open class Sprite: DisplayObjectContainer {
    public override init() { super.init() }
}
