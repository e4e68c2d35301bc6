import Foundation
import LibraryCore
import Locking
import MusicGraph

/// The server's memory graph: the ``MusicGraph`` of the catalog as it is now, built on first use
/// and rebuilt when the catalog has changed (a rescan, a BPM found or set by hand, a band ↔ member
/// link).
///
/// Whether it changed is a fingerprint query (``Catalog/graphFingerprint()``), asked at most once
/// every ``recheck`` so a burst of requests (a page expanding nodes) costs one query; one build
/// at a time, and requests during a build wait for it instead of building again. Call
/// ``current()`` from blocking code (``Blocking/run(_:)``).
public final class GraphService: Sendable {
    private struct Built: Sendable {
        var graph: MusicGraph
        var fingerprint: String
        var checked: ContinuousClock.Instant
    }

    private let catalog: Catalog
    private let recheck: Duration
    private let built = Lock<Built?>(nil)
    private let building = Lock<Void>(())

    public init(catalog: Catalog, recheck: Duration = .seconds(2)) {
        self.catalog = catalog
        self.recheck = recheck
    }

    /// The graph of the catalog as it was at most ``recheck`` ago.
    public func current() throws -> MusicGraph {
        if let fresh = fresh() { return fresh }
        return try building.withLock { _ in
            if let fresh = fresh() { return fresh }
            let fingerprint = try catalog.graphFingerprint()
            let now = ContinuousClock.now
            if let same = built.withLock({ state -> MusicGraph? in
                guard let old = state, old.fingerprint == fingerprint else { return nil }
                state!.checked = now
                return old.graph
            }) { return same }
            let graph = MusicGraph(try GraphSnapshot(catalog: catalog))
            built.withLock { $0 = Built(graph: graph, fingerprint: fingerprint, checked: now) }
            return graph
        }
    }

    /// Forgets the graph: the next ``current()`` checks the catalog at once.
    public func invalidate() {
        built.withLock { state in state?.checked = ContinuousClock.now - recheck - .seconds(1) }
    }

    private func fresh() -> MusicGraph? {
        built.withLock { state in
            guard let state, ContinuousClock.now - state.checked < recheck else { return nil }
            return state.graph
        }
    }
}
