import ArgumentParser
import AudioCore
import Foundation

/// `quintet bench`: micro-benchmarks of hot paths, for docs/ figures.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time hot paths (the real FFT) and print the figures.",
        subcommands: [FFTBench.self]
    )

    struct FFTBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fft",
            abstract: "Time a real FFT (default 65,536 points): best and median of many runs.")
        @Option(help: "Points (a power of two).") var size = 65_536
        @Option(help: "Timed runs.") var runs = 200
        @Flag(help: "Print as JSON.") var json = false

        func validate() throws {
            guard size >= 2, FFT.isValidSize(size) else { throw ValidationError("--size must be a power of two ≥ 2") }
            guard (1...100_000).contains(runs) else { throw ValidationError("--runs must be between 1 and 100000") }
        }

        func run() throws {
            let fft = RealFFT(size: size)
            var generator = SplitMix64(seed: 42)
            let input = (0..<size).map { _ in Float(generator.nextUnit() * 2 - 1) }
            var checksum: Float = 0
            for _ in 0..<10 { checksum += fft.forward(input).real[1] } // warm-up
            var times = [Double]()
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                let spectrum = fft.forward(input)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
                checksum += spectrum.real[1]
            }
            times.sort()
            let result = FFTBenchResult(size: size, runs: runs, bestMicroseconds: times[0],
                                        medianMicroseconds: times[times.count / 2], checksum: Double(checksum))
            if json { try printJSON(result) } else {
                print(String(format: "real FFT, %d points: best %.1f µs, median %.1f µs (%d runs)",
                             size, result.bestMicroseconds, result.medianMicroseconds, runs))
            }
        }
    }
}

struct FFTBenchResult: Encodable {
    let size: Int
    let runs: Int
    let bestMicroseconds: Double
    let medianMicroseconds: Double
    let checksum: Double
}
