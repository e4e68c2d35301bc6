import Foundation
import MediaTags

/// Writes the Xing/Info header frame a finished MP3 recording lacks: the frame count, the byte
/// count and a 100-entry seek table, so players show the recording's exact duration and seek in
/// it, VBR streams included (Xing Technology's VBR header as LAME writes it: tag `Xing` for VBR,
/// `Info` for CBR, after the Layer III side information of a frame with no audio).
///
/// A live recording has no such frame: the source's own header frames are left out as they
/// arrive (``XingFrameFilter``) and the true counts are only known at the end.
///
/// ```swift
/// let written = try MP3SeekHeader.add(toFileAt: url)   // false: there was one, or not an MP3
/// ```
public enum MP3SeekHeader {
    /// Flags of the frame: frame count, byte count and table of contents present.
    static let flags: UInt32 = 0x7

    /// The header frame for a stream of `frames` audio frames shaped like `audio` (same version,
    /// sample rate and channel mode): `bytes` is the size of the whole stream with this frame,
    /// `toc` its 100 seek positions (entry i: where the frame at i % of the duration starts,
    /// from the first audio frame, in 256ths of `bytes`; so entry 0 is 0). The frame has the
    /// stream's bitrate when that leaves room for the header, else the lowest that does; no CRC,
    /// no padding. `vbr` chooses the tag (`Xing`) over `Info`.
    public static func frame(like audio: MPEGAudioHeader, frames: Int, bytes: Int, toc: [UInt8], vbr: Bool) -> [UInt8] {
        let shape = header(like: audio)
        var frame = [UInt8](repeating: 0, count: shape.frameLength)
        withUnsafeBytes(of: shape.word.bigEndian) { frame.replaceSubrange(0..<4, with: $0) }
        var body: [UInt8] = Array((vbr ? "Xing" : "Info").utf8)
        for value in [flags, UInt32(clamping: frames), UInt32(clamping: bytes)] {
            withUnsafeBytes(of: value.bigEndian) { body += $0 }
        }
        body += toc.prefix(100) + [UInt8](repeating: 0, count: max(0, 100 - toc.count))
        frame.replaceSubrange(shape.xingOffset..<shape.xingOffset + body.count, with: body)
        return frame
    }

    /// Bytes from the frame start to the end of the table: side information, tag, three counts
    /// and 100 entries.
    static func needed(_ header: MPEGAudioHeader) -> Int { header.xingOffset + 4 + 12 + 100 }

    /// `audio`'s header with no CRC, no padding and a bitrate whose frame holds the table.
    static func header(like audio: MPEGAudioHeader) -> MPEGAudioHeader {
        let b1 = UInt8(truncatingIfNeeded: audio.word >> 16) | 1   // protection bit set: no CRC
        let b3 = UInt8(truncatingIfNeeded: audio.word)
        let rate = UInt8(truncatingIfNeeded: audio.word >> 8) & 0x0C   // sample rate bits; no padding
        let own = UInt8(truncatingIfNeeded: audio.word >> 12) & 0x0F
        for index in [own] + Array(UInt8(1)...UInt8(14)) {
            if let candidate = MPEGAudioHeader(0xFF, b1, index << 4 | rate, b3, accepting: .layerIII),
               candidate.frameLength >= needed(candidate) {
                return candidate
            }
        }
        // The highest bitrate always has room (MPEG-2.5 at 8 kHz: 160 kbit/s is 1,440 bytes).
        return MPEGAudioHeader(0xFF, b1, 14 << 4 | rate, b3, accepting: .layerIII)!
    }

    /// Puts a header frame at the start of the MP3 file at `url` (after its ID3v2 tag, if any),
    /// through a temporary file renamed over it. Nothing is written when the file already starts
    /// with a Xing/Info/VBRI frame, has no audio frame, or changes version, sample rate or
    /// samples per frame midway (the table assumes one frame duration). A last frame cut short
    /// (a crash) is not counted. Reads the file in 1 MiB pieces; keeps 8 bytes per frame
    /// (4.5 MB for 4 hours at 44.1 kHz). Returns whether a frame was written.
    @discardableResult
    public static func add(toFileAt url: URL) throws -> Bool {
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        let chunkSize = 1 << 20
        var window = [UInt8]((try input.read(upToCount: chunkSize)) ?? Data())
        var total = Int64(window.count)
        let tag = Int64(ID3v2.Header(window)?.totalSize ?? 0)
        var windowStart = Int64(0)   // file offset of window[0]
        var scanner = AudioFrameScanner(framing: .mpegAudio)
        var offsets: [Int64] = []    // of the audio frames, from the end of the tag
        var first: MPEGAudioHeader?
        var startsWithHeaderFrame = false
        var (shortest, longest) = (Int.max, 0)
        var (samples, rate) = (0, 0)
        var uniform = true
        var lastEnd = Int64(0)
        func take(_ frames: [AudioFrame]) {
            for frame in frames {
                if first == nil {
                    let at = Int(tag + frame.offset - windowStart)
                    first = MPEGAudioHeader(window, at: at, accepting: .layerIII)
                    startsWithHeaderFrame = AudioStreamSummary.isXingFrame(window, at: at)
                    (samples, rate) = (frame.samples, frame.sampleRate)
                }
                if frame.samples != samples || frame.sampleRate != rate { uniform = false }
                (shortest, longest) = (min(shortest, frame.length), max(longest, frame.length))
                offsets.append(frame.offset)
                lastEnd = frame.offset + Int64(frame.length)
            }
        }
        var fed = tag   // file offset of the next byte for the scanner
        while true {
            if fed < windowStart + Int64(window.count) {
                take(scanner.append(window[Int(max(0, fed - windowStart))...]))
                fed = windowStart + Int64(window.count)
            }
            if startsWithHeaderFrame { return false }
            guard let data = try input.read(upToCount: chunkSize), !data.isEmpty else { break }
            // The scanner confirms a frame up to three frames after its header: keep a tail so
            // the first frame's header can still be read when it is confirmed in the next piece.
            let keep = Array(window.suffix(8192))
            windowStart += Int64(window.count - keep.count)
            window = keep + [UInt8](data)
            total += Int64(data.count)
        }
        take(scanner.finish())
        if tag + lastEnd > total {
            offsets.removeLast()   // cut short (a crash)
        }
        guard let audio = first, uniform, !offsets.isEmpty, !startsWithHeaderFrame else { return false }
        let shape = header(like: audio)
        let streamBytes = Int(total - tag) + shape.frameLength
        let start = offsets[0]
        let toc: [UInt8] = (0..<100).map { i in
            let position = Int(offsets[offsets.count * i / 100] - start)
            return UInt8(min(255, position * 256 / streamBytes))
        }
        // Frames of one bitrate differ by the padding byte at most; other bitrates by far more.
        let frame = frame(like: audio, frames: offsets.count, bytes: streamBytes, toc: toc, vbr: longest - shortest > 1)

        // tag + frame + everything after the tag, into a temporary file beside the original.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).seek-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let output = try FileHandle(forWritingTo: temporary)
            defer { try? output.close() }
            try input.seek(toOffset: 0)
            var copied = 0
            while copied < Int(tag), let data = try input.read(upToCount: min(chunkSize, Int(tag) - copied)), !data.isEmpty {
                try output.write(contentsOf: data)
                copied += data.count
            }
            try output.write(contentsOf: Data(frame))
            while let data = try input.read(upToCount: chunkSize), !data.isEmpty {
                try output.write(contentsOf: data)
            }
            try output.synchronize()
            // rename(2): atomic, and a reader that has the old file open keeps reading it.
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return true
    }
}
