import Foundation

/// Temporary folders and the real ffmpeg/ffprobe binaries, run as subprocesses.
enum Fixtures {
    struct ToolFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-radio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `tool` (found on the PATH) and returns its standard output; throws on a non-zero exit.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errReader = Task.detached { err.fileHandleForReading.readDataToEndOfFile() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = errReader
        guard process.terminationStatus == 0 else {
            throw ToolFailed(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }

    /// Encodes a generated tone with ffmpeg into `directory/name` and returns its bytes.
    static func encode(_ name: String, in directory: URL, seconds: Double = 3, sampleRate: Int = 44100,
                       channels: Int = 2, codec: [String]) throws -> [UInt8] {
        let url = directory.appendingPathComponent(name)
        try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                           "-i", "sine=frequency=440:sample_rate=\(sampleRate):duration=\(seconds)",
                           "-ac", "\(channels)"] + codec + [url.path])
        return Array(try Data(contentsOf: url))
    }

    /// `ffprobe`'s format duration in seconds.
    static func probeDuration(_ url: URL) throws -> Double {
        let out = try run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
        return Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The audio packets (= coded frames) `ffprobe`'s demuxer reads from the file
    /// (`-count_packets`; `nb_read_frames` counts decoder output, one fewer for MPEG-2).
    static func probeFrameCount(_ url: URL) throws -> Int {
        let out = try run("ffprobe", ["-v", "error", "-count_packets", "-select_streams", "a:0",
                                      "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path])
        return Int(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Decodes `url` with ffmpeg to interleaved signed 16-bit little-endian PCM.
    static func decodeS16(_ url: URL) throws -> [UInt8] {
        Array(try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", url.path, "-f", "s16le", "-"]))
    }

    /// An MPEG-1 Layer III header: 128 kbit/s, 44.1 kHz, joint stereo, no CRC.
    static let header128: [UInt8] = [0xFF, 0xFB, 0x90, 0x44]
    /// The same header with the padding bit.
    static let header128Padded: [UInt8] = [0xFF, 0xFB, 0x92, 0x44]

    /// `count` fake ADTS frames: AAC LC, 44.1 kHz, stereo, no CRC, 371 bytes each.
    static func fakeADTSFrames(_ count: Int, length: Int = 371) -> [UInt8] {
        let header: [UInt8] = [0xFF, 0xF1, 0x50, 0x80 | UInt8(length >> 11),
                               UInt8((length >> 3) & 0xFF), UInt8((length & 7) << 5) | 0x1F, 0xFC]
        var out: [UInt8] = []
        for _ in 0..<count { out += header + [UInt8](repeating: 0x21, count: length - 7) }
        return out
    }

    /// `count` fake frames (valid headers, arbitrary payload) of `header`.
    static func fakeFrames(_ count: Int, header: [UInt8] = header128, payload: UInt8 = 0x55) -> [UInt8] {
        let length = MPEGLength.of(header)
        var out: [UInt8] = []
        for _ in 0..<count { out += header + [UInt8](repeating: payload, count: length - 4) }
        return out
    }
}

import MediaTags
import Radio

enum MPEGLength {
    static func of(_ h: [UInt8]) -> Int { MPEGAudioHeader(h[0], h[1], h[2], h[3])!.frameLength }
}
