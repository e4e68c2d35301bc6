import Testing
@testable import Playground

/// Nothing a small child can do crashes or blocks a game (issue 23): 10,000 frames of random
/// touches (any id, any phase in any order, on and off the stage), tilts (up to ±3 g) and frame
/// times (0–100 ms, now and then more), for every game of the host and several seeds; the game's
/// live objects stay flat (the second half never holds much more than the first).
@Suite struct SoakTests {
    static let frames = 10_000

    struct Mix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func float(_ lo: Float, _ hi: Float) -> Float { lo + Float(next() >> 40) / Float(1 << 24) * (hi - lo) }
    }

    static let cases: [(String, UInt32)] = PlaygroundGames.names.flatMap { name -> [(String, UInt32)] in [(name, 1), (name, 2), (name, 3)] }

    @Test(arguments: cases)
    func randomInputNeverCrashesOrGrows(game name: String, seed: UInt32) throws {
        let host = Host()
        let index = try #require(PlaygroundGames.index(of: name))
        #expect(host.start(game: index, seed: seed) == 0)
        var mix = Mix(state: UInt64(seed) &* 7919 &+ UInt64(index))
        var firstHalf = 0, secondHalf = 0
        // Fingers a child might hold down: drags go on for a while.
        var held: [Int32: (Float, Float)] = [:]
        for frame in 0..<Self.frames {
            let burst = mix.below(10) == 0 ? 1 + mix.below(6) : (mix.below(3) == 0 ? 1 : 0)
            for _ in 0..<burst {
                switch mix.below(10) {
                case 0...5:
                    let id = Int32(mix.below(5))
                    let phase = Int32(mix.below(5))
                    var (x, y) = held[id] ?? (mix.float(-60, 1084), mix.float(-60, 828))
                    x += mix.float(-40, 40); y += mix.float(-40, 40)
                    if mix.below(50) == 0 { x = mix.below(2) == 0 ? 1e30 : -1e9 }
                    host.input(kind: 1, id: id, phase: phase, x: x, y: y, z: 0)
                    if phase == 3 || phase == 4 { held[id] = nil } else { held[id] = (x, y) }
                case 6...8:
                    host.input(kind: 2, id: 0, phase: 1, x: mix.float(-3, 3), y: mix.float(-3, 3), z: mix.float(-3, 3))
                default:
                    // Garbage a broken page might send: unknown kinds and phases, NaN.
                    host.input(kind: Int32(mix.below(5)) - 1, id: -1, phase: Int32(mix.below(9)) - 2,
                               x: mix.below(2) == 0 ? .nan : .infinity, y: 0, z: 0)
                }
            }
            let ms: Int32 = mix.below(40) == 0 ? Int32(mix.below(500)) : 14 + Int32(mix.below(6))
            host.frame(milliseconds: ms)
            let live = host.game?.liveObjects ?? 0
            if frame < Self.frames / 2 { firstHalf = max(firstHalf, live) } else { secondHalf = max(secondHalf, live) }
        }
        #expect(host.drawListSize > 12)
        #expect(secondHalf <= firstHalf + firstHalf / 4 + 8, "\(name) seed \(seed): live objects \(firstHalf) then \(secondHalf)")
    }
}
