// The engine-neutral scene format `physics-scene/1` (../shared/physics-bench/SCENES.md):
// loading a scene into a world, and the stability figures of the runner contract.
import Foundation

/// Errors raised while reading a scene file.
public enum SceneError: Error, CustomStringConvertible {
    case notAScene(String)
    case missing(String)
    case invalid(String)
    public var description: String {
        switch self {
        case .notAScene(let s): return "not a physics-scene/1 file: \(s)"
        case .missing(let k): return "missing key: \(k)"
        case .invalid(let s): return "invalid scene: \(s)"
        }
    }
}

/// A parsed scene: settings plus the world built from its bodies.
public struct Scene {
    public var name: String
    public var dt: Double
    public var velocityIterations: Int
    public var positionIterations: Int
    public var steps: Int
    public var warmupSteps: Int
    /// `metrics.kind`: "stack", "pile", "sensor" or "none".
    public var metricKind: String
    public var settleSteps: Int
    public var fallThreshold: Double
    /// `[xmin, ymin, xmax, ymax]` for "pile".
    public var region: [Double]?
    public var regionMargin: Double
    public var countContactBegins: Bool
    public var expectedContactBegins: Int?
    public var allowSleep: Bool
    public var gravity: Vec2
    /// Body definitions in file order.
    public var bodies: [(BodyDef, ShapeDef)]

    /// Parses a scene file's bytes.
    public init(json data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SceneError.notAScene("top level is not an object")
        }
        guard root["format"] as? String == "physics-scene/1" else {
            throw SceneError.notAScene("format is \(root["format"] ?? "absent")")
        }
        func num(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }
        func vec(_ v: Any?, _ key: String) throws -> Vec2 {
            guard let a = v as? [Any], a.count == 2, let x = num(a[0]), let y = num(a[1]) else {
                throw SceneError.invalid("\(key) must be [x, y]")
            }
            return Vec2(x, y)
        }
        guard let world = root["world"] as? [String: Any] else { throw SceneError.missing("world") }
        guard let step = root["step"] as? [String: Any] else { throw SceneError.missing("step") }
        let metrics = root["metrics"] as? [String: Any] ?? [:]
        name = root["name"] as? String ?? "scene"
        gravity = try vec(world["gravity"], "world.gravity")
        allowSleep = world["allow_sleep"] as? Bool ?? false
        guard let dt = num(step["dt"]), dt > 0 else { throw SceneError.missing("step.dt") }
        self.dt = dt
        velocityIterations = (step["velocity_iterations"] as? NSNumber)?.intValue ?? 8
        positionIterations = (step["position_iterations"] as? NSNumber)?.intValue ?? 3
        guard let st = (step["steps"] as? NSNumber)?.intValue else { throw SceneError.missing("step.steps") }
        steps = st
        warmupSteps = (step["warmup_steps"] as? NSNumber)?.intValue ?? 0
        metricKind = metrics["kind"] as? String ?? "none"
        settleSteps = (metrics["settle_steps"] as? NSNumber)?.intValue ?? 0
        fallThreshold = num(metrics["fall_threshold"]) ?? 0.5
        region = (metrics["region"] as? [Any])?.compactMap { num($0) }
        regionMargin = num(metrics["region_margin"]) ?? 0
        countContactBegins = metrics["count_contact_begins"] as? Bool ?? false
        expectedContactBegins = (metrics["expected_contact_begins"] as? NSNumber)?.intValue

