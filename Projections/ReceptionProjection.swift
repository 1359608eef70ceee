import GRDB
import Inspection

/// Every sample received at an inspection centre (seed 4.2.5), as the receiver entered it, and
/// whether a replacement was asked for: what `GET /v1/receptions` lists and the manufacturer's
/// acknowledgement prints. A plain projection: receptions are a few events a day.
public struct ReceptionProjection: PlainProjection {
    public init() {}
    public var name: String { "reception" }
    public var version: Int { 1 }
    public var eventTypes: Set<String> { [ProductReceived.eventType, ReplacementRequested.eventType] }
    public var tables: [String] { ["reception"] }

    public func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("reception.v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE reception (
                      reception_id TEXT PRIMARY KEY, position INTEGER NOT NULL, gtin TEXT NOT NULL,
                      location TEXT NOT NULL, received_by TEXT NOT NULL, received_at INTEGER NOT NULL,
                      condition INTEGER NOT NULL, priority INTEGER NOT NULL, inspect_before INTEGER,
                      decommission INTEGER NOT NULL, storage_location TEXT NOT NULL,
                      replacement_requested INTEGER NOT NULL DEFAULT 0)
                    """)
            // The receiver's list, newest first.
            try db.execute(sql: "CREATE INDEX reception_by_receiver ON reception (received_by, position)")
            try db.execute(sql: "CREATE INDEX reception_by_position ON reception (position)")
        }
    }

    public func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
        switch event {
        case .productReceived(let event):
            // Cached: a replay folds every reception of the log through the same two statements.
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO reception (reception_id, position, gtin, location, received_by,
                      received_at, condition, priority, inspect_before, decommission, storage_location)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    event.receptionID, Int64(envelope.position), event.gtin, event.locationID, event.receivedBy,
                    envelope.occurredAt, event.condition.rawValue, event.priority.rawValue,
                    event.inspectBefore?.microsecondsSinceEpoch, event.decommission.rawValue, event.storageLocation,
                ])
        case .replacementRequested(let event):
            try db.cachedStatement(sql: "UPDATE reception SET replacement_requested = 1 WHERE reception_id = ?")
                .execute(arguments: [event.receptionID])
        default:
            break
        }
    }
}
