@testable import MusicGraph
import Testing

/// A small library with every kind of link, worked out by hand:
///
/// - The Lanterns (1): album "Lights" (10): Harbour (100, 120 BPM), Glass (101, 90 BPM)
/// - Ada North (2), a member of The Lanterns: album "Solo" (11): Glass (102, 240 BPM, a cover of
///   101), Duet (104, Ada North and Ben Cole, 60 BPM)
/// - Various (4): album "Mix" (12): Harbour (103, The Lanterns, 121 BPM, identical to 100),
///   Far (105, Ben Cole, 200 BPM)
///
/// Tempo: 100, 102 (double), 103 (+0.8 %) and 104 (half) agree with each other, except 102 with
/// 104 (four times); 101 and 105 agree with nobody.
enum Fixture {
    static let snapshot = GraphSnapshot(
        artists: [.init(id: 1, name: "The Lanterns"), .init(id: 2, name: "Ada North"), .init(id: 3, name: "Ben Cole"),
                  .init(id: 4, name: "Various")],
        albums: [.init(id: 10, title: "Lights", artistID: 1, year: 2019, hasCover: true),
                 .init(id: 11, title: "Solo", artistID: 2, year: 2021),
                 .init(id: 12, title: "Mix", artistID: 4)],
        songs: [.init(id: 100, title: "Harbour", albumID: 10, artist: "The Lanterns", artistIDs: [1], track: 1, duration: 200, bpm: 120),
                .init(id: 101, title: "Glass", albumID: 10, artist: "The Lanterns", artistIDs: [1], track: 2, bpm: 90),
                .init(id: 102, title: "Glass", albumID: 11, artist: "Ada North", artistIDs: [2], track: 1, bpm: 240),
                .init(id: 103, title: "Harbour", albumID: 12, artist: "The Lanterns", artistIDs: [1], track: 1, duration: 201, bpm: 121),
                .init(id: 104, title: "Duet", albumID: 11, artist: "Ada North & Ben Cole", artistIDs: [2, 3], track: 2, bpm: 60),
                .init(id: 105, title: "Far", albumID: 12, artist: "Ben Cole", artistIDs: [3], track: 2, bpm: 200)],
        covers: [(101, 102)], identical: [(100, 103)],
        members: [MemberLink(band: 1, member: 2, sources: ["user"])])
    static let graph = MusicGraph(snapshot)
}

@Suite("MusicGraph: nodes, links, expansion, walks")
struct MusicGraphTests {
    @Test("node references parse KIND:ID and Subsonic ids, and nothing else")
    func parsing() {
        #expect(NodeRef(parsing: "artist:12") == NodeRef(.artist, 12))
        #expect(NodeRef(parsing: "album:5") == NodeRef(.album, 5))
        #expect(NodeRef(parsing: "song:99") == NodeRef(.song, 99))
        #expect(NodeRef(parsing: "ar-12") == NodeRef(.artist, 12))
        #expect(NodeRef(parsing: "al-5") == NodeRef(.album, 5))
        #expect(NodeRef(parsing: "tr-99") == NodeRef(.song, 99))
        for bad in ["", "song", "song:", "song:0", "song:-1", "song:1e3", "song: 1", "genre:1", "pl-3", "tr-", "x-1",
                    "song:" + String(repeating: "9", count: 19), "song:١٢"] {
            #expect(NodeRef(parsing: bad) == nil, "\(bad)")
        }
        #expect(NodeRef(.song, 7).description == "song:7")
    }

    @Test("tempo links: within 3 %, at half or double time, never four times")
    func tempo() {
        #expect(MusicGraph.temposAgree(120, 123.5))
        #expect(!MusicGraph.temposAgree(120, 124))
        #expect(MusicGraph.temposAgree(120, 240))
        #expect(MusicGraph.temposAgree(120, 59))
        #expect(!MusicGraph.temposAgree(60, 240))
        #expect(!MusicGraph.temposAgree(0, 0))
        let links = Set(Fixture.graph.neighbours(of: NodeRef(.song, 100))
            .filter { $0.kinds.contains(.tempo) }.map(\.node.id))
        #expect(links == [102, 103, 104])
        let pairs = Set(MusicGraph.tempoPairs(Fixture.snapshot.songs).map { "\($0.0)-\($0.1)" })
        #expect(pairs == ["100-102", "100-103", "100-104", "102-103", "103-104"])
    }

