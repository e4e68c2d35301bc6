import FuzzDriver
import MediaTags
import Radio

/// A live source's bytes (anything: a source may send garbage) through the radio's frame
/// scanner, as MPEG audio or ADTS: never a crash or a hang, every frame found starts with a
/// valid header, offsets grow, and scanning in pieces finds exactly what one pass finds; the
/// recording's `XingFrameFilter` likewise (piecewise = one pass, no byte lost). The first input
/// byte picks the framing and the piece sizes; the rest is the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let framing: AudioFraming = start[0] & 1 == 0 ? .mpegAudio : .adts
    let pieceSize = 1 + Int(start[0] >> 1)   // 1…128 bytes per append
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))

    var whole = AudioFrameScanner(framing: framing)
    let once = whole.append(bytes) + whole.finish()
    var pieces = AudioFrameScanner(framing: framing)
    var found: [AudioFrame] = []
    var index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + pieceSize)
        found += pieces.append(bytes[index..<end])
        index = end
    }
    found += pieces.finish()

    precondition(found.map(\.offset) == once.map(\.offset), "piecewise scanning found other frames")
    precondition(pieces.skippedBytes == whole.skippedBytes, "piecewise scanning skipped other bytes")
    precondition(whole.totalBytes == Int64(bytes.count) && whole.skippedBytes <= whole.totalBytes)
    var previous: Int64 = -1
    for frame in once {
        precondition(frame.offset > previous && frame.offset < Int64(bytes.count), "frame offsets out of order")
        precondition(frame.length > 0 && frame.samples > 0 && frame.sampleRate > 0)
        let valid = framing == .mpegAudio ? MPEGAudioHeader(bytes, at: Int(frame.offset)) != nil
                                          : ADTSHeader(bytes, at: Int(frame.offset)) != nil
        precondition(valid, "a frame without a valid header")
        previous = frame.offset
    }
    // A recording's header-frame filter: piecewise = one pass, and what it keeps plus what it
    // drops is the input, in order (only whole frames confirmed by the scanner are dropped).
    if framing == .mpegAudio {
        var one = XingFrameFilter()
        let kept = one.append(bytes) + one.finish()
        var piecewise = XingFrameFilter()
        var out: [UInt8] = []
        index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + pieceSize)
            out += piecewise.append(bytes[index..<end])
            precondition(end - out.count <= XingFrameFilter.holdLimit + 1441 + Int(piecewise.droppedBytes),
                         "the filter held back too much")
            index = end
        }
        out += piecewise.finish()
        precondition(out == kept, "piecewise filtering kept other bytes")
        precondition(kept.count + Int(one.droppedBytes) == bytes.count, "bytes lost or invented")
        precondition(one.droppedFrames == 0 || once.contains { AudioStreamSummary.isXingFrame(bytes, at: Int($0.offset)) })
    }
    // The other readers of the same bytes: a whole file's summary and the live buffer's bursts.
    _ = AudioStreamSummary(bytes: bytes, framing: framing)
    var buffer = StreamBuffer<[UInt8]>(capacity: 4096, framing: framing)
    index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + pieceSize * 7)
        buffer.append(Array(bytes[index..<end]))
        _ = buffer.burstStart(size: 1024)
        index = end
    }
    return 0
}

@_cdecl("FuzzAudioFrames_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}
