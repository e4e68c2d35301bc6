import Testing
@testable import Playground

/// A small game for the host's tests: it counts the touches that begin, keeps the milliseconds it
/// was given, and reports each began touch as an event (kind 7) plus a sound.
final class TapCounter: PlaygroundGame {
    var stageWidth: Float { 320 }
    var stageHeight: Float { 200 }
    var liveObjects: Int { pending.count + taps }
    private var pending: [PlaygroundInput] = []
    private(set) var taps = 0
    private(set) var milliseconds: [Int32] = []

    func input(_ input: PlaygroundInput) { pending.append(input) }

    func advance(milliseconds: Int32, events: inout PlaygroundEvents) {
        self.milliseconds.append(milliseconds)
        for input in pending where input.kind == .touch && input.phase == .began {
            taps += 1
            events.emit(7, subject: UInt16(input.id), value: Int32(taps), x: input.x, y: input.y)
            events.sound(2)
        }
        pending.removeAll()
    }

    func drawList() -> [UInt8] { [UInt8(truncatingIfNeeded: taps), 0, 0, 0] }
}

struct HostTests {
    static func bytes(_ p: UnsafeRawPointer, _ n: Int) -> [UInt8] { (0..<n).map { p.load(fromByteOffset: $0, as: UInt8.self) } }

    @Test func inputsWaitForTheNextFrameAndEventsCarryItsNumber() {
        let host = Host()
        let game = TapCounter()
        host.start(game)
        #expect(host.stageWidth == 320 && host.stageHeight == 200)
        host.input(kind: 1, id: 3, phase: 0, x: 10.06, y: 20.2, z: 0)
        #expect(game.taps == 0, "nothing happens before the frame")
        host.frame(milliseconds: 16)
        #expect(game.taps == 1)
        #expect(host.events == [
            PlaygroundEvent(frame: 1, kind: 7, subject: 3, value: 1, x: 10, y: 20.25),
            PlaygroundEvent(frame: 1, kind: PlaygroundEvent.sound, subject: 2),
        ])
        host.frame(milliseconds: 16)
        #expect(host.events.isEmpty && host.frame == 2)
        #expect(Self.bytes(host.drawListPointer, Int(host.drawListSize)) == [1, 0, 0, 0])
    }

    @Test func touchPositionsTravelOnAnEighthPointGrid() {
        #expect(Host.eighth(10.06) == 10)
        #expect(Host.eighth(10.07) == 10.125)
        #expect(Host.eighth(-3.3) == -3.25)
        #expect(Host.eighth(1.0625) == 1.0, "ties go to even")
        #expect(Host.eighth(1.1875) == 1.25, "ties go to even")
    }

    @Test func framesAreClampedAndBadInputsDropped() {
        let host = Host()
        let game = TapCounter()
        host.start(game)
        host.input(kind: 9, id: 0, phase: 0, x: 1, y: 1, z: 0)         // unknown kind
        host.input(kind: 1, id: 0, phase: 7, x: 1, y: 1, z: 0)         // unknown phase
        host.input(kind: 1, id: 0, phase: 0, x: .nan, y: 1, z: 0)      // not a number
        host.input(kind: 1, id: 0, phase: 0, x: .infinity, y: 1, z: 0)
        host.frame(milliseconds: 5_000)
        host.frame(milliseconds: -3)
        #expect(game.taps == 0)
        #expect(game.milliseconds == [100, 0])
    }

    @Test func eventsAreTwentyByteRecordsInTheHostProtocol() {
        let host = Host()
        host.start(TapCounter())
        host.input(.touch(258, .began, x: 1.5, y: -2))
        host.frame(milliseconds: 16)
        #expect(host.eventsCount == 2)
        let b = Self.bytes(host.eventsPointer, 40)
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) } }
        #expect(u32(0) == 1)                                   // frame
        #expect(u32(4) == 7 | (258 << 16))                     // kind, subject
        #expect(u32(8) == 1)                                   // value
        #expect(Float(bitPattern: u32(12)) == 1.5 && Float(bitPattern: u32(16)) == -2)
        #expect(u32(24) == UInt32(PlaygroundEvent.sound) | (2 << 16))
    }

    @Test func anUnknownGameIsRefused() {
        let host = Host()
        #expect(host.start(game: 9_999, seed: 1) == -1)
        #expect(host.game == nil)
        host.frame(milliseconds: 16)  // no game: nothing to do, no crash
        #expect(host.eventsCount == 0)
    }
}

struct InputLogTests {
    @Test func aLogReadsAndPrintsTheSameItems() throws {
        let text = """
        quintet-playground-log 1
        game carworld   # the game
        seed 42

        t 0 0 412.5 300.125
        a 0 -0.5 -0.8
        f 16
        t 0 3 412.5 300.125
        f 17
        """
        let log = try InputLog(parsing: text)
        #expect(log.game == "carworld" && log.seed == 42)
        #expect(log.items == [
            .input(.touch(0, .began, x: 412.5, y: 300.125)), .input(.tilt(x: 0, y: -0.5, z: -0.8)), .frame(milliseconds: 16),
            .input(.touch(0, .ended, x: 412.5, y: 300.125)), .frame(milliseconds: 17),
        ])
        #expect(try InputLog(parsing: log.text) == log)
    }

    @Test func badLogsSayWhichLineAndWhy() {
        func error(_ text: String) -> InputLog.ParseError? {
            do { _ = try InputLog(parsing: text); return nil } catch { return error }
        }
        #expect(error("")?.message == "empty log")
        #expect(error("hello\n")?.line == 1)
        #expect(error("quintet-playground-log 2\n")?.message.contains("version") == true)
        #expect(error("quintet-playground-log 1\nseed 1\nf 16\n")?.message == "no `game` line")
        #expect(error("quintet-playground-log 1\ngame g\nt 0 9 1 1\n") == InputLog.ParseError(line: 3, message: "touch phase 9 is not 0–4"))
        #expect(error("quintet-playground-log 1\ngame g\nf 1000\n")?.line == 3)
        #expect(error("quintet-playground-log 1\ngame g\nt 0 0 nan 1\n")?.line == 3)
        #expect(error("quintet-playground-log 1\ngame g\nzap\n")?.message.contains("unknown line") == true)
        #expect(error("quintet-playground-log 1\ngame g\nseed -1\n")?.line == 3)
    }

    @Test func aReplayCountsFramesAndSamplesLiveObjectsEveryMinute() {
        let host = Host()
        host.start(TapCounter())
        var items: [InputLog.Item] = []
        for i in 0..<(2 * 60 * 50) {  // two minutes at 20 ms
            if i % 50 == 0 { items.append(.input(.touch(1, .began, x: 5, y: 5))) }
            items.append(.frame(milliseconds: 20))
        }
        let result = Replay.run(items, on: host)
        #expect(result.frames == 6_000 && result.milliseconds == 120_000)
        #expect(result.events.filter { $0.kind == 7 }.count == 120)
        #expect(result.liveObjectsPerMinute == [60, 120])
        #expect(result.maxLiveObjects == 120 && result.finalLiveObjects == 120)
        #expect(throws: Replay.Failure.unknownGame("nope")) { try Replay.run(InputLog(game: "nope", seed: 1)) }
    }
}
