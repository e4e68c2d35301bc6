import Foundation
import LibraryCore
@testable import QuintetServer
import Testing

@Suite("/api/runner/live conversation (RunnerLive, without the socket)")
struct RunnerLiveTests {
    /// Catalog songs with these tempos (ids 1, 2, …), as the catalog would give them.
    static func songs(_ tempos: [Double?]) throws -> [CatalogSong] {
        try tempos.enumerated().map { index, bpm in
            let object: [String: Any] = [
                "id": index + 1, "path": "Artist/Album/\(index + 1).mp3", "title": "Song \(index + 1)", "artist": "Artist",
                "album": "Album", "albumID": 1, "albumArtist": "Artist", "albumArtistID": 1, "format": "mp3",
                "codec": "mp3", "size": 1000, "compilation": false, "hasPicture": false, "playCount": 0, "created": 0, "hasCover": false,
                "bpm": bpm as Any? ?? NSNull(),
            ]
            return try JSONDecoder().decode(CatalogSong.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }

    static func parse(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// `seconds` of steps at `spm` as sample messages of one second each (m/s², 100 Hz), from `start` s.
    static func stepMessages(spm: Double, seconds: Int, start: Double = 0) -> [String] {
        let f = spm / 60
        return (0..<seconds).map { second in
            let rows = (0..<100).map { i -> String in
                let t = start + Double(second) + Double(i) / 100
                let phase = (t * f).truncatingRemainder(dividingBy: 1)
                let bump = (Int(t * f) % 2 == 0 ? 0.5 : 0.4) * exp(-pow((phase - 0.1) / 0.06, 2)) - 0.1 * sin(2 * .pi * phase)
                let g = 9.80665 * (1 + bump)
                return String(format: "[%.2f,%.4f,%.4f,%.4f]", t, g * 0.6, g * 0.8, 0.0)
            }
            return "{\"type\":\"samples\",\"samples\":[\(rows.joined(separator: ","))]}"
        }
    }

    @Test("samples in, a cadence a second out; start picks the song for it, half time counts")
    func cadenceAndSongs() throws {
        var live = RunnerLive(songs: try Self.songs([120, 86, 171, nil, 100]), seed: 1)
        let ready = Self.parse(live.greeting())
        #expect(ready["type"] as? String == "ready" && ready["songs"] as? Int == 4 && ready["state"] as? String == "idle")
        var cadences = [[String: Any]]()
        for message in Self.stepMessages(spm: 170, seconds: 15) {
            cadences += live.handle(message).map(Self.parse)
        }
        #expect(cadences.allSatisfy { $0["type"] as? String == "cadence" })
        #expect(cadences.count >= 10 && cadences.count <= 13)
        let spms = cadences.compactMap { $0["spm"] as? Double }
        #expect(spms.count >= 8 && spms.allSatisfy { abs($0 - 170) < 3 })
        #expect(cadences.last?["state"] as? String == "running")
        #expect((cadences.last?["steps"] as? Int ?? 0) > 20)
        let started = live.handle(#"{"type":"start"}"#).map(Self.parse)
        #expect(started.first?["type"] as? String == "state" && started.first?["state"] as? String == "running")
        let song = try #require(started.last)
        #expect(song["type"] as? String == "song" && song["cause"] as? String == "start" && song["random"] as? Bool == false)
        let chosen = try #require(song["song"] as? [String: Any])
        #expect(chosen["id"] as? Int == 3) // 171 BPM is nearest 170 (86 is heard at 172)
        #expect(chosen["stream_url"] as? String == "/api/library/songs/3/stream")
        #expect(song["fallback"] as? Bool == false)
        // next: 171 is played; 86 BPM heard at 172 (half time) fits.
        let next = Self.parse(try #require(live.handle(#"{"type":"next"}"#).first))
        #expect((next["song"] as? [String: Any])?["id"] as? Int == 2 && next["effective_bpm"] as? Double == 172)
        // song_ended: nothing within 4 % is left; the nearest comes, flagged, with the reason.
        let ended = Self.parse(try #require(live.handle(#"{"type":"song_ended"}"#).first))
        #expect(ended["cause"] as? String == "song_ended" && ended["fallback"] as? Bool == true)
        #expect((ended["reason"] as? String)?.contains("no song within ±4 %") == true)
        _ = live.handle(#"{"type":"next"}"#)
        let exhausted = Self.parse(try #require(live.handle(#"{"type":"next"}"#).first))
        #expect(exhausted["song"] is NSNull && exhausted["code"] as? String == "all_played")
    }

    @Test("without a cadence, start draws from the lowest band; sprint and ranges are settings")
    func settingsAndRandomStart() throws {
        var live = RunnerLive(songs: try Self.songs([150, 95, 90, 180]), seed: 5)
        let settings = Self.parse(try #require(live.handle(#"{"type":"settings","mode":"ranges","sprint":true,"auto_switch":false,"units":"m/s2"}"#).first))
        let values = try #require(settings["settings"] as? [String: Any])
        #expect(values["mode"] as? String == "ranges" && values["sprint"] as? Bool == true)
        #expect(values["auto_switch"] as? Bool == false && values["units"] as? String == "m/s2")
        let started = live.handle(#"{"type":"start"}"#).map(Self.parse)
        let song = try #require(started.last)
        #expect(song["random"] as? Bool == true && song["cadence"] is NSNull)
        let id = (song["song"] as? [String: Any])?["id"] as? Int
        #expect(id == 2 || id == 3) // the 80–100 BPM band
        #expect(Self.parse(live.handle(#"{"type":"settings","mode":"fastest"}"#)[0])["code"] as? String == "invalid_message")
        #expect(Self.parse(live.handle(#"{"type":"start"}"#)[0])["code"] as? String == "invalid_state")
    }

    @Test("pause clears the buffer and ignores samples; resume goes on; stop ends the conversation")
    func pauseResumeStop() throws {
        var live = RunnerLive(songs: try Self.songs([170]), seed: 2)
        let messages = Self.stepMessages(spm: 170, seconds: 30)
        for message in messages.prefix(10) { _ = live.handle(message) }
        _ = live.handle(#"{"type":"start"}"#)
        #expect(Self.parse(live.handle(#"{"type":"pause"}"#)[0])["state"] as? String == "paused")
        #expect(live.handle(messages[10]).isEmpty) // the sensor is off
        #expect(Self.parse(live.handle(#"{"type":"resume"}"#)[0])["state"] as? String == "running")
        var after = [[String: Any]]()
        for message in messages[11...] { after += live.handle(message).map(Self.parse) }
        let firstT = try #require(after.first?["t"] as? Double)
        #expect(firstT >= 13) // a new window after the resumption: 11 s + half a window
        #expect(Self.parse(live.handle(#"{"type":"stop"}"#)[0])["state"] as? String == "stopped")
        #expect(live.isStopped)
        #expect(Self.parse(live.handle(messages[0])[0])["code"] as? String == "stopped")
    }

    @Test("samples that outrun real time (a replayed log) are refused, live ones are taken")
    func realTime() throws {
        final class Clock: @unchecked Sendable { var seconds = 1000.0 }
        let clock = Clock()
        var live = RunnerLive(tempos: [(id: 1, bpm: 170)], lookup: { _ in nil }, seed: 1, now: { clock.seconds })
        let messages = Self.stepMessages(spm: 170, seconds: 90)
        var answers = [[String: Any]]()
        for message in messages.prefix(60) { answers += live.handle(message).map(Self.parse) } // 60 s of data at once: within the slack
        #expect(answers.allSatisfy { $0["type"] as? String == "cadence" })
        let refused = live.handle(messages[61]).map(Self.parse)
        #expect(refused.count == 1 && refused[0]["code"] as? String == "invalid_samples")
        #expect((refused[0]["message"] as? String)?.contains("ahead of real time") == true)
        clock.seconds += 30 // real time catches up
        #expect(live.handle(messages[62]).map(Self.parse).allSatisfy { $0["type"] as? String == "cadence" })
    }

    @Test("a song put on the never list during the run is not chosen next; taken off, it can be again")
    func neverWhileRunning() throws {
        final class NeverList: @unchecked Sendable { var ids = Set<Int64>() } // one test thread only
        let never = NeverList()
        var live = RunnerLive(songs: try Self.songs([170, 171, 130]), never: { never.ids }, seed: 1)
        for message in Self.stepMessages(spm: 170, seconds: 12) { _ = live.handle(message) }
        func chosen(_ type: String) throws -> [String: Any] {
            Self.parse(try #require(live.handle("{\"type\":\"\(type)\"}").last))
        }
        func id(_ song: [String: Any]) -> Int? { (song["song"] as? [String: Any])?["id"] as? Int }
        let first = try #require(id(try chosen("start")))   // 170 or 171, whichever is nearer the cadence
        #expect(first == 1 || first == 2)
        let other = 3 - first
        never.ids = [Int64(other)] // put on the list during the run: the far 130 comes instead of it
        let next = try chosen("next")
        #expect(id(next) == 3 && next["fallback"] as? Bool == true)
        #expect((next["song"] as? [String: Any])?["bpm"] as? Double == 130 && next["cadence"] as? Double != nil)
        never.ids = [] // off the list again: it is chosen
        #expect(id(try chosen("song_ended")) == other)
        #expect(try chosen("next")["code"] as? String == "all_played")
    }

    @Test("no song to give: an empty library, or songs without a BPM yet, each say so")
    func noSongs() throws {
        var empty = RunnerLive(songs: [], seed: 1)
        let none = Self.parse(try #require(empty.handle(#"{"type":"start"}"#).last))
        #expect(none["song"] is NSNull && none["code"] as? String == "empty_library")
        var unanalysed = RunnerLive(songs: try Self.songs([nil, nil]), seed: 1)
        #expect(Self.parse(unanalysed.greeting())["songs"] as? Int == 0)
        let noTempo = Self.parse(try #require(unanalysed.handle(#"{"type":"start"}"#).last))
        #expect(noTempo["code"] as? String == "no_tempo" && (noTempo["reason"] as? String)?.contains("BPM") == true)
    }

    @Test("a song that left the library since the run began is said, not sent")
    func songGone() throws {
        var live = RunnerLive(tempos: [(id: 7, bpm: 170), (id: 8, bpm: 168)], lookup: { _ in nil }, seed: 4)
        #expect(Self.parse(live.greeting())["songs"] as? Int == 2)
        let song = Self.parse(try #require(live.handle(#"{"type":"start"}"#).last))
        #expect(song["song"] is NSNull && song["code"] as? String == "not_found")
        #expect((song["reason"] as? String)?.contains("has left the library") == true)
    }

    @Test("hostile and malformed messages get an error and change nothing")
    func malformed() throws {
        var live = RunnerLive(songs: try Self.songs([170]), seed: 3)
        let cases: [(String, String)] = [
            ("", "invalid_message"), ("not json", "invalid_message"), ("[1,2,3]", "invalid_message"), ("{}", "invalid_message"),
            (#"{"type":42}"#, "invalid_message"), (#"{"type":"dance"}"#, "invalid_message"),
            (#"{"type":"samples"}"#, "invalid_samples"), (#"{"type":"samples","samples":"lots"}"#, "invalid_message"),
            (#"{"type":"samples","samples":[[0,1,2]]}"#, "invalid_samples"),
            (#"{"type":"samples","samples":[[0,1,2,true]]}"#, "invalid_message"),
            (#"{"type":"samples","samples":[[0,1e999,0,1]]}"#, "invalid_message"),
            (#"{"type":"settings","sprint":"yes"}"#, "invalid_message"),
            (#"{"type":"settings","units":"furlongs"}"#, "invalid_message"),
            (#"{"type":"next"}"#, "invalid_state"), (#"{"type":"resume"}"#, "invalid_state"),
            ("{\"type\":\"" + String(repeating: "x", count: 100_000) + "\"}", "invalid_message"),
        ]
        for (text, code) in cases {
            let answers = live.handle(text).map(Self.parse)
            #expect(answers.count == 1, "\(text.prefix(60))")
            #expect(answers.first?["type"] as? String == "error", "\(text.prefix(60))")
            #expect(answers.first?["code"] as? String == code, "\(text.prefix(60)) → \(answers)")
            #expect((answers.first?["message"] as? String)?.isEmpty == false)
        }
        let many = "{\"type\":\"samples\",\"samples\":[" + Array(repeating: "[0,0,0,1]", count: RunnerLive.maxSamplesPerMessage + 1).joined(separator: ",") + "]}"
        #expect(Self.parse(live.handle(many)[0])["code"] as? String == "invalid_samples")
        // Gravity-free samples: the unit cannot be told; the stream starts over, the run goes on.
        let flat = "{\"type\":\"samples\",\"samples\":[" + (0..<300).map { "[\(Double($0) / 100),0,0,0.01]" }.joined(separator: ",") + "]}"
        let answer = Self.parse(live.handle(flat)[0])
        #expect(answer["code"] as? String == "invalid_samples" && (answer["message"] as? String)?.contains("unit") == true)
        var cadences = 0
        for message in Self.stepMessages(spm: 170, seconds: 14, start: 10) { cadences += live.handle(message).count }
        #expect(cadences >= 8)
    }
}
