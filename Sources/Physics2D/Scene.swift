// The engine-neutral scene format `physics-scene/1` (../shared/physics-bench/SCENES.md):
// loading a scene into a world, and the stability figures of the runner contract.
//
// Native only: it reads JSON through Foundation, which the Embedded Swift (wasm) build of
// Physics2D does not have; scripts/build-wasm leaves this file out, and the guard keeps an
// accidental inclusion from compiling Foundation code there. BenchScenes.swift builds the
// benchmark scenes without it.
#if !hasFeature(Embedded)
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

    /// Parses a scene file's bytes. Errors name the key and say what was wrong with it
    /// (`bodies[3].shape.radius must be a number > 0, got -1`).
    public init(json data: Data) throws {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw SceneError.notAScene("not valid JSON" + (detail.map { ": \($0)" } ?? ""))
        }
        guard let rootObject = parsed as? [String: Any] else {
            throw SceneError.notAScene("top level is not an object")
        }
        let root = SceneObject(rootObject, path: "")
        let format = try root.string("format")
        guard format == "physics-scene/1" else {
            throw SceneError.notAScene("format is \(format.map { "\"\($0)\"" } ?? "absent")")
        }
        let world = try root.required(root.object("world"), "world")
        let step = try root.required(root.object("step"), "step")
        let metrics = try root.object("metrics") ?? SceneObject([:], path: "metrics")
        name = try root.string("name") ?? "scene"
        gravity = try world.required(world.vec("gravity"), "gravity")
        allowSleep = try world.bool("allow_sleep") ?? false
        dt = try step.required(step.number("dt", where: { $0 > 0 }, "> 0"), "dt")
        velocityIterations = try step.int("velocity_iterations", min: 0) ?? 8
        positionIterations = try step.int("position_iterations", min: 0) ?? 3
        steps = try step.required(step.int("steps", min: 0), "steps")
        warmupSteps = try step.int("warmup_steps", min: 0) ?? 0
        metricKind = try metrics.string("kind") ?? "none"
        settleSteps = try metrics.int("settle_steps", min: 0) ?? 0
        fallThreshold = try metrics.number("fall_threshold", where: { $0 >= 0 }, ">= 0") ?? 0.5
        if let r = try metrics.array("region") {
            let nums = r.compactMap(SceneObject.numberValue)
            guard r.count == 4, nums.count == 4 else {
                throw SceneError.invalid("metrics.region must be [xmin, ymin, xmax, ymax] (4 numbers)")
            }
            region = nums
        } else {
            region = nil
        }
        regionMargin = try metrics.number("region_margin") ?? 0
        countContactBegins = try metrics.bool("count_contact_begins") ?? false
        expectedContactBegins = try metrics.int("expected_contact_begins", min: 0)

        let list = try root.required(root.array("bodies"), "bodies")
        bodies = []
        bodies.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            guard let dict = item as? [String: Any] else { throw SceneError.invalid("bodies[\(i)] must be an object") }
            let b = SceneObject(dict, path: "bodies[\(i)]")
            let typeName = try b.required(b.string("type"), "type")
            guard let type = BodyType(rawValue: typeName) else {
                throw SceneError.invalid("bodies[\(i)].type must be \"static\", \"kinematic\" or \"dynamic\", got \"\(typeName)\"")
            }
            var def = BodyDef(type: type, position: try b.required(b.vec("position"), "position"))
            def.angle = try b.number("angle") ?? 0
            def.linearVelocity = try b.vec("linear_velocity") ?? .zero
            def.angularVelocity = try b.number("angular_velocity") ?? 0
            let shape = try b.required(b.object("shape"), "shape")
            let kind = try shape.required(shape.string("type"), "type")
            let geometry: Geometry
            switch kind {
            case "box":
                let h = try shape.required(shape.vec("half_extents"), "half_extents")
                guard h.x > 0, h.y > 0 else {
                    throw SceneError.invalid("\(shape.path).half_extents must be positive, got [\(h.x), \(h.y)]")
                }
                geometry = .box(halfWidth: h.x, halfHeight: h.y)
            case "circle":
                let r = try shape.required(shape.number("radius", where: { $0 > 0 }, "> 0"), "radius")
                geometry = .circle(center: .zero, radius: r)
            case "polygon":
                let vs = try shape.required(shape.array("vertices"), "vertices")
                let pts = try vs.enumerated().map { k, v in
                    guard let p = SceneObject.vecValue(v) else {
                        throw SceneError.invalid("\(shape.path).vertices[\(k)] must be [x, y]")
                    }
                    return p
                }
                do { geometry = try .polygon(vertices: pts) } catch {
                    throw SceneError.invalid("\(shape.path).vertices: \(error)")
                }
            default:
                throw SceneError.invalid("\(shape.path).type must be \"box\", \"circle\" or \"polygon\", got \"\(kind)\"")
            }
            let sdef = ShapeDef(geometry,
                                density: try b.number("density", where: { $0 >= 0 }, ">= 0") ?? 1,
                                friction: try b.number("friction", where: { $0 >= 0 }, ">= 0") ?? 0.6,
                                restitution: try b.number("restitution", where: { $0 >= 0 }, ">= 0") ?? 0,
                                isSensor: try b.bool("sensor") ?? false)
            bodies.append((def, sdef))
        }
    }

    /// Builds a world from the scene (iterations set from the scene); bodies come back in file order.
    /// The scene's world and its bodies; `workers` threads for the soft step (`World.workers`).
    public func makeWorld(workers: Int = 1) -> (World, [Body]) {
        let world = World(gravity: gravity, workers: workers)
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

/// Typed reads from one JSON object of a scene file (from `JSONSerialization`), with errors
/// that name the key's full path and what was wrong. Absent keys (and `null`) read as nil.
private struct SceneObject {
    let dict: [String: Any]
    /// Path of this object in the file, e.g. `bodies[3].shape` ("" for the top level).
    let path: String

    init(_ dict: [String: Any], path: String) { self.dict = dict; self.path = path }

    /// JSON booleans arrive as `NSNumber`s of this class; numbers never do.
    private static let booleanType = type(of: NSNumber(value: true))

    static func numberValue(_ v: Any) -> Double? {
        guard let n = v as? NSNumber, type(of: n) != booleanType else { return nil }
        return n.doubleValue
    }

    static func vecValue(_ v: Any) -> Vec2? {
        guard let a = v as? [Any], a.count == 2, let x = numberValue(a[0]), let y = numberValue(a[1]) else { return nil }
        return Vec2(x, y)
    }

    func key(_ k: String) -> String { path.isEmpty ? k : "\(path).\(k)" }

    private func value(_ k: String) -> Any? {
        guard let v = dict[k], !(v is NSNull) else { return nil }
        return v
    }

    private func describe(_ v: Any) -> String {
        if let n = v as? NSNumber { return type(of: n) == Self.booleanType ? (n.boolValue ? "true" : "false") : "\(n)" }
        if let s = v as? String { return "\"\(s)\"" }
        if v is [Any] { return "an array" }
        if v is [String: Any] { return "an object" }
        return "\(v)"
    }

    func required<T>(_ v: T?, _ k: String) throws -> T {
        guard let v else { throw SceneError.missing(key(k)) }
        return v
    }

    func number(_ k: String, where ok: (Double) -> Bool = { _ in true }, _ condition: String = "") throws -> Double? {
        guard let v = value(k) else { return nil }
        guard let d = Self.numberValue(v) else { throw SceneError.invalid("\(key(k)) must be a number, got \(describe(v))") }
        guard ok(d) else { throw SceneError.invalid("\(key(k)) must be a number \(condition), got \(describe(v))") }
        return d
    }

    func int(_ k: String, min: Int) throws -> Int? {
        guard let v = value(k) else { return nil }
        guard let d = Self.numberValue(v), d == d.rounded(), abs(d) < 1e15 else {
            throw SceneError.invalid("\(key(k)) must be a whole number, got \(describe(v))")
        }
        guard Int(d) >= min else { throw SceneError.invalid("\(key(k)) must be >= \(min), got \(describe(v))") }
        return Int(d)
    }

    func bool(_ k: String) throws -> Bool? {
        guard let v = value(k) else { return nil }
        guard let n = v as? NSNumber, type(of: n) == Self.booleanType else {
            throw SceneError.invalid("\(key(k)) must be true or false, got \(describe(v))")
        }
        return n.boolValue
    }

    func string(_ k: String) throws -> String? {
        guard let v = value(k) else { return nil }
        guard let s = v as? String else { throw SceneError.invalid("\(key(k)) must be a string, got \(describe(v))") }
        return s
    }

    func vec(_ k: String) throws -> Vec2? {
        guard let v = value(k) else { return nil }
        guard let p = Self.vecValue(v) else { throw SceneError.invalid("\(key(k)) must be [x, y] (two numbers), got \(describe(v))") }
        return p
    }

    func array(_ k: String) throws -> [Any]? {
        guard let v = value(k) else { return nil }
        guard let a = v as? [Any] else { throw SceneError.invalid("\(key(k)) must be an array, got \(describe(v))") }
        return a
    }

    func object(_ k: String) throws -> SceneObject? {
        guard let v = value(k) else { return nil }
        guard let o = v as? [String: Any] else { throw SceneError.invalid("\(key(k)) must be an object, got \(describe(v))") }
        return SceneObject(o, path: key(k))
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

/// The stability figures of SCENES.md for one run, as typed values; the runner
/// (`quintet physics run`) prints them under the contract's `stability` key.
public struct StabilityReport: Equatable, Sendable {
    /// Figures of a `stack` scene (pyramids), comparing the final state with the initial one.
    public struct Stack: Equatable, Sendable {
        /// Largest |Δp| of a body (m).
        public var maxDisplacement: Double
        /// Largest sideways |Δx| (m).
        public var maxHorizontalDisplacement: Double
        /// Largest drop −Δy (m, 0 if nothing went down).
        public var maxDrop: Double
        /// Largest rise +Δy (m).
        public var maxRise: Double
        /// Largest |p_end − p_settle| since `settleSteps`, nil when the run had no settle snapshot.
        public var maxDriftAfterSettle: Double?
        /// The scene's `settle_steps`.
        public var settleSteps: Int
        /// Largest rotation (degrees, wrapped to ±180).
        public var maxRotationDegrees: Double
        /// The scene's `fall_threshold` (m).
        public var fallThreshold: Double
        /// Bodies that moved sideways or down by more than the threshold.
        public var movedCount: Int
        /// True when a body moved more than the threshold or a state is not finite.
        public var fell: Bool
        /// Number of bodies compared.
        public var tracked: Int
    }

    /// Figures of a `pile` scene (many_circles) at the end of the run.
    public struct Pile: Equatable, Sendable {
        /// Bodies whose origin is outside `region` ± `region_margin`.
        public var escaped: Int
        /// Largest speed (m/s).
        public var maxSpeedEnd: Double
        /// Total kinetic energy, translational plus rotational (J).
        public var kineticEnergyEnd: Double
        /// Height of the highest body (m).
        public var maxHeightEnd: Double
        /// Number of bodies compared.
        public var tracked: Int
    }

    /// The contact-begin count of a scene with `count_contact_begins`.
    public struct ContactBegins: Equatable, Sendable {
        /// Begin events counted during the run.
        public var count: Int
        /// The scene's `expected_contact_begins`, nil when absent or when `--steps` changed the step count.
        public var expected: Int?
        /// Whether `count` equals `expected` (nil without an expectation).
        public var matches: Bool? { expected.map { $0 == count } }
    }

    /// `metrics.kind` of the scene.
    public var kind: String
    /// False if a final position or angle is NaN or infinite.
    public var finite: Bool
    /// Set for `stack` scenes.
    public var stack: Stack?
    /// Set for `pile` scenes.
    public var pile: Pile?
    /// Set when the scene counts contact begins.
    public var contactBegins: ContactBegins?
    /// One line for people (the runner's report without `--json`); empty when there is no figure.
    public var text: String
}

/// The stability figures of SCENES.md for a finished run.
public enum StabilityMetrics {
    /// - Parameters: initial/settled/final states of the dynamic bodies (same order), contact begins counted.
    public static func compute(scene: Scene, steps: Int, initial: [BodyState], settled: [BodyState]?,
                               final: [BodyState], contactBegins: Int) -> StabilityReport {
        let finite = final.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.angle.isFinite }
        var report = StabilityReport(kind: scene.metricKind, finite: finite, text: "")
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
            report.stack = .init(maxDisplacement: maxDisp, maxHorizontalDisplacement: maxDx, maxDrop: maxDrop,
                                 maxRise: maxRise, maxDriftAfterSettle: settleValid ? maxDrift : nil,
                                 settleSteps: scene.settleSteps, maxRotationDegrees: maxRot * 180 / Double.pi,
                                 fallThreshold: thr, movedCount: moved, fell: fell, tracked: final.count)
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
            report.pile = .init(escaped: escaped, maxSpeedEnd: vmax, kineticEnergyEnd: ke, maxHeightEnd: ymax,
                                tracked: final.count)
            text = String(format: "%d/%d bodies escaped the container, max speed at end %.3f m/s, kinetic energy at end %.3f J, pile top %.2f m",
                          escaped, final.count, vmax, ke, ymax)
        }
        if scene.countContactBegins {
            var t: String
            if let exp = scene.expectedContactBegins, steps == scene.steps {
                report.contactBegins = .init(count: contactBegins, expected: exp)
                t = "\(contactBegins) contact-begin events (expected \(exp): \(exp == contactBegins ? "match" : "MISMATCH"))"
            } else {
                report.contactBegins = .init(count: contactBegins, expected: nil)
                t = "\(contactBegins) contact-begin events"
            }
            text += (text.isEmpty ? "" : "; ") + t
        }
        report.text = text
        return report
    }
}

#endif  // !hasFeature(Embedded)
