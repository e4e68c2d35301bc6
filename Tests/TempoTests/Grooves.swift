import AudioCore
import Foundation

/// Short pieces written as one-bar grid patterns (like the levels sets, but with the small
/// sine-and-noise kit of `Drums` and plucked sine tones): the tests of the metrical-level
/// decision. The notated beat is the quarter note in 2/4, 3/4 and 4/4, the dotted quarter
/// in 6/8.
enum Grooves {
    static let rate = Drums.sampleRate

    /// One voice: an instrument and its bar on the step grid ("X" loud, "x" normal, "o" soft).
    struct Voice {
        var sound: String
        var pattern: String
    }

    /// A groove: steps per beat (4 in simple meters, 6 in 6/8 so the eighths are every 2).
    struct Groove {
        var name: String
        var stepsPerBeat: Int
        var voices: [Voice]
    }

    /// A decaying tone with three harmonics (a plucked string or a struck key).
    static func tone(_ hz: Double, seconds: Double = 0.25, decay: Double = 8) -> [Float] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            let s = sin(2 * .pi * hz * t) + 0.5 * sin(4 * .pi * hz * t) + 0.25 * sin(6 * .pi * hz * t)
            return Float(s * exp(-t * decay) * min(1, t / 0.003))
        }
    }

    static func sound(_ name: String, noise: inout Drums.Noise, bar: Int) -> [Float] {
        let roots = [110.0, 146.8, 130.8, 164.8] // a chord change every bar
        let root = roots[bar % roots.count]
        switch name {
        case "kick": return Drums.kick()
        case "snare": return Drums.snare(&noise)
        case "hat": return Drums.hat(&noise)
        case "bass": return tone(root / 2, seconds: 0.4, decay: 5)
        case "chord":
            let a = tone(root * 2), b = tone(root * 2.52), c = tone(root * 3)
            return (0..<a.count).map { (a[$0] + b[$0] + c[$0]) / 3 }
        case "melody":
            return tone(root * [4.0, 4.49, 5.04, 5.99][(bar * 7 + Int(noise.next().magnitude * 3)) % 4], seconds: 0.2)
        default: preconditionFailure(name)
        }
    }

    /// `seconds` of the groove at `bpm` (beats per minute of the notated beat), with
    /// a few ms of timing jitter.
    static func render(_ groove: Groove, bpm: Double, seconds: Double = 20, seed: UInt64 = 7) -> PCMBuffer {
        var noise = Drums.Noise(state: seed)
        var track = [Float](repeating: 0, count: Int(seconds * rate))
        let step = 60 / bpm / Double(groove.stepsPerBeat)
        let barSteps = groove.voices[0].pattern.count
        var bar = 0
        while Double(bar * barSteps) * step < seconds {
            for voice in groove.voices {
                for (i, c) in voice.pattern.enumerated() where c != "." {
                    let gain: Float = c == "X" ? 1 : c == "x" ? 0.7 : 0.35
                    let t = Double(bar * barSteps + i) * step + Double(noise.next()) * 0.003
                    Drums.mix(sound(voice.sound, noise: &noise, bar: bar), into: &track, at: t, gain: gain * 0.5)
                }
            }
            bar += 1
        }
        return PCMBuffer(sampleRate: rate, channelCount: 1, samples: track)
    }

    static let all: [Groove] = [
        Groove(name: "rock 4/4", stepsPerBeat: 4, voices: [
            Voice(sound: "kick", pattern: "X.......X.x....."), Voice(sound: "snare", pattern: "....X.......X..."),
            Voice(sound: "hat", pattern: "x.x.x.x.x.x.x.x."), Voice(sound: "bass", pattern: "x.......x.x.....")]),
        Groove(name: "waltz 3/4", stepsPerBeat: 4, voices: [
            Voice(sound: "bass", pattern: "X..........."), Voice(sound: "chord", pattern: "....x...x..."),
            Voice(sound: "melody", pattern: "x.....x.x...")]),
        Groove(name: "jig 6/8", stepsPerBeat: 6, voices: [
            Voice(sound: "melody", pattern: "X.x.x.X.x.x."), Voice(sound: "bass", pattern: "x.....x....."),
            Voice(sound: "chord", pattern: "....x.....x.")]),
        Groove(name: "ragtime 2/4", stepsPerBeat: 4, voices: [
            Voice(sound: "bass", pattern: "X...x..."), Voice(sound: "chord", pattern: "..x...x."),
            Voice(sound: "melody", pattern: "x..x.x.x")]),
        Groove(name: "one-drop 4/4", stepsPerBeat: 4, voices: [
            Voice(sound: "kick", pattern: "........X......."), Voice(sound: "snare", pattern: "........x......."),
            Voice(sound: "hat", pattern: "x.x.x.x.x.x.x.x."), Voice(sound: "chord", pattern: "....x.......x..."),
            Voice(sound: "bass", pattern: "x.....x.x..x....")]),
        Groove(name: "four on the floor", stepsPerBeat: 4, voices: [
            Voice(sound: "kick", pattern: "X...X...X...X..."), Voice(sound: "hat", pattern: "..x...x...x...x."),
            Voice(sound: "snare", pattern: "....x.......x..."), Voice(sound: "bass", pattern: "..x...x...x...x.")]),
        Groove(name: "piano arpeggio 4/4", stepsPerBeat: 4, voices: [
            Voice(sound: "bass", pattern: "X.......x......."), Voice(sound: "chord", pattern: "x.o.x.o.x.o.x.o."),
            Voice(sound: "melody", pattern: "x...x.x.x...x...")]),
        Groove(name: "march 2/4", stepsPerBeat: 4, voices: [
            Voice(sound: "kick", pattern: "X...X..."), Voice(sound: "snare", pattern: "x.ox.oxo"),
            Voice(sound: "bass", pattern: "x...x..."), Voice(sound: "chord", pattern: "..x...x.")]),
    ]
}
