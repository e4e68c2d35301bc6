// FishWorld's numbers (docs/playground.md, "FishWorld"): the sea's layout (reefs, where the
// school starts), the fish's steering (water drag, schooling, the lure, the reefs' pull and
// push, the soft walls), its event kinds and its sound list.

/// A point of the sea, in stage points.
public struct FishWorldPoint: Equatable, Sendable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// A fish's colour, which is also the colour of its reef.
public enum FishColour: Int, CaseIterable, Sendable {
    case red = 0, yellow = 1, purple = 2
}

/// The tunable numbers of a FishWorld game. `FishWorld(seed:)` uses the defaults. Distances in
/// stage points, times in seconds, accelerations in points/s².
public struct FishWorldRules: Sendable {
    /// Fish of each colour (three colours).
    public var fishPerColour = 3
    /// The reefs' centres, by `FishColour` raw value: red on the left, yellow in the middle at
    /// the bottom, purple on the right, on the sand.
    public var reefs: [FishWorldPoint] = [FishWorldPoint(170, 630), FishWorldPoint(512, 645), FishWorldPoint(854, 630)]
    /// A free fish whose centre comes within this distance of its own reef's centre settles there.
    public var homeRadius = 80.0
    /// A free fish within this distance of a reef of another colour is pushed out (gently).
    public var wrongReefRadius = 105.0
    public var wrongReefPush = 900.0
    /// A free fish within this distance of its own reef feels its pull (the reef calls it home).
    public var reefCallRadius = 170.0
    public var reefCall = 260.0
    /// Where the school starts: a box (x, y, width, height) in the open water above the reefs.
    public var startOrigin = FishWorldPoint(260, 150)
    public var startSize = FishWorldPoint(504, 220)
    /// The fish's body: a circle of this radius (points), density 1.
    public var fishRadius = 14.0
    /// Water drag (the bodies' linear damping, 1/s): a fish left alone glides to a stop.
    public var waterDrag = 2.0
    /// A free fish's own cruising speed (points/s) and how hard it steers toward it.
    public var cruiseSpeed = 45.0
    /// Schooling (boids): cohesion toward the middle of the same-colour fish within
    /// `schoolRadius`, alignment with their mean velocity, separation from any fish closer
    /// than `separationRadius`, and a wander that turns slowly (drawn from the seeded generator).
    public var schoolRadius = 220.0
    public var cohesion = 0.9
    public var alignment = 0.9
    public var separationRadius = 40.0
    public var separation = 1400.0
    public var wander = 110.0
    /// The wander direction turns by up to this many radians per step (uniform, seeded).
    public var wanderTurn = 0.35
    /// The lure (a finger): every free fish of its group swims toward it at up to `lureSpeed`,
    /// slowing within `lureSlowRadius`; `lureGain` is how fast it reaches that velocity (1/s).
    public var lureSpeed = 260.0
    public var lureSlowRadius = 60.0
    public var lureGain = 6.0
    /// A touch that begins makes the fish of its group within `dartRadius` dart toward it
    /// (an impulse giving `dartSpeed`, points/s).
    public var dartRadius = 260.0
    public var dartSpeed = 220.0
    /// The soft walls: within `wallMargin` of the stage's edge a fish is pushed back in,
    /// `wallPush` per point of the way in. (Hard walls stand just outside the stage, in case.)
    public var wallMargin = 60.0
    public var wallPush = 30.0
    /// The water's surface and the sand: fish keep between these heights (soft, as the walls).
    public var surfaceY = 90.0
    public var sandY = 720.0
    /// A settled fish swims to its place in the reef (`settleGain`, 1/s) and bobs there.
    public var settleGain = 4.0
    /// Seconds after a new round during which fish swim out of their reefs and cannot settle.
    public var leaveTime = 2.0
    /// Seconds after the win before a touch starts a new round (the happy animation plays).
    public var winPause = 1.5
    /// Seconds between two ambient bubbles (uniform, seeded), and the bubble pool: at most this
    /// many bubbles rise at once (their images are made with the game).
    public var bubbleInterval = 0.7...1.8
    public var maxBubbles = 24
    /// Tilt (a device's gravity, in g) becomes a gentle current: `tiltCurrent` points/s² per g,
    /// on free fish, x and y of the device's axes as the screen's (right, down).
    public var tiltCurrent = 90.0

    public init() {}

    /// The places of a reef's three settled fish, relative to its centre.
    public static let slots: [FishWorldPoint] = [FishWorldPoint(-46, -6), FishWorldPoint(0, -34), FishWorldPoint(46, -6)]
}

/// FishWorld's event kinds (docs/playground.md, "FishWorld"); kind 1 is the host's sound event.
public enum FishWorldEvent {
    /// The number of fish at home changed: value = the new count (0 when a new round starts).
    public static let homeCount: UInt16 = 2
    /// Every fish is home: value = the number of fish.
    public static let won: UInt16 = 3
    /// A fish settled in its reef: subject = fish index, value = colour, x/y = the reef.
    public static let fishHome: UInt16 = 4
    /// A free fish came into a reef of another colour and is pushed out: subject = fish index,
    /// value = the reef's colour, x/y = the fish.
    public static let wrongReef: UInt16 = 5
    /// A touch began: subject = the colour of the group it lures, value = the fish that darted
    /// toward it, x/y = the touch.
    public static let lure: UInt16 = 6
    /// A touch after the win started a new round (value 0).
    public static let newRound: UInt16 = 7
}

/// FishWorld's sound list (the `subject` of a sound event; Web/playground/sound.js, `SOUNDS.fishworld`).
public enum FishWorldSound {
    /// A fish settled at home (a bubbly chime).
    public static let home: UInt16 = 0
    /// Fish dart toward a touch (a soft "blip").
    public static let dart: UInt16 = 1
    /// Every fish home (a happy rising run).
    public static let won: UInt16 = 2
    /// A fish bounced off a wrong reef (a low soft "boop").
    public static let wrongReef: UInt16 = 3
    /// A new round: the fish swim out (a gentle whoosh of bubbles).
    public static let newRound: UInt16 = 4
}
