import FuzzDriver
import MediaTags

/// Any bytes must give tags or a `MediaTagsError`: never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = DataByteSource(Array(UnsafeBufferPointer(start: start, count: count)))
    _ = try? WAVFile.read(source)
    _ = try? MediaReader.read(source)
    return 0
}

@_cdecl("FuzzWAVTags_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
