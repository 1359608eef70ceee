import Chronology
import GRDB
import Inspection

/// Photos: where each `PhotoAttached` is in the log, with its task's product, batch and
/// inspector, so a product's or a batch's photos are found without reading the log.
///
/// The fast decoder keeps no strings of a task event, so the photo's SHA-256, size and type are
/// not copied here: the row's `position` is the event's, and ``PhotoRow`` readers take them from
/// the log at that position (a handful per page). Table `photo`, one row per attached photo: a
/// `PhotoDetached` removes its task's row with the same photo key (``TaskEvent/photoKey(_:)``).
public struct PhotoProjection: Projection {
    public init() {}
    public var name: String { "photos" }
    public var version: Int { 2 }
    public var eventTypes: Set<String>? { ["PhotoAttached", "PhotoDetached"] }
    /// The task directory (product, batch, inspector of each task) is the batch fold's.
    public var dependencies: [String] { ["batches"] }
    public var tables: [String] { ["photo"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE photo (
              position INTEGER PRIMARY KEY, gtin TEXT NOT NULL, task TEXT NOT NULL, batch TEXT NOT NULL,
              inspector TEXT NOT NULL, occurred_at INTEGER NOT NULL, photo_key INTEGER NOT NULL)
            """,
            "CREATE INDEX photo_gtin ON photo (gtin, position)",
            "CREATE INDEX photo_task ON photo (task, position)",
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        try PhotoFold(db, context: context)
    }
}

final class PhotoFold: ProjectionFold {
    private let insert: WriteStatement
    private let delete: WriteStatement

    init(_ db: Database, context: FoldContext) throws {
        insert = try context.writeStatement(
            db,
            """
            INSERT OR REPLACE INTO photo (position, gtin, task, batch, inspector, occurred_at, photo_key)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        delete = try context.writeStatement(db, "DELETE FROM photo WHERE task = ? AND photo_key = ?")
    }

    func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ task: TaskRecord) throws {
        switch event.kind {
        case .photoAttached:
            try insert.execute(
                .integer(Int64(envelope.position)), .text(task.gtin), .text(task.taskID), .text(task.batchID),
                .text(task.inspectorID), .integer(envelope.occurredAt), .integer(Int64(event.code)))
        case .photoDetached:
            // A task holds one attachment of a photo at a time (the decision refuses a second).
            try delete.execute(.text(task.taskID), .integer(Int64(event.code)))
        default:
            return
        }
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {}

    func flush(at position: UInt64) throws {}
}

/// One photo event as the `photo` table holds it.
public struct PhotoRow: Sendable, Hashable, Codable {
    /// The log position of its `PhotoAttached` (where its hash, size and type are).
    public var position: UInt64
    /// The product's GTIN-14.
    public var gtin: String
    /// The task it was attached to.
    public var taskID: String
    /// The task's batch ("" for an ad-hoc task).
    public var batchID: String
    /// Who attached it.
    public var inspectorID: String
    /// When (occurred-at).
    public var occurredAt: Timestamp
}

extension ProjectionStore {
    /// The latest `limit` photos of the product `gtin` (padded to 14 digits), oldest first.
    public func photos(gtin: String, limit: Int = 200) throws -> [PhotoRow] {
        try photos(where: "gtin = ?", Self.gtin14(gtin), limit: limit)
    }

    /// The latest `limit` photos of the task `taskID`, oldest first.
    public func photos(task taskID: String, limit: Int = 200) throws -> [PhotoRow] {
        try photos(where: "task = ?", taskID, limit: limit)
    }

    private func photos(where condition: String, _ value: String, limit: Int) throws -> [PhotoRow] {
        try database.read { db in
            guard try db.tableExists("photo") else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT position, gtin, task, batch, inspector, occurred_at FROM photo
                    WHERE \(condition) ORDER BY position DESC LIMIT ?
                    """, arguments: [value, limit]
            ).reversed().map { row in
                PhotoRow(
                    position: UInt64(row[0] as Int64), gtin: row[1], taskID: row[2], batchID: row[3],
                    inspectorID: row[4], occurredAt: Self.time(row[5]))
            }
        }
    }
}
