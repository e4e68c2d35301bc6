import Foundation
import Testing
@testable import MediaTags

@Suite struct FLACTests {
    static let comments = [
        "TITLE=Song Title", "artist=First Artist", "Artist=Second Artist", "ALBUM=The Album",
        "ALBUMARTIST=Album Artist", "COMPOSER=Composer One", "GENRE=Rock", "TRACKNUMBER=3/12",
        "DISCNUMBER=2", "DISCTOTAL=3", "DATE=1997-05-12", "BPM=128", "COMPILATION=1",
        "COMMENT=A comment", "MUSICBRAINZ_TRACKID=abc-123", "replaygain_track_gain=-6.5 dB", "EMPTY=",
        "NOEQUALSIGN", "TITLE=Second title ignored",
    ]

    @Test func readsStreamInfoAndDuration() throws {
        let file = FLACBuilder.tagged(samples: 132_300, comments: Self.comments, audio: 5_000)
        let info = try FLACFile.read(DataByteSource(file))
        #expect(info.format == .flac)
        #expect(info.stream.codec == "flac")
        #expect(info.stream.sampleRate == 44_100)
        #expect(info.stream.channels == 2)
        #expect(info.stream.bitsPerSample == 16)
        let duration = try #require(info.stream.duration)
        #expect(abs(duration - 3.0) < 0.001)
        // 5,000 audio bytes over 3 s.
        #expect(info.stream.bitrate == Int((5_000.0 * 8 / 3).rounded()))
    }

    @Test func readsVorbisComments() throws {
        let tags = try FLACFile.read(DataByteSource(FLACBuilder.tagged(comments: Self.comments))).tags
        #expect(tags.title == "Song Title")
        #expect(tags.artists == ["First Artist", "Second Artist"])
        #expect(tags.album == "The Album")
        #expect(tags.albumArtists == ["Album Artist"])
        #expect(tags.composers == ["Composer One"])
        #expect(tags.genres == ["Rock"])
        #expect(tags.trackNumber == 3 && tags.trackTotal == 12)
        #expect(tags.discNumber == 2 && tags.discTotal == 3)
        #expect(tags.date == "1997-05-12" && tags.year == 1997)
        #expect(tags.bpm == 128)
        #expect(tags.compilation)
        #expect(tags.comment == "A comment")
        #expect(tags.custom["MUSICBRAINZ_TRACKID"] == ["abc-123"])
        #expect(tags.custom["REPLAYGAIN_TRACK_GAIN"] == ["-6.5 dB"])
        #expect(tags.custom["EMPTY"] == nil)
    }

    @Test func alternativeCommentNames() throws {
        let tags = try VorbisComment.parse(VorbisCommentBuilder.block([
            "ALBUM ARTIST=AA", "TRACKNUMBER=7", "TOTALTRACKS=9", "DISCNUMBER=1/2", "TOTALDISCS=4", "YEAR=2001",
            "DESCRIPTION=desc", "COMPILATION=0", "TITLE=Grüße ✓",
        ]))
        #expect(tags.albumArtists == ["AA"])
        #expect(tags.trackNumber == 7 && tags.trackTotal == 9)
        #expect(tags.discNumber == 1 && tags.discTotal == 4)
        #expect(tags.date == "2001" && tags.year == 2001)
        #expect(tags.comment == "desc")
        #expect(!tags.compilation)
        #expect(tags.title == "Grüße ✓")
    }

    @Test func readsPictureBlocksAndBase64Pictures() throws {
        let front = PackedBytes.jpeg(300), back = PackedBytes.png(120), legacy = PackedBytes.jpeg(40)
        let embedded = FLACBuilder.picture(type: 4, mime: "image/png", description: "back", data: back)
        let comments = ["TITLE=T", "METADATA_BLOCK_PICTURE=" + Data(embedded).base64EncodedString(),
                        "COVERART=" + Data(legacy).base64EncodedString(), "COVERARTMIME=image/jpeg"]
        let file = FLACBuilder.tagged(comments: comments, pictures: [FLACBuilder.picture(description: "front", data: front),
                                                                    FLACBuilder.picture(mime: "", data: PackedBytes.png(10))])
        let tags = try FLACFile.read(DataByteSource(file)).tags
        #expect(tags.pictures.count == 4)
        #expect(tags.pictures[0] == TagSet.Picture(type: 4, mimeType: "image/png", description: "back", data: Data(back)))
        #expect(tags.pictures[1] == TagSet.Picture(type: 3, mimeType: "image/jpeg", description: "", data: Data(legacy)))
        #expect(tags.pictures[2] == TagSet.Picture(type: 3, mimeType: "image/jpeg", description: "front", data: Data(front)))
        #expect(tags.pictures[3].mimeType == "image/png")
        #expect(tags.cover?.description == "front" || tags.cover?.type == 3)
        #expect(tags.custom["COVERARTMIME"] == nil && tags.custom["COVERART"] == nil)
    }

    @Test(arguments: [false, true]) func skipsLeadingID3v2(footer: Bool) throws {
        let file = FLACBuilder.id3v2(bodySize: 300, footer: footer) + FLACBuilder.tagged(comments: ["TITLE=After ID3"])
        let info = try FLACFile.read(DataByteSource(file))
        #expect(info.tags.title == "After ID3")
        #expect(info.stream.sampleRate == 44_100)
    }

