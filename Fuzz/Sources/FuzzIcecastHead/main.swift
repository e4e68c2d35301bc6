import FuzzDriver
import HummingbirdCore
import NIOCore
@testable import QuintetServer

/// The first bytes of a connection on the shared port (anyone may connect): the sniffer's
/// end-of-head search, the routing decision on the request line, and the Icecast request
/// head with its fields, credentials and decoded path. Never a crash or a hang; a head that
/// parses keeps the fields' names non-empty and its method upper-case letters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let buffer = ByteBuffer(bytes: bytes)
    let end = IcecastSniffer<HTTP1Channel>.headEnd(buffer.readableBytesView)
    if let end { precondition(end > 0 && end <= count, "a head end outside the bytes") }
    let head = Array(bytes[..<(end ?? count)])
    let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) ?? head.count
    _ = IcecastRouting.isIcecast(requestLine: head[..<lineEnd])
    guard let parsed = IcecastRequestHead(head) else { return 0 }
    precondition(!parsed.method.isEmpty && parsed.fields.allSatisfy { !$0.name.isEmpty })
    _ = parsed["authorization"]
    _ = parsed["Icy-MetaData"]
    _ = parsed.basicCredentials
    _ = parsed.decodedPath
    _ = IcecastRouting.isIcecast(method: parsed.method, path: parsed.path)
    return 0
}

@_cdecl("FuzzIcecastHead_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
