// CarWorld's map: the three roads, their four crossings and the four traffic lights
// (docs/playground.md, "CarWorld", explains every number). Stage points, y down, 1024 × 768.
//
// The background art draws the roads from the same data: Web/playground/art/carworld/
// background.svg's paths `road-top`, `road-second` and `road-vertical` hold these points, and
// Tests/PlaygroundTests checks that they are equal.

/// A point on the CarWorld map, in stage points (x right, y down).
public struct MapPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// One piece of a road: a cubic Bézier segment (start, two controls, end) or a straight line.
public enum RoadSegment: Equatable, Sendable {
    case cubic(MapPoint, MapPoint, MapPoint, MapPoint)
    case line(MapPoint, MapPoint)

    /// Where the segment starts.
    public var start: MapPoint {
        switch self {
        case .cubic(let a, _, _, _), .line(let a, _): a
        }
    }

    /// Where the segment ends.
    public var end: MapPoint {
        switch self {
        case .cubic(_, _, _, let d), .line(_, let d): d
        }
    }
}

/// CarWorld's three roads. Each is driven in one direction only, the order of its segments.
public enum RoadID: Int, CaseIterable, Sendable {
    /// The original's top road, left to right.
    case top = 0
    /// The second winding road, right to left: above the top road at both ends, a deep bend below it
    /// in the middle.
    case second = 1
    /// The straight road at x = 620, top to bottom.
    case vertical = 2

    /// The id of the road's path in background.svg.
    public var svgID: String {
        switch self {
        case .top: "road-top"
        case .second: "road-second"
        case .vertical: "road-vertical"
        }
    }
}

/// A place where two roads cross, with the traffic light's sensor box on it.
public struct Crossing: Sendable {
    /// The two roads that cross here.
    public let roads: (RoadID, RoadID)
    /// The centre of the 20 × 20 sensor box: the crossing point of the two centre lines (to 0.5 pt).
    public let box: MapPoint
    /// Where the original app put this box (the thesis's table), for the record.
    public let originalBox: MapPoint
}

/// A traffic light: where its post stands and how it starts.
public struct LightPlacement: Sendable {
    /// The original's name (sem1…sem4).
    public let name: String
    /// The foot of the post (the original's light position, unchanged).
    public let position: MapPoint
    /// The original's initial state argument 1 is red, 0 is green (`Semaforo.isRed`).
    public let startsRed: Bool
    /// The index in `CarWorldMap.crossings` of the crossing the light watches.
    public let crossing: Int
}

/// The layout of CarWorld: size, roads, crossings and lights.
public enum CarWorldMap {
    /// The world's size in points (the original iPad's landscape screen).
    public static let width = 1024.0
    public static let height = 768.0
    /// The side of a light's square sensor box (the original's 20 × 20).
    public static let sensorBoxSide = 20.0
    /// Half the width of the drawn road surface (background.svg strokes 42; its kerb 50).
    public static let roadHalfWidth = 21.0
    /// Cars of different roads can touch only when both are within this distance of the same
    /// crossing point (checked by a test over the whole map for 60 × 30 cars).
    public static let crossingZoneRadius = 65.0

    /// The roads, indexed by `RoadID.rawValue`; segments in driving order.
    public static let roads: [[RoadSegment]] = [
        // The top road: the original's five cubic segments with left = 0 and right = 1024.
        [
            .cubic(MapPoint(0, 360), MapPoint(0, 360), MapPoint(92, 210), MapPoint(213, 331)),
            .cubic(MapPoint(213, 331), MapPoint(264, 381), MapPoint(361, 216), MapPoint(505, 319)),
            .cubic(MapPoint(505, 319), MapPoint(548, 348), MapPoint(672, 290), MapPoint(732, 284)),
            .cubic(MapPoint(732, 284), MapPoint(786, 280), MapPoint(824, 362), MapPoint(892, 353)),
            .cubic(MapPoint(892, 353), MapPoint(972, 340), MapPoint(1024, 302), MapPoint(1024, 302)),
        ],
        // The second road, right to left: in from off-screen right, down through the top road at
        // (742, 284), through the vertical road at (620, 520), round a bend under the two lights,
        // up through the top road at (341, 298), out off-screen left.
        [
            .cubic(MapPoint(1064, 180), MapPoint(974, 180), MapPoint(887, 185), MapPoint(820, 205)),
            .cubic(MapPoint(820, 205), MapPoint(782, 216), MapPoint(763, 238), MapPoint(742, 284)),
            .cubic(MapPoint(742, 284), MapPoint(717, 339), MapPoint(674, 493), MapPoint(620, 520)),
            .cubic(MapPoint(620, 520), MapPoint(575, 542), MapPoint(560, 605), MapPoint(500, 605)),
            .cubic(MapPoint(500, 605), MapPoint(440, 605), MapPoint(395, 539), MapPoint(385, 490)),
            .cubic(MapPoint(385, 490), MapPoint(371, 421), MapPoint(357, 376), MapPoint(341, 298)),
            .cubic(MapPoint(341, 298), MapPoint(329, 239), MapPoint(269, 200), MapPoint(200, 190)),
            .cubic(MapPoint(200, 190), MapPoint(121, 178), MapPoint(40, 175), MapPoint(-40, 175)),
        ],
        // The vertical road, top to bottom, from 40 points above the screen to 40 below.
        [
            .line(MapPoint(620, -40), MapPoint(620, 808)),
        ],
    ]

    /// The four crossings; each has one light.
    public static let crossings: [Crossing] = [
        Crossing(roads: (.top, .second), box: MapPoint(341, 298), originalBox: MapPoint(400, 450)),
        Crossing(roads: (.second, .vertical), box: MapPoint(620, 520), originalBox: MapPoint(620, 520)),
        Crossing(roads: (.top, .second), box: MapPoint(742, 284), originalBox: MapPoint(760, 150)),
        Crossing(roads: (.top, .vertical), box: MapPoint(620, 312.5), originalBox: MapPoint(620, 200)),
    ]

    /// The four lights at the original positions, with the original initial states.
    public static let lights: [LightPlacement] = [
        LightPlacement(name: "sem1", position: MapPoint(428, 475), startsRed: true, crossing: 0),
        LightPlacement(name: "sem2", position: MapPoint(538, 540), startsRed: false, crossing: 1),
        LightPlacement(name: "sem3", position: MapPoint(785, 100), startsRed: true, crossing: 2),
        LightPlacement(name: "sem4", position: MapPoint(680, 250), startsRed: false, crossing: 3),
    ]
}
