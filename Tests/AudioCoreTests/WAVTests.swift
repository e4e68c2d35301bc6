import AudioCore
import Foundation
import Testing

@Suite("WAV reader and writer")
struct WAVTests {
    /// Samples every format represents exactly, so a round trip must return them bit for bit.
    static func exactSamples(_ format: WAVSampleFormat, count: Int) -> [Float] {
        var rng = SplitMix64(seed: UInt64(count) &* 31 &+ UInt64(format.bitsPerSample))
        let bits = min(format.bitsPerSample, 24) // Float keeps 24 bits of mantissa
        let scale = Float(1 << (bits - 1))
        var out = (0..<count).map { _ in Float(Int.random(in: -(1 << (bits - 1))..<(1 << (bits - 1)), using: &rng)) / scale }
        if count >= 2 { out[0] = -1; out[1] = (scale - 1) / scale } // both extremes
        if format.isFloat && count >= 3 { out[2] = 1.5 }             // floats may exceed full scale
        return out
    }

    @Test("round trip of every sample format, channel count and header kind",
          arguments: WAVSampleFormat.allCases)
    func roundTrip(format: WAVSampleFormat) throws {
        for channels in [1, 2, 6] {
            for extensible in [false, true] {
                let frames = 1001 // odd: 8-bit mono gives an odd data chunk and a pad byte
                let buffer = PCMBuffer(sampleRate: 44_100, channelCount: channels,
                                       samples: Self.exactSamples(format, count: frames * channels))
                let bytes = WAVWriter.encode(buffer, format: format, extensible: extensible)
                #expect(bytes.count % 2 == 0, "RIFF chunks are padded to even sizes")
                let header = try WAVReader.header(of: bytes)
                #expect(header == .init(format: format, channelCount: channels, sampleRate: 44_100))
                let decoded = try WAVReader.decode(bytes)
                #expect(decoded == buffer, "\(format) × \(channels) channels, extensible \(extensible)")
                let mono = try WAVReader.decode(bytes, downmix: true)
                let expected = buffer.monoSamples()
                #expect(mono.channelCount == 1 && zip(mono.samples, expected).allSatisfy { abs($0 - $1) < 1e-6 },
                        "downmix while reading matches downmix after reading")
            }
        }
    }

    @Test("integer formats quantise to the nearest step and clamp out-of-range samples")
    func quantisation() throws {
        let buffer = PCMBuffer(sampleRate: 8_000, channelCount: 1, samples: [2.0, -2.0, 0.25, 1.0 / 131_072])
        let decoded = try WAVReader.decode(WAVWriter.encode(buffer, format: .int16))
        #expect(decoded.samples == [32_767 / 32_768, -1, 0.25, 0])
        let odd = PCMBuffer(sampleRate: 8_000, channelCount: 1, samples: [.nan, .infinity, -.infinity])
        #expect(try WAVReader.decode(WAVWriter.encode(odd, format: .int24)).samples == [0, 8_388_607 / 8_388_608, -1])
        let eight = try WAVReader.decode(WAVWriter.encode(buffer, format: .int8))
        #expect(eight.samples == [127 / 128, -1, 0.25, 0])
    }

    @Test("skips unknown chunks of odd size with their pad byte")
    func oddChunkPadding() throws {
        let buffer = PCMBuffer(sampleRate: 22_050, channelCount: 1, samples: [0.5, -0.5, 0.25])
        var bytes = WAVWriter.encode(buffer, format: .int16)
        // Insert a 3-byte "LIST" chunk (plus its pad byte) between "fmt " and "data".
        let dataOffset = try #require(bytes.range(of: Data("data".utf8))).lowerBound
        var extra = Data("LIST".utf8)
        extra.append(contentsOf: [3, 0, 0, 0, 0x41, 0x42, 0x43, 0x00])
        bytes.insert(contentsOf: extra, at: dataOffset)
        let riffSize = UInt32(bytes.count - 8)
        bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: riffSize.littleEndian) { Data($0) })
        #expect(try WAVReader.decode(bytes) == buffer)
    }

    @Test("a streaming data size (0xFFFFFFFF) reads to the end of the file")
    func streamingDataSize() throws {
        let buffer = PCMBuffer(sampleRate: 8_000, channelCount: 2, samples: [0.5, -0.5, 0.25, -0.25])
        var bytes = WAVWriter.encode(buffer, format: .int16)
        let sizeOffset = try #require(bytes.range(of: Data("data".utf8))).upperBound
        bytes.replaceSubrange(sizeOffset..<(sizeOffset + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try WAVReader.decode(bytes) == buffer)
    }

    @Test("corrupt and truncated files give typed errors, never a crash")
    func corruptFiles() throws {
        let good = WAVWriter.encode(PCMBuffer(sampleRate: 8_000, channelCount: 1, samples: [Float](repeating: 0.1, count: 100)), format: .int16)
        func error(_ bytes: Data) -> AudioError? {
            do { _ = try WAVReader.decode(bytes); return nil } catch let e as AudioError { return e } catch { return nil }
        }
        #expect(error(Data()).map { if case .notWAV = $0 { true } else { false } } == true)
        #expect(error(Data("hello, this is not audio at all".utf8)).map { if case .notWAV = $0 { true } else { false } } == true)
        #expect(error(good.prefix(good.count - 10)).map { if case .truncated = $0 { true } else { false } } == true)
        #expect(error(good.prefix(30)).map { if case .truncated = $0 { true } else { false } } == true)
        #expect(error(good.prefix(12)).map { if case .corruptWAV = $0 { true } else { false } } == true)

        var zeroChannels = good
        zeroChannels[22] = 0; zeroChannels[23] = 0
        #expect(error(zeroChannels).map { if case .corruptWAV = $0 { true } else { false } } == true)

        var adpcm = good
        adpcm[20] = 2 // format tag 2: Microsoft ADPCM
        #expect(error(adpcm).map { if case .unsupportedFormat = $0 { true } else { false } } == true)

        var badAlign = good
        badAlign[32] = 3
        #expect(error(badAlign).map { if case .corruptWAV = $0 { true } else { false } } == true)

        var hugeChunk = good
        hugeChunk.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0x7F]) // fmt chunk claims 2 GiB
        #expect(error(hugeChunk).map { if case .truncated = $0 { true } else { false } } == true)
    }

    @Test("random byte corruption never crashes the reader")
    func randomCorruption() {
        let good = WAVWriter.encode(PCMBuffer(sampleRate: 44_100, channelCount: 2,
                                              samples: Fixtures.sine(frequency: 440, seconds: 0.01, sampleRate: 44_100) + Fixtures.sine(frequency: 440, seconds: 0.01, sampleRate: 44_100)),
                                    format: .int24)
        var rng = SplitMix64(seed: 7)
        var outcomes = Set<String>()
        for _ in 0..<2_000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                bytes[Int.random(in: 0..<64, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if Bool.random(using: &rng) { bytes = bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)) }
            do { _ = try WAVReader.decode(bytes); outcomes.insert("ok") } catch let e as AudioError {
                outcomes.insert(String(describing: e).components(separatedBy: ":")[0])
            } catch { outcomes.insert("untyped") }
        }
        #expect(!outcomes.contains("untyped"))
        #expect(outcomes.count > 2, "corruption should hit several error kinds: \(outcomes)")
    }

    @Test("write and read a file on disk")
    func fileRoundTrip() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("tone.wav")
        let buffer = PCMBuffer(sampleRate: 48_000, channelCount: 1, samples: WAVTests.exactSamples(.float32, count: 4_800))
        try WAVWriter.write(buffer, to: url, format: .float32)
        #expect(try WAVReader.read(contentsOf: url) == buffer)
        #expect(throws: AudioError.self) { try WAVReader.read(contentsOf: dir.appendingPathComponent("missing.wav")) }
    }
}
