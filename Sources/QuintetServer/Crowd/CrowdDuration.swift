import Foundation

/// Durations as the Crowd's flags take them: a whole number with an optional unit, `s`, `m`,
/// `h` or `d` (`90s`, `30m`, `24h`, `7d`; a plain number is seconds).
///
/// ```swift
/// CrowdDuration.seconds("30m")  // 1800
/// CrowdDuration.seconds("1.5h") // nil: whole numbers only
/// ```
public enum CrowdDuration {
    /// The duration in seconds, or nil when `text` is not one (empty, negative, fractional,
    /// an unknown unit, or too large).
    public static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let last = trimmed.last else { return nil }
        let multiplier: Int
        var digits = trimmed
        switch last {
        case "s": multiplier = 1
        case "m": multiplier = 60
        case "h": multiplier = 3600
        case "d": multiplier = 86_400
        default:
            guard last.isNumber else { return nil }
            multiplier = 1
        }
        if !last.isNumber { digits.removeLast() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let value = Int(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        return TimeInterval(product)
    }
}
