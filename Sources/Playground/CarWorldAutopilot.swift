// CarWorld's scripted player (docs/playground.md, "Autopilots and win logs"): it taps cars as a
// careful child would, so that every car enters its crossings on green and never meets a car of
// the other road there. Tests and `quintet playground winlog carworld` use it; the page never does.
//
// Each car is looked at as it comes to the stop line of its next crossing (`stopLine` points of
// road before the crossing's centre, far enough that a car of the other road passes its nose). It
// may go on when the light will still be green when its nose reaches the light's box, and no car
// of the other road is between its own stop line and the far side of the crossing; otherwise it
// is tapped to stop there, and tapped again when both hold. Cars are taken in road order, and a
// car let through claims its crossing for its road for the rest of the frame, so two cars waiting
// at one crossing never start together.

import Physics2D
import Stage

public enum CarWorldAutopilot {
    /// A crossing on a road: its index and its distance along the road (points).
    struct Meeting {
        let crossing: Int
        let distance: Double
    }

    /// Points of road before a crossing's centre where a car waits (a car is 60 long, roads meet
    /// at up to about 60°, a car of the other road is 30 wide).
    static let stopLine = 78.0
    /// Points of road before the centre where a car's nose reaches the light's 20-point box.
    static let boxReach = 40.0
    /// Points of road past the centre where a car has left the crossing.
    static let clear = 80.0
    /// Seconds of green that must be left over when the nose reaches the box.
    static let greenMargin = 0.35

    /// Where each road meets its crossings, from the map (the nearest point of the road to each
    /// crossing's centre, to a point).
    static func meetings(paths: [BezierPath]) -> [[Meeting]] {
        var out: [[Meeting]] = []
        for road in RoadID.allCases {
            let path = paths[road.rawValue]
            var list: [Meeting] = []
            for (index, crossing) in CarWorldMap.crossings.enumerated()
            where crossing.roads.0 == road || crossing.roads.1 == road {
                var best = 0.0, bestD2 = Double.infinity
                var d = 0.0
                while d <= path.length {
                    let p = path.point(atDistance: d)
                    let d2 = (p.x - crossing.box.x) * (p.x - crossing.box.x) + (p.y - crossing.box.y) * (p.y - crossing.box.y)
                    if d2 < bestD2 { bestD2 = d2; best = d }
                    d += 1
                }
                list.append(Meeting(crossing: index, distance: best))
            }
            list.sort { $0.distance < $1.distance }
            out.append(list)
        }
        return out
    }
}

extension CarWorld {
    /// The taps of CarWorld's scripted player for this frame (none once the game is won).
    public func autopilotInputs() -> [PlaygroundInput] {
        guard !hasWon else { return [] }
        let meetings = autopilotCrossings ?? CarWorldAutopilot.meetings(paths: paths)
        autopilotCrossings = meetings
        typealias A = CarWorldAutopilot
        // Which road holds each crossing now: a car between its stop line and the far side.
        var claim = [Int](repeating: -1, count: CarWorldMap.crossings.count)
        var conflict = [Bool](repeating: false, count: CarWorldMap.crossings.count)
        for car in cars {
            for m in meetings[car.road.rawValue] {
                let gap = m.distance - car.distance
                guard gap < A.stopLine - 2, gap > -A.clear else { continue }
                if claim[m.crossing] >= 0 && claim[m.crossing] != car.road.rawValue { conflict[m.crossing] = true }
                claim[m.crossing] = car.road.rawValue
            }
        }
        var taps: [PlaygroundInput] = []
        for car in cars {
            // The next crossing whose stop line the car has not passed.
            guard let m = meetings[car.road.rawValue].first(where: { $0.distance - car.distance >= A.stopLine - 2 }) else { continue }
            let gap = m.distance - car.distance
            let atLine = car.isStopped ? gap < A.stopLine + 4 : gap < A.stopLine + 3
            guard atLine else {
                // A car stopped away from a stop line (a tap of someone else's) goes on.
                if car.isStopped { taps += tap(car) }
                continue
            }
            let light = lights[CarWorldMap.lights.firstIndex(where: { $0.crossing == m.crossing }) ?? 0]
            let reachAfter = (gap - A.boxReach) / rules.carSpeed
            let greenLeft = light.state == .green ? Double(light.nextChange - elapsedMilliseconds) / 1000 : -1
            let free = claim[m.crossing] < 0 || claim[m.crossing] == car.road.rawValue
            let go = free && !conflict[m.crossing] && greenLeft > reachAfter + A.greenMargin
            if go {
                claim[m.crossing] = car.road.rawValue
                if car.isStopped { taps += tap(car) }
            } else if !car.isStopped {
                taps += tap(car)
            }
        }
        return taps
    }

    /// A tap on a car's centre: a touch that begins and ends in one frame, with an id of its own.
    private func tap(_ car: Car) -> [PlaygroundInput] {
        autopilotTouch = autopilotTouch % 8 + 1
        let (x, y) = (Float(car.x), Float(car.y))
        return [.touch(autopilotTouch, .began, x: x, y: y), .touch(autopilotTouch, .ended, x: x, y: y)]
    }
}
