import Cadence
import Testing

@Suite("Run session")
struct RunSessionTests {
    let library = [SongCandidate(id: "low-a", bpm: 83), SongCandidate(id: "low-b", bpm: 92),
                   SongCandidate(id: "walk", bpm: 120), SongCandidate(id: "tempo", bpm: 150),
                   SongCandidate(id: "run", bpm: 170), SongCandidate(id: "run2", bpm: 172),
                   SongCandidate(id: "fast", bpm: 190), SongCandidate(id: "unknown", bpm: 0)]

    /// Feeds one reading per second from `from` to `to` (inclusive) and returns the choices made.
    @discardableResult
    func feed(_ session: inout RunSession, _ spm: Double?, from: Int, to: Int) -> [RunSession.Choice] {
        (from...to).compactMap { session.feed(t: Double($0), spm: spm) }
    }

    @Test("start without a cadence: a random song from the lowest 20-BPM band, reproducible by seed")
    func randomStart() throws {
        var ids = Set<String>()
        for seed in UInt64(0)..<20 {
            var session = RunSession(songs: library, seed: seed)
            let started = session.start()
            let choice = try #require(started)
            #expect(choice.cause == .start && choice.isRandom && choice.cadence == nil)
            let id = try #require(choice.pick.match?.id)
            ids.insert(id)
            var again = RunSession(songs: library, seed: seed)
            let repeated = again.start()
            #expect(repeated?.pick.match?.id == id)
            #expect(session.state == .running && session.history == [id])
        }
        #expect(ids == ["low-a", "low-b"]) // 83 and 92 share the band [80, 100)
    }

    @Test("excluded songs are never chosen, at random or by cadence; taken off, they are again")
    func excluded() throws {
        for seed in UInt64(0)..<10 { // the random start skips them too
            var session = RunSession(songs: library, seed: seed)
            session.excluded = ["low-a"]
            #expect(session.start()?.pick.match?.id == "low-b")
        }
        var session = RunSession(songs: library, settings: .init(autoSwitch: false))
        feed(&session, 170, from: 0, to: 5)
        session.excluded = ["run", "run2"]
        #expect(session.start()?.pick.match?.id == "low-a") // 83 heard at 166, the nearest left
        session.excluded = []
        #expect(session.next()?.pick.match?.id == "run")
        #expect(session.history == ["low-a", "run"])
    }

    @Test("start with a known cadence (readings fed while idle): the best match")
    func knownCadenceStart() throws {
        var session = RunSession(songs: library)
        feed(&session, 170.4, from: 0, to: 4)
        #expect(session.state == .idle)
        let started = session.start()
        let choice = try #require(started)
        #expect(!choice.isRandom && choice.cadence == 170.4 && choice.pick.match?.id == "run")
        #expect(session.currentCadence == 170.4 && session.current?.id == "run")
    }

    @Test("events that do not apply to the state are ignored")
    func invalidTransitions() {
        var session = RunSession(songs: library)
        var results: [Bool] = []
        // idle: only start, feed and stop apply
        results += [session.songEnded() == nil, session.next() == nil, !session.pause(), !session.resume()]
        results += [session.start() != nil, session.state == .running]
        // running: no second start, no resume
        results += [session.start() == nil, !session.resume()]
        results += [session.pause(), session.state == .paused]
        // paused: nothing but resume and stop
        results += [!session.pause(), session.songEnded() == nil, session.next() == nil, session.start() == nil]
        results += [session.resume(), session.state == .running]
        results += [session.stop(), session.state == .stopped, session.current == nil]
        // stopped: nothing applies any more
        results += [!session.stop(), session.start() == nil, session.next() == nil, session.songEnded() == nil]
        results += [!session.pause(), !session.resume(), session.feed(t: 100, spm: 170) == nil, session.readings.isEmpty]
        #expect(results.allSatisfy { $0 }, "\(results)")
        var idle = RunSession(songs: library)
        let stopped = idle.stop() // stopping before the start is allowed
        #expect(stopped && idle.state == .stopped)
    }

