import AudioCore
import Foundation
import Testing
@testable import MediaTags

@Suite("MPEG audio frames")
struct MPEGFrameTests {
    @Test func headerFieldsAcrossVersionsAndLayers() throws {
        let v1l3 = try #require(MPEGAudioHeader(0xFF, 0xFB, 0x90, 0x00))
        #expect(v1l3.version == .mpeg1 && v1l3.layer == 3 && v1l3.bitrate == 128_000 && v1l3.sampleRate == 44100)
        #expect(v1l3.frameLength == 417 && v1l3.samplesPerFrame == 1152 && v1l3.channels == 2 && v1l3.xingOffset == 36)
        let padded = try #require(MPEGAudioHeader(0xFF, 0xFB, 0x92, 0xC0))
        #expect(padded.frameLength == 418 && padded.channels == 1 && padded.xingOffset == 21)
        let v2 = try #require(MPEGAudioHeader(MPEGBuild.header(versionBits: 2, bitrateIndex: 8, rateIndex: 1), at: 0))
        #expect(v2.version == .mpeg2 && v2.sampleRate == 24000 && v2.bitrate == 64_000 && v2.samplesPerFrame == 576)
        #expect(v2.frameLength == 72 * 64_000 / 24000 && v2.xingOffset == 21)
        let v25 = try #require(MPEGAudioHeader(MPEGBuild.header(versionBits: 0, bitrateIndex: 4, rateIndex: 2, mono: true), at: 0))
        #expect(v25.version == .mpeg25 && v25.sampleRate == 8000 && v25.bitrate == 32_000 && v25.xingOffset == 13)
        let l2 = try #require(MPEGAudioHeader(MPEGBuild.header(layer: 2, bitrateIndex: 10, rateIndex: 1), at: 0))
        #expect(l2.bitrate == 192_000 && l2.frameLength == 576 && l2.samplesPerFrame == 1152)
        let l1 = try #require(MPEGAudioHeader(MPEGBuild.header(layer: 1, bitrateIndex: 12), at: 0))
        #expect(l1.bitrate == 384_000 && l1.frameLength == 416 && l1.samplesPerFrame == 384)
        let l2v2 = try #require(MPEGAudioHeader(MPEGBuild.header(versionBits: 2, layer: 2, bitrateIndex: 14), at: 0))
        #expect(l2v2.bitrate == 160_000 && l2v2.frameLength == 144 * 160_000 / 22050)
    }

    @Test func invalidHeadersAreRejected() {
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0x00, 0) == nil, "free format")
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0xF0, 0) == nil, "bitrate index 15")
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0x9C, 0) == nil, "sample rate index 3")
        #expect(MPEGAudioHeader(0xFF, 0xEB, 0x90, 0) == nil, "reserved version")
        #expect(MPEGAudioHeader(0xFF, 0xF9, 0x90, 0) == nil, "reserved layer")
        #expect(MPEGAudioHeader(0xFE, 0xFB, 0x90, 0) == nil, "no sync")
        #expect(MPEGAudioHeader([0xFF, 0xFB, 0x90], at: 0) == nil)
        #expect(MPEGAudioHeader(0xFF, 0xFB, 0x90, 0x02) == nil, "reserved emphasis")
    }

    @Test func layerChoiceAndStreamKey() throws {
        let l2 = MPEGBuild.header(layer: 2, bitrateIndex: 10, rateIndex: 1)
        #expect(MPEGAudioHeader(l2, at: 0)?.layer == 2)
        #expect(MPEGAudioHeader(l2, at: 0, accepting: .layerIII) == nil, "radio streams are Layer III only")
        let a = try #require(MPEGAudioHeader(0xFF, 0xFB, 0x90, 0x44))
        let b = try #require(MPEGAudioHeader(0xFF, 0xFA, 0xB2, 0xC0))   // CRC, other bitrate, padding, mono
        let c = try #require(MPEGAudioHeader(0xFF, 0xFB, 0x94, 0x44))   // 48 kHz
        #expect(a.isCompatible(with: b) && a.streamKey == b.streamKey)
        #expect(!a.isCompatible(with: c))
        #expect(b.hasCRC && b.xingOffset == 4 + 2 + 17)
    }
}

