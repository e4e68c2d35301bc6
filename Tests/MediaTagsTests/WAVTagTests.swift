import Foundation
import Testing
@testable import MediaTags

@Suite("WAV files")
struct WAVTagTests {
    static func read(_ bytes: [UInt8]) throws -> MediaInfo { try WAVFile.read(DataByteSource(bytes)) }

    @Test func pcmFormatDurationAndBitrate() throws {
        let info = try Self.read(WAVBuild.file([WAVBuild.format(), WAVBuild.data(44100 * 4 * 2)]))
        #expect(info.format == .wav)
        #expect(info.stream == StreamInfo(codec: "pcm", duration: 2.0, bitrate: 1_411_200, sampleRate: 44100, channels: 2, bitsPerSample: 16))
    }

    @Test func floatAndExtensibleFormats() throws {
        let float = try Self.read(WAVBuild.file([WAVBuild.format(tag: 3, channels: 1, rate: 48000, bits: 32), WAVBuild.data(48000 * 4)]))
        #expect(float.stream.codec == "float" && float.stream.duration == 1.0 && float.stream.bitsPerSample == 32)
        let extensible = try Self.read(WAVBuild.file([WAVBuild.format(tag: 0xFFFE, channels: 6, rate: 48000, bits: 24, subFormat: 1),
                                                      WAVBuild.data(48000 * 18 / 2)]))
        #expect(extensible.stream.codec == "pcm" && extensible.stream.channels == 6 && extensible.stream.duration == 0.5)
        let extFloat = try Self.read(WAVBuild.file([WAVBuild.format(tag: 0xFFFE, bits: 32, subFormat: 3), WAVBuild.data(8)]))
        #expect(extFloat.stream.codec == "float")
    }

    @Test func infoListTags() throws {
        let info = WAVBuild.info([("INAM", "Title é"), ("IART", "Artist"), ("IPRD", "Album"), ("ICRD", "2003-04-05"),
                                  ("IGNR", "Ambient"), ("ICMT", "Odd"), ("IPRT", "5/10"), ("ICMP", "Composer"), ("ISFT", "Lavf")])
        let tags = try Self.read(WAVBuild.file([WAVBuild.format(), info, WAVBuild.data(4)])).tags
        #expect(tags.title == "Title é")
        #expect(tags.artists == ["Artist"])
        #expect(tags.album == "Album")
        #expect(tags.date == "2003-04-05" && tags.year == 2003)
        #expect(tags.genres == ["Ambient"])
        #expect(tags.comment == "Odd")
        #expect(tags.trackNumber == 5 && tags.trackTotal == 10)
        #expect(tags.composers == ["Composer"])
        #expect(tags.custom["ISFT"] == ["Lavf"])
    }

    @Test func itrkWinsOverIprtAndLatin1IsDecoded() throws {
        let list = WAVBuild.chunk("LIST", Array("INFO".utf8) + WAVBuild.chunk("ITRK", Array("7".utf8))
            + WAVBuild.chunk("IPRT", Array("9".utf8)) + WAVBuild.chunk("INAM", [0x43, 0x61, 0x66, 0xE9, 0]))
        let tags = try Self.read(WAVBuild.file([WAVBuild.format(), list, WAVBuild.data(4)])).tags
        #expect(tags.trackNumber == 7)
        #expect(tags.title == "Café")
    }

    @Test(arguments: ["id3 ", "ID3 "])
    func id3ChunkWinsOverInfo(chunkID: String) throws {
        let id3 = ID3Build.tag(major: 4, [ID3Build.text("TIT2", ["ID3 Title"]), ID3Build.text("TBPM", ["120"])])
        let bytes = WAVBuild.file([WAVBuild.format(), WAVBuild.data(400), WAVBuild.info([("INAM", "Info Title"), ("IART", "Info Artist")]),
                                   WAVBuild.chunk(chunkID, id3)])
        let tags = try Self.read(bytes).tags
        #expect(tags.title == "ID3 Title")
        #expect(tags.artists == ["Info Artist"])
        #expect(tags.bpm == 120)
    }

    @Test func oddChunksArePaddedToEvenSizes() throws {
        let bytes = WAVBuild.file([WAVBuild.chunk("junk", [1, 2, 3]), WAVBuild.format(), WAVBuild.info([("INAM", "ab")]),
                                   WAVBuild.chunk("data", [UInt8](repeating: 0, count: 41)), WAVBuild.info([("IART", "After")])])
        let info = try Self.read(bytes)
        #expect(info.tags.title == "ab" && info.tags.artists == ["After"])
        #expect(abs(info.stream.duration! - 41.0 / 176_400) < 1e-9)
    }

    @Test func oversizedDataChunksAreClampedToTheFile() throws {
        for size in [0xFFFF_FFFF, 1_000_000] {
            let bytes = WAVBuild.file([WAVBuild.format(), Array("data".utf8) + ID3Build.le32(size) + [UInt8](repeating: 0, count: 17_640)])
            let info = try Self.read(bytes)
            #expect(abs(info.stream.duration! - 0.1) < 1e-9)
        }
    }

    @Test func notWaveAndMissingFormatAreErrors() {
        #expect(throws: MediaTagsError.unrecognized("no RIFF/WAVE header")) { try Self.read(Array("RIFF\0\0\0\0AVI ".utf8)) }
        #expect(throws: MediaTagsError.unrecognized("no RIFF/WAVE header")) { try Self.read([]) }
        #expect(throws: MediaTagsError.malformed("WAVE file without a fmt chunk")) { try Self.read(WAVBuild.file([WAVBuild.data(10)])) }
        #expect(throws: MediaTagsError.self) { try Self.read(WAVBuild.file([WAVBuild.chunk("fmt ", [1, 0, 2])])) }
    }

    static func sample() -> [UInt8] {
        WAVBuild.file([WAVBuild.format(), WAVBuild.info([("INAM", "T"), ("IART", "Artist")]), WAVBuild.data(101),
                       WAVBuild.chunk("id3 ", ID3Build.tag(major: 3, [ID3Build.text("TIT2", ["X"], 1, major: 3)], unsynchronise: true))])
    }

    @Test func everyTruncationGivesTagsOrATypedError() throws {
        let full = Self.sample()
        #expect(try Self.read(full).tags.title == "X")
        for length in 0...full.count {
            do { _ = try Self.read(Array(full.prefix(length))) } catch { #expect(error is MediaTagsError) }
        }
    }

    @Test func randomMutationsNeverCrashOrHang() {
        for bytes in ID3Fuzz.mutants(of: Self.sample(), rngSeed: 7) {
            do { _ = try Self.read(bytes) } catch { #expect(error is MediaTagsError) }
        }
    }

    @Test
    func realFileMadeByFFmpeg() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mt-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("sine.wav").path
        try ID3FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-ac", "2", "-c:a", "pcm_s16le",
                        "-metadata", "title=Wave Title", "-metadata", "artist=Wave Artist", out])
        let info = try WAVFile.read(FileByteSource(path: out))
        #expect(info.tags.title == "Wave Title")
        #expect(info.tags.artists == ["Wave Artist"])
        #expect(abs(info.stream.duration! - 2.0) < 0.001)
        #expect(info.stream.channels == 2 && info.stream.sampleRate == 44100 && info.stream.codec == "pcm")
    }
}
