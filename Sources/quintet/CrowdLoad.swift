import Crowd
import Foundation
import Locking
import QuintetServer
#if canImport(Glibc)
import Glibc
private let systemSocket = Glibc.socket
private let systemClose = Glibc.close
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemSocket = Darwin.socket
private let systemClose = Darwin.close
private let streamSocket = SOCK_STREAM
private let noSignal: Int32 = 0
#endif

/// Feeds simulated reports to a Crowd: over HTTP to a running server (`C` keep-alive
/// connections on their own threads), or straight into a stopped server's store (the fast path
/// for a city of a million devices). Used by `quintet crowd simulate`.
enum CrowdLoad {
    /// What a run did.
    struct Summary: Sendable, Codable, Hashable {
        var reports: Int
        var errors: Int
        /// Answers by HTTP status (`"200"`, `"429"`…; `"connection"` for transport failures).
        var statuses: [String: Int]
        var seconds: Double
        var reportsPerSecond: Double { seconds > 0 ? Double(reports) / seconds : 0 }

        init(reports: Int = 0, errors: Int = 0, statuses: [String: Int] = [:], seconds: Double = 0) {
            self.reports = reports
            self.errors = errors
            self.statuses = statuses
            self.seconds = seconds
        }

        /// Adds another run's reports, errors and statuses (not its seconds).
        mutating func add(_ other: Summary) {
            reports += other.reports
            errors += other.errors
            for (key, count) in other.statuses { statuses[key, default: 0] += count }
        }

        enum CodingKeys: String, CodingKey { case reports, errors, statuses, seconds, reportsPerSecond = "reports_per_second" }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(reports: try c.decode(Int.self, forKey: .reports), errors: try c.decode(Int.self, forKey: .errors),
                      statuses: try c.decode([String: Int].self, forKey: .statuses), seconds: try c.decode(Double.self, forKey: .seconds))
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(reports, forKey: .reports)
            try c.encode(errors, forKey: .errors)
            try c.encode(statuses, forKey: .statuses)
            try c.encode(seconds, forKey: .seconds)
            try c.encode(reportsPerSecond, forKey: .reportsPerSecond)
        }
    }

    /// Posts every report to `server` (`http://host:port`) over `concurrency` connections;
    /// `progress` is called with the reports sent so far about once a second (from a worker
    /// thread). Blocks until done.
    static func overHTTP(_ reports: [CrowdSimulation.Report], server: String, concurrency: Int,
                                progress: @escaping @Sendable (Int) -> Void = { _ in }) throws -> Summary {
        let endpoint = try CrowdHTTPEndpoint(server)
        let workers = Swift.max(1, Swift.min(concurrency, Swift.max(1, reports.count)))
        // One blocking connection per worker thread (the CLI's load client: not server code).
        final class Shared: Sendable {
            let state = Lock((total: Summary(), sent: 0, lastProgress: Date()))
        }
        let shared = Shared()
        let group = DispatchGroup()
        let start = Date()
        for worker in 0..<workers {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var local = Summary()
                var connection: CrowdHTTPConnection?
                var index = worker
                while index < reports.count {
                    let status: String
                    do {
                        if connection == nil { connection = try CrowdHTTPConnection(endpoint) }
                        let code = try connection!.post(path: "/api/crowd/reports", json: reports[index].json)
                        status = String(code)
                    } catch {
                        connection = nil
                        status = "connection"
                    }
                    local.reports += 1
                    if status != "200" { local.errors += 1 }
                    local.statuses[status, default: 0] += 1
                    index += workers
                    if local.reports % 200 == 0 {
                        let report: Int? = shared.state.withLock { shared in
                            shared.sent += 200
                            guard Date().timeIntervalSince(shared.lastProgress) >= 1 else { return nil }
                            shared.lastProgress = Date()
                            return shared.sent
                        }
                        if let report { progress(report) }
                    }
                }
                connection?.close()
                shared.state.withLock { $0.total.add(local) }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        var total = shared.state.withLock { $0.total }
        total.seconds = Date().timeIntervalSince(start)
        return total
    }

    /// Applies every report to `service` directly (keys made with `keys`), `concurrency` at a
    /// time so that the store's group commit batches them; `progress` about once a second.
    static func direct(_ reports: [CrowdSimulation.Report], service: any CrowdService, keys: CrowdDeviceKeys,
                              concurrency: Int, now: @escaping @Sendable () -> Date = { Date() },
                              progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> Summary {
        let start = Date()
        var summary = Summary()
        var lastProgress = Date()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            var next = 0
            func add() {
                let report = reports[next]
                next += 1
                group.addTask {
                    do {
                        _ = try await service.report(report.report(device: keys.key(for: report.device)), now: now())
                        return true
                    } catch is CrowdValidationError {
                        return false
                    }
                }
            }
            while next < Swift.min(reports.count, Swift.max(1, concurrency)) { add() }
            while let ok = try await group.next() {
                summary.reports += 1
                if ok { summary.statuses["ok", default: 0] += 1 } else { summary.errors += 1; summary.statuses["invalid", default: 0] += 1 }
                if next < reports.count { add() }
                if summary.reports % 1000 == 0, Date().timeIntervalSince(lastProgress) >= 1 {
                    lastProgress = Date()
                    progress(summary.reports)
                }
            }
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }
}

/// `http://host:port` of a server (no TLS: the simulator talks to a server on the same network).
struct CrowdHTTPEndpoint: Sendable {
    var host: String
    var port: Int

    init(_ text: String) throws {
        guard let url = URL(string: text), url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw CrowdValidationError(field: "server", reason: "must be an http:// URL like http://127.0.0.1:8080, not '\(text.prefix(80))'")
        }
        self.host = host
        self.port = url.port ?? 80
    }
}

/// One blocking HTTP/1.1 keep-alive connection: enough for posting small JSON bodies and
/// reading answers with a Content-Length.
final class CrowdHTTPConnection {
    private let socket: Int32
    private let hostHeader: String
    private var buffer: [UInt8] = []

    struct Failure: Error {}

    init(_ endpoint: CrowdHTTPEndpoint) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &result) == 0, let first = result else { throw Failure() }
        defer { freeaddrinfo(result) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        var connected: Int32 = -1
        while let info = candidate {
            let fd = systemSocket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { connected = fd; break }
                _ = systemClose(fd)
            }
            candidate = info.pointee.ai_next
        }
        guard connected >= 0 else { throw Failure() }
        var one: Int32 = 1
        setsockopt(connected, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        socket = connected
        hostHeader = "\(endpoint.host):\(endpoint.port)"
    }

    private var open = true

    func close() {
        if open { _ = systemClose(socket) }
        open = false
    }

    deinit { close() }

    /// Posts `json` and answers the status code (the body is read and dropped).
    func post(path: String, json: String) throws -> Int {
        let body = Array(json.utf8)
        var request = Array("POST \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        request.append(contentsOf: body)
        var offset = 0
        while offset < request.count {
            let n = request[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, noSignal) }
            guard n > 0 else { throw Failure() }
            offset += n
        }
        // Head.
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find(buffer)
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1]) else { throw Failure() }
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        while buffer.count < length { try fill() }
        buffer.removeFirst(length)
        return status
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw Failure() }
        buffer.append(contentsOf: chunk[..<n])
    }

    private static func find(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
