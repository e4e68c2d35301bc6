import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import Logging
@testable import QuintetServer
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client on a real socket (the Icecast path speaks raw HTTP/1.0 that no HTTP
/// client library exposes byte for byte). Calls block: run them through ``blocking(_:)``.
final class RawClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer
    /// (a listener that reads slowly fills up sooner).
    init(port: Int, receiveTimeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect() failed: \(errno)")
        }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Sends every byte; false when the connection is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// One read: bytes, or empty at EOF; nil on timeout or error.
    func receive(max: Int = 65536) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
        if n < 0 { return nil }
        return Array(buffer[0..<n])
    }

    /// Reads until `count` bytes arrived, EOF or a timeout.
    func receive(count: Int) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count, let bytes = receive(max: min(65536, count - out.count)), !bytes.isEmpty {
            out += bytes
        }
        return out
    }

    /// Reads until EOF (or a timeout); returns the bytes and whether EOF was seen.
    func receiveAll(limit: Int = 1 << 24) -> (bytes: [UInt8], eof: Bool) {
        var out: [UInt8] = []
        while out.count < limit {
            guard let bytes = receive() else { return (out, false) }
            if bytes.isEmpty { return (out, true) }
            out += bytes
        }
        return (out, false)
    }

    /// Reads a response head (up to the blank line) and returns it with the bytes after it.
    func receiveHead() -> (head: String, rest: [UInt8]) {
        var out: [UInt8] = []
        while true {
            if let range = out.firstRange(of: Array("\r\n\r\n".utf8)) {
                return (String(decoding: out[..<range.upperBound], as: UTF8.self), Array(out[range.upperBound...]))
            }
            guard let bytes = receive(max: 4096), !bytes.isEmpty else {
                return (String(decoding: out, as: UTF8.self), [])
            }
            out += bytes
        }
    }

    /// Closes the sending side (the server sees the source end).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}

/// Runs blocking work off the cooperative pool.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// A live server (real port) with the radio's Icecast path and one show at `/live/test.mp3`
/// (stream key `k3y`) and another at `/live/other.mp3` (`0ther`).
struct RadioTestServer {
    let port: Int
    let directory: MemoryRadioDirectory
    let radio: LiveRadio
    let client: any TestClientProtocol
    let data: URL

    static let show = LiveShow(id: 1, title: "Test Show", mount: "/live/test.mp3", streamKey: "k3y", fallbackMount: nil)
    static let other = LiveShow(id: 2, title: "Other", mount: "/live/other.mp3", streamKey: "0ther", fallbackMount: nil)

    static func run(configure: (inout LiveRadio.Configuration) -> Void = { _ in },
                    _ body: @escaping @Sendable (RadioTestServer) async throws -> Void) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-icecast-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try QuintetApplication.openDatabase(in: data)
        let directory = MemoryRadioDirectory(directory: data, shows: [show, other])
        var configuration = LiveRadio.Configuration()
        configure(&configuration)
        var logger = Logger(label: "icecast-test")
        logger.logLevel = .warning
        let radio = LiveRadio(directory: directory, configuration: configuration, logger: logger)
        let router = QuintetApplication.makeRouter(database: database, webDirectory: webDirectory)
        RadioLiveRoutes.add(to: router, radio: radio, auth: nil)
        let app = Application(
            router: router,
            server: QuintetApplication.makeServer(webSocketRouter: Router(context: QuintetWebSocketContext.self), radio: radio),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger)
        try await app.test(.live) { client in
            let server = RadioTestServer(port: client.port!, directory: directory, radio: radio, client: client, data: data)
            try await body(server)
        }
    }

    /// A source connection that completed the handshake (PUT with `Expect`, or SOURCE).
    func connectSource(mount: String = "/live/test.mp3", key: String = "k3y", method: String = "PUT",
                       contentType: String? = "audio/mpeg", extraHeaders: String = "") throws -> (RawClient, [UInt8]) {
        let source = try RawClient(port: port)
        let auth = Data("source:\(key)".utf8).base64EncodedString()
        var head = "\(method) \(mount) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic \(auth)\r\n"
        if method == "PUT" { head += "Expect: 100-continue\r\n" }
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += extraHeaders + "\r\n"
        source.send(head)
        var answer: [UInt8] = []
        let expected = method == "PUT" ? 63 : 19
        while answer.count < expected, let bytes = source.receive(max: expected - answer.count), !bytes.isEmpty {
            answer += bytes
        }
        return (source, answer)
    }

    /// Reads a live mount's state on its event loop; nil while nothing is live at `path`.
    func state<T: Sendable>(of path: String, _ read: @escaping @Sendable (LiveMount) -> T) async throws -> T? {
        guard let mount = radio.mount(at: path) else { return nil }
        return try await mount.eventLoop.submit { read(mount) }.get()
    }

    /// Waits until the live mount at `path` has received `count` bytes from its sources.
    func waitForBytes(_ count: Int, at path: String = "/live/test.mp3") async throws {
        try await waitUntil("\(path) received \(count) bytes") {
            try await state(of: path) { $0.bytesIn }.map { $0 >= Int64(count) } ?? false
        }
    }

    /// Waits until the live mount at `path` has `count` listeners connected.
    func waitForListeners(_ count: Int, at path: String = "/live/test.mp3") async throws {
        try await waitUntil("\(path) has \(count) listeners") {
            try await state(of: path) { $0.listenerCount } == count
        }
    }

    /// Waits until `count` episodes have ended.
    func waitForEndedEpisodes(_ count: Int) async throws {
        try await waitUntil("\(count) episodes ended") { directory.ended.count == count }
    }
}

/// An MP3 (CBR 128 kbit/s, 44.1 kHz stereo) made by the real ffmpeg; with `infoFrame`, it
/// starts with the Info header frame ffmpeg writes into files (no ID3v2 tag either way).
func makeMP3(seconds: Double, frequency: Int = 440, infoFrame: Bool = false, in directory: URL) throws -> [UInt8] {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("tone-\(frequency)-\(seconds)\(infoFrame ? "-info" : "").mp3")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                         "-i", "sine=frequency=\(frequency):duration=\(seconds)", "-ac", "2", "-c:a", "libmp3lame",
                         "-b:a", "128k", "-write_xing", infoFrame ? "1" : "0", "-id3v2_version", "0", "-f", "mp3", url.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw RawClient.Failure(description: "ffmpeg failed") }
    return Array(try Data(contentsOf: url))
}
