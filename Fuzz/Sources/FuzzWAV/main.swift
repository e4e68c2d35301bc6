import AudioCore
import Foundation
import FuzzDriver

/// Any bytes must give a buffer or an `AudioError`: never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? WAVReader.decode(data)
    _ = try? WAVReader.decode(data, downmix: true)
    return 0
}

@_cdecl("FuzzWAV_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
