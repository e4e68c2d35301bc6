import Foundation

extension SensorLog {
    /// The samples of a JSON Lines log: one object per line with a time (`t`, `time`,
    /// `timestamp`, `timestamp_ms`, `seconds_elapsed`, …; a number or ISO-8601 text) and
    /// the axes, flat (`x`/`ax`/`acc_x`) or nested (`{"acc": {"x": …}}`).
    public static func parseJSONLines(_ text: String) throws(SensorLogError) -> [AccelerationSample] {
        var rows = [RawRow]()
        var timeUnit: TimeUnit?
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                throw SensorLogError(line: lineNumber, "not a JSON object")
            }
            var flat = [String: Any]()
            for (key, value) in object {
                if let nested = value as? [String: Any] { for (k, v) in nested { flat[k] = v } } else { flat[key] = value }
            }
            guard let timeKey = flat.keys.sorted().first(where: { isTimeName($0.lowercased()) && $0.lowercased().contains("elapsed") })
                    ?? flat.keys.sorted().first(where: { isTimeName($0.lowercased()) }) else {
                throw SensorLogError(line: lineNumber, "no time field (t, time, timestamp, seconds_elapsed…)")
            }
            if rows.isEmpty { timeUnit = TimeUnit(columnName: timeKey) }
            let time: (Double, isDate: Bool)?
            switch flat[timeKey] {
            case let n as NSNumber: time = (n.doubleValue, false)
            case let s as String: time = timeValue(Substring(s))
            default: time = nil
            }
            guard let time else { throw SensorLogError(line: lineNumber, "the time field \"\(timeKey)\" is neither a number nor an ISO-8601 date") }
            var axes = [String: Double]()
            for (key, value) in flat {
                let axis = axisKey(key.lowercased())
                guard ["x", "y", "z"].contains(axis), axes[axis] == nil else { continue }
                guard let n = value as? NSNumber, n.doubleValue.isFinite else {
                    throw SensorLogError(line: lineNumber, "the \(axis) value of \"\(key)\" is not a number")
                }
                axes[axis] = n.doubleValue
            }
            guard let x = axes["x"], let y = axes["y"], let z = axes["z"] else {
                let missing = ["x", "y", "z"].filter { axes[$0] == nil }.joined(separator: ", ")
                throw SensorLogError(line: lineNumber, "missing acceleration field(s): \(missing)")
            }
            rows.append(RawRow(time: time.0, x: x, y: y, z: z, isDate: time.isDate, line: lineNumber))
        }
        return try finish(rows, timeUnit: timeUnit)
    }
}