    @Test("tempo links are capped at each song's nearest agreeing songs")
    func tempoCap() {
        let songs = (1...50).map { GraphSnapshot.Song(id: Int64($0), title: "s\($0)", albumID: 1, artist: "a", artistIDs: [1],
                                                       bpm: 120 + Double($0) * 0.01) }
        let pairs = MusicGraph.tempoPairs(songs)
        var degree: [Int64: Int] = [:]
        for (a, b) in pairs { degree[a, default: 0] += 1; degree[b, default: 0] += 1 }
        // Each song names its 4 nearest; symmetric closure can add a few more, never all 49.
        #expect(degree.values.allSatisfy { $0 >= MusicGraph.tempoNeighbours && $0 <= 2 * MusicGraph.tempoNeighbours })
        #expect(pairs.contains { $0 == (1, 2) } && !pairs.contains { $0 == (1, 50) })
    }

    @Test("every kind of link, once per pair, with all its kinds")
    func links() {
        let g = Fixture.graph
        #expect(g.nodeCount == 4 + 3 + 6)
        func kinds(_ a: NodeRef, _ b: NodeRef) -> [EdgeKind] { g.neighbours(of: a).first { $0.node == b }?.kinds ?? [] }
        #expect(kinds(NodeRef(.artist, 1), NodeRef(.album, 10)) == [.albumOf])
        #expect(kinds(NodeRef(.album, 10), NodeRef(.song, 101)) == [.songOf])
        // A song credited to its album's artist has no performed_by link; a duet partner has.
        #expect(kinds(NodeRef(.artist, 1), NodeRef(.song, 100)) == [])
        #expect(kinds(NodeRef(.artist, 3), NodeRef(.song, 104)) == [.performedBy])
        #expect(kinds(NodeRef(.artist, 2), NodeRef(.song, 104)) == [])
        #expect(kinds(NodeRef(.artist, 1), NodeRef(.song, 103)) == [.performedBy])
        #expect(kinds(NodeRef(.song, 102), NodeRef(.song, 101)) == [.cover])
        #expect(kinds(NodeRef(.song, 103), NodeRef(.song, 100)) == [.identical, .tempo])
        #expect(kinds(NodeRef(.artist, 2), NodeRef(.artist, 1)) == [.memberOf])
        // Symmetric, and edges() lists each pair once.
        var count = 0
        for node in g.nodes {
            for (other, k) in g.neighbours(of: node) {
                count += 1
                #expect(g.neighbours(of: other).contains { $0.node == node && $0.kinds == k })
            }
        }
        #expect(g.edges().count * 2 == count)
        #expect(g.linkCount * 2 == count)
        #expect(g.edges(kinds: EdgeKind.tempo.bit).count == 5)
    }

    @Test("expanding an album: its songs in track order, its artist, and what each still hides")
    func expandAlbum() throws {
        let answer = try #require(Fixture.graph.expand(NodeRef(.album, 10)))
        #expect(answer.node.name == "Lights" && answer.node.links == 3 && answer.node.hasCover == true)
        #expect(answer.neighbours.map { "\($0.kind.rawValue):\($0.id)" } == ["song:100", "song:101", "artist:1"])
        #expect(answer.neighbours.map { $0.edge } == [.songOf, .songOf, .albumOf])
        // 100 also links 102, 103, 104; 101 its cover 102; the artist song 103 and member 2.
        #expect(answer.neighbours.map { $0.more } == [3, 1, 2])
        #expect(answer.neighbours[0].album == "Lights" && answer.neighbours[0].bpm == 120)
    }

