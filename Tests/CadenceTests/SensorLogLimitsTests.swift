import Cadence
import Foundation
import Testing

@Suite("Sensor log import: units and limits")
struct SensorLogLimitsTests {
    @Test("a log whose median magnitude is 2.2 g (running, phone swung in the hand) is in g; 22 m/s² is m/s²")
    func strongMedian() throws {
        func log(scale: Double) -> Data {
            let rows = (0..<400).map { i -> String in
                let t = Double(i) / 100
                return String(format: "%.2f,%.4f,%.4f,%.4f", t, 0.3 * scale, 0.2 * scale, (2.2 + 0.8 * sin(2 * .pi * 2.8 * t)) * scale)
            }
            return Data((["time,x,y,z"] + rows).joined(separator: "\n").utf8)
        }
        let inG = try SensorLog.parse(log(scale: 1)), inMetres = try SensorLog.parse(log(scale: 9.80665))
        #expect(abs(inG[0].z - 2.2) < 1e-9 && abs(inMetres[0].z - 2.2) < 1e-3)
        var live = LiveCadence()
        _ = try live.add(inG)
        #expect(live.units == .g)
        #expect(SensorLog.unitScale(medianMagnitude: 0.1) == nil && SensorLog.unitScale(medianMagnitude: 50) == nil)
    }

    @Test("a stray timestamp that would stretch the log past 24 hours is refused, naming its line")
    func span() {
        var rows = ["time,x,y,z"]
        for i in 0..<300 { rows.append(String(format: "%.2f,0.1,0.2,0.97", Double(i) / 100)) }
        rows.insert("1e12,0.1,0.2,0.97", at: 151) // line 152 of the file
        #expect(throws: SensorLogError(line: 152, "the log spans 2.778e+08 hours; at most 24 are read (is a timestamp wrong?)")) {
            try SensorLog.parse(Data(rows.joined(separator: "\n").utf8))
        }
        // Exactly a day is fine.
        rows.remove(at: 151)
        rows.append("86400,0.1,0.2,0.97")
        #expect((try? SensorLog.parse(Data(rows.joined(separator: "\n").utf8)))?.last?.t == 86_400)
    }
}
