import ArgumentParser
import Cadence
import Foundation

/// `quintet cadence`: the cadence timeline of an accelerometer log.
struct CadenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cadence",
        abstract: "Estimate the running or walking cadence (steps per minute) of an accelerometer log (CSV or JSON Lines).",
        discussion: """
        The log: CSV with or without a header (time,x,y,z; timestamp_ms,ax,ay,az; seconds_elapsed,x,y,z;
        Sensor Logger's time,seconds_elapsed,z,y,x …) or JSON Lines ({"t":…,"x":…,"y":…,"z":…}), in g or m/s².
        With --json, prints
          {"cadence": <median spm over the moving seconds, or null>,
           "timeline": [{"t": <s since the first sample>, "spm": <number or null>, "confidence": 0…1,
                         "state": "still"|"walking"|"running"}, …]}
        one timeline entry per second. A log that cannot be read exits with status 1 and names the line at fault.
        """
    )

    @Argument(help: "The log file (- for standard input).") var file: String
    @Option(help: "default (Quintet's estimator) or thesis (the original app's, for reference).")
    var method: CadenceMethod = .default
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                printError("error: cannot read \(file)")
                throw ExitCode(1)
            }
            data = contents
        }
        let samples: [AccelerationSample]
        do { samples = try SensorLog.parse(data) } catch {
            printError("error: \(file): \(error)")
            throw ExitCode(1)
        }
        let analysis = method.estimator.analyze(samples)
        if json {
            print(analysis.timelineJSON)
        } else {
            let moving = analysis.readings.filter { $0.spm != nil }.count
            if let cadence = analysis.medianCadence {
                print(String(format: "%@\t%.1f spm (median over %d moving of %d seconds), %d steps",
                             file, cadence, moving, analysis.readings.count, analysis.totalSteps))
            } else {
                print("\(file)\tno cadence (still for all \(analysis.readings.count) seconds)")
            }
        }
    }
}

extension CadenceMethod: ExpressibleByArgument {}
