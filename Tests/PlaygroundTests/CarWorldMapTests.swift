import Foundation
import Testing
import Playground

/// The map: the art draws exactly the game's roads, every sensor box sits on a real crossing, the
/// lights stand beside the roads, and cars of different roads can only touch at a crossing.
@Suite struct CarWorldMapTests {
    /// The numbers of an SVG path's `d` ("M x y C … L x y"), read as segments.
    func segments(fromPathData data: String) throws -> [RoadSegment] {
        var tokens: [String] = []
        var number = ""
        for ch in data {
            if ch.isLetter {
                if !number.isEmpty { tokens.append(number); number = "" }
                tokens.append(String(ch))
            } else if ch == " " || ch == "," {
                if !number.isEmpty { tokens.append(number); number = "" }
            } else {
                number.append(ch)
            }
        }
        if !number.isEmpty { tokens.append(number) }
        var i = 0
        func next() throws -> Double {
            guard i < tokens.count, let value = Double(tokens[i]) else { throw MapTestError.badPathData(data) }
            i += 1
            return value
        }
        var result: [RoadSegment] = []
        var current = MapPoint(0, 0)
        while i < tokens.count {
            let command = tokens[i]
            i += 1
            switch command {
            case "M": current = MapPoint(try next(), try next())
            case "C":
                let b = MapPoint(try next(), try next()), c = MapPoint(try next(), try next())
                let d = MapPoint(try next(), try next())
                result.append(.cubic(current, b, c, d))
                current = d
            case "L":
                let d = MapPoint(try next(), try next())
                result.append(.line(current, d))
                current = d
            default: throw MapTestError.badPathData(data)
            }
        }
        return result
    }

    enum MapTestError: Error { case badPathData(String), noPath(String) }

    /// The `d` attribute of the element with id `id` in background.svg.
    func pathData(id: String, in svg: String) throws -> String {
        guard let start = svg.range(of: "id=\"\(id)\" d=\"") else { throw MapTestError.noPath(id) }
        guard let end = svg[start.upperBound...].firstIndex(of: "\"") else { throw MapTestError.noPath(id) }
        return String(svg[start.upperBound..<end])
    }

    @Test func backgroundArtDrawsExactlyTheGamesRoads() throws {
        let svg = try Repository.text("Web/playground/art/carworld/background.svg")
        for road in RoadID.allCases {
            let drawn = try segments(fromPathData: try pathData(id: road.svgID, in: svg))
            #expect(drawn == CarWorldMap.roads[road.rawValue], "\(road.svgID)")
        }
        // One definition per road, which every layer (kerb, surface, stitches) draws by reference.
        for road in RoadID.allCases {
            #expect(svg.components(separatedBy: "id=\"\(road.svgID)\"").count == 2, "\(road.svgID) defined once")
            #expect(svg.components(separatedBy: "href=\"#\(road.svgID)\"").count == 4, "\(road.svgID) drawn in 3 layers")
        }
    }

    @Test func topRoadIsTheOriginalsFiveSegments() {
        // The thesis's table with left = 0 and right = 1024.
        let original: [(Double, Double)] = [
            (0, 360), (0, 360), (92, 210), (213, 331), (213, 331), (264, 381), (361, 216), (505, 319),
            (505, 319), (548, 348), (672, 290), (732, 284), (732, 284), (786, 280), (824, 362), (892, 353),
            (892, 353), (972, 340), (1024, 302), (1024, 302),
        ]
        let top = CarWorldMap.roads[RoadID.top.rawValue]
        #expect(top.count == 5)
        for (index, segment) in top.enumerated() {
            guard case .cubic(let a, let b, let c, let d) = segment else {
                Issue.record("segment \(index + 1) is not cubic")
                continue
            }
            let given = original[(index * 4)..<(index * 4 + 4)].map { MapPoint($0.0, $0.1) }
            #expect([a, b, c, d] == given, "segment \(index + 1)")
        }
    }

    @Test func roadsAreChainedAndRunTheirWay() {
        for road in RoadID.allCases {
            let segments = CarWorldMap.roads[road.rawValue]
            for i in 1..<max(segments.count, 1) where segments.count > 1 {
                #expect(segments[i].start == segments[i - 1].end, "\(road) segment \(i)")
            }
            let start = segments[0].start, end = segments[segments.count - 1].end
            switch road {
            case .top: #expect(start.x == 0 && end.x == CarWorldMap.width)
            case .second: #expect(start.x > CarWorldMap.width && end.x < 0)
            case .vertical: #expect(start.x == end.x && start.y < 0 && end.y > CarWorldMap.height)
            }
        }
    }

    @Test func everySensorBoxSitsOnTheCrossingOfItsTwoRoads() {
        var expected: [MapPoint] = []
        for crossing in CarWorldMap.crossings {
            for road in [crossing.roads.0, crossing.roads.1] {
                let d = MapGeometry.distance(crossing.box, toRoad: CarWorldMap.roads[road.rawValue])
                #expect(d <= 0.5, "box \(crossing.box) is \(d) from \(road)")
            }
            expected.append(crossing.box)
        }
        // And the roads cross nowhere else: exactly four crossings, each near one box.
        let polylines = CarWorldMap.roads.map { MapGeometry.samples($0, perSegment: 400) }
        var found: [MapPoint] = []
        for (i, j) in [(0, 1), (0, 2), (1, 2)] { found += MapGeometry.intersections(polylines[i], polylines[j]) }
        #expect(found.count == 4)
        for point in found {
            #expect(expected.contains { MapGeometry.distance($0, point) <= 0.5 }, "unexpected crossing \(point)")
        }
        // A road never crosses itself.
        for (index, line) in polylines.enumerated() {
            let halves = (Array(line[..<(line.count / 2 + 1)]), Array(line[(line.count / 2)...]))
            #expect(MapGeometry.intersections(halves.0, halves.1).count <= 1, "road \(index)")
        }
    }

