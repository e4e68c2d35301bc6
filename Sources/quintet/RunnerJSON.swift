// The JSON object `quintet physics run --json` prints (the runner contract of
// ../shared/physics-bench/SCENES.md): a small value type that keeps key order, and the
// contract's key names for Physics2D's typed stability figures.
import Foundation
import Physics2D
import WireFormats

/// A JSON value with a fixed key order, for printing the runner contract's object.
indirect enum JSONValue {
    case number(Double)
    case int(Int)
    case bool(Bool)
    case string(String)
    case null
    case object([(String, JSONValue)])

    /// A number, or null when absent.
    static func number(_ d: Double?) -> JSONValue { d.map { .number($0) } ?? .null }

    /// Compact JSON text; non-finite numbers become null.
    var text: String {
        switch self {
        case .number(let d):
            guard d.isFinite else { return "null" }
            return "\(d)"
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .string(let s): return JSONString.quoted(s)
        case .object(let kv):
            return "{" + kv.map { JSONValue.string($0.0).text + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }
}

extension StabilityReport {
    /// The contract's `stability` object (SCENES.md's key names and order).
    var json: JSONValue {
        var kv: [(String, JSONValue)] = [("kind", .string(kind)), ("finite", .bool(finite))]
        if let s = stack {
            kv += [("max_displacement_m", .number(s.maxDisplacement)),
                   ("max_horizontal_displacement_m", .number(s.maxHorizontalDisplacement)),
                   ("max_drop_m", .number(s.maxDrop)), ("max_rise_m", .number(s.maxRise)),
                   ("max_drift_after_settle_m", .number(s.maxDriftAfterSettle)),
                   ("settle_steps", .int(s.settleSteps)), ("max_rotation_deg", .number(s.maxRotationDegrees)),
                   ("fall_threshold_m", .number(s.fallThreshold)), ("moved_count", .int(s.movedCount)),
                   ("fell", .bool(s.fell)), ("tracked", .int(s.tracked))]
        }
        if let p = pile {
            kv += [("escaped", .int(p.escaped)), ("max_speed_end_mps", .number(p.maxSpeedEnd)),
                   ("kinetic_energy_end_J", .number(p.kineticEnergyEnd)), ("max_height_end_m", .number(p.maxHeightEnd)),
                   ("tracked", .int(p.tracked))]
        }
        if let b = contactBegins {
            kv.append(("contact_begins", .int(b.count)))
            if let expected = b.expected {
                kv.append(("expected_contact_begins", .int(expected)))
                kv.append(("begins_match", .bool(expected == b.count)))
            }
        }
        return .object(kv)
    }
}
