import Foundation
import Testing
@testable import Playground

/// The sweater pile (docs/playground.md, "The sweater pile"): nine sweaters stand in a column,
/// the tenth topples the pile, "won" (kind 3) comes once for every count, touches make sweaters
/// hop without ever blocking the pile, memory stays flat, and a replay through `Host` is the same.
@Suite struct SweaterPileTests {
    /// Runs `game` for `frames` frames of 16/17/17 ms with `touches(frame)` given before each;
    /// every event, frames numbered from 1.
    @discardableResult
    static func run(_ game: SweaterPile, frames: Int, touches: (Int) -> [PlaygroundInput] = { _ in [] }) -> [PlaygroundEvent] {
        var all: [PlaygroundEvent] = []
        for f in 1...frames {
            for t in touches(f) { game.input(t) }
            var events = PlaygroundEvents(frame: UInt32(f))
            game.advance(milliseconds: f % 3 == 1 ? 16 : 17, events: &events)
            all += events.records
        }
        return all
    }

    /// Frames until the pile reports kind 3 (the documented budget: 20 s, 1,200 frames).
    static let budget = 1_200

    /// Sweaters that left the column: more than 100 points to its side, or below the shelf's top.
    static func scattered(_ game: SweaterPile) -> Int {
        game.positions.filter { abs($0.x - SweaterPile.column) > 100 || $0.y > SweaterPile.shelfTop }.count
    }

    @Test func aPileOfNineStandsInAColumnOnTheShelf() {
        let game = SweaterPile(seed: 9)
        let events = Self.run(game, frames: Self.budget)
        #expect(events.filter { $0.kind == SweaterPileEvent.won }.map(\.value) == [9])
        #expect(!game.hasToppled && events.allSatisfy { $0.kind != SweaterPileEvent.toppled })
        #expect(game.positions.count == 9)
        let h = SweaterPile.sweaterHeight
        // The bottom one lies on the shelf, each next one on the one below (a sweater's height
        // higher, less the contacts' skin and slop: under a point).
        #expect(abs(game.positions[0].y - (SweaterPile.shelfTop - h / 2)) < 1.5, "bottom at \(game.positions[0].y)")
        for (i, p) in game.positions.enumerated() {
            #expect(abs(p.x - SweaterPile.column) < 12, "sweater \(i) left the column: x \(p.x)")
            if i > 0 {
                let step = game.positions[i - 1].y - p.y
                #expect(step > h - 1.5 && step < h + 0.5, "sweater \(i) is \(step) points above the one below")
            }
            #expect(abs(game.sweaters[i].rotation) < 0.02, "sweater \(i) tilted \(game.sweaters[i].rotation)")
        }
        // All nine landed, one after another, each with its "plop".
        let landings = events.filter { $0.kind == SweaterPileEvent.landed }
        #expect(landings.map(\.value) == Array(1...9))
        #expect(landings.map(\.subject) == (0..<9).map { UInt16($0) })
        #expect(events.filter { $0.kind == PlaygroundEvent.sound && $0.subject == SweaterPileSound.plop }.count == 9)
    }

    @Test func theTenthSweaterTopplesThePile() {
        let game = SweaterPile(seed: 10)
        let events = Self.run(game, frames: Self.budget)
        #expect(game.hasToppled)
        let topple = events.filter { $0.kind == SweaterPileEvent.toppled }
        #expect(topple.count == 1 && topple.first?.value == 10)
        let won = events.filter { $0.kind == SweaterPileEvent.won }
        #expect(won.map(\.value) == [10])
        if let t = topple.first, let w = won.first { #expect(t.frame < w.frame, "the pile topples before it rests") }
        // Most sweaters end far from the column or down on the drawer's floor, all inside the drawer.
        #expect(Self.scattered(game) >= 6, "only \(Self.scattered(game)) sweaters left the column: \(game.positions)")
        #expect(game.positions.filter { $0.y > SweaterPile.shelfTop }.count >= 3, "nothing reached the floor")
        for p in game.positions {
            #expect(p.x > SweaterPile.wallLeft && p.x < SweaterPile.wallRight && p.y < SweaterPile.floorTop)
        }
        // Every time: a second pile of ten ends exactly the same way.
        let again = SweaterPile(seed: 10)
        Self.run(again, frames: Self.budget)
        #expect(again.positions.map(\.x) == game.positions.map(\.x) && again.positions.map(\.y) == game.positions.map(\.y))
    }

    @Test func wonComesOnceForEveryCountAndTheSeedIsClampedToTen() {
        for seed: UInt32 in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 500] {
            let game = SweaterPile(seed: seed)
            let events = Self.run(game, frames: Self.budget)
            let count = Int(min(seed, 10))
            #expect(game.count == count && game.sweaters.count == count, "seed \(seed)")
            let won = events.filter { $0.kind == SweaterPileEvent.won }
            #expect(won.count == 1 && won.first?.value == Int32(count), "seed \(seed): \(won)")
            #expect(game.landed.allSatisfy { $0 }, "seed \(seed): a sweater never landed")
            // Only the tenth topples.
            #expect(game.hasToppled == (count == 10), "seed \(seed)")
        }
    }

