import Foundation
import Testing
import Physics2D
import Stage

/// The top road of the original CarWorld (docs/playground.md: the note's five segments, with
/// left = 0 and right = 1024).
let topRoad: [(Vec2, Vec2, Vec2, Vec2)] = [
    (Vec2(0, 360), Vec2(0, 360), Vec2(92, 210), Vec2(213, 331)),
    (Vec2(213, 331), Vec2(264, 381), Vec2(361, 216), Vec2(505, 319)),
    (Vec2(505, 319), Vec2(548, 348), Vec2(672, 290), Vec2(732, 284)),
    (Vec2(732, 284), Vec2(786, 280), Vec2(824, 362), Vec2(892, 353)),
    (Vec2(892, 353), Vec2(972, 340), Vec2(1024, 302), Vec2(1024, 302)),
]

/// The cubic written out from its Bernstein form, independently of PathSegment.
func bernstein(_ p: (Vec2, Vec2, Vec2, Vec2), _ t: Double) -> Vec2 {
    let u = 1 - t
    return pow(u, 3) * p.0 + 3 * t * u * u * p.1 + 3 * t * t * u * p.2 + pow(t, 3) * p.3
}

/// The length of a polyline through `samples + 1` points of the cubic.
func polylineLength(_ p: (Vec2, Vec2, Vec2, Vec2), samples: Int = 100_000) -> Double {
    var total = 0.0
    var previous = p.0
    for i in 1...samples {
        let q = bernstein(p, Double(i) / Double(samples))
        total += (q - previous).length
        previous = q
    }
    return total
}

func makeTopRoad() throws -> BezierPath {
    try BezierPath(segments: topRoad.map { PathSegment.cubic($0.0, $0.1, $0.2, $0.3) })
}

@Suite struct BezierPathTests {
    @Test func cubicPointsMatchTheBernsteinForm() throws {
        let path = try makeTopRoad()
        for (index, segment) in path.segments.enumerated() {
            for t in [0.0, 0.2, 0.5, 0.9, 1.0] {
                let d = segment.point(at: t) - bernstein(topRoad[index], t)
                #expect(d.length < 1e-9)
            }
        }
        // Path parameter t: segment i of 5 covers i/5…(i+1)/5.
        #expect((path.point(at: 0.5) - bernstein(topRoad[2], 0.5)).length < 1e-9)
        #expect(path.point(at: 0) == Vec2(0, 360) && path.point(at: 1) == Vec2(1024, 302))
    }

    @Test func arcLengthOfEachTopRoadSegmentMatchesADensePolyline() throws {
        let path = try makeTopRoad()
        var total = 0.0
        for (index, segment) in path.segments.enumerated() {
            let reference = polylineLength(topRoad[index])
            let length = segment.arcLength(from: 0, to: 1)
            // A polyline of 100,000 chords falls short of the curve by about 1e-10 (relative);
            // the contract asks for 0.1 %, the quadrature does far better.
            #expect(abs(length - reference) / reference < 1e-6, "segment \(index): \(length) vs \(reference)")
            total += reference
        }
        #expect(abs(path.length - total) / total < 1e-6)
        #expect(abs(path.length - total) / total < 0.001)
    }

    @Test func straightLinesAreExact() {
        let line = BezierPath.line(from: Vec2(100, 100), to: Vec2(400, 500))
        #expect(line.length == 500)
        #expect(line.point(atDistance: 250) == Vec2(250, 300))
        #expect(line.tangent(atDistance: 10) == Vec2(0.6, 0.8))
        // A cubic whose controls lie on the line at uneven places: length exact, and distance
        // (not t) is what runs evenly along it.
        let a = Vec2(0, 0), b = Vec2(300, 400)
        let cubic = try! BezierPath(segments: [.cubic(a, Vec2(30, 40), Vec2(60, 80), b)])
        #expect(abs(cubic.length - 500) < 1e-9)
        #expect((cubic.point(at: 0.5) - Vec2(150, 200)).length > 10)      // t is not uniform here
        #expect((cubic.point(atDistance: 250) - Vec2(150, 200)).length < 1e-7)
        #expect((cubic.point(atDistance: 100) - Vec2(60, 80)).length < 1e-7)
    }

    @Test func distanceAndParameterAreInverse() throws {
        let path = try makeTopRoad()
        var d = 0.0
        while d <= path.length {
            let t = path.parameter(atDistance: d)
            #expect(abs(path.distance(at: t) - d) < 1e-7)
            d += 13.7
        }
        #expect(path.parameter(atDistance: -5) == 0)
        #expect(path.parameter(atDistance: path.length + 5) == 1)
    }