    @Test func lightsKeepTheOriginalPlacesAndStates() {
        let original: [(Double, Double, Bool)] = [(428, 475, true), (538, 540, false), (785, 100, true), (680, 250, false)]
        #expect(CarWorldMap.lights.count == 4)
        for (light, given) in zip(CarWorldMap.lights, original) {
            #expect(light.position == MapPoint(given.0, given.1) && light.startsRed == given.2, "\(light.name)")
        }
        #expect(Set(CarWorldMap.lights.map(\.crossing)) == [0, 1, 2, 3])
    }

    @Test func lightPostsStandBesideTheRoads() {
        // The post (light-post.svg, 28 × 80) stands on its foot; it may not touch a road's kerb.
        let (w, h) = (Double(CarWorldArt.Region.lightPost.width), Double(CarWorldArt.Region.lightPost.height))
        for light in CarWorldMap.lights {
            let (x0, y0, x1, y1) = (light.position.x - w / 2, light.position.y - h, light.position.x + w / 2, light.position.y)
            for road in RoadID.allCases {
                var nearest = Double.infinity
                for p in MapGeometry.samples(CarWorldMap.roads[road.rawValue], perSegment: 600) {
                    let dx = max(x0 - p.x, 0, p.x - x1), dy = max(y0 - p.y, 0, p.y - y1)
                    nearest = min(nearest, (dx * dx + dy * dy).squareRoot())
                }
                #expect(nearest > CarWorldMap.roadHalfWidth + 4, "\(light.name) is \(nearest) from \(road)")
            }
        }
    }

    @Test func carsOfDifferentRoadsTouchOnlyInsideACrossing() {
        // Every pair of car poses (60 × 30, along each road's tangent) on two roads: where the
        // rectangles overlap, both centres must be within the crossing zone of one crossing.
        let zone = CarWorldMap.crossingZoneRadius
        let (length, width) = (Double(CarWorldArt.Region.carRed.width), Double(CarWorldArt.Region.carRed.height))
        let poses = CarWorldMap.roads.map { MapGeometry.poses($0, perSegment: 150) }
        var touching = 0
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            for p in poses[i] {
                let cornersP = MapGeometry.corners(centre: p.centre, heading: p.heading, length: length, width: width)
                let axesP = [p.heading, MapPoint(-p.heading.y, p.heading.x)]
                for q in poses[j] where MapGeometry.distance(p.centre, q.centre) < 70 {
                    let cornersQ = MapGeometry.corners(centre: q.centre, heading: q.heading, length: length, width: width)
                    let axesQ = [q.heading, MapPoint(-q.heading.y, q.heading.x)]
                    guard MapGeometry.overlap(cornersP, axesA: axesP, cornersQ, axesB: axesQ) else { continue }
                    touching += 1
                    let inside = CarWorldMap.crossings.contains {
                        MapGeometry.distance($0.box, p.centre) <= zone && MapGeometry.distance($0.box, q.centre) <= zone
                    }
                    #expect(inside, "roads \(i), \(j): cars at \(p.centre) and \(q.centre) touch outside a crossing")
                }
            }
        }
        #expect(touching > 0)   // the check saw the crossings themselves
    }

    @Test func carsAGapApartOnOneRoadNeverTouch() {
        // Two cars of one road keep at least CarWorldRules().minimumGap of road between their
        // centres; even in the tightest bend that leaves them apart.
        let gap = CarWorldRules().minimumGap
        let (length, width) = (Double(CarWorldArt.Region.carRed.width), Double(CarWorldArt.Region.carRed.height))
        for road in RoadID.allCases {
            let poses = MapGeometry.poses(CarWorldMap.roads[road.rawValue], perSegment: 300)
            var along: [Double] = [0]
            for i in 1..<poses.count { along.append(along[i - 1] + MapGeometry.distance(poses[i - 1].centre, poses[i].centre)) }
            for i in 0..<poses.count {
                let p = poses[i]
                let cornersP = MapGeometry.corners(centre: p.centre, heading: p.heading, length: length, width: width)
                let axesP = [p.heading, MapPoint(-p.heading.y, p.heading.x)]
                for j in (i + 1)..<poses.count where along[j] - along[i] >= gap {
                    let q = poses[j]
                    guard MapGeometry.distance(p.centre, q.centre) < 70 else { continue }
                    let cornersQ = MapGeometry.corners(centre: q.centre, heading: q.heading, length: length, width: width)
                    let axesQ = [q.heading, MapPoint(-q.heading.y, q.heading.x)]
                    #expect(!MapGeometry.overlap(cornersP, axesA: axesP, cornersQ, axesB: axesQ),
                            "\(road): cars at \(p.centre) and \(q.centre), \(along[j] - along[i]) apart, touch")
                }
            }
        }
    }
}
