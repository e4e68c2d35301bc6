import Foundation
import Testing
@testable import MediaTags

@Suite struct MP4Tests {
    static let items: [[UInt8]] = [
        MP4Builder.text("\u{A9}nam", "M4A Title"),
        MP4Builder.text("\u{A9}ART", "Artist One", "Artist Two"),
        MP4Builder.text("aART", "Album Artist"),
        MP4Builder.text("\u{A9}alb", "Album"),
        MP4Builder.text("\u{A9}wrt", "Writer"),
        MP4Builder.text("\u{A9}day", "2010-03-04T00:00:00Z"),
        MP4Builder.text("\u{A9}gen", "Electro"),
        MP4Builder.atom("gnre", MP4Builder.data(0, [0, 18])),
        MP4Builder.pair("trkn", 5, 14),
        MP4Builder.pair("disk", 1, 2),
        MP4Builder.atom("tmpo", MP4Builder.data(21, PackedBytes.be(UInt16(174)))),
        MP4Builder.atom("cpil", MP4Builder.data(21, [1])),
        MP4Builder.atom("covr", MP4Builder.data(13, PackedBytes.jpeg(100)) + MP4Builder.data(14, PackedBytes.png(50))),
        MP4Builder.text("\u{A9}cmt", "Nice"),
        MP4Builder.freeform(name: "MusicBrainz Track Id", "mb-1"),
        MP4Builder.freeform(name: "replaygain_track_gain", "-3 dB"),
        MP4Builder.text("\u{A9}too", "Lavf"),
    ]

    static func aacMoov(duration: UInt64 = 44_100 * 4, version: UInt8 = 0, bitrate: UInt32 = 128_000, items: [[UInt8]] = items) -> [UInt8] {
        MP4Builder.timeHeader("mvhd", timescale: 1_000, duration: duration * 1_000 / 44_100, version: version)
            + MP4Builder.trak(duration: duration, entry: MP4Builder.audioEntry("mp4a", children: MP4Builder.esds(averageBitrate: bitrate)), version: version)
            + MP4Builder.udta(items: items)
    }