    @Test func readsOnlyTheMetadata() throws {
        let file = FLACBuilder.tagged(comments: ["TITLE=Big"], audio: 2_000_000)
        let source = ReadCountingByteSource(file)
        let info = try FLACFile.read(source)
        #expect(info.tags.title == "Big")
        #expect(source.bytesRead < 2_000)
    }

    @Test func unknownSampleCountGivesNoDuration() throws {
        let file = FLACBuilder.file(blocks: [(0, FLACBuilder.streamInfo(samples: 0))])
        let info = try FLACFile.read(DataByteSource(file))
        #expect(info.stream.duration == nil && info.stream.bitrate == nil)
    }

    @Test func highResolutionStreamInfo() throws {
        let file = FLACBuilder.file(blocks: [(0, FLACBuilder.streamInfo(sampleRate: 192_000, channels: 6, bits: 24, samples: 192_000 * 61 + 96))])
        let info = try FLACFile.read(DataByteSource(file))
        #expect(info.stream.sampleRate == 192_000 && info.stream.channels == 6 && info.stream.bitsPerSample == 24)
        #expect(abs(try #require(info.stream.duration) - 61.0005) < 0.001)
    }

    @Test func rejectsOtherFiles() {
        #expect(throws: MediaTagsError.self) { try FLACFile.read(DataByteSource(Array("OggS and more".utf8))) }
        #expect(throws: MediaTagsError.self) { try FLACFile.read(DataByteSource([])) }
        // "fLaC" with no STREAMINFO.
        #expect(throws: MediaTagsError.self) { try FLACFile.read(DataByteSource(FLACBuilder.file(blocks: [(4, VorbisCommentBuilder.block([]))]))) }
        // STREAMINFO too short.
        #expect(throws: MediaTagsError.self) { try FLACFile.read(DataByteSource(FLACBuilder.file(blocks: [(0, [1, 2, 3])]))) }
    }

    @Test func invalidUTF8IsRepairedNotDropped() throws {
        var block = VorbisCommentBuilder.block(["TITLE=ab"])
        block[block.count - 1] = 0xFF
        #expect(try VorbisComment.parse(block).title == "a\u{FFFD}")
    }

    @Test func hugeCommentCountIsCapped() throws {
        var block = VorbisCommentBuilder.block(["TITLE=Ok"])
        block.replaceSubrange(17..<21, with: [0xFF, 0xFF, 0xFF, 0xFF])  // count after the 13-byte vendor
        let tags = try VorbisComment.parse(block)
        #expect(tags.title == "Ok")
    }

    @Test func truncatedAndMutatedFilesNeverCrash() {
        let file = FLACBuilder.tagged(comments: Self.comments, pictures: [FLACBuilder.picture(data: PackedBytes.jpeg(100))], audio: 200)
        let failures = containerRobustnessFailures(file, seed: 0xF1AC) { try FLACFile.read(DataByteSource($0)) }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func truncationInsideTheAudioKeepsTags() throws {
        let file = FLACBuilder.tagged(comments: ["TITLE=Cut"], audio: 1_000)
        let info = try FLACFile.read(DataByteSource(Array(file.dropLast(500))))
        #expect(info.tags.title == "Cut")
    }

    @Test func cutInsideThePictureBlockKeepsTagsButHasNoStream() throws {
        let picture = FLACBuilder.picture(description: "front", data: PackedBytes.jpeg(4_000))
        let file = FLACBuilder.tagged(comments: ["TITLE=Cut in the picture"], pictures: [picture], audio: 1_000)
        // The picture is the last metadata block: cut halfway through it (no audio frame left).
        let cut = Array(file.prefix(file.count - 1_000 - picture.count / 2))
        let info = try FLACFile.read(DataByteSource(cut))
        #expect(info.tags.title == "Cut in the picture")
        #expect(info.tags.pictures.isEmpty)
        #expect(info.stream == StreamInfo(codec: "flac"))
        // The whole file, and one cut inside its audio, keep their stream facts.
        #expect(try FLACFile.read(DataByteSource(file)).stream.sampleRate == 44_100)
        #expect(try FLACFile.read(DataByteSource(Array(file.dropLast(500)))).stream.duration != nil)
    }

    @Test func nothingAfterTheMetadataIsNoStream() throws {
        let file = FLACBuilder.tagged(comments: ["TITLE=Only metadata"], audio: 0)
        let info = try FLACFile.read(DataByteSource(file))
        #expect(info.tags.title == "Only metadata")
        #expect(info.stream.sampleRate == nil && info.stream.duration == nil && info.stream.bitrate == nil)
    }

    @Test(arguments: [false, true]) func realFileFromFFmpeg(cover: Bool) throws {
        let url = try ffmpegContainerFixture("sine.flac", cover: cover)
        let info = try FLACFile.read(try FileByteSource(path: url.path))
        expectContainerFFmpegTags(info.tags)
        #expect(abs((info.stream.duration ?? 0) - 3.0) < 0.06)
        #expect(info.stream.sampleRate == 44_100 && info.stream.channels == 1)
        #expect((info.stream.bitrate ?? 0) > 0)
        #expect(info.tags.pictures.count == (cover ? 1 : 0))
        // ffmpeg stores the picture as type 0 ("other") unless told it is the front cover.
        if cover { #expect(info.tags.cover?.mimeType == "image/png" && info.tags.cover?.data.starts(with: [0x89, 0x50]) == true) }
    }
}
