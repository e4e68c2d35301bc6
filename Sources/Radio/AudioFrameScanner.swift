import Foundation
import MediaTags

/// The frame formats a live mount can be cut on.
public enum AudioFraming: Sendable, Hashable {
    /// MPEG-1/2/2.5 Layer III frames (`audio/mpeg`).
    case mpegAudio
    /// ADTS AAC frames (`audio/aac`, `audio/aacp`).
    case adts
    /// No framing known: cut on chunk boundaries only (Ogg, WebM, anything else).
    case none

    /// The framing for a source's `Content-Type` (parameters and case ignored).
    public init(contentType: String) {
        let base = contentType.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        switch base {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg": self = .mpegAudio
        case "audio/aac", "audio/aacp", "audio/x-aac": self = .adts
        default: self = .none
        }
    }

    var headerLength: Int { self == .adts ? 7 : 4 }
}

/// One audio frame found by ``AudioFrameScanner``.
public struct AudioFrame: Sendable, Hashable {
    /// Absolute byte offset of the frame's first header byte in the stream.
    public let offset: Int64
    /// Bytes in the frame, header included (the frame may not have fully arrived yet).
    public let length: Int
    /// PCM samples per channel in the frame.
    public let samples: Int
    /// Samples per second of the frame.
    public let sampleRate: Int
}

/// Finds frame boundaries in a byte stream that arrives in pieces and may start mid-frame.
///
/// The scanner is *in sync* once `confirmations` consecutive valid headers (default 3) of the
/// same stream (same version, layer and sample rate) chain exactly, each at the previous frame's
/// end; it then follows the chain and reports a frame as soon as its header has arrived. When a
/// header is missing where one is expected (garbage, a cut, a new encoder), it drops sync and
/// searches again byte by byte. Bytes outside frames are counted in ``skippedBytes``.
///
/// Memory stays bounded by a few frames plus the latest piece. A value type: confine it to the
/// owner of the stream (one actor or event loop).
///
/// ```swift
/// var scanner = AudioFrameScanner(framing: .mpegAudio)
/// for chunk in chunks { for frame in scanner.append(chunk) { print(frame.offset) } }
/// let tail = scanner.finish()   // at end of stream: frames that could not be confirmed before
/// ```
public struct AudioFrameScanner: Sendable {
    /// The frame format searched for.
    public let framing: AudioFraming
    /// Consecutive valid headers needed to (re)gain sync.
    public let confirmations: Int
    /// Bytes seen so far (the absolute offset of the next appended byte).
    public private(set) var totalBytes: Int64 = 0
    /// Bytes that were not part of any frame (junk before sync, garbage between frames).
    public private(set) var skippedBytes: Int64 = 0
    /// Whether the scanner currently follows a chain of frames.
    public private(set) var isSynced = false

    private var window: [UInt8] = []
    private var windowStart: Int64 = 0
    private var cursor: Int64 = 0
    private var key: UInt32 = 0
    private var finishing = false

    /// A scanner for `framing`, which must not be `.none`.
    public init(framing: AudioFraming, confirmations: Int = 3) {
        precondition(framing != .none, "AudioFrameScanner needs a frame format")
        self.framing = framing
        self.confirmations = max(1, confirmations)
    }

    /// Appends the next bytes of the stream and returns the frames whose headers were confirmed.
    public mutating func append(_ bytes: some Collection<UInt8>) -> [AudioFrame] {
        let start = totalBytes
        totalBytes += Int64(bytes.count)
        if totalBytes > cursor {
            if window.isEmpty { windowStart = max(cursor, start) }
            let skip = Int(max(0, windowStart - start))
            window.append(contentsOf: bytes.dropFirst(skip))
        }
        return scan()
    }

    /// Declares the end of the stream: chains shorter than `confirmations` that end exactly at
    /// the last byte are accepted, and the frames found are returned.
    public mutating func finish() -> [AudioFrame] {
        finishing = true
        return scan()
    }

    private func frameAt(_ i: Int) -> (length: Int, samples: Int, rate: Int, key: UInt32)? {
        switch framing {
        case .mpegAudio:
            guard i + 4 <= window.count,
                  let h = MPEGAudioHeader(window[i], window[i + 1], window[i + 2], window[i + 3], accepting: .layerIII)
            else { return nil }
            return (h.frameLength, h.samplesPerFrame, h.sampleRate, h.streamKey)
        case .adts:
            guard let h = ADTSHeader(window, at: i) else { return nil }
            return (h.frameLength, h.samplesPerFrame, h.sampleRate, h.streamKey)
        case .none:
            return nil
        }
    }

    private mutating func scan() -> [AudioFrame] {
        var found: [AudioFrame] = []
        let headerLength = framing.headerLength
        loop: while true {
            let i = Int(cursor - windowStart)
            guard i + headerLength <= window.count else { break }
            if isSynced {
                if let f = frameAt(i), f.key == key {
                    found.append(AudioFrame(offset: cursor, length: f.length, samples: f.samples, sampleRate: f.rate))
                    cursor += Int64(f.length)
                } else {
                    isSynced = false
                }
                continue
            }
            guard let first = frameAt(i) else {
                cursor += 1
                skippedBytes += 1
                continue
            }
            var position = i + first.length
            var chained = 1
            while chained < confirmations {
                if position + headerLength > window.count {
                    if !finishing { break loop }  // wait for more bytes
                    if position == window.count { break }  // chain ends exactly at the end
                    chained = -1
                    break
                }
                guard let next = frameAt(position), next.key == first.key else {
                    chained = -1
                    break
                }
                position += next.length
                chained += 1
            }
            if chained < 0 {
                cursor += 1
                skippedBytes += 1
            } else {
                isSynced = true
                key = first.key
            }
        }
        // Keep only the bytes from the cursor on.
        let drop = Int(min(max(0, cursor - windowStart), Int64(window.count)))
        if drop > 0 {
            window.removeFirst(drop)
            windowStart += Int64(drop)
        }
        if window.isEmpty { windowStart = max(cursor, totalBytes) }
        return found
    }
}
