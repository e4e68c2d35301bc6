import AudioCore
import Foundation
import LibraryCore
import QuintetStore
import Testing

@Suite("Catalog: scanning into SQLite, names, links, rescans, playlists and stars")
struct CatalogTests {
    /// A small library with every rule the catalog applies.
    static func plantLibrary(_ f: CatalogFixture) throws {
        let r = f.root
        // An album by a band; a feat. credit; composer set for the cover rule.
        try FLACFixture.write(r, "Band/First/01.flac", ["TITLE=Glass River", "ARTIST=The Band", "ALBUM=First",
                                                         "TRACKNUMBER=1", "DATE=2001", "GENRE=Rock", "COMPOSER=Ada North",
                                                         "BPM=128"], seconds: 200, picture: true)
        try FLACFixture.write(r, "Band/First/02.flac", ["TITLE=Second Song", "ARTIST=The Band feat. Guest Singer",
                                                         "ALBUM=First", "TRACKNUMBER=2", "DATE=2001", "GENRE=Rock"])
        // The same band, other spellings of its name (case, spaces, NFD accents) → one artist.
        try FLACFixture.write(r, "Band/Live/01.flac", ["TITLE=Glass River", "ARTIST=  the   BAND ", "ALBUM=Live",
                                                        "COMPOSER=Ada North", "DATE=2005"], seconds: 203.9)
        try FLACFixture.write(r, "Band/Live/02.flac", ["TITLE=Glass River (Live)", "ARTIST=The Band", "ALBUM=Live",
                                                        "COMPOSER=Ada North", "DATE=2005"], seconds: 200)
        try FLACFixture.write(r, "Cafe/01.flac", ["TITLE=Noche", "ARTIST=Cafe\u{301} Tacvba", "ALBUM=Sur"])
        try FLACFixture.write(r, "Cafe/02.flac", ["TITLE=Dia", "ARTIST=Caf\u{E9} Tacvba", "ALBUM=Sur"])
        // Another artist's version: a cover (same title and composer, other artist).
        try FLACFixture.write(r, "Singer/Songs/01.flac", ["TITLE=glass  river", "ARTIST=Maya", "ALBUMARTIST=Maya",
                                                           "ALBUM=Songs", "COMPOSER=ada north"], seconds: 180)
        // A compilation without album artist → Various Artists; the band's recording again, 4.1 s apart.
        try FLACFixture.write(r, "Comp/01.flac", ["TITLE=Glass River", "ARTIST=The Band", "ALBUM=Hits",
                                                   "COMPILATION=1", "COMPOSER=Ada North"], seconds: 204.1)
        try FLACFixture.write(r, "Comp/02.flac", ["TITLE=Songbird", "ARTIST=Maya", "ALBUM=Hits", "COMPILATION=1"])
        // Two artists as separate values (a duet).
        try FLACFixture.write(r, "Duet/01.flac", ["TITLE=Together", "ARTIST=Maya", "ARTIST=The Band", "ALBUM=Duets",
                                                   "ALBUMARTIST=Maya"])
        // Not audio, corrupt and empty files.
        try Data("just text".utf8).write(to: r.appendingPathComponent("Band/notes.txt"))
        try Data("not a flac".utf8).write(to: r.appendingPathComponent("Band/broken.flac"))
        try Data().write(to: r.appendingPathComponent("Band/empty.mp3"))
        // An ID3v2.3 tag (TIT2 "Cut Short") and not one audio frame: tags alone are no song.
        let text = Array("Cut Short".utf8)
        let frame = Array("TIT2".utf8) + [0, 0, 0, UInt8(text.count + 1), 0, 0, 0] + text
        try Data(Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame)
            .write(to: r.appendingPathComponent("Band/tagonly.mp3"))
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: r.appendingPathComponent("Cafe/folder.jpg"))
        // A FLAC cut in the middle of its PICTURE block (the last metadata block): STREAMINFO
        // and the comments are whole, but not one audio frame follows. Tags alone are no song.
        let full = FLACFixture.bytes(comments: ["TITLE=Cut Picture", "ARTIST=The Band"], seconds: 100, picture: true)
        try Data(full.prefix(full.count - 256 - 2 - 30)).write(to: r.appendingPathComponent("Band/cutpicture.flac"))
    }

    @Test("a scan stores songs, albums, artists; reports bad files per path and goes on")
    func scan() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        let report = try f.scan()
        #expect(report.files == 13)
        #expect(report.songs == 10)
        #expect(Set(report.errors.map(\.path)) == ["Band/broken.flac", "Band/cutpicture.flac", "Band/empty.mp3", "Band/tagonly.mp3"])
        #expect(report.errors.first { $0.path == "Band/tagonly.mp3" }?.reason.contains("no audio") == true)
        #expect(report.errors.first { $0.path == "Band/cutpicture.flac" }?.reason.contains("no audio") == true)
        #expect(report.errors.allSatisfy { !$0.reason.isEmpty })
        let artists = try f.catalog.artists(userID: nil).map(\.name)
        // "The Band", "  the   BAND " are one artist; "Café" composed and decomposed are one.
        #expect(artists.sorted() == ["Café Tacvba", "Guest Singer", "Maya", "The Band", "Various Artists"].sorted())
        // Names are stored in NFC whatever the file wrote.
        #expect(artists.contains { Array($0.unicodeScalars) == Array("Caf\u{E9} Tacvba".unicodeScalars) })
        let band = try f.catalog.artists(userID: nil).first { $0.name == "The Band" }!
        #expect(band.sortName == "Band")
        #expect(try f.catalog.albums(ofArtist: band.id, userID: nil).map(\.title) == ["First", "Live"])
        // The band is credited on its own songs, the feat. song, the compilation track and the duet.
        #expect(try f.catalog.songs(ofArtist: band.id, userID: nil).count == 6)
        let guest = try f.catalog.artists(userID: nil).first { $0.name == "Guest Singer" }!
        #expect(try f.catalog.songs(ofArtist: guest.id, userID: nil).map(\.title) == ["Second Song"])
        let hits = try f.catalog.albums(userID: nil).first { $0.title == "Hits" }!
        #expect(hits.artist == "Various Artists")
        #expect(hits.compilation)
        #expect(hits.songCount == 2)
        let glass = try f.song(at: "Band/First/01.flac")
        #expect(glass.albumArtist == "The Band")
        #expect(glass.bpm == 128 && glass.bpmSource == "tag")
        #expect(glass.year == 2001 && glass.genre == "Rock" && glass.track == 1)
        #expect(abs((glass.duration ?? 0) - 200) < 0.001)
        #expect(glass.hasPicture)
        let duet = try f.song("Together")
        #expect(duet.artist == "Maya; The Band")
        #expect(duet.albumArtist == "Maya")
        #expect(try f.catalog.counts() == CatalogCounts(songs: 10, albums: 6, artists: 5, genres: 1))
        #expect(try f.catalog.genres() == [CatalogGenre(name: "Rock", songCount: 2, albumCount: 1)])
    }

    @Test("covers and identical recordings follow the original app's rules through the title index")
    func related() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        let studio = try f.song(at: "Band/First/01.flac")
        let live = try f.song(at: "Band/Live/01.flac")
        let cover = try f.song("glass  river")
        let compilation = try f.song(at: "Comp/01.flac")
        let links = try f.catalog.related(songID: studio.id)
        // Maya's version is a cover; the band's own live take (same composer) is not.
        #expect(links.covers.map(\.id) == [cover.id])
        // 3.9 s apart on another album: identical; 4.1 s apart: not; "(Live)" in the title: never.
        #expect(links.identical.map(\.id) == [live.id])
        // The compilation's take is 0.2 s from the live one: identical to it, not to the studio one.
        #expect(try f.catalog.related(songID: compilation.id).identical.map(\.id) == [live.id])
        #expect(try f.catalog.related(songID: cover.id).covers.map(\.id).sorted() == [studio.id, live.id, compilation.id].sorted())
        let all = try f.catalog.allRelated()
        #expect(all[studio.id] == RelatedSongs.Links(covers: [cover.id], identical: [live.id]))
        #expect(throws: CatalogError.self) { try f.catalog.related(songID: 999_999) }
    }

    @Test("rescans read only new and changed files, drop deleted ones, keep ids, plays and stars")
    func rescan() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        let unchanged = try f.scan()
        #expect(unchanged.read == 3) // only the three unreadable files are tried again
        #expect(unchanged.unchanged == 10)
        let user = try f.user("ada")
        let song = try f.song("Second Song")
        try f.catalog.recordPlay(songID: song.id)
        try f.catalog.setStarred(true, kind: .song, ids: [song.id], userID: user)
        // Change a file's tags (size changes), delete another, add a third.
        try FLACFixture.write(f.root, "Band/First/02.flac", ["TITLE=Second Song (Edit)", "ARTIST=The Band",
                                                                "ALBUM=First", "TRACKNUMBER=2"])
        try FileManager.default.removeItem(at: f.root.appendingPathComponent("Cafe/02.flac"))
        try FLACFixture.write(f.root, "New/01.flac", ["TITLE=Fresh", "ARTIST=Newcomer", "ALBUM=Debut"])
        let report = try f.scan()
        #expect(report.read == 5) // changed + new + the three unreadable ones
        #expect(report.removed == 1)
        #expect(report.songs == 10)
        let edited = try f.catalog.song(id: song.id, userID: user)
        #expect(edited.title == "Second Song (Edit)")
        #expect(edited.playCount == 1 && edited.starred != nil)
        // The guest credit went with the edit: the artist is gone.
        #expect(!(try f.catalog.artists(userID: nil).map(\.name).contains("Guest Singer")))
        #expect(try f.catalog.artists(userID: nil).map(\.name).contains("Newcomer"))
    }

    @Test("a re-read asked by a migration keeps the analysed BPM; a changed file loses it")
    func rereadKeepsAnalysis() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try FLACFixture.write(f.root, "A/01.flac", ["TITLE=One", "ARTIST=A", "ALBUM=X"])
        try FLACFixture.write(f.root, "A/02.flac", ["TITLE=Two", "ARTIST=A", "ALBUM=X"])
        _ = try f.scan()
        // As the BPM worker stores an analysis, then as migrations v4/v5 mark songs for re-reading.
        try f.database.pool.write { db in
            try db.execute(sql: "UPDATE library_song SET bpm = 97.5, bpm_source = 'analysis'")
            try db.execute(sql: "UPDATE library_song SET mtime = -1 WHERE path = 'A/01.flac'")
        }
        try FLACFixture.write(f.root, "A/02.flac", ["TITLE=Two (Edit)", "ARTIST=A", "ALBUM=X"])
        let report = try f.scan()
        #expect(report.read == 2)
        let kept = try f.song("One"), edited = try f.song("Two (Edit)")
        #expect(kept.bpm == 97.5 && kept.bpmSource == "analysis")
        #expect(edited.bpm == nil && edited.bpmSource == nil)
    }

    @Test("a link to a song elsewhere in the library is no second song, scan after scan")
    func linkedSong() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        let fm = FileManager.default
        try FLACFixture.write(f.root, "Zed/Album/01.flac", ["TITLE=Linked Tune", "ARTIST=Zed", "ALBUM=Album"])
        try fm.createDirectory(at: f.root.appendingPathComponent("A Favourites"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: f.root.appendingPathComponent("A Favourites/tune.flac").path,
                                  withDestinationPath: "../Zed/Album/01.flac")
        let first = try f.scan()
        #expect(first.songs == 1 && first.files == 1)
        #expect(first.errors.map(\.path) == ["A Favourites/tune.flac"])
        let song = try f.song("Linked Tune")
        #expect(song.path == "Zed/Album/01.flac")
        // Rescans keep the same path and song: nothing read, nothing removed, no flapping.
        for _ in 0..<3 {
            let again = try f.scan()
            #expect(again.songs == 1 && again.read == 0 && again.removed == 0 && again.unchanged == 1)
            #expect(again.errors.map(\.path) == ["A Favourites/tune.flac"])
            #expect(try f.song("Linked Tune").id == song.id)
        }
    }

    @Test("a different library folder replaces the catalog")
    func newRoot() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        let other = f.root.deletingLastPathComponent().appendingPathComponent("other")
        try FLACFixture.write(other, "a.flac", ["TITLE=Only", "ARTIST=One"])
        let report = try CatalogScanner(catalog: f.catalog).scan(root: other)
        #expect(report.songs == 1 && report.artists == 1)
        #expect(try f.catalog.root()?.path == other.standardizedFileURL.path)
        #expect(throws: CatalogError.self) {
            try CatalogScanner(catalog: f.catalog).scan(root: other.appendingPathComponent("missing"))
        }
    }

    @Test("covers: a folder image wins, else a song's embedded picture, else none")
    func covers() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        let albums = Dictionary(uniqueKeysWithValues: try f.catalog.albums(userID: nil).map { ($0.title, $0) })
        #expect(try f.catalog.cover(albumID: albums["Sur"]!.id) == .file("Cafe/folder.jpg"))
        #expect(try f.catalog.cover(albumID: albums["First"]!.id) == .embedded("Band/First/01.flac"))
        #expect(try f.catalog.cover(albumID: albums["Live"]!.id) == nil)
        #expect(albums["Sur"]!.hasCover && albums["First"]!.hasCover && !albums["Live"]!.hasCover)
        let band = try f.catalog.artists(userID: nil).first { $0.name == "The Band" }!
        #expect(try f.catalog.cover(artistID: band.id) == .embedded("Band/First/01.flac"))
    }

    @Test("paths never leave the library folder")
    func pathSafety() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        for bad in ["../etc/passwd", "/etc/passwd", "Band/../../x", "", "a//b", "a/./b", "a\0b"] {
            #expect(throws: CatalogError.self) { try f.catalog.fileURL(relative: bad) }
        }
        #expect(try f.catalog.fileURL(relative: "Band/First/01.flac").path.hasPrefix(f.root.standardizedFileURL.path))
    }

    @Test("playlists: create, read, update by index, ownership, delete")
    func playlists() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        let ada = try f.user("ada"), bob = try f.user("bob")
        let ids = try f.catalog.songs(userID: nil).map(\.id)
        let list = try f.catalog.createPlaylist(name: "  Run  ", songIDs: [ids[0], ids[1], ids[0]], ownerID: ada)
        var (playlist, songs) = try f.catalog.playlist(id: list, userID: ada)
        #expect(playlist.name == "Run" && playlist.songCount == 3 && playlist.owner == "ada")
        #expect(songs.map(\.id) == [ids[0], ids[1], ids[0]])
        try f.catalog.updatePlaylist(id: list, userID: ada, name: "Run 2", add: [ids[2]], removeIndexes: [0])
        (playlist, songs) = try f.catalog.playlist(id: list, userID: ada)
        #expect(playlist.name == "Run 2" && songs.map(\.id) == [ids[1], ids[0], ids[2]])
        #expect(throws: CatalogError.self) { try f.catalog.updatePlaylist(id: list, userID: ada, removeIndexes: [9]) }
        // Private: bob neither sees nor changes it; public: he sees it but still cannot change it.
        #expect(throws: CatalogError.self) { try f.catalog.playlist(id: list, userID: bob) }
        #expect(try f.catalog.playlists(visibleTo: bob).isEmpty)
        try f.catalog.updatePlaylist(id: list, userID: ada, isPublic: true)
        #expect(try f.catalog.playlists(visibleTo: bob).map(\.id) == [list])
        #expect(throws: CatalogError.forbidden("only the owner may change playlist \(list)")) {
            try f.catalog.deletePlaylist(id: list, userID: bob)
        }
        #expect(throws: CatalogError.self) { try f.catalog.createPlaylist(name: " ", songIDs: [], ownerID: ada) }
        #expect(throws: CatalogError.self) { try f.catalog.createPlaylist(name: "x", songIDs: [999_999], ownerID: ada) }
        try f.catalog.replaceSongs(playlistID: list, songIDs: [ids[3]], name: nil, userID: ada)
        #expect(try f.catalog.playlist(id: list, userID: ada).1.map(\.id) == [ids[3]])
        try f.catalog.deletePlaylist(id: list, userID: ada)
        #expect(try f.catalog.playlists(visibleTo: ada).isEmpty)
    }

    @Test("stars, plays, album lists, random songs and search")
    func listsAndSearch() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        try Self.plantLibrary(f)
        _ = try f.scan()
        let ada = try f.user("ada")
        let album = try f.catalog.albums(userID: nil).first { $0.title == "Live" }!
        try f.catalog.setStarred(true, kind: .album, ids: [album.id], userID: ada)
        #expect(try f.catalog.starred(userID: ada).albums.map(\.id) == [album.id])
        #expect(try f.catalog.albumList(.starred, size: 10, offset: 0, userID: ada).map(\.id) == [album.id])
        try f.catalog.setStarred(false, kind: .album, ids: [album.id], userID: ada)
        #expect(try f.catalog.starred(userID: ada).albums.isEmpty)
        #expect(throws: CatalogError.self) { try f.catalog.setStarred(true, kind: .song, ids: [999_999], userID: ada) }
        let song = try f.song("Noche")
        try f.catalog.recordPlay(songID: song.id)
        try f.catalog.recordPlay(songID: song.id)
        #expect(try f.catalog.song(id: song.id).playCount == 2)
        #expect(try f.catalog.albumList(.frequent, size: 10, offset: 0, userID: nil).map(\.title) == ["Sur"])
        #expect(try f.catalog.albumList(.recent, size: 10, offset: 0, userID: nil).map(\.title) == ["Sur"])
        #expect(try f.catalog.albumList(.alphabeticalByName, size: 3, offset: 0, userID: nil).map(\.title) == ["Duets", "First", "Hits"])
        #expect(try f.catalog.albumList(.byYear, size: 10, offset: 0, fromYear: 2006, toYear: 2000, userID: nil).map(\.title) == ["Live", "First"])
        #expect(try f.catalog.albumList(.byGenre, size: 10, offset: 0, genre: "rock", userID: nil).map(\.title) == ["First"])
        #expect(try f.catalog.albumList(.random, size: 100, offset: 0, userID: nil).count == 6)
        #expect(try f.catalog.randomSongs(count: 3, userID: nil).count == 3)
        #expect(try f.catalog.randomSongs(count: 10, genre: "Rock", userID: nil).count == 2)
        let found = try f.catalog.search("glass", userID: nil)
        #expect(found.songs.count == 5)
        #expect(try f.catalog.search("river live", userID: nil).songs.map(\.title).contains("Glass River (Live)"))
        #expect(try f.catalog.search("café", userID: nil).artists.map(\.name) == ["Café Tacvba"])
        #expect(try f.catalog.search("100%_\\", userID: nil).songs.isEmpty) // LIKE wildcards are escaped
        #expect(try f.catalog.search("", songCount: 100, userID: nil).songs.count == 10)
    }
}

