// Playground: the children's story-game (cars at traffic lights, a tilting ship, fish).
//
// The host plumbing every game shares (docs/playground.md, "Host protocol"): a game is a class
// that takes inputs and frames and leaves a draw list and events; `Host` owns the running game,
// queues the inputs for the next frame, stamps the events with the frame number and keeps both
// buffers at stable addresses for the WebAssembly exports (Wasm/Exports.swift). The native
// replay (`quintet playground replay`) drives the same `Host`, so a log gives the same events in
// both builds. No Foundation: this file is part of the wasm module.

/// One input, applied at the start of the next frame.
public struct PlaygroundInput: Equatable, Sendable {
    public enum Kind: Int32, Sendable { case touch = 1, tilt = 2 }
    /// A touch's phase, the numbers of the host protocol.
    public enum Phase: Int32, Sendable { case began = 0, moved = 1, stationary = 2, ended = 3, cancelled = 4 }
    public var kind: Kind
    /// The touch (kind touch); 0 for tilt.
    public var id: Int32
    public var phase: Phase
    /// Stage points for a touch (z unused); the acceleration in g for tilt.
    public var x: Float, y: Float, z: Float

    public static func touch(_ id: Int32, _ phase: Phase, x: Float, y: Float) -> PlaygroundInput {
        PlaygroundInput(kind: .touch, id: id, phase: phase, x: x, y: y, z: 0)
    }
    public static func tilt(x: Float, y: Float, z: Float) -> PlaygroundInput {
        PlaygroundInput(kind: .tilt, id: 0, phase: .moved, x: x, y: y, z: z)
    }
}

/// One event of a frame: 20 bytes in the host protocol (`u32 frame, u16 kind, u16 subject,
/// i32 value, f32 x, f32 y`).
public struct PlaygroundEvent: Equatable, Sendable {
    /// Kind 1 is the same in every game: play sound `subject` (an index in the game's sound list).
    public static let sound: UInt16 = 1
    public var frame: UInt32
    public var kind: UInt16
    public var subject: UInt16
    public var value: Int32
    public var x: Float, y: Float

    public init(frame: UInt32, kind: UInt16, subject: UInt16 = 0, value: Int32 = 0, x: Float = 0, y: Float = 0) {
        self.frame = frame; self.kind = kind; self.subject = subject; self.value = value; self.x = x; self.y = y
    }
}

/// Where a game writes its events during a frame.
public struct PlaygroundEvents {
    public let frame: UInt32
    public internal(set) var records: [PlaygroundEvent] = []

    public init(frame: UInt32) { self.frame = frame }

    public mutating func emit(_ kind: UInt16, subject: UInt16 = 0, value: Int32 = 0, x: Float = 0, y: Float = 0) {
        records.append(PlaygroundEvent(frame: frame, kind: kind, subject: subject, value: value, x: x, y: y))
    }

    /// Asks the host to play sound `index` of the game's sound list.
    public mutating func sound(_ index: UInt16, x: Float = 0, y: Float = 0) {
        emit(PlaygroundEvent.sound, subject: index, x: x, y: y)
    }
}

/// A game the host can run. Games are classes, created from a seed, deterministic: their state
/// depends on the seed, the inputs and the frame times only.
public protocol PlaygroundGame: AnyObject {
    /// The stage size in points (CarWorld: 1024 × 768).
    var stageWidth: Float { get }
    var stageHeight: Float { get }
    /// Objects alive now (cars, clouds, tweens…): the replay tool's memory check.
    var liveObjects: Int { get }
    /// The inputs queued since the last frame, in arrival order.
    func input(_ input: PlaygroundInput)
    /// Advances by `milliseconds` (already clamped to 0…100) and writes this frame's events.
    func advance(milliseconds: Int32, events: inout PlaygroundEvents)
    /// The draw list of the current state (docs/playground.md, "Draw list"), bytes valid until
    /// the next call.
    func drawList() -> [UInt8]
    /// The inputs a scripted player would give now, reading the game's own state, so that the game
    /// is won (docs/playground.md, "Autopilots and win logs"): called once per frame before the
    /// frame's inputs are queued. Tests and `quintet playground winlog` use it; the page never does.
    func autopilotInputs() -> [PlaygroundInput]
}

extension PlaygroundGame {
    /// A game that wins by itself (or has no scripted player) gives none.
    public func autopilotInputs() -> [PlaygroundInput] { [] }
}

/// The games, by the index `pg_start` takes and the name the input log and the CLI use.
public enum PlaygroundGames {
    /// Index → name; the index is the position.
    /// 1, `carworld-crowded`: CarWorld with `CarWorldRules.crowded` (50+ cars from about 40 s
    /// on), the game `make bench-playground` measures, in both builds and on the page.
    /// 2, `shipworld`: steer a boat down a river by tilt (ShipWorld.swift, docs/playground.md "ShipWorld").
    /// 3, `fishworld`: FishWorld (docs/playground.md, "FishWorld").
    /// 4, `sweaters`: the story's sweater pile (SweaterPile.swift), the seed its count.
    public static let names: [String] = ["carworld", "carworld-crowded", "shipworld", "fishworld", "sweaters"]