        guard let list = root["bodies"] as? [[String: Any]] else { throw SceneError.missing("bodies") }
        bodies = []
        for (i, b) in list.enumerated() {
            guard let typeName = b["type"] as? String, let type = BodyType(rawValue: typeName) else {
                throw SceneError.invalid("bodies[\(i)].type")
            }
            var def = BodyDef(type: type, position: try vec(b["position"], "bodies[\(i)].position"))
            def.angle = num(b["angle"]) ?? 0
            if b["linear_velocity"] != nil { def.linearVelocity = try vec(b["linear_velocity"], "bodies[\(i)].linear_velocity") }
            def.angularVelocity = num(b["angular_velocity"]) ?? 0
            guard let shape = b["shape"] as? [String: Any], let kind = shape["type"] as? String else {
                throw SceneError.invalid("bodies[\(i)].shape")
            }
            let geometry: Geometry
            switch kind {
            case "box":
                let h = try vec(shape["half_extents"], "bodies[\(i)].shape.half_extents")
                guard h.x > 0, h.y > 0 else { throw SceneError.invalid("bodies[\(i)]: box half extents must be positive") }
                geometry = .box(halfWidth: h.x, halfHeight: h.y)
            case "circle":
                guard let r = num(shape["radius"]), r > 0 else { throw SceneError.invalid("bodies[\(i)].shape.radius") }
                geometry = .circle(center: .zero, radius: r)
            case "polygon":
                guard let vs = shape["vertices"] as? [Any] else { throw SceneError.invalid("bodies[\(i)].shape.vertices") }
                let pts = try vs.map { try vec($0, "bodies[\(i)].shape.vertices") }
                do { geometry = try .polygon(vertices: pts) } catch {
                    throw SceneError.invalid("bodies[\(i)]: \(error)")
                }
            default:
                throw SceneError.invalid("bodies[\(i)]: unknown shape type \(kind)")
            }
            let sdef = ShapeDef(geometry, density: num(b["density"]) ?? 1, friction: num(b["friction"]) ?? 0.6,
                                restitution: num(b["restitution"]) ?? 0, isSensor: b["sensor"] as? Bool ?? false)
            bodies.append((def, sdef))
        }
    }

    /// Builds a world from the scene (iterations set from the scene); bodies come back in file order.
    public func makeWorld() -> (World, [Body]) {
        let world = World(gravity: gravity)
        world.velocityIterations = velocityIterations
        world.positionIterations = positionIterations
        world.allowSleep = allowSleep
        var list: [Body] = []
        list.reserveCapacity(bodies.count)
        for (def, sdef) in bodies {
            let b = world.createBody(def)
            world.createShape(on: b, sdef)
            list.append(b)
        }
        return (world, list)
    }
}

/// A snapshot of one dynamic body for the stability figures.
public struct BodyState: Sendable {
    public var x: Double, y: Double, angle: Double, vx: Double, vy: Double, w: Double, mass: Double, inertia: Double
    public init(_ b: Body) {
        x = b.position.x; y = b.position.y; angle = b.angle
        vx = b.linearVelocity.x; vy = b.linearVelocity.y; w = b.angularVelocity
        mass = b.mass; inertia = b.inertia
    }
}

/// A JSON value with a fixed key order, for printing the runner contract's object.
public indirect enum JSONValue {
    case number(Double)
    case int(Int)
    case bool(Bool)
    case string(String)
    case null
    case object([(String, JSONValue)])

    /// Compact JSON text; non-finite numbers become null.
    public var text: String {
        switch self {
        case .number(let d):
            guard d.isFinite else { return "null" }
            return "\(d)"
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .string(let s):
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
                }
            }
            return out + "\""
        case .object(let kv):
            return "{" + kv.map { JSONValue.string($0.0).text + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let kv) = self { return kv.first { $0.0 == key }?.1 }
        return nil
    }
}

