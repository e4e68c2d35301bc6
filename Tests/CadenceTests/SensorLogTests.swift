import Cadence
import Foundation
import Testing

@Suite("Sensor log import")
struct SensorLogTests {
    /// Four samples 10 ms apart, gravity along z, as (seconds, x, y, z) in g.
    static let reference: [(Double, Double, Double, Double)] = [
        (0, 0.01, -0.02, 0.99), (0.01, 0.02, -0.01, 1.01), (0.02, 0.0, 0.0, 1.0), (0.03, -0.01, 0.02, 0.98),
    ]

    func expectReference(_ samples: [AccelerationSample], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(samples.count == Self.reference.count, sourceLocation: sourceLocation)
        for (s, r) in zip(samples, Self.reference) {
            #expect(abs(s.t - r.0) < 1e-6 && abs(s.x - r.1) < 1e-6 && abs(s.y - r.2) < 1e-6 && abs(s.z - r.3) < 1e-6,
                    "\(s) vs \(r)", sourceLocation: sourceLocation)
        }
    }

    func lines(_ header: String?, _ row: ((Double, Double, Double, Double)) -> String) -> String {
        ((header.map { [$0] } ?? []) + Self.reference.map(row)).joined(separator: "\n") + "\n"
    }

    @Test("time,x,y,z in seconds and g")
    func secondsAndG() throws {
        expectReference(try SensorLog.parse(Data(lines("time,x,y,z") { "\($0.0),\($0.1),\($0.2),\($0.3)" }.utf8)))
    }

    @Test("timestamp_ms,ax,ay,az in milliseconds since the epoch and m/s²")
    func epochMillisecondsAndMetres() throws {
        let text = lines("timestamp_ms,ax,ay,az") {
            "\(Int64(1_714_557_600_000 + $0.0 * 1000)),\($0.1 * 9.80665),\($0.2 * 9.80665),\($0.3 * 9.80665)"
        }
        expectReference(try SensorLog.parse(Data(text.utf8)))
    }

    @Test("seconds_elapsed,x,y,z, and milliseconds since the start with no unit in the header")
    func elapsedAndInferredMilliseconds() throws {
        expectReference(try SensorLog.parse(Data(lines("seconds_elapsed,x,y,z") { "\($0.0),\($0.1),\($0.2),\($0.3)" }.utf8)))
        expectReference(try SensorLog.parse(Data(lines("t;x;y;z") { "\(Int($0.0 * 1000 + 500));\($0.1);\($0.2);\($0.3)" }.utf8)))
    }

    @Test("the iOS Sensor Logger export: time (epoch ns), seconds_elapsed, z, y, x in m/s²")
    func sensorLogger() throws {
        let text = lines("time,seconds_elapsed,z,y,x") {
            "\(1_714_557_600_000_000_000 + Int64($0.0 * 1e9)),\($0.0 + 0.1234),\($0.3 * 9.80665),\($0.2 * 9.80665),\($0.1 * 9.80665)"
        }
        expectReference(try SensorLog.parse(Data(text.utf8)))
    }

    @Test("no header: time, x, y, z in nanoseconds since the start; ISO-8601 times")
    func headerlessAndISO() throws {
        expectReference(try SensorLog.parse(Data(lines(nil) { "\(Int64($0.0 * 1e9) + 7_000_000),\($0.1),\($0.2),\($0.3)" }.utf8)))
        let iso = lines("\"timestamp\",\"x\",\"y\",\"z\"") { "2024-05-01T10:00:0\(String(format: "%.3f", $0.0))+02:00,\($0.1),\($0.2),\($0.3)" }
        expectReference(try SensorLog.parse(Data(iso.utf8)))
    }

    @Test("JSON Lines with flat and nested keys")
    func jsonLines() throws {
        expectReference(try SensorLog.parse(Data(lines(nil) { #"{"t": \#($0.0), "x": \#($0.1), "y": \#($0.2), "z": \#($0.3)}"# }.utf8)))
        let nested = lines(nil) {
            #"{"timestamp_ms": \#(Int($0.0 * 1000) + 1_714_557_600_000), "acc": {"x": \#($0.1 * 9.80665), "y": \#($0.2 * 9.80665), "z": \#($0.3 * 9.80665)}}"#
        }
        expectReference(try SensorLog.parse(Data(nested.utf8)))
    }

    @Test("errors name the line at fault")
    func errors() {
        #expect(throws: SensorLogError(line: 3, "the y value \"abc\" is not a number")) {
            try SensorLog.parse(Data("time,x,y,z\n0,0,0,1\n0.01,0,abc,1\n".utf8))
        }
        #expect(throws: SensorLogError(line: 2, "expected 4 fields, found 3")) {
            try SensorLog.parse(Data("time,x,y,z\n0,0,1\n".utf8))
        }
        #expect(throws: SensorLogError(line: 1, "the header \"time,x,y\" has no z column")) {
            try SensorLog.parse(Data("time,x,y\n0,0,1\n".utf8))
        }
        #expect(throws: SensorLogError(line: 2, "not a JSON object")) {
            try SensorLog.parse(Data("{\"t\":0,\"x\":0,\"y\":0,\"z\":1}\n{\"t\":0.01,\"x\":0\n".utf8))
        }
        #expect(throws: SensorLogError(line: 1, "missing acceleration field(s): z")) {
            try SensorLog.parse(Data("{\"t\":0,\"x\":0,\"y\":0}\n".utf8))
        }
        #expect(throws: SensorLogError(line: nil, "the log is empty")) { try SensorLog.parse(Data()) }
        #expect(throws: SensorLogError.self) { try SensorLog.parse(Data("t,x,y,z\n0,0,0,0.1\n0.01,0,0,0.1\n".utf8)) }
    }

    @Test("a generated walk written as CSV reads back to the same cadence")
    func roundTrip() throws {
        let trace = GaitGenerator(seed: 7, placement: .armband, rate: 100).make("walk", [.init(seconds: 30, from: 110, to: 110, moving: true)])
        let csv = "timestamp_ms,ax,ay,az\n" + trace.samples.map {
            "\(Int64(1_714_557_600_000 + ($0.t * 1000).rounded())),\($0.x * 9.80665),\($0.y * 9.80665),\($0.z * 9.80665)"
        }.joined(separator: "\n")
        let parsed = try SensorLog.parse(Data(csv.utf8))
        let direct = try #require(CadenceEstimator().analyze(trace.samples).medianCadence)
        let read = try #require(CadenceEstimator().analyze(parsed).medianCadence)
        #expect(abs(direct - read) < 0.5 && abs(read - 110) < 2)
    }
}
