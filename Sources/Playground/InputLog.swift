// The input log (docs/playground.md, "Input log"): what the page records and
// `quintet playground replay` plays back. Parsing needs the standard library's text-to-number
// conversions, which Embedded Swift lacks, so this file is native only; the page parses the
// same format in JavaScript and feeds the module through its exports.
#if !hasFeature(Embedded)

/// A recorded session: which game, its seed, and the inputs and frames in order.
public struct InputLog: Equatable, Sendable {
    public enum Item: Equatable, Sendable {
        case input(PlaygroundInput)
        case frame(milliseconds: Int32)
    }

    public var game: String
    public var seed: UInt32
    public var items: [Item]

    public init(game: String, seed: UInt32, items: [Item] = []) {
        self.game = game; self.seed = seed; self.items = items
    }

    /// Why a log was refused: the line (1-based) and what is wrong with it.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The longest log accepted (lines), so a hostile file cannot exhaust memory: an hour at 60 fps
    /// with a few inputs per frame.
    public static let maxLines = 2_000_000

    public init(parsing text: String) throws(ParseError) {
        var game: String?, seed: UInt32?
        var items: [Item] = []
        var sawHeader = false
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if number > Self.maxLines { throw ParseError(line: number, message: "more than \(Self.maxLines) lines") }
            var line = raw
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let head = words.first else { continue }
            func fail(_ message: String) -> ParseError { ParseError(line: number, message: message) }
            if !sawHeader {
                guard head == "quintet-playground-log" else { throw fail("not a playground input log (the first line must be `quintet-playground-log 1`)") }
                guard words.count == 2, words[1] == "1" else { throw fail("unknown log version \(words.dropFirst().joined(separator: " "))") }
                sawHeader = true
                continue
            }
            func float(_ i: Int) throws(ParseError) -> Float {
                guard i < words.count, let v = Float(words[i]), v.isFinite else {
                    throw fail("`\(head)` needs a finite number in field \(i + 1)")
                }
                return v
            }
            func int(_ i: Int) throws(ParseError) -> Int32 {
                guard i < words.count, let v = Int32(words[i]) else { throw fail("`\(head)` needs a whole number in field \(i + 1)") }
                return v
            }
            switch head {
            case "game":
                guard words.count == 2 else { throw fail("`game` takes one name") }
                game = String(words[1])
            case "seed":
                guard words.count == 2, let v = UInt32(words[1]) else { throw fail("`seed` takes a whole number 0…4294967295") }
                seed = v
            case "t":
                guard words.count == 5 else { throw fail("`t` takes: touch id, phase (0–4), x, y") }
                let id = try int(1), phaseNumber = try int(2)
                guard let phase = PlaygroundInput.Phase(rawValue: phaseNumber) else { throw fail("touch phase \(phaseNumber) is not 0–4") }
                items.append(.input(.touch(id, phase, x: try float(3), y: try float(4))))
            case "a":
                guard words.count == 4 else { throw fail("`a` takes: x, y, z") }
                items.append(.input(.tilt(x: try float(1), y: try float(2), z: try float(3))))
            case "f":
                guard words.count == 2 else { throw fail("`f` takes the frame's milliseconds") }
                let ms = try int(1)
                guard ms >= 0 && ms <= 100 else { throw fail("a frame of \(ms) ms (0–100)") }
                items.append(.frame(milliseconds: ms))
            default:
                throw fail("unknown line `\(head)` (expected game, seed, t, a or f)")
            }
        }
        guard sawHeader else { throw ParseError(line: max(number, 1), message: "empty log") }
        guard let game else { throw ParseError(line: number, message: "no `game` line") }
        self.init(game: game, seed: seed ?? 1, items: items)
    }

    /// The log as text, the format `init(parsing:)` reads.
    public var text: String {
        var out = "quintet-playground-log 1\ngame \(game)\nseed \(seed)\n"
        for item in items {
            switch item {
            case .frame(let ms): out += "f \(ms)\n"
            case .input(let i) where i.kind == .touch: out += "t \(i.id) \(i.phase.rawValue) \(i.x) \(i.y)\n"
            case .input(let i): out += "a \(i.x) \(i.y) \(i.z)\n"
            }
        }
        return out
    }
}

/// What a replay saw: every event, the frames run, and the live-object count over time.
public struct ReplayResult: Sendable {
    public var events: [PlaygroundEvent] = []
    public var frames: Int = 0
    /// Simulated milliseconds.
    public var milliseconds: Int = 0
    public var maxLiveObjects = 0
    public var finalLiveObjects = 0
    /// Live objects sampled once per simulated minute (the memory check of long runs).
    public var liveObjectsPerMinute: [Int] = []
}

public enum Replay {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unknownGame(String)
        public var description: String {
            switch self {
            case .unknownGame(let name):
                "unknown game \(name) (games: \(PlaygroundGames.names.joined(separator: ", ")))"
            }
        }
    }

    /// Runs `log` through a fresh `Host`, as the page would.
    public static func run(_ log: InputLog) throws(Failure) -> ReplayResult {
        guard let index = PlaygroundGames.index(of: log.game) else { throw .unknownGame(log.game) }
        let host = Host()
        guard host.start(game: index, seed: log.seed) == 0 else { throw .unknownGame(log.game) }
        return run(log.items, on: host)
    }

    /// Runs items on a started host (tests use it with their own games).
    public static func run(_ items: [InputLog.Item], on host: Host) -> ReplayResult {
        var result = ReplayResult()
        var nextMinute = 60_000
        for item in items {
            switch item {
            case .input(let input):
                host.input(input)
            case .frame(let ms):
                host.frame(milliseconds: ms)
                result.frames += 1
                result.milliseconds += Int(ms)
                result.events += host.events
                let live = host.game?.liveObjects ?? 0
                result.maxLiveObjects = max(result.maxLiveObjects, live)
                result.finalLiveObjects = live
                while result.milliseconds >= nextMinute {
                    result.liveObjectsPerMinute.append(live)
                    nextMinute += 60_000
                }
            }
        }
        return result
    }
}
#endif