/// The stability figures of SCENES.md for a finished run.
public enum StabilityMetrics {
    /// - Parameters: initial/settled/final states of the dynamic bodies (same order), contact begins counted.
    public static func compute(scene: Scene, steps: Int, initial: [BodyState], settled: [BodyState]?,
                               final: [BodyState], contactBegins: Int) -> (JSONValue, String) {
        var kv: [(String, JSONValue)] = [("kind", .string(scene.metricKind))]
        let finite = final.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.angle.isFinite }
        kv.append(("finite", .bool(finite)))
        var text = ""
        func wrap(_ a: Double) -> Double {
            var a = a
            while a > Double.pi { a -= 2 * Double.pi }
            while a < -Double.pi { a += 2 * Double.pi }
            return a
        }
        if scene.metricKind == "stack" {
            let thr = scene.fallThreshold
            var maxDisp = 0.0, maxDx = 0.0, maxDrop = 0.0, maxRise = 0.0, maxDrift = 0.0, maxRot = 0.0
            var moved = 0
            for i in 0..<final.count {
                let p = final[i], p0 = initial[i]
                let dx = p.x - p0.x, dy = p.y - p0.y
                maxDisp = max(maxDisp, (dx * dx + dy * dy).squareRoot())
                maxDx = max(maxDx, abs(dx))
                maxDrop = max(maxDrop, -dy)
                maxRise = max(maxRise, dy)
                if let s = settled?[i] {
                    let ex = p.x - s.x, ey = p.y - s.y
                    maxDrift = max(maxDrift, (ex * ex + ey * ey).squareRoot())
                }
                maxRot = max(maxRot, abs(wrap(p.angle - p0.angle)))
                if !(abs(dx) <= thr && -dy <= thr) { moved += 1 }
            }
            let settleValid = scene.settleSteps > 0 && scene.settleSteps <= steps && settled != nil
            let fell = moved > 0 || !finite
            kv += [("max_displacement_m", .number(maxDisp)), ("max_horizontal_displacement_m", .number(maxDx)),
                   ("max_drop_m", .number(maxDrop)), ("max_rise_m", .number(maxRise)),
                   ("max_drift_after_settle_m", settleValid ? .number(maxDrift) : .null),
                   ("settle_steps", .int(scene.settleSteps)), ("max_rotation_deg", .number(maxRot * 180 / Double.pi)),
                   ("fall_threshold_m", .number(thr)), ("moved_count", .int(moved)), ("fell", .bool(fell)),
                   ("tracked", .int(final.count))]
            text = String(format: "max displacement %.4f m (sideways %.4f, drop %.4f, rise %.4f), drift since step %d %.4f m, max rotation %.3f deg, %d/%d boxes moved sideways/down > %.2f m -> ",
                          maxDisp, maxDx, maxDrop, maxRise, scene.settleSteps, settleValid ? maxDrift : Double.nan,
                          maxRot * 180 / Double.pi, moved, final.count, thr) + (fell ? "FELL" : "stable")
        } else if scene.metricKind == "pile" {
            let r = scene.region ?? [-Double.infinity, -Double.infinity, Double.infinity, Double.infinity]
            let m = scene.regionMargin
            var escaped = 0, ke = 0.0, vmax = 0.0, ymax = -Double.infinity
            for b in final {
                if !(b.x >= r[0] - m && b.x <= r[2] + m && b.y >= r[1] - m && b.y <= r[3] + m) { escaped += 1 }
                ke += 0.5 * b.mass * (b.vx * b.vx + b.vy * b.vy) + 0.5 * b.inertia * b.w * b.w
                vmax = max(vmax, (b.vx * b.vx + b.vy * b.vy).squareRoot())
                ymax = max(ymax, b.y)
            }
            kv += [("escaped", .int(escaped)), ("max_speed_end_mps", .number(vmax)),
                   ("kinetic_energy_end_J", .number(ke)), ("max_height_end_m", .number(ymax)),
                   ("tracked", .int(final.count))]
            text = String(format: "%d/%d bodies escaped the container, max speed at end %.3f m/s, kinetic energy at end %.3f J, pile top %.2f m",
                          escaped, final.count, vmax, ke, ymax)
        }
        if scene.countContactBegins {
            kv.append(("contact_begins", .int(contactBegins)))
            var t: String
            if let exp = scene.expectedContactBegins, steps == scene.steps {
                kv.append(("expected_contact_begins", .int(exp)))
                kv.append(("begins_match", .bool(exp == contactBegins)))
                t = "\(contactBegins) contact-begin events (expected \(exp): \(exp == contactBegins ? "match" : "MISMATCH"))"
            } else {
                t = "\(contactBegins) contact-begin events"
            }
            text += (text.isEmpty ? "" : "; ") + t
        }
        return (.object(kv), text)
    }
}
