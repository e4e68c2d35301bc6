import Foundation

/// Reader of native FLAC files: stream info from STREAMINFO, tags from VORBIS_COMMENT and
/// pictures from PICTURE metadata blocks.
///
/// Follows RFC 9639 (Free Lossless Audio Codec), §8 "File-level metadata": the "fLaC"
/// marker, then metadata blocks with a 1-bit last-block flag, 7-bit type and 24-bit
/// big-endian length. Only the metadata is read, never the audio frames.
///
/// ```swift
/// let info = try FLACFile.read(FileByteSource(path: "song.flac"))
/// print(info.tags.title ?? "?", info.stream.duration ?? 0)
/// ```
///
/// Edge cases: a leading ID3v2 tag (written by some taggers) is skipped by its declared
/// size; a file cut inside the metadata keeps the blocks read before the cut, provided
/// STREAMINFO was among them, but has no audio: its stream facts are left out (codec only),
/// as for an MP3 with no audio frame, so a catalog does not take its tags for a song. The
/// same holds when nothing follows the last metadata block. A total sample count of 0
/// (unknown) gives no duration.
public enum FLACFile {
    /// At most this many metadata blocks are visited (real files have fewer than 20).
    static let maxBlocks = 4_096

    /// Reads tags and stream info from a FLAC file.
    /// - Throws: `.unrecognized` without the "fLaC" marker, `.malformed` when STREAMINFO
    ///   is missing, too short or cut off. A file whose metadata is cut after STREAMINFO
    ///   is no error: its tags come back with no stream facts (see above).
    public static func read(_ source: some ByteSource) throws -> MediaInfo {
        var offset = try id3v2Size(source)
        guard try source.read(at: offset, length: 4) == Array("fLaC".utf8) else {
            throw MediaTagsError.unrecognized("no \"fLaC\" marker at byte \(offset)")
        }
        offset += 4
        var stream: StreamInfo?
        var tags = TagSet()
        var comments: TagSet?
        var pictures: [TagSet.Picture] = []
        var complete = false
        for _ in 0..<maxBlocks {
            let header = try source.read(at: offset, length: 4)
            guard header.count == 4 else { break }
            let isLast = header[0] & 0x80 != 0
            let type = header[0] & 0x7F
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            offset += 4
            if type == 0 || type == 4 || type == 6 {
                let body = try source.read(at: offset, length: length)
                guard body.count == length else { break }
                switch type {
                case 0:
                    stream = try streamInfo(body)
                case 4:
                    if comments == nil { comments = try? VorbisComment.parse(body) }
                default:
                    if let picture = try? picture(body) { pictures.append(picture) }
                }
            }
            offset += length
            if isLast { complete = true; break }
        }
        guard var info = stream else {
            throw MediaTagsError.malformed("FLAC file has no complete STREAMINFO block")
        }
        if let comments { tags = comments }
        tags.pictures += pictures
        // Cut inside the metadata (or right after it): not one audio frame, so no stream.
        guard complete, offset < source.count else {
            return MediaInfo(format: .flac, tags: tags, stream: StreamInfo(codec: "flac"))
        }
        if let duration = info.duration, duration > 0 {
            let bits = Double(max(0, source.count - offset)) * 8 / duration
            if bits.isFinite, bits < Double(Int32.max) { info.bitrate = Int(bits.rounded()) }
        }
        return MediaInfo(format: .flac, tags: tags, stream: info)
    }

    /// The STREAMINFO block (RFC 9639 §8.2): 20-bit sample rate, 3-bit channels − 1,
    /// 5-bit bits per sample − 1, 36-bit total samples.
    static func streamInfo(_ body: [UInt8]) throws -> StreamInfo {
        var reader = ByteReader(body)
        try reader.require(34, "STREAMINFO")
        try reader.skip(10)
        let packed = try reader.uint64BE()
        let sampleRate = Int(packed >> 44)
        let channels = Int((packed >> 41) & 0x7) + 1
        let bits = Int((packed >> 36) & 0x1F) + 1
        let samples = packed & 0xF_FFFF_FFFF
        var info = StreamInfo(codec: "flac", sampleRate: sampleRate > 0 ? sampleRate : nil,
                              channels: channels, bitsPerSample: bits)
        if sampleRate > 0, samples > 0 { info.duration = Double(samples) / Double(sampleRate) }
        return info
    }

    /// A PICTURE block (RFC 9639 §8.8), also the payload of a Vorbis comment
    /// METADATA_BLOCK_PICTURE: big-endian type, MIME length + MIME, description length +
    /// UTF-8 description, width, height, depth, colours, data length + data.
    /// A MIME type of "-->" (a URL, not an image) or an empty one is replaced by the type
    /// guessed from the bytes.
    static func picture(_ body: [UInt8]) throws -> TagSet.Picture {
        var reader = ByteReader(body)
        let type = Int(try reader.uint32BE())
        let mime = String(decoding: try reader.bytes(Int(try reader.uint32BE())), as: UTF8.self)
        let description = String(decoding: try reader.bytes(Int(try reader.uint32BE())), as: UTF8.self)
        try reader.skip(16)
        let data = try reader.bytes(Int(try reader.uint32BE()))
        let knownMime = mime.isEmpty || mime == "-->" ? TagValues.imageMimeType(data) : mime
        return TagSet.Picture(type: type, mimeType: knownMime, description: description, data: Data(data))
    }

    /// The number of bytes taken by a leading ID3v2 tag (header, body and footer), or 0.
    static func id3v2Size(_ source: some ByteSource) throws -> Int {
        let header = try source.read(at: 0, length: 10)
        guard header.count == 10, header.starts(with: Array("ID3".utf8)) else { return 0 }
        var reader = ByteReader(header)
        try reader.skip(5)
        let flags = try reader.uint8()
        let size = Int(try reader.synchsafe(4))
        return 10 + size + (flags & 0x10 != 0 ? 10 : 0)
    }
}
