import AudioCore
import Foundation
@testable import Tempo
import Testing

/// The metrical-level decision (issue 21): pieces whose notated beat is plain to a listener.
@Suite("Tempo: the metrical level")
struct LevelTests {
    static func ratio(_ groove: Grooves.Groove, bpm: Double, seconds: Double = 20) -> Double? {
        TempoEstimator().estimate(Grooves.render(groove, bpm: bpm, seconds: seconds)).bpm.map { $0 / bpm }
    }

    @Test("a waltz is heard in quarter notes, not bars or eighths", arguments: [96.0, 150, 180])
    func waltz(bpm: Double) throws {
        let r = try #require(Self.ratio(Grooves.all[1], bpm: bpm))
        // Known: a fast waltz (180) is read at the bar, 60 BPM (docs/tempo.md, "What is left").
        withKnownIssue("a fast waltz is read at the bar") {
            #expect(abs(r - 1) < 0.04, "waltz at \(bpm): estimated ×\(r)")
        } when: { bpm >= 180 }
    }

    @Test("a 6/8 jig is heard in dotted quarters, not eighths or quarters", arguments: [70.0, 100, 120])
    func jig(bpm: Double) throws {
        let r = try #require(Self.ratio(Grooves.all[2], bpm: bpm))
        #expect(abs(r - 1) < 0.04, "jig at \(bpm): estimated ×\(r)")
    }

    @Test("ragtime's oom-pah is heard in quarters, not in its eighths", arguments: [72.0, 90, 105])
    func ragtime(bpm: Double) throws {
        let r = try #require(Self.ratio(Grooves.all[3], bpm: bpm))
        #expect(abs(r - 1) < 0.04, "ragtime at \(bpm): estimated ×\(r)")
    }

    /// The issue's targets as thresholds, on grooves of eight kinds at tempi across each
    /// kind's range (not the sets the chooser was fitted on: other sounds, other patterns).
    @Test("Acc1 ≥ 72 % and Acc2 ≥ 95 % on grooves of eight kinds")
    func accuracy() {
        let tempi: [String: [Double]] = [
            "rock 4/4": [84, 120, 165], "waltz 3/4": [88, 132, 176], "jig 6/8": [66, 96, 124],
            "ragtime 2/4": [70, 88, 108], "one-drop 4/4": [64, 76, 90], "four on the floor": [112, 124, 134],
            "piano arpeggio 4/4": [62, 90, 128], "march 2/4": [100, 116, 132],
        ]
        var acc1 = 0, acc2 = 0, total = 0
        var misses: [String] = []
        for groove in Grooves.all {
            for bpm in tempi[groove.name] ?? [] {
                total += 1
                guard let r = Self.ratio(groove, bpm: bpm, seconds: 10) else { misses.append("\(groove.name) \(bpm): none"); continue }
                if abs(r - 1) <= 0.04 { acc1 += 1 } else { misses.append("\(groove.name) \(bpm): ×\(String(format: "%.2f", r))") }
                if [1.0, 2, 3, 0.5, 1.0 / 3].contains(where: { abs(r - $0) <= 0.04 * $0 }) { acc2 += 1 }
            }
        }
        #expect(Double(acc1) / Double(total) >= 0.72, "Acc1 \(acc1)/\(total); misses: \(misses)")
        #expect(Double(acc2) / Double(total) >= 0.95, "Acc2 \(acc2)/\(total); misses: \(misses)")
    }

    @Test("the chooser's features tell the beat from its half and double on a plain pulse")
    func features() {
        // Eighth-note hats with kick/snare on the beats at 120: at the beat the off-beat
        // novelty (the hats) is weaker than on the pulses; at half the tempo (60) the
        // off-beat holds the beats themselves, so the ratio rises.
        let audio = Grooves.render(Grooves.all[0], bpm: 120)
        let onsets = OnsetStrength(samples: audio.samples, sampleRate: audio.sampleRate)
        let bands = onsets.bands.map { TempoEstimator.normalize($0, frameRate: onsets.frameRate) }
        var novelty = [Float](repeating: 0, count: onsets.frameCount)
        for band in bands { for i in 0..<band.count { novelty[i] += band[i] } }
        let pulses = PulseTrain(novelty: novelty)
        let beat = pulses.fit(period: 60 * onsets.frameRate / 120)
        let half = pulses.fit(period: 60 * onsets.frameRate / 60)
        #expect(beat.offbeat / beat.precision < half.offbeat / half.precision)
        #expect(beat.recall > half.recall)
        #expect(pulses.onsetRate(frameRate: onsets.frameRate) > 3) // eighths at 120: 4 per second
    }
}
