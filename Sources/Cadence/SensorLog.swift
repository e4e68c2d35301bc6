import Foundation

/// A problem with a sensor log, naming the line at fault when there is one.
public struct SensorLogError: Error, Equatable, CustomStringConvertible, Sendable {
    /// 1-based line number, nil for a problem with the log as a whole.
    public var line: Int?
    public var message: String

    public init(line: Int?, _ message: String) { self.line = line; self.message = message }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Accelerometer logs as phones and apps export them: CSV (with or without a header, any
/// column order) and JSON Lines, read into samples in seconds and g.
///
/// ```swift
/// let samples = try SensorLog.parse(Data(contentsOf: url))
/// let analysis = CadenceEstimator().analyze(samples)
/// ```
///
/// Time: seconds, milliseconds, microseconds or nanoseconds, since the epoch or since the
/// start (told from the header's unit suffix, else from the values' size and spacing), or
/// ISO-8601 text; the samples' `t` is in seconds from the first sample. Acceleration: g or
/// m/s², told from the median magnitude (about 1 or about 9.81: gravity is in every log of
/// total acceleration); logs without gravity are refused, since the magnitude of user
/// acceleration alone does not say its unit.
public enum SensorLog {
    /// The samples of a CSV or JSON Lines log (JSON Lines when the first non-blank character is `{`).
    public static func parse(_ data: Data) throws(SensorLogError) -> [AccelerationSample] {
        // Read in place: a 60-minute log is ~13 MB, not worth a copy.
        let result = data.withUnsafeBytes { raw -> Result<[AccelerationSample], SensorLogError> in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let first = bytes.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) else {
                return .failure(SensorLogError(line: nil, "the log is empty"))
            }
            do throws(SensorLogError) {
                return .success(first == UInt8(ascii: "{") ? try parseJSONLines(String(decoding: bytes, as: UTF8.self))
                                                           : try parseCSV(buffer: bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Standard gravity, m/s².
    static let gravity = 9.80665

    /// Raw rows → samples: time unit and origin, acceleration unit.
    static func finish(_ rows: [RawRow], timeUnit: TimeUnit?) throws(SensorLogError) -> [AccelerationSample] {
        guard rows.count >= 2 else { throw SensorLogError(line: nil, "the log holds \(rows.count) sample(s); at least two are needed") }
        let scale = timeUnit?.seconds ?? inferTimeScale(rows)
        var origin = rows[0].time, latest = rows[0].time
        for row in rows { origin = min(origin, row.time); latest = max(latest, row.time) }
        let every = max(1, rows.count / 10_000) // a sample of rows is enough for a median
        let magnitudes = stride(from: 0, to: rows.count, by: every).map { i in
            (rows[i].x * rows[i].x + rows[i].y * rows[i].y + rows[i].z * rows[i].z).squareRoot()
        }.sorted()
        let median = magnitudes[magnitudes.count / 2]
        guard let unit = unitScale(medianMagnitude: median) else {
            throw SensorLogError(line: nil, String(format: "cannot tell the acceleration unit: the median magnitude is %.3g, neither about 1 (g) nor about 9.81 (m/s²); logs without gravity (user acceleration) are not supported", median))
        }
        let span = (latest - origin) * scale
        guard span <= maxSpan else {
            // A timeline has an entry per second: a stray timestamp must not ask for billions.
            let line = rows.firstIndex { ($0.time - origin) * scale > maxSpan }.map { rows[$0].line }
            throw SensorLogError(line: line, String(format: "the log spans %.4g hours; at most %.0f are read (is a timestamp wrong?)", span / 3600, maxSpan / 3600))
        }
        return rows.map { AccelerationSample(t: ($0.time - origin) * scale, x: $0.x * unit, y: $0.y * unit, z: $0.z * unit) }
    }

    /// The factor from the log's unit to g, told from the median magnitude of total
    /// acceleration: g below 3.5, m/s² from 3.5 to 40 (3.5 m/s² is 0.36 g and 3.5 g is
    /// 34 m/s²: neither is a plausible median; running with a phone in a swinging hand
    /// gives medians up to about 2.5 g). Nil outside 0.3–40 (no gravity in the log, or
    /// not an accelerometer).
    public static func unitScale(medianMagnitude median: Double) -> Double? {
        switch median {
        case 0.3..<3.5: 1
        case 3.5...40: 1 / gravity
        default: nil
        }
    }

    /// The longest span a log may cover, seconds (24 hours).
    public static let maxSpan = 86_400.0

    /// Seconds per unit of a numeric time column, from the values: epoch timestamps by their
    /// size, times since the start by their spacing (phones sample at 20–200 Hz).
    static func inferTimeScale(_ rows: [RawRow]) -> Double {
        if rows.allSatisfy({ $0.isDate }) { return 1 }
        let first = abs(rows[0].time)
        if first > 1e17 { return 1e-9 }
        if first > 1e14 { return 1e-6 }
        if first > 1e11 { return 1e-3 }
        var steps = zip(rows, rows.dropFirst()).prefix(10_000).map { $1.time - $0.time }.filter { $0 > 0 }.sorted()
        if steps.isEmpty { steps = [1] }
        let step = steps[steps.count / 2]
        if step < 0.5 { return 1 }
        if step < 500 { return 1e-3 }
        if step < 5e5 { return 1e-6 }
        return 1e-9
    }

    /// One parsed line before units are known.
    struct RawRow { var time: Double; var x: Double; var y: Double; var z: Double; var isDate = false; var line = 0 }

    enum TimeUnit {
        case seconds, milliseconds, microseconds, nanoseconds
        var seconds: Double {
            switch self { case .seconds: 1; case .milliseconds: 1e-3; case .microseconds: 1e-6; case .nanoseconds: 1e-9 }
        }

        /// The unit a column name states (`timestamp_ms`, `seconds_elapsed`, `time (ns)`), if any.
        init?(columnName name: String) {
            let n = name.lowercased()
            if n.hasSuffix("_ms") || n.hasSuffix("(ms)") || n.hasSuffix("millis") || n.contains("milli") { self = .milliseconds }
            else if n.hasSuffix("_us") || n.hasSuffix("(us)") || n.contains("micro") { self = .microseconds }
            else if n.hasSuffix("_ns") || n.hasSuffix("(ns)") || n.contains("nano") { self = .nanoseconds }
            else if n.hasSuffix("_s") || n.hasSuffix("(s)") || n.contains("seconds") || n.hasSuffix("_sec") { self = .seconds }
            else { return nil }
        }
    }

    /// A time value: a number, or ISO-8601 text (`2024-05-01T10:00:00.125Z`, offsets allowed)
    /// as seconds since 1970.
    static func timeValue(_ text: Substring) -> (Double, isDate: Bool)? {
        if let v = Double(text), v.isFinite { return (v, false) }
        return iso8601(text).map { ($0, true) }
    }

    /// Seconds since 1970 of an ISO-8601 date-time; nil if it is not one.
    static func iso8601(_ text: Substring) -> Double? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var v = 0
            for i in range { guard (48...57).contains(b[i]) else { return nil }; v = v * 10 + Int(b[i] - 48) }
            return v
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32 || b[10] == 116, b[13] == 58, b[16] == 58,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 46 || b[i] == 44 {
            i += 1
            var scale = 0.1
            while i < b.count, (48...57).contains(b[i]) { fraction += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
        }
        var offset = 0
        if i < b.count {
            if b[i] == 90 || b[i] == 122 { i += 1 } else if b[i] == 43 || b[i] == 45 {
                let sign = b[i] == 45 ? -1 : 1
                guard let h = number((i + 1)..<(i + 3)) else { return nil }
                var j = i + 3
                if j < b.count, b[j] == 58 { j += 1 }
                let m = number(j..<(j + 2)) ?? 0
                offset = sign * (h * 3600 + m * 60)
                i = j + (j + 2 <= b.count ? 2 : 0)
            }
        }
        guard i == b.count else { return nil }
        // Days from the civil date (H. Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}
