import Testing
import Physics2D
@testable import Stage

/// Transforms, bounds, hit tests and child order of the display tree.
@Suite struct DisplayTreeTests {
    let eps = 1e-9

    func close(_ p: Point, _ x: Double, _ y: Double) -> Bool { abs(p.x - x) < eps && abs(p.y - y) < eps }
    func close(_ r: Rectangle, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Bool {
        abs(r.x - x) < eps && abs(r.y - y) < eps && abs(r.width - w) < eps && abs(r.height - h) < eps
    }

    @Test func pivotScaleRotationTransform() {
        let o = Quad(width: 10, height: 10)
        o.x = 100; o.y = 50; o.pivotX = 10; o.pivotY = 20; o.scaleX = 2; o.scaleY = 3
        o.rotation = (PortableMath.pi / 2)
        let m = o.transformationMatrix
        // The pivot sits at (x, y).
        #expect(close(m.transform(x: 10, y: 20), 100, 50))
        // One unit right of the pivot: scaled to 2, turned a quarter clockwise (y down) to point down.
        #expect(close(m.transform(x: 11, y: 20), 100, 52))
        // One unit below the pivot: scaled to 3, turned to point left.
        #expect(close(m.transform(x: 10, y: 21), 97, 50))
        // No rotation: the fast path gives the same as the general formula.
        o.rotation = 0
        #expect(o.transformationMatrix == Matrix(a: 2, b: 0, c: 0, d: 3, tx: 100 - 20, ty: 50 - 60))
    }

    @Test func rotationIsKeptInMinusPiToPi() {
        let o = Sprite()
        let pi = PortableMath.pi
        o.rotation = 3 * pi / 2
        #expect(abs(o.rotation - (-pi / 2)) < eps)
        o.rotation = -pi
        #expect(o.rotation == pi)
        o.rotation = 7 * pi + 0.25
        #expect(abs(o.rotation - (-pi + 0.25)) < 1e-9)
        o.rotation = 1
        #expect(o.rotation == 1)
    }

    @Test func nestedTransformsAndSpaces() {
        let stage = Stage(width: 400, height: 300)
        let parent = Sprite(); parent.x = 100; parent.y = 100; parent.rotation = (PortableMath.pi / 2)
        let child = Sprite(); child.x = 10; child.scaleX = 2; child.scaleY = 2
        let sibling = Sprite(); sibling.x = 50
        stage.addChild(parent); parent.addChild(child); parent.addChild(sibling)
        // child (1, 0) → parent (12, 0) → turned to (0, 12) → stage (100, 112).
        #expect(close(child.localToGlobal(Point(1, 0)), 100, 112))
        #expect(close(child.globalToLocal(Point(100, 112)), 1, 0))
        #expect(close(child.transformationMatrix(to: sibling).transform(x: 1, y: 0), -38, 0))
        #expect(close(child.transformationMatrix(to: stage).transform(x: 1, y: 0), 100, 112))
        #expect(close(stage.transformationMatrix(to: child).transform(x: 100, y: 112), 1, 0))
        #expect(child.transformationMatrix(to: child) == .identity)
        #expect(child.transformationMatrix(to: parent) == child.transformationMatrix)
        #expect(child.root === stage && child.stage === stage)
        let loose = Sprite()
        #expect(loose.stage == nil && loose.root === loose)
    }

    @Test func boundsOfRotatedScaledAndNestedObjects() {
        let q = Quad(width: 10, height: 20)
        q.rotation = (PortableMath.pi / 2)
        let s = Sprite(); s.addChild(q)
        // Corners (0,0) (10,0) (0,20) (10,20) turn to (0,0) (0,10) (−20,0) (−20,10).
        #expect(close(q.bounds(in: s), -20, 0, 20, 10))
        #expect(abs(q.width - 20) < eps && abs(q.height - 10) < eps)
        let q2 = Quad(width: 5, height: 5); q2.x = 30; q2.y = -5; q2.scaleX = 2
        s.addChild(q2)
        #expect(close(s.bounds(in: s), -20, -5, 60, 15))
        // In the parent's space the sprite's own transform applies.
        let outer = Sprite(); outer.addChild(s)
        s.x = 100; s.pivotX = -20; s.scaleY = 2
        #expect(close(s.bounds, 100, -10, 60, 30))
        // Pivoted quad: the pivot lands on (x, y).
        let p = Quad(width: 40, height: 20); p.pivotX = 20; p.pivotY = 10; p.x = 50; p.y = 50
        outer.addChild(p)
        #expect(close(p.bounds, 30, 40, 40, 20))
        // An empty container: a zero rectangle at its origin.
        let empty = Sprite(); empty.x = 7; empty.y = 9; outer.addChild(empty)
        #expect(close(empty.bounds, 7, 9, 0, 0))
    }

    @Test func settingWidthAndHeightScales() {
        let s = Sprite()
        let q = Quad(width: 10, height: 20); s.addChild(q)
        q.width = 30
        #expect(q.scaleX == 3 && abs(q.width - 30) < eps)
        q.height = 10
        #expect(q.scaleY == 0.5 && abs(q.height - 10) < eps)
        s.width = 60   // the sprite's own bounds (30 wide) double
        #expect(s.scaleX == 2 && abs(s.width - 60) < eps)
    }

    func scene() -> (Stage, Sprite, Quad, Quad) {
        let stage = Stage(width: 200, height: 100)
        let layer = Sprite()
        let back = Quad(width: 100, height: 100); back.name = "back"
        let front = Quad(width: 50, height: 50); front.x = 25; front.y = 25; front.name = "front"
        stage.addChild(layer); layer.addChild(back); layer.addChild(front)
        return (stage, layer, back, front)
    }

    @Test func hitTestsFindTheTopmostVisibleTouchableObject() {
        let (stage, layer, back, front) = scene()
        #expect(stage.hitTest(Point(30, 30)) === front)
        #expect(stage.hitTest(Point(10, 10)) === back)
        #expect(stage.hitTest(Point(150, 50)) === stage)   // no child there: the stage
        #expect(stage.hitTest(Point(250, 50)) == nil)      // outside the stage
        front.visible = false
        #expect(stage.hitTest(Point(30, 30)) === back)
        front.visible = true; front.touchable = false
        #expect(stage.hitTest(Point(30, 30)) === back)
        front.touchable = true
        front.alpha = 0   // transparent objects are still hit (Sparrow)
        #expect(stage.hitTest(Point(30, 30)) === front)
        // An untouchable container hides its children, touchable or not.
        layer.touchable = false
        #expect(stage.hitTest(Point(30, 30)) === stage)
        layer.touchable = true; layer.visible = false
        #expect(stage.hitTest(Point(30, 30)) === stage)
        layer.visible = true
        // Scaled to nothing: no area, not hit (its inverse would map every point to its origin).
        front.scaleX = 0
        #expect(stage.hitTest(Point(30, 30)) === back)
        #expect(stage.hitTest(Point(150, 50)) === stage)
        front.scaleX = 1
        // Hit tests run in each object's space: a rotated quad.
        let r = Quad(width: 20, height: 10); r.x = 150; r.y = 20; r.rotation = (PortableMath.pi / 2)
        stage.addChild(r)
        #expect(stage.hitTest(Point(145, 25)) === r)   // local (5, 5)
        #expect(stage.hitTest(Point(155, 25)) === stage)
    }

    @Test func childOrderAndLookups() {
        let (stage, layer, back, front) = scene()
        #expect(layer.children.map { $0.name } == ["back", "front"])
        let mid = Quad(width: 1, height: 1); mid.name = "mid"
        layer.insertChild(mid, at: 1)
        #expect(layer.children.map { $0.name } == ["back", "mid", "front"])
        #expect(layer.index(of: mid) == 1 && layer.numChildren == 3)
        layer.setIndex(0, of: front)
        #expect(layer.children.map { $0.name } == ["front", "back", "mid"])
        layer.addChild(front)   // already a child: moves to the top
        #expect(layer.children.map { $0.name } == ["back", "mid", "front"])
        #expect(layer.getChild(named: "mid") === mid && layer.getChild(named: "nope") == nil)
        #expect(stage.contains(mid) && layer.contains(layer) && !layer.contains(stage))
        // Adding to another container moves the object.
        let other = Sprite(); stage.addChild(other)
        other.addChild(back)
        #expect(back.parent === other && layer.children.map { $0.name } == ["mid", "front"])
        front.removeFromParent()
        #expect(front.parent == nil && layer.children.map { $0.name } == ["mid"])
        other.removeAllChildren()
        #expect(other.numChildren == 0 && back.parent == nil)
    }

    @Test func sortChildrenIsStable() {
        let s = Sprite()
        let ys: [Double] = [3, 1, 2, 1, 3, 0]
        for (i, y) in ys.enumerated() {
            let q = Quad(width: 1, height: 1); q.y = y; q.name = "\(i)"; s.addChild(q)
        }
        s.sortChildren { $0.y < $1.y }
        #expect(s.children.map { $0.name! } == ["5", "1", "3", "2", "0", "4"])
    }

    @Test func addedAndRemovedEvents() {
        let stage = Stage(width: 10, height: 10)
        let group = Sprite(); let leaf = Quad(width: 1, height: 1); group.addChild(leaf)
        var log: [String] = []
        for (o, n) in [(stage as DisplayObject, "stage"), (group, "group"), (leaf, "leaf")] {
            for t in [EventType.added, EventType.addedToStage, EventType.removed, EventType.removedFromStage] {
                o.addEventListener(t) { e in log.append("\(n):\(t):\((e.target as? DisplayObject) === leaf ? "leaf" : "group")") }
            }
        }
        stage.addChild(group)
        #expect(log == ["group:added:group", "stage:added:group",
                        "group:addedToStage:group", "leaf:addedToStage:leaf"])
        log.removeAll()
        group.removeFromParent()
        #expect(log == ["group:removed:group", "stage:removed:group",
                        "group:removedFromStage:group", "leaf:removedFromStage:leaf"])
        #expect(group.stage == nil)
        // Off stage: added only, no addedToStage.
        log.removeAll()
        let extra = Quad(width: 1, height: 1)
        extra.addEventListener(EventType.addedToStage) { _ in log.append("extra:addedToStage") }
        group.addChild(extra)
        #expect(!log.contains("extra:addedToStage"))
    }
}
