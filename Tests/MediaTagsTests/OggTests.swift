import Foundation
import Testing
@testable import MediaTags

@Suite struct OggTests {
    static let comments = ["TITLE=Ogg Title", "ARTIST=A1", "ARTIST=A2", "ALBUM=Alb", "TRACKNUMBER=4", "TRACKTOTAL=10",
                           "DATE=2004", "GENRE=Jazz", "CUSTOMTHING=x"]

    static func vorbisFile(granule: UInt64 = 441_000, comments: [String] = comments, nominal: Int32 = 128_000) -> [UInt8] {
        OggBuilder.file(identification: OggBuilder.vorbisIdentification(nominal: nominal),
                        comments: OggBuilder.vorbisComments(comments), finalGranule: granule)
    }

    static func opusFile(granule: UInt64 = 48_000 * 5 + 312, preSkip: UInt16 = 312, comments: [String] = comments) -> [UInt8] {
        OggBuilder.file(identification: OggBuilder.opusHead(channels: 1, preSkip: preSkip, inputRate: 44_100),
                        comments: OggBuilder.opusTags(comments), finalGranule: granule)
    }

    @Test func crcMatchesTheOggReferenceValue() {
        // CRC-32/MPEG-2 style without init/xorout: the "123456789" check value of poly 0x04C11DB7, init 0 is 0x89A1897F.
        #expect(OggBuilder.crc(Array("123456789".utf8)) == 0x89A1_897F)
    }

    @Test func readsVorbis() throws {
        let info = try OggFile.read(DataByteSource(Self.vorbisFile()))
        #expect(info.format == .ogg)
        #expect(info.stream.codec == "vorbis")
        #expect(info.stream.sampleRate == 44_100 && info.stream.channels == 2)
        #expect(info.stream.bitrate == 128_000)
        #expect(abs(try #require(info.stream.duration) - 10.0) < 0.001)
        #expect(info.tags.title == "Ogg Title")
        #expect(info.tags.artists == ["A1", "A2"])
        #expect(info.tags.album == "Alb")
        #expect(info.tags.trackNumber == 4 && info.tags.trackTotal == 10)
        #expect(info.tags.year == 2004 && info.tags.genres == ["Jazz"])
        #expect(info.tags.custom["CUSTOMTHING"] == ["x"])
    }

    @Test func vorbisWithoutNominalBitrateUsesFileSize() throws {
        let file = Self.vorbisFile(nominal: 0)
        let info = try OggFile.read(DataByteSource(file))
        let headers = OggBuilder.file(identification: OggBuilder.vorbisIdentification(nominal: 0),
                                      comments: OggBuilder.vorbisComments(Self.comments), finalGranule: 1, audioPages: 0)
        #expect(info.stream.bitrate == Int((Double(file.count - headers.count) * 8 / 10).rounded()))
    }

    @Test func readsOpusWithPreSkip() throws {
        let file = Self.opusFile()
        let info = try OggFile.read(DataByteSource(file))
        #expect(info.stream.codec == "opus")
        #expect(info.stream.sampleRate == 48_000)
        #expect(info.stream.channels == 1)
        #expect(abs(try #require(info.stream.duration) - 5.0) < 0.001)
        // Four audio pages of 500 bytes (27 + 2 lacing bytes of header each) over 5 s.
        #expect(info.stream.bitrate == Int((Double(4 * (500 + 29)) * 8 / 5).rounded()))
        #expect(info.tags.title == "Ogg Title" && info.tags.artists == ["A1", "A2"])
    }

    @Test func commentPacketSpanningManyPages() throws {
        let cover = PackedBytes.jpeg(200_000)
        let picture = FLACBuilder.picture(description: "cover", data: cover)
        let comments = ["TITLE=Big", "METADATA_BLOCK_PICTURE=" + Data(picture).base64EncodedString()]
        let file = Self.opusFile(comments: comments)
        let info = try OggFile.read(DataByteSource(file))
        #expect(info.tags.title == "Big")
        #expect(info.tags.pictures.first?.data == Data(cover))
        #expect(info.tags.pictures.first?.description == "cover")
        #expect(abs((info.stream.duration ?? 0) - 5.0) < 0.001)
    }

    @Test func packetOfExactly255BytesEndsWithZeroLacing() throws {
        var comments = ["TITLE=T"]
        let base = OggBuilder.vorbisComments(comments).count
        comments.append("PAD=" + String(repeating: "p", count: 510 - base - 4 - 4))
        #expect(OggBuilder.vorbisComments(comments).count == 510)
        let info = try OggFile.read(DataByteSource(Self.vorbisFile(comments: comments)))
        #expect(info.tags.title == "T" && info.tags.custom["PAD"]?.first?.count == 510 - base - 8)
    }

