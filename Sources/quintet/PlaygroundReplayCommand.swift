import ArgumentParser
import Foundation
import Playground

extension PlaygroundCommand {
    /// `quintet playground replay GAME --inputs FILE [--json]`: a recorded session run natively
    /// through the same `Host` the wasm module uses; prints the events (docs/playground.md).
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a game natively from a recorded input log and print its events.",
            discussion: """
            GAME is one of: \(PlaygroundGames.names.joined(separator: ", ")). FILE is an input log
            (`quintet-playground-log 1`, as the page's recorder writes it; docs/playground.md, "Input
            log"); its `game` line must name GAME. The same log gives the same events here and in the
            browser. Prints each event (frame, kind, subject, value, x, y), then the frames and
            simulated time run and the live objects (the memory check of long runs: their count once
            per simulated minute, the largest, the last) and a hash of every frame's draw list (FNV-1a,
            64-bit, over the bytes in order). With --json, one JSON object.
            """
        )

        @Argument(help: "The game: \(PlaygroundGames.names.joined(separator: ", ")).") var game: String
        @Option(help: "The input log to replay (- for standard input).") var inputs: String
        @Flag(help: "Print one JSON object.") var json = false

        func validate() throws {
            if PlaygroundGames.index(of: game) == nil {
                throw ValidationError("unknown game \(game) (games: \(PlaygroundGames.names.joined(separator: ", ")))")
            }
        }

        func run() throws {
            let data: Data
            do {
                data = inputs == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                    : try Data(contentsOf: URL(fileURLWithPath: inputs))
            } catch {
                throw ValidationError("cannot read \(inputs): \(error.localizedDescription)")
            }
            guard data.count <= 256 << 20 else { throw ValidationError("\(inputs): larger than 256 MiB") }
            guard let text = String(data: data, encoding: .utf8) else { throw ValidationError("\(inputs): not UTF-8 text") }
            let log: InputLog
            do { log = try InputLog(parsing: text) } catch { throw ValidationError("\(inputs): \(error)") }
            guard log.game == game else { throw ValidationError("\(inputs) records \(log.game), not \(game)") }
            let result: ReplayResult
            do { result = try Playground.Replay.run(log) } catch { throw ValidationError("\(error)") }
            func number(_ f: Float) -> String { f.isFinite ? "\(f)" : "null" }
            if json {
                let events = result.events.map {
                    "{\"frame\": \($0.frame), \"kind\": \($0.kind), \"subject\": \($0.subject), \"value\": \($0.value), \"x\": \(number($0.x)), \"y\": \(number($0.y))}"
                }
                let perMinute = result.liveObjectsPerMinute.map(String.init).joined(separator: ", ")
                print("{\"game\": \(JSONValue.string(log.game).text), \"seed\": \(log.seed), \"frames\": \(result.frames), "
                      + "\"milliseconds\": \(result.milliseconds), \"events\": [\(events.joined(separator: ", "))], "
                      + "\"max_live_objects\": \(result.maxLiveObjects), \"final_live_objects\": \(result.finalLiveObjects), "
                      + "\"live_objects_per_minute\": [\(perMinute)], \"draw_list_hash\": \"\(hex16(result.drawListHash))\"}")
                return
            }
            for e in result.events {
                print("frame \(e.frame)  kind \(e.kind)  subject \(e.subject)  value \(e.value)  at \(number(e.x)), \(number(e.y))")
            }
            print("\(result.frames) frames, \(result.milliseconds) ms simulated, \(result.events.count) events")
            print("live objects: \(result.finalLiveObjects) at the end, \(result.maxLiveObjects) at most; per minute: "
                  + result.liveObjectsPerMinute.map(String.init).joined(separator: " "))
            print("draw lists: FNV-1a \(hex16(result.drawListHash))")
        }
    }
}

extension PlaygroundCommand {
    /// `quintet playground winlog GAME [--seed N] [--max-seconds S] [--extra-frames N]`: the game
    /// played by its scripted player to the win, printed as an input log (docs/playground.md,
    /// "Autopilots and win logs").
    struct WinLog: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "winlog",
            abstract: "Print an input log that wins GAME, played by the game's own scripted player.",
            discussion: """
            GAME is one of: \(PlaygroundGames.names.joined(separator: ", ")). The game starts from --seed and
            runs at the page's 60 Hz clock (frames of 16, 17, 17 ms); each frame, the game's autopilot
            reads the game's state and gives the touches or tilts a careful player would. The log ends
            with the frame of the win (event kind 3), plus --extra-frames; `quintet playground replay`
            and the page play it back to the same win. Fails (exit 1) when the game is not won within
            --max-seconds of game time.
            """
        )

        @Argument(help: "The game: \(PlaygroundGames.names.joined(separator: ", ")).") var game: String
        @Option(help: "The game's seed.") var seed: UInt32 = 1
        @Option(help: "Give up after this many seconds of game time (1–3600).") var maxSeconds = 600
        @Option(help: "Frames kept after the win (0–600).") var extraFrames = 0

        func validate() throws {
            if PlaygroundGames.index(of: game) == nil {
                throw ValidationError("unknown game \(game) (games: \(PlaygroundGames.names.joined(separator: ", ")))")
            }
            if !(1...3600).contains(maxSeconds) { throw ValidationError("--max-seconds must be 1–3600") }
            if !(0...600).contains(extraFrames) { throw ValidationError("--extra-frames must be 0–600") }
        }

        func run() throws {
            // 60 frames per second of game time (50 ms of the 16/17/17 cycle per 3 frames).
            let maxFrames = maxSeconds * 60
            guard let path = WinPath.play(game: game, seed: seed, maxFrames: maxFrames, extraFrames: extraFrames) else {
                throw ValidationError("unknown game \(game)")
            }
            guard let won = path.wonAtFrame else {
                FileHandle.standardError.write(Data("quintet playground winlog: \(game) from seed \(seed) was not won within \(maxSeconds) s of game time\n".utf8))
                throw ExitCode(1)
            }
            FileHandle.standardError.write(Data("\(game) seed \(seed): won at frame \(won) (\(path.milliseconds) ms of game time)\n".utf8))
            print(path.log.text, terminator: "")
        }
    }
}
