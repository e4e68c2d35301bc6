import Testing
@testable import Playground

/// CarWorld through the host and an input log, as `quintet playground replay` and the page run
/// it: a recorded tap stops the car it was aimed at, and the log gives the same events each time.
@Suite struct CarWorldReplayTests {
    /// A log of `before` frames of 16 ms, a tap at (x, y) (began, a frame, ended), `after` frames.
    func log(seed: UInt32, before: Int, x: Float, y: Float, after: Int) -> String {
        var lines = ["quintet-playground-log 1", "game carworld", "seed \(seed)"]
        lines += Array(repeating: "f 16", count: before)
        lines += ["t 0 0 \(x) \(y)", "f 16", "t 0 3 \(x) \(y)"]
        lines += Array(repeating: "f 16", count: after)
        return lines.joined(separator: "\n") + "\n"
    }

    func replay(_ text: String, seed: UInt32) throws -> (ReplayResult, CarWorld) {
        let parsed = try InputLog(parsing: text)
        let game = CarWorld(seed: seed)
        let host = Host()
        host.start(game)
        return (Replay.run(parsed.items, on: host), game)
    }

    @Test func aRecordedTapStopsTheCarItWasAimedAt() throws {
        // Where is the first car after 5 s of seed 3? Aim a tap there, on the 1/8-point grid.
        let probe = CarWorld(seed: 3)
        var events = PlaygroundEvents(frame: 0)
        for _ in 0..<312 { probe.advance(milliseconds: 16, events: &events) }
        let target = try #require(probe.cars.first)
        let x = (Float(target.x) * 8).rounded(.toNearestOrEven) / 8
        let y = (Float(target.y) * 8).rounded(.toNearestOrEven) / 8

        let text = log(seed: 3, before: 312, x: x, y: y, after: 300)
        let (result, game) = try replay(text, seed: 3)
        #expect(result.frames == 613)
        let stops = result.events.filter { $0.kind == CarWorldEvent.carStopped }
        #expect(stops.count == 1 && stops.first?.subject == target.id && stops.first?.frame == 313)
        let car = try #require(game.cars.first { $0.id == target.id })
        #expect(car.isStopped && abs(car.x - target.x) < 1e-9 && abs(car.y - target.y) < 1e-9)

        // The same log, replayed again, gives the same events record for record.
        let (again, _) = try replay(text, seed: 3)
        #expect(again.events == result.events)
        #expect(result.maxLiveObjects > 0)
    }
}