@Suite("MP3 files")
struct MP3FileTests {
    static func read(_ bytes: [UInt8]) throws -> MediaInfo { try MP3File.read(DataByteSource(bytes)) }

    @Test func cbrAt48kHzIsExact() throws {
        let info = try Self.read(MPEGBuild.cbr(count: 250, rateIndex: 1, rate: 48000))
        #expect(info.format == .mp3 && info.stream.codec == "mp3")
        #expect(abs(info.stream.duration! - 6.0) < 0.001)
        #expect(info.stream.bitrate == 128_000 && info.stream.sampleRate == 48000 && info.stream.channels == 2)
    }

    @Test func cbrAt44kHzWithPaddingAndTags() throws {
        let tag = ID3Build.tag(major: 4, [ID3Build.text("TIT2", ["Song"])], padding: 500)
        let bytes = tag + MPEGBuild.cbr(count: 1000) + ID3Build.v1(title: "Old", genre: 8)
        let info = try Self.read(bytes)
        #expect(abs(info.stream.duration! - 1000.0 * 1152 / 44100) < 0.001)
        #expect(info.tags.title == "Song", "ID3v2 wins over ID3v1")
        #expect(info.tags.genres == ["Jazz"], "ID3v1 fills what ID3v2 lacks")
    }

    @Test func xingFrameCountGivesVBRDuration() throws {
        var audio: [UInt8] = []
        for i in 0..<40 { audio += MPEGBuild.frame(MPEGBuild.header(bitrateIndex: UInt8(9 + i % 3))) }
        let xing = MPEGBuild.xing(frames: 5000, bytes: 2_000_000)
        let info = try Self.read(xing + audio)
        #expect(abs(info.stream.duration! - 5000.0 * 1152 / 44100) < 0.001)
        let seconds: Double = 5000.0 * 1152 / 44100
        let expected = Int((2_000_000.0 * 8 / seconds).rounded())
        #expect(info.stream.bitrate == expected)
        let infoTag = try Self.read(MPEGBuild.xing(frames: 100, bytes: nil, tag: "Info") + MPEGBuild.cbr(count: 5))
        #expect(abs(infoTag.stream.duration! - 100.0 * 1152 / 44100) < 0.001)
    }

    @Test func lameTagDelayAndPaddingAreSubtracted() throws {
        let info = try Self.read(MPEGBuild.xing(frames: 1000, bytes: 400_000, lame: (576, 1000)) + MPEGBuild.cbr(count: 3))
        #expect(abs(info.stream.duration! - (1000.0 * 1152 - 1576) / 44100) < 0.001)
    }

    @Test func monoAndMPEG2XingOffsets() throws {
        let mono = try Self.read(MPEGBuild.xing(frames: 300, bytes: nil, mono: true))
        #expect(abs(mono.stream.duration! - 300.0 * 1152 / 44100) < 0.001)
        #expect(mono.stream.channels == 1)
        let mpeg2 = try Self.read(MPEGBuild.xing(frames: 300, bytes: nil, versionBits: 2))
        #expect(abs(mpeg2.stream.duration! - 300.0 * 576 / 22050) < 0.001)
    }

    @Test func vbriFrameCount() throws {
        let info = try Self.read(MPEGBuild.vbri(frames: 2500, bytes: 1_000_000) + MPEGBuild.cbr(count: 3))
        #expect(abs(info.stream.duration! - 2500.0 * 1152 / 44100) < 0.001)
    }

