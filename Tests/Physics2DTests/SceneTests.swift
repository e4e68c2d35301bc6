import Foundation
import Testing
@testable import Physics2D

/// The physics-scene/1 loader and the runner contract's stability figures.
@Suite struct SceneTests {
    static let pyramidJSON = """
    {"format": "physics-scene/1", "name": "tiny", "description": "",
     "world": {"gravity": [0.0, -10.0], "allow_sleep": false},
     "step": {"dt": 0.016666666666666666, "velocity_iterations": 8, "position_iterations": 3, "steps": 200, "warmup_steps": 10},
     "metrics": {"kind": "stack", "settle_steps": 120, "fall_threshold": 0.5},
     "bodies": [
      {"type": "static", "position": [0.0, -0.5], "shape": {"type": "box", "half_extents": [40.0, 0.5]}, "density": 0.0},
      {"type": "dynamic", "position": [-0.5625, 0.5], "shape": {"type": "box", "half_extents": [0.5, 0.5]}},
      {"type": "dynamic", "position": [0.5625, 0.5], "shape": {"type": "box", "half_extents": [0.5, 0.5]}},
      {"type": "dynamic", "position": [0.0, 1.5], "angle": 0.0, "shape": {"type": "polygon", "vertices": [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]}, "friction": 0.6},
      {"type": "kinematic", "position": [5.0, 5.0], "linear_velocity": [1.0, 0.0], "shape": {"type": "circle", "radius": 0.4}, "sensor": true, "tag": "zone"}
     ]}
    """

    @Test func loadsEveryKey() throws {
        let scene = try Scene(json: Data(Self.pyramidJSON.utf8))
        #expect(scene.name == "tiny")
        #expect(scene.gravity == Vec2(0, -10))
        #expect(scene.steps == 200 && scene.warmupSteps == 10)
        #expect(scene.velocityIterations == 8 && scene.positionIterations == 3)
        #expect(scene.metricKind == "stack" && scene.settleSteps == 120 && scene.fallThreshold == 0.5)
        let (world, bodies) = scene.makeWorld()
        #expect(bodies.count == 5)
        #expect(bodies[0].type == .static && bodies[4].type == .kinematic)
        #expect(bodies[4].linearVelocity == Vec2(1, 0))
        #expect(bodies[4].shapes[0].isSensor)
        #expect(abs(bodies[3].mass - 1) < 1e-12)
        #expect(bodies[1].shapes[0].friction == 0.6)    // the default
        for _ in 0..<scene.steps { world.step(scene.dt) }
        let tracked = bodies.filter { $0.type == .dynamic }
        let final = tracked.map(BodyState.init)
        let report = StabilityMetrics.compute(scene: scene, steps: scene.steps, initial: final,
                                              settled: final, final: final, contactBegins: 0)
        let stack = try #require(report.stack)
        #expect(report.kind == "stack" && report.finite && report.pile == nil && report.contactBegins == nil)
        #expect(stack.maxDisplacement == 0 && stack.movedCount == 0 && !stack.fell && stack.tracked == 3)
        #expect(stack.maxDriftAfterSettle == 0 && stack.settleSteps == 120 && stack.fallThreshold == 0.5)
        #expect(report.text.hasSuffix("stable"))
    }

    @Test func rejectsBadFiles() {
        #expect(throws: SceneError.self) { try Scene(json: Data(#"{"format": "physics-scene/2"}"#.utf8)) }
        let concave = Self.pyramidJSON.replacingOccurrences(
            of: "[[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]",
            with: "[[-0.5, -0.5], [0.5, -0.5], [0.0, -0.4], [-0.5, 0.5]]")
        #expect(throws: SceneError.self) { try Scene(json: Data(concave.utf8)) }
        #expect(throws: GeometryError.self) { try Polygon(vertices: [Vec2(0, 0), Vec2(1, 0)]) }
        #expect(throws: GeometryError.notConvex) { try Polygon(vertices: [Vec2(0, 0), Vec2(0, 1), Vec2(1, 0)]) }
    }

    @Test func pileAndSensorFigures() throws {
        var scene = try Scene(json: Data(Self.pyramidJSON.utf8))
        scene.metricKind = "pile"
        scene.region = [-1, -1, 1, 1]
        scene.countContactBegins = true
        scene.expectedContactBegins = 4
        var inside = BodyState(World().createBody(BodyDef(type: .dynamic)))
        inside.vx = 3; inside.vy = 4
        var outside = inside
        outside.x = 5
        let st = StabilityMetrics.compute(scene: scene, steps: scene.steps, initial: [], settled: nil,
                                          final: [inside, outside], contactBegins: 4)
        let pile = try #require(st.pile)
        #expect(pile.escaped == 1)
        #expect(pile.maxSpeedEnd == 5)
        #expect(pile.kineticEnergyEnd == 25)     // 2 × ½·1 kg·25
        #expect(st.contactBegins?.matches == true && st.stack == nil)
        let st2 = StabilityMetrics.compute(scene: scene, steps: 10, initial: [], settled: nil,
                                           final: [inside], contactBegins: 4)
        #expect(st2.contactBegins?.count == 4)
        #expect(st2.contactBegins?.expected == nil)       // --steps overrides: no comparison
        #expect(st2.contactBegins?.matches == nil)
    }