    /// The index of a game name, or nil.
    public static func index(of name: String) -> Int32? {
        for (i, known) in names.enumerated() where known == name { return Int32(i) }
        return nil
    }

    static func make(_ index: Int32, seed: UInt32) -> (any PlaygroundGame)? {
        switch index {
        case 0: return CarWorld(seed: seed)
        case 1: return CarWorld(seed: seed, rules: .crowded)
        case 2: return ShipWorld(seed: seed)
        case 3: return FishWorld(seed: seed)
        case 4: return SweaterPile(seed: seed)
        default: return nil
        }
    }
}

/// The running game and the buffers the WebAssembly exports hand to the page.
public final class Host {
    public private(set) var game: (any PlaygroundGame)?
    /// Frames run since `start`.
    public private(set) var frame: UInt32 = 0
    private var queued: [PlaygroundInput] = []
    /// The last frame's events.
    public private(set) var events: [PlaygroundEvent] = []
    private var drawBytes = HostBuffer()
    private var eventBytes = HostBuffer()

    public init() {}

    /// Starts game `game` from `seed` (a running game is dropped): 0, or -1 for an unknown game.
    @discardableResult
    public func start(game index: Int32, seed: UInt32) -> Int32 {
        guard let made = PlaygroundGames.make(index, seed: seed) else { return -1 }
        start(made)
        return 0
    }

    /// Starts a given game object (tests, and games not in the list).
    public func start(_ made: any PlaygroundGame) {
        game = made
        frame = 0
        queued.removeAll()
        events.removeAll()
        drawBytes.set(made.drawList())
        eventBytes.set([])
    }

    public var stageWidth: Float { game?.stageWidth ?? 0 }
    public var stageHeight: Float { game?.stageHeight ?? 0 }

    /// Queues an input for the next frame; unknown kinds and phases are dropped, and touch
    /// positions are rounded to 1/8 point (the host protocol: the page does it too).
    public func input(kind: Int32, id: Int32, phase: Int32, x: Float, y: Float, z: Float) {
        guard let kind = PlaygroundInput.Kind(rawValue: kind), x.isFinite, y.isFinite, z.isFinite else { return }
        switch kind {
        case .touch:
            guard let phase = PlaygroundInput.Phase(rawValue: phase) else { return }
            queued.append(.touch(id, phase, x: Self.eighth(x), y: Self.eighth(y)))
        case .tilt:
            queued.append(.tilt(x: x, y: y, z: z))
        }
    }

    public func input(_ input: PlaygroundInput) {
        self.input(kind: input.kind.rawValue, id: input.id, phase: input.phase.rawValue, x: input.x, y: input.y, z: input.z)
    }

    /// Rounds to the nearest 1/8 (ties to even), the grid touch positions travel on.
    static func eighth(_ v: Float) -> Float { (v * 8).rounded(.toNearestOrEven) / 8 }

    /// Runs one frame of `milliseconds` (clamped to 0…100): the queued inputs, then the game's
    /// step, then the draw list and the events for the page.
    public func frame(milliseconds: Int32) {
        guard let game else { return }
        frame &+= 1
        for input in queued { game.input(input) }
        queued.removeAll(keepingCapacity: true)
        var log = PlaygroundEvents(frame: frame)
        game.advance(milliseconds: min(100, max(0, milliseconds)), events: &log)
        events = log.records
        drawBytes.set(game.drawList())
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 20)
        for e in events {
            Self.put(e.frame, &bytes)
            Self.put(UInt32(e.kind) | UInt32(e.subject) << 16, &bytes)
            Self.put(UInt32(bitPattern: e.value), &bytes)
            Self.put(e.x.bitPattern, &bytes)
            Self.put(e.y.bitPattern, &bytes)
        }
        eventBytes.set(bytes)
    }

    private static func put(_ v: UInt32, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16)); bytes.append(UInt8(truncatingIfNeeded: v >> 24))
    }

    public var drawListPointer: UnsafeRawPointer { UnsafeRawPointer(drawBytes.pointer) }
    public var drawListSize: Int32 { Int32(drawBytes.count) }
    public var eventsPointer: UnsafeRawPointer { UnsafeRawPointer(eventBytes.pointer) }
    public var eventsCount: Int32 { Int32(events.count) }
}

/// Bytes at an address that stays put until the next `set` (the page reads them between frames).
struct HostBuffer {
    private(set) var pointer: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity = 0

    init() {
        pointer = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        capacity = 16
    }

    mutating func set(_ bytes: [UInt8]) {
        if bytes.count > capacity {
            pointer.deallocate()
            capacity = max(bytes.count, capacity * 2)
            pointer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
        count = bytes.count
    }
}