    @Test("song end and next re-estimate from the latest readings")
    func reestimate() throws {
        var session = RunSession(songs: library, settings: .init(autoSwitch: false))
        feed(&session, 170, from: 0, to: 4)
        let started = session.start()
        #expect(started?.pick.match?.id == "run")
        feed(&session, 120, from: 5, to: 12) // the last 5 s are all 120
        let endedChoice = session.songEnded()
        let ended = try #require(endedChoice)
        #expect(ended.cause == .songEnded && ended.cadence == 120 && ended.pick.match?.id == "walk")
        feed(&session, 151, from: 13, to: 20)
        let nextChoice = session.next()
        let next = try #require(nextChoice)
        #expect(next.cause == .next && next.cadence == 151 && next.pick.match?.id == "tempo")
        #expect(session.history == ["run", "walk", "tempo"])
    }

    @Test("without recent cadence the current song's cadence is kept; still readings do not count")
    func keepsCadence() throws {
        var session = RunSession(songs: library, settings: .init(autoSwitch: false))
        feed(&session, 170, from: 0, to: 2)
        _ = session.start()
        feed(&session, nil, from: 3, to: 20)
        let nextChoice = session.next()
        let next = try #require(nextChoice)
        #expect(next.cadence == 170 && next.pick.match?.id == "run2")
    }

    @Test("no song is repeated within a session")
    func noRepeats() {
        var session = RunSession(songs: library, settings: .init(autoSwitch: false))
        feed(&session, 170, from: 0, to: 2)
        var ids = [session.start()?.pick.match?.id]
        while let choice = session.next(), let id = choice.pick.match?.id { ids.append(id) }
        #expect(Set(ids).count == ids.count && ids.count == 7) // every song with a tempo, once
        let after = session.next()
        #expect(after?.pick == .none(.allPlayed))
        #expect(session.current == nil)
    }

