import AudioCore
import Foundation
import LibraryCore
import Logging
import MusicGraph
import QuintetStore
import ServiceLifecycle
import Locking

/// The library as the server runs it: the catalog, the folder it describes, the scan in
/// progress (one at a time) and the BPM queue working in the background whenever no scan runs.
///
/// A swift-service-lifecycle `Service`: ``run()`` owns every piece of long work as child
/// tasks (the first scan, rescans asked for by routes, the BPM worker) and returns once they
/// have all stopped, at graceful shutdown or when its task is cancelled. Blocking work (the
/// scan's reads and writes, ffmpeg, SQLite) runs on the blocking pool with a
/// `CancellationFlag`, so a shutdown stops a scan between two batches and an analysis by
/// terminating its ffmpeg child: nothing half-written, and the next start goes on.
///
/// With no library folder configured the server serves the demo library, written into
/// `DATA/demo-library` by ffmpeg on the first start (in the background: the server answers
/// at once and `GET /api/library/scan` shows the work).
///
/// ```swift
/// let library = LibraryService(database: database, libraryDirectory: folder, logger: logger)
/// let group = ServiceGroup(services: [library], logger: logger)   // or Application(services:)
/// try await group.run()
/// ```
public final class LibraryService: Service, Sendable {
    public let catalog: Catalog
    public let bpm: BPMQueue
    /// MusicBrainz lookups of band members (``MemberLookups``); ``run()`` performs the queued ones.
    public let members: MemberLookups
    /// The catalog as a graph (the explorer, "play a path", Subsonic's similar songs and artists).
    public let graph: GraphService
    /// The whole-library map, recomputed in the background after a scan that changed the catalog.
    public let map: LibraryMap
    /// The folder served: `--library DIR`, or the demo library in the data folder.
    public let root: URL
    public let isDemo: Bool
    private let logger: Logger
    private let state = ScanState()
    /// Rescans asked for while the service runs; ``run()`` performs them one at a time.
    private let requests: AsyncStream<Void>
    private let requestSink: AsyncStream<Void>.Continuation
    /// Map layouts due (after a changing scan, or at start when none is cached); one at a time.
    private let mapRequests: AsyncStream<Void>
    private let mapSink: AsyncStream<Void>.Continuation
    private let mapState = Lock(MapState())
    /// Seconds the BPM worker waits when nothing is left to analyse, and after an error.
    private let idlePause: Duration
    private let errorPause: Duration
    /// Whether ``run()`` runs the BPM worker (tests that want a fixed catalog turn it off).
    private let analyzesBPM: Bool

    /// What `GET /api/library/scan` answers.
    public struct Status: Sendable, Encodable {
        public var state: String
        public var phase: String
        public var root: String
        public var demo: Bool
        public var filesSeen: Int
        public var filesToRead: Int
        public var filesRead: Int
        public var songs: Int
        public var errors: [ScanIssue]
        public var filesPerSecond: Double
        public var eta: Double?
        public var lastScan: ScanReport?
        /// Set when the last scan failed as a whole (the folder is missing, say).
        public var failure: String?
    }

