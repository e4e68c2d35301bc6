/// Removes the Xing, Info and VBRI header frames from an MP3 stream that arrives in pieces,
/// passing every other byte through unchanged and in order.
///
/// A header frame describes a whole *file* (its frame count, byte count, seek table): LAME and
/// ffmpeg put one first in every file they write. A source that streams a file (ezstream, a
/// playlist player) sends it along, once per file or at every loop, and a recording that keeps
/// it makes players read the source file's duration instead of the recording's. Detection is
/// ``AudioStreamSummary/isXingFrame(_:at:)`` on each frame the ``AudioFrameScanner`` confirmed
/// (so a stray "Xing" inside audio data is never taken for one).
///
/// Bytes are held back only until they are known not to start a header frame: in a synced
/// stream that is the next frame's first 42 bytes; before sync (the stream's start, after
/// garbage) at most ``holdLimit`` bytes. Bytes outside frames (junk, a
/// tag between two files) pass through. A value type: confine it to one queue.
///
/// ```swift
/// var filter = XingFrameFilter()
/// for piece in pieces { file.write(filter.append(piece)) }
/// file.write(filter.finish())
/// ```
public struct XingFrameFilter: Sendable {
    /// Bytes of a frame needed to tell a header frame (a Xing tag after a CRC and MPEG-1 stereo
    /// side information ends 42 bytes in).
    static let probeLength = 42
    /// Unconfirmed bytes further back than this from the newest byte cannot start a frame the
    /// scanner has yet to confirm (three chained frames span less than 4.4 KB), so they pass.
    public static let holdLimit = 8192

    private var scanner = AudioFrameScanner(framing: .mpegAudio)
    /// Bytes from ``cursor`` on, not yet passed or dropped.
    private var held: [UInt8] = []
    /// Absolute offset of `held[0]`: every byte before it has been decided.
    private var cursor: Int64 = 0
    /// Confirmed frames at or after `cursor`, oldest first, not yet decided.
    private var pending: [AudioFrame] = []
    private var pendingHead = 0
    /// End of the frame being passed or dropped, and which.
    private var regionEnd: Int64 = 0
    private var dropping = false

    /// Header frames removed so far.
    public private(set) var droppedFrames = 0
    /// Bytes removed so far (the header frames' bytes).
    public private(set) var droppedBytes: Int64 = 0

    public init() {}

    /// Appends the next bytes of the stream; returns the bytes that may be written now.
    public mutating func append(_ bytes: some Collection<UInt8>) -> [UInt8] {
        held.append(contentsOf: bytes)
        pending += scanner.append(bytes)
        return release(final: false)
    }

    /// Declares the end of the stream and returns everything still held that is not a header
    /// frame.
    public mutating func finish() -> [UInt8] {
        pending += scanner.finish()
        return release(final: true)
    }

    private mutating func release(final: Bool) -> [UInt8] {
        var out: [UInt8] = []
        let available = cursor + Int64(held.count)
        var position = cursor
        func take(upTo end: Int64, keep: Bool) {
            guard end > position else { return }
            if keep {
                out += held[Int(position - cursor)..<Int(end - cursor)]
            } else {
                droppedBytes += end - position
            }
            position = end
        }
        while true {
            if position < regionEnd {
                take(upTo: min(regionEnd, available), keep: !dropping)
                if position < regionEnd { break }   // the rest of that frame has yet to arrive
            }
            guard pendingHead < pending.count else {
                // No frame to decide: bytes that can no longer start one pass.
                take(upTo: final ? available : max(position, available - Int64(Self.holdLimit)), keep: true)
                break
            }
            let frame = pending[pendingHead]
            if frame.offset < position {
                // Already passed as bytes that could not start a frame (cannot happen with the
                // scanner's chain lengths; kept so a miscount never cuts audio): pass the rest.
                regionEnd = max(regionEnd, frame.offset + Int64(frame.length))
                dropping = false
                pendingHead += 1
                continue
            }
            let probeEnd = frame.offset + Int64(min(frame.length, Self.probeLength))
            if probeEnd > available, !final { break }
            take(upTo: frame.offset, keep: true)   // junk before the frame
            let header = AudioStreamSummary.isXingFrame(held, at: Int(frame.offset - cursor))
            dropping = header
            if header { droppedFrames += 1 }
            regionEnd = frame.offset + Int64(frame.length)
            pendingHead += 1
        }
        if pendingHead > 64 || pendingHead == pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        held.removeFirst(Int(position - cursor))
        cursor = position
        return out
    }
}