    @Test func vbrWithoutHeaderIsScanned() throws {
        var audio: [UInt8] = []
        for i in 0..<700 { audio += MPEGBuild.frame(MPEGBuild.header(bitrateIndex: i % 2 == 0 ? 9 : 11)) }
        let info = try Self.read(audio + ID3Build.v1(title: "x"))
        #expect(abs(info.stream.duration! - 700.0 * 1152 / 44100) < 0.001)
        #expect(info.tags.title == "x")
    }

    @Test func junkAndFalseSyncBeforeTheFirstFrame() throws {
        let junk: [UInt8] = [0, 0, 0xFF, 0xFB, 0x90, 0x00, 1, 2, 3] + [UInt8](repeating: 0x55, count: 300)
        let tag = ID3Build.tag(major: 3, [ID3Build.text("TIT2", ["J"], 0, major: 3)])
        let info = try Self.read(tag + junk + MPEGBuild.cbr(count: 100, rateIndex: 1, rate: 48000))
        #expect(abs(info.stream.duration! - 2.4) < 0.001, "bytes before the first frame are not audio")
        #expect(info.tags.title == "J")
    }

    @Test func severalLeadingTagsAndAnAppendedTag() throws {
        let first = ID3Build.tag(major: 4, [ID3Build.text("TIT2", ["First"])], footer: true)
        let second = ID3Build.tag(major: 3, [ID3Build.text("TIT2", ["Second"], 0, major: 3), ID3Build.text("TALB", ["Album"], 0, major: 3)])
        let appended = ID3Build.tag(major: 4, [ID3Build.text("TCOM", ["Composer"])], footer: true)
        let bytes = first + second + MPEGBuild.cbr(count: 50, rateIndex: 1, rate: 48000) + appended + ID3Build.v1(artist: "V1 Artist")
        let info = try Self.read(bytes)
        #expect(info.tags.title == "First")
        #expect(info.tags.album == "Album")
        #expect(info.tags.composers == ["Composer"])
        #expect(info.tags.artists == ["V1 Artist"])
        #expect(abs(info.stream.duration! - 50 * 0.024) < 0.001)
    }

    @Test func apeTagIsExcludedFromTheAudio() throws {
        // Size counts items and footer, not the header (APEv2 specification).
        let header = Array("APETAGEX".utf8) + ID3Build.le32(2000) + ID3Build.le32(72) + ID3Build.le32(0) + ID3Build.le32(0x8000_0000) + [UInt8](repeating: 0, count: 8)
        let footer = Array("APETAGEX".utf8) + ID3Build.le32(2000) + ID3Build.le32(72) + ID3Build.le32(0) + ID3Build.le32(0x8000_0000) + [UInt8](repeating: 0, count: 8)
        let ape = header + [UInt8](repeating: 0x41, count: 40) + footer
        let info = try Self.read(MPEGBuild.cbr(count: 100, rateIndex: 1, rate: 48000) + ape + ID3Build.v1(title: "t"))
        #expect(abs(info.stream.duration! - 2.4) < 0.001)
    }

    @Test func tagsWithoutAudioAndNeitherTagsNorAudio() throws {
        let info = try Self.read(ID3Build.tag(major: 4, [ID3Build.text("TIT2", ["Only"])]))
        #expect(info.tags.title == "Only" && info.stream.duration == nil)
        #expect(throws: MediaTagsError.self) { try Self.read([UInt8](repeating: 0x20, count: 5000)) }
        #expect(throws: MediaTagsError.self) { try Self.read([]) }
    }

    @Test func readsOnlyTheHeadAndTailOfALargeFile() throws {
        let tag = ID3Build.tag(major: 4, [ID3Build.text("TIT2", ["Big"])])
        let source = ID3CountingByteSource(tag + MPEGBuild.cbr(count: 26_000, rateIndex: 1, rate: 48000) + ID3Build.v1(title: "v1"))
        let info = try MP3File.read(source)
        #expect(abs(info.stream.duration! - 26_000 * 0.024) < 0.001)
        #expect(source.count > 9_000_000 && source.bytesRead < 20_000)
    }

