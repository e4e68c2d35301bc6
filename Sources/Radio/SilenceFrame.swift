import MediaTags

extension MPEGAudioHeader {
    /// A complete Layer III frame that decodes to silence, matching this header's version,
    /// bitrate, sample rate and channel mode, used to fill a mount while its source reconnects.
    ///
    /// The frame is the header (no CRC, no padding, private/copyright/original bits and emphasis
    /// cleared, mode extension cleared) followed by zeros: zeroed side information says
    /// `main_data_begin = 0` and `part2_3_length = 0` for every granule and channel, so no
    /// spectral value is coded and the decoder outputs zeros (ISO/IEC 11172-3 §2.4.1.7). Its
    /// length is ``frameLength`` without the padding byte. Because it does not use the bit
    /// reservoir, a real frame that follows it and points back into the reservoir may decode
    /// with a short glitch; decoders recover on the next frame.
    ///
    /// ```swift
    /// let silence = liveHeader.silentFrame()   // 417 bytes for 128 kbit/s at 44.1 kHz
    /// ```
    public func silentFrame() -> [UInt8] {
        let b1 = UInt8((word >> 16) & 0xFF) | 0x01           // protection bit 1: no CRC
        let b2 = UInt8((word >> 8) & 0xFF) & 0xFC             // padding and private bits cleared
        let b3 = UInt8(word & 0xFF) & 0xC0                    // channel mode kept, the rest cleared
        let unpadded = MPEGAudioHeader(0xFF, b1, b2, b3)!
        var frame = [UInt8](repeating: 0, count: unpadded.frameLength)
        frame[0] = 0xFF
        frame[1] = b1
        frame[2] = b2
        frame[3] = b3
        return frame
    }
}
