import GRDB
import Inspection

/// The people and places work is assigned to: every location and inspector with its latest name,
/// kind or role. Small, and fed by registrations only, so it takes the plain path
/// (``PlainProjection``): records in, records out.
public struct RosterProjection: PlainProjection {
    public init() {}
    public var name: String { "roster" }
    public var version: Int { 1 }
    public var eventTypes: Set<String> { ["LocationRegistered", "InspectorRegistered"] }
    public var tables: [String] { [LocationRecord.databaseTableName, InspectorRecord.databaseTableName] }

    public func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("roster.v1") { db in
            try db.create(table: LocationRecord.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("kind", .integer).notNull()
                table.column("registeredAt", .integer).notNull()
            }
            try db.create(table: InspectorRecord.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("role", .integer).notNull()
                table.column("registeredAt", .integer).notNull()
            }
        }
    }

    public func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
        switch event {
        case .locationRegistered(let event):
            try LocationRecord(
                id: event.locationID, name: event.name, kind: event.kind, registeredAt: envelope.occurredAt
            ).save(db)
        case .inspectorRegistered(let event):
            try InspectorRecord(
                id: event.inspectorID, name: event.name, role: event.role, registeredAt: envelope.occurredAt
            ).save(db)
        default:
            break
        }
    }
}

/// A location of the roster: a store, warehouse or inspection centre.
public struct LocationRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "roster_location"
    /// The location id.
    public var id: String
    /// Its name.
    public var name: String
    /// Its kind (stored as its code).
    public var kind: LocationKind
    /// When it was last registered (occurred-at, microseconds).
    public var registeredAt: Int64
}

/// An inspector (or receiver, or manager) of the roster.
public struct InspectorRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "roster_inspector"
    /// The inspector id.
    public var id: String
    /// Their name.
    public var name: String
    /// Their role (stored as its code).
    public var role: InspectorRole
    /// When they were last registered (occurred-at, microseconds).
    public var registeredAt: Int64
}

extension ProjectionStore {
    /// Every location of the roster, by id.
    public func locations() throws -> [LocationRecord] {
        try database.read { db in
            try db.tableExists(LocationRecord.databaseTableName)
                ? LocationRecord.order(Column("id")).fetchAll(db) : []
        }
    }

    /// Every inspector of the roster, by id.
    public func rosterInspectors() throws -> [InspectorRecord] {
        try database.read { db in
            try db.tableExists(InspectorRecord.databaseTableName)
                ? InspectorRecord.order(Column("id")).fetchAll(db) : []
        }
    }
}
