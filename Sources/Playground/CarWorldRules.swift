// CarWorld's numbers that the original left open (docs/playground.md, "CarWorld"): speeds,
// spacing, spawning, the light cycle, the target score; its event kinds and sound list; and the
// seeded random numbers the game draws from.

/// The tunable numbers of a CarWorld game. `CarWorld(seed:)` uses the defaults.
public struct CarWorldRules: Sendable {
    /// Points a car is needed to make to win (the original's preset score).
    public var targetScore = 10
    /// Car speed along its road, points per second (slow: a child of two must catch a car).
    public var carSpeed = 40.0
    /// The least distance along a road between two cars' centres, points (a car is 60 long, so
    /// 40 points of road stay between bumpers). A car closer than this to the one ahead waits.
    public var minimumGap = 100.0
    /// A road's next car is due this many seconds after its last one (drawn uniformly); it enters
    /// only when the road's start is clear (the last car is `minimumGap` along).
    public var spawnInterval = 4.0...9.0
    /// A road's first car is due this many seconds after the start.
    public var firstSpawn = 0.5...3.0
    /// How long a light stays green, yellow and red, seconds; the cycle is green → yellow → red → green.
    public var greenTime = 6.0
    public var yellowTime = 2.0
    public var redTime = 6.0
    /// Seconds a car takes to fade in after entering and to fade out before leaving its road.
    public var fadeTime = 0.5
    /// A tap within this many points of a car's outline (60 × 30) picks it: fingers are wide.
    public var tapMargin = 14.0
    /// Whether cars come by themselves (off only in tests that place their own cars).
    public var spawnsCars = true
    /// Whether the lights change by themselves (off only in tests that set them).
    public var lightsCycle = true

    public init() {}

    /// A busy map for benchmarks (`make bench-playground`'s "CarWorld with 50 cars"): a car every
    /// 1.6 s on each road and a 64-point gap, so the map holds 55 cars from about 40 s on. Cars
    /// of one road may then touch in bends (a crash, as any other); the game is otherwise the same.
    public static var crowded: CarWorldRules {
        var rules = CarWorldRules()
        rules.minimumGap = 64
        rules.spawnInterval = 1.6...1.6
        rules.firstSpawn = 0...0.5
        return rules
    }
}

/// What a traffic light shows.
public enum LightState: Int32, Sendable {
    case green = 0
    case yellow = 1
    case red = 2

    /// The next state of the cycle green → yellow → red → green.
    public var next: LightState {
        switch self {
        case .green: .yellow
        case .yellow: .red
        case .red: .green
        }
    }
}

/// CarWorld's event kinds (docs/playground.md, "CarWorld"); kind 1 is the host's sound event.
public enum CarWorldEvent {
    /// The score changed: value = the new score.
    public static let scoreChanged: UInt16 = 2
    /// The target score was reached: value = the score.
    public static let won: UInt16 = 3
    /// A correct crossing: subject = crossing index, value = car id, x/y = the box centre.
    public static let point: UInt16 = 4
    /// The score was reset: subject = why (`resetByRedLight`, `resetByCrash`), value = the car id
    /// (for a crash the first car; the second is not in the record), x/y = where.
    public static let reset: UInt16 = 5
    /// A tap stopped a car: subject = car id, value = road, x/y = the car.
    public static let carStopped: UInt16 = 6
    /// A tap started a stopped car again: subject = car id, value = road, x/y = the car.
    public static let carStarted: UInt16 = 7
    /// A light changed: subject = light index (sem1 = 0 … sem4 = 3), value = `LightState` raw value.
    public static let lightChanged: UInt16 = 8
    /// A car entered its road: subject = car id, value = road (`RoadID` raw value).
    public static let carSpawned: UInt16 = 9
    /// A car left the screen at its road's end and was freed: subject = car id, value = road.
    public static let carFreed: UInt16 = 10
    /// The trophy was tapped: a new round starts at score 0 (value = 0).
    public static let newRound: UInt16 = 11

    /// `reset`'s subjects.
    public static let resetByRedLight: UInt16 = 0
    public static let resetByCrash: UInt16 = 1
}

/// CarWorld's sound list (the `subject` of a sound event).
public enum CarWorldSound {
    /// A point collected (a rising chime).
    public static let point: UInt16 = 0
    /// A crash or a red light: the score resets (a soft puff).
    public static let crash: UInt16 = 1
    /// The game is won (a happy arpeggio).
    public static let won: UInt16 = 2
    /// A car stopped or started by a tap (a soft click).
    public static let tap: UInt16 = 3
}

/// SplitMix64 (Steele, Lea, Flood 2014): the game's only source of chance, seeded by the game's seed.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt32) { state = 0x9E37_79B9_7F4A_7C15 &* (UInt64(seed) &+ 1) }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in the range.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Uniform in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
