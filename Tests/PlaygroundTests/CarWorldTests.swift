import Testing
import Stage
@testable import Playground

/// CarWorld's rules, played through the game's own inputs and frames. Most tests place their own
/// cars and hold the lights still (`spawnsCars`, `lightsCycle` off) so that one rule is seen at a
/// time; the long run and the light cycle use the real game.
@Suite struct CarWorldTests {
    /// A game whose cars and lights the test controls.
    func quietGame(seed: UInt32 = 1, target: Int = 10) -> CarWorld {
        var rules = CarWorldRules()
        rules.spawnsCars = false
        rules.lightsCycle = false
        rules.targetScore = target
        return CarWorld(seed: seed, rules: rules)
    }

    /// Runs `seconds` of frames of `ms` milliseconds; the events of all of them.
    @discardableResult
    func run(_ game: CarWorld, seconds: Double, ms: Int32 = 16, frame: inout UInt32) -> [PlaygroundEvent] {
        var all: [PlaygroundEvent] = []
        let frames = Int((seconds * 1000 / Double(ms)).rounded(.up))
        for _ in 0..<frames {
            frame += 1
            var events = PlaygroundEvents(frame: frame)
            game.advance(milliseconds: ms, events: &events)
            all += events.records
        }
        return all
    }

    @discardableResult
    func run(_ game: CarWorld, seconds: Double, ms: Int32 = 16) -> [PlaygroundEvent] {
        var frame: UInt32 = 0
        return run(game, seconds: seconds, ms: ms, frame: &frame)
    }

    /// A tap (began, then ended a frame later) at (x, y).
    func tap(_ game: CarWorld, x: Double, y: Double) -> [PlaygroundEvent] {
        game.input(.touch(0, .began, x: Float(x), y: Float(y)))
        var events = PlaygroundEvents(frame: 0)
        game.advance(milliseconds: 16, events: &events)
        game.input(.touch(0, .ended, x: Float(x), y: Float(y)))
        game.advance(milliseconds: 16, events: &events)
        return events.records
    }

    func kinds(_ events: [PlaygroundEvent], _ kind: UInt16) -> [PlaygroundEvent] { events.filter { $0.kind == kind } }

    /// The distance along `road` of the point nearest to `point` (0.25-point steps).
    func distance(along road: RoadID, to point: MapPoint, in game: CarWorld) -> Double {
        let path = game.paths[road.rawValue]
        var best = (distance: 0.0, gap: Double.infinity)
        var d = 0.0
        while d <= path.length {
            let p = path.point(atDistance: d)
            let gap = ((p.x - point.x) * (p.x - point.x) + (p.y - point.y) * (p.y - point.y)).squareRoot()
            if gap < best.gap { best = (d, gap) }
            d += 0.25
        }
        return best.distance
    }

    // The crossing of the second and vertical roads, (620, 520): sem2's, index 1.
    let lowCrossing = 1

    @Test func aCarEnteringOnGreenScoresAPoint() {
        let game = quietGame()
        game.setLight(1, to: .green)
        // 120 points before the box on the vertical road (which starts at y = -40).
        game.spawnCar(on: .vertical, distance: 520 + 40 - 120)
        let events = run(game, seconds: 4)
        #expect(game.score == 1)
        let points = kinds(events, CarWorldEvent.point)
        #expect(points.count == 1 && points.first?.subject == UInt16(lowCrossing))
        #expect(points.first?.x == 620 && points.first?.y == 520)
        #expect(kinds(events, PlaygroundEvent.sound).map(\.subject) == [CarWorldSound.point])
        #expect(kinds(events, CarWorldEvent.scoreChanged).map(\.value) == [1])
        #expect(kinds(events, CarWorldEvent.reset).isEmpty)
    }

    @Test func aCarEnteringOnRedResetsTheScore() {
        let game = quietGame()
        game.setScore(3)
        game.setLight(1, to: .red)
        let car = game.spawnCar(on: .vertical, distance: 440)
        #expect(kinds(run(game, seconds: 0.016), CarWorldEvent.scoreChanged).map(\.value) == [3])   // the set-up's
        let events = run(game, seconds: 4)
        #expect(game.score == 0)
        let resets = kinds(events, CarWorldEvent.reset)
        #expect(resets.count == 1)
        #expect(resets.first?.subject == CarWorldEvent.resetByRedLight && resets.first?.value == Int32(car.id))
        #expect(kinds(events, PlaygroundEvent.sound).map(\.subject) == [CarWorldSound.crash])
        #expect(kinds(events, CarWorldEvent.scoreChanged).map(\.value) == [0])
        #expect(kinds(events, CarWorldEvent.point).isEmpty)
    }