    @Test("expanding a song, with every kind and with a filter")
    func expandSong() throws {
        let all = try #require(Fixture.graph.expand(NodeRef(.song, 100)))
        // The album, the identical recording, then the tempo links: 102 and 104 share album 11, so by track.
        #expect(all.neighbours.map(\.id) == [10, 103, 102, 104])
        #expect(all.neighbours[1].edge == .identical && all.neighbours[1].edges == [.identical, .tempo])
        #expect(all.neighbours[2].edge == .tempo && all.neighbours[2].edges == nil)
        let only = try #require(Fixture.graph.expand(NodeRef(.song, 100), kinds: EdgeKind.identical.bit))
        #expect(only.neighbours.map(\.id) == [103])
        // 103's links outside {100, 103}: album 12, artist 1, songs 102 and 104.
        #expect(only.neighbours[0].more == 4)
        #expect(Fixture.graph.expand(NodeRef(.song, 999)) == nil)
        #expect(Fixture.graph.expand(NodeRef(.artist, 100)) == nil)
    }

    @Test("a walk never repeats a song nor plays a copy of a recording already played, and keeps the tempo where it can")
    func walk() {
        let g = Fixture.graph
        for variant: UInt64 in [0, 1, 2, 3] {
            let path = g.walk(from: 100, count: 10, variant: variant)
            #expect(path.first == 100)
            #expect(Set(path).count == path.count)
            #expect(!path.contains(103), "103 is the same recording as 100")
            // Everything else is reachable, so the walk takes all of it and ends early.
            #expect(Set(path) == [100, 101, 102, 104, 105])
            // 102 and 104 agree with 120 BPM: one of them comes next.
            #expect([102, 104].contains(path[1]))
            #expect(g.walk(from: 100, count: 10, variant: variant) == path)
        }
        #expect(g.walk(from: 100, count: 2).count == 2)
        #expect(g.walk(from: 999, count: 5).isEmpty)
        #expect(g.walk(from: 100, count: 0).isEmpty)
    }

    @Test("linked artists: members first, then shared songs and albums, then covers and identical recordings")
    func linkedArtists() {
        let linked = Fixture.graph.linkedArtists(of: 1)
        #expect(linked.map(\.id) == [2, 4])
        #expect(linked.map(\.weight) == [4, 3])
        #expect(Fixture.graph.linkedArtists(of: 1, limit: 1).map(\.id) == [2])
        #expect(Fixture.graph.linkedArtists(of: 77).isEmpty)
    }

    @Test("a generated library of 20,000 songs: symmetric links, bounded tempo degree, every song on its album")
    func generated() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            return z ^ (z >> 27)
        }
        let artists = (1...500).map { GraphSnapshot.Artist(id: Int64($0), name: "Artist \($0)") }
        let albums = (1...2000).map { GraphSnapshot.Album(id: Int64($0), title: "Album \($0)", artistID: Int64($0 % 500 + 1)) }
        let songs = (1...20000).map { i -> GraphSnapshot.Song in
            let album = Int64(i % 2000 + 1)
            let owner = album % 500 + 1
            let guest = next() % 10 == 0 ? [Int64(next() % 500 + 1)] : []
            return .init(id: Int64(i), title: "Song \(next() % 5000)", albumID: album, artist: "x", artistIDs: [owner] + guest,
                         bpm: next() % 7 == 0 ? nil : 60 + Double(next() % 14000) / 100)
        }
        let g = MusicGraph(GraphSnapshot(artists: artists, albums: albums, songs: songs))
        #expect(g.nodeCount == 22500)
        for id in [1, 777, 20000] as [Int64] {
            let n = g.neighbours(of: NodeRef(.song, id))
            #expect(n.filter { $0.kinds.contains(.songOf) }.count == 1)
            #expect(n.filter { $0.kinds.contains(.tempo) }.count <= 3 * MusicGraph.tempoNeighbours)
        }
        let tempo = g.edges(kinds: EdgeKind.tempo.bit)
        #expect(tempo.allSatisfy { g.nodes[Int($0.a)].kind == .song && g.nodes[Int($0.b)].kind == .song })
        #expect(tempo.count >= songs.count / 2)
        let path = g.walk(from: 1, count: 50)
        #expect(path.count == 50 && Set(path).count == 50)
    }
}
