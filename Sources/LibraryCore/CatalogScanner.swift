import AudioCore
import Foundation
import GRDB
import MediaTags
import Locking

/// Where a scan stands; handed to the progress callback now and then and kept by the server
/// for `GET /api/library/scan`.
public struct ScanProgress: Sendable, Equatable, Codable {
    public enum Phase: String, Sendable, Codable { case walking, reading, finishing, done }
    public var phase: Phase = .walking
    /// Audio files found by the walk so far.
    public var filesSeen = 0
    /// Files that must be (re-)read: new or changed.
    public var filesToRead = 0
    /// Of those, read and written so far.
    public var filesRead = 0
    /// Songs in the catalog (updated as batches are written).
    public var songs = 0
    public var errors: [ScanIssue] = []
    /// Seconds since the scan started.
    public var elapsed: Double = 0

    public init() {}

    /// Files read per second so far.
    public var filesPerSecond: Double { elapsed > 0 ? Double(filesRead) / elapsed : 0 }
    /// Seconds left at the current rate; nil before there is a rate.
    public var eta: Double? {
        guard phase == .reading, filesRead > 0, elapsed > 0 else { return nil }
        return Double(filesToRead - filesRead) / filesPerSecond
    }
}

/// The summary of a finished scan.
public struct ScanReport: Sendable, Equatable, Codable {
    public var files: Int
    public var read: Int
    public var unchanged: Int
    public var removed: Int
    public var songs: Int
    public var albums: Int
    public var artists: Int
    public var errors: [ScanIssue]
    public var seconds: Double
}

/// Scans a folder into the catalog: walk, plan against the last scan (size + mtime), read
/// the new and changed files' tags on every core while one writer stores them in batches,
/// drop deleted files, then tidy albums, covers and orphans. Unchanged files are never
/// opened. Tag reading only: BPM analysis and thumbnails come later (`BPMQueue`, covers on
/// demand).
///
/// Reading and writing overlap: reader threads fill batches of files in order, the calling
/// thread writes each batch in one transaction as soon as it is ready, so the database work
/// hides behind the reading and memory stays bounded (pictures are never kept: a song only
/// records that it has one).
public struct CatalogScanner: Sendable {
    public let catalog: Catalog
    /// Files per write transaction (and per progress update). Each commit rewrites the pages
    /// of the indexes that grow in random order (artist ids, name keys) to the WAL, so fewer,
    /// larger commits write less: 1,024 wrote four times the catalog's size for 20,000 files.
    public var batchSize = 2048

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Scans `root` into the catalog. A different root from the catalog's last one empties
    /// the catalog first. `progress` is called from the scanning thread.
    ///
    /// Blocking. Once `cancellation` is cancelled the readers stop at the next file and the
    /// scan throws `CancellationError` before its next write: every batch written so far is
    /// committed whole, and the next scan goes on from there (unchanged files are skipped).
    public func scan(root: URL, cancellation: CancellationFlag? = nil,
                     progress: (ScanProgress) -> Void = { _ in }) throws -> ScanReport {
        let started = Date()
        var state = ScanProgress()
        func report(_ phase: ScanProgress.Phase) {
            state.phase = phase
            state.elapsed = Date().timeIntervalSince(started)
            progress(state)
        }
        report(.walking)
        let rootURL = root.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: rootURL.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CatalogError.invalid("\(rootURL.path) is not a folder")
        }
        try catalog.setRoot(rootURL)
        let walk = LibraryWalker.survey(root: rootURL)
        try cancellation?.check()
        state.filesSeen = walk.files.count
        state.errors = walk.issues
        let previous = try catalog.database.pool.read { db in
            var map: [String: LibraryFile] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, mtime FROM library_song")
            while let row = try rows.next() {
                let path: String = row[0]
                map[path] = LibraryFile(path: path, size: row[1], modified: row[2])
            }
            return map
        }
        let plan = ScanPlan(current: walk.files, previous: previous)
        state.filesToRead = plan.toRead.count
        let walkSeconds = Date().timeIntervalSince(started)
        state.songs = previous.count
        report(.reading)

