import CSQLiteTuning
import Foundation
import GRDB

/// The projection database: the data directory's (AuditService's `DataDirectory` says where), or any
/// file for a point-in-time replay.
///
/// Open it, catch it up with ``ProjectionRunner``, then ask it questions (the query functions
/// in its extensions return plain `Sendable` values).
public struct ProjectionStore: Sendable {
    /// The connection (GRDB serializes access).
    public let database: DatabaseQueue

    /// Opens (creating when missing) the database at `url` in WAL mode with `synchronous=NORMAL`.
    /// - Throws: ``ProjectionError`` `.database` when the file cannot be opened.
    public static func open(at url: URL) throws -> ProjectionStore {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return ProjectionStore(database: try DatabaseQueue(path: url.path, configuration: configuration()))
        } catch {
            throw ProjectionError(
                .database, "cannot open the projection database \(url.path): \(error) (check the path and permissions)",
                context: ["file": url.path])
        }
    }

    /// Deletes the database at `url` with its `-wal` and `-shm` files (what is missing is skipped).
    public static func remove(at url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// Deletes a database nothing else uses (a temporary one) with its files and its `.lock` file.
    /// A shared database keeps its lock file: another process may hold the lock on it.
    public static func removeTemporary(at url: URL) {
        remove(at: url)
        try? FileManager.default.removeItem(atPath: url.path + ".lock")
    }

    /// A database in memory, for tests.
    public static func inMemory() throws -> ProjectionStore {
        ProjectionStore(database: try DatabaseQueue(configuration: configuration()))
    }

    /// SQLite's memory statistics lock a global mutex on every allocation: a rebuild spends a
    /// tenth of its time there. Off before the process's first connection (later, SQLite ignores it).
    private static let memoryStatisticsOff: Void = { _ = itemaudit_sqlite_disable_memory_statistics() }()

    private static func configuration() -> Configuration {
        memoryStatisticsOff
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -32768")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return configuration
    }
}

/// Every projection this build knows, dependencies first.
public enum ProjectionCatalog {
    /// The read models: batches (with the task directory), quality, inspectors, coverage,
    /// products, photos, all on the fast engine.
    public static let all: [any Projection] = [
        BatchProjection(), QualityProjection(), InspectorProjection(),
        CoverageProjection(), ProductProjection(), PhotoProjection(),
        PlainProjectionAdapter(ReceptionProjection()),
    ]

    /// Read models an earlier version kept and this one does not: a database built by that
    /// version loses their tables, migration records and checkpoints at the next catch-up.
    static let retired: [RetiredProjection] = [
        // Locations and inspectors as registered: read by nothing but its tests (the state answers).
        RetiredProjection(name: "roster", tables: ["roster_location", "roster_inspector"], migrations: ["roster.v1"])
    ]
}

/// A read model no longer kept, and what of it to remove from an older database.
struct RetiredProjection: Sendable {
    var name: String
    var tables: [String]
    /// Its identifiers in GRDB's `grdb_migrations` (plain projections record theirs there).
    var migrations: [String]

    /// Removes it from `db` when it is there.
    func remove(from db: Database) throws {
        guard
            try Int.fetchOne(db, sql: "SELECT 1 FROM projection_checkpoint WHERE name = ?", arguments: [name]) != nil
        else { return }
        for table in tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
        if try db.tableExists("grdb_migrations") {
            for identifier in migrations {
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
            }
        }
        try db.execute(sql: "DELETE FROM projection_checkpoint WHERE name = ?", arguments: [name])
    }
}
