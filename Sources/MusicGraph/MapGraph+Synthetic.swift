import Foundation

extension MapGraph {
    /// A seeded synthetic catalog graph of `songs` songs, for `make bench-graph` and the map's
    /// long e2e check (`quintet library graph synthetic`, `import-synthetic`):
    ///
    /// - artists with 1–6 albums each (a geometric draw, mean about 2.5), albums of 6–15 songs;
    /// - 1 album in 40 a compilation of a "various artists" artist, its songs credited to
    ///   other artists (`performed_by`);
    /// - 8 % of songs feature a second artist (`performed_by`);
    /// - 3 % of songs are a cover of an earlier song by another artist (`cover`);
    /// - 2 % of songs are the identical recording of an earlier song of the same artist on
    ///   another album (`identical`; live and best-of albums);
    /// - 1 artist in 50 is a member of another artist, a band (`member_of`).
    ///
    /// Ids count from 1 per kind. The same songs and seed give the same graph.
    public static func synthetic(songs songCount: Int, seed: UInt64 = 1) -> MapGraph {
        var graph = MapGraph()
        var rng = SplitMix(seed: seed ^ 0x4D41_5053)
        func below(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        func chance(_ p: Double) -> Bool { Double(rng.next() >> 11) / Double(1 << 53) < p }
        var artists: [Int32] = [], albums: [Int32] = [], songNodes: [Int32] = []
        var songArtist: [Int32] = [], songAlbum: [Int32] = []
        let various = graph.addNode(.artist, id: 1)
        artists.append(various)
        while songNodes.count < songCount {
            let artist = graph.addNode(.artist, id: Int64(artists.count + 1))
            artists.append(artist)
            if artists.count > 2, chance(0.02) {
                graph.addEdge(artist, artists[1 + below(artists.count - 2)], .memberOf)
            }
            var albumCount = 1
            while albumCount < 6, chance(0.6) { albumCount += 1 }
            for _ in 0..<albumCount where songNodes.count < songCount {
                let compilation = chance(1.0 / 40)
                let album = graph.addNode(.album, id: Int64(albums.count + 1))
                albums.append(album)
                graph.addEdge(album, compilation ? various : artist, .albumOf)
                for _ in 0..<(6 + below(10)) where songNodes.count < songCount {
                    let song = graph.addNode(.song, id: Int64(songNodes.count + 1))
                    let performer = compilation ? artists[1 + below(artists.count - 1)] : artist
                    songNodes.append(song); songArtist.append(performer); songAlbum.append(album)
                    graph.addEdge(song, album, .songOf)
                    if compilation { graph.addEdge(song, performer, .performedBy) }
                    if chance(0.08), artists.count > 2 {
                        let guest = artists[1 + below(artists.count - 1)]
                        if guest != performer { graph.addEdge(song, guest, .performedBy) }
                    }
                    let earlier = songNodes.count - 1
                    if earlier > 0, chance(0.03) {
                        let original = below(earlier)
                        if songArtist[original] != performer { graph.addEdge(song, songNodes[original], .cover) }
                    } else if earlier > 0, chance(0.02 / 0.97) {
                        // The same artist's earlier song on another album.
                        var k = earlier - 1
                        while k >= 0, k >= earlier - 60, songArtist[k] != performer || songAlbum[k] == album { k -= 1 }
                        if k >= 0, k >= earlier - 60 { graph.addEdge(song, songNodes[k], .identical) }
                    }
                }
            }
        }
        return graph
    }
}