    public init(database: QuintetDatabase, libraryDirectory: URL?, logger: Logger, analyzesBPM: Bool = true,
                idlePause: Duration = .seconds(2), errorPause: Duration = .seconds(10),
                musicBrainz: MemberLookups.Source = .off) {
        self.analyzesBPM = analyzesBPM
        catalog = Catalog(database: database)
        bpm = BPMQueue(catalog: catalog)
        members = MemberLookups(catalog: catalog, source: musicBrainz, userAgent: MusicBrainzClient.userAgent,
                                fetch: MusicBrainzClient.fetch)
        graph = GraphService(catalog: catalog)
        isDemo = libraryDirectory == nil
        root = (libraryDirectory ?? database.directory.appendingPathComponent("demo-library")).standardizedFileURL
        self.logger = logger
        self.idlePause = idlePause
        self.errorPause = errorPause
        (requests, requestSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (mapRequests, mapSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        map = LibraryMap(catalog: catalog)
        _ = state.begin() // the first scan is due as soon as the service runs
    }

    /// Runs the first scan (after writing the demo library if needed), then rescans as they
    /// are asked for, and the BPM worker beside them, until graceful shutdown or cancellation.
    public func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.scanLoop() }
                group.addTask { await self.members.run() }
                group.addTask { await self.mapLoop() }
                if self.analyzesBPM { group.addTask { await self.bpmLoop() } }
            }
        }
        requestSink.finish()
        mapSink.finish()
        state.update { $0.phase = "stopped" }
        logger.debug("library service stopped")
    }

    /// Asks for a rescan; throws `CatalogError.scanInProgress` if one runs or is due.
    public func startScan() throws {
        guard state.begin() else { throw CatalogError.scanInProgress }
        requestSink.yield()
    }

    /// Where the scan stands (one count query when idle: call it through ``Blocking``).
    public func status() -> Status {
        let snapshot = state.snapshot()
        let progress = snapshot.progress ?? ScanProgress()
        return Status(state: snapshot.scanning ? "scanning" : "idle", phase: snapshot.phase, root: root.path, demo: isDemo,
                      filesSeen: progress.filesSeen, filesToRead: progress.filesToRead, filesRead: progress.filesRead,
                      songs: snapshot.scanning ? progress.songs : ((try? catalog.counts().songs) ?? progress.songs), errors: progress.errors,
                      filesPerSecond: progress.filesPerSecond, eta: progress.eta, lastScan: snapshot.lastReport,
                      failure: snapshot.failure)
    }

    /// The first scan, then one scan per request.
    private func scanLoop() async {
        await scan(writeDemoFirst: isDemo)
        for await _ in requests {
            if Task.isCancelled { break }
            await scan(writeDemoFirst: false)
        }
    }

    /// One scan on the blocking pool; cancelling the task cancels the scan.
    private func scan(writeDemoFirst: Bool) async {
        defer { state.end() }
        do {
            let report = try await runCancellable { [self] flag in
                if writeDemoFirst {
                    state.update { $0.phase = "writing demo library" }
                    let writer = try DemoLibraryWriter()
                    let written = try writer.write(to: root, cancellation: flag) { done, total, _ in
                        self.state.update { $0.phase = "writing demo library (\(done)/\(total))" }
                    }
                    if !written.isEmpty { logger.info("wrote the demo library", metadata: ["songs": "\(written.count)", "folder": "\(root.path)"]) }
                }
                return try CatalogScanner(catalog: catalog).scan(root: root, cancellation: flag) { progress in
                    self.state.update { $0.progress = progress; $0.phase = progress.phase.rawValue }
                }
            }
            state.update { $0.lastReport = report; $0.failure = nil }
            // The map follows the catalog: after a scan that changed it, or when none is cached yet.
            let mapMissing = (try? await Blocking.run { [map] in try map.cached() == nil }) ?? true
            if report.read > 0 || report.removed > 0 || (mapMissing && report.songs > 0) { requestMap() }
            logger.info("library scanned", metadata: [
                "folder": "\(root.path)", "files": "\(report.files)", "read": "\(report.read)",
                "songs": "\(report.songs)", "errors": "\(report.errors.count)",
                "seconds": "\(String(format: "%.2f", report.seconds))",
            ])
            await buildGraph()
        } catch is CancellationError {
            logger.info("library scan stopped (shutdown); the next start goes on from the batches written")
        } catch {
            logger.error("library scan failed: \(error)")
            state.update { $0.failure = String(describing: error) }
        }
    }

    /// Builds the music graph of the catalog just scanned, so the first expansion does not wait
    /// for it (a 100,000-song library takes about a second); a failure is logged and the graph is
    /// built on first use instead.
    private func buildGraph() async {
        let start = ContinuousClock.now
        do {
            let built = try await Blocking.run { [graph] in
                graph.invalidate()
                return try graph.current()
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            logger.info("music graph built", metadata: [
                "nodes": "\(built.nodeCount)", "links": "\(built.linkCount)", "seconds": "\(String(format: "%.2f", seconds))",
            ])
        } catch {
            logger.error("music graph not built: \(error)")
        }
    }

    /// Asks for the map to be laid out again (in the background; a request while one runs is kept
    /// and served after it).
    public func requestMap() {
        mapState.withLock { $0.due = true }
        mapSink.yield()
    }

    /// Where the map stands: `computing` while a layout runs or is due, the last failure if any.
    public func mapStatus() -> (computing: Bool, failure: String?) {
        mapState.withLock { ($0.due || $0.running, $0.failure) }
    }

    /// Lays out the map once per request, on the blocking pool (the scan is not waited for).
    private func mapLoop() async {
        for await _ in mapRequests {
            if Task.isCancelled { break }
            mapState.withLock { $0.due = false; $0.running = true }
            do {
                let cached = try await runCancellable { [map] flag in try map.recompute(isCancelled: { flag.isCancelled }) }
                mapState.withLock { $0.failure = nil }
                logger.info("library map laid out", metadata: [
                    "nodes": "\(cached.nodes)", "edges": "\(cached.edges)", "incremental": "\(cached.incremental)",
                    "seconds": "\(String(format: "%.2f", cached.seconds))",
                ])
            } catch is CancellationError {
            } catch ForceLayout.Failure.cancelled {
            } catch {
                logger.error("library map failed: \(error)")
                mapState.withLock { $0.failure = String(describing: error) }
            }
            mapState.withLock { $0.running = false }
        }
    }

    /// Analyses songs without a BPM one at a time while no scan runs; waits when done.
    private func bpmLoop() async {
        while !Task.isCancelled {
            do {
                if state.snapshot().scanning {
                    try await Task.sleep(for: .milliseconds(250))
                    continue
                }
                let analysed = try await runCancellable { [bpm] flag in try bpm.analyzeNext(cancellation: flag) }
                if analysed == nil { try await Task.sleep(for: idlePause) }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("BPM analysis paused: \(error)")
                try? await Task.sleep(for: errorPause)
            }
        }
    }

    /// Runs blocking `work` on the blocking pool; cancelling the calling task cancels the flag
    /// `work` is handed (and so its ffmpeg child or scan).
    private func runCancellable<T: Sendable>(_ work: @escaping @Sendable (CancellationFlag) throws -> T) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await Blocking.run { try work(flag) }
        } onCancel: {
            flag.cancel()
        }
    }
}

/// The map's layout state (written by the map loop, read by routes).
private struct MapState {
    var due = false
    var running = false
    var failure: String?
}

/// The scan's shared state (written by the scan, read by routes).
private final class ScanState: Sendable {
    struct Snapshot {
        var scanning = false
        var phase = "idle"
        var progress: ScanProgress?
        var lastReport: ScanReport?
        var failure: String?
    }

    private let value = Lock(Snapshot())

    /// Marks a scan as due; false if one already runs or is due.
    func begin() -> Bool {
        value.withLock { value in
            guard !value.scanning else { return false }
            value.scanning = true
            value.phase = "starting"
            value.progress = nil
            return true
        }
    }

    func end() { value.withLock { $0.scanning = false; $0.phase = "idle" } }
    func update(_ change: (inout Snapshot) -> Void) { value.withLock { change(&$0) } }
    func snapshot() -> Snapshot { value.withLock { $0 } }
}
