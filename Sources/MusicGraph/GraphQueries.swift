import Foundation

/// A node as the expansion answer shows it: what a page needs to draw and label it.
public struct GraphNodeInfo: Sendable, Encodable, Equatable {
    public var kind: NodeKind
    public var id: Int64
    public var name: String
    /// How many distinct nodes it is linked to.
    public var links: Int
    /// For a neighbour: the link to the expanded node (the first in ``EdgeKind``'s precedence)…
    public var edge: EdgeKind?
    /// …and every kind of link between the two, when more than one.
    public var edges: [EdgeKind]?
    /// For a neighbour: its links to nodes not in the answer (what a "more links" mark stands for).
    public var more: Int?
    // An album's or a song's artist, and a song's album.
    public var artist: String?
    public var artistID: Int64?
    public var album: String?
    public var albumID: Int64?
    public var year: Int?
    public var hasCover: Bool?
    public var track: Int?
    public var disc: Int?
    public var duration: Double?
    public var bpm: Double?
}

/// The answer of ``MusicGraph/expand(_:kinds:)``.
public struct GraphExpansion: Sendable, Encodable, Equatable {
    public var node: GraphNodeInfo
    public var neighbours: [GraphNodeInfo]
}

extension MusicGraph {
    /// A node with its facts (no link-specific fields).
    public func info(_ node: NodeRef) -> GraphNodeInfo? {
        guard let name = name(of: node) else { return nil }
        var info = GraphNodeInfo(kind: node.kind, id: node.id, name: name, links: degree(of: node))
        switch node.kind {
        case .artist:
            break
        case .album:
            let album = album(node.id)!
            info.artistID = album.artistID
            info.artist = artist(album.artistID)?.name
            info.year = album.year
            info.hasCover = album.hasCover
        case .song:
            let song = song(node.id)!
            info.artist = song.artist
            info.artistID = song.artistIDs.first
            info.albumID = song.albumID
            info.album = album(song.albumID)?.title
            info.hasCover = album(song.albumID)?.hasCover
            info.track = song.track
            info.disc = song.disc
            info.duration = song.duration
            info.bpm = song.bpm
        }
        return info
    }

    /// `node` and its neighbours joined by a link of the kinds in `kinds`, each neighbour with the
    /// link and the count of its links to nodes outside the answer, so a page can mark exactly
    /// the nodes that still hide something. Nil when the graph has no such node.
    ///
    /// Neighbours come in ``EdgeKind`` precedence order; within a kind an album's songs by disc
    /// and track, an artist's albums by year, everything else by name.
    public func expand(_ node: NodeRef, kinds: UInt8 = EdgeKind.all) -> GraphExpansion? {
        guard let me = index(of: node), var head = info(node) else { return nil }
        var chosen: [(index: Int32, mask: UInt8)] = []
        forEachNeighbour(me) { target, mask in
            if mask & kinds != 0 { chosen.append((target, mask & kinds)) }
        }
        var inAnswer = Set(chosen.map(\.index))
        inAnswer.insert(Int32(me))
        var neighbours: [GraphNodeInfo] = chosen.map { entry in
            var info = info(nodes[Int(entry.index)])!
            let kinds = EdgeKind.kinds(in: entry.mask)
            info.edge = kinds[0]
            info.edges = kinds.count > 1 ? kinds : nil
            var outside = 0
            forEachNeighbour(Int(entry.index)) { target, _ in if !inAnswer.contains(target) { outside += 1 } }
            info.more = outside
            return info
        }
        neighbours.sort(by: Self.displayOrder)
        head.links = degree(of: node)
        return GraphExpansion(node: head, neighbours: neighbours)
    }

    static func displayOrder(_ a: GraphNodeInfo, _ b: GraphNodeInfo) -> Bool {
        let ea = EdgeKind.allCases.firstIndex(of: a.edge!)!, eb = EdgeKind.allCases.firstIndex(of: b.edge!)!
        if ea != eb { return ea < eb }
        if a.kind != b.kind { return NodeKind.allCases.firstIndex(of: a.kind)! < NodeKind.allCases.firstIndex(of: b.kind)! }
        switch a.kind {
        case .song where a.albumID == b.albumID:
            let da = a.disc ?? 1, db = b.disc ?? 1
            if da != db { return da < db }
            let ta = a.track ?? Int.max, tb = b.track ?? Int.max
            if ta != tb { return ta < tb }
        case .album:
            let ya = a.year ?? Int.max, yb = b.year ?? Int.max
            if ya != yb { return ya < yb }
        default:
            break
        }
        let order = a.name.localizedStandardCompare(b.name)
        return order == .orderedSame ? a.id < b.id : order == .orderedAscending
    }

    // MARK: walks