    @Test func readsFLACInOgg() throws {
        let identification = [0x7F] + Array("FLAC".utf8) + [1, 0] + PackedBytes.be(UInt16(1)) + Array("fLaC".utf8)
            + [0, 0, 0, 34] + FLACBuilder.streamInfo(sampleRate: 48_000, channels: 2, bits: 24, samples: 0)
        let block = VorbisCommentBuilder.block(["TITLE=Oga", "ARTIST=F"])
        let file = OggBuilder.file(identification: identification, comments: [0x84] + PackedBytes.u24BE(block.count) + block,
                                   finalGranule: 48_000 * 2)
        let info = try OggFile.read(DataByteSource(file))
        #expect(info.stream.codec == "flac" && info.stream.sampleRate == 48_000 && info.stream.bitsPerSample == 24)
        #expect(info.tags.title == "Oga" && info.tags.artists == ["F"])
        #expect(abs((info.stream.duration ?? 0) - 2.0) < 0.001)
        #expect(info.stream.bitrate == Int((Double(4 * (500 + 29)) * 8 / 2).rounded()))
    }

    @Test func durationIgnoresOtherStreamsAndUnfinishedPages() throws {
        var file = Self.vorbisFile(granule: 88_200)
        var sequence: UInt32 = 0
        // A page of another stream with a larger granule, then one of ours with granule −1.
        file += OggBuilder.pages(packet: [1, 2, 3], serial: 99, sequence: &sequence, granule: 10_000_000)
        file += OggBuilder.page(serial: 0x1234_5678, sequence: 50, granule: UInt64.max, flags: 1, lacing: [255], body: [UInt8](repeating: 0, count: 255))
        let info = try OggFile.read(DataByteSource(file))
        #expect(abs((info.stream.duration ?? 0) - 2.0) < 0.001)
    }

    @Test func pageLookalikeInsideAudioDataIsRejectedByItsCRC() throws {
        var sequence: UInt32 = 0
        var file = OggBuilder.pages(packet: OggBuilder.vorbisIdentification(), serial: 7, sequence: &sequence, granule: 0, first: true)
        file += OggBuilder.pages(packet: OggBuilder.vorbisComments(["TITLE=t"]), serial: 7, sequence: &sequence, granule: 0)
        // Audio whose bytes contain "OggS", version 0, a huge granule and the stream's serial.
        let fake = Array("OggS".utf8) + [0, 0] + PackedBytes.le(UInt64(44_100 * 1_000)) + PackedBytes.le(UInt32(7)) + [UInt8](repeating: 9, count: 40)
        file += OggBuilder.pages(packet: [1, 2, 3] + fake + [4, 5], serial: 7, sequence: &sequence, granule: 44_100 * 3, last: true)
        let info = try OggFile.read(DataByteSource(file))
        #expect(abs((info.stream.duration ?? 0) - 3.0) < 0.001)
    }

    @Test func fileCutInsideTheLastPageUsesThePreviousPage() throws {
        // Four audio pages reach granules 110,250 / 220,500 / 330,750 / 441,000.
        let info = try OggFile.read(DataByteSource(Array(Self.vorbisFile().dropLast(100))))
        #expect(abs((info.stream.duration ?? 0) - 7.5) < 0.001)
    }

    @Test func tailFullOfLookalikePagesStaysCheap() throws {
        // 2,000 fake 4 KB "pages" of the stream's serial with bad CRCs after the real end.
        var file = Self.vorbisFile()
        let fake = Array("OggS".utf8) + [0, 0] + PackedBytes.le(UInt64(1)) + PackedBytes.le(UInt32(0x1234_5678)) + [0, 0, 0, 0, 0, 0, 0, 0, 16]
            + [UInt8](repeating: 255, count: 16)
        for _ in 0..<2_000 { file += fake }
        let info = try OggFile.read(DataByteSource(file))
        #expect(info.tags.title == "Ogg Title")
    }

    @Test func skeletonStreamIsPassedOver() throws {
        var sequence: UInt32 = 0
        var file = OggBuilder.pages(packet: Array("fishead\u{0}".utf8) + [UInt8](repeating: 0, count: 56), serial: 1, sequence: &sequence, granule: 0, first: true)
        var audioSequence: UInt32 = 0
        file += OggBuilder.pages(packet: OggBuilder.opusHead(), serial: 2, sequence: &audioSequence, granule: 0, first: true)
        file += OggBuilder.pages(packet: [], serial: 1, sequence: &sequence, granule: 0, last: true)
        file += OggBuilder.pages(packet: OggBuilder.opusTags(["TITLE=Skel"]), serial: 2, sequence: &audioSequence, granule: 0)
        file += OggBuilder.pages(packet: [UInt8](repeating: 1, count: 100), serial: 2, sequence: &audioSequence, granule: 48_000 + 312, last: true)
        let info = try OggFile.read(DataByteSource(file))
        #expect(info.stream.codec == "opus" && info.tags.title == "Skel")
        #expect(abs((info.stream.duration ?? 0) - 1.0) < 0.001)
    }