    static func sample() -> [UInt8] {
        ID3Build.tag(major: 3, [ID3Build.text("TIT2", ["Fuzz"], 1, major: 3), ID3Build.picture([0xFF, 0xD8, 0xFF, 0, 1], major: 3)],
                     padding: 8, unsynchronise: true)
            + MPEGBuild.xing(frames: 20, bytes: 9000, lame: (576, 100)) + MPEGBuild.cbr(count: 6)
            + ID3Build.tag(major: 4, [ID3Build.text("TALB", ["A"])], footer: true) + ID3Build.v1(title: "F", track: 2, genre: 3)
    }

    @Test func everyTruncationGivesTagsOrATypedError() throws {
        let full = Self.sample()
        #expect(try Self.read(full).tags.title == "Fuzz")
        for length in 0...full.count {
            do { _ = try Self.read(Array(full.prefix(length))) } catch { #expect(error is MediaTagsError) }
        }
    }

    @Test func randomMutationsNeverCrashOrHang() {
        let vbr = (0..<30).flatMap { MPEGBuild.frame(MPEGBuild.header(bitrateIndex: UInt8(5 + $0 % 4))) }
        for fixture in [Self.sample(), MPEGBuild.vbri(frames: 10, bytes: 4000) + vbr] {
            for bytes in ID3Fuzz.mutants(of: fixture) {
                do { _ = try Self.read(bytes) } catch { #expect(error is MediaTagsError) }
            }
        }
    }

    @Test(arguments: ["3", "4"])
    func realFileMadeByFFmpeg(id3Version: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mt-id3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("sine.mp3").path
        try ID3FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "libmp3lame", "-b:a", "128k",
                               "-id3v2_version", id3Version, "-write_id3v1", "1",
                               "-metadata", "title=Sinus Café ☕", "-metadata", "artist=Ffmpeg Band", "-metadata", "track=4/9",
                               "-metadata", "date=2021", "-metadata", "genre=Ambient", out])
        let info = try MP3File.read(FileByteSource(path: out))
        #expect(info.tags.title == "Sinus Café ☕")
        #expect(info.tags.artists == ["Ffmpeg Band"])
        #expect(info.tags.trackNumber == 4 && info.tags.trackTotal == 9)
        #expect(info.tags.year == 2021)
        #expect(info.tags.genres == ["Ambient"])
        #expect(abs(info.stream.duration! - 3.0) < 0.06)
        #expect(info.stream.sampleRate == 44100 && info.stream.channels == 1 && info.stream.bitrate != nil)
    }
}

/// Runs the ffmpeg binary quietly (found as AudioCore finds it: `$QUINTET_FFMPEG`, else the
/// PATH), throwing when it fails or is missing: the tests that use it never skip.
enum ID3FFmpegTool {
    static func run(_ arguments: [String]) throws {
        try FFmpegDecoder().run(["-hide_banner", "-y"] + arguments)
    }
}

@Suite("FileByteSource")
struct FileByteSourceTests {
    @Test("windowed reads return exactly the file's bytes anywhere, near the end, large and past it")
    func windows() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-bytes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try Data(bytes).write(to: url)
        let source = try FileByteSource(path: url.path)
        #expect(source.count == bytes.count)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let lo = Int.random(in: 0...110_000, using: &rng), length = Int.random(in: 0...40_000, using: &rng)
            let expected = lo >= bytes.count ? [] : Array(bytes[lo..<min(bytes.count, lo + length)])
            #expect(try source.read(lo..<(lo + length)) == expected)
        }
        #expect(try source.read(at: 99_990, length: 100) == Array(bytes[99_990...]))
        #expect(throws: MediaTagsError.self) { try FileByteSource(path: FileManager.default.temporaryDirectory.path) }
    }
}
