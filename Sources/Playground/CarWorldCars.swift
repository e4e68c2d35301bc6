// CarWorld's cars: spawned on their roads, driven by their own jugglers, kept apart on a road,
// stopped and started by taps, freed at the end of their road.

import Physics2D
import Stage

/// A car: a physics sprite (a 60 × 30 sensor box, driven by the display) with its own juggler
/// that runs its path tween; a stopped car's juggler is paused.
public final class Car {
    /// The car's number (from 1, wrapping at 65535), in events.
    public let id: UInt16
    public let road: RoadID
    let sprite: PhysicsSprite
    /// The car's own clock: its path tween and fades. Paused while the car is stopped.
    public let juggler = Juggler()
    let drive: PathTween<PhysicsSprite>

    init(id: UInt16, road: RoadID, sprite: PhysicsSprite, drive: PathTween<PhysicsSprite>) {
        self.id = id
        self.road = road
        self.sprite = sprite
        self.drive = drive
    }

    /// Stopped by a tap (and not yet started again).
    public var isStopped: Bool { juggler.isPaused }
    /// Points driven along the road.
    public var distance: Double { drive.distance }
    /// The car's centre in stage points.
    public var x: Double { sprite.x }
    public var y: Double { sprite.y }
}

extension CarWorld {
    /// Puts a new car at the start of `road` (or `distance` points along it).
    @discardableResult
    func spawnCar(on road: RoadID, distance: Double = 0) -> Car {
        let path = paths[road.rawValue]
        let start = path.point(atDistance: distance)
        let sprite = physics.createSprite(BodyDef(type: .dynamic), x: start.x, y: start.y, drive: .displayDrivesBody)
        let (length, width) = (Double(CarWorldArt.Region.carRed.width), Double(CarWorldArt.Region.carRed.height))
        sprite.addBox(width: length, height: width, isSensor: true)
        let image = Self.image(CarWorldArt.cars[random.below(CarWorldArt.cars.count)])
        image.x = -length / 2
        image.y = -width / 2
        sprite.addChild(image)

        let mirrored = road == .second
        let drive = PathTween(target: sprite, path: path, speed: rules.carSpeed,
                              direction: mirrored ? .mirrored : .facesTravel)
        let car = Car(id: nextCarID, road: road, sprite: sprite, drive: drive)
        nextCarID = nextCarID == UInt16.max ? 1 : nextCarID + 1
        drive.onComplete = { [unowned(unsafe) self, unowned(unsafe) car] in self.finishedCars.append(car) }
        car.juggler.add(drive)
        // Fade in on entering and out before leaving (the top road starts and ends on the screen's edge).
        sprite.alpha = 0
        let fadeIn = Tween(target: sprite as DisplayObject, time: rules.fadeTime)
        fadeIn.animate(.alpha, to: 1)
        car.juggler.add(fadeIn)
        let fadeOut = Tween(target: sprite as DisplayObject, time: rules.fadeTime)
        fadeOut.delay = max(0, path.length / rules.carSpeed - rules.fadeTime)
        fadeOut.animate(.alpha, to: 0)
        car.juggler.add(fadeOut)

        // Face the way of travel from the start.
        let tangent = path.tangent(atDistance: min(distance + 0.5, path.length))
        if mirrored {
            sprite.scaleX = -1
            sprite.rotation = PortableMath.atan2(-tangent.y, -tangent.x)
        } else {
            sprite.rotation = PortableMath.atan2(tangent.y, tangent.x)
        }
        if distance > 0 { car.juggler.advance(time: distance / rules.carSpeed) }
        sprite.moveBodyToDisplay()

        carsOnRoad[road.rawValue].append(car)
        carBySprite[ObjectIdentifier(sprite)] = car
        emit(CarWorldEvent.carSpawned, subject: car.id, value: Int32(road.rawValue))
        return car
    }

    /// Each frame, before the physics steps: every car drives on by `dt` unless it is stopped or
    /// would come closer than `minimumGap` to the car ahead on its road (then it drives only up to
    /// that gap and waits); cars at their road's end are freed; due cars enter.
    func moveCars(by dt: Double) {
        guard dt > 0 else { return }
        for road in RoadID.allCases {
            let cars = carsOnRoad[road.rawValue]
            for (i, car) in cars.enumerated() where !car.isStopped {
                var allowed = dt
                if i > 0 {
                    let room = cars[i - 1].distance - car.distance - rules.minimumGap
                    allowed = min(dt, max(0, room / rules.carSpeed))
                }
                if allowed > 0 { car.juggler.advance(time: allowed) }
            }
        }
        for car in finishedCars { free(car) }
        finishedCars.removeAll(keepingCapacity: true)
        if rules.spawnsCars { spawnDueCars() }
    }

    func spawnDueCars() {
        for road in RoadID.allCases where time >= nextSpawn[road.rawValue] {
            if let last = carsOnRoad[road.rawValue].last, last.distance < rules.minimumGap { continue }
            spawnCar(on: road)
            nextSpawn[road.rawValue] = time + random.uniform(rules.spawnInterval)
        }
    }

    /// Removes a car that reached its road's end: its sprite, body and juggler go.
    func free(_ car: Car) {
        var list = carsOnRoad[car.road.rawValue]
        guard let index = list.firstIndex(where: { $0 === car }) else { return }
        list.remove(at: index)
        carsOnRoad[car.road.rawValue] = list
        carBySprite[ObjectIdentifier(car.sprite)] = nil
        car.juggler.removeAll()
        car.sprite.removeFromParent()
        emit(CarWorldEvent.carFreed, subject: car.id, value: Int32(car.road.rawValue))
    }

    /// A touch began at (x, y) stage points: the trophy starts a new round; otherwise the car
    /// under the finger (within `tapMargin` of its outline, the nearest if several) stops or
    /// starts.
    func tap(x: Double, y: Double) {
        let point = Point(x, y)
        if hasWon, trophy.visible, trophy.bounds(in: stage).contains(point) {
            newRound()
            return
        }
        let halfLength = Double(CarWorldArt.Region.carRed.width) / 2 + rules.tapMargin
        let halfWidth = Double(CarWorldArt.Region.carRed.height) / 2 + rules.tapMargin
        var best: Car?
        var bestDistance = Double.infinity
        for road in carsOnRoad {
            for car in road {
                let local = car.sprite.globalToLocal(point)
                guard abs(local.x) <= halfLength, abs(local.y) <= halfWidth else { continue }
                let d = (car.x - x) * (car.x - x) + (car.y - y) * (car.y - y)
                if d < bestDistance { best = car; bestDistance = d }
            }
        }
        guard let car = best else { return }
        car.juggler.isPaused.toggle()
        emit(car.isStopped ? CarWorldEvent.carStopped : CarWorldEvent.carStarted,
             subject: car.id, value: Int32(car.road.rawValue), x: car.x, y: car.y)
        emit(PlaygroundEvent.sound, subject: CarWorldSound.tap, x: car.x, y: car.y)
    }
}
