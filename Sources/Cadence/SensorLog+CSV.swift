import Foundation

extension SensorLog {
    /// The samples of a CSV log: comma, semicolon or tab separated; a header (any line
    /// whose fields are not all numbers or dates) names the columns in any order, e.g.
    /// `time,x,y,z`, `timestamp_ms,ax,ay,az`, `seconds_elapsed,x,y,z` or Sensor Logger's
    /// `time,seconds_elapsed,z,y,x`; without one the columns are time, x, y, z.
    /// Blank lines and lines starting with `#` are skipped.
    public static func parseCSV(_ text: String) throws(SensorLogError) -> [AccelerationSample] {
        try parseCSV(bytes: Array(text.utf8))
    }

    /// `parseCSV` on UTF-8 bytes: bytes, not Strings, since a 60-minute log at 100 Hz has 360,000 lines.
    static func parseCSV(bytes: [UInt8]) throws(SensorLogError) -> [AccelerationSample] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SensorLogError) -> [AccelerationSample] in
            try parseCSV(buffer: buffer)
        }
    }

    /// The parse itself, on a buffer: no bounds checks on each of a log's ~13 million bytes.
    static func parseCSV(buffer bytes: UnsafeBufferPointer<UInt8>) throws(SensorLogError) -> [AccelerationSample] {
        var columns: Columns?
        var timeUnit: TimeUnit?
        var separator: UInt8 = 44
        var rows = [RawRow]()
        rows.reserveCapacity(bytes.count / 32)
        var lineNumber = 0
        var start = 0
        var bounds = [Range<Int>]()
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            defer { start = end + 1 }
            lineNumber += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            var first = start
            while first < lineEnd && (bytes[first] == 32 || bytes[first] == 9) { first += 1 }
            if first == lineEnd || bytes[first] == 35 { continue } // blank or "#"
            if columns == nil {
                let line = bytes[start..<lineEnd]
                separator = [44, 59, 9].max { a, b in line.count(where: { $0 == a }) < line.count(where: { $0 == b }) }!
            }
            // The fields' byte ranges, written over the last line's (no per-line allocation).
            var fieldCount = 0
            var fieldStart = start
            for i in start...lineEnd where i == lineEnd || bytes[i] == separator {
                if fieldCount < bounds.count { bounds[fieldCount] = fieldStart..<i } else { bounds.append(fieldStart..<i) }
                fieldCount += 1
                fieldStart = i + 1
            }
            if bounds.count > fieldCount { bounds.removeLast(bounds.count - fieldCount) }
            if columns == nil {
                let fields = bounds.map { field(bytes, $0) }
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
            guard bounds.count == c.count else {
                throw SensorLogError(line: lineNumber, "expected \(c.count) fields, found \(bounds.count)")
            }
            var time: (Double, isDate: Bool)
            if let v = fastDouble(bytes, bounds[c.time]) { time = (v, false) } else {
                let text = field(bytes, bounds[c.time])
                guard let slow = timeValue(text) else {
                    throw SensorLogError(line: lineNumber, "the time \"\(text)\" is neither a number nor an ISO-8601 date")
                }
                time = slow
            }
            let axes = (try axis(bytes, bounds[c.x], "x", lineNumber), try axis(bytes, bounds[c.y], "y", lineNumber),
                        try axis(bytes, bounds[c.z], "z", lineNumber))
            rows.append(RawRow(time: time.0, x: axes.0, y: axes.1, z: axes.2, isDate: time.isDate, line: lineNumber))
        }
        return try finish(rows, timeUnit: timeUnit)
    }

    /// A field's text, trimmed of spaces and quotes.
    static func field(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Substring {
        trim(Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)))
    }

    /// An acceleration field: a finite number, or an error naming the line.
    static func axis(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: String, _ line: Int) throws(SensorLogError) -> Double {
        if let v = fastDouble(bytes, range), v.isFinite { return v }
        let text = field(bytes, range)
        guard let v = Double(text), v.isFinite else {
            throw SensorLogError(line: line, "the \(name) value \"\(text)\" is not a number")
        }
        return v
    }

    /// A plain decimal number (`-12.5e-3`, up to 18 significant digits) in `range`, nil for
    /// anything else (the caller then tries the slow, complete parsers).
    static func fastDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound, end = range.upperBound
        while i < end && bytes[i] == 32 { i += 1 }
        while end > i && bytes[end - 1] == 32 { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == 45 || bytes[i] == 43 { negative = bytes[i] == 45; i += 1 }
        var mantissa: UInt64 = 0, digits = 0, exponent = 0, any = false
        while i < end, bytes[i] >= 48 && bytes[i] <= 57 {
            if digits < 18 { mantissa = mantissa * 10 + UInt64(bytes[i] - 48); if mantissa > 0 { digits += 1 } } else { exponent += 1 }
            i += 1; any = true
        }
        if i < end && bytes[i] == 46 {
            i += 1
            while i < end, bytes[i] >= 48 && bytes[i] <= 57 {
                if digits < 18 { mantissa = mantissa * 10 + UInt64(bytes[i] - 48); exponent -= 1; if mantissa > 0 { digits += 1 } }
                i += 1; any = true
            }
        }
        guard any else { return nil }
        if i < end && (bytes[i] == 101 || bytes[i] == 69) {
            i += 1
            var sign = 1, e = 0, expDigits = false
            if i < end && (bytes[i] == 45 || bytes[i] == 43) { sign = bytes[i] == 45 ? -1 : 1; i += 1 }
            while i < end, bytes[i] >= 48 && bytes[i] <= 57, e < 10_000 { e = e * 10 + Int(bytes[i] - 48); i += 1; expDigits = true }
            guard expDigits else { return nil }
            exponent += sign * e
        }
        guard i == end, abs(exponent) <= 300 else { return nil }
        let power = abs(exponent) < exactPowersOfTen.count ? exactPowersOfTen[abs(exponent)] : pow(10, Double(abs(exponent)))
        let value = exponent >= 0 ? Double(mantissa) * power : Double(mantissa) / power
        return negative ? -value : value
    }

    /// 10⁰ … 10²², every one exact in a Double: a table instead of `pow` on each of a log's
    /// million fields (a quarter of the parse time).
    static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
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