    @Test("auto-switch: a move over 8 % lasting over 10 s picks a song for the new cadence")
    func autoSwitch() throws {
        var session = RunSession(songs: library)
        feed(&session, 170, from: 0, to: 2)
        let started = session.start()
        #expect(started?.pick.match?.id == "run")
        // 180 spm is 5.9 % away: under the threshold, however long.
        do { let made = feed(&session, 180, from: 3, to: 40); #expect(made.isEmpty) }
        // 190 spm is 11.8 % away: first seen at 41, switch once more than 10 s have passed (at 52).
        do { let made = feed(&session, 190, from: 41, to: 51); #expect(made.isEmpty) }
        let switched = session.feed(t: 52, spm: 190)
        let choice = try #require(switched)
        #expect(choice.cause == .autoSwitch && choice.cadence == 190 && choice.pick.match?.id == "fast")
        #expect(session.currentCadence == 190)
        do { let made = feed(&session, 190, from: 53, to: 80); #expect(made.isEmpty) } // settled on the new cadence
    }

    @Test("auto-switch: a stretch broken by a reading near the song's cadence starts over; still readings do not break it")
    func autoSwitchReset() throws {
        var session = RunSession(songs: library)
        feed(&session, 170, from: 0, to: 2)
        _ = session.start()
        do { let made = feed(&session, 120, from: 3, to: 11); #expect(made.isEmpty) }
        let back = session.feed(t: 12, spm: 168) // back within 8 %: the stretch ends
        #expect(back == nil)
        do { let made = feed(&session, 120, from: 13, to: 20); #expect(made.isEmpty) }
        do { let made = feed(&session, nil, from: 21, to: 22); #expect(made.isEmpty) } // still: neither breaks nor counts as a move
        do { let made = feed(&session, 120, from: 23, to: 23); #expect(made.isEmpty) }
        let switched = session.feed(t: 24, spm: 120) // 24 − 13 = 11 s > 10 s
        let choice = try #require(switched)
        #expect(choice.cause == .autoSwitch && choice.pick.match?.id == "walk")
    }

    @Test("auto-switch threshold and duration are settings; it can be turned off")
    func autoSwitchSettings() throws {
        var off = RunSession(songs: library, settings: .init(autoSwitch: false))
        feed(&off, 170, from: 0, to: 2)
        _ = off.start()
        do { let made = feed(&off, 120, from: 3, to: 100); #expect(made.isEmpty) }
        var tight = RunSession(songs: library, settings: .init(switchThreshold: 0.05, switchDuration: 3))
        feed(&tight, 170, from: 0, to: 2)
        _ = tight.start()
        do { let made = feed(&tight, 180, from: 3, to: 6); #expect(made.isEmpty) }
        let switched = tight.feed(t: 7, spm: 180)
        #expect(switched?.cause == .autoSwitch)
    }

    @Test("a random first song is replaced once a cadence has been steady")
    func randomThenSwitch() throws {
        var session = RunSession(songs: library, seed: 3)
        let started = session.start()
        #expect(started?.isRandom == true)
        do { let made = feed(&session, 150, from: 0, to: 10); #expect(made.isEmpty) }
        let switched = session.feed(t: 11, spm: 150)
        let choice = try #require(switched)
        #expect(choice.cause == .autoSwitch && choice.pick.match?.id == "tempo")
    }

    @Test("pause clears the sensor buffer and ignores readings; resume keeps the song")
    func pauseResume() throws {
        var session = RunSession(songs: library)
        feed(&session, 170, from: 0, to: 4)
        _ = session.start()
        feed(&session, 120, from: 5, to: 12) // a move of 7 s, not yet a switch
        #expect(session.latestCadence == 120)
        let paused = session.pause()
        #expect(paused && session.state == .paused)
        #expect(session.readings.isEmpty && session.latestCadence == nil)
        do { let made = feed(&session, 120, from: 13, to: 40); #expect(made.isEmpty && session.readings.isEmpty) }
        let resumed = session.resume()
        #expect(resumed && session.current?.id == "run")
        // The move before the pause was forgotten: 8 s more is not over 10 s.
        do { let made = feed(&session, 120, from: 41, to: 49); #expect(made.isEmpty) }
        // No readings since the pause would re-estimate to the song's cadence.
        var other = RunSession(songs: library, settings: .init(autoSwitch: false))
        feed(&other, 120, from: 0, to: 4)
        _ = other.start()
        feed(&other, 170, from: 5, to: 12)
        other.pause(); other.resume()
        let ended = other.songEnded()
        #expect(ended?.cadence == 120)
    }

    @Test("sprint aims 5 % above the cadence; ranges mode is passed to the matcher")
    func sprintAndRanges() throws {
        var sprint = RunSession(songs: library, settings: .init(sprint: true))
        feed(&sprint, 162, from: 0, to: 2)
        let started = sprint.start()
        let choice = try #require(started?.pick.match)
        #expect(choice.id == "run" && abs(choice.target - 170.1) < 1e-9)
        var ranges = RunSession(songs: library, settings: .init(mode: .ranges))
        feed(&ranges, 139, from: 0, to: 2)
        let rangesStart = ranges.start()
        #expect(rangesStart?.pick.match?.id == "walk") // band [120, 140)
    }

    @Test("an empty library or one without tempos says so")
    func emptyLibrary() {
        var empty = RunSession(songs: [])
        let emptyStart = empty.start()
        #expect(emptyStart?.pick == .none(.emptyLibrary))
        var unknown = RunSession(songs: [SongCandidate(id: "x", bpm: 0)])
        feed(&unknown, 170, from: 0, to: 2)
        let unknownStart = unknown.start()
        #expect(unknownStart?.pick == .none(.noTempo))
    }
}
