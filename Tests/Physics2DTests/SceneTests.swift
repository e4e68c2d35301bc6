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
        let (stability, text) = StabilityMetrics.compute(scene: scene, steps: scene.steps, initial: final,
                                                         settled: final, final: final, contactBegins: 0)
        for key in ["kind", "finite", "max_displacement_m", "max_horizontal_displacement_m", "max_drop_m", "max_rise_m",
                    "max_drift_after_settle_m", "settle_steps", "max_rotation_deg", "fall_threshold_m", "moved_count",
                    "fell", "tracked"] {
            #expect(stability[key] != nil, "missing \(key)")
        }
        #expect(text.hasSuffix("stable"))
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
        let (st, _) = StabilityMetrics.compute(scene: scene, steps: scene.steps, initial: [], settled: nil,
                                               final: [inside, outside], contactBegins: 4)
        #expect(st["escaped"]?.text == "1")
        #expect(st["max_speed_end_mps"]?.text == "5.0")
        #expect(st["kinetic_energy_end_J"]?.text == "25.0")   // 2 × ½·1 kg·25
        #expect(st["begins_match"]?.text == "true")
        let (st2, _) = StabilityMetrics.compute(scene: scene, steps: 10, initial: [], settled: nil,
                                                final: [inside], contactBegins: 4)
        #expect(st2["expected_contact_begins"] == nil)       // --steps overrides: no comparison
        #expect(JSONValue.number(.nan).text == "null")
        #expect(JSONValue.string("a\"b").text == #""a\"b""#)
    }
}
