// CarWorld's feedback: the star that flies from a crossing to the score, the cloud of a crash,
// the trophy. Each runs on the stage's juggler and removes itself when done.

import Stage

extension CarWorld {
    /// Where the point star flies to: the star on the score panel.
    static let scoreStar = (x: 16.0 + 30, y: 12.0 + 24)

    /// A star rises from the crossing and flies to the score panel's star (0.9 s), then goes.
    func showPoint(from box: MapPoint) {
        let star = Self.image(.point)
        star.pivotX = Double(CarWorldArt.Region.point.width) / 2
        star.pivotY = Double(CarWorldArt.Region.point.height) / 2
        star.x = box.x
        star.y = box.y
        effectLayer.addChild(star)
        let fly = Tween(target: star, time: 0.9, transition: .easeInOut)
        fly.animate(.x, to: Self.scoreStar.x)
        fly.animate(.y, to: Self.scoreStar.y)
        fly.animate(.scale, to: 0.6)
        fly.onComplete = { [unowned(unsafe) star] in star.removeFromParent() }
        stage.juggler.add(fly)
    }

    /// A puff of wool swells and fades where the crash happened (1 s), then goes.
    func showCloud(at x: Double, _ y: Double) {
        let cloud = Self.image(.cloud)
        cloud.pivotX = Double(CarWorldArt.Region.cloud.width) / 2
        cloud.pivotY = Double(CarWorldArt.Region.cloud.height) / 2
        cloud.x = x
        cloud.y = y
        cloud.scaleX = 0.4
        cloud.scaleY = 0.4
        effectLayer.addChild(cloud)
        let puff = Tween(target: cloud, time: 1.0, transition: .easeOut)
        puff.animate(.scale, to: 1.3)
        puff.animate(.alpha, to: 0)
        puff.onComplete = { [unowned(unsafe) cloud] in cloud.removeFromParent() }
        stage.juggler.add(puff)
    }

    /// The trophy grows in the middle of the map (0.8 s, overshooting a little).
    func showTrophy() {
        trophy.visible = true
        trophy.scaleX = 0.01
        trophy.scaleY = 0.01
        let grow = Tween(target: trophy, time: 0.8, transition: .easeOutBack)
        grow.animate(.scale, to: 1)
        stage.juggler.add(grow)
    }
}
