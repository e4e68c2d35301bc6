import Testing
import Physics2D
@testable import Stage

/// Objects the games drop are freed: no reference cycles through parents, listeners the
/// library installs, or the physics bridge (CarWorld spawns cars for as long as it runs).
@Suite struct ReleaseTests {
    @Test func removedSubtreesAndButtonsAreFreed() {
        let stage = Stage(width: 100, height: 100)
        weak var group: Sprite?
        weak var leaf: Quad?
        weak var button: Button?
        do {
            let g = Sprite(); let q = Quad(width: 1, height: 1)
            let b = Button(upState: TextureRegion(atlas: 0, region: 0, width: 10, height: 10), text: "x")
            g.addChild(q); g.addChild(b); stage.addChild(g)
            group = g; leaf = q; button = b
        }
        // A touch on the button, so the touch processor has held it.
        stage.queueTouch(id: 0, phase: .began, x: 5, y: 5)
        stage.queueTouch(id: 0, phase: .ended, x: 5, y: 5)
        stage.advance(time: 0.016)
        #expect(group != nil && leaf != nil && button != nil)
        group?.removeFromParent()
        #expect(group == nil && leaf == nil && button == nil)
    }

    @Test func aChildOutlivingItsContainerHasNoParent() {
        let child = Quad(width: 1, height: 1)
        weak var container: Sprite?
        do {
            let c = Sprite(); c.addChild(child); container = c
            #expect(child.parent === c)
        }
        #expect(container == nil && child.parent == nil)
    }

    @Test func removedPhysicsSpritesAndTheWorldAreFreed() {
        let stage = Stage(width: 100, height: 100)
        weak var world: PhysicsWorld?
        weak var sprite: PhysicsSprite?
        weak var body: Body?
        do {
            let w = PhysicsWorld(gravity: .zero, pointsPerMeter: 10)
            stage.addChild(w)
            let floor = w.createSprite(BodyDef(type: .static), x: 0, y: 0)
            floor.addBox(width: 100, height: 10, isSensor: true)
            let s = w.createSprite(x: 0, y: 0)
            s.addCircle(radius: 2)
            w.onBeginContact = { _ in }
            w.onEndContact = { _ in }
            world = w; sprite = s; body = s.body
        }
        stage.advance(time: 1.0 / 60)   // they touch
        sprite?.removeFromParent()
        stage.advance(time: 1.0 / 60)   // the end contact is delivered
        #expect(sprite == nil && body == nil)
        #expect(world != nil)
        world?.removeFromParent()
        #expect(world == nil)
    }
}
