import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux) || os(macOS)
/// Brings an audio file to a target integrated loudness (EBU R128 / ITU-R BS.1770, in LUFS)
/// in two passes of ffmpeg: the first measures the file with the `loudnorm` filter (integrated
/// loudness, true peak, loudness range); the second applies one gain, target − measured, and a
/// peak limiter (`alimiter`, 5 ms attack, 50 ms release, no auto level) at `truePeak` − 0.5 dB,
/// so the few peaks the gain would push over are held down and the rest keeps its dynamics.
/// Where the limiter takes loudness away (loud bursts), the result is measured and rendered
/// again from the original with the gain corrected (up to four renders; the closest is kept).
///
/// Why not loudnorm's own second pass: with `linear=true` it gives up the linear gain whenever
/// the true peak would pass the limit and falls back to its dynamic mode, which on short or
/// peaky broadcasts (a beep, a loud song between silences) measured 2–3 LU away from the
/// target here (−16.8 → −19.1 LUFS); gain plus limiter lands within a few tenths.
///
/// Podcasts aim at −16 LUFS (the convention of Apple's and Spotify's guidelines for stereo
/// spoken word), the default here.
///
/// ```swift
/// let result = try LoudnessNormalizer(ffmpeg: try FFmpegDecoder()).normalize(fileAt: url, format: .mp3(bitrate: 128))
/// ```
public struct LoudnessNormalizer: Sendable {
    /// The container and codec the file is written back in.
    public enum Format: Sendable {
        case mp3(bitrate: Int)
        case adtsAAC(bitrate: Int)

        var arguments: [String] {
            switch self {
            case .mp3(let bitrate): ["-c:a", "libmp3lame", "-b:a", "\(bitrate)k", "-id3v2_version", "0", "-write_xing", "1", "-f", "mp3"]
            case .adtsAAC(let bitrate): ["-c:a", "aac", "-b:a", "\(bitrate)k", "-f", "adts"]
            }
        }
    }

    /// What the first pass measured.
    public struct Measurement: Sendable, Equatable, Decodable {
        public let integrated: Double
        public let truePeak: Double
        public let range: Double
        public let threshold: Double
        public let offset: Double

        enum CodingKeys: String, CodingKey {
            case integrated = "input_i", truePeak = "input_tp", range = "input_lra", threshold = "input_thresh",
                 offset = "target_offset"
        }

        public init(from decoder: any Decoder) throws {
            // loudnorm prints its figures as strings ("-27.31", "-inf").
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func number(_ key: CodingKeys) throws -> Double {
                let text = try c.decode(String.self, forKey: key).trimmingCharacters(in: .whitespaces)
                if text == "-inf" { return -.infinity }
                if text == "inf" { return .infinity }
                guard let value = Double(text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not a number: \(text)")
                }
                return value
            }
            integrated = try number(.integrated)
            truePeak = try number(.truePeak)
            range = try number(.range)
            threshold = try number(.threshold)
            offset = try number(.offset)
        }
    }

    /// What `normalize` did.
    public enum Outcome: Sendable, Equatable {
        /// Rewritten: measured before, and measured again after.
        case normalized(before: Measurement, after: Measurement)
        /// Left as it was: too quiet to measure (silence), or already within `tolerance`.
        case unchanged(Measurement)
    }

    public let ffmpegPath: String
    /// Target integrated loudness, LUFS.
    public var target: Double = -16
    /// Highest true peak after normalising, dBTP.
    public var truePeak: Double = -1.5
    /// Target loudness range, LU (loudnorm's measuring parameter; the measurement does not depend on it).
    public var range: Double = 11
    /// A file already within this many LU of the target is left alone (no re-encode).
    public var tolerance: Double = 0.5

    public init(ffmpeg: FFmpegDecoder) {
        ffmpegPath = ffmpeg.ffmpegPath
    }

    /// The file's loudness (the first pass alone).
    public func measure(fileAt url: URL, cancellation: CancellationFlag? = nil) throws -> Measurement {
        let filter = "loudnorm=I=\(target):TP=\(truePeak):LRA=\(range):print_format=json"
        let result = try Subprocess.run(ffmpegPath, ["-nostdin", "-hide_banner", "-loglevel", "info", "-i", url.path,
                                                     "-vn", "-af", filter, "-f", "null", "-"], cancellation: cancellation)
        guard result.status == 0 else { throw AudioError.decodingFailed("ffmpeg could not measure the loudness: \(result.errorSummary)") }
        return try Self.parse(standardError: result.stderr)
    }

    /// Measures, and when the file is off target, rewrites it in `format` at the target (to a
    /// temporary file beside it, then renamed over it: a failure leaves the original).
    public func normalize(fileAt url: URL, format: Format, cancellation: CancellationFlag? = nil) throws -> Outcome {
        let before = try measure(fileAt: url, cancellation: cancellation)
        guard before.integrated.isFinite, before.integrated > -70, abs(before.integrated - target) > tolerance else {
            return .unchanged(before)
        }
        let limit = pow(10, (truePeak - 0.5) / 20)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".loudnorm-\(UUID().uuidString)-\(url.lastPathComponent)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // The limiter takes loudness away where it works (loud bursts): measure the result and,
        // while it is off target, render again from the original with the gain corrected.
        func render(_ gain: Double) throws -> Measurement {
            let filter = String(format: "volume=%.2fdB,alimiter=limit=%.4f:attack=5:release=50:level=false", gain, limit)
            let result = try Subprocess.run(ffmpegPath, ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", url.path,
                                                         "-vn", "-map_metadata", "-1", "-af", filter, "-ar", "44100"]
                                                + format.arguments + [temporary.path], cancellation: cancellation)
            guard result.status == 0 else { throw AudioError.decodingFailed("ffmpeg could not normalise the loudness: \(result.errorSummary)") }
            return try measure(fileAt: temporary, cancellation: cancellation)
        }
        func miss(_ m: Measurement) -> Double { m.integrated.isFinite ? abs(m.integrated - target) : .infinity }
        var gain = target - before.integrated
        var after = try render(gain)
        var best = (gain: gain, after: after)
        for _ in 1..<Self.maxRenders where miss(after) > tolerance && after.integrated.isFinite {
            gain += target - after.integrated
            after = try render(gain)
            if miss(after) < miss(best.after) { best = (gain, after) }
        }
        if best.gain != gain { after = try render(best.gain) }   // the closest render is the one kept
        guard rename(temporary.path, url.path) == 0 else {
            throw AudioError.decodingFailed("could not replace \(url.lastPathComponent) with its normalised copy (errno \(errno))")
        }
        return .normalized(before: before, after: after)
    }

    /// Renders at most this many times (a measurement after each) to land within `tolerance`.
    static let maxRenders = 4

    /// The JSON block loudnorm prints at the end of its standard error.
    static func parse(standardError: Data) throws -> Measurement {
        let text = String(decoding: standardError, as: UTF8.self)
        guard let open = text.range(of: "{", options: .backwards), let close = text.range(of: "}", options: .backwards),
              open.lowerBound < close.lowerBound else {
            throw AudioError.decodingFailed("ffmpeg's loudnorm printed no measurement")
        }
        let json = Data(text[open.lowerBound...close.lowerBound].utf8)
        do {
            return try JSONDecoder().decode(Measurement.self, from: json)
        } catch {
            throw AudioError.decodingFailed("ffmpeg's loudnorm measurement could not be read: \(error)")
        }
    }
}
#endif