@Suite("Artist credits")
struct ArtistCreditTests {
    @Test("feat. markers split credits; ampersands and slashes inside names do not")
    func credits() {
        #expect(ArtistCredit.names(artists: ["Maya feat. Ada North & Ben North"], title: nil) == ["Maya", "Ada North", "Ben North"])
        #expect(ArtistCredit.names(artists: ["A (Feat. B, C)"], title: nil) == ["A", "B", "C"])
        #expect(ArtistCredit.names(artists: ["A ft. B"], title: nil) == ["A", "B"])
        #expect(ArtistCredit.names(artists: ["A featuring B"], title: nil) == ["A", "B"])
        #expect(ArtistCredit.names(artists: ["Kite & Crane"], title: nil) == ["Kite & Crane"])
        #expect(ArtistCredit.names(artists: ["AC/DC"], title: nil) == ["AC/DC"])
        #expect(ArtistCredit.names(artists: ["Feather Math", "Featherweight"], title: nil) == ["Feather Math", "Featherweight"])
        #expect(ArtistCredit.names(artists: ["Maya", "the band", "The  Band"], title: nil) == ["Maya", "the band"])
        #expect(ArtistCredit.names(artists: ["Maya"], title: "Song (feat. Guest)") == ["Maya", "Guest"])
        #expect(ArtistCredit.names(artists: [], title: "Song (feat. Guest)") == [])
        #expect(ArtistCredit.names(artists: ["", "  "], title: nil) == [])
    }
}