    @Test func pointAtADistanceLiesThatFarAlongADensePolyline() throws {
        // Walk the first two segments as a dense polyline and compare where it reaches
        // 100, 300 and 500 points with point(atDistance:).
        let path = try makeTopRoad()
        var walked = 0.0
        var targets = [100.0, 300.0, 500.0]
        for index in 0..<2 {
            var previous = topRoad[index].0
            for i in 1...100_000 {
                let q = bernstein(topRoad[index], Double(i) / 100_000)
                let step = (q - previous).length
                if let target = targets.first, walked + step >= target {
                    let f = (target - walked) / step
                    let expected = previous + f * (q - previous)
                    #expect((path.point(atDistance: target) - expected).length < 1e-3)
                    targets.removeFirst()
                }
                walked += step
                previous = q
            }
        }
        #expect(targets.isEmpty)
    }

    @Test func segmentsMustChain() {
        #expect(throws: PathError.discontinuous(index: 1)) {
            try BezierPath(segments: [.line(Vec2(0, 0), Vec2(1, 0)), .line(Vec2(2, 0), Vec2(3, 0))])
        }
        #expect(throws: PathError.empty) { try BezierPath(segments: []) }
        var built = BezierPath(start: Vec2(0, 0))
        built.addCubic(control1: Vec2(10, 0), control2: Vec2(20, 10), end: Vec2(30, 10))
        built.addLine(to: Vec2(30, 100))
        #expect(built.segments[1] == .line(Vec2(30, 10), Vec2(30, 100)))
        #expect(built.end == Vec2(30, 100))
    }

    @Test func tangentWhereAControlPointSitsOnAnEnd() throws {
        let path = try makeTopRoad()
        // Segment 1 starts with P1 = P0: it leaves towards P2. Segment 5 ends with P2 = P3: it
        // arrives from P1.
        let leaving = (Vec2(92, 210) - Vec2(0, 360)).normalized
        let arriving = (Vec2(1024, 302) - Vec2(972, 340)).normalized
        #expect((path.tangent(at: 0) - leaving).length < 1e-3)
        #expect((path.tangent(at: 1) - arriving).length < 1e-3)
        // Elsewhere it is B'(t) normalised: compare with a central difference (away from the
        // joints, where the top road turns a little: segment 4 arrives at 892,353 heading
        // (68, −9) and segment 5 leaves it heading (80, −13)).
        for t in [0.1, 0.35, 0.62, 0.77, 0.93] {
            let h = 1e-6
            let numeric = (path.point(at: t + h) - path.point(at: t - h)).normalized
            #expect((path.tangent(at: t) - numeric).length < 1e-6)
        }
    }

    @Test func reversedPathRunsBackOverTheSamePoints() throws {
        let path = try makeTopRoad()
        let back = path.reversed
        #expect(abs(back.length - path.length) < 1e-9)
        #expect(back.start == path.end && back.end == path.start)
        for d in stride(from: 0.0, through: path.length, by: 101) {
            #expect((back.point(atDistance: d) - path.point(atDistance: path.length - d)).length < 1e-6)
        }
    }
}

@Suite struct PathTweenTests {
    @Test func movesAtConstantSpeedAlongTheTopRoad() throws {
        let path = try makeTopRoad()
        let car = DisplayObject()
        let speed = 90.0, dt = 1.0 / 60
        let tween = PathTween(target: car, path: path, speed: speed)
        #expect(abs(tween.totalTime - path.length / speed) < 1e-12)
        let juggler = Juggler()
        juggler.add(tween)
        var previous = Vec2(0, 360)
        var frames = 0
        var worst = 0.0
        while juggler.contains(tween) {
            juggler.advance(time: dt)
            frames += 1
            let now = Vec2(car.x, car.y)
            let step = (now - previous).length
            if !tween.isComplete {
                // A chord of a 1.5-point arc differs from the arc by far less than 0.1 %.
                worst = max(worst, abs(step - speed * dt) / (speed * dt))
            }
            previous = now
        }
        #expect(worst < 0.001, "worst step error \(worst)")
        #expect(frames == Int((path.length / speed / dt).rounded(.up)))
        #expect(car.x == 1024 && car.y == 302)
    }

    @Test func facesTheWayItTravels() throws {
        let path = try makeTopRoad()
        let car = DisplayObject()
        let tween = PathTween(target: car, path: path, time: 10, direction: .facesTravel)
        var previous = Vec2(0, 360)
        for _ in 0..<500 {
            tween.advance(time: 0.01)
            let now = Vec2(car.x, car.y)
            let heading = atan2(now.y - previous.y, now.x - previous.x)
            var difference = abs(car.rotation - heading)
            if difference > Double.pi { difference = 2 * Double.pi - difference }
            #expect(difference < 0.05)
            #expect(car.scaleX == 1)
            previous = now
        }
    }