    @Test func yellowNeitherScoresNorResets() {
        let game = quietGame()
        game.setScore(2)
        game.setLight(1, to: .yellow)
        game.spawnCar(on: .vertical, distance: 440)
        let events = run(game, seconds: 4)
        #expect(game.score == 2)
        #expect(kinds(events, CarWorldEvent.point).isEmpty && kinds(events, CarWorldEvent.reset).isEmpty)
        #expect(game.cars.first!.y > 560)   // it did drive through
    }

    @Test func twoCarsTouchingResetTheScore() {
        let game = quietGame()
        game.setScore(2)
        game.setLight(1, to: .yellow)   // neutral: only the crash counts
        let crossing = MapPoint(620, 520)
        let onSecond = distance(along: .second, to: crossing, in: game)
        let onVertical = distance(along: .vertical, to: crossing, in: game)
        #expect(abs(onVertical - 560) < 0.5)
        let a = game.spawnCar(on: .second, distance: onSecond - 80)
        let b = game.spawnCar(on: .vertical, distance: onVertical - 80)
        let events = run(game, seconds: 3)
        #expect(game.score == 0)
        let crashes = kinds(events, CarWorldEvent.reset).filter { $0.subject == CarWorldEvent.resetByCrash }
        #expect(crashes.count == 1)
        #expect(crashes.first.map { [Int32(a.id), Int32(b.id)].contains($0.value) } == true)
        if let crash = crashes.first {
            // Between the two cars, which touch only inside the crossing's zone.
            let away = MapGeometry.distance(MapPoint(Double(crash.x), Double(crash.y)), crossing)
            #expect(away < CarWorldMap.crossingZoneRadius)
        }
        #expect(kinds(events, PlaygroundEvent.sound).map(\.subject) == [CarWorldSound.crash])
    }

    @Test func carsApartNeverCrash() {
        // The same two cars, one of them 3 s later: they pass the crossing one after the other.
        let game = quietGame()
        game.setLight(1, to: .yellow)
        let crossing = MapPoint(620, 520)
        game.spawnCar(on: .second, distance: distance(along: .second, to: crossing, in: game) - 80)
        game.spawnCar(on: .vertical, distance: distance(along: .vertical, to: crossing, in: game) - 200)
        let events = run(game, seconds: 6)
        #expect(kinds(events, CarWorldEvent.reset).isEmpty)
    }

    @Test func reachingTheTargetScoreWins() {
        let game = quietGame(target: 2)
        game.setLight(1, to: .green)
        game.spawnCar(on: .vertical, distance: 440)
        game.spawnCar(on: .vertical, distance: 300)
        let events = run(game, seconds: 6)
        #expect(game.score == 2 && game.hasWon)
        let won = kinds(events, CarWorldEvent.won)
        #expect(won.count == 1 && won.first?.value == 2)
        #expect(kinds(events, PlaygroundEvent.sound).map(\.subject) == [CarWorldSound.point, CarWorldSound.point, CarWorldSound.won])
        #expect(game.trophy.visible)

        // Won: a third car scores nothing; a tap on the trophy starts a new round at 0.
        game.spawnCar(on: .vertical, distance: 440)
        #expect(kinds(run(game, seconds: 4), CarWorldEvent.point).isEmpty && game.score == 2)
        let again = tap(game, x: CarWorldMap.width / 2, y: CarWorldMap.height / 2)
        #expect(kinds(again, CarWorldEvent.newRound).count == 1)
        #expect(game.score == 0 && !game.hasWon && !game.trophy.visible)
    }

