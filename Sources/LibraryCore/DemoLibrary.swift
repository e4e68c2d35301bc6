import AudioCore
import Foundation

/// The demo music library of the embedded defaults: 30 songs by five invented artists on
/// six albums, with a compilation, a cover pair and an identical-recording pair planted so
/// every part of the library graph has something to show. Pure data plus the audio of each
/// song; `DemoLibraryWriter` (in the server module) encodes and tags the files with ffmpeg.
public enum DemoLibrary {
    /// One planned song.
    public struct Song: Sendable, Equatable {
        public var artist: String
        public var album: String
        public var albumArtist: String
        public var title: String
        public var composer: String
        public var track: Int
        public var trackTotal: Int
        public var year: Int
        public var genre: String
        public var bpm: Double
        /// Seconds of audio.
        public var seconds: Double
        public var compilation: Bool
        /// "mp3", "flac", "m4a" or "ogg".
        public var format: String
        /// Seed of the tune; two songs with one seed and tempo are the same recording.
        public var seed: UInt64

        /// Where the file goes, relative to the library root: `Album Artist/Album/NN - Title.ext`.
        public var relativePath: String {
            let safe = { (s: String) in s.replacingOccurrences(of: "/", with: "-") }
            return "\(safe(albumArtist))/\(safe(album))/" + String(format: "%02d", track) + " - \(safe(title)).\(format)"
        }
    }

    /// An album's cover colour (RGB hex), one per album.
    public static let coverColours: [String: String] = [
        "Polar Drift": "2E5E8C", "Harbour Songs": "C0563B", "Fold Here": "E0B43A",
        "Canciones del Sur": "8C2E6A", "Updrafts": "3A9E6B", "Quintet Sampler": "444444",
    ]

    /// The 30 songs. Planted: Maya Okafor's "Glass River" covers Northern Lights' (same
    /// composer, other artist); the sampler's "Glass River" is Northern Lights' own
    /// recording again (same artist, 2 s shorter, another album); the sampler is a compilation.
    public static let songs: [Song] = {
        var list: [Song] = []
        func album(_ artist: String, _ name: String, _ year: Int, _ genre: String, _ format: String,
                   _ tracks: [(title: String, composer: String, bpm: Double)]) {
            for (i, t) in tracks.enumerated() {
                list.append(Song(artist: artist, album: name, albumArtist: artist, title: t.title, composer: t.composer,
                                 track: i + 1, trackTotal: tracks.count, year: year, genre: genre, bpm: t.bpm,
                                 seconds: 24, compilation: false, format: format, seed: UInt64(list.count + 1)))
            }
        }
        album("Northern Lights", "Polar Drift", 2019, "Rock", "mp3", [
            ("Glass River", "Ada North", 128), ("Aurora Street", "Ada North", 140), ("Cold Engine", "Ben North", 160),
            ("Slow Thaw", "Ada North", 72), ("Northbound", "Ben North", 118), ("Last Ferry", "Ada North", 96),
        ])
        album("Maya Okafor", "Harbour Songs", 2021, "Soul", "flac", [
            ("Lanterns", "Maya Okafor", 84), ("Glass River", "Ada North", 92), ("Salt and Honey", "Maya Okafor", 104),
            ("Tidewater", "Maya Okafor", 76), ("Harbour Lights", "Maya Okafor", 110),
        ])
        album("The Paper Boats", "Fold Here", 2018, "Indie Pop", "m4a", [
            ("Origami Heart", "Tom Reed", 124), ("Crease", "Tom Reed", 132), ("Weather Vane", "Ivy Reed", 146),
            ("Kite String", "Tom Reed", 100), ("Fold Here", "Ivy Reed", 88),
        ])
        album("Lucía Ferrer", "Canciones del Sur", 2020, "Latin", "ogg", [
            ("Mañana Azul", "Lucía Ferrer", 98), ("Río Lento", "Lucía Ferrer", 70), ("Café de Noche", "Lucía Ferrer", 112),
            ("Señales", "Lucía Ferrer", 126), ("Sur", "Lucía Ferrer", 150),
        ])
        album("Kite & Crane", "Updrafts", 2022, "Electronic", "mp3", [
            ("Thermal", "Kite & Crane", 174), ("Updraft", "Kite & Crane", 180), ("Glide Path", "Kite & Crane", 136),
            ("Feather Math", "Kite & Crane", 122), ("Altitude", "Kite & Crane", 166),
        ])
        let glassRiver = list[0]
        var sampler: [Song] = [
            Song(artist: "Northern Lights", album: "Quintet Sampler", albumArtist: "Various Artists", title: "Glass River",
                 composer: "Ada North", track: 1, trackTotal: 4, year: 2023, genre: "Rock", bpm: glassRiver.bpm,
                 seconds: glassRiver.seconds - 2, compilation: true, format: "flac", seed: glassRiver.seed),
        ]
        for (i, pick) in [(13, 2), (18, 3), (23, 4)] {
            var song = list[i]
            song.album = "Quintet Sampler"; song.albumArtist = "Various Artists"; song.track = pick; song.trackTotal = 4
            song.year = 2023; song.compilation = true; song.format = "flac"
            sampler.append(song)
        }
        return list + sampler
    }()

    /// The audio of a song: a kick on every beat, a hi-hat on every eighth, a snare on 2 and
    /// 4 and a bass line, at the song's tempo; mono, 44.1 kHz. Same seed and tempo, same
    /// samples.
    public static func render(_ song: Song, sampleRate: Double = 44_100) -> PCMBuffer {
        var rng = SplitMix64(seed: song.seed)
        let count = Int(song.seconds * sampleRate)
        var out = [Float](repeating: 0, count: count)
        let beat = 60 / song.bpm
        let roots: [Double] = [55, 65.41, 73.42, 49].map { $0 * pow(2, Double(rng.next() % 3) / 12) }
        func add(_ start: Double, _ length: Double, _ sample: (Double) -> Double) {
            let first = Int(start * sampleRate), n = Int(length * sampleRate)
            for i in 0..<n where first + i < count { out[first + i] += Float(sample(Double(i) / sampleRate)) }
        }
        var t = 0.0, index = 0
        while t < song.seconds {
            add(t, 0.15) { s in 0.8 * sin(2 * .pi * (50 + 90 * exp(-s * 30)) * s) * exp(-s * 20) }   // kick
            if index % 2 == 1 { add(t, 0.12) { s in 0.35 * Double.random(in: -1...1, using: &rng) * exp(-s * 28) } } // snare
            for half in 0..<2 { add(t + Double(half) * beat / 2, 0.03) { s in 0.12 * Double.random(in: -1...1, using: &rng) * exp(-s * 120) } }
            let root = roots[(index / 4) % roots.count]
            add(t, beat * 0.9) { s in 0.25 * sin(2 * .pi * root * s) * exp(-s * 2) } // bass
            t += beat; index += 1
        }
        return PCMBuffer(sampleRate: sampleRate, channelCount: 1, samples: out.map { max(-1, min(1, $0 * 0.8)) })
    }
}
