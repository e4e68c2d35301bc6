/// Reads an MP3 file's tags and stream facts while fetching only its head and tail.
///
/// Tags: every ID3v2 tag at the start (several may follow each other; the first wins), an
/// ID3v2.4 tag appended before the end (found through its "3DI" footer), and the ID3v1 tag
/// in the last 128 bytes; ID3v2 values win over ID3v1. APEv2 tags are skipped, not read.
///
/// Duration, in order of trust: a Xing/Info or VBRI header in the first frame (frames ×
/// samples per frame ÷ sample rate, minus the LAME encoder delay and padding, as mutagen
/// does); else, when the first frames in the head all share one bitrate, constant bitrate
/// (audio bytes × 8 ÷ bitrate); else a frame scan in 64 KiB chunks, capped at 2 million
/// frames. The first frame is searched in the 8 KiB after the tags, then in 256 KiB.
///
/// ```swift
/// let info = try MP3File.read(FileByteSource(path: "song.mp3"))
/// print(info.tags.title ?? "", info.stream.duration ?? 0)
/// ```
public enum MP3File {
    /// - Throws: `MediaTagsError.unrecognized` when there is neither an ID3 tag nor an MPEG
    ///   audio frame; `.io` when the source cannot be read.
    public static func read(_ source: some ByteSource) throws -> MediaInfo {
        var tags = TagSet()
        var foundTag = false
        var audioStart = 0
        // Leading ID3v2 tags, at most 16 of them.
        for _ in 0..<16 {
            let head = try source.read(at: audioStart, length: 10)
            guard let header = ID3v2.Header(head) else { break }
            let bytes = try source.read(at: audioStart, length: min(header.totalSize, ID3v2.maxTagBytes))
            if let tag = try? ID3v2.read(bytes) { ID3Merge.fill(&tags, from: tag) }
            foundTag = true
            audioStart += header.totalSize
        }
        var audioEnd = source.count
        try readTail(source, audioEnd: &audioEnd, tags: &tags, foundTag: &foundTag)
        var stream = StreamInfo(codec: "mp3")
        if audioStart < audioEnd, try readStream(source, start: audioStart, end: audioEnd, into: &stream) {
            return MediaInfo(format: .mp3, tags: tags, stream: stream)
        }
        guard foundTag else { throw MediaTagsError.unrecognized("no ID3 tag and no MPEG audio frame") }
        return MediaInfo(format: .mp3, tags: tags, stream: stream)
    }

    /// Reads the ID3v1, APEv2 and appended ID3v2 tags at the end, moving `audioEnd` before them.
    private static func readTail(_ source: some ByteSource, audioEnd: inout Int, tags: inout TagSet,
                                 foundTag: inout Bool) throws {
        var v1: TagSet?
        if audioEnd >= 128 {
            let last = try source.read(at: audioEnd - 128, length: 128)
            if let tag = ID3v1.read(last) { v1 = tag; audioEnd -= 128; foundTag = true }
        }
        // APEv2: a 32-byte "APETAGEX" footer; its size covers items and footer, plus a header if flagged.
        if audioEnd >= 32 {
            let footer = try source.read(at: audioEnd - 32, length: 32)
            if footer.starts(with: Array("APETAGEX".utf8)) {
                var r = ByteReader(footer, offset: 12)
                let size = Int(try r.uint32LE())
                try r.skip(4) // item count
                let flags = try r.uint32LE()
                let total = size + (flags & 0x8000_0000 != 0 ? 32 : 0)
                if total <= audioEnd { audioEnd -= total }
            }
        }
        // An appended ID3v2.4 tag ends with a "3DI" footer.
        if audioEnd >= 20 {
            var footer = try source.read(at: audioEnd - 10, length: 10)
            if footer.starts(with: Array("3DI".utf8)) {
                footer.replaceSubrange(0..<3, with: Array("ID3".utf8))
                if let header = ID3v2.Header(footer), header.totalSize <= audioEnd {
                    let bytes = try source.read(at: audioEnd - header.totalSize, length: min(header.totalSize, ID3v2.maxTagBytes))
                    if let tag = try? ID3v2.read(bytes) { ID3Merge.fill(&tags, from: tag); foundTag = true }
                    audioEnd -= header.totalSize
                }
            }
        }
        if let v1 { ID3Merge.fill(&tags, from: v1) }
    }

    /// Fills `stream` from the audio between `start` and `end`; false when no frame is found.
    private static func readStream(_ source: some ByteSource, start: Int, end: Int,
                                   into stream: inout StreamInfo) throws -> Bool {
        var head: [UInt8] = []
        var found: (offset: Int, header: MPEGAudioHeader)?
        for window in [8_192, 262_144] where found == nil {
            head = try source.read(at: start, length: min(window, end - start))
            found = MPEGAudio.firstFrame(in: head, from: 0)
            if head.count < window { break }
        }
        guard let (offset, header) = found else { return false }
        let firstFrame = start + offset
        let audioBytes = end - firstFrame
        stream.sampleRate = header.sampleRate
        stream.channels = header.channels
        let rate = Double(header.sampleRate)

        if let vbr = MPEGVBRHeader(head, frameAt: offset, header: header), let frames = vbr.frames, frames > 0 {
            let samples = max(0, frames * header.samplesPerFrame - vbr.encoderDelay - vbr.encoderPadding)
            let duration = Double(samples) / rate
            stream.duration = duration
            let bytes = vbr.bytes.flatMap { $0 > 0 ? $0 : nil } ?? audioBytes
            if duration > 0 { stream.bitrate = Int((Double(bytes) * 8 / duration).rounded()) }
            return true
        }
        if isConstantBitrate(head, from: offset, first: header) {
            stream.bitrate = header.bitrate
            stream.duration = Double(audioBytes) * 8 / Double(header.bitrate)
            return true
        }
        let scan = try MPEGAudio.scanFrames(source, from: firstFrame, to: end)
        if scan.samples > 0 {
            let duration = Double(scan.samples) / rate
            stream.duration = duration
            stream.bitrate = Int((Double(scan.bytes) * 8 / duration).rounded())
        }
        return true
    }

    /// Whether every frame header that fits in `head` after the first has the first's bitrate.
    private static func isConstantBitrate(_ head: [UInt8], from offset: Int, first: MPEGAudioHeader) -> Bool {
        var position = offset, frames = 0
        while let header = MPEGAudioHeader(head, at: position), header.isCompatible(with: first), frames < 64 {
            if header.bitrate != first.bitrate { return false }
            frames += 1
            position += header.frameLength
        }
        return true
    }
}
