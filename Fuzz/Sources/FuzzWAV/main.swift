import AudioCore
import Foundation

/// libFuzzer entry point: any bytes must give a buffer or an `AudioError`, never a crash,
/// a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? WAVReader.decode(data)
    _ = try? WAVReader.decode(data, downmix: true)
    return 0
}

// SwiftPM links executables against `<Target>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzWAV_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzer(&count, &arguments, fuzz)
}
