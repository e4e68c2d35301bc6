import Foundation
import GRDB

/// A device as stored: its key, the location it belongs to, when it last reported (seconds
/// since 2001-01-01 UTC, Foundation's reference date, so a `Date` round-trips exactly), its age
/// and sex. Never a position.
struct CrowdDeviceRow {
    var key: CrowdDeviceID
    var locationID: Int64
    var lastSeen: Double
    var age: Int?
    var sex: CrowdSex?
}

/// A location as stored: its fixed centre and its members' statistics.
struct CrowdLocationRow {
    var id: Int64
    var lat: Double
    var lon: Double
    var people: Int
    var ageSum: Int
    var ageCount: Int
    var men: Int
    var women: Int
}

/// A comment as stored (`time` in seconds since the reference date).
struct CrowdCommentRow {
    var id: Int64
    var locationID: Int64
    var text: String
    var time: Double
}

/// Everything one commit writes: the current rows of what changed since the last commit.
struct CrowdChangeBatch {
    var upsertDevices: [CrowdDeviceRow] = []
    var deleteDevices: [CrowdDeviceID] = []
    var upsertLocations: [CrowdLocationRow] = []
    /// Deleted locations.
    var deleteLocations: [Int64] = []
    /// Deleted locations that had comments: delete theirs.
    var deleteCommentsOf: [Int64] = []
    var insertComments: [CrowdCommentRow] = []
    /// Comments pushed out of a location's latest ten.
    var deleteComments: [Int64] = []
    var nextLocationID: Int64 = 1
    var nextCommentID: Int64 = 1

    var isEmpty: Bool {
        upsertDevices.isEmpty && deleteDevices.isEmpty && upsertLocations.isEmpty && deleteLocations.isEmpty
            && deleteCommentsOf.isEmpty && insertComments.isEmpty && deleteComments.isEmpty
    }
}

/// What the engine's state sits on: loaded whole at start-up, then written in batches.
protocol CrowdStore: AnyObject {
    /// Calls the closures with every stored row (locations first, then devices, then comments
    /// in id order) and answers the next location and comment ids.
    func load(location: (CrowdLocationRow) -> Void,
              device: (_ key: UnsafeRawBufferPointer, _ locationID: Int64, _ lastSeen: Double, _ age: Int?, _ sex: CrowdSex?) -> Void,
              comment: (CrowdCommentRow) -> Void) throws -> (nextLocationID: Int64, nextCommentID: Int64)
    /// Writes one batch in one transaction.
    func apply(_ batch: CrowdChangeBatch) throws
    /// Checkpoints and closes.
    func close() throws
}

/// The embedded store: one SQLite file (`crowd.sqlite` in the data folder) through GRDB, in WAL
/// mode with `synchronous = NORMAL`: a commit is in the WAL file (the operating system's cache)
/// when it returns, so a killed process loses nothing it committed; only a power cut can lose
/// the last commits before a checkpoint.
final class CrowdSQLiteStore: CrowdStore {
    private let writer: any DatabaseWriter

