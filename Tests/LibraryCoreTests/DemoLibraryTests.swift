import LibraryCore
import Testing

@Suite("Demo library")
struct DemoLibraryTests {
    @Test("30 songs, five artists, six albums, one compilation, tempos 70–180 BPM")
    func plan() {
        let songs = DemoLibrary.songs
        #expect(songs.count == 30)
        #expect(Set(songs.filter { !$0.compilation }.map(\.artist)).count == 5)
        #expect(Set(songs.map(\.album)).count == 6)
        #expect(songs.filter(\.compilation).allSatisfy { $0.album == "Quintet Sampler" && $0.albumArtist == "Various Artists" })
        #expect(songs.map(\.bpm).min()! >= 70 && songs.map(\.bpm).max()! <= 180)
        #expect(Set(songs.map(\.relativePath)).count == 30, "every song has its own file")
        #expect(Set(songs.map(\.format)) == ["mp3", "flac", "m4a", "ogg"])
        for album in Set(songs.map(\.album)) {
            let tracks = songs.filter { $0.album == album }
            #expect(tracks.map(\.track).sorted() == Array(1...tracks.count) && tracks.allSatisfy { $0.trackTotal == tracks.count })
            #expect(DemoLibrary.coverColours[album] != nil)
        }
    }

    @Test("the planted cover and identical recording are found by RelatedSongs")
    func plantedLinks() {
        let albums = Dictionary(uniqueKeysWithValues: Set(DemoLibrary.songs.map(\.album)).sorted().enumerated().map { ($1, Int64($0)) })
        let catalog = DemoLibrary.songs.enumerated().map { i, song in
            RelatedSongs.Song(id: Int64(i), title: song.title, artists: [song.artist], composers: [song.composer],
                              albumID: albums[song.album], duration: song.seconds)
        }
        let related = RelatedSongs(catalog)
        let original = DemoLibrary.songs.firstIndex { $0.title == "Glass River" && $0.album == "Polar Drift" }!
        let cover = DemoLibrary.songs.firstIndex { $0.title == "Glass River" && $0.artist == "Maya Okafor" }!
        let again = DemoLibrary.songs.firstIndex { $0.title == "Glass River" && $0.compilation }!
        #expect(related.links(of: Int64(original)).covers == [Int64(cover)])
        #expect(related.links(of: Int64(original)).identical == [Int64(again)])
    }

    @Test("rendering is deterministic, and one seed and tempo give one recording")
    func render() {
        let song = DemoLibrary.songs[0]
        let a = DemoLibrary.render(song), b = DemoLibrary.render(song)
        #expect(a == b && a.duration == song.seconds && a.samples.allSatisfy { abs($0) <= 1 })
        let sampler = DemoLibrary.songs.first { $0.title == song.title && $0.compilation }!
        let c = DemoLibrary.render(sampler)
        #expect(Array(c.samples.prefix(44_100)) == Array(a.samples.prefix(44_100)), "the same recording, 2 s shorter")
        #expect(DemoLibrary.render(DemoLibrary.songs[1]) != a)
    }
}
