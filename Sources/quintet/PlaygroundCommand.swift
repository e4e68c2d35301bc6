import ArgumentParser
import Foundation
import Physics2D
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `quintet playground`: the playground's native tools (docs/playground.md).
struct PlaygroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Playground tools: the physics bench that the wasm module is compared with.",
        subcommands: [Bench.self]
    )

    /// `quintet playground bench SCENE [--steps N] [--warmup N] [--json]`: the same world the wasm
    /// module's `pg_bench_*` exports step (Physics2D.BenchScene, built in code), stepped natively.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Step a benchmark scene natively: ms per step and the state hash wasm must match.",
            discussion: """
            Builds SCENE (\(BenchScene.names.joined(separator: ", "))) without the JSON loader, as the
            wasm module does, steps it --steps times at 1/60 s, and prints the wall and thread CPU
            time per step of the steps after the warm-up (one timed run of them, as the browser
            times the module) and a 64-bit hash of every body's position and angle after all the
            steps (BenchScene.stateHash): the same hash from the wasm module means bit-identical
            physics. With --json, one JSON object.
            """
        )

        @Argument(help: "The scene: \(BenchScene.names.joined(separator: ", ")).") var scene: String
        @Option(help: "Steps to run (the hash is taken after all of them).") var steps = 300
        @Option(help: "Untimed steps first (0 when not fewer than --steps).") var warmup = 60
        @Flag(help: "Print one JSON object.") var json = false

        func validate() throws {
            if steps < 0 { throw ValidationError("--steps must be >= 0") }
            if warmup < 0 { throw ValidationError("--warmup must be >= 0") }
            if !BenchScene.names.contains(scene) {
                throw ValidationError("unknown scene \(scene) (known: \(BenchScene.names.joined(separator: ", ")))")
            }
        }

        func run() throws {
            guard let bench = BenchScene.make(named: scene) else { throw ValidationError("unknown scene \(scene)") }
            let warmup = self.warmup < steps ? self.warmup : 0
            bench.step(warmup)
            let timed = steps - warmup
            let c0 = clockMs(CLOCK_THREAD_CPUTIME_ID), t0 = clockMs(CLOCK_MONOTONIC)
            bench.step(timed)
            let t1 = clockMs(CLOCK_MONOTONIC), c1 = clockMs(CLOCK_THREAD_CPUTIME_ID)
            let hash = String(bench.stateHash, radix: 16)
            let hashText = String(repeating: "0", count: 16 - hash.count) + hash
            let wall = timed == 0 ? Double.nan : (t1 - t0) / Double(timed)
            let cpu = timed == 0 ? Double.nan : (c1 - c0) / Double(timed)
            if json {
                let out: JSONValue = .object([
                    ("scene", .string(bench.name)),
                    ("bodies", .int(bench.bodies.count)),
                    ("steps", .int(steps)),
                    ("warmup_steps", .int(warmup)),
                    ("timed_steps", .int(timed)),
                    ("ms_per_step", .number(wall)),
                    ("cpu_ms_per_step", .number(cpu)),
                    ("hash", .string(hashText)),
                ])
                print(out.text)
                return
            }
            print("scene     \(bench.name): \(bench.bodies.count) bodies, \(steps) steps (\(warmup) untimed)")
            print(String(format: "ms/step   %.4f wall, %.4f thread CPU (over %d steps)", wall, cpu, timed))
            print("hash      \(hashText)")
        }
    }
}

private func clockMs(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
}
