/// libFuzzer's driver, for executables built by SwiftPM: SwiftPM links an executable
/// against `<Target>_main`, so each target defines that symbol and calls `runFuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// Runs libFuzzer with the process arguments, calling `callback` with each input.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments, callback)
}
