import Foundation

/// Reads a RIFF/WAVE file's format, duration and tags (Microsoft/IBM "Multimedia
/// Programming Interface and Data Specifications 1.0", 1991: `fmt `, `data`, LIST/INFO;
/// plus the `id3 `/`ID3 ` chunk that many taggers add).
///
/// INFO ids: INAM title, IART artist, IPRD album, ICRD date, IGNR genre, ICMT comment,
/// ITRK or IPRT track, ICMP composer; values are UTF-8 when valid, else ISO-8859-1. An ID3v2
/// chunk wins over INFO. Chunks are padded to even sizes; a `data` size of 0xFFFFFFFF or
/// past the end is clamped to the file; at most 4,096 chunks are walked.
///
/// ```swift
/// let info = try WAVFile.read(FileByteSource(path: "take.wav"))
/// print(info.stream.sampleRate ?? 0, info.stream.duration ?? 0)
/// ```
public enum WAVFile {
    /// - Throws: `MediaTagsError.unrecognized` without a RIFF/WAVE header, `.malformed`
    ///   when the `fmt ` chunk is missing or too short, `.io` when the source cannot be read.
    public static func read(_ source: some ByteSource) throws -> MediaInfo {
        let riff = try source.read(at: 0, length: 12)
        guard riff.count == 12, riff.starts(with: Array("RIFF".utf8)), Array(riff[8..<12]) == Array("WAVE".utf8) else {
            throw MediaTagsError.unrecognized("no RIFF/WAVE header")
        }
        var stream = StreamInfo(codec: "pcm")
        var info = TagSet(), id3: TagSet?
        var byteRate = 0, dataSize: Int?, sawFormat = false
        var position = 12
        for _ in 0..<4_096 {
            let chunkHeader = try source.read(at: position, length: 8)
            guard chunkHeader.count == 8 else { break }
            var r = ByteReader(chunkHeader)
            let id = try r.fourCC()
            let size = Int(try r.uint32LE())
            let bodyStart = position + 8
            let available = max(0, source.count - bodyStart)
            switch id {
            case "fmt ":
                byteRate = try readFormat(try source.read(at: bodyStart, length: min(size, 40)), into: &stream)
                sawFormat = true
            case "data":
                dataSize = min(size, available)
            case "LIST":
                let body = try source.read(at: bodyStart, length: min(size, available, 1 << 20))
                if body.starts(with: Array("INFO".utf8)) { readInfo(body, into: &info) }
            case "id3 ", "ID3 ":
                let bytes = try source.read(at: bodyStart, length: min(size, available, ID3v2.maxTagBytes))
                if let tag = try? ID3v2.read(bytes) { id3 = tag }
            default:
                break
            }
            guard size <= available else { break }
            position = bodyStart + size + (size & 1)
        }
        guard sawFormat else { throw MediaTagsError.malformed("WAVE file without a fmt chunk") }
        if let dataSize, byteRate > 0 {
            stream.duration = Double(dataSize) / Double(byteRate)
            stream.bitrate = byteRate * 8
        }
        var tags = id3 ?? TagSet()
        ID3Merge.fill(&tags, from: info)
        return MediaInfo(format: .wav, tags: tags, stream: stream)
    }

    /// Reads `fmt `; returns the average bytes per second (computed when the field is 0).
    private static func readFormat(_ body: [UInt8], into stream: inout StreamInfo) throws -> Int {
        var r = ByteReader(body)
        var formatTag = try r.uint16LE()
        let channels = Int(try r.uint16LE())
        let sampleRate = Int(try r.uint32LE())
        var byteRate = Int(try r.uint32LE())
        let blockAlign = Int(try r.uint16LE())
        let bits = Int(try r.uint16LE())
        if formatTag == 0xFFFE, r.remaining >= 10 {
            // WAVE_FORMAT_EXTENSIBLE: cbSize, valid bits, channel mask, then the sub-format GUID.
            try r.skip(8)
            formatTag = try r.uint16LE()
        }
        stream.codec = switch formatTag {
        case 1: "pcm"
        case 3: "float"
        case 6: "alaw"
        case 7: "mulaw"
        case 0x55: "mp3"
        default: "wav-0x" + String(formatTag, radix: 16)
        }
        stream.channels = channels > 0 ? channels : nil
        stream.sampleRate = sampleRate > 0 ? sampleRate : nil
        stream.bitsPerSample = bits > 0 ? bits : nil
        if byteRate == 0 { byteRate = blockAlign > 0 ? blockAlign * sampleRate : sampleRate * channels * ((bits + 7) / 8) }
        return byteRate
    }

    /// Reads the sub-chunks of a LIST/INFO body (starting with "INFO").
    private static func readInfo(_ body: [UInt8], into tags: inout TagSet) {
        var r = ByteReader(body, offset: 4)
        while r.remaining >= 8 {
            guard let id = try? r.fourCC(), let size = try? Int(r.uint32LE()) else { return }
            let raw = (try? r.bytes(min(size, r.remaining))) ?? []
            if size & 1 == 1 { _ = try? r.skip(1) }
            let bytes = raw.prefix { $0 != 0 }
            var text = String(validating: bytes, as: UTF8.self) ?? ID3Text.latin1(bytes)
            text = text.trimmingSpaces()
            guard !text.isEmpty else { continue }
            switch id {
            case "INAM": tags.title = text
            case "IART": tags.artists = [text]
            case "IPRD": tags.album = text
            case "ICRD": tags.date = text; tags.year = TagValues.year(text)
            case "IGNR": tags.genres = [text]
            case "ICMT": tags.comment = text
            case "ICMP": tags.composers = [text]
            case "ITRK", "IPRT":
                let pair = TagValues.numberPair(text)
                if tags.trackNumber == nil || id == "ITRK" { tags.trackNumber = pair.number; tags.trackTotal = pair.total }
            default: tags.custom[id, default: []].append(text)
            }
        }
    }
}
