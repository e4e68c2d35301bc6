import FuzzDriver
import MediaTags

/// The frames that carry performer credits and MusicBrainz ids, each wrapped around the fuzzer's
/// bytes in a well-formed container so the bytes reach their parser rather than the container
/// checks: the first byte picks ID3v2.4 `TMCL`/`TIPL`, ID3v2.3 `IPLS`, ID3v2.2 `IPL`, a
/// `TXXX:MusicBrainz Artist Id`, a FLAC `PERFORMER`/`MUSICBRAINZ_ARTISTID` comment or an MP4
/// freeform `PERFORMER`/`MusicBrainz Artist Id` atom; the rest is the frame's body (or value).
/// Any bytes must give tags or a `MediaTagsError`: never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let body = Array(input.dropFirst())
    let file: [UInt8]
    switch input[0] % 9 {
    case 0: file = id3(major: 4, id: "TMCL", body)
    case 1: file = id3(major: 4, id: "TIPL", body)
    case 2: file = id3(major: 3, id: "IPLS", body)
    case 3: file = id3(major: 2, id: "IPL", body)
    case 4: file = id3(major: 4, id: "TXXX", [3] + Array("MusicBrainz Artist Id".utf8) + [0] + body)
    case 5: file = flac(comment: Array("PERFORMER=".utf8) + body)
    case 6: file = flac(comment: Array("MUSICBRAINZ_ARTISTID=".utf8) + body)
    case 7: file = mp4(freeform: "PERFORMER", body)
    default: file = mp4(freeform: "MusicBrainz Artist Id", body)
    }
    if let info = try? MediaReader.read(DataByteSource(file)) {
        _ = info.tags.credits.count + info.tags.musicBrainzArtistIDs.count
    }
    _ = TagSet.Credit(performer: String(decoding: body, as: UTF8.self))
    return 0
}

func be32(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
func le32(_ n: Int) -> [UInt8] { be32(n).reversed() }

/// An ID3v2 tag of one frame, then a silent MPEG-1 Layer III frame.
func id3(major: Int, id: String, _ body: [UInt8]) -> [UInt8] {
    let size = body.count
    let frame: [UInt8]
    switch major {
    case 2: frame = Array(id.utf8) + Array(be32(size).dropFirst()) + body
    case 3: frame = Array(id.utf8) + be32(size) + [0, 0] + body
    default: frame = Array(id.utf8) + synchsafe(size) + [0, 0] + body
    }
    let audio: [UInt8] = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)
    return Array("ID3".utf8) + [UInt8(major), 0, 0] + synchsafe(frame.count) + frame + audio
}

func synchsafe(_ n: Int) -> [UInt8] { [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)] }

/// A FLAC stream with STREAMINFO and a VORBIS_COMMENT block holding one comment.
func flac(comment: [UInt8]) -> [UInt8] {
    var info = [UInt8](repeating: 0, count: 34)
    info[10] = 0x0A; info[11] = 0xC4; info[12] = 0x42; info[13] = 0xF0 // 44.1 kHz, 2 channels, 16 bits
    let vendor = Array("fuzz".utf8)
    let block = le32(vendor.count) + vendor + le32(1) + le32(comment.count) + comment
    return Array("fLaC".utf8) + [0] + Array(be32(34).dropFirst()) + info + [0x84] + Array(be32(block.count).dropFirst()) + block
        + [0xFF, 0xF8, 0x69, 0x08, 0x00, 0x00]
}

/// An M4A with one freeform item in `moov/udta/meta/ilst`.
func mp4(freeform name: String, _ value: [UInt8]) -> [UInt8] {
    func atom(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + Array(type.utf8) + payload }
    func full(_ type: String, _ payload: [UInt8]) -> [UInt8] { atom(type, [0, 0, 0, 0] + payload) }
    let item = atom("----", full("mean", Array("com.apple.iTunes".utf8)) + full("name", Array(name.utf8))
                    + atom("data", be32(1) + be32(0) + value))
    let hdlr = full("hdlr", be32(0) + Array("mdirappl".utf8) + [UInt8](repeating: 0, count: 9))
    let moov = atom("moov", full("mvhd", [UInt8](repeating: 0, count: 96)) + atom("udta", full("meta", hdlr + atom("ilst", item))))
    return atom("ftyp", Array("M4A ".utf8) + be32(0) + Array("M4A isom".utf8)) + moov + atom("mdat", [UInt8](repeating: 0x21, count: 64))
}

@_cdecl("FuzzCredits_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
