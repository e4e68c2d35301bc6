import Foundation
import LibraryCore
import Logging
import QuintetStore

/// The library as the server runs it: the catalog, the folder it describes, the scan in
/// progress (one at a time, on its own thread), and the BPM queue working in the background
/// whenever no scan runs.
///
/// With no library folder configured the server serves the demo library, written into
/// `DATA/demo-library` by ffmpeg on the first start (in the background: the server answers
/// at once and `GET /api/library/scan` shows the work).
public final class LibraryService: Sendable {
    public let catalog: Catalog
    public let bpm: BPMQueue
    /// The folder served: `--library DIR`, or the demo library in the data folder.
    public let root: URL
    public let isDemo: Bool
    private let logger: Logger
    private let state = ScanState()

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

    public init(database: QuintetDatabase, libraryDirectory: URL?, logger: Logger) {
        catalog = Catalog(database: database)
        bpm = BPMQueue(catalog: catalog)
        isDemo = libraryDirectory == nil
        root = (libraryDirectory ?? database.directory.appendingPathComponent("demo-library")).standardizedFileURL
        self.logger = logger
    }

    /// Starts the first scan (after writing the demo library if needed) and the BPM worker.
    public func start() {
        try? startScan(writeDemoFirst: isDemo)
        let thread = Thread { [self] in bpmLoop() }
        thread.name = "quintet-bpm"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Stops the background work (at shutdown) and waits up to 5 s for the BPM worker and a
    /// scan in progress to leave the database, so the database does not close under them (a
    /// rescan still writing while its data folder went away ended in heap corruption in a test
    /// run). Bounded, because a scan cannot be cancelled yet and a shutdown must not hang on a
    /// long first scan; a longer scan is cut as before.
    public func stop() {
        state.stopped = true
        state.waitUntilIdle(timeout: 5)
    }

    /// Starts a rescan on its own thread; throws `CatalogError.scanInProgress` if one runs.
    public func startScan(writeDemoFirst: Bool = false) throws {
        guard state.begin() else { throw CatalogError.scanInProgress }
        let thread = Thread { [self] in
            defer { state.end() }
            do {
                if writeDemoFirst {
                    state.update { $0.phase = "writing demo library" }
                    let writer = try DemoLibraryWriter()
                    let written = try writer.write(to: root) { done, total, _ in
                        self.state.update { $0.phase = "writing demo library (\(done)/\(total))" }
                    }
                    if !written.isEmpty { logger.info("wrote the demo library", metadata: ["songs": "\(written.count)", "folder": "\(root.path)"]) }
                }
                let report = try CatalogScanner(catalog: catalog).scan(root: root) { progress in
                    self.state.update { $0.progress = progress; $0.phase = progress.phase.rawValue }
                }
                state.update { $0.lastReport = report; $0.failure = nil }
                logger.info("library scanned", metadata: [
                    "folder": "\(root.path)", "files": "\(report.files)", "read": "\(report.read)",
                    "songs": "\(report.songs)", "errors": "\(report.errors.count)",
                    "seconds": "\(String(format: "%.2f", report.seconds))",
                ])
            } catch {
                logger.error("library scan failed: \(error)")
                state.update { $0.failure = String(describing: error) }
            }
        }
        thread.name = "quintet-scan"
        thread.start()
    }

    public func status() -> Status {
        let snapshot = state.snapshot()
        let progress = snapshot.progress ?? ScanProgress()
        return Status(state: snapshot.scanning ? "scanning" : "idle", phase: snapshot.phase, root: root.path, demo: isDemo,
                      filesSeen: progress.filesSeen, filesToRead: progress.filesToRead, filesRead: progress.filesRead,
                      songs: snapshot.scanning ? progress.songs : ((try? catalog.counts().songs) ?? progress.songs), errors: progress.errors, filesPerSecond: progress.filesPerSecond,
                      eta: progress.eta, lastScan: snapshot.lastReport, failure: snapshot.failure)
    }

    /// Analyses songs without a BPM one at a time while no scan runs; sleeps when done.
    private func bpmLoop() {
        state.workerStarted()
        defer { state.workerEnded() }
        while !state.stopped {
            if state.snapshot().scanning {
                state.pause(seconds: 1)
                continue
            }
            do {
                if try bpm.analyzeNext() == nil { state.pause(seconds: 2) }
            } catch {
                if state.stopped { return }
                logger.warning("BPM analysis paused: \(error)")
                state.pause(seconds: 10)
            }
        }
    }
}

/// The scan's shared state, guarded by a lock (written by the scan thread, read by routes).
private final class ScanState: @unchecked Sendable {
    struct Snapshot {
        var scanning = false
        var phase = "idle"
        var progress: ScanProgress?
        var lastReport: ScanReport?
        var failure: String?
    }

    private let lock = NSCondition()
    private var value = Snapshot()
    private var stoppedFlag = false
    private var workerRunning = false

    var stopped: Bool {
        get { lock.lock(); defer { lock.unlock() }; return stoppedFlag }
        set { lock.lock(); stoppedFlag = newValue; lock.broadcast(); lock.unlock() }
    }

    func workerStarted() { lock.lock(); workerRunning = true; lock.unlock() }
    func workerEnded() { lock.lock(); workerRunning = false; lock.broadcast(); lock.unlock() }

    /// Sleeps up to `seconds`, waking at once when stopped.
    func pause(seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        while !stoppedFlag, lock.wait(until: deadline) {}
        lock.unlock()
    }

    /// Waits until the BPM worker has returned and no scan runs (or `timeout` seconds).
    func waitUntilIdle(timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        while workerRunning || value.scanning, lock.wait(until: deadline) {}
        lock.unlock()
    }

    func begin() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !value.scanning, !stoppedFlag else { return false }   // no new scan once stopping
        value.scanning = true
        value.phase = "starting"
        value.progress = nil
        return true
    }

    func end() { lock.lock(); value.scanning = false; value.phase = "idle"; lock.broadcast(); lock.unlock() }
    func update(_ change: (inout Snapshot) -> Void) { lock.lock(); change(&value); lock.unlock() }
    func snapshot() -> Snapshot { lock.lock(); defer { lock.unlock() }; return value }
}
