// The physics bench's exports (not part of the host protocol): the page-less side of
// `make bench-playground` and of the native-vs-wasm determinism test. They step the same
// Physics2D.BenchScene that `quintet playground bench` steps natively; the host times the
// calls and compares the hash with the native one.
import Physics2D
import Playground

private nonisolated(unsafe) var benchScene: BenchScene?

/// Builds bench scene `scene` (0 = pyramid20, 1 = pyramid40), replacing the previous one:
/// its number of bodies, or -1 for an unknown scene. (By number, not name: comparing strings
/// would link Unicode tables into the module for nothing.)
@_expose(wasm, "pg_bench_start") @_cdecl("pg_bench_start")
public func pgBenchStart(_ scene: Int32) -> Int32 {
    switch scene {
    case 0: benchScene = BenchScene.pyramid(rows: 20)
    case 1: benchScene = BenchScene.pyramid(rows: 40)
    default: benchScene = nil; return -1
    }
    return Int32(benchScene?.bodies.count ?? -1)
}

/// Steps the bench scene `count` times at its fixed 1/60 s (nothing without a scene).
@_expose(wasm, "pg_bench_step") @_cdecl("pg_bench_step")
public func pgBenchStep(_ count: Int32) {
    benchScene?.step(Int(count))
}

/// BenchScene.stateHash of the bench scene (a BigInt in JavaScript; 0 without a scene).
@_expose(wasm, "pg_bench_hash") @_cdecl("pg_bench_hash")
public func pgBenchHash() -> UInt64 {
    benchScene?.stateHash ?? 0
}

// The CarWorld half: game 1 of the host (`carworld-crowded`, CarWorld with
// CarWorldRules.crowded) run by a Host of its own, frame after frame at the page's 60 Hz clock
// (16, 17, 17 ms…), each frame's draw list and event records folded into an FNV-1a hash.
// `quintet playground bench carworld-crowded` runs the same loop natively (PlaygroundCommand.swift,
// GameBench): the two hashes agree when the builds draw the same frames bit for bit.
private final class GameBench {
    let host = Host()
    let world: CarWorld
    var frames = 0
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var fewestCars = 0
    var mostCars = 0

    init(seed: UInt32) {
        world = CarWorld(seed: seed, rules: .crowded)
        host.start(world)
    }

    func run(_ count: Int) {
        fewestCars = Int.max
        mostCars = 0
        var h = hash
        for _ in 0..<count {
            host.frame(milliseconds: Int32((frames + 1) * 50 / 3 - frames * 50 / 3))
            frames += 1
            let draw = UnsafeRawBufferPointer(start: host.drawListPointer, count: Int(host.drawListSize))
            for b in draw { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            let events = UnsafeRawBufferPointer(start: host.eventsPointer, count: Int(host.eventsCount) * 20)
            for b in events { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            let cars = world.cars.count
            fewestCars = min(fewestCars, cars)
            mostCars = max(mostCars, cars)
        }
        hash = h
        if count <= 0 { fewestCars = world.cars.count; mostCars = fewestCars }
    }
}

private nonisolated(unsafe) var gameBench: GameBench?

/// Starts `carworld-crowded` from `seed` for the bench (replacing the previous one): 0.
@_expose(wasm, "pg_bench_game_start") @_cdecl("pg_bench_game_start")
public func pgBenchGameStart(_ seed: UInt32) -> Int32 {
    gameBench = GameBench(seed: seed)
    return 0
}

/// Runs `count` frames of the bench game, hashing each frame's draw list and events.
@_expose(wasm, "pg_bench_game_frames") @_cdecl("pg_bench_game_frames")
public func pgBenchGameFrames(_ count: Int32) {
    gameBench?.run(Int(count))
}

/// The hash of every frame's draw list and events so far (0 without a game).
@_expose(wasm, "pg_bench_game_hash") @_cdecl("pg_bench_game_hash")
public func pgBenchGameHash() -> UInt64 {
    gameBench?.hash ?? 0
}

/// The fewest cars on the map after any frame of the last `pg_bench_game_frames` call (-1 without a game).
@_expose(wasm, "pg_bench_game_fewest_cars") @_cdecl("pg_bench_game_fewest_cars")
public func pgBenchGameFewestCars() -> Int32 {
    Int32(gameBench?.fewestCars ?? -1)
}

/// The most cars on the map after any frame of the last `pg_bench_game_frames` call (-1 without a game).
@_expose(wasm, "pg_bench_game_most_cars") @_cdecl("pg_bench_game_most_cars")
public func pgBenchGameMostCars() -> Int32 {
    Int32(gameBench?.mostCars ?? -1)
}