@Suite("BPM queue")
struct BPMQueueTests {
    @Test("songs without a BPM tag are analysed once; failures wait for the file to change")
    func queue() throws {
        let f = try CatalogFixture()
        defer { f.remove() }
        // A real click track at 120 BPM as WAV (no tags: the title comes from the file name).
        let beat = 60.0 / 120, rate = 22_050.0
        var samples = [Float](repeating: 0, count: Int(rate * 20))
        var t = 0.0
        while t < 20 {
            let start = Int(t * rate)
            for i in 0..<min(400, samples.count - start) { samples[start + i] = Float(sin(Double(i) * 0.3) * exp(-Double(i) / 80)) }
            t += beat
        }
        try FileManager.default.createDirectory(at: f.root.appendingPathComponent("a"), withIntermediateDirectories: true)
        try WAVWriter.write(PCMBuffer(sampleRate: rate, channelCount: 1, samples: samples), to: f.root.appendingPathComponent("a/01 - Click.wav"))
        try FLACFixture.write(f.root, "a/02.flac", ["TITLE=Tagged", "ARTIST=X", "BPM=99"])
        try FLACFixture.write(f.root, "a/03.flac", ["TITLE=Undecodable", "ARTIST=X"]) // no real FLAC frames
        _ = try f.scan()
        let queue = BPMQueue(catalog: f.catalog)
        #expect(try queue.status().pending == 2)
        #expect(try queue.analyzeNext() != nil)
        #expect(try queue.analyzeNext() != nil)
        #expect(try queue.analyzeNext() == nil)
        let status = try queue.status()
        #expect(status.pending == 0 && status.failed == 1 && status.analyzed == 2 && status.state == "idle")
        let click = try f.song("Click")
        #expect(click.bpmSource == "analysis")
        #expect(abs((click.bpm ?? 0) - 120) < 1.5)
        #expect(try f.song("Tagged").bpm == 99)
        // The failed file changes: a rescan clears the failure and the queue tries again.
        try FLACFixture.write(f.root, "a/03.flac", ["TITLE=Undecodable", "ARTIST=X", "GENRE=changed"])
        _ = try f.scan()
        #expect(try queue.status().pending == 1)
    }
}

