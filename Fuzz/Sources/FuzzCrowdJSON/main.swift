import FuzzDriver
@testable import QuintetServer

/// A crowd report body (anyone may post one): the hand-written JSON reader, the report's field
/// checks behind it, and the scan for an over-long string in a body cut at the size limit.
/// Never a crash or a hang: bad bytes give nil or a 400, whatever they are.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let (members, duplicate) = CrowdJSONReader.members(bytes) {
        if let duplicate { precondition(members[duplicate] != nil, "a duplicate that is not a member") }
        precondition(CrowdJSONReader.object(bytes) != nil, "object() and members() disagree")
    }
    _ = try? CrowdRequests.reportFields(json: bytes)
    _ = CrowdRequests.overlongStringField(prefix: bytes)
    return 0
}

@_cdecl("FuzzCrowdJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
