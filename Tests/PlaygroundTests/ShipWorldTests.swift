import Foundation
import Testing
import Physics2D
@testable import Playground

/// ShipWorld (docs/playground.md, "ShipWorld"): the river, the steering, the bumps, the win, the
/// scripted player and a long random soak, all through `Host` with frames of 16, 17, 17 ms.
@Suite struct ShipWorldTests {
    /// The page's clock: 16, 17, 17 ms…
    static func ms(_ i: Int) -> Int32 { Int32((i + 1) * 50 / 3 - i * 50 / 3) }

    static func start(_ seed: UInt32) throws -> (Playground.Host, ShipWorld) {
        let host = Playground.Host()
        #expect(host.start(game: 2, seed: seed) == 0)
        return (host, try #require(host.game as? ShipWorld))
    }

    /// Runs frames until `stop` says so or `limit` frames; each frame's events go to `each`.
    @discardableResult
    static func run(_ host: Playground.Host, from: Int = 0, frames limit: Int, inputs: (Int) -> [PlaygroundInput] = { _ in [] },
                    each: ([PlaygroundEvent]) -> Void = { _ in }, until stop: () -> Bool = { false }) -> Int {
        var i = from
        while i < from + limit {
            for input in inputs(i) { host.input(input) }
            host.frame(milliseconds: ms(i))
            each(host.events)
            i += 1
            if stop() { break }
        }
        return i - from
    }

    static func speed(_ game: ShipWorld) -> Double { game.boat.body.linearVelocity.length * ShipWorld.pointsPerMeter }

    @Test func isGameTwoNamedShipworld() throws {
        #expect(PlaygroundGames.index(of: "shipworld") == 2)
        #expect(PlaygroundGames.names[2] == "shipworld")
        let (host, game) = try Self.start(1)
        #expect(host.stageWidth == 1024 && host.stageHeight == 768)
        #expect((Vec2(game.boat.x, game.boat.y) - ShipRiver.start).length < 0.001)
    }

    /// The autopilot wins every seed within 45 s of game time (2700 frames); "won" comes once.
    @Test(arguments: [UInt32(1), 2, 3, 4, 5])
    func theAutopilotReachesTheHarbour(seed: UInt32) throws {
        let (host, game) = try Self.start(seed)
        var won: [PlaygroundEvent] = []
        let frames = Self.run(host, frames: 2700, inputs: { _ in game.autopilotInputs() },
                              each: { won += $0.filter { $0.kind == ShipWorldEvent.won } }, until: { game.hasWon })
        print("seed \(seed) frames \(frames) bumps \(game.bumps)")
        #expect(game.hasWon, "seed \(seed): not in the harbour after 45 s (progress \(game.progress) of \(game.river.length))")
        Self.run(host, from: frames, frames: 120, inputs: { _ in game.autopilotInputs() },
                 each: { won += $0.filter { $0.kind == ShipWorldEvent.won } })
        #expect(won.count == 1 && won.first?.value == 1)
    }

    /// The river is one band `halfWidth` wide everywhere: every bank point is `halfWidth` (± 3: the
    /// sampled normals) from the centre line (no bend pinches it, no two reaches overlap), and it lies on the stage.
    @Test func theRiverIsABandOfItsHalfWidthOnTheStage() {
        let river = ShipRiver()
        for p in river.left + river.right {
            let d = river.nearest(p).distance
            #expect(abs(d - ShipRiver.halfWidth) < 3, "a bank point \(p) is \(d) points from the centre line")
            #expect(p.y > 0 && p.y < 768 && p.x > -80 && p.x < 1104)
        }
        // Reaches that are far apart along the river stay apart on the map: land between them.
        for i in stride(from: 0, to: river.centre.count, by: 3) {
            for j in stride(from: i, to: river.centre.count, by: 3) where river.along[j] - river.along[i] > 500 {
                #expect((river.centre[i] - river.centre[j]).length > 2 * ShipRiver.halfWidth + 40)
            }
        }
        #expect(river.nearest(ShipRiver.start).distance < 5 && river.nearest(ShipRiver.dock).distance < 5)
        #expect(river.length > 2500)
    }

    /// With no input at all the current carries the boat downstream (slowly: it would take
    /// minutes to arrive), and the game never ends on its own.
    @Test func theCurrentCarriesTheBoatDownstream() throws {
        let (host, game) = try Self.start(1)
        Self.run(host, frames: 600)
        let after10s = game.progress
        #expect(after10s > 100, "the current did not move the boat: \(after10s)")
        #expect(after10s < 600, "without steering the trip is slow")
        #expect(!game.hasWon)
    }

    /// Tilt follows a ball on the screen: the right edge lowered (x < 0) pushes right, the top
    /// edge lowered (y < 0) pushes up; the first reading is level (how the child holds it).
    @Test func tiltSteersLikeABallRollingDownhill() throws {
        let (host, game) = try Self.start(1)
        host.input(.tilt(x: 0, y: 0.5, z: 0.866))   // held up at 30°: level for this game
        Self.run(host, frames: 1)
        #expect(game.steering == Vec2.zero)
        host.input(.tilt(x: -0.4, y: 0.5, z: 0.82))  // and then tipped to the right
        Self.run(host, frames: 1)
        #expect(game.steering.x > 0.39 && abs(game.steering.y) < 1e-9)
        host.input(.tilt(x: 0, y: 0.2, z: 0.98))     // top edge lowered
        Self.run(host, frames: 1)
        #expect(game.steering.y < -0.29 && abs(game.steering.x) < 1e-9)
        // Steering right for a second moves the boat right much faster than the current alone.
        let (quiet, drifting) = try Self.start(1)
        Self.run(quiet, frames: 60)
        let (tilted, steered) = try Self.start(1)
        Self.run(tilted, frames: 60, inputs: { $0 == 0 ? [.tilt(x: 0, y: 0, z: 1)] : $0 == 1 ? [.tilt(x: -0.5, y: 0, z: 0.866)] : [] })
        #expect(steered.boat.x - ShipRiver.start.x > 2 * (drifting.boat.x - ShipRiver.start.x) + 30)
    }

    /// A finger held on the stage pulls the boat toward it (a child without a sensor).
    @Test func aHeldTouchPullsTheBoatTowardIt() throws {
        let (host, game) = try Self.start(2)
        Self.run(host, frames: 90, inputs: { $0 == 0 ? [.touch(1, .began, x: 300, y: 112)] : [] })
        #expect(game.boat.x > 180, "the boat did not follow the finger: \(game.boat.x)")
        let y = game.boat.y
        Self.run(host, from: 90, frames: 60, inputs: { $0 == 90 ? [.touch(1, .ended, x: 300, y: 112)] : [] })
        #expect(game.steering == Vec2.zero && abs(game.boat.y - y) < 60)
    }

    /// Steering hard into the bank bumps it: a bump event (subject 0), a sound, a splash, the
    /// boat slowed to half; the game goes on and the boat can still reach the harbour.
    @Test func bumpingTheBankSlowsTheBoatAndNothingElse() throws {
        let (host, game) = try Self.start(3)
        var bumps: [PlaygroundEvent] = [], sounds: [PlaygroundEvent] = []
        var before = 0.0, after = 0.0
        var i = 0
        host.input(.tilt(x: 0, y: 0, z: 1))
        host.frame(milliseconds: 16)
        host.input(.tilt(x: 0, y: -0.6, z: 0.8))   // straight up, into the top bank
        while i < 300 && bumps.isEmpty {
            before = Self.speed(game)
            host.frame(milliseconds: Self.ms(i))
            bumps = host.events.filter { $0.kind == ShipWorldEvent.bump }
            sounds = host.events.filter { $0.kind == PlaygroundEvent.sound }
            after = Self.speed(game)
            i += 1
        }
        let bump = try #require(bumps.first, "no bump against the bank in 5 s")
        #expect(bump.subject == 0 && bump.value == 1 && bump.y < 60)
        #expect(sounds.map(\.subject) == [ShipWorld.Sound.bump.rawValue])
        #expect(after < 0.75 * before, "the bump did not slow the boat: \(before) → \(after)")
        #expect(game.liveObjects > 0 && !game.hasWon)
        // And on: the autopilot still brings it home.
        Self.run(host, from: i, frames: 2700, inputs: { _ in game.autopilotInputs() }, until: { game.hasWon })
        #expect(game.hasWon)
    }

    /// The documented win path: level, steer down the river (the current helps), bumps along the
    /// way only slow it, the harbour wins (event 3, the bell, the star), the boat stays moored
    /// while other touches do nothing, a touch on the harbour starts a new trip from the start.
    @Test func winPathHarbourThenATouchStartsAgain() throws {
        let (host, game) = try Self.start(1)
        var events: [PlaygroundEvent] = []
        let frames = Self.run(host, frames: 2700, inputs: { _ in game.autopilotInputs() }, each: { events += $0 },
                              until: { game.hasWon })
        #expect(game.hasWon)
        let won = try #require(events.last(where: { $0.kind == ShipWorldEvent.won }))
        #expect(won.value == 1)
        #expect(events.contains { $0.kind == PlaygroundEvent.sound && $0.subject == ShipWorld.Sound.won.rawValue && $0.frame == won.frame })
        #expect((Vec2(game.boat.x, game.boat.y) - ShipRiver.dock).length < ShipRiver.dockRadius)
        let positions = events.filter { $0.kind == ShipWorldEvent.boat }
        #expect(positions.count >= frames / 16 - 1, "a boat position every 250 ms")
        // Progress along the river grows over the trip (each 5 s more than the last).
        let steps = stride(from: 0, to: positions.count, by: 20).map { positions[$0].value }
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 }, "\(steps)")
        // Moored: a second later it is still in the harbour; a touch on the water does nothing.
        Self.run(host, from: frames, frames: 60, inputs: { $0 == frames ? [.touch(1, .began, x: 300, y: 112), .touch(1, .ended, x: 300, y: 112)] : [] })
        #expect(game.hasWon && (Vec2(game.boat.x, game.boat.y) - ShipRiver.dock).length < ShipRiver.dockRadius)
        var again: [PlaygroundEvent] = []
        Self.run(host, from: frames + 60, frames: 2, inputs: { $0 == frames + 60 ? [.touch(2, .began, x: 930, y: 600)] : [] },
                 each: { again += $0 })
        #expect(again.contains { $0.kind == ShipWorldEvent.newRound })
        #expect(!game.hasWon && game.bumps == 0 && (Vec2(game.boat.x, game.boat.y) - ShipRiver.start).length < 5)
    }

    /// Same seed and inputs, same frames; another seed floats its obstacles elsewhere.
    @Test func isDeterministicFromItsSeed() throws {
        func hash(_ seed: UInt32) throws -> UInt64 {
            let (host, game) = try Self.start(seed)
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            Self.run(host, frames: 900, inputs: { _ in game.autopilotInputs() }, each: { events in
                let draw = UnsafeRawBufferPointer(start: host.drawListPointer, count: Int(host.drawListSize))
                for b in draw { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
                for e in events { h = (h ^ UInt64(e.kind) ^ UInt64(UInt32(bitPattern: e.value)) << 16) &* 0x0000_0100_0000_01b3 }
            })
            return h
        }
        #expect(try hash(4) == hash(4))
        #expect(try hash(4) != hash(5))
        let a = try Self.start(4).1, b = try Self.start(5).1
        #expect(a.obstacles.map(\.anchor) != b.obstacles.map(\.anchor))
        #expect(a.obstacles.count == ShipWorld.obstacleCount)
    }

    /// The soak: 10,000 frames of random touches and tilts (seeds 1–3): no crash, and the live
    /// objects stay flat (the second half's most at most the first half's plus 4).
    @Test(arguments: [UInt32(1), 2, 3])
    func soakOfRandomTouchesAndTilts(seed: UInt32) throws {
        let (host, game) = try Self.start(seed)
        var rng = SeededRandom(seed: seed &+ 1000)
        var firstHalf = 0, secondHalf = 0
        var down = false
        Self.run(host, frames: 10_000, inputs: { i in
            var inputs: [PlaygroundInput] = []
            if rng.below(20) == 0 {
                let x = Float(rng.uniform(0...1024)), y = Float(rng.uniform(0...768))
                inputs.append(.touch(1, down ? .ended : .began, x: x, y: y))
                down.toggle()
            } else if down && rng.below(4) == 0 {
                inputs.append(.touch(1, .moved, x: Float(rng.uniform(0...1024)), y: Float(rng.uniform(0...768))))
            }
            if rng.below(10) == 0 {
                inputs.append(.tilt(x: Float(rng.uniform(-1...1)), y: Float(rng.uniform(-1...1)), z: Float(rng.uniform(-1...1))))
            }
            if i % 2000 == 1999 { inputs.append(.touch(2, .began, x: 915, y: 626)); inputs.append(.touch(2, .ended, x: 915, y: 626)) }
            return inputs
        }, each: { _ in
            if host.frame <= 5000 { firstHalf = max(firstHalf, game.liveObjects) } else { secondHalf = max(secondHalf, game.liveObjects) }
        })
        #expect(host.frame == 10_000)
        #expect(secondHalf <= firstHalf + 4, "live objects grew: \(firstHalf) → \(secondHalf)")
        let p = Vec2(game.boat.x, game.boat.y)
        #expect(p.x.isFinite && p.y.isFinite && game.river.nearest(p).distance < ShipRiver.halfWidth + 10, "the boat left the river: \(p)")
    }

    /// scripts/build-atlas draws ShipWorld's atlas with a region per SVG, named and sized as
    /// ArtShipWorld.swift says.
    @Test func theAtlasHasTheRegionsOfArtShipWorld() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atlas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.file("scripts/build-atlas").path, "--out", folder.path, "shipworld"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let index = try JSONDecoder().decode(AtlasTests.AtlasIndex.self,
                                             from: Data(contentsOf: folder.appendingPathComponent("shipworld.json")))
        #expect(index.regions.map(\.name) == ShipWorldArt.Region.allCases.map(\.name))
        for region in ShipWorldArt.Region.allCases {
            let drawn = index.regions[Int(region.rawValue)]
            #expect(drawn.w == Int(region.width) * index.scale && drawn.h == Int(region.height) * index.scale, "\(region.name)")
        }
    }
}
