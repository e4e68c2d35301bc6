import GRDB
import GRDBSQLite

/// A statement prepared on a GRDB connection and driven through SQLite's C API: values are
/// bound by position in call order with no `StatementArguments` boxing, which is most of what
/// a row costs in GRDB. For the scanner's hot inserts only; everything else goes through GRDB.
/// Use it inside the `Database` closure that created it.
final class RawStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String
    private var next: Int32 = 1
    /// SQLite copies bound text before the call returns (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "closed connection") }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        self.connection = connection
        self.handle = statement
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ value: String?) {
        defer { next += 1 }
        guard var value else { sqlite3_bind_null(handle, next); return }
        value.withUTF8 { bytes in
            if let base = bytes.baseAddress, bytes.count > 0 {
                _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, next, $0, Int32(bytes.count), Self.transient)
                }
            } else {
                _ = sqlite3_bind_text(handle, next, "", 0, Self.transient)
            }
        }
    }

    func bind(_ value: Int64?) {
        defer { next += 1 }
        if let value { sqlite3_bind_int64(handle, next, value) } else { sqlite3_bind_null(handle, next) }
    }

    func bind(_ value: Int?) { bind(value.map(Int64.init)) }

    func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

    func bind(_ value: Double?) {
        defer { next += 1 }
        if let value, value.isFinite { sqlite3_bind_double(handle, next, value) } else { sqlite3_bind_null(handle, next) }
    }

    /// Runs the statement with the values bound so far, then resets it for the next row.
    /// Returns the first column of the first row it answers (for `RETURNING id`), if any.
    @discardableResult
    func run() throws -> Int64? {
        var first: Int64?
        try forEachRow { row in
            if first == nil { first = row.int64(0) }
        }
        return first
    }

    /// Runs the statement and hands every row to `body`, then resets it. The row is only
    /// valid inside the call.
    func forEachRow(_ body: (RawRow) throws -> Void) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            next = 1
        }
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW:
                try body(RawRow(handle: handle))
            case SQLITE_DONE:
                return
            default:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
            }
        }
    }
}

/// The current row of a `RawStatement` (columns count from 0).
struct RawRow {
    let handle: OpaquePointer

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column's text as UTF-8 bytes, without making a `String`.
    func text(_ column: Int32) -> UnsafeRawBufferPointer {
        guard let pointer = sqlite3_column_text(handle, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }
}
