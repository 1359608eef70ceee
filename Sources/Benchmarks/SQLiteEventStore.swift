import AuditLog
import Chronology
import Foundation
import GRDB

/// The baseline: a plain SQLite events table (WAL, `synchronous=FULL`, prepared statements).
struct SQLiteEventStore {
    let queue: DatabaseQueue
    let url: URL
    private var versions: [String: UInt64] = [:]
    private var nextPosition: UInt64 = 1

    init(url: URL) throws {
        self.url = url
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, stream_version INTEGER NOT NULL,
                        event_type TEXT NOT NULL, schema_version INTEGER NOT NULL, recorded_at INTEGER NOT NULL,
                        occurred_at INTEGER NOT NULL, actor TEXT NOT NULL, command_id TEXT NOT NULL UNIQUE,
                        payload BLOB NOT NULL, UNIQUE (stream_id, stream_version))
                    """)
        }
    }

    /// Inserts one batch in one transaction with a prepared statement; durable at commit.
    mutating func append(_ batch: [StreamAppend], recordedAt: Int64) throws {
        var versions = self.versions
        var position = nextPosition
        try queue.inTransaction { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO events (position, stream_id, stream_version, event_type, schema_version,
                    recorded_at, occurred_at, actor, command_id, payload) VALUES (?,?,?,?,?,?,?,?,?,?)
                    """)
            for append in batch {
                for event in append.events {
                    let version = versions[append.streamID, default: 0] + 1
                    versions[append.streamID] = version
                    try statement.execute(arguments: [
                        Int64(position), append.streamID, Int64(version), event.eventType, Int(event.schemaVersion),
                        recordedAt, event.occurredAt.microsecondsSinceEpoch, append.actor, append.commandID,
                        Data(event.payload),
                    ])
                    position += 1
                }
            }
            return .commit
        }
        self.versions = versions
        nextPosition = position
    }

    /// Scans the whole table and decodes every row into an ``EventRecord``; returns the count.
    func replay(_ body: (EventRecord) -> Void) throws -> Int {
        try queue.read { db in
            var count = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM events ORDER BY position")
            while let row = try rows.next() {
                let payload: Data = row[9]
                body(
                    EventRecord(
                        position: UInt64(row[0] as Int64), streamID: row[1], streamVersion: UInt64(row[2] as Int64),
                        eventType: row[3], schemaVersion: UInt16(row[4] as Int),
                        recordedAt: Timestamp(microsecondsSinceEpoch: row[5]),
                        occurredAt: Timestamp(microsecondsSinceEpoch: row[6]), actor: row[7], commandID: row[8],
                        payload: [UInt8](payload)))
                count += 1
            }
            return count
        }
    }

    /// Bytes on disk after folding the WAL into the database file.
    func bytesOnDisk() throws -> UInt64 {
        try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        var total: UInt64 = 0
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            total += (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        }
        return total
    }
}