        let writer = try CatalogWriter(database: catalog.database)
        defer { writer.close() }
        let batches = stride(from: 0, to: plan.toRead.count, by: batchSize).map {
            Array(plan.toRead[$0..<min(plan.toRead.count, $0 + batchSize)])
        }
        let pipeline = BatchPipeline(count: batches.count)
        let rootPath = rootURL.path
        // The readers stop early when the scan is cancelled or the writer has failed; the
        // scan does not return before they have all left (`readersDone`).
        let readersStop = CancellationFlag()
        let readersDone = DispatchSemaphore(value: 0)
        defer {
            if !batches.isEmpty {
                readersStop.cancel()
                readersDone.wait()
            }
        }
        if !batches.isEmpty {
            DispatchQueue.global(qos: .userInitiated).async {
                defer { readersDone.signal() }
                DispatchQueue.concurrentPerform(iterations: batches.count) { b in
                    var batch = ReadBatch()
                    var names = ScannedFile.NameCache()
                    batch.files.reserveCapacity(batches[b].count)
                    for file in batches[b] {
                        if readersStop.isCancelled || cancellation?.isCancelled == true { break }
                        do {
                            let info = try MediaReader.read(path: rootPath + "/" + file.path, size: Int(file.size))
                            // Tags alone do not make a song (an MP3 cut inside its tag has
                            // no audio frame; MediaTags still returns the tags it read).
                            guard info.stream.sampleRate != nil || info.stream.duration != nil else {
                                throw CatalogError.invalid("no audio: the file holds tags but no audio stream (cut short?)")
                            }
                            batch.files.append(ScannedFile(file: file, info: info, names: &names))
                        } catch {
                            batch.issues.append(ScanIssue(path: file.path, reason: String(describing: error)))
                        }
                    }
                    pipeline.put(b, batch)
                }
            }
        }
        var changed = !plan.removed.isEmpty
        var writeSeconds = 0.0, writeCPUSeconds = 0.0
        for b in 0..<batches.count {
            let batch = pipeline.take(b)
            try cancellation?.check()
            let t0 = Date()
            let c0 = Self.threadCPUSeconds()
            state.errors += batch.issues
            // A file that was in the catalog and now cannot be read leaves it.
            let failedKnown = batch.issues.compactMap { previous[$0.path] != nil ? $0.path : nil }
            try writer.write(batch.files, new: { previous[$0] == nil }, removing: failedKnown)
            writeSeconds += Date().timeIntervalSince(t0)
            writeCPUSeconds += Self.threadCPUSeconds() - c0

            changed = true
            state.filesRead += batch.files.count + batch.issues.count
            state.songs += batch.files.filter { previous[$0.file.path] == nil }.count - failedKnown.count
            report(.reading)
        }
        try cancellation?.check()
        report(.finishing)
        let t1 = Date()
        if changed {
            try writer.remove(plan.removed)
            try writer.finish(folderImages: walk.folderImages)
        }
        if ProcessInfo.processInfo.environment["QUINTET_SCAN_TIMING"] != nil {
            FileHandle.standardError.write(Data("walk+plan \(walkSeconds) s, read+write \(t1.timeIntervalSince(started) - walkSeconds) s, writer busy \(writeSeconds) s (CPU \(writeCPUSeconds) s), finish \(Date().timeIntervalSince(t1)) s\n".utf8))
        }
        try catalog.database.pool.write { db in
            try db.execute(sql: "UPDATE library_root SET scanned_at = ? WHERE id = 1", arguments: [Date().timeIntervalSince1970])
        }
        let counts = try catalog.counts()
        state.songs = counts.songs
        state.errors.sort { $0.path < $1.path }
        report(.done)
        return ScanReport(files: walk.files.count, read: plan.toRead.count, unchanged: plan.unchanged,
                          removed: plan.removed.count, songs: counts.songs, albums: counts.albums,
                          artists: counts.artists, errors: state.errors, seconds: Date().timeIntervalSince(started))
    }
}

