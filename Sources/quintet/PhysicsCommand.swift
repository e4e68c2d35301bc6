import ArgumentParser
import Foundation
import Physics2D
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `quintet physics`: the Physics2D engine's command-line tools.
struct PhysicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "physics",
        abstract: "Physics2D tools: run a benchmark scene (../shared/physics-bench/SCENES.md).",
        subcommands: [Run.self]
    )

    /// `quintet physics run SCENE.json [--steps N] [--warmup N] [--json]`: the runner contract of SCENES.md.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a physics-scene/1 file and print timing and stability figures.",
            discussion: """
            Times every step on its own (monotonic clock and thread CPU time); statistics
            leave out the warm-up steps. With --json, prints one JSON object (the runner
            contract of SCENES.md) on the last line.
            """
        )

        @Argument(help: "The scene file (physics-scene/1 JSON).") var scene: String
        @Option(help: "Override the scene's step count.") var steps: Int?
        @Option(help: "Override the scene's warm-up step count.") var warmup: Int?
        @Flag(help: "Print one JSON object on the last line.") var json = false
        @Option(help: "The contact solver: soft-step (Box2D v3's structure, the default; docs/physics.md) or legacy (Box2D 2.x structure, what the games' replay logs were recorded with).")
        var solver: SolverChoice = .softStep
        @Option(help: "Sub-steps per step of the soft-step solver (Box2D v3's default, 4; the legacy solver ignores it).")
        var substeps: Int = 4
        @Option(name: .customLong("contact-hertz"), help: "The soft step's contact spring frequency in Hz (Box2D v3's default, 30; capped at a quarter of the sub-step rate). Stiff stacks of unequal masses want more, with more --substeps (docs/physics.md). The legacy solver ignores it.")
        var contactHertz: Double = PhysicsSettings.contactHertz
        @Option(help: "Threads solving the soft step's contacts (1-64; the caller and N-1 workers; the same results for any N). Not with --solver legacy.")
        var workers: Int = 1

        enum SolverChoice: String, ExpressibleByArgument, CaseIterable {
            case legacy
            case softStep = "soft-step"
        }

        func validate() throws {
            if substeps < 1 || substeps > 64 { throw ValidationError("--substeps must be between 1 and 64") }
            if workers < 1 || workers > 64 { throw ValidationError("--workers must be between 1 and 64") }
            if !(contactHertz > 0 && contactHertz <= 10_000) { throw ValidationError("--contact-hertz must be above 0 and at most 10000") }
            if workers > 1 && solver != .softStep {
                throw ValidationError("--workers needs the soft-step solver (the legacy solver runs on one thread)")
            }
            if let steps, steps < 0 { throw ValidationError("--steps must be >= 0") }
            if let warmup, warmup < 0 { throw ValidationError("--warmup must be >= 0") }
        }

        func run() throws {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: scene)) } catch {
                throw ValidationError("cannot open \(scene)")
            }
            let sc = try Scene(json: data)
            let steps = self.steps ?? sc.steps
            var warmup = self.warmup ?? sc.warmupSteps
            if warmup >= steps { warmup = 0 }

            let buildStart = monotonicMs()
            let (world, bodies) = sc.makeWorld(workers: workers)
            switch solver {
            case .softStep:
                world.solverKind = .softStep
                world.softSubSteps = substeps
                world.contactHertz = contactHertz
            case .legacy:
                world.solverKind = .legacy
            }
            let buildMs = monotonicMs() - buildStart
            var begins = 0
            world.onBeginContact = { _ in begins += 1 }
            let tracked = bodies.filter { $0.type == .dynamic }
            let initial = tracked.map(BodyState.init)
            var settled: [BodyState]?

            var stepMs: [Double] = []
            stepMs.reserveCapacity(steps)
            var cpuMeasured = 0.0
            let totalStart = monotonicMs()
            for i in 0..<steps {
                let c0 = threadCpuMs()
                let t0 = monotonicMs()
                world.step(sc.dt)
                let t1 = monotonicMs()
                let c1 = threadCpuMs()
                stepMs.append(t1 - t0)
                if i >= warmup { cpuMeasured += c1 - c0 }
                if i + 1 == sc.settleSteps { settled = tracked.map(BodyState.init) }
            }
            let totalMs = monotonicMs() - totalStart
            let final = tracked.map(BodyState.init)

            let measured = Array(stepMs[min(warmup, stepMs.count)...]).sorted()
            let n = measured.count
            let mean = n == 0 ? Double.nan : measured.reduce(0, +) / Double(n)
            func pct(_ p: Double) -> Double {
                guard n > 0 else { return .nan }
                let k = min(max(Int((p / 100 * Double(n)).rounded(.up)), 1), n)
                return measured[k - 1]
            }
            let cpuMean = n == 0 ? Double.nan : cpuMeasured / Double(n)
            let stability = StabilityMetrics.compute(scene: sc, steps: steps, initial: initial,
                                                     settled: settled, final: final, contactBegins: begins)
            let hertz = world.effectiveContactHertz(step: sc.dt)
            let hertzText = hertz == hertz.rounded() ? String(Int(hertz)) : String(format: "%.1f", hertz)
            let solverText = solver == .softStep
                ? "Box2D v3 structure (soft step): \(workers) thread\(workers == 1 ? "" : "s"), \(substeps) sub-steps of soft contacts (\(hertzText) Hz, damping ratio \(Int(PhysicsSettings.contactDampingRatio))) with relaxation, restitution after the sub-steps; scene iterations not used"
                : "Box2D 2.x structure: \(sc.velocityIterations) velocity iterations (sequential impulses, warm starting, 2-point block solver) + \(sc.positionIterations) position iterations (NGS), 1 sub-step, scene iterations used as given"
            let out: JSONValue = .object([
                ("engine", .string("quintet-physics2d")),
                ("engine_version", .string("0.1")),
                ("engine_detail", .string("Quintet Physics2D 0.1 (Swift, Double precision, dynamic AABB tree)")),
                ("scene", .string(sc.name)),
                ("bodies", .int(bodies.count)),
                ("steps", .int(steps)),
                ("warmup_steps", .int(warmup)),
                ("dt", .number(sc.dt)),
                ("velocity_iterations", .int(sc.velocityIterations)),
                ("position_iterations", .int(sc.positionIterations)),
                ("solver", .string(solverText)),
                ("build_ms", .number(buildMs)),
                ("total_wall_ms", .number(totalMs)),
                ("ms_per_step", .object([
                    ("mean", .number(mean)), ("p50", .number(pct(50))), ("p95", .number(pct(95))),
                    ("min", n == 0 ? .null : .number(measured[0])), ("max", n == 0 ? .null : .number(measured[n - 1])),
                    ("n", .int(n)),
                ])),
                ("cpu_ms_per_step_mean", .number(cpuMean)),
                ("stability", stability.json),
            ])
            if json {
                print(out.text)
                return
            }
            print("engine      Quintet Physics2D 0.1")
            print("scene       \(sc.name): \(bodies.count) bodies, \(steps) steps, dt \(String(format: "%.6f", sc.dt)) s, warm-up \(warmup); solver: \(solverText)")
            print(String(format: "ms/step     mean %.4f  p50 %.4f  p95 %.4f  (min %.4f, max %.4f, n=%d)",
                         mean, pct(50), pct(95), n == 0 ? .nan : measured[0], n == 0 ? .nan : measured[n - 1], n))
            print(String(format: "cpu/step    mean %.4f ms (thread CPU time, measured steps)", cpuMean))
            print(String(format: "total wall  %.1f ms for %d steps (scene build %.1f ms)", totalMs, steps, buildMs))
            print("stability   \(stability.text.isEmpty ? "(no metric for this scene)" : stability.text)")
        }
    }
}

private func monotonicMs() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
}

private func threadCpuMs() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
}
