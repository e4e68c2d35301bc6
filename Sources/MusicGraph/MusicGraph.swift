import Foundation

/// The music library as a graph: artists, albums and songs, and the links between them
/// (``EdgeKind``). Built once from a ``GraphSnapshot`` and then read only, by any number of
/// threads: the server's *memory graph* (everything known), of which a page draws a part (the
/// *screen graph*, what the user expanded).
///
/// Nodes have dense indices (artists, then albums, then songs, each by id); links are kept
/// per node as a sorted list of distinct neighbours with a mask of the kinds that join them
/// (compressed sparse rows), so a node's neighbours cost one slice and the whole graph a few
/// flat arrays (a 100,000-song library: about 10 MB).
///
/// ```swift
/// let graph = MusicGraph(snapshot)
/// let answer = graph.expand(NodeRef(.song, 12))!   // the song, its album, artists, covers…
/// let path = graph.walk(from: 12, count: 20)          // "play a path"
/// ```
public struct MusicGraph: Sendable {
    /// The tempo rule: two songs agree when their BPMs are within this ratio of each other, or of
    /// half or double the other.
    public static let tempoTolerance = 0.03
    /// Tempo links are kept to each song's nearest agreeing songs (by tempo ratio): a tempo agrees
    /// with a tenth of a library, and a link to all of them would say nothing.
    public static let tempoNeighbours = 4

    public let snapshot: GraphSnapshot
    /// Node index → node.
    public let nodes: [NodeRef]
    private let indexOf: [NodeRef: Int32]
    /// Node `i`'s neighbours are `targets[offsets[i]..<offsets[i + 1]]`, with the kinds `masks[…]`.
    private let offsets: [Int32]
    private let targets: [Int32]
    private let masks: [UInt8]
    private let artistAt: [Int64: Int]
    private let albumAt: [Int64: Int]
    private let songAt: [Int64: Int]

    public init(_ snapshot: GraphSnapshot) {
        self.snapshot = snapshot
        var nodes: [NodeRef] = []
        nodes.reserveCapacity(snapshot.artists.count + snapshot.albums.count + snapshot.songs.count)
        var artistAt: [Int64: Int] = [:], albumAt: [Int64: Int] = [:], songAt: [Int64: Int] = [:]
        for (i, a) in snapshot.artists.enumerated().sorted(by: { $0.element.id < $1.element.id }) {
            artistAt[a.id] = i
            nodes.append(NodeRef(.artist, a.id))
        }
        for (i, a) in snapshot.albums.enumerated().sorted(by: { $0.element.id < $1.element.id }) {
            albumAt[a.id] = i
            nodes.append(NodeRef(.album, a.id))
        }
        for (i, s) in snapshot.songs.enumerated().sorted(by: { $0.element.id < $1.element.id }) {
            songAt[s.id] = i
            nodes.append(NodeRef(.song, s.id))
        }
        precondition(nodes.count < 1 << 24, "the music graph holds at most 16,777,215 nodes")
        var indexOf: [NodeRef: Int32] = [:]
        indexOf.reserveCapacity(nodes.count)
        for (i, node) in nodes.enumerated() { indexOf[node] = Int32(i) }

        // Every link once per direction, as (from: 24 bits, to: 32 bits, kind bit: 8) in a UInt64 so one sort
        // groups them by node and neighbour.
        var packed: [UInt64] = []
        packed.reserveCapacity(snapshot.songs.count * 8)
        func link(_ a: NodeRef, _ b: NodeRef, _ kind: EdgeKind) {
            guard a != b, let i = indexOf[a], let j = indexOf[b] else { return }
            packed.append(UInt64(i) << 40 | UInt64(j) << 8 | UInt64(kind.bit))
            packed.append(UInt64(j) << 40 | UInt64(i) << 8 | UInt64(kind.bit))
        }
        var albumArtist: [Int64: Int64] = [:]
        for album in snapshot.albums {
            albumArtist[album.id] = album.artistID
            link(NodeRef(.artist, album.artistID), NodeRef(.album, album.id), .albumOf)
        }
        for song in snapshot.songs {
            link(NodeRef(.album, song.albumID), NodeRef(.song, song.id), .songOf)
            let owner = albumArtist[song.albumID]
            for artist in song.artistIDs where artist != owner {
                link(NodeRef(.artist, artist), NodeRef(.song, song.id), .performedBy)
            }
        }
        for (a, b) in snapshot.covers { link(NodeRef(.song, a), NodeRef(.song, b), .cover) }
        for (a, b) in snapshot.identical { link(NodeRef(.song, a), NodeRef(.song, b), .identical) }
        for m in snapshot.members { link(NodeRef(.artist, m.member), NodeRef(.artist, m.band), .memberOf) }
        for (a, b) in Self.tempoPairs(snapshot.songs) { link(NodeRef(.song, a), NodeRef(.song, b), .tempo) }
        packed.sort()

        var offsets = [Int32](repeating: 0, count: nodes.count + 1)
        var targets: [Int32] = [], masks: [UInt8] = []
        targets.reserveCapacity(packed.count)
        masks.reserveCapacity(packed.count)
        var previous: UInt64 = .max
        for value in packed {
            let pair = value >> 8
            if pair == previous {
                masks[masks.count - 1] |= UInt8(truncatingIfNeeded: value)
                continue
            }
            previous = pair
            targets.append(Int32(truncatingIfNeeded: pair & 0xFFFF_FFFF))
            masks.append(UInt8(truncatingIfNeeded: value))
            offsets[Int(pair >> 32) + 1] += 1
        }
        for i in 0..<nodes.count { offsets[i + 1] += offsets[i] }

        self.nodes = nodes
        self.indexOf = indexOf
        self.offsets = offsets
        self.targets = targets
        self.masks = masks
        self.artistAt = artistAt
        self.albumAt = albumAt
        self.songAt = songAt
    }

