import Testing
@testable import Playground

/// Game 1 of the host, `carworld-crowded`: the CarWorld that `make bench-playground` measures
/// with 50+ cars (docs/playground.md, "Figures"). The bench's warm-up is 2400 frames at the
/// page's 60 Hz clock (40 s of game); these tests hold the game to what the bench relies on.
@Suite struct CrowdedGameTests {
    /// Runs `count` frames at 16, 17, 17 ms… (the bench's clock, from frame `from` on); calls
    /// `each` after every frame with the host.
    static func frames(_ host: Host, from: Int = 0, _ count: Int, _ each: (Host) -> Void = { _ in }) {
        for i in from..<(from + count) {
            host.frame(milliseconds: Int32((i + 1) * 50 / 3 - i * 50 / 3))
            each(host)
        }
    }

    /// FNV-1a over every frame's draw list and event records, as the bench hashes them.
    static func hash(seed: UInt32, frames count: Int) -> UInt64 {
        let host = Host()
        host.start(game: 1, seed: seed)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        frames(host, count) { host in
            let draw = UnsafeRawBufferPointer(start: host.drawListPointer, count: Int(host.drawListSize))
            for b in draw { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            let events = UnsafeRawBufferPointer(start: host.eventsPointer, count: Int(host.eventsCount) * 20)
            for b in events { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        }
        return h
    }

    @Test func isGameOneWithTheCrowdedRules() throws {
        #expect(PlaygroundGames.index(of: "carworld-crowded") == 1)
        #expect(PlaygroundGames.index(of: "carworld") == 0)
        let host = Host()
        #expect(host.start(game: 1, seed: 5) == 0)
        let world = try #require(host.game as? CarWorld)
        #expect(world.rules.minimumGap == CarWorldRules.crowded.minimumGap)
        #expect(world.rules.spawnInterval == CarWorldRules.crowded.spawnInterval)
        #expect(host.start(game: 0, seed: 5) == 0)
        let plain = try #require(host.game as? CarWorld)
        #expect(plain.rules.minimumGap == CarWorldRules().minimumGap)
    }

    @Test(arguments: [UInt32(1), 2])
    func holdsFiftyCarsAfterTheWarmUp(seed: UInt32) throws {
        let host = Host()
        host.start(game: 1, seed: seed)
        Self.frames(host, 2400)
        let world = try #require(host.game as? CarWorld)
        #expect(world.time >= 40)
        var fewest = Int.max
        Self.frames(host, from: 2400, 600) { _ in fewest = min(fewest, world.cars.count) }
        #expect(fewest >= 50, "the bench times frames 2400… and needs 50 cars in each")
    }

    @Test func sameSeedSameFramesOtherSeedOthers() {
        let a = Self.hash(seed: 3, frames: 600), b = Self.hash(seed: 3, frames: 600)
        #expect(a == b)
        #expect(a != Self.hash(seed: 4, frames: 600))
    }

    @Test func theReplayToolRunsItByName() throws {
        var log = InputLog(game: "carworld-crowded", seed: 9)
        for _ in 0..<120 { log.items.append(.frame(milliseconds: 16)) }
        let result = try Replay.run(log)
        #expect(result.frames == 120)
        #expect(result.events.contains { $0.kind == CarWorldEvent.carSpawned })
    }
}
