import GRDB
import Projections
import Inspection

/// A test read model on the plain path (``PlainProjection``): every location and inspector with
/// its latest name, kind or role. The application retired it (nothing read it); the plain path
/// it tested stays for small read models.
struct RosterProjection: PlainProjection {
    init() {}
    var name: String { "roster" }
    var version: Int { 1 }
    var eventTypes: Set<String> { ["LocationRegistered", "InspectorRegistered"] }
    var tables: [String] { [LocationRecord.databaseTableName, InspectorRecord.databaseTableName] }

    func registerMigrations(in migrator: inout DatabaseMigrator) {
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

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
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
struct LocationRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "roster_location"
    /// The location id.
    var id: String
    /// Its name.
    var name: String
    /// Its kind (stored as its code).
    var kind: LocationKind
    /// When it was last registered (occurred-at, microseconds).
    var registeredAt: Int64
}

/// An inspector (or receiver, or manager) of the roster.
struct InspectorRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "roster_inspector"
    /// The inspector id.
    var id: String
    /// Their name.
    var name: String
    /// Their role (stored as its code).
    var role: InspectorRole
    /// When they were last registered (occurred-at, microseconds).
    var registeredAt: Int64
}

extension ProjectionStore {
    /// Every location of the roster, by id.
    func locations() throws -> [LocationRecord] {
        try database.read { db in
            try db.tableExists(LocationRecord.databaseTableName)
                ? LocationRecord.order(Column("id")).fetchAll(db) : []
        }
    }

    /// Every inspector of the roster, by id.
    func rosterInspectors() throws -> [InspectorRecord] {
        try database.read { db in
            try db.tableExists(InspectorRecord.databaseTableName)
                ? InspectorRecord.order(Column("id")).fetchAll(db) : []
        }
    }
}