    // MARK: reading

    public var nodeCount: Int { nodes.count }
    /// Links counted once per pair of nodes (a pair joined in two ways counts once).
    public var linkCount: Int { targets.count / 2 }

    public func index(of node: NodeRef) -> Int? { indexOf[node].map(Int.init) }
    public func contains(_ node: NodeRef) -> Bool { indexOf[node] != nil }

    /// The distinct nodes linked to `node`, each with the kinds of link, in index order.
    public func neighbours(of node: NodeRef) -> [(node: NodeRef, kinds: [EdgeKind])] {
        guard let i = indexOf[node] else { return [] }
        return neighbourIndices(Int(i)).map { (nodes[Int($0.index)], EdgeKind.kinds(in: $0.mask)) }
    }

    /// How many distinct nodes `node` is linked to.
    public func degree(of node: NodeRef) -> Int {
        guard let i = indexOf[node] else { return 0 }
        return Int(offsets[Int(i) + 1] - offsets[Int(i)])
    }

    func neighbourIndices(_ i: Int) -> [(index: Int32, mask: UInt8)] {
        (Int(offsets[i])..<Int(offsets[i + 1])).map { (targets[$0], masks[$0]) }
    }

    func forEachNeighbour(_ i: Int, _ body: (Int32, UInt8) -> Void) {
        for k in Int(offsets[i])..<Int(offsets[i + 1]) { body(targets[k], masks[k]) }
    }

    /// Every link once (`a < b`) with the kinds joining it, restricted to the kinds in `mask`:
    /// the whole-library map's input.
    public func edges(kinds mask: UInt8 = EdgeKind.all) -> [(a: Int32, b: Int32, mask: UInt8)] {
        var out: [(Int32, Int32, UInt8)] = []
        out.reserveCapacity(targets.count / 2)
        for i in 0..<nodes.count {
            for k in Int(offsets[i])..<Int(offsets[i + 1]) where targets[k] > Int32(i) && masks[k] & mask != 0 {
                out.append((Int32(i), targets[k], masks[k] & mask))
            }
        }
        return out
    }