    @Test func aStoppedCarStaysStoppedAndTheOneBehindWaits() {
        let game = quietGame()
        let front = game.spawnCar(on: .top, distance: 400)
        let behind = game.spawnCar(on: .top, distance: 250)
        run(game, seconds: 0.5)
        let (x, y) = (front.x, front.y)
        let stopped = tap(game, x: x + 3, y: y - 4)
        #expect(kinds(stopped, CarWorldEvent.carStopped).map(\.subject) == [front.id])
        #expect(kinds(stopped, PlaygroundEvent.sound).map(\.subject) == [CarWorldSound.tap])
        #expect(front.isStopped && front.juggler.isPaused)
        let stoppedAt = front.distance
        let events = run(game, seconds: 8)
        #expect(front.distance == stoppedAt && front.x == x && front.y == y)
        // The car behind drove up and waits exactly one gap behind: no crash on its road.
        #expect(abs((front.distance - behind.distance) - game.rules.minimumGap) < 1e-6)
        #expect(kinds(events, CarWorldEvent.reset).isEmpty)

        let started = tap(game, x: front.x, y: front.y)
        #expect(kinds(started, CarWorldEvent.carStarted).map(\.subject) == [front.id])
        run(game, seconds: 1)
        // It drove in both frames of the tap and the 63 frames after: 65 × 16 ms.
        #expect(!front.isStopped && abs(front.distance - stoppedAt - 65 * 0.016 * game.rules.carSpeed) < 1e-6)
        #expect(behind.distance > stoppedAt - game.rules.minimumGap)
    }

    @Test func aTapBesideEveryCarChangesNothing() {
        let game = quietGame()
        let car = game.spawnCar(on: .top, distance: 400)
        let events = tap(game, x: car.x, y: car.y + 60)
        #expect(kinds(events, CarWorldEvent.carStopped).isEmpty && !car.isStopped)
    }

    @Test func lightsCycleGreenYellowRedOnTheirTimes() {
        var rules = CarWorldRules()
        rules.spawnsCars = false
        let game = CarWorld(seed: 5, rules: rules)
        #expect((0..<4).map { game.lightState($0) } == [.red, .green, .red, .green])
        var frame: UInt32 = 0
        let events = run(game, seconds: 15, ms: 10, frame: &frame)
        // sem2 (index 1) starts green: yellow after 6 s, red 2 s later, green 6 s after that.
        let changes = kinds(events, CarWorldEvent.lightChanged).filter { $0.subject == 1 }
        #expect(changes.map(\.value) == [LightState.yellow.rawValue, LightState.red.rawValue, LightState.green.rawValue])
        #expect(changes.map(\.frame) == [600, 800, 1400])
        // sem1 (index 0) starts red: green after 6 s, yellow after 12 s, red after 14 s.
        let first = kinds(events, CarWorldEvent.lightChanged).filter { $0.subject == 0 }
        #expect(first.map(\.value) == [LightState.green.rawValue, LightState.yellow.rawValue, LightState.red.rawValue])
        #expect(first.map(\.frame) == [600, 1200, 1400])
        // Frames of another length change the lights in the first frame that reaches the time.
        let coarse = CarWorld(seed: 5, rules: rules)
        var coarseFrame: UInt32 = 0
        let coarseChanges = kinds(run(coarse, seconds: 15, ms: 70, frame: &coarseFrame), CarWorldEvent.lightChanged)
            .filter { $0.subject == 1 }.map(\.frame)
        #expect(coarseChanges == [86, 115, 200])   // 6020 ms, 8050 ms, 14000 ms
    }

