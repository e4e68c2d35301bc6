import AudioCore
import Foundation

/// Synthetic rhythms made in code: clicks and a small drum kit (kick, snare, hi-hat).
enum Drums {
    static let sampleRate = 44_100.0

    /// A deterministic noise source.
    struct Noise {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000_000) / 1_000_000 - 1
        }
    }

    /// A 10 ms 1 kHz click with an exponential decay.
    static func click() -> [Float] {
        (0..<441).map { Float(sin(2 * Double.pi * 1_000 * Double($0) / sampleRate) * exp(-Double($0) / 80)) }
    }

    /// A kick: a sine falling from 150 to 50 Hz over 150 ms.
    static func kick() -> [Float] {
        var phase = 0.0
        return (0..<Int(0.15 * sampleRate)).map { i in
            let t = Double(i) / sampleRate
            phase += 2 * Double.pi * (50 + 100 * exp(-t * 30)) / sampleRate
            return Float(sin(phase) * exp(-t * 18))
        }
    }

    /// A snare: a 190 Hz tone and noise, 120 ms.
    static func snare(_ noise: inout Noise) -> [Float] {
        (0..<Int(0.12 * sampleRate)).map { i in
            let t = Double(i) / sampleRate
            return Float(0.4 * sin(2 * Double.pi * 190 * t) * exp(-t * 30)) + 0.6 * noise.next() * Float(exp(-t * 25))
        }
    }

    /// A closed hi-hat: differenced noise (bright), 40 ms.
    static func hat(_ noise: inout Noise) -> [Float] {
        var previous: Float = 0
        return (0..<Int(0.04 * sampleRate)).map { i in
            let n = noise.next()
            defer { previous = n }
            return (n - previous) * 0.25 * Float(exp(-Double(i) / sampleRate * 90))
        }
    }

    /// Adds `sound` into `track` at `seconds`, scaled by `gain`.
    static func mix(_ sound: [Float], into track: inout [Float], at seconds: Double, gain: Float = 1) {
        let start = Int(seconds * sampleRate)
        for i in 0..<sound.count where start + i >= 0 && start + i < track.count { track[start + i] += sound[i] * gain }
    }

    /// Clicks every beat at `bpm` for `seconds`.
    static func clicks(bpm: Double, seconds: Double = 20) -> PCMBuffer {
        var track = [Float](repeating: 0, count: Int(seconds * sampleRate))
        let c = click()
        var t = 0.0
        while t < seconds { mix(c, into: &track, at: t, gain: 0.8); t += 60 / bpm }
        return PCMBuffer(sampleRate: sampleRate, channelCount: 1, samples: track)
    }

    /// A rock beat at `bpm`: kick on 1 and 3 (and the "and" of 3), snare on 2 and 4,
    /// hi-hat on every eighth, with a little timing jitter; stereo.
    static func rock(bpm: Double, seconds: Double = 20, seed: UInt64 = 1) -> PCMBuffer {
        var noise = Noise(state: seed)
        var track = [Float](repeating: 0, count: Int(seconds * sampleRate))
        let beat = 60 / bpm
        let k = kick()
        var bar = 0.0
        while bar < seconds {
            for eighth in 0..<8 {
                let jitter = Double(noise.next()) * 0.004
                let t = bar + Double(eighth) * beat / 2 + jitter
                mix(hat(&noise), into: &track, at: t, gain: eighth % 2 == 0 ? 0.5 : 0.35)
                if eighth == 0 || eighth == 4 || eighth == 5 { mix(k, into: &track, at: t, gain: 0.9) }
                if eighth == 2 || eighth == 6 { mix(snare(&noise), into: &track, at: t, gain: 0.7) }
            }
            bar += 4 * beat
        }
        return PCMBuffer(sampleRate: sampleRate, channels: [track, track.map { $0 * 0.9 }])
    }
}