    @Test func readsAACStreamAndDuration() throws {
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: Self.aacMoov())))
        #expect(info.format == .mp4)
        #expect(info.stream.codec == "aac")
        #expect(info.stream.channels == 2 && info.stream.sampleRate == 44_100)
        #expect(info.stream.bitrate == 128_000)
        #expect(abs(try #require(info.stream.duration) - 4.0) < 0.001)
    }

    @Test func readsEveryItem() throws {
        let tags = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: Self.aacMoov()))).tags
        #expect(tags.title == "M4A Title")
        #expect(tags.artists == ["Artist One", "Artist Two"])
        #expect(tags.albumArtists == ["Album Artist"])
        #expect(tags.album == "Album")
        #expect(tags.composers == ["Writer"])
        #expect(tags.date == "2010-03-04T00:00:00Z" && tags.year == 2010)
        #expect(tags.genres == ["Electro", "Rock"])
        #expect(tags.trackNumber == 5 && tags.trackTotal == 14)
        #expect(tags.discNumber == 1 && tags.discTotal == 2)
        #expect(tags.bpm == 174)
        #expect(tags.compilation)
        #expect(tags.comment == "Nice")
        #expect(tags.pictures.map(\.mimeType) == ["image/jpeg", "image/png"])
        #expect(tags.pictures.first?.data == Data(PackedBytes.jpeg(100)))
        #expect(tags.custom["MUSICBRAINZ TRACK ID"] == ["mb-1"])
        #expect(tags.custom["REPLAYGAIN_TRACK_GAIN"] == ["-3 dB"])
        #expect(tags.custom.count == 2)
    }

    @Test func moovAfterLargeMdatIsFoundWithoutReadingIt() throws {
        let file = MP4Builder.file(moovChildren: Self.aacMoov(), mdatSize: 3_000_000, moovFirst: false)
        let source = ReadCountingByteSource(file)
        let info = try MP4File.read(source)
        #expect(info.tags.title == "M4A Title")
        #expect(source.bytesRead < 10_000)
    }

    @Test func largeSizeAtomsAndVersion1Headers() throws {
        let duration: UInt64 = 44_100 * 7 + 441
        let file = MP4Builder.file(moovChildren: Self.aacMoov(duration: duration, version: 1), moovFirst: false, mdat64: true)
        let info = try MP4File.read(DataByteSource(file))
        #expect(abs(try #require(info.stream.duration) - 7.01) < 0.001)
        #expect(info.tags.title == "M4A Title")
    }

    @Test func sizeZeroRunsToTheEndOfTheFile() throws {
        var file = MP4Builder.ftyp() + MP4Builder.atom("moov", Self.aacMoov())
        let moovStart = MP4Builder.ftyp().count
        file.replaceSubrange(moovStart..<(moovStart + 4), with: [0, 0, 0, 0])
        #expect(try MP4File.read(DataByteSource(file)).tags.title == "M4A Title")
    }

    @Test(arguments: [([UInt8]([0x12, 0x08]), 1), ([0x12, 0x10], 2), ([0x11, 0xB0], 6), ([0x11, 0xB8], 8), ([0xF8, 0x00], 2)])
    func channelsFromAudioSpecificConfig(config: [UInt8], channels: Int) throws {
        let entry = MP4Builder.audioEntry("mp4a", channels: 2, children: MP4Builder.esds(averageBitrate: 96_000, audioSpecificConfig: config))
        let moov = MP4Builder.timeHeader("mvhd", timescale: 1_000, duration: 1_000) + MP4Builder.trak(duration: 44_100, entry: entry)
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: moov)))
        #expect(info.stream.channels == channels && info.stream.bitrate == 96_000)
    }

    @Test(arguments: [UInt16(1), 2]) func quickTimeSoundDescriptionVersions(version: UInt16) throws {
        let entry = MP4Builder.audioEntry("mp4a", channels: 6, rate: 48_000, soundVersion: version,
                                          children: MP4Builder.esds(averageBitrate: 320_000))
        let moov = MP4Builder.timeHeader("mvhd", timescale: 1_000, duration: 1_000) + MP4Builder.trak(timescale: 48_000, duration: 48_000, entry: entry)
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: moov)))
        #expect(info.stream.sampleRate == 48_000 && info.stream.channels == 6 && info.stream.bitrate == 320_000)
    }

    @Test func alacSampleEntry() throws {
        let entry = MP4Builder.audioEntry("alac", bits: 24, rate: 96_000, children: MP4Builder.alacConfig())
        let moov = MP4Builder.timeHeader("mvhd", timescale: 600, duration: 1_800)
            + MP4Builder.trak(timescale: 96_000, duration: 96_000 * 3, entry: entry)
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: moov)))
        #expect(info.stream.codec == "alac")
        #expect(info.stream.sampleRate == 96_000 && info.stream.bitsPerSample == 24 && info.stream.channels == 2)
        #expect(info.stream.bitrate == 900_000)
        #expect(abs((info.stream.duration ?? 0) - 3.0) < 0.001)
    }

    @Test func bitrateFromSizeWithoutEsdsAndMovieDurationFallback() throws {
        let moov = MP4Builder.timeHeader("mvhd", timescale: 1_000, duration: 2_000)
            + MP4Builder.atom("trak", MP4Builder.atom("mdia", MP4Builder.atom("minf", MP4Builder.atom("stbl",
                MP4Builder.full("stsd", PackedBytes.be(UInt32(1)) + MP4Builder.audioEntry("mp4a", children: []))))))
        let file = MP4Builder.file(moovChildren: moov)
        let info = try MP4File.read(DataByteSource(file))
        #expect(abs((info.stream.duration ?? 0) - 2.0) < 0.001)
        #expect(info.stream.bitrate == Int((Double(file.count) * 8 / 2).rounded()))
    }

    @Test func quickTimeMetaWithoutVersionAndFlags() throws {
        let hdlr = MP4Builder.full("hdlr", PackedBytes.be(UInt32(0)) + MP4Builder.code("mdir") + [UInt8](repeating: 0, count: 13))
        let meta = MP4Builder.atom("meta", hdlr + MP4Builder.atom("ilst", MP4Builder.text("\u{A9}nam", "QT")))
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: Self.aacMoov(items: []) + meta)))
        #expect(info.tags.title == "QT")
    }

    @Test func rejectsBadFiles() {
        #expect(throws: MediaTagsError.self) { try MP4File.read(DataByteSource(Array("RIFF\0\0\0\0WAVE".utf8))) }
        #expect(throws: MediaTagsError.self) { try MP4File.read(DataByteSource([0, 0, 0])) }
        // ftyp only: no moov.
        #expect(throws: MediaTagsError.malformed("no moov atom")) { try MP4File.read(DataByteSource(MP4Builder.ftyp())) }
        // A child atom of size 4 is an error, not an endless loop.
        let bad = MP4Builder.ftyp() + MP4Builder.atom("moov", PackedBytes.be(UInt32(4)) + MP4Builder.code("trak") + [0, 0, 0, 0])
        #expect(throws: MediaTagsError.self) { try MP4File.read(DataByteSource(bad)) }
        // A top-level size of 7.
        #expect(throws: MediaTagsError.self) { try MP4File.read(DataByteSource(MP4Builder.ftyp() + PackedBytes.be(UInt32(7)) + MP4Builder.code("free"))) }
    }

    @Test func otherFilesAreUnrecognizedEvenWithTinySizes() {
        #expect(throws: MediaTagsError.unrecognized("first atom is not an MP4 atom such as ftyp or moov")) {
            try MP4File.read(DataByteSource([0, 0, 0, 3] + Array("abcdefgh".utf8)))
        }
    }

    @Test func zeroTrackDurationFallsBackToTheMovieHeader() throws {
        let moov = MP4Builder.timeHeader("mvhd", timescale: 1_000, duration: 2_500)
            + MP4Builder.trak(duration: 0, entry: MP4Builder.audioEntry("mp4a", children: MP4Builder.esds(averageBitrate: 64_000)))
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: moov)))
        #expect(abs((info.stream.duration ?? 0) - 2.5) < 0.001)
    }

    @Test func damagedLeafAtomsCostOnlyTheirOwnValues() throws {
        // A too-short mvhd, an ilst item whose data atom claims size 3, then a good item.
        let badItem = MP4Builder.atom("\u{A9}alb", PackedBytes.be(UInt32(3)) + MP4Builder.code("data") + [1, 2, 3, 4])
        let moov = MP4Builder.full("mvhd", [1, 2]) + MP4Builder.udta(items: [badItem, MP4Builder.text("\u{A9}nam", "Survivor")])
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: moov)))
        #expect(info.tags.title == "Survivor" && info.tags.album == nil)
        #expect(info.stream.duration == nil && info.stream.codec == "unknown")
    }

    @Test func trailingNULsAndEmptyValuesAreDropped() throws {
        let items = [MP4Builder.atom("\u{A9}nam", MP4Builder.data(1, Array("Padded".utf8) + [0, 0])),
                     MP4Builder.text("\u{A9}ART", "", "Real"),
                     MP4Builder.atom("\u{A9}alb", MP4Builder.data(2, [0, 0x55, 0, 0x31, 0, 0x36]))]
        let tags = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: Self.aacMoov(items: items)))).tags
        #expect(tags.title == "Padded" && tags.artists == ["Real"] && tags.album == "U16")
    }

    @Test func deepNestingIsNotFollowed() throws {
        var nested = MP4Builder.udta(items: [MP4Builder.text("\u{A9}nam", "Deep")])
        for _ in 0..<40 { nested = MP4Builder.atom("trak", nested) }
        let info = try MP4File.read(DataByteSource(MP4Builder.file(moovChildren: nested)))
        #expect(info.tags.title == nil)
    }

    @Test func truncatedMoovKeepsEarlierItems() throws {
        let file = MP4Builder.file(moovChildren: Self.aacMoov(), mdatSize: 100, moovFirst: false)
        let info = try MP4File.read(DataByteSource(Array(file.dropLast(40))))
        #expect(info.tags.title == "M4A Title")
    }

    @Test(arguments: [false, true]) func truncatedAndMutatedFilesNeverCrash(moovFirst: Bool) {
        let fixture = MP4Builder.file(moovChildren: Self.aacMoov(items: Array(Self.items.prefix(16))), mdatSize: 64, moovFirst: moovFirst)
        let failures = containerRobustnessFailures(fixture, seed: moovFirst ? 0x3D4 : 0x3D5) { try MP4File.read(DataByteSource($0)) }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// ffmpeg writes `moov` after `mdat` unless told to move it to the front (+faststart).
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func realFileFromFFmpeg(faststart: Bool, cover: Bool) throws {
        let arguments = ["-c:a", "aac"] + (faststart ? ["-movflags", "+faststart"] : [])
        let url = try ffmpegContainerFixture("sine.m4a", codecArguments: arguments, cover: cover)
        let info = try MP4File.read(try FileByteSource(path: url.path))
        #expect(info.stream.codec == "aac")
        expectContainerFFmpegTags(info.tags)
        #expect(abs((info.stream.duration ?? 0) - 3.0) < 0.06, "duration \(String(describing: info.stream.duration))")
        #expect(info.stream.sampleRate == 44_100 && info.stream.channels == 1)
        #expect((info.stream.bitrate ?? 0) > 0)
        #expect(info.tags.pictures.map(\.mimeType) == (cover ? ["image/png"] : []))
    }
}
