import ArgumentParser
import AudioCore
import Cadence
import Foundation

extension Bench {
    struct CadenceBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cadence",
            abstract: "Time the cadence estimator on a synthetic accelerometer log (default 60 minutes at 100 Hz), and reading it as CSV.")
        @Option(help: "Minutes of log.") var minutes = 60.0
        @Option(help: "Sample rate, Hz.") var rate = 100.0
        @Option(help: "Timed runs (the best and the median are printed).") var runs = 5
        @Option(help: "default or thesis.") var method: CadenceMethod = .default
        @Flag(help: "Print as JSON.") var json = false
        @Option(help: ArgumentHelp("Also write the log as a CSV (seconds and g, 5 decimals, as phone apps write them), for timing `quintet cadence FILE` as a whole process.", valueName: "file"))
        var write: String?

        func validate() throws {
            guard minutes > 0 && minutes <= 600 else { throw ValidationError("--minutes must be in (0, 600]") }
            guard (20...1000).contains(rate) else { throw ValidationError("--rate must be between 20 and 1000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be between 1 and 100") }
        }

        func run() throws {
            let samples = Self.syntheticRun(seconds: minutes * 60, rate: rate)
            if let write {
                var text = "seconds_elapsed,x,y,z\n"
                text.reserveCapacity(samples.count * 40)
                for s in samples { text += String(format: "%.5f,%.5f,%.5f,%.5f\n", s.t, s.x, s.y, s.z) }
                do { try text.write(toFile: write, atomically: true, encoding: .utf8) } catch {
                    throw ValidationError("cannot write \(write): \(error.localizedDescription)")
                }
            }
            let estimator = method.estimator
            var steps = 0
            let (best, median) = timeRuns(runs) { steps = estimator.analyze(samples).totalSteps }
            let csv = "seconds_elapsed,x,y,z\n" + samples.map { "\($0.t),\($0.x),\($0.y),\($0.z)" }.joined(separator: "\n")
            let (parseBest, _) = timeRuns(1) { _ = try? SensorLog.parse(Data(csv.utf8)) }
            let result = CadenceBenchResult(samples: samples.count, seconds: minutes * 60, rate: rate, method: method.rawValue,
                                            bestSeconds: best, medianSeconds: median, csvParseSeconds: parseBest, steps: steps)
            if json { try printJSON(result) } else {
                print(String(format: "cadence (%@), %.0f min at %.0f Hz (%d samples): best %.3f s, median %.3f s; reading it as CSV: %.3f s; %d steps",
                             method.rawValue, minutes, rate, samples.count, best, median, parseBest, steps))
            }
        }

        /// A run at 165–175 spm: a bounce and a heel-strike spike per step, jitter, noise, gravity tilted.
        static func syntheticRun(seconds: Double, rate: Double) -> [AccelerationSample] {
            var rng = SplitMix64(seed: 5)
            var samples = [AccelerationSample]()
            samples.reserveCapacity(Int(seconds * rate) + 1)
            var t = 0.0, phase = 0.0
            while t < seconds {
                let spm = 170 + 5 * sin(2 * Double.pi * t / 300)
                let step = phase - phase.rounded(.down)
                let vertical = 0.8 * cos(2 * Double.pi * step) + 1.5 * exp(-pow((step - 0.05) / 0.04, 2))
                let noise = { 0.02 * (rng.nextUnit() * 2 - 1) }
                samples.append(AccelerationSample(t: t, x: 0.6 * (1 + vertical) + noise(), y: 0.8 * (1 + vertical) + noise(), z: noise()))
                let dt = (1 + 0.2 * (rng.nextUnit() * 2 - 1)) / rate
                t += dt
                phase += dt * spm / 60
            }
            return samples
        }
    }
}

struct CadenceBenchResult: Encodable {
    let samples: Int
    let seconds: Double
    let rate: Double
    let method: String
    let bestSeconds: Double
    let medianSeconds: Double
    let csvParseSeconds: Double
    let steps: Int
}