    @Test func carsAreFreedAndTheirNumberStaysBounded() {
        // Ten minutes of the real game at 20 frames a second; every 20 s a tap stops the first
        // car on the map and 5 s later another starts it again.
        let game = CarWorld(seed: 11)
        var frame: UInt32 = 0
        var spawned = 0, freed = 0, mostCars = 0, mostObjects = 0, stops = 0, crashes = 0
        var stoppedCar: Car?
        for second in 0..<(10 * 60) {
            var events = run(game, seconds: 1, ms: 50, frame: &frame)
            if second % 20 == 0, let car = game.cars.first {
                events += tap(game, x: car.x, y: car.y)
                stoppedCar = car
            } else if second % 20 == 5, let car = stoppedCar {
                if game.cars.contains(where: { $0 === car }) { events += tap(game, x: car.x, y: car.y) }
                #expect(!car.isStopped)
                stoppedCar = nil
            }
            spawned += kinds(events, CarWorldEvent.carSpawned).count
            freed += kinds(events, CarWorldEvent.carFreed).count
            stops += kinds(events, CarWorldEvent.carStopped).count
            mostCars = max(mostCars, game.cars.count)
            mostObjects = max(mostObjects, game.liveObjects)
            // Cars touch only at crossings, even with queues behind stopped cars.
            for crash in kinds(events, CarWorldEvent.reset) where crash.subject == CarWorldEvent.resetByCrash {
                crashes += 1
                let at = MapPoint(Double(crash.x), Double(crash.y))
                #expect(CarWorldMap.crossings.contains { MapGeometry.distance($0.box, at) < CarWorldMap.crossingZoneRadius },
                        "a crash at \(at), away from every crossing")
            }
        }
        #expect(spawned > 150 && freed > 140 && stops >= 25 && crashes > 0)
        #expect(spawned - freed == game.cars.count)
        // At most one car per minimumGap of road, plus one (the roads are 1123, 1583 and 848 long).
        #expect(mostCars <= 12 + 16 + 9)
        // Cars, their bodies, the lights' boxes, the effects and their tweens: bounded too.
        #expect(mostObjects <= 2 * 37 + 4 + 40)
        #expect(game.physics.world.bodies.count == game.cars.count + 4)
    }

    @Test func theCrowdedRulesHoldFiftyCars() {
        let game = CarWorld(seed: 1, rules: .crowded)
        run(game, seconds: 45, ms: 50)
        #expect(game.cars.count >= 50)
        #expect(game.physics.world.bodies.count == game.cars.count + 4)
    }

    @Test func theSameSeedAndInputsGiveTheSameGame() {
        func play(_ seed: UInt32) -> ([PlaygroundEvent], [UInt8]) {
            let game = CarWorld(seed: seed)
            var frame: UInt32 = 0
            var all = run(game, seconds: 20, frame: &frame)
            // A tap on whatever car is first, then more frames.
            if let car = game.cars.first { all += tap(game, x: car.x, y: car.y) }
            all += run(game, seconds: 20, frame: &frame)
            return (all, game.drawList())
        }
        let (a, drawA) = play(42), (b, drawB) = play(42), (c, _) = play(43)
        #expect(a == b && drawA == drawB)
        #expect(a != c)
    }

    @Test func theDrawListShowsTheMapCarsAndLamps() {
        let game = quietGame()
        game.setLight(0, to: .yellow)
        game.spawnCar(on: .top, distance: 300)
        game.spawnCar(on: .second, distance: 300)
        run(game, seconds: 1)
        let bytes = game.drawList()
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        #expect(word(0) == 0x314C_4451 && Int(word(8)) == bytes.count)
        var regions: [UInt32] = []
        var texts: [String] = []
        var glyphs = ""
        let font = BitmapFont.round(atlas: CarWorldArt.fontAtlas)
        var glowTints: [UInt32] = []
        var at = 12
        for _ in 0..<word(4) {
            let op = word(at)
            let body = at + 4 + 7 * 4   // after op, the transform and alpha
            switch op {
            case 1: at = body + 2 * 4 + 4 * 4
            case 2 where word(body + 8) == CarWorldArt.fontAtlas:
                // A glyph of the score, in Quintet Round (spaces are not drawn).
                glyphs.append(Character(Unicode.Scalar(font.codePoints[Int(word(body + 12))])!))
                #expect(word(body + 16) == Color.rgb(0x8A5A2B))
                at = body + 5 * 4
            case 2:
                regions.append(word(body + 12))
                if word(body + 12) == CarWorldArt.Region.crossingGlow.rawValue { glowTints.append(word(body + 16)) }
                #expect(word(body + 8) == CarWorldArt.atlas)
                at = body + 5 * 4
            case 3:
                let n = Int(word(body + 20))
                texts.append(String(decoding: bytes[(body + 24)..<(body + 24 + n)], as: UTF8.self))
                at = body + 24 + (n + 3) / 4 * 4
            default:
                Issue.record("unknown op \(op)")
                return
            }
        }
        #expect(at == bytes.count)
        typealias R = CarWorldArt.Region
        #expect(regions.first == R.background.rawValue)
        #expect(regions.filter { CarWorldArt.cars.map(\.rawValue).contains($0) }.count == 2)
        #expect(regions.filter { $0 == R.lightPost.rawValue }.count == 4)
        #expect(regions.filter { $0 == R.crossingGlow.rawValue }.count == 4)
        // sem1 yellow, sem2 green, sem3 red, sem4 green: one lit lamp per light.
        #expect(regions.filter { $0 == R.lampYellow.rawValue }.count == 1)
        #expect(regions.filter { $0 == R.lampGreen.rawValue }.count == 2)
        #expect(regions.filter { $0 == R.lampRed.rawValue }.count == 1)
        #expect(!regions.contains(R.trophy.rawValue))
        // Each crossing glows in its light's colour (the lamps' colours, opaque).
        #expect(glowTints == [0xFFD5_4AFF, 0x6FDC_7AFF, 0xFF6B_6BFF, 0x6FDC_7AFF])
        #expect(glyphs == "0/10" && texts.isEmpty)
    }
}
