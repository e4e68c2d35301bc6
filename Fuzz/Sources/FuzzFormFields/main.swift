import FuzzDriver
@testable import QuintetServer

/// A query string or a form body (any client sends them: /api/library, Subsonic, the crowd's
/// searches): `FormFields` and the crowd's search parameters read from it. Never a crash or a
/// hang; every field's first value is the first of its values, and text without `+` or `%`
/// comes back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let fields = FormFields(text)
    for (name, _) in fields.pairs.prefix(16) {
        precondition(fields.get(name) == fields.all(name).first, "get and all disagree on \(name)")
    }
    let plain = text.utf8.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") } == false
    if plain {
        let parts = text.split(separator: "&").map { part -> String in
            String(part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }
        precondition(fields.pairs.map(\.name) == parts, "names changed although nothing was escaped")
    }
    _ = try? CrowdRequests.search(query: text)
    return 0
}

@_cdecl("FuzzFormFields_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