    @Test func readsOnlyHeadAndTail() throws {
        let file = OggBuilder.file(identification: OggBuilder.vorbisIdentification(), comments: OggBuilder.vorbisComments(["TITLE=Long"]),
                                   finalGranule: 44_100 * 600, audioPages: 400, audioPageSize: 4_000)
        let source = ReadCountingByteSource(file)
        let info = try OggFile.read(source)
        #expect(info.tags.title == "Long")
        #expect(abs((info.stream.duration ?? 0) - 600) < 0.001)
        #expect(source.bytesRead < 80_000)
    }

    @Test func headerOnlyFileHasNoDuration() throws {
        var sequence: UInt32 = 0
        let file = OggBuilder.pages(packet: OggBuilder.opusHead(), serial: 1, sequence: &sequence, granule: 0, first: true)
            + OggBuilder.pages(packet: OggBuilder.opusTags(["TITLE=x"]), serial: 1, sequence: &sequence, granule: 0)
        let info = try OggFile.read(DataByteSource(file))
        #expect(info.tags.title == "x")
        #expect(info.stream.duration == nil)
    }

    @Test func rejectsOtherCodecsAndFiles() {
        var sequence: UInt32 = 0
        let flac = OggBuilder.pages(packet: [0x7F] + Array("FLAC".utf8) + [1, 0, 0, 1] + Array("fLaX".utf8), serial: 1, sequence: &sequence, granule: 0, first: true)
        #expect(throws: MediaTagsError.self) { try OggFile.read(DataByteSource(flac)) }
        let theora = OggBuilder.pages(packet: [0x80] + Array("theora".utf8), serial: 1, sequence: &sequence, granule: 0, first: true)
        #expect(throws: MediaTagsError.self) { try OggFile.read(DataByteSource(theora)) }
        #expect(throws: MediaTagsError.self) { try OggFile.read(DataByteSource(Array("fLaC....".utf8))) }
        #expect(throws: MediaTagsError.self) { try OggFile.read(DataByteSource(Array("OggS".utf8))) }
    }

    @Test func cutBeforeTheCommentHeaderKeepsStreamInfo() throws {
        let file = Self.vorbisFile()
        var sequence: UInt32 = 0
        let firstPage = OggBuilder.pages(packet: OggBuilder.vorbisIdentification(), serial: 0x1234_5678, sequence: &sequence, granule: 0, first: true)
        let info = try OggFile.read(DataByteSource(Array(file.prefix(firstPage.count + 10))))
        #expect(info.stream.codec == "vorbis" && info.tags == TagSet())
    }

    static func flacFile() -> [UInt8] {
        let identification = [0x7F] + Array("FLAC".utf8) + [1, 0] + PackedBytes.be(UInt16(1)) + Array("fLaC".utf8)
            + [0, 0, 0, 34] + FLACBuilder.streamInfo(samples: 44_100)
        let block = VorbisCommentBuilder.block(comments)
        return OggBuilder.file(identification: identification, comments: [0x84] + PackedBytes.u24BE(block.count) + block,
                               finalGranule: 44_100)
    }

    @Test(arguments: ["vorbis", "opus", "flac"]) func truncatedAndMutatedFilesNeverCrash(codec: String) throws {
        let fixture = codec == "vorbis" ? Self.vorbisFile() : codec == "opus" ? Self.opusFile() : Self.flacFile()
        #expect(try OggFile.read(DataByteSource(fixture)).tags.title == "Ogg Title")
        let failures = containerRobustnessFailures(fixture, seed: ["vorbis": 0xA11, "opus": 0x0B05, "flac": 0xF1A][codec] ?? 1) { try OggFile.read(DataByteSource($0)) }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test(arguments: [("sine.ogg", "vorbis", ["-c:a", "libvorbis"]), ("sine.opus", "opus", ["-c:a", "libopus"]),
                      ("sine.oga", "flac", ["-c:a", "flac"])])
    func realFileFromFFmpeg(name: String, codec: String, arguments: [String]) throws {
        let url = try ffmpegContainerFixture(name, codecArguments: arguments)
        let info = try OggFile.read(try FileByteSource(path: url.path))
        #expect(info.stream.codec == codec)
        expectContainerFFmpegTags(info.tags)
        #expect(abs((info.stream.duration ?? 0) - 3.0) < 0.06, "duration \(String(describing: info.stream.duration))")
        #expect((info.stream.bitrate ?? 0) > 0)
    }
}
