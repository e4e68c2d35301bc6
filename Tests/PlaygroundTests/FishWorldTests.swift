import Foundation
import Testing
import Physics2D
import Stage
@testable import Playground

/// FishWorld's rules, played through the game's own inputs and frames, and through the host the
/// page and `quintet playground replay` use (docs/playground.md, "FishWorld").
@Suite struct FishWorldTests {
    /// The host's frame times at 60 Hz: 16, 17, 17 ms, again and again.
    static func frameTime(_ n: Int) -> Int32 { n % 3 == 0 ? 16 : 17 }

    /// Runs `frames` frames through `host`, the autopilot's inputs before each when `pilot` is
    /// given; every event.
    @discardableResult
    func run(_ host: Playground.Host, frames: Int, pilot game: FishWorld? = nil, from start: Int = 0,
             until stop: (([PlaygroundEvent]) -> Bool)? = nil) -> [PlaygroundEvent] {
        var all: [PlaygroundEvent] = []
        for n in start..<(start + frames) {
            if let game { for input in game.autopilotInputs() { host.input(input) } }
            host.frame(milliseconds: Self.frameTime(n))
            all += host.events
            if let stop, stop(host.events) { break }
        }
        return all
    }

    func fishGame(seed: UInt32) -> (Playground.Host, FishWorld) {
        let game = FishWorld(seed: seed)
        let host = Playground.Host()
        host.start(game)
        return (host, game)
    }

    func distance(_ f: Fish, _ p: FishWorldPoint) -> Double { ((f.x - p.x) * (f.x - p.x) + (f.y - p.y) * (f.y - p.y)).squareRoot() }

    @Test func isGameThreeOfTheHost() {
        #expect(PlaygroundGames.index(of: "fishworld") == 3)
        let host = Playground.Host()
        #expect(host.start(game: 3, seed: 1) == 0)
        #expect(host.game is FishWorld)
        #expect(host.stageWidth == 1024 && host.stageHeight == 768)
    }

