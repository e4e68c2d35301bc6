import LibraryCore

extension GraphSnapshot {
    /// The snapshot of a catalog's rows (``Catalog/graphRows()``) and its band ↔ member links.
    public init(_ rows: CatalogGraphRows, members: [MemberLink] = []) {
        var covers: [(Int64, Int64)] = [], identical: [(Int64, Int64)] = []
        for (id, links) in rows.related.sorted(by: { $0.key < $1.key }) {
            covers += links.covers.filter { $0 > id }.map { (id, $0) }
            identical += links.identical.filter { $0 > id }.map { (id, $0) }
        }
        self.init(artists: rows.artists.map { Artist(id: $0.id, name: $0.name) },
                  albums: rows.albums.map { Album(id: $0.id, title: $0.title, artistID: $0.artistID, year: $0.year, hasCover: $0.hasCover) },
                  songs: rows.songs.map { Song(id: $0.id, title: $0.title, albumID: $0.albumID, artist: $0.artist,
                                               artistIDs: $0.artistIDs, track: $0.track, disc: $0.disc,
                                               duration: $0.duration, bpm: $0.bpm) },
                  covers: covers, identical: identical, members: members)
    }

    /// The snapshot of a catalog as it is now: its rows and its merged band ↔ member links. The one
    /// way the server's graph, the whole-library map and the command line read the catalog.
    public init(catalog: Catalog) throws {
        let members = try catalog.memberLinks().map { MemberLink(band: $0.band, member: $0.member, sources: $0.sources) }
        self.init(try catalog.graphRows(), members: members)
    }
}
