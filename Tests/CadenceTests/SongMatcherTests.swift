import Cadence
import Testing

@Suite("Song matching")
struct SongMatcherTests {
    let library = [SongCandidate(id: "slow", bpm: 85), SongCandidate(id: "walk", bpm: 118),
                   SongCandidate(id: "run", bpm: 176), SongCandidate(id: "fast", bpm: 346), SongCandidate(id: "unknown", bpm: 0)]

    @Test("half and double time fit: 85 BPM at 170 spm, 346 BPM at 172 spm")
    func halfAndDouble() throws {
        let half = try #require(SongMatcher().pick(cadence: 170, from: library).match)
        #expect(half.id == "slow" && half.effectiveBPM == 170 && !half.isFallback)
        let double = try #require(SongMatcher().pick(cadence: 172, from: library, played: ["slow", "run"]).match)
        #expect(double.id == "fast" && double.effectiveBPM == 173 && !double.isFallback)
    }

    @Test("sprint aims 5 % above the cadence")
    func sprint() throws {
        let normal = try #require(SongMatcher().pick(cadence: 168, from: library).match)
        #expect(normal.id == "slow")
        let sprint = try #require(SongMatcher().pick(cadence: 168, sprint: true, from: library).match)
        #expect(sprint.id == "run" && abs(sprint.target - 176.4) < 1e-9 && !sprint.isFallback)
    }

    @Test("no song is repeated within a session; every song played gives a reason")
    func noRepeats() {
        var played = Set<String>()
        var order = [String]()
        while case .song(let match) = SongMatcher().pick(cadence: 170, from: library, played: played) {
            #expect(!played.contains(match.id))
            played.insert(match.id); order.append(match.id)
        }
        #expect(order == ["slow", "fast", "run", "walk"])
        #expect(SongMatcher().pick(cadence: 170, from: library, played: played) == .none(.allPlayed))
    }

    @Test("an empty library and one without tempos say so")
    func empty() {
        #expect(SongMatcher().pick(cadence: 170, from: []) == .none(.emptyLibrary))
        #expect(SongMatcher().pick(cadence: 170, from: [SongCandidate(id: "a", bpm: 0)]) == .none(.noTempo))
    }

    @Test("nothing within ±4 %: the nearest song, flagged as a fallback")
    func fallback() throws {
        let match = try #require(SongMatcher().pick(cadence: 150, from: library).match)
        #expect(match.id == "slow" && match.isFallback && abs(match.relativeDistance - 20.0 / 150) < 1e-9)
        let fit = try #require(SongMatcher().pick(cadence: 114, from: library).match)
        #expect(fit.id == "walk" && !fit.isFallback)
    }

    @Test("ranges mode: the 20-BPM band of the cadence, else a flagged fallback")
    func ranges() throws {
        #expect(SongMatcher.band(of: 170) == 160..<180 && SongMatcher.band(of: 180) == 180..<200)
        let matcher = SongMatcher(mode: .ranges)
        // 161 spm: band 160–180; "slow" (170 half time) and "run" (176) are in it, "slow" is nearer.
        let match = try #require(matcher.pick(cadence: 161, from: library).match)
        #expect(match.id == "slow" && !match.isFallback)
        // 150 spm: band 140–160 holds nothing; the nearest comes flagged.
        let fallback = try #require(matcher.pick(cadence: 150, from: library).match)
        #expect(fallback.isFallback)
        // 119 spm in nearest mode fits "walk" (118); in ranges mode too (band 100–120).
        #expect(matcher.pick(cadence: 119, from: library).match?.id == "walk")
        // 121 spm: nearest fits 118 (−2.5 %), but ranges mode keeps to 120–140 and falls back.
        #expect(matcher.pick(cadence: 121, from: library).match?.isFallback == true)
    }
}