    @Test func mirroredStaysUprightGoingRightToLeft() {
        let road = BezierPath.line(from: Vec2(900, 400), to: Vec2(100, 400))
        let upright = DisplayObject()
        PathTween(target: upright, path: road, speed: 100, direction: .mirrored).advance(time: 1)
        #expect(upright.x == 800 && upright.y == 400)
        #expect(upright.rotation == 0 && upright.scaleX == -1)
        let upsideDown = DisplayObject()
        PathTween(target: upsideDown, path: road, speed: 100, direction: .facesTravel).advance(time: 1)
        #expect(abs(upsideDown.rotation - Double.pi) < 1e-12 && upsideDown.scaleX == 1)
        // Mirrored on a road that climbs to the left: the nose (now at −x) tilts up.
        let climbing = BezierPath.line(from: Vec2(500, 500), to: Vec2(400, 400))
        let car = DisplayObject()
        PathTween(target: car, path: climbing, time: 1, direction: .mirrored).advance(time: 0.5)
        #expect(abs(car.rotation - Double.pi / 4) < 1e-12 && car.scaleX == -1)
    }

    @Test func aPingPongTweenFacesBackOnTheWayBack() {
        let road = BezierPath.line(from: Vec2(100, 400), to: Vec2(900, 400))
        let facing = DisplayObject(), automatic = DisplayObject()
        var tweens: [PathTween<DisplayObject>] = []
        for (car, direction) in [(facing, PathDirection.facesTravel), (automatic, .automatic)] {
            let tween = PathTween(target: car, path: road, time: 1, direction: direction)
            tween.repeatCount = 2
            tween.reverse = true
            tweens.append(tween)
        }
        for tween in tweens { tween.advance(time: 0.5) }
        #expect(facing.x == 500 && facing.rotation == 0 && facing.scaleX == 1)
        #expect(automatic.rotation == 0 && automatic.scaleX == 1)
        for tween in tweens { tween.advance(time: 1) }   // half-way back
        #expect(facing.x == 500 && abs(facing.rotation - Double.pi) < 1e-12 && facing.scaleX == 1)
        #expect(automatic.x == 500 && automatic.rotation == 0 && automatic.scaleX == -1)
        for tween in tweens { #expect(tween.isReversedCycle) }
    }

    @Test func automaticTurnsRoundOnlyWhenHeadingLeft() throws {
        // Down the vertical road: heading straight down is not "left", so no mirror.
        let down = DisplayObject()
        PathTween(target: down, path: .line(from: Vec2(500, 0), to: Vec2(500, 768)), time: 1,
                  direction: .automatic).advance(time: 0.5)
        #expect(abs(down.rotation - Double.pi / 2) < 1e-12 && down.scaleX == 1)
        // The top road run right to left: mirrored all the way, upright within its slopes.
        let car = DisplayObject()
        let tween = PathTween(target: car, path: try makeTopRoad().reversed, time: 10, direction: .automatic)
        for _ in 0..<99 {
            tween.advance(time: 0.1)
            #expect(car.scaleX == -1 && abs(car.rotation) < Double.pi / 2)
        }
    }

    @Test func noDirectionLeavesRotationAlone() {
        let car = DisplayObject()
        car.rotation = 0.3
        PathTween(target: car, path: .line(from: Vec2(0, 0), to: Vec2(0, 100)), time: 1).advance(time: 0.5)
        #expect(car.rotation == 0.3 && car.y == 50)
    }

    @Test func delayAndCallbacksLikeAnyTween() {
        let path = BezierPath.line(from: Vec2(0, 0), to: Vec2(100, 0))
        let car = DisplayObject()
        car.x = -50
        let tween = PathTween(target: car, path: path, speed: 50)
        tween.delay = 1
        var log: [String] = []
        tween.onStart = { log.append("start") }
        tween.onComplete = { log.append("complete") }
        tween.advance(time: 0.5)
        #expect(car.x == -50 && log.isEmpty)      // waiting: not moved onto the path yet
        tween.advance(time: 1)
        #expect(car.x == 25 && log == ["start"])
        tween.advance(time: 2)
        #expect(car.x == 100 && log == ["start", "complete"] && tween.distance == 100)
    }

    @Test func aPausedJugglerStopsTheCar() {
        let juggler = Juggler()
        let car = DisplayObject()
        juggler.add(PathTween(target: car, path: .line(from: Vec2(0, 0), to: Vec2(1000, 0)), speed: 100))
        juggler.advance(time: 1)
        juggler.isPaused = true
        for _ in 0..<60 { juggler.advance(time: 1.0 / 60) }
        #expect(car.x == 100)
        juggler.isPaused = false
        juggler.advance(time: 0.5)
        #expect(car.x == 150)
    }
}
