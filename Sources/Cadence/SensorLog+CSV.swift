extension SensorLog {
    /// The samples of a CSV log: comma, semicolon or tab separated; a header (any line
    /// whose fields are not all numbers or dates) names the columns in any order, e.g.
    /// `time,x,y,z`, `timestamp_ms,ax,ay,az`, `seconds_elapsed,x,y,z` or Sensor Logger's
    /// `time,seconds_elapsed,z,y,x`; without one the columns are time, x, y, z.
    /// Blank lines and lines starting with `#` are skipped.
    public static func parseCSV(_ text: String) throws(SensorLogError) -> [AccelerationSample] {
        var columns: Columns?
        var timeUnit: TimeUnit?
        var separator: Character = ","
        var rows = [RawRow]()
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            if columns == nil {
                separator = [",", ";", "\t"].max { a, b in line.count(where: { $0 == a }) < line.count(where: { $0 == b }) }!
            }
            let fields = line.split(separator: separator, omittingEmptySubsequences: false).map(trim)
            if columns == nil {
                if fields.allSatisfy({ timeValue($0) != nil }) {
                    guard fields.count >= 4 else {
                        throw SensorLogError(line: lineNumber, "expected 4 columns (time, x, y, z) without a header, found \(fields.count)")
                    }
                    columns = Columns(time: 0, x: 1, y: 2, z: 3, count: fields.count)
                } else {
                    (columns, timeUnit) = try header(fields, line: lineNumber)
                    continue
                }
            }
            let c = columns!
            guard fields.count == c.count else {
                throw SensorLogError(line: lineNumber, "expected \(c.count) fields, found \(fields.count)")
            }
            guard let time = timeValue(fields[c.time]) else {
                throw SensorLogError(line: lineNumber, "the time \"\(fields[c.time])\" is neither a number nor an ISO-8601 date")
            }
            var axes = [Double]()
            for (name, index) in [("x", c.x), ("y", c.y), ("z", c.z)] {
                guard let v = Double(fields[index]), v.isFinite else {
                    throw SensorLogError(line: lineNumber, "the \(name) value \"\(fields[index])\" is not a number")
                }
                axes.append(v)
            }
            rows.append(RawRow(time: time.0, x: axes[0], y: axes[1], z: axes[2], isDate: time.isDate))
        }
        return try finish(rows, timeUnit: timeUnit)
    }

    struct Columns { var time: Int; var x: Int; var y: Int; var z: Int; var count: Int }

    /// Column indices from a header line, and the time unit it states.
    static func header(_ fields: [Substring], line: Int) throws(SensorLogError) -> (Columns, TimeUnit?) {
        let names = fields.map { String($0).lowercased() }
        let keys = names.map(axisKey)
        func find(_ axis: String) throws(SensorLogError) -> Int {
            guard let i = keys.firstIndex(of: axis) else {
                throw SensorLogError(line: line, "the header \"\(fields.joined(separator: ","))\" has no \(axis) column")
            }
            return i
        }
        // Prefer a column whose unit is stated (Sensor Logger: seconds_elapsed over epoch `time`).
        let timeColumns = names.indices.filter { isTimeName(names[$0]) }
        guard let time = timeColumns.first(where: { names[$0].contains("elapsed") }) ?? timeColumns.first else {
            throw SensorLogError(line: line, "the header \"\(fields.joined(separator: ","))\" has no time column (time, t, timestamp, seconds_elapsed…)")
        }
        let columns = Columns(time: time, x: try find("x"), y: try find("y"), z: try find("z"), count: fields.count)
        return (columns, TimeUnit(columnName: names[time]))
    }

    /// `ax`, `acc_x`, `accelerationX`, `x (m/s^2)`, `userAccelerationX` → "x".
    static func axisKey(_ name: String) -> String {
        var n = name
        if let paren = n.firstIndex(where: { $0 == "(" || $0 == "[" }) { n = String(n[..<paren]) }
        n = n.filter { $0.isLetter }
        for prefix in ["useracceleration", "acceleration", "accelerometer", "accel", "acc", "a"] where n.hasPrefix(prefix) && n.count == prefix.count + 1 {
            n = String(n.dropFirst(prefix.count))
        }
        if n.hasSuffix("axis") { n = String(n.dropLast(4)) }
        return n
    }

    static func isTimeName(_ name: String) -> Bool {
        let n = name.filter { $0.isLetter }
        return ["t", "ts", "time", "timestamp", "secondselapsed", "elapsed", "date", "datetime"].contains(where: { n == $0 })
            || n.hasPrefix("time") || n.hasPrefix("timestamp") || n.hasPrefix("seconds") || n.hasPrefix("elapsed")
            || n.hasPrefix("ts")
    }

    static func trim(_ field: Substring) -> Substring {
        var f = field.drop { $0 == " " || $0 == "\"" }
        while let last = f.last, last == " " || last == "\"" { f = f.dropLast() }
        return f
    }
}
