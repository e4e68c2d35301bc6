import Foundation
import GRDB
import Locking

/// The one SQLite database of a data folder (`DATA/quintet.sqlite`), shared by every system.
///
/// Opened in WAL mode through a GRDB `DatabasePool`, so the CLI can read and write while
/// `quintet serve` runs on the same folder; writers wait up to 10 s for a busy lock.
/// Opening creates the folder if needed and applies every pending migration.
///
/// ```swift
/// let database = try QuintetDatabase.open(in: URL(fileURLWithPath: "quintet-data"),
///                                         migrations: QuintetStore.allMigrations())
/// ```
public final class QuintetDatabase: Sendable {
    /// File name of the database inside the data folder.
    public static let fileName = "quintet.sqlite"

    /// The GRDB pool; cores run their queries through it.
    public let pool: DatabasePool
    /// The data folder.
    public let directory: URL

    /// Whether ``close()`` ran: a second call does nothing (GRDB crashes on a closed pool).
    private let closed = Lock(false)

    private init(pool: DatabasePool, directory: URL) {
        self.pool = pool
        self.directory = directory
    }

    /// Opens (creating if needed) the database in `directory` and runs pending migrations.
    /// Throws `StoreError` with the path and the cause when the folder or file is unusable.
    public static func open(in directory: URL, migrations: MigrationRegistry) throws -> QuintetDatabase {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.unusableDataFolder("cannot create \(directory.path): \(error.localizedDescription)")
        }
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        // In WAL mode NORMAL syncs at checkpoints, not at every commit: the database stays
        // consistent after a crash and only the last commits can be lost on power failure.
        // FULL (SQLite's default) made a library scan wait ~10 ms per batch for fsync.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let path = directory.appendingPathComponent(fileName).path
        do {
            let pool = try DatabasePool(path: path, configuration: config)
            try migrations.migrator().migrate(pool)
            return QuintetDatabase(pool: pool, directory: directory)
        } catch let error as DatabaseError {
            throw StoreError.database("\(path): \(error.message ?? error.description)")
        } catch {
            throw StoreError.database("\(path): \(error)")
        }
    }

    /// Identifiers of the migrations applied so far (`system.name`).
    public func appliedMigrations() throws -> [String] {
        let applied: Set<String> = try pool.read { (db: Database) throws -> Set<String> in
            try DatabaseMigrator().appliedIdentifiers(db)
        }
        return applied.sorted()
    }

    /// Flushes the WAL into the main file and closes every connection. Further use throws;
    /// closing again does nothing.
    public func close() throws {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
    }
}