    public func artist(_ id: Int64) -> GraphSnapshot.Artist? { artistAt[id].map { snapshot.artists[$0] } }
    public func album(_ id: Int64) -> GraphSnapshot.Album? { albumAt[id].map { snapshot.albums[$0] } }
    public func song(_ id: Int64) -> GraphSnapshot.Song? { songAt[id].map { snapshot.songs[$0] } }

    /// The name a node shows: an artist's name, an album's or a song's title.
    public func name(of node: NodeRef) -> String? {
        switch node.kind {
        case .artist: artist(node.id)?.name
        case .album: album(node.id)?.title
        case .song: song(node.id)?.title
        }
    }

    // MARK: tempo

    /// How far two tempos are from agreeing, as |ln(ratio)| after folding half and double time.
    static func tempoDistance(_ a: Double, _ b: Double) -> Double {
        let r = log(a / b)
        return min(abs(r), abs(r - M_LN2), abs(r + M_LN2))
    }

    /// Whether two tempos agree (within ``tempoTolerance``, or at half or double time).
    public static func temposAgree(_ a: Double, _ b: Double) -> Bool {
        guard a > 0, b > 0 else { return false }
        return tempoDistance(a, b) <= log(1 + tempoTolerance) + 1e-12
    }

    /// The tempo links: each song to its ``tempoNeighbours`` nearest agreeing songs (ties by id),
    /// made symmetric. Sorted by ln(BPM), each song's nearest are found by walking outwards from its
    /// place in three windows (same tempo, half, double): O(n log n) for the whole library.
    static func tempoPairs(_ songs: [GraphSnapshot.Song]) -> [(Int64, Int64)] {
        let limit = log(1 + tempoTolerance) + 1e-12
        let timed = songs.compactMap { s -> (lb: Double, id: Int64)? in
            guard let bpm = s.bpm, bpm.isFinite, bpm > 0 else { return nil }
            return (log(bpm), s.id)
        }.sorted { $0.lb == $1.lb ? $0.id < $1.id : $0.lb < $1.lb }
        guard timed.count > 1 else { return [] }
        let keys = timed.map(\.lb)
        func lowerBound(_ value: Double) -> Int {
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if keys[mid] < value { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var pairs = Set<PairKey>()
        for (i, me) in timed.enumerated() {
            var best: [(d: Double, id: Int64)] = []
            func consider(_ j: Int, _ centre: Double) -> Bool {
                let d = abs(keys[j] - centre)
                guard d <= limit else { return false }
                if j != i { best.append((MusicGraph.tempoDistance(exp(keys[j]), exp(me.lb)), timed[j].id)) }
                return true
            }
            for centre in [me.lb, me.lb - M_LN2, me.lb + M_LN2] {
                let start = lowerBound(centre)
                var up = start, down = start - 1, taken = 0
                // Walk outwards, nearest first, until both sides leave the window or enough are seen.
                while taken < tempoNeighbours + 1 {
                    let upDistance = up < keys.count ? abs(keys[up] - centre) : .infinity
                    let downDistance = down >= 0 ? abs(keys[down] - centre) : .infinity
                    if upDistance == .infinity && downDistance == .infinity { break }
                    if upDistance <= downDistance {
                        if !consider(up, centre) { up = keys.count } else { up += 1; taken += 1 }
                    } else {
                        if !consider(down, centre) { down = -1 } else { down -= 1; taken += 1 }
                    }
                }
            }
            best.sort { $0.d == $1.d ? $0.id < $1.id : $0.d < $1.d }
            var seen = Set<Int64>()
            for candidate in best where seen.count < tempoNeighbours && candidate.id != me.id {
                guard seen.insert(candidate.id).inserted else { continue }
                pairs.insert(PairKey(me.id, candidate.id))
            }
        }
        return pairs.map { ($0.a, $0.b) }.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }

    struct PairKey: Hashable {
        let a: Int64, b: Int64
        init(_ x: Int64, _ y: Int64) { (a, b) = x < y ? (x, y) : (y, x) }
    }
}
