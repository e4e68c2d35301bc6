import ArgumentParser
import Foundation
import Physics2D
import Playground
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `quintet playground`: the playground's native tools (docs/playground.md).
struct PlaygroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Playground tools: replay a recorded game natively, print a game's win path, and the physics bench the wasm module is compared with.",
        subcommands: [Replay.self, WinLog.self, Bench.self]
    )

    /// `quintet playground bench SCENE [--steps N] [--warmup N] [--seed S] [--json]`: the same world the
    /// wasm module's `pg_bench_*` exports step (Physics2D.BenchScene, built in code), stepped
    /// natively; or, for SCENE `carworld-crowded`, the frames its `pg_bench_game_*` exports run.
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

            SCENE \(CarWorldBench.name) is CarWorld with 50+ cars (game 1 of the host, CarWorldRules.crowded,
            from --seed): --steps frames at the page's 60 Hz clock (16, 17, 17 ms…), CPU and wall
            time per frame of the frames after the warm-up, the fewest and most cars after any timed
            frame, and an FNV-1a hash of every frame's draw list and event records, which the wasm
            module's pg_bench_game_* exports must match.
            """
        )

        @Argument(help: "The scene: \((BenchScene.names + [CarWorldBench.name]).joined(separator: ", ")).") var scene: String
        @Option(help: "Steps to run (the hash is taken after all of them).") var steps = 300
        @Option(help: "Untimed steps first (0 when not fewer than --steps).") var warmup = 60
        @Option(help: "The game's seed (\(CarWorldBench.name) only).") var seed: UInt32 = 1
        @Flag(help: "Print one JSON object.") var json = false

        func validate() throws {
            if steps < 0 { throw ValidationError("--steps must be >= 0") }
            if warmup < 0 { throw ValidationError("--warmup must be >= 0") }
            if !BenchScene.names.contains(scene) && scene != CarWorldBench.name {
                throw ValidationError("unknown scene \(scene) (known: \((BenchScene.names + [CarWorldBench.name]).joined(separator: ", ")))")
            }
        }

        func run() throws {
            if scene == CarWorldBench.name { return runGame() }
            guard let bench = BenchScene.make(named: scene) else { throw ValidationError("unknown scene \(scene)") }
            let (warmup, timed, wall, cpu) = timedRun { bench.step($0) }
            let hashText = hex16(bench.stateHash)
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

extension PlaygroundCommand.Bench {
    /// The CarWorld half: `carworld-crowded` through a Host, as Wasm/Bench.swift runs it.
    func runGame() {
        let bench = CarWorldBench(seed: seed)
        let (warmup, timed, wall, cpu) = timedRun { bench.run($0) }
        let hashText = hex16(bench.hash)
        if json {
            let out: JSONValue = .object([
                ("scene", .string(CarWorldBench.name)),
                ("seed", .int(Int(seed))),
                ("steps", .int(steps)),
                ("warmup_steps", .int(warmup)),
                ("timed_steps", .int(timed)),
                ("milliseconds", .int(bench.world.elapsedMilliseconds)),
                ("fewest_cars", .int(bench.fewestCars)),
                ("most_cars", .int(bench.mostCars)),
                ("ms_per_step", .number(wall)),
                ("cpu_ms_per_step", .number(cpu)),
                ("hash", .string(hashText)),
            ])
            print(out.text)
            return
        }
        print("scene     \(CarWorldBench.name), seed \(seed): \(steps) frames (\(warmup) untimed), \(bench.world.elapsedMilliseconds) ms simulated")
        print("cars      \(bench.fewestCars)…\(bench.mostCars) after the timed frames")
        print(String(format: "ms/frame  %.4f wall, %.4f thread CPU (over %d frames)", wall, cpu, timed))
        print("hash      \(hashText)")
    }
}

extension PlaygroundCommand.Bench {
    /// `--warmup` untimed steps (none when not fewer than `--steps`), then the rest in one timed
    /// run: the counts, and wall and thread-CPU milliseconds per timed step (NaN for none).
    func timedRun(_ step: (Int) -> Void) -> (warmup: Int, timed: Int, wall: Double, cpu: Double) {
        let warmup = self.warmup < steps ? self.warmup : 0
        step(warmup)
        let timed = steps - warmup
        let c0 = clockMs(CLOCK_THREAD_CPUTIME_ID), t0 = clockMs(CLOCK_MONOTONIC)
        step(timed)
        let t1 = clockMs(CLOCK_MONOTONIC), c1 = clockMs(CLOCK_THREAD_CPUTIME_ID)
        guard timed > 0 else { return (warmup, 0, .nan, .nan) }
        return (warmup, timed, (t1 - t0) / Double(timed), (c1 - c0) / Double(timed))
    }
}

/// A 64-bit hash as 16 hex digits, as the page prints the wasm module's.
func hex16(_ v: UInt64) -> String {
    let h = String(v, radix: 16)
    return String(repeating: "0", count: 16 - h.count) + h
}

private func clockMs(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
}
