// The physics bench's exports (not part of the host protocol): the page-less side of
// `make bench-playground` and of the native-vs-wasm determinism test. They step the same
// Physics2D.BenchScene that `quintet playground bench` steps natively; the host times the
// calls and compares the hash with the native one.
import Physics2D

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
