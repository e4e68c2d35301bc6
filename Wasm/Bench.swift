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

// The CarWorld half: Playground.CarWorldBench (game 1, `carworld-crowded`, run by a Host of its
// own at the page's 60 Hz clock, every frame hashed), the same loop that
// `quintet playground bench carworld-crowded` runs natively: the two hashes agree when the
// builds draw the same frames bit for bit.

private nonisolated(unsafe) var gameBench: CarWorldBench?

/// Starts `carworld-crowded` from `seed` for the bench (replacing the previous one): 0.
@_expose(wasm, "pg_bench_game_start") @_cdecl("pg_bench_game_start")
public func pgBenchGameStart(_ seed: UInt32) -> Int32 {
    gameBench = CarWorldBench(seed: seed)
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
