import LibraryCore
import Testing

@Suite("Name keys")
struct NameKeyTests {
    @Test("NFC, case folding and whitespace, nothing more")
    func normalisation() {
        #expect(NameKey("  Ève   Angeli ") == NameKey("ève angeli"))
        #expect(NameKey("E\u{0301}ve") == NameKey("\u{00C9}ve"), "decomposed and precomposed accents are one name")
        #expect(NameKey("ROCK\tand\u{00A0}roll") == NameKey("rock and roll"))
        #expect(NameKey("Song (Live)") != NameKey("Song"))
        #expect(NameKey("Café") != NameKey("Cafe"), "accents are kept")
        #expect(NameKey("AC/DC") != NameKey("ACDC"))
        #expect(NameKey.set(["B", "a", " A ", ""]) == [NameKey("a"), NameKey("b")])
        // The ASCII fast path folds case and whitespace exactly as the definition says.
        for text in ["  Hello\tWorld\n", "MiXeD   Case", "\u{1C}x\u{1F}y", "a\u{0B}b\u{0C}c\rd", "", "   "] {
            #expect(NameKey(text).value == text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
        }
    }
}

@Suite("Related songs")
struct RelatedSongsTests {
    typealias Song = RelatedSongs.Song

    static let catalog: [Song] = [
        Song(id: 1, title: "Yesterday", artists: ["The Beatles"], composers: ["Lennon", "McCartney"], albumID: 10, duration: 125.0),
        Song(id: 2, title: "yesterday ", artists: ["Ray Charles"], composers: ["McCartney", "Lennon"], albumID: 20, duration: 182.0),
        Song(id: 3, title: "Yesterday", artists: ["The Beatles"], composers: ["Lennon", "McCartney"], albumID: 11, duration: 128.9),
        Song(id: 4, title: "Yesterday", artists: ["the beatles"], composers: ["Lennon", "McCartney"], albumID: 12, duration: 129.1),
        Song(id: 5, title: "Yesterday", artists: ["The Beatles"], composers: ["Lennon", "McCartney"], albumID: 10, duration: 125.5),
        Song(id: 6, title: "Yesterday (Live)", artists: ["Ray Charles"], composers: ["Lennon", "McCartney"], albumID: 21, duration: 190),
        Song(id: 7, title: "Yesterday", artists: ["Someone"], composers: [], albumID: 30, duration: 125),
        Song(id: 8, title: "Yesterday", artists: ["Another"], composers: [], albumID: 31, duration: 125),
        Song(id: 9, title: "Intro", artists: [], composers: [], albumID: 40, duration: 60),
        Song(id: 10, title: "Intro", artists: [], composers: [], albumID: 41, duration: 60),
    ]

    @Test("covers: same title and composers, other artists; never the band's own versions")
    func covers() {
        let related = RelatedSongs(Self.catalog)
        #expect(related.links(of: 1).covers == [2])
        #expect(related.links(of: 2).covers == [1, 3, 4, 5])
        #expect(related.links(of: 6).covers.isEmpty, "a different title is a different song")
        #expect(related.links(of: 7).covers.isEmpty, "no composers, no cover link")
    }

    @Test("identical: same title and artists, within ±4.0 s, on another album")
    func identical() {
        let related = RelatedSongs(Self.catalog)
        #expect(related.links(of: 1).identical == [3], "3.9 s apart: identical; 4.1 s apart: not; same album: not")
        #expect(related.links(of: 3).identical == [1, 4, 5])
        #expect(related.links(of: 9).identical.isEmpty, "songs without artists are not linked")
        let edge = RelatedSongs([
            Song(id: 1, title: "T", artists: ["A"], composers: [], albumID: 1, duration: 200.0),
            Song(id: 2, title: "T", artists: ["A"], composers: [], albumID: 2, duration: 204.0),
            Song(id: 3, title: "T", artists: ["A"], composers: [], albumID: nil, duration: 200),
            Song(id: 4, title: "T", artists: ["A"], composers: [], albumID: nil, duration: 200),
        ])
        #expect(edge.links(of: 1).identical == [2, 3, 4], "exactly 4.0 s counts")
        #expect(edge.links(of: 3).identical == [1, 2], "two songs without an album are not 'different albums'")
    }

    @Test("all links at once agree with the per-song answers")
    func allLinks() {
        let related = RelatedSongs(Self.catalog)
        let all = related.allLinks()
        for song in Self.catalog {
            let one = related.links(of: song.id)
            #expect(all[song.id] ?? RelatedSongs.Links() == one)
        }
        #expect(related.links(of: 999) == RelatedSongs.Links())
    }
}