extension CatalogScanner {
    /// CPU time of the calling thread (for `QUINTET_SCAN_TIMING`).
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// One file's tags as the catalog stores them (pictures reduced to a flag), with every
/// derived name and key computed on the reader's thread, so the single writer only looks
/// ids up and runs SQL.
struct ScannedFile: Sendable {
    /// A name and its comparison key.
    struct Name: Sendable {
        var text: String
        var key: String
        init(_ text: String) {
            let trimmed = text.trimmingWhitespace()
            // Stored in NFC (what most files write), so one name never shows two ways.
            self.text = trimmed.utf8.allSatisfy { $0 < 0x80 } ? trimmed : trimmed.precomposedStringWithCanonicalMapping
            key = NameKey(self.text).value
        }
    }

    var file: LibraryFile
    var format: String
    var tags: TagSet
    var stream: StreamInfo
    var hasPicture: Bool
    var title: Name
    var artistText: String
    var credited: [Name]
    var albumArtist: Name
    var album: Name
    var composers: [Name]
    var genres: [Name]
    /// Performer credits and MusicBrainz ids (band members).
    var memberFacts: MemberFacts

    /// Names already normalised in this batch: a library repeats its artist, album and
    /// genre names from song to song, and NFC plus case folding cost far more than a lookup.
    struct NameCache {
        private var names: [String: Name] = [:]

        mutating func name(_ text: String) -> Name {
            if let name = names[text] { return name }
            let name = Name(text)
            names[text] = name
            return name
        }
    }

    init(file: LibraryFile, info: MediaInfo, names: inout NameCache) {
        self.file = file
        format = info.format.rawValue
        var tags = info.tags
        hasPicture = !tags.pictures.isEmpty
        tags.pictures = []
        self.tags = tags
        stream = info.stream
        title = names.name(CatalogWriter.title(tags.title, path: file.path))
        artistText = tags.artists.isEmpty ? CatalogWriter.unknownArtist : tags.artists.joined(separator: "; ")
        credited = ArtistCredit.names(artists: tags.artists, title: tags.title, key: { names.name($0).key })
            .map { names.name($0) }
        let albumArtistName = tags.albumArtists.first(where: { !names.name($0).key.isEmpty })
            ?? (tags.compilation ? CatalogWriter.variousArtists : credited.first?.text ?? CatalogWriter.unknownArtist)
        albumArtist = names.name(albumArtistName)
        album = names.name(tags.album ?? "")
        composers = tags.composers.map { names.name($0) }.filter { !$0.key.isEmpty }
        genres = tags.genres.map { names.name($0) }.filter { !$0.key.isEmpty }
        memberFacts = MemberFacts(tags: tags, credited: credited, names: &names)
    }
}

/// One batch of files as the readers leave it: the songs read, and the files that failed.
struct ReadBatch: Sendable {
    var files: [ScannedFile] = []
    var issues: [ScanIssue] = []
}

/// Batches filled by reader threads in any order, taken by the writer in order: one slot
/// and one semaphore per batch (every reader puts its batch, even one cut short, so the
/// writer never waits for nothing).
private final class BatchPipeline: Sendable {
    private let slots: Lock<[ReadBatch?]>
    private let ready: [DispatchSemaphore]

    init(count: Int) {
        slots = Lock(Array(repeating: nil, count: count))
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    func put(_ index: Int, _ batch: ReadBatch) {
        slots.withLock { $0[index] = batch }
        ready[index].signal()
    }

    func take(_ index: Int) -> ReadBatch {
        ready[index].wait()
        return slots.withLock { slots in
            defer { slots[index] = nil }
            return slots[index]!
        }
    }
}
