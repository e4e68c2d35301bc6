import Foundation
import Radio

/// The live chat's fan-out: every open chat socket of every show, and the per-user rate limit.
/// One per server; the chat sockets (``RadioChatRoute``) join it and leave it.
///
/// Each socket gives the hub the continuation of its own outgoing stream; a broadcast yields
/// the encoded message to each (never waits for a socket: a socket's stream keeps its newest
/// ``bufferedMessages`` and its own task writes them out), so a slow reader delays nobody.
///
/// ```swift
/// let (stream, continuation) = RadioChatHub.makeOutbox()
/// let member = await hub.join(show: 7, continuation)
/// await hub.broadcast(show: 7, text: json)     // every socket of show 7 gets it
/// await hub.leave(show: 7, member: member)
/// ```
actor RadioChatHub {
    /// Messages a socket may have waiting to be written before the oldest are dropped.
    static let bufferedMessages = 256

    /// The outgoing stream of one socket and its continuation.
    static func makeOutbox() -> (AsyncStream<String>, AsyncStream<String>.Continuation) {
        AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(bufferedMessages))
    }

    private var rooms: [Int64: [Int: AsyncStream<String>.Continuation]] = [:]
    private var nextMember = 0
    private var limiter: RadioChatRateLimiter<Int64>
    private let origin = ContinuousClock.now

    /// Messages one user may send per window.
    nonisolated let messagesPerWindow: Int
    /// The window of the rate limit, in seconds.
    nonisolated let windowSeconds: Double

    /// A hub allowing each user `messages` messages per `seconds` seconds (5 per 10 s by default).
    init(messages: Int = 5, seconds: Double = 10) {
        messagesPerWindow = messages
        windowSeconds = seconds
        limiter = RadioChatRateLimiter(limit: messages, window: seconds)
    }

    /// Adds a socket of show `show`; returns its member id (for ``leave(show:member:)``).
    func join(show: Int64, _ outbox: AsyncStream<String>.Continuation) -> Int {
        nextMember += 1
        rooms[show, default: [:]][nextMember] = outbox
        return nextMember
    }

    /// Removes a socket (and the show's room when it was the last).
    func leave(show: Int64, member: Int) {
        rooms[show]?[member] = nil
        if rooms[show]?.isEmpty == true { rooms[show] = nil }
    }

    /// Hands `text` to every socket of show `show`.
    func broadcast(show: Int64, text: String) {
        for outbox in (rooms[show] ?? [:]).values { outbox.yield(text) }
    }

    /// Sockets open on show `show`'s chat now.
    func members(show: Int64) -> Int { rooms[show]?.count ?? 0 }

    /// Counts a message of user `user` against the rate limit (now, or at `seconds` since the
    /// hub started, for tests).
    func admit(user: Int64, at seconds: Double? = nil) -> RadioChatRateLimiter<Int64>.Decision {
        limiter.admit(user, at: seconds ?? (ContinuousClock.now - origin).seconds)
    }
}
