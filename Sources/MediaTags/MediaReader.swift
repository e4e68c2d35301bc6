import Foundation

/// Reads the tags and stream facts of an audio file, whatever its container: MP3 (ID3v1,
/// ID3v2.2–2.4), FLAC, Ogg Vorbis and Opus, MP4/M4A, WAV.
///
/// The container is recognised by its first bytes, not by the file name (an MP3 named
/// `.m4a` still reads); readers fetch only the byte ranges they need.
///
/// ```swift
/// let info = try MediaReader.read(path: "/music/song.flac")
/// info.tags.title        // "So What"
/// info.stream.duration   // 562.4
/// ```
public enum MediaReader {
    /// Reads a file on disk. Throws `MediaTagsError` (`.io`, `.unrecognized`, `.malformed`).
    /// `size`, when the caller has just listed the regular file, saves a system call.
    public static func read(path: String, size: Int? = nil) throws -> MediaInfo {
        let source = try FileByteSource(path: path, size: size)
        guard source.count > 0 else { throw MediaTagsError.unrecognized("\(path) is empty") }
        return try read(source)
    }

    /// Reads bytes from any source.
    public static func read(_ source: some ByteSource) throws -> MediaInfo {
        switch try format(of: source) {
        case .mp3: try MP3File.read(source)
        case .flac: try FLACFile.read(source)
        case .ogg: try OggFile.read(source)
        case .mp4: try MP4File.read(source)
        case .wav: try WAVFile.read(source)
        }
    }

    /// The container of a source, from its signature. An ID3v2 tag in front is skipped
    /// to find what follows (FLAC files sometimes carry one).
    public static func format(of source: some ByteSource) throws -> MediaFormat {
        let head = try source.read(at: 0, length: 64)
        // Four bytes as a big-endian integer, so signatures compare without allocating.
        func code(_ at: Int) -> UInt32? {
            head.count >= at + 4 ? head[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } : nil
        }
        let first = code(0)
        if first == 0x664C_6143 { return .flac }                          // "fLaC"
        if first == 0x4F67_6753 { return .ogg }                           // "OggS"
        if first == 0x5249_4646, code(8) == 0x5741_5645 { return .wav }   // "RIFF" … "WAVE"
        if code(4) == 0x6674_7970 { return .mp4 }                         // "ftyp"
        if head.starts(with: [0x49, 0x44, 0x33]), head.count >= 10 {        // "ID3"
            let size = head[6..<10].reduce(0) { ($0 << 7) | Int($1 & 0x7F) } + 10 + ((head[5] & 0x10) != 0 ? 10 : 0)
            let after = try source.read(at: size, length: 4)
            if after.starts(with: Array("fLaC".utf8)) { return .flac }
            return .mp3
        }
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 { return .mp3 }
        // An MP3 may start with junk before its first frame; ID3v1 at the end also says MP3.
        if source.count >= 128, try source.read(at: source.count - 128, length: 3) == Array("TAG".utf8) { return .mp3 }
        throw MediaTagsError.unrecognized("no MP3, FLAC, Ogg, MP4 or WAV signature")
    }
}