    /// "Play a path": from the song `seed`, a walk of up to `count` songs (the seed first) over the
    /// graph's links that never repeats a song or plays another copy of a recording already played
    /// (an identical link), and that keeps each step within the tempo rule (``temposAgree``) where
    /// it can.
    ///
    /// Each step looks at the songs near the current one, closest first by the kind of way there:
    /// a cover or identical link, then the same album or artist, then linked artists (members,
    /// covers) and the artist's other albums; songs that only agree in tempo come last. Among those,
    /// songs whose tempo agrees with the current song's are taken before the others; ties are broken
    /// by a hash of `variant` and the song id, so a walk is repeatable and another `variant` gives
    /// another one. When nothing unplayed is near, the walk ends early.
    public func walk(from seed: Int64, count: Int, variant: UInt64 = 0) -> [Int64] {
        guard count > 0, let start = index(of: NodeRef(.song, seed)) else { return [] }
        var path = [start]
        var used = Set([Int32(start)])
        func markPlayed(_ i: Int) {
            used.insert(Int32(i))
            forEachNeighbour(i) { target, mask in if mask & EdgeKind.identical.bit != 0 { used.insert(target) } }
        }
        markPlayed(start)
        while path.count < count {
            let current = path[path.count - 1]
            guard let next = nextStep(from: current, avoiding: used, variant: variant) else { break }
            path.append(next)
            markPlayed(next)
        }
        return path.map { nodes[$0].id }
    }

    /// The best next song from song index `current`, or nil when no unplayed song is near.
    private func nextStep(from current: Int, avoiding used: Set<Int32>, variant: UInt64) -> Int? {
        let here = song(nodes[current].id)!.bpm
        // Breadth-first over every link but tempo, up to five links away (a song's album's
        // artist's other albums' songs), bounded so a huge compilation cannot stall a step.
        let structural = EdgeKind.all & ~EdgeKind.tempo.bit
        var depth: [Int32: Int] = [Int32(current): 0]
        var frontier = [Int32(current)]
        var found: [(index: Int32, tier: Int)] = []
        var visited = 0
        for level in 1...5 where !frontier.isEmpty && visited < 50_000 {
            var nextFrontier: [Int32] = []
            for node in frontier {
                forEachNeighbour(Int(node)) { target, mask in
                    guard mask & structural != 0, depth[target] == nil else { return }
                    depth[target] = level
                    visited += 1
                    nextFrontier.append(target)
                    if nodes[Int(target)].kind == .song, !used.contains(target) { found.append((target, level)) }
                }
            }
            frontier = nextFrontier
        }
        forEachNeighbour(current) { target, mask in
            if mask & EdgeKind.tempo.bit != 0, depth[target] == nil, !used.contains(target) { found.append((target, 6)) }
        }
        func agrees(_ i: Int32) -> Bool {
            guard let here, let there = song(nodes[Int(i)].id)?.bpm else { return false }
            return Self.temposAgree(here, there)
        }
        return found.min { a, b in
            let aa = agrees(a.index), ab = agrees(b.index)
            if aa != ab { return aa }
            if a.tier != b.tier { return a.tier < b.tier }
            let ha = Self.mix(variant, nodes[Int(a.index)].id), hb = Self.mix(variant, nodes[Int(b.index)].id)
            return ha == hb ? a.index < b.index : ha < hb
        }.map { Int($0.index) }
    }

    /// A SplitMix64 step of `variant` and `id`: a repeatable shuffle of ties.
    static func mix(_ variant: UInt64, _ id: Int64) -> UInt64 {
        var z = variant &+ UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: linked artists

    /// The artists linked to `artistID`, strongest first: band ↔ member links (weight 3 each),
    /// artists credited on the same songs or owning the albums its songs appear on (2 per song),
    /// artists of the covers and identical recordings of its songs (1 per link). Ties by name.
    public func linkedArtists(of artistID: Int64, limit: Int = 20) -> [(id: Int64, weight: Int)] {
        guard let me = index(of: NodeRef(.artist, artistID)) else { return [] }
        var weight: [Int32: Int] = [:]
        var songs = Set<Int32>()
        forEachNeighbour(me) { target, mask in
            if mask & EdgeKind.memberOf.bit != 0 { weight[target, default: 0] += 3 }
            if mask & EdgeKind.performedBy.bit != 0 { songs.insert(target) }
            if mask & EdgeKind.albumOf.bit != 0 {
                forEachNeighbour(Int(target)) { song, m in if m & EdgeKind.songOf.bit != 0 { songs.insert(song) } }
            }
        }
        func artists(of song: Int32) -> [Int32] {
            var out: [Int32] = []
            forEachNeighbour(Int(song)) { target, mask in
                if mask & EdgeKind.performedBy.bit != 0 { out.append(target) }
                if mask & EdgeKind.songOf.bit != 0 {
                    forEachNeighbour(Int(target)) { owner, m in if m & EdgeKind.albumOf.bit != 0 { out.append(owner) } }
                }
            }
            return out
        }
        for song in songs {
            for other in artists(of: song) { weight[other, default: 0] += 2 }
            forEachNeighbour(Int(song)) { target, mask in
                guard mask & (EdgeKind.cover.bit | EdgeKind.identical.bit) != 0 else { return }
                for other in artists(of: target) { weight[other, default: 0] += 1 }
            }
        }
        weight[Int32(me)] = nil
        return weight.map { (id: nodes[Int($0.key)].id, weight: $0.value, name: artist(nodes[Int($0.key)].id)?.name ?? "") }
            .sorted { a, b in
                if a.weight != b.weight { return a.weight > b.weight }
                let order = a.name.localizedStandardCompare(b.name)
                return order == .orderedSame ? a.id < b.id : order == .orderedAscending
            }
            .prefix(limit).map { ($0.id, $0.weight) }
    }
}
