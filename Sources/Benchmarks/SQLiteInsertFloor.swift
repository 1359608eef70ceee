import Foundation
import GRDB
import GRDBSQLite
import Projections

/// What SQLite alone takes to write rows shaped like the projections' widest (a `task` row: five
/// texts, fourteen integers, a text primary key), through the C API with nothing else running:
/// the floor under a rebuild's database thread, measured in the same run as the rebuild.
struct SQLiteInsertFloor {
    /// Rows per second inserting `rows` rows into a new database at `url` (same pragmas as the
    /// projection store, a commit every `chunk` rows, as the runner commits).
    static func rowsPerSecond(rows: Int, chunk: Int = 65_536, at url: URL) throws -> Double {
        ProjectionStore.remove(at: url)
        defer { ProjectionStore.remove(at: url) }
        let store = try ProjectionStore.open(at: url)
        return try store.database.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE floor_task (
                      task TEXT PRIMARY KEY, batch TEXT NOT NULL, inspector TEXT NOT NULL, location TEXT NOT NULL,
                      gtin TEXT NOT NULL, mode INTEGER NOT NULL, allocated_at INTEGER NOT NULL,
                      position INTEGER NOT NULL, collection INTEGER NOT NULL, skip_reason INTEGER, inspection INTEGER,
                      phase INTEGER NOT NULL, verdicts INTEGER NOT NULL, passed INTEGER NOT NULL,
                      warning INTEGER NOT NULL, failure INTEGER NOT NULL, unable INTEGER NOT NULL,
                      photos INTEGER NOT NULL, updated_at INTEGER NOT NULL) WITHOUT ROWID
                    """)
            let statement = try db.makeStatement(
                sql:
                    "INSERT OR REPLACE INTO floor_task VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            )
            let handle = statement.sqliteStatement
            // Ids like the sample history's (batch "B<n>", task "B<n>-<k>"), made before the clock starts.
            let tasks = (0..<rows).map { "B\($0 / 8)-\($0 % 8)" }
            let batches = (0..<(rows / 8 + 1)).map { "B\($0)" }
            let inspectors = (0..<40).map { "insp-\($0)" }
            let locations = (0..<3).map { "store-\($0)" }
            let gtins = (0..<2_000).map { "0641489101\(1_000 + $0)" }
            let started = DispatchTime.now().uptimeNanoseconds
            try db.beginTransaction()
            for row in 0..<rows {
                sqlite3_bind_text(handle, 1, tasks[row], -1, SQLITE_TRANSIENT)
                sqlite3_bind_text(handle, 2, batches[row / 8], -1, SQLITE_TRANSIENT)
                sqlite3_bind_text(handle, 3, inspectors[row % 40], -1, SQLITE_TRANSIENT)
                sqlite3_bind_text(handle, 4, locations[row % 3], -1, SQLITE_TRANSIENT)
                sqlite3_bind_text(handle, 5, gtins[row % 2_000], -1, SQLITE_TRANSIENT)
                for column in 6...19 {
                    sqlite3_bind_int64(handle, Int32(column), 1_773_511_750_234_009 &+ Int64(row * column))
                }
                let code = sqlite3_step(handle)
                sqlite3_reset(handle)
                guard code == SQLITE_DONE else {
                    throw BenchmarkFailure(
                        message: "the SQLite floor insert failed: \(String(cString: sqlite3_errstr(code)))")
                }
                if (row + 1) % chunk == 0 {
                    try db.commit()
                    try db.beginTransaction()
                }
            }
            try db.commit()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            return Double(rows) / seconds
        }
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the text (it is a C macro Swift does not import).
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
