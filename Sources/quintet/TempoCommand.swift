import ArgumentParser
import Foundation
import Tempo

/// `quintet tempo`: the BPM of audio files.
struct TempoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tempo",
        abstract: "Estimate the tempo (BPM) of audio files (any format ffmpeg reads).",
        discussion: """
        With --json, prints one JSON object per file and line:
          {"file": …, "bpm": 128.02, "confidence": 0.83, "method": "default", "seconds": 0.41, "candidates": […]}
        "bpm" is null when the audio has no tempo (silence). A file that cannot be read gives
        {"file": …, "error": …} and the others go on; the exit status is 1 if any failed.
        """
    )

    @Argument(help: "Audio files.") var files: [String] = []
    @Option(name: .customLong("files-from"), help: ArgumentHelp("Read more paths from this file, one per line (- for standard input).", valueName: "list"))
    var filesFrom: String?
    @Option(help: "default (Quintet's estimator) or scheirer (the original app's, for reference).")
    var method: TempoMethod = .default
    @Flag(help: "Print JSON Lines.") var json = false
    @Option(help: "Files analysed in parallel (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard !files.isEmpty || filesFrom != nil else { throw ValidationError("give at least one audio file") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run() throws {
        let files = try self.files + readPathList(filesFrom)
        let analyzer = TempoAnalyzer(method: method)
        let progress = Progress(total: files.count, enabled: files.count >= 5)
        let printer = OrderedPrinter(count: files.count)
        let failures = WorkerPool.run(count: files.count, jobs: jobs) { index -> Bool in
            let path = files[index]
            let start = DispatchTime.now().uptimeNanoseconds
            let line: String
            var failed = false
            do {
                let estimate = try analyzer.estimate(fileAt: URL(fileURLWithPath: path))
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                line = json ? Self.jsonLine(TempoLine(file: path, bpm: estimate.bpm, confidence: estimate.confidence,
                                                      method: method.rawValue, seconds: seconds, candidates: estimate.candidates))
                    : Self.textLine(path, estimate)
            } catch {
                failed = true
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                line = json ? Self.jsonLine(TempoErrorLine(file: path, error: String(describing: error), method: method.rawValue, seconds: seconds))
                    : "\(path)\terror: \(error)"
            }
            printer.deliver(index, line)
            progress.advance()
            return failed
        }
        progress.finish()
        if failures > 0 {
            printError("\(failures) of \(files.count) files failed")
            throw ExitCode(1)
        }
    }

    static func textLine(_ path: String, _ estimate: TempoEstimate) -> String {
        guard let bpm = estimate.bpm else { return "\(path)\tno tempo" }
        return "\(path)\t" + String(format: "%.2f BPM (confidence %.2f)", bpm, estimate.confidence)
    }

    static func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }
}

struct TempoLine: Encodable {
    let file: String
    let bpm: Double?
    let confidence: Double
    let method: String
    let seconds: Double
    let candidates: [TempoEstimate.Candidate]

    enum CodingKeys: String, CodingKey { case file, bpm, confidence, method, seconds, candidates }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(bpm, forKey: .bpm) // null, not absent, for "no tempo"
        try c.encode(confidence, forKey: .confidence)
        try c.encode(method, forKey: .method)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(candidates, forKey: .candidates)
    }
}

struct TempoErrorLine: Encodable {
    let file: String
    let error: String
    let method: String
    let seconds: Double
}

extension TempoMethod: ExpressibleByArgument {}
