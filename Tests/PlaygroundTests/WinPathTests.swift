import Testing
@testable import Playground

/// Each game's documented win path (docs/playground.md, "Autopilots and win logs"): the game
/// played by its own scripted player wins within its budget, and the win log it writes replays
/// to the same win through the host, as `quintet playground replay` and the page run it.
@Suite struct WinPathTests {
    /// Frames the autopilot may take per game (60 per second of game time).
    static let budgets: [String: Int] = ["carworld": 90 * 60, "shipworld": 45 * 60, "fishworld": 60 * 60, "sweaters": 20 * 60]

    /// Every game of the story has a win log, and the log replays to the same win.
    @Test(arguments: [("shipworld", UInt32(1)), ("shipworld", 7), ("fishworld", 1), ("fishworld", 7), ("sweaters", 10), ("sweaters", 3)])
    func everyGamesWinLogReplaysToTheWin(game: String, seed: UInt32) throws {
        let budget = try #require(Self.budgets[game])
        let path = try #require(WinPath.play(game: game, seed: seed, maxFrames: budget))
        let won = try #require(path.wonAtFrame, "\(game) seed \(seed): not won in \(budget) frames")
        let replay = try Replay.run(InputLog(parsing: path.log.text))
        let wins = replay.events.filter { $0.kind == WinPath.wonKind }
        #expect(wins.count == 1 && wins.first?.frame == UInt32(won))
        #expect(replay.frames == won)
    }

    @Test(arguments: [UInt32(1), 2, 3, 4, 5])
    func carWorldsAutopilotWins(seed: UInt32) throws {
        let path = try #require(WinPath.play(game: "carworld", seed: seed, maxFrames: Self.budgets["carworld"]!))
        let won = try #require(path.wonAtFrame, "seed \(seed): not won in \(Self.budgets["carworld"]!) frames")
        // A win by the rules: ten points in a row, the last reset (if any) before them.
        let replay = try Replay.run(InputLog(parsing: path.log.text))
        let points = replay.events.filter { $0.kind == CarWorldEvent.point }
        let resets = replay.events.filter { $0.kind == CarWorldEvent.reset }
        #expect(points.count >= 10)
        let wins = replay.events.filter { $0.kind == WinPath.wonKind }
        #expect(wins.count == 1 && wins.first?.frame == UInt32(won) && wins.first?.value == 10)
        // The careful player runs no red light and causes no crash.
        #expect(resets.isEmpty, "seed \(seed): \(resets.count) resets")
        #expect(replay.frames == won)
        // It did something: cars were stopped and started again.
        #expect(replay.events.contains { $0.kind == CarWorldEvent.carStopped })
    }

    @Test func theWinLogIsTheSameEachTime() throws {
        let a = try #require(WinPath.play(game: "carworld", seed: 9, maxFrames: 3000))
        let b = try #require(WinPath.play(game: "carworld", seed: 9, maxFrames: 3000))
        #expect(a.log == b.log && a.log.text == b.log.text)
        #expect(WinPath.play(game: "no-such-game", seed: 1, maxFrames: 10) == nil)
    }

    @Test func extraFramesComeAfterTheWin() throws {
        let path = try #require(WinPath.play(game: "carworld", seed: 2, maxFrames: Self.budgets["carworld"]!, extraFrames: 30))
        let won = try #require(path.wonAtFrame)
        let frames = path.log.items.filter { if case .frame = $0 { true } else { false } }.count
        #expect(frames == won + 30)
    }
}

extension WinPath: Equatable {
    public static func == (a: WinPath, b: WinPath) -> Bool {
        a.log == b.log && a.wonAtFrame == b.wonAtFrame && a.milliseconds == b.milliseconds
    }
}
