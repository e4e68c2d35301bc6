import Cadence
import Foundation
import FuzzDriver

/// Any bytes must give samples or a `SensorLogError`, and any samples a timeline (batch,
/// thesis and live): never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let samples = try? SensorLog.parse(data) else { return 0 }
    _ = CadenceEstimator().analyze(samples)
    _ = ThesisCadenceEstimator().analyze(samples)
    var live = LiveCadence()
    var index = 0
    while index < samples.count {
        let end = min(samples.count, index + 97)
        guard (try? live.add(Array(samples[index..<end]))) != nil else { break }
        index = end
    }
    return 0
}

@_cdecl("FuzzSensorLog_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