    /// The message of the error a scene raises (or "" when it loads).
    func message(_ json: String) -> String {
        do { _ = try Scene(json: Data(json.utf8)); return "" } catch { return "\(error)" }
    }

    /// The tiny scene with one body's key replaced.
    func withBody(_ body: String) -> String {
        Self.pyramidJSON.replacingOccurrences(
            of: #"{"type": "dynamic", "position": [0.5625, 0.5], "shape": {"type": "box", "half_extents": [0.5, 0.5]}}"#,
            with: body)
    }

    @Test func errorsNameTheKeyAndWhatWasWrong() {
        #expect(message("{ not json").hasPrefix("not a physics-scene/1 file: not valid JSON"))
        #expect(message("[1, 2]") == "not a physics-scene/1 file: top level is not an object")
        #expect(message(#"{"format": "physics-scene/2"}"#) == #"not a physics-scene/1 file: format is "physics-scene/2""#)
        #expect(message(#"{"name": "x"}"#) == "not a physics-scene/1 file: format is absent")
        let noStep = Self.pyramidJSON.replacingOccurrences(of: #""step": {"#, with: #""stepp": {"#)
        #expect(message(noStep) == "missing key: step")
        let badDt = Self.pyramidJSON.replacingOccurrences(of: "\"dt\": 0.016666666666666666", with: "\"dt\": -1")
        #expect(message(badDt) == "invalid scene: step.dt must be a number > 0, got -1")
        let textSteps = Self.pyramidJSON.replacingOccurrences(of: "\"steps\": 200", with: "\"steps\": \"200\"")
        #expect(message(textSteps) == #"invalid scene: step.steps must be a whole number, got "200""#)
        let negSteps = Self.pyramidJSON.replacingOccurrences(of: "\"steps\": 200", with: "\"steps\": -3")
        #expect(message(negSteps) == "invalid scene: step.steps must be >= 0, got -3")
        let negIterations = Self.pyramidJSON.replacingOccurrences(of: "\"velocity_iterations\": 8", with: "\"velocity_iterations\": -1")
        #expect(message(negIterations) == "invalid scene: step.velocity_iterations must be >= 0, got -1")
        let sleepNumber = Self.pyramidJSON.replacingOccurrences(of: "\"allow_sleep\": false", with: "\"allow_sleep\": 0")
        #expect(message(sleepNumber) == "invalid scene: world.allow_sleep must be true or false, got 0")
        let shortRegion = Self.pyramidJSON.replacingOccurrences(of: "\"fall_threshold\": 0.5", with: "\"region\": [0, 1]")
        #expect(message(shortRegion) == "invalid scene: metrics.region must be [xmin, ymin, xmax, ymax] (4 numbers)")
        #expect(message(withBody(#"{"type": "floating", "position": [0, 0], "shape": {"type": "circle", "radius": 1}}"#))
                == #"invalid scene: bodies[2].type must be "static", "kinematic" or "dynamic", got "floating""#)
        #expect(message(withBody(#"{"type": "dynamic", "shape": {"type": "circle", "radius": 1}}"#))
                == "missing key: bodies[2].position")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0], "shape": {"type": "circle", "radius": 1}}"#))
                == "invalid scene: bodies[2].position must be [x, y] (two numbers), got an array")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle", "radius": -1}}"#))
                == "invalid scene: bodies[2].shape.radius must be a number > 0, got -1")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle"}}"#))
                == "missing key: bodies[2].shape.radius")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "capsule"}}"#))
                == #"invalid scene: bodies[2].shape.type must be "box", "circle" or "polygon", got "capsule""#)
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "box", "half_extents": [1, 0]}}"#))
                == "invalid scene: bodies[2].shape.half_extents must be positive, got [1.0, 0.0]")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "polygon", "vertices": [[0, 0], [1, 0], [0, "1"]]}}"#))
                == "invalid scene: bodies[2].shape.vertices[2] must be [x, y]")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "polygon", "vertices": [[0, 0], [1, 0]]}}"#))
                == "invalid scene: bodies[2].shape.vertices: a polygon needs at least 3 vertices (got 2)")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle", "radius": 1}, "density": true}"#))
                == "invalid scene: bodies[2].density must be a number, got true")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle", "radius": 1}, "friction": -0.1}"#))
                == "invalid scene: bodies[2].friction must be a number >= 0, got -0.1")
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle", "radius": 1}, "sensor": "yes"}"#))
                == #"invalid scene: bodies[2].sensor must be true or false, got "yes""#)
        // Unknown keys (tag, description) and null values are ignored; absent keys take their defaults.
        #expect(message(withBody(#"{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle", "radius": 1}, "angle": null, "tag": "x"}"#)) == "")
    }
}