@Suite("Related songs from the catalog")
struct CatalogRelatedTests {
    @Test("the catalog's links (SQL scans, ids) equal the in-memory ones on a crowded random catalog")
    func catalogMatchesMemory() throws {
        let fixture = try CatalogFixture()
        defer { try? FileManager.default.removeItem(at: fixture.data.deletingLastPathComponent()) }
        var random = SystemRandomNumberGenerator()
        let titles = ["Yesterday", "yesterday ", "YESTERDAY", "Yesterday (Live)", "Intro", "Blue", "blue  moon", "Blue Moon"]
        let names = ["Ada", "ada", " Ada ", "Ben", "Cleo", "Dee", "Édith", "E\u{301}dith", ""]
        let songs = (0..<1_500).map { i -> RelatedSongs.Song in
            func pick(_ upTo: Int) -> [String] {
                (0..<Int.random(in: 0...upTo, using: &random)).map { _ in names.randomElement(using: &random)! }
            }
            return RelatedSongs.Song(id: Int64(i), title: titles.randomElement(using: &random)!, artists: pick(2), composers: pick(2),
                                     albumID: Int64.random(in: 1...6, using: &random),
                                     duration: 120 + Double(Int.random(in: 0...100, using: &random)) / 10)
        }
        try fixture.catalog.fillForBenchmark(songs)
        let memory = RelatedSongs(songs).allLinks()
        let stored = try fixture.catalog.allRelated()
        #expect(!memory.isEmpty && memory.values.contains { !$0.covers.isEmpty } && memory.values.contains { !$0.identical.isEmpty })
        // The benchmark fill stores song i under id i + 1.
        let shifted = Dictionary(uniqueKeysWithValues: memory.map { id, links in
            (id + 1, RelatedSongs.Links(covers: links.covers.map { $0 + 1 }, identical: links.identical.map { $0 + 1 }))
        })
        let differing = Set(stored.keys).union(shifted.keys).filter { stored[$0] != shifted[$0] }.sorted()
        #expect(differing.isEmpty, "\(differing.count) songs differ, e.g. \(differing.prefix(3).map { ($0, stored[$0], shifted[$0]) })")
        // One song's links through the title-key path agree with the whole-catalog pass.
        for id in stored.keys.prefix(20) {
            let one = try fixture.catalog.related(songID: id)
            #expect(one.covers.map(\.id) == stored[id]!.covers && one.identical.map(\.id) == stored[id]!.identical)
        }
    }
}
