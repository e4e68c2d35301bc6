// Win logs (docs/playground.md, "Autopilots and win logs"): a game played by its own scripted
// player (`PlaygroundGame.autopilotInputs()`) from a seed, frame by frame at the page's 60 Hz
// clock, written down as an input log. The log is what `quintet playground winlog` prints and
// what tests feed the wasm module on the page: the documented win path of each game. Native only
// (the log's text needs the standard library's number printing).
#if !hasFeature(Embedded)

/// A game played to its win by its autopilot.
public struct WinPath: Sendable {
    /// The inputs and frames, from `pg_start` to the frame of the win (inclusive).
    public var log: InputLog
    /// The frame (from 1) whose events hold the win (kind 3), or nil if it never came.
    public var wonAtFrame: Int?
    /// Game milliseconds played.
    public var milliseconds: Int

    /// The frame times the page's clock gives at 60 Hz: 16, 17, 17 ms, again and again.
    public static let frameTimes: [Int32] = [16, 17, 17]
    /// The event kind every game uses for "won" (docs/playground.md).
    public static let wonKind: UInt16 = 3

    /// Plays game `name` from `seed` with only its autopilot's inputs until it is won or
    /// `maxFrames` have run; nil for an unknown game. `extraFrames` more frames after the win are
    /// kept in the log (to see the celebration).
    public static func play(game name: String, seed: UInt32, maxFrames: Int, extraFrames: Int = 0) -> WinPath? {
        guard let index = PlaygroundGames.index(of: name) else { return nil }
        let host = Host()
        guard host.start(game: index, seed: seed) == 0, let game = host.game else { return nil }
        var log = InputLog(game: name, seed: seed)
        var won: Int?
        var milliseconds = 0
        var frame = 0
        while frame < maxFrames {
            if won == nil {
                for input in game.autopilotInputs() {
                    host.input(input)
                    // What the host queued: touches on the 1/8-point grid.
                    var kept = input
                    if input.kind == .touch { kept.x = Host.eighth(input.x); kept.y = Host.eighth(input.y) }
                    log.items.append(.input(kept))
                }
            }
            let ms = frameTimes[frame % frameTimes.count]
            host.frame(milliseconds: ms)
            log.items.append(.frame(milliseconds: ms))
            frame += 1
            milliseconds += Int(ms)
            if won == nil, host.events.contains(where: { $0.kind == wonKind }) { won = frame }
            if let won, frame >= won + extraFrames { break }
        }
        return WinPath(log: log, wonAtFrame: won, milliseconds: milliseconds)
    }
}
#endif