    @Test func startsWithNineFreeFishAwayFromTheReefs() {
        for seed: UInt32 in 1...5 {
            let game = FishWorld(seed: seed)
            #expect(game.fish.count == 9)
            for colour in FishColour.allCases { #expect(game.fish.filter { $0.colour == colour }.count == 3) }
            for f in game.fish {
                #expect(f.isFree)
                for reef in game.rules.reefs { #expect(distance(f, reef) > game.rules.wrongReefRadius + 20) }
            }
        }
        // The seed places them.
        #expect(FishWorld(seed: 1).fish.map(\.x) != FishWorld(seed: 2).fish.map(\.x))
    }

    /// The documented win path: the autopilot (one finger leading each group to its reef in
    /// turn) wins every seed 1–5 within 3,600 frames (60 s of game at 60 Hz), with exactly one
    /// "won" event, nine "fish home" events (each fish once, in its own reef) and a home count
    /// that climbs 1…9.
    @Test(arguments: [UInt32(1), 2, 3, 4, 5])
    func theAutopilotWinsWithinAMinute(seed: UInt32) {
        let (host, game) = fishGame(seed: seed)
        let events = run(host, frames: 3600, pilot: game) { $0.contains { $0.kind == FishWorldEvent.won } }
        let won = events.filter { $0.kind == FishWorldEvent.won }
        #expect(won.count == 1 && won.first?.value == 9, "seed \(seed): no win in 60 s (\(game.homeCount) home)")
        #expect(game.hasWon && game.homeCount == 9)
        let home = events.filter { $0.kind == FishWorldEvent.fishHome }
        #expect(home.map(\.subject).sorted() == Array(0..<9).map(UInt16.init))
        for e in home {
            let f = game.fish[Int(e.subject)]
            #expect(Int(e.value) == f.colour.rawValue)
            let reef = game.rules.reefs[f.colour.rawValue]
            #expect(Double(e.x) == reef.x && Double(e.y) == reef.y)
        }
        #expect(events.filter { $0.kind == FishWorldEvent.homeCount }.map(\.value) == Array(1...9).map(Int32.init))
        #expect(events.contains { $0.kind == PlaygroundEvent.sound && $0.subject == FishWorldSound.won })
        // Settled fish stay home: two more seconds, still nine, each near its reef.
        run(host, frames: 120, pilot: game, from: 3600)
        #expect(game.homeCount == 9)
        for f in game.fish { #expect(distance(f, game.rules.reefs[f.colour.rawValue]) < game.rules.homeRadius) }
    }

    @Test func withoutATouchTheFishSchoolButStayInTheSeaAndAwayFromHome() {
        let (host, game) = fishGame(seed: 2)
        let starts = game.fish.map { ($0.x, $0.y) }
        run(host, frames: 600)
        // They swim (wander), stay inside the soft walls' reach, and the school holds together.
        #expect(zip(game.fish, starts).contains { f, s in abs(f.x - s.0) + abs(f.y - s.1) > 20 })
        for f in game.fish { #expect(f.x > 0 && f.x < 1024 && f.y > 40 && f.y < 768) }
    }

    @Test func tiltIsAGentleCurrent() {
        // The same seed twice, one with the device tipped to the right for 3 s: its fish drift right.
        let (calmHost, calm) = fishGame(seed: 6)
        let (tiltedHost, tilted) = fishGame(seed: 6)
        tiltedHost.input(.tilt(x: 1, y: 0, z: 0))
        run(calmHost, frames: 180)
        run(tiltedHost, frames: 180)
        let meanX = { (game: FishWorld) in game.fish.reduce(0.0) { $0 + $1.x } / Double(game.fish.count) }
        #expect(meanX(tilted) > meanX(calm) + 40)
        for f in tilted.fish { #expect(f.x < 1024) }
    }

    @Test func aFingerLuresTheGroupOfTheNearestFish() throws {
        let (host, game) = fishGame(seed: 3)
        run(host, frames: 30)
        let first = try #require(game.fish.first)
        let group = game.fish.filter { $0.colour == first.colour }
        let others = game.fish.filter { $0.colour != first.colour }
        let target = FishWorldPoint(512, 420)
        host.input(.touch(4, .began, x: Float(first.x), y: Float(first.y)))
        var events = run(host, frames: 1, from: 30)
        let lure = try #require(events.first { $0.kind == FishWorldEvent.lure })
        #expect(Int(lure.subject) == first.colour.rawValue && lure.value >= 1)
        #expect(events.contains { $0.kind == PlaygroundEvent.sound && $0.subject == FishWorldSound.dart })
        host.input(.touch(4, .moved, x: Float(target.x), y: Float(target.y)))
        events = run(host, frames: 240, from: 31)
        // The lured group is at the finger; the others did not follow.
        for f in group { #expect(distance(f, target) < 60, "fish \(f.index) did not follow") }
        #expect(others.contains { distance($0, target) > 100 })
        host.input(.touch(4, .ended, x: Float(target.x), y: Float(target.y)))
        run(host, frames: 5, from: 271)
        #expect(game.lures.isEmpty)
    }

    @Test func aFishLedToAReefOfAnotherColourIsPushedOutAndNeverSettlesThere() throws {
        let (host, game) = fishGame(seed: 4)
        let red = try #require(game.fish.first { $0.colour == .red })
        let yellowReef = game.rules.reefs[FishColour.yellow.rawValue]
        // Lead the red group into the yellow reef and hold it there for 3 s.
        host.input(.touch(2, .began, x: Float(red.x), y: Float(red.y)))
        var events = run(host, frames: 1)
        for step in 1...120 {
            let k = Double(step) / 120
            host.input(.touch(2, .moved, x: Float(red.x + (yellowReef.x - red.x) * k), y: Float(red.y + (yellowReef.y - red.y) * k)))
            events += run(host, frames: 1, from: step)
        }
        events += run(host, frames: 180, from: 121)
        #expect(events.contains { $0.kind == FishWorldEvent.wrongReef && $0.value == Int32(FishColour.yellow.rawValue) })
        #expect(events.contains { $0.kind == PlaygroundEvent.sound && $0.subject == FishWorldSound.wrongReef })
        #expect(!events.contains { $0.kind == FishWorldEvent.fishHome })
        // Let go: within 3 s no red fish is left inside the yellow reef.
        host.input(.touch(2, .ended, x: Float(yellowReef.x), y: Float(yellowReef.y)))
        run(host, frames: 180, from: 301)
        for f in game.fish where f.colour == .red {
            #expect(distance(f, yellowReef) > game.rules.homeRadius, "fish \(f.index) stays in the wrong reef")
            #expect(!f.isHome)
        }
    }

    @Test func aTouchAfterTheWinStartsANewRoundThatCanBeWonAgain() {
        let (host, game) = fishGame(seed: 1)
        var frame = 0
        var events = run(host, frames: 3600, pilot: game) { $0.contains { $0.kind == FishWorldEvent.won } }
        frame += 3600
        #expect(game.hasWon)
        // A touch during the happy animation does nothing; after it, a new round.
        host.input(.touch(1, .began, x: 512, y: 300))
        host.input(.touch(1, .ended, x: 512, y: 300))
        events = run(host, frames: 2, from: frame)
        #expect(game.hasWon && !events.contains { $0.kind == FishWorldEvent.newRound })
        run(host, frames: 120, from: frame + 2)
        host.input(.touch(1, .began, x: 512, y: 300))
        host.input(.touch(1, .ended, x: 512, y: 300))
        events = run(host, frames: 1, from: frame + 122)
        #expect(events.contains { $0.kind == FishWorldEvent.newRound })
        #expect(events.contains { $0.kind == FishWorldEvent.homeCount && $0.value == 0 })
        #expect(!game.hasWon && game.homeCount == 0)
        // The fish swim out of their reefs and do not settle again by themselves meanwhile.
        events = run(host, frames: 150, from: frame + 123)
        #expect(!events.contains { $0.kind == FishWorldEvent.fishHome })
        for f in game.fish { #expect(distance(f, game.rules.reefs[f.colour.rawValue]) > game.rules.homeRadius) }
        // And the autopilot wins the second round: one more "won", once.
        events = run(host, frames: 3600, pilot: game, from: frame + 273) { $0.contains { $0.kind == FishWorldEvent.won } }
        #expect(events.filter { $0.kind == FishWorldEvent.won }.count == 1)
    }

    @Test func theSameSeedAndInputsGiveTheSameGame() throws {
        func play() -> ([PlaygroundEvent], UInt64) {
            let (host, game) = fishGame(seed: 5)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var events: [PlaygroundEvent] = []
            for n in 0..<900 {
                for input in game.autopilotInputs() { host.input(input) }
                if n % 200 == 50 { host.input(.tilt(x: 0.3, y: -0.2, z: -0.9)) }
                host.frame(milliseconds: Self.frameTime(n))
                events += host.events
                let bytes = UnsafeRawBufferPointer(start: host.drawListPointer, count: Int(host.drawListSize))
                for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
            }
            return (events, hash)
        }
        let (a, hashA) = play()
        let (b, hashB) = play()
        #expect(!a.isEmpty && a == b && hashA == hashB)
    }

    /// Soak: 10,000 frames of random touches (taps, drags, several fingers) and tilts, seeds 1–3:
    /// no crash, every fish stays in the sea, and the live objects stay flat (the most in the
    /// second half at most the most in the first half plus a little).
    @Test(arguments: [UInt32(1), 2, 3])
    func tenThousandFramesOfRandomTouchesAndTilts(seed: UInt32) {
        let (host, game) = fishGame(seed: seed)
        var rng = FishSoakRandom(seed: UInt64(seed) &* 7919)
        var down: [Int32: (Float, Float)] = [:]
        var firstHalf = 0, secondHalf = 0
        for n in 0..<10_000 {
            let roll = rng.below(100)
            if roll < 3 {
                let id = Int32(rng.below(3))
                let x = Float(rng.below(1024)), y = Float(rng.below(768))
                if down[id] != nil {
                    host.input(.touch(id, rng.below(2) == 0 ? .ended : .cancelled, x: x, y: y))
                    down[id] = nil
                } else {
                    host.input(.touch(id, .began, x: x, y: y))
                    down[id] = (x, y)
                }
            } else if roll < 40 {
                for (id, p) in down.sorted(by: { $0.key < $1.key }) {
                    let q = (min(1100, max(-80, p.0 + Float(rng.below(41)) - 20)), min(850, max(-80, p.1 + Float(rng.below(41)) - 20)))
                    host.input(.touch(id, .moved, x: q.0, y: q.1))
                    down[id] = q
                }
            } else if roll < 42 {
                host.input(.tilt(x: Float(rng.below(201)) / 100 - 1, y: Float(rng.below(201)) / 100 - 1, z: -0.5))
            }
            host.frame(milliseconds: rng.below(10) == 0 ? Int32(rng.below(101)) : Self.frameTime(n))
            if n < 5000 { firstHalf = max(firstHalf, game.liveObjects) } else { secondHalf = max(secondHalf, game.liveObjects) }
            for f in game.fish {
                #expect(f.x > -30 && f.x < 1054 && f.y > -30 && f.y < 798, "fish \(f.index) left the sea at frame \(n)")
            }
        }
        #expect(secondHalf <= firstHalf + 4, "live objects grew: \(firstHalf) then \(secondHalf)")
        #expect(game.physics.world.bodies.count == 9 + 4)
    }

    @Test func everyRegionHasTheSizeTheGameUses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atlas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.file("scripts/build-atlas").path, "--out", folder.path, "fishworld"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let data = try Data(contentsOf: folder.appendingPathComponent("fishworld.json"))
        let index = try JSONDecoder().decode(AtlasTests.AtlasIndex.self, from: data)
        #expect(index.game == "fishworld" && index.image == "fishworld.png" && index.width <= 2048 && index.height <= 2048)
        #expect(index.regions.count == FishWorldArt.Region.allCases.count)
        for region in FishWorldArt.Region.allCases where Int(region.rawValue) < index.regions.count {
            let drawn = index.regions[Int(region.rawValue)]
            #expect(drawn.name == region.name)
            #expect(Float(drawn.w) / Float(index.scale) == region.width, "\(region.name) width")
            #expect(Float(drawn.h) / Float(index.scale) == region.height, "\(region.name) height")
        }
    }
}

/// The soak's own random numbers (SplitMix64), apart from the game's.
struct FishSoakRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
