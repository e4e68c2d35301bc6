import Crowd
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Reports per minute per device and per client address, in fixed one-minute windows
/// (aligned on the clock's minutes): a report is refused when either its device key or its
/// address already sent `limit` accepted reports in the current window. A refused report is
/// not counted. At a window's end every count is dropped at once, so the memory held is the
/// keys of one minute, and at most ``maxKeys`` of each kind: beyond that a new key is not
/// tracked (its address still is). A fixed window lets a client send up to 2 × `limit` across
/// a window boundary; a sliding log would not, at the cost of one timestamp per report.
///
/// ```swift
/// let limiter = CrowdRateLimiter(limit: 60)
/// if let wait = limiter.admit(device: key, address: "10.0.0.7", now: Date()) { /* 429, Retry-After: wait */ }
/// ```
public final class CrowdRateLimiter: Sendable {
    /// Reports per window per key; 0 turns limiting off.
    public let limit: Int
    /// The window, seconds.
    public let window: TimeInterval
    /// Most keys of each kind tracked in one window.
    public let maxKeys: Int

    private struct Counts {
        var windowIndex: Int64 = .min
        var devices: [DeviceKey: Int] = [:]
        var addresses: [String: Int] = [:]
    }

    private let counts = NIOLockedValueBox(Counts())

    public init(limit: Int, window: TimeInterval = 60, maxKeys: Int = 1_000_000) {
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
    }

    /// Counts a report of `device` from `address` (nil: unknown, judged by the device alone) at
    /// `now` and answers nil, or refuses it and answers the whole seconds until the window ends
    /// (for `Retry-After`, at least 1).
    public func admit(device: DeviceKey, address: String?, now: Date) -> Int? {
        guard limit > 0 else { return nil }
        let seconds = now.timeIntervalSince1970
        let index = Int64((seconds / window).rounded(.down))
        return counts.withLockedValue { counts -> Int? in
            if counts.windowIndex != index {
                counts = Counts(windowIndex: index)
            }
            let deviceCount = counts.devices[device] ?? 0
            let addressCount = address.flatMap { counts.addresses[$0] } ?? 0
            guard deviceCount < limit, addressCount < limit else {
                let end = Double(index + 1) * window
                return Swift.max(1, Int((end - seconds).rounded(.up)))
            }
            if deviceCount > 0 || counts.devices.count < maxKeys { counts.devices[device] = deviceCount + 1 }
            if let address, addressCount > 0 || counts.addresses.count < maxKeys { counts.addresses[address] = addressCount + 1 }
            return nil
        }
    }

    /// Keys tracked in the current window (devices, addresses): for tests and metrics.
    public var trackedKeys: (devices: Int, addresses: Int) {
        counts.withLockedValue { ($0.devices.count, $0.addresses.count) }
    }
}

/// The peer address of the connection serving a request. The server's channel responder
/// (``QuintetApplication``) writes it into the request as the header ``field`` (replacing any
/// the client sent) before routing; in-process tests set the header themselves. There is no
/// proxy trust: `X-Forwarded-For` and the like are ignored.
public enum CrowdPeer {
    /// The internal header carrying the peer IP.
    public static let field = HTTPField.Name("X-Quintet-Peer-Address")!

    /// The peer IP of `request`, nil when unknown.
    public static func address(of request: Request) -> String? {
        request.headers[field]
    }
}
