import AudioCore
import Foundation

/// Signals and temporary files the tests generate in code (no committed binaries).
enum Fixtures {
    /// A sine of `frequency` Hz, `seconds` long, amplitude `amplitude`.
    static func sine(frequency: Double, seconds: Double, sampleRate: Double, amplitude: Double = 0.8) -> [Float] {
        let count = Int(seconds * sampleRate)
        return (0..<count).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// A fresh temporary folder, removed by the caller with `cleanup`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Frequency of a clean tone by counting rising zero crossings, interpolated linearly
    /// between samples: precise to far better than 0.1 Hz over a second of signal.
    static func toneFrequency(_ x: [Float], sampleRate: Double) -> Double {
        var crossings = [Double]()
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            let frac = Double(-x[i - 1]) / Double(x[i] - x[i - 1])
            crossings.append(Double(i - 1) + frac)
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / sampleRate)
    }

    /// Root mean square of a signal.
    static func rms(_ x: ArraySlice<Float>) -> Double {
        guard !x.isEmpty else { return 0 }
        return (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
    }

    /// Runs ffmpeg (found on the PATH) with arguments; throws with its error output on failure.
    static func ffmpeg(_ arguments: [String]) throws {
        try FFmpegDecoder().run(["-hide_banner", "-y"] + arguments)
    }
}
