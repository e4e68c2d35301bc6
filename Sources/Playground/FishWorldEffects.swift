// FishWorld's effects: bubbles that rise and fade (ambient ones from the sea floor, a few where
// a touch began or a fish came home), and the win: the starfish grows in the middle, every
// fish gives a happy wiggle, bubbles rise across the sea. Bubbles come from a fixed pool of
// `maxBubbles` images made with the game (none are made or freed while it runs) and are moved by
// the game each frame; the starfish's growth is a tween on the stage's juggler.

import Physics2D
import Stage

/// One bubble of the pool: hidden while not rising.
final class FishBubble {
    let image: Image
    var isRising = false
    var startY = 0.0, rise = 0.0, duration = 1.0, age = 0.0

    init(image: Image) { self.image = image }
}

extension FishWorld {
    /// Where ambient bubbles rise from: the seaweed on the sand (background.svg).
    static let bubbleSources: [FishWorldPoint] = [FishWorldPoint(70, 700), FishWorldPoint(340, 705), FishWorldPoint(690, 700), FishWorldPoint(960, 705)]

    /// The pool of bubble images, all in the effect layer, hidden.
    func makeBubbles() {
        for _ in 0..<rules.maxBubbles {
            let image = Self.image(.bubble)
            image.pivotX = Double(FishWorldArt.Region.bubble.width) / 2
            image.pivotY = Double(FishWorldArt.Region.bubble.height) / 2
            image.visible = false
            effectLayer.addChild(image)
            bubbles.append(FishBubble(image: image))
        }
    }

    /// Starts an ambient bubble when one is due (seeded places and times).
    func bubbleNow() {
        guard time >= nextBubble else { return }
        nextBubble = time + random.uniform(rules.bubbleInterval)
        let source = Self.bubbleSources[random.below(Self.bubbleSources.count)]
        let scale = 0.5 + 0.5 * random.unit()
        addBubble(x: source.x + 16 * random.unit() - 8, y: source.y, rise: 420 + 160 * random.unit(), time: 4, scale: scale)
    }

    /// A bubble at (x, y) that rises `rise` points in `time` seconds (easing out), fading out
    /// (none when every bubble of the pool is rising).
    func addBubble(x: Double, y: Double, rise: Double, time: Double, scale: Double) {
        guard let bubble = bubbles.first(where: { !$0.isRising }) else { return }
        bubble.isRising = true
        bubble.startY = y
        bubble.rise = rise
        bubble.duration = time
        bubble.age = 0
        bubble.image.x = x
        bubble.image.y = y
        bubble.image.scaleX = scale
        bubble.image.scaleY = scale
        bubble.image.alpha = 1
        bubble.image.visible = true
    }

    /// Moves the rising bubbles on by `dt` seconds; the wiggle of the win.
    func animate(dt: Double) {
        for bubble in bubbles where bubble.isRising {
            bubble.age += dt
            let t = min(1, bubble.age / bubble.duration)
            bubble.image.y = bubble.startY - bubble.rise * (1 - (1 - t) * (1 - t))
            bubble.image.alpha = 1 - t
            if t >= 1 {
                bubble.isRising = false
                bubble.image.visible = false
            }
        }
        // Every fish swells and shrinks twice in the first second after the win.
        let sinceWin = Double(elapsedMilliseconds - wonAtMilliseconds) / 1000
        let wiggle = hasWon && sinceWin < 1 ? 1 + 0.35 * abs(PortableMath.sin(2 * Double.pi * sinceWin)) : 1
        for f in fish where f.sprite.scaleX != wiggle {
            f.sprite.scaleX = wiggle
            f.sprite.scaleY = wiggle
        }
    }

    /// The win: the starfish grows (0.8 s, overshooting a little), each fish wiggles, and
    /// bubbles rise from all over the floor.
    func celebrate() {
        starfish.visible = true
        starfish.scaleX = 0.01
        starfish.scaleY = 0.01
        let grow = Tween(target: starfish, time: 0.8, transition: .easeOutBack)
        grow.animate(.scale, to: 1)
        stage.juggler.add(grow)
        for k in 0..<10 {
            addBubble(x: 80 + 96 * Double(k), y: 700, rise: 500, time: 2.5, scale: 0.7 + 0.03 * Double(k))
        }
    }
}