    @Test func aTouchedSweaterHopsAndSettlesAgain() {
        let game = SweaterPile(seed: 3)
        Self.run(game, frames: Self.budget)
        #expect(game.hasWon)
        let top = game.positions[2]
        // Tap the top sweater near its right end: it rises and turns a little (a wobble).
        game.input(.touch(1, .began, x: Float(top.x + 50), y: Float(top.y)))
        var events = PlaygroundEvents(frame: 1)
        game.advance(milliseconds: 16, events: &events)
        #expect(events.records.contains { $0.kind == PlaygroundEvent.sound && $0.subject == SweaterPileSound.boing })
        var highest = top.y, turned = 0.0
        for f in 0..<20 {
            var e = PlaygroundEvents(frame: UInt32(f + 2))
            game.advance(milliseconds: 17, events: &e)
            highest = min(highest, game.positions[2].y)
            turned = max(turned, abs(game.sweaters[2].rotation))
        }
        #expect(highest < top.y - 1, "the touched sweater did not rise (\(top.y) → \(highest))")
        #expect(turned > 0.005, "an off-centre touch makes it wobble")
        // A touch on the bare wall does nothing; won does not come twice; the pile settles back.
        game.input(.touch(1, .began, x: 900, y: 100))
        let later = Self.run(game, frames: 300)
        #expect(!later.contains { $0.kind == PlaygroundEvent.sound && $0.subject == SweaterPileSound.boing })
        #expect(!later.contains { $0.kind == SweaterPileEvent.won })
        #expect(abs(game.positions[2].x - top.x) < 12 && abs(game.positions[2].y - top.y) < 3)
    }

    @Test func theAutopilotDoesNothingAndThePileStillWins() {
        for seed: UInt32 in [0, 4, 10] {
            let host = Host()
            let game = SweaterPile(seed: seed)
            host.start(game)
            var wonAt: UInt32?
            for f in 0..<Self.budget where wonAt == nil {
                let inputs = game.autopilotInputs()
                #expect(inputs.isEmpty)
                for i in inputs { host.input(i) }
                host.frame(milliseconds: f % 3 == 0 ? 16 : 17)
                if let won = host.events.first(where: { $0.kind == 3 }) { wonAt = won.frame }
            }
            #expect(wonAt != nil, "seed \(seed): no kind 3 within \(Self.budget) frames")
        }
    }

    /// The generic soak: 10,000 frames of random touches (and tilts the pile ignores), seeds 1–3;
    /// no crash, and `liveObjects` flat (the second half's maximum at most the first half's + 2).
    @Test func tenThousandFramesOfRandomTouchesKeepMemoryFlat() {
        for seed: UInt32 in [1, 2, 3, 10] {
            let game = SweaterPile(seed: seed)
            var random = SeededRandom(seed: seed &+ 100)
            var firstHalf = 0, secondHalf = 0
            for f in 0..<10_000 {
                if random.below(4) == 0 {
                    let x = Float(random.uniform(0...1024)), y = Float(random.uniform(0...768))
                    let phase: PlaygroundInput.Phase = [.began, .moved, .ended, .cancelled][random.below(4)]
                    game.input(.touch(Int32(random.below(5)), phase, x: x, y: y))
                    // Aimed touches too: right on a sweater.
                    if !game.positions.isEmpty {
                        let p = game.positions[random.below(game.positions.count)]
                        game.input(.touch(9, .began, x: Float(p.x), y: Float(p.y)))
                    }
                }
                if random.below(50) == 0 { game.input(.tilt(x: 0.3, y: -0.8, z: 0.1)) }
                var events = PlaygroundEvents(frame: UInt32(f + 1))
                game.advance(milliseconds: Int32(random.below(40)), events: &events)
                _ = game.drawList()
                if f < 5_000 { firstHalf = max(firstHalf, game.liveObjects) } else { secondHalf = max(secondHalf, game.liveObjects) }
            }
            #expect(secondHalf <= firstHalf + 2, "seed \(seed): live objects grew \(firstHalf) → \(secondHalf)")
            #expect(game.hasWon, "seed \(seed): touches must never keep the pile from finishing")
            for p in game.positions {
                #expect(p.x > SweaterPile.wallLeft - 1 && p.x < SweaterPile.wallRight + 1 && p.y < SweaterPile.floorTop + 1,
                        "seed \(seed): a sweater left the drawer: \(p)")
            }
        }
    }

    @Test func aReplayThroughTheHostGivesTheSameFramesAndEvents() {
        func play() -> (events: [PlaygroundEvent], draws: [[UInt8]]) {
            let host = Host()
            #expect(host.start(game: PlaygroundGames.index(of: "sweaters") ?? -1, seed: 10) == 0)
            var events: [PlaygroundEvent] = [], draws: [[UInt8]] = []
            for f in 0..<900 {
                if f % 45 == 30 { host.input(kind: 1, id: 1, phase: 0, x: 395 + Float(f % 7) * 9, y: 500 - Float(f % 11) * 20, z: 0) }
                host.frame(milliseconds: f % 3 == 0 ? 16 : 17)
                events += host.events
                draws.append((0..<Int(host.drawListSize)).map { host.drawListPointer.load(fromByteOffset: $0, as: UInt8.self) })
            }
            return (events, draws)
        }
        let a = play(), b = play()
        #expect(a.events == b.events && a.draws == b.draws)
        #expect(a.events.contains { $0.kind == 3 } && a.events.contains { $0.kind == SweaterPileEvent.toppled })
        #expect(PlaygroundGames.names[4] == "sweaters" && PlaygroundGames.index(of: "sweaters") == 4)
    }

    @Test func theAtlasHasTheRegionsAndSizesOfTheArt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atlas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.file("scripts/build-atlas").path, "--out", folder.path, "sweaters"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("sweaters.json"))) as? [String: Any]
        let regions = index?["regions"] as? [[String: Any]] ?? []
        #expect(regions.count == SweatersArt.Region.allCases.count)
        for region in SweatersArt.Region.allCases where Int(region.rawValue) < regions.count {
            let r = regions[Int(region.rawValue)]
            #expect(r["name"] as? String == region.name)
            #expect(r["w"] as? Int == Int(region.width) * 2 && r["h"] as? Int == Int(region.height) * 2, "\(region.name)")
        }
    }
}