    /// Opens (creating if needed) the file at `path`, or an in-memory database when nil.
    init(path: String?) throws {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A city's devices table is ~60 MB: keep its pages in memory rather than reading
            // them back for every batch.
            try db.execute(sql: "PRAGMA cache_size = -131072")
        }
        if let path {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            writer = try DatabasePool(path: path, configuration: config)
        } else {
            writer = try DatabaseQueue(configuration: config)
        }
        try Self.migrator.migrate(writer)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("crowd-v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    next_location_id INTEGER NOT NULL,
                    next_comment_id INTEGER NOT NULL
                );
                INSERT INTO meta (id, next_location_id, next_comment_id) VALUES (1, 1, 1);
                CREATE TABLE locations (
                    id INTEGER PRIMARY KEY,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    people INTEGER NOT NULL,
                    age_sum INTEGER NOT NULL,
                    age_count INTEGER NOT NULL,
                    men INTEGER NOT NULL,
                    women INTEGER NOT NULL
                );
                CREATE TABLE devices (
                    key BLOB PRIMARY KEY,
                    location_id INTEGER NOT NULL,
                    last_seen REAL NOT NULL,
                    age INTEGER,
                    sex TEXT CHECK (sex IN ('m', 'f'))
                ) WITHOUT ROWID;
                CREATE TABLE comments (
                    id INTEGER PRIMARY KEY,
                    location_id INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    time REAL NOT NULL
                );
                CREATE INDEX comments_location ON comments (location_id);
                """)
        }
        return migrator
    }

    func load(location: (CrowdLocationRow) -> Void,
              device: (UnsafeRawBufferPointer, Int64, Double, Int?, CrowdSex?) -> Void,
              comment: (CrowdCommentRow) -> Void) throws -> (nextLocationID: Int64, nextCommentID: Int64) {
        try writer.read { db in
            let locations = try Row.fetchCursor(db, sql: "SELECT id, lat, lon, people, age_sum, age_count, men, women FROM locations ORDER BY id")
            while let row = try locations.next() {
                location(CrowdLocationRow(id: row[0], lat: row[1], lon: row[2], people: row[3], ageSum: row[4],
                                          ageCount: row[5], men: row[6], women: row[7]))
            }
            let devices = try Row.fetchCursor(db, sql: "SELECT key, location_id, last_seen, age, sex FROM devices")
            while let row = try devices.next() {
                let locationID: Int64 = row[1]
                let lastSeen: Double = row[2]
                let age: Int? = row[3]
                let sexText: String? = row[4]
                let sex = sexText.flatMap(CrowdSex.init(rawValue:))
                try row.withUnsafeData(atIndex: 0) { data in
                    (data ?? Data()).withUnsafeBytes { device($0, locationID, lastSeen, age, sex) }
                }
            }
            let comments = try Row.fetchCursor(db, sql: "SELECT id, location_id, text, time FROM comments ORDER BY id")
            while let row = try comments.next() {
                comment(CrowdCommentRow(id: row[0], locationID: row[1], text: row[2], time: row[3]))
            }
            let meta = try Row.fetchOne(db, sql: "SELECT next_location_id, next_comment_id FROM meta WHERE id = 1")
            return (meta?[0] ?? 1, meta?[1] ?? 1)
        }
    }

    func apply(_ batch: CrowdChangeBatch) throws {
        try writer.write { db in
            if !batch.upsertLocations.isEmpty {
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO locations (id, lat, lon, people, age_sum, age_count, men, women)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET people = excluded.people, age_sum = excluded.age_sum,
                        age_count = excluded.age_count, men = excluded.men, women = excluded.women
                    """)
                for l in batch.upsertLocations {
                    try statement.execute(arguments: [l.id, l.lat, l.lon, l.people, l.ageSum, l.ageCount, l.men, l.women])
                }
            }
            if !batch.upsertDevices.isEmpty {
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO devices (key, location_id, last_seen, age, sex) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET location_id = excluded.location_id,
                        last_seen = excluded.last_seen, age = excluded.age, sex = excluded.sex
                    """)
                for d in batch.upsertDevices {
                    try statement.execute(arguments: [d.key.data, d.locationID, d.lastSeen, d.age, d.sex?.rawValue])
                }
            }
            if !batch.deleteDevices.isEmpty {
                let statement = try db.cachedStatement(sql: "DELETE FROM devices WHERE key = ?")
                for key in batch.deleteDevices { try statement.execute(arguments: [key.data]) }
            }
            if !batch.insertComments.isEmpty {
                let statement = try db.cachedStatement(sql: "INSERT INTO comments (id, location_id, text, time) VALUES (?, ?, ?, ?)")
                for c in batch.insertComments { try statement.execute(arguments: [c.id, c.locationID, c.text, c.time]) }
            }
            if !batch.deleteComments.isEmpty {
                let statement = try db.cachedStatement(sql: "DELETE FROM comments WHERE id = ?")
                for id in batch.deleteComments { try statement.execute(arguments: [id]) }
            }
            if !batch.deleteLocations.isEmpty {
                let locations = try db.cachedStatement(sql: "DELETE FROM locations WHERE id = ?")
                for id in batch.deleteLocations { try locations.execute(arguments: [id]) }
            }
            if !batch.deleteCommentsOf.isEmpty {
                let comments = try db.cachedStatement(sql: "DELETE FROM comments WHERE location_id = ?")
                for id in batch.deleteCommentsOf { try comments.execute(arguments: [id]) }
            }
            try db.cachedStatement(sql: "UPDATE meta SET next_location_id = ?, next_comment_id = ? WHERE id = 1")
                .execute(arguments: [batch.nextLocationID, batch.nextCommentID])
        }
    }

    func close() throws {
        if let pool = writer as? DatabasePool {
            _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try pool.close()
        } else if let queue = writer as? DatabaseQueue {
            try queue.close()
        }
    }
}
